/**
 * False-positive guards: variants of the emulator that differ from the
 * default only where the interface document is silent ("not shown"). The
 * whole suite must pass against each (`npm run verify`). Selected with
 * `--variant NAME` (or EMULATOR_VARIANT=NAME, or startEmulator({ variant }));
 * each is one `if (ctx.variant === 'name')` where it differs.
 */
export interface Variant {
  name: string;
  /** What differs, and why the document allows it. */
  differs: string;
}

export const variants: readonly Variant[] = [
  {
    name: 'error-body-shape',
    differs: 'Errors of /api/v2 are application/problem+json { type, title, status, detail } ("The shape of error response bodies: not shown").',
  },
  {
    name: 'rate-limit-on-429-only',
    differs: 'X-RateLimit-* headers come only on 429 answers (the document names them on the 429).',
  },
  {
    name: 'rate-limit-reset-delta',
    differs: 'X-RateLimit-Reset is the number of seconds until the window resets, not an epoch time ("Numeric rate-limit values and windows: not shown").',
  },
  {
    name: 'validation-422',
    differs: 'Validation failures (bad body, query, path parameter) answer 422 instead of 400 ("Status codes for validation failures: not shown").',
  },
  {
    name: 'auth-statuses',
    differs: 'Outside the token-set listing, a missing or invalid token answers 403 and a token without the scope 404 (error statuses of the other endpoints: not shown).',
  },
  {
    name: 'token-response-minimal',
    differs: 'The token response carries only access_token and token_type (expires_in and scope are optional in RFC 6749 5.1; lifetime not shown).',
  },
];

/** The catalogue's names, for option validation and messages. */
export const variantNames: readonly string[] = variants.map((v) => v.name);
