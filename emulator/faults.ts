/**
 * The fault catalogue: each fault breaks exactly one documented rule and
 * leaves the emulator conformant in everything else. Switched on with
 * `--fault NAME` (or EMULATOR_FAULT=NAME, or startEmulator({ fault })).
 * `npm run verify` runs the checks of each fault's rule against an emulator
 * with that fault, and fails unless a check catches it.
 *
 * Each fault is one `if (ctx.faults.has('name'))` at the place where it
 * breaks its rule (selftest/emulator/faults.test.ts checks that every name
 * is used). Where breaking a rule makes a dependent check fail too (a
 * refused token cannot read anything), the fault still breaks only one
 * statement of the document; the sweep runs only the checks of its rule.
 */
import type { RuleId } from '../spec/rules.ts';

export interface Fault {
  /** Stable kebab-case name. */
  name: string;
  /** The rule it breaks. */
  rule: RuleId;
  /** One line on how. */
  how: string;
}

export const faults: readonly Fault[] = [
  // ------------------------------------------------------------- general
  { name: 'json-as-text-plain', rule: 'http.json-bodies', how: 'JSON success answers of /api/v2 carry Content-Type text/plain.' },

  // ------------------------------------------------------ authentication
  { name: 'missing-token-accepted', rule: 'auth.bearer.required', how: 'GET /client-grants/{id} admits a request without an Authorization header (as the full client).' },
  { name: 'malformed-header-accepted', rule: 'auth.bearer.malformed', how: 'GET /event-streams admits an Authorization header that is not a bearer JWT (Basic, empty, opaque).' },
  { name: 'tampered-signature-accepted', rule: 'auth.jwt.signature', how: 'GET /events admits a JWT whose signature does not verify, reading its claims unverified.' },
  { name: 'limited-token-accepted', rule: 'auth.scope.enforced', how: 'PUT /keys/custom-signing skips the scope check: a token without the in-scope scopes is admitted.' },
  { name: 'wrong-scope-required', rule: 'oauth.token.accepted', how: 'GET /client-grants/{id} requires read:client_grant (singular), which no issued token holds: 403.' },
  { name: 'token-sets-bad-token-403', rule: 'token-sets.list.unauthorized', how: 'The token-set listing answers 403 (not 401) to a token that fails verification.' },
  { name: 'token-sets-no-token-400', rule: 'token-sets.list.unauthorized', how: 'The token-set listing answers 400 (not 401) to a request without an Authorization header.' },
  { name: 'token-sets-scope-401', rule: 'token-sets.list.insufficient-scope', how: 'The token-set listing answers 401 (not 403) to a valid token without read:federated_connections_tokens.' },

  // ------------------------------------------------------ token endpoint
  { name: 'token-reissue-refused', rule: 'oauth.token.endpoint', how: 'A second token request of a client answers 400 invalid_request (one live token per client).' },
  { name: 'token-response-no-token-type', rule: 'oauth.token.response', how: 'The token response has no token_type.' },
  { name: 'token-not-jwt', rule: 'oauth.token.jwt', how: 'The token endpoint issues opaque access tokens (a reference the emulator resolves), not JWTs.' },
  { name: 'token-wrong-secret-accepted', rule: 'oauth.token.bad-client', how: 'The token endpoint checks the client id but not the client secret.' },
  { name: 'token-scope-not-verb-resource', rule: 'auth.scope.form', how: 'The token response names its scopes as <resource>/<verb> (client_grants/read).' },

  // --------------------------------------------------------- rate limits
  { name: 'rate-limit-not-enforced', rule: 'token-sets.list.rate-limit.status', how: 'Requests over the limit are counted (Remaining 0) but answered as usual, never 429.' },
  { name: 'rate-limit-503', rule: 'token-sets.list.rate-limit.status', how: 'Requests over the limit are answered 503 instead of 429.' },
  { name: 'rate-limit-429-no-reset', rule: 'token-sets.list.rate-limit.headers', how: 'A 429 carries X-RateLimit-Limit and -Remaining but no X-RateLimit-Reset.' },
  { name: 'rate-limit-remaining-negative', rule: 'rate-limit.header-values', how: 'X-RateLimit-Remaining counts on below zero over the limit (-1 on the first 429).' },
  { name: 'rate-limit-reset-fractional', rule: 'rate-limit.header-values', how: 'X-RateLimit-Reset is epoch seconds with milliseconds (1735689600.250), not an integer.' },
  { name: 'rate-limit-429-remaining-nonzero', rule: 'rate-limit.header-values', how: 'A 429 says X-RateLimit-Remaining 1.' },

  // --------------------------------------------------------- experiments
  { name: 'experiment-id-with-zero', rule: 'experiment.id.pattern', how: 'Experiment ids are minted with a 0 (exp_0…), outside the documented pattern.' },
];

/**
 * Must rules that no fault breaks, each with the reason. `npm run verify`
 * fails on a must rule that has neither a fault nor a reason here. (Rules
 * marked `observable: false` in spec/rules.ts need no entry.)
 */
export const unfaulted: Partial<Record<RuleId, string>> = {};

/** The catalogue's names, for option validation and messages. */
export const faultNames: readonly string[] = faults.map((f) => f.name);
