/**
 * False-positive guards: variants of the emulator that differ from the
 * default only where the interface document is silent ("not shown"). The
 * whole suite must pass against each (`npm run verify`). Selected with
 * `--variant NAME` (or EMULATOR_VARIANT=NAME, or startEmulator({ variant })).
 * Like a fault, a variant that only reshapes an answer is an entry of
 * mutations.ts, and one that changes behaviour acts through a seam of
 * seams.ts; `differs` is the one place that says what and why.
 */
export interface Variant {
  name: string;
  /** What differs, and why the document allows it. */
  differs: string;
}

export const variants = [
  {
    name: 'error-body-shape',
    differs:
      'Errors of /api/v2 are application/problem+json { type, title, status, detail } ("The shape of error response bodies: not shown").',
  },
  {
    name: 'transition-table',
    differs:
      'Experiments move from any status to any other target (not to the current one) ("Allowed source states for each target: not shown").',
  },
  {
    name: 'last-page-empty-next',
    differs:
      'The last page of event streams carries next: "" ("the form of the last page (whether next is absent): not shown").',
  },
  {
    name: 'last-page-trailing-empty',
    differs:
      'Every page with streams carries next; the walk ends on an empty page without next (the form of the last page: not shown).',
  },
  {
    name: 'extra-members',
    differs:
      'Every answered object (token sets, experiments, grants, streams, pages, keys, errors, token response, SSE payloads, envelopes, contexts) carries an unknown member (token sets: "Additional properties are allowed"; elsewhere silent). Custom text maps are left alone: every member there is a text value.',
  },
  {
    name: 'success-codes',
    differs:
      'The PUTs answer 201 and the experiment move 201, with the documented bodies ("success status code: not shown"; the token-set listing keeps its documented 200).',
  },
  {
    name: 'sse-comments-retry',
    differs:
      'The stream opens with retry: 3000 and sends a ": keep-alive" comment before each heartbeat (SSE framing the document does not restrict).',
  },
  {
    name: 'sse-payload-type-no-id',
    differs:
      'Payloads carry type (the SSE event field, "Injected from the SSE event field") and messages have no SSE id field (the offset is in the payload).',
  },
  {
    name: 'start-replays-recent',
    differs:
      'Without from, the stream first replays the 5 most recent events, then goes live ("starts from the latest events": whether recent ones are replayed is observed).',
  },
  {
    name: 'rate-limit-on-429-only',
    differs: 'X-RateLimit-* headers come only on 429 answers (the document names them on the 429).',
  },
  {
    name: 'rate-limit-reset-delta',
    differs:
      'X-RateLimit-Reset is the number of seconds until the window resets, not an epoch time ("Numeric rate-limit values and windows: not shown").',
  },
  {
    name: 'validation-422',
    differs:
      'Validation failures (bad body, query, path parameter) answer 422 instead of 400 ("Status codes for validation failures: not shown").',
  },
  {
    name: 'auth-statuses',
    differs:
      'Outside the token-set listing, a missing or invalid token answers 403 and a token without the scope 404 (error statuses of the other endpoints: not shown).',
  },
  {
    name: 'html-sanitised',
    differs:
      'Custom text values with markup outside the allow-list are stored sanitised (tags stripped) and answered 2xx instead of refused (the rule admits either).',
  },
  {
    name: 'form-jwks-unparsed',
    differs: 'A form-encoded JWKS is answered 400 (the form encoding of a JWKS is not shown) — never 415.',
  },
  {
    name: 'optional-members-absent',
    differs:
      'Members the document does not mark required are left out: token sets, client grants and event streams answer only their id (kept so they can be told apart and addressed), experiments no description, started_at or ended_at ("Unless marked required, a field may be absent").',
  },
  {
    name: 'events-other-2xx',
    differs: 'GET /events answers its stream with status 203 (the success status code of /events is not shown).',
  },
  {
    name: 'custom-text-keys-closed',
    differs:
      "Custom text accepts only the keys introduction (the suite's configured key), heading and description, and refuses others with 400 (the set of allowed text keys is not shown).",
  },
  {
    name: 'custom-text-merges',
    differs:
      'A custom text PUT merges the keys sent into the stored map and answers the merged map (the document says "set" and "the resulting text keys and values", not "replace").',
  },
  {
    name: 'token-response-minimal',
    differs:
      'The token response carries access_token and token_type, and scope only where the scope granted is not the one requested (RFC 6749 5.1: expires_in is RECOMMENDED, scope OPTIONAL when identical to the scope requested; lifetime not shown).',
  },
  // ------------------------------------ JSON operations, restore, fixtures, rate limits
  {
    name: 'no-snapshot-routes',
    differs:
      'Neither GET nor DELETE /keys/custom-signing nor GET custom text is served (405): the document shows only the PUTs, so the suite cannot snapshot and sends no write there.',
  },
  {
    name: 'rate-limit-reset-fractional',
    differs:
      'X-RateLimit-Reset is epoch seconds with milliseconds (1735689600.250) ("Numeric rate-limit values and windows: not shown").',
  },
  {
    name: 'rate-limit-429-remaining-nonzero',
    differs:
      'A 429 says X-RateLimit-Remaining 1 (as when another limit than the one described is hit); the document states only that the three headers describe the rate limit.',
  },
  {
    name: 'rate-limit-edge-of-probe',
    differs:
      "The rate-limited client may send 200 requests a window, the probe's default budget: its last answer is a correct 200 with X-RateLimit-Remaining 0, and no 429 comes within the probe (numeric values: not shown).",
  },
  {
    name: 'transition-table-terminal',
    differs:
      'Experiments in completed or archived accept no move (409) ("Allowed source states for each target: not shown").',
  },
  // ------------------------------------------- authentication, token endpoint
  {
    name: 'token-jwe',
    differs:
      'The token endpoint issues its JWTs in the JWE compact form (five segments, a nested signed JWT encrypted with dir/A256GCM): "the token is a JWT", and RFC 7519 1 represents a JWT as a JWS or a JWE. Its claims cannot be read, so no token can be forged from it.',
  },
  {
    name: 'token-expires-in-fractional',
    differs:
      'The token response gives expires_in as 86399.5, a JSON number with a fraction (RFC 6749 5.1: "the lifetime in seconds"; token lifetime not shown).',
  },
  {
    name: 'token-scope-ignored',
    differs:
      "The token endpoint ignores the scope parameter and grants the client's scopes (RFC 6749 3.3 lets the server ignore the scope requested; narrowing is not shown): the any-of-the-scopes check skips with the reason.",
  },
  // ------------------------------------------------------------ events stream
  {
    name: 'from-timestamp-minute',
    differs:
      'from_timestamp is rounded down to the minute (it is the less accurate start: "later requests use the cursor from `from`, which is more accurate").',
  },
  {
    name: 'no-heartbeats',
    differs: 'The stream sends no offset-only heartbeat at all ("Heartbeat frequency: not shown").',
  },
  {
    name: 'heartbeats-sparse',
    differs:
      'The first offset-only heartbeat comes 30 s after connecting, then every 30 s ("Heartbeat frequency: not shown").',
  },
  {
    name: 'cursor-expires',
    differs:
      'The offset of an event older than an hour is refused with 400 invalid_cursor ("how long a cursor stays valid: not shown").',
  },
  {
    name: 'sse-cr-line-ends',
    differs:
      'Every line of the events stream ends in CR alone, each message written on its own (HTML, Server-sent events, 9.2.5: end-of-line = ( cr lf / cr / lf )).',
  },
  {
    name: 'event-stream-members-reordered',
    differs:
      'An event stream fetched by id has its members in the reverse order of the listing\'s (RFC 8259 4: "An object is an unordered collection of zero or more name/value pairs").',
  },
  {
    name: 'event-stream-ids-crockford',
    differs:
      "An event stream's id is read as Crockford's base32 reads it (the alphabet of ULIDs, 26 characters as the document's ids): O as 0, I and L as 1, so a path id that differs from a stream's only there names that stream (RFC 3986 leaves what a path names to the server; the document shows no alphabet for the id).",
  },
] as const satisfies readonly Variant[];

/** A variant of the catalogue, by name. */
export type VariantName = (typeof variants)[number]['name'];

/** The catalogue's names, for option validation and messages. */
export const variantNames: readonly VariantName[] = variants.map((v) => v.name);
