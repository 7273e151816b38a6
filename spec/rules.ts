/**
 * The rule catalogue: every normative statement of the interface document
 * (`shared/000_dc00851a5b66de2b.txt`), one entry each.
 *
 * - `id` is stable: checks, faults and reports refer to it. Never reuse one.
 * - `level: 'must'`: the document states it; a target that breaks it fails.
 * - `level: 'observe'`: the document says "not shown"; the suite records what
 *   a target does and never fails on it (a profile may turn it into an
 *   expectation, see INTERPRETING.md).
 * - `requirement` quotes the document (or paraphrases it closely when the
 *   rule joins two sentences); `note` says how the suite reads it.
 * - `observable: false` marks a rule that no black-box client can check,
 *   with the reason in `note`.
 *
 * Schema rules are attached to the JSON Schemas with the `x-rule` keyword,
 * so that a validation error names the rule it breaks (see schemas/README.md).
 */
import type { OperationId } from './operations.ts';

export type Level = 'must' | 'observe';

export interface Rule {
  id: string;
  /** Section of the interface document. */
  section: string;
  /** The requirement, quoted. */
  requirement: string;
  /** Operations the rule applies to. */
  operations: readonly OperationId[];
  level: Level;
  note?: string;
  observable?: false;
}

const ALL_OPS: readonly OperationId[] = [
  'token-sets.list',
  'experiments.transition',
  'client-grants.get',
  'events.subscribe',
  'event-streams.get',
  'event-streams.list',
  'custom-signing-keys.put',
  'custom-text.put',
];
const JSON_OPS: readonly OperationId[] = ALL_OPS.filter((o) => o !== 'events.subscribe');
const STREAM_OPS: readonly OperationId[] = ['event-streams.get', 'event-streams.list'];

const S = {
  resources: 'Resources and their fields',
  tokenSet: 'Resources: Federated connection token set',
  experiment: 'Resources: Experiment',
  grant: 'Resources: Client grant',
  stream: 'Resources: Event stream',
  jwk: 'Resources: Custom signing key (JWK)',
  text: 'Resources: Self-service profile custom text',
  expStates: 'States and transitions: Experiment status',
  endpoints: 'Endpoints',
  ep1: 'Endpoints 1. List token sets of a user',
  ep2: 'Endpoints 2. Transition an experiment',
  ep3: 'Endpoints 3. Get a client grant',
  ep4: 'Endpoints 4. Subscribe to events (Server-Sent Events)',
  ep5: 'Endpoints 5. Get an event stream',
  ep6: 'Endpoints 6. List event streams',
  ep7: 'Endpoints 7. Create or replace custom signing keys',
  ep8: 'Endpoints 8. Set custom text for a self-service profile',
  auth: 'Authentication',
  events: 'Events',
  payload: 'Events: Payload of each data line',
  envelope: 'Events: Event envelope',
  errors: 'Errors',
  limits: 'Limits',
  versioning: 'Versioning',
} as const;

export const rules = [
  // ---------------------------------------------------------------- general
  {
    id: 'http.json-bodies',
    level: 'must',
    section: S.endpoints,
    operations: JSON_OPS,
    requirement: 'All request and response bodies are JSON unless stated.',
    note: 'A success response of a JSON operation is parseable JSON with a JSON media type (application/json or +json). The body is read as its Content-Encoding says (RFC 9110 8.4): an answer in any coding the request accepted, or in none, is the same JSON value (partition of Accept-Encoding: identity, gzip, deflate, br, a weighted list), and an answer labelled with a coding it is not in, or in one the request did not accept (12.5.3), is JSON to no client: it fails this rule (a refusal fails http.json-error-bodies), with the exchange as evidence.',
  },
  {
    id: 'http.json-error-bodies',
    level: 'must',
    section: S.endpoints,
    operations: JSON_OPS,
    requirement: 'All request and response bodies are JSON unless stated.',
    note: "A refused request's body, when there is one, is JSON with a JSON media type (any: application/json, application/problem+json, ...). Its shape is not shown.",
  },
  {
    id: 'http.json-request-bodies',
    level: 'must',
    section: S.endpoints,
    operations: ['experiments.transition', 'custom-signing-keys.put', 'custom-text.put'],
    requirement:
      'All request and response bodies are JSON unless stated. Requests with bodies carry `Content-Type: application/json`.',
    note: 'A body sent as application/json that is not JSON is refused with a 4xx: neither accepted nor answered with a 5xx.',
  },
  {
    id: 'http.unauthorized.challenge',
    level: 'must',
    section: S.endpoints,
    operations: [...ALL_OPS, 'oauth.token'],
    requirement:
      'All requests carry the header `Authorization: Bearer <ACCESS_TOKEN>` (RFC 9110 11.6.1: "A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge"; RFC 6750 3: the resource server "MUST include the HTTP WWW-Authenticate response header field" with the Bearer scheme).',
    note: 'Every 401 an operation answers carries WWW-Authenticate with a Bearer challenge; every 401 of the token endpoint carries WWW-Authenticate with a challenge (any scheme). Which requests get a 401 is decided by the other rules: only a 401 that arrives is held to this.',
  },
  {
    id: 'http.method-not-allowed.allow',
    level: 'must',
    section: S.endpoints,
    operations: ALL_OPS,
    requirement:
      'All paths are relative to {base_url} (RFC 9110 15.5.6: "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods").',
    note: 'Every 405 answered on a path of an operation carries an Allow header (it may be empty only for a resource that takes no method at all): a comma-separated list of method tokens (RFC 9110 10.2.1) that does not hold the method the 405 refused. Whether a method the path does not take gets 405 is not shown: only a 405 that arrives is held to this. On a path respelt as RFC 3986 makes the same or with a slash appended, where the target answers it as the plain path, each 405 lists the methods the 405 of the plain path lists.',
  },
  {
    id: 'http.path-id.percent-encoding',
    level: 'must',
    section: S.endpoints,
    operations: [
      'token-sets.list',
      'experiments.transition',
      'client-grants.get',
      'event-streams.get',
      'custom-text.put',
    ],
    requirement:
      'Path parameter `id`: string, required (user, experiment, client grant, event stream, self-service profile identifier).',
    note: 'An id is a path segment (RFC 3986 3.3), and spellings RFC 3986 makes equivalent name the same resource: "If two URIs differ only in the case of hexadecimal digits used in percent-encoded octets, they are equivalent" (2.1, 6.2.2.1), and "URIs that differ in the replacement of an unreserved character with its corresponding percent-encoded US-ASCII octet are equivalent: they identify the same resource" (2.3, 6.2.2.2). An id sent with its percent-encodings in lower-case hex, or with unreserved characters percent-encoded, is answered as its canonical spelling is. A segment that is no percent-encoding of UTF-8 (a % without two hex digits after it, 2.1; octets that are not UTF-8, 2.5), in the id or another segment of the path, names no resource that exists: a read of it is not answered 2xx.',
  },
  {
    id: 'timestamps.date-time',
    level: 'must',
    section: S.resources,
    operations: [
      'token-sets.list',
      'experiments.transition',
      'events.subscribe',
      'event-streams.get',
      'event-streams.list',
    ],
    requirement: 'All timestamps are ISO 8601 / RFC 3339 date-time strings.',
  },
  {
    id: 'versioning.path-prefix',
    level: 'must',
    section: S.versioning,
    operations: ALL_OPS,
    observable: false,
    requirement: 'The interface version is `2.0`; every path is under the prefix `/api/v2`.',
    note: 'The suite is given {base_url} (host + /api/v2) and addresses every operation under it; a target cannot break this without failing every other rule.',
  },
  {
    id: 'versioning.lifecycle',
    level: 'must',
    section: S.versioning,
    operations: ['token-sets.list'],
    requirement:
      'The token-set listing is Generally Available; the client grant field `default_for` is marked generally available.',
    note: 'A Generally Available operation is not announced as deprecated: its answers carry no Deprecation header (RFC 9745) naming a time already past (a time to come is left open: "Deprecation policy and compatibility guarantees: not shown"). The label of the member default_for has no mark on the wire. Every answer of the token-set listing is held to it: 200, 401, 403, 404 and the 429s of the rate-limit probe.',
  },

  // ---------------------------------------------------------- authentication
  {
    id: 'auth.bearer.required',
    level: 'must',
    section: S.auth,
    operations: ALL_OPS,
    requirement: 'All requests carry the header `Authorization: Bearer <ACCESS_TOKEN>`.',
    note: 'A request without the header is refused with a 4xx, never answered 2xx (or 5xx).',
  },
  {
    id: 'auth.bearer.malformed',
    level: 'must',
    section: S.auth,
    operations: ALL_OPS,
    requirement: 'Bearer scheme: header `Authorization: Bearer <ACCESS_TOKEN>`; the token is a JWT.',
    note: 'A header that is not a bearer JWT (another scheme, an empty token, a token that is not a JWT) is refused with a 4xx; so is the run\'s own token re-packed as a JWS JSON serialization (flattened or general, base64url-encoded or not: RFC 7519 1, a JWT is in the compact serialization). The run\'s token after "Bearer" and a separator HTTP does not take for SP (a no-break space as the octet A0 or in UTF-8, NEL, U+2000, U+3000, U+FEFF, VT, FF, FS) is refused with a 4xx too; HTAB is left open. A token that is no valid JWT is refused with a 4xx at every length (RFC 6750 2.1: b64token has no bound), from 1 KiB to 8 KiB around the sizes buffers are given: 401 where a short invalid token gets 401, or 400, 413 or 431 where the header is refused as too large (RFC 9110 5.4), never a 5xx.',
  },
  {
    id: 'auth.jwt.signature',
    level: 'must',
    section: S.errors,
    operations: ALL_OPS,
    requirement: '401: Invalid token; the JWT signature is invalid.',
    note: "A JWT whose signature is invalid is refused, on every operation: with 401 on the token-set listing (see token-sets.list.unauthorized), with a 4xx elsewhere. Checked with a signature altered, the claims unsigned (alg none), the claims signed by a key that is not the tenant's (under the tenant's kid, and with that key embedded in the header), the run's own token with its payload changed after signing (sent after the original), and, where writes are on, the claims signed by a key the suite has just set as a custom signing key, under its kid (RFC 8725 3.8: the keys must belong to the issuer; custom signing keys never sign the interface's own tokens). The forged token's kid is also varied over Unicode (a Cyrillic kid, one beyond the BMP, U+0001, CR LF, DEL, an empty kid, the tenant's kid in another case: RFC 7515 4.1.4 lets kid be any string): refused the same, never a 5xx. Also the run's own token with its header or payload JSON re-serialised to the same value (white space after colon and comma, on several lines or around the object, members in another order, a letter of a value or member name as a \\u escape, / as \\/), its signature kept: RFC 7515 5.2 verifies the signature over the segments as received.",
  },
  {
    id: 'auth.token.expired',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement:
      '401: Invalid token. (RFC 6749 5.1: expires_in is "the lifetime in seconds of the access token"; RFC 6750 3.1: invalid_token, the access token provided is "expired"; RFC 7519 4.1.4: "the current date/time MUST be before the expiration date/time".)',
    note: 'Relation between the token response and the token\'s use: a token the listing served 200 is refused 401 once the expires_in its token response announced has passed, plus CONFORMANCE_TOKEN_EXPIRY_LEEWAY seconds (default 300: RFC 7519 4.1.4 allows "some small leeway, usually no more than a few minutes"). It needs a client whose tokens live briefly (CONFORMANCE_EXPIRING_CLIENT_ID and CONFORMANCE_EXPIRING_CLIENT_SECRET); skipped, with the reason, without one, where its token response gives no expires_in, or where the wait would pass 60 s. A verification cache that outlives the token is what it catches.',
  },
  {
    id: 'auth.scope.enforced',
    level: 'must',
    section: S.auth,
    operations: ALL_OPS,
    requirement:
      'An operation accepts either the bearer scheme or the client-credentials scheme with the scopes it requires.',
    note: "A token that holds none of the in-scope scopes is refused with a 4xx. Which scope each operation requires is not shown except for token sets. A token narrowed to another operation's scope is refused also after that operation served it (relation over a sequence: the scope decision belongs to the operation, not to the token).",
  },
  {
    id: 'auth.unauthenticated.status',
    level: 'observe',
    section: S.errors,
    operations: ALL_OPS.filter((o) => o !== 'token-sets.list'),
    requirement: 'Status codes for validation failures and for the other endpoints: not shown.',
    note: 'Records the status of a request with no or a bad token on the operations other than token sets.',
  },
  {
    id: 'auth.forbidden.status',
    level: 'observe',
    section: S.errors,
    operations: ALL_OPS.filter((o) => o !== 'token-sets.list'),
    requirement: 'Required scope, error statuses and success status code: not shown.',
    note: 'Records the status of a request with a token lacking the scopes, on the operations other than token sets.',
  },
  {
    id: 'auth.scope.form',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement: 'Scopes have the form `<verb>:<resource>`.',
    note: 'Checked on the scope granted in the token response, where it is given.',
  },
  {
    id: 'oauth.token.endpoint',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement:
      'OAuth 2.0 client-credentials scheme: the token endpoint path is `/oauth/token/` on the tenant host ({auth_url}). The token request carries the form parameter `audience` with the value `/api/v2/`.',
    note: 'A client-credentials request with valid credentials, sent as a form body (application/x-www-form-urlencoded) to {auth_url}/oauth/token/ with the trailing slash, gets a 200 token response (RFC 6749 4.4.3, 5.1). The request with its audience, or the scope it may add (RFC 6749 4.4.2), given twice (the same value, or another before or after it) is not that request and gets no token (RFC 6749 3.2: "Request and response parameters MUST NOT be included more than once"; 5.2: invalid_request, the request "repeats a parameter"). A refusal of a request beside the documented one (an audience the tenant does not serve, a scope beyond the client\'s grant) is the error response of RFC 6749 5.2, never a 5xx; whether such a request is refused is not shown.',
  },
  {
    id: 'oauth.token.client-auth',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement:
      'OAuth 2.0 client-credentials scheme (RFC 6749 2.3.1: "The authorization server MUST support the HTTP Basic authentication scheme for authenticating clients that were issued a client password", the client identifier and password encoded with application/x-www-form-urlencoded first; 5.2: a client that authenticated through the Authorization header and failed gets 401 and a WWW-Authenticate field "matching the authentication scheme used by the client").',
    note: "The client's id and secret sent by HTTP Basic (form-urlencoded, then base64; the scheme in any case, RFC 9110 11.1) get a token response, as the body parameters do, and the token issued is accepted by the operations. Wrong credentials sent by HTTP Basic get 401 with a Basic challenge and no access_token.",
  },
  {
    id: 'oauth.token.grant-type',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement:
      'OAuth 2.0 client-credentials scheme (RFC 6749 4.4.2: grant_type "REQUIRED. Value MUST be set to client_credentials"; 5.2: a request missing a required parameter, or of a grant type the server does not support, is answered 400 with an error).',
    note: 'The documented token request with grant_type empty or of another grant type (password, authorization_code, refresh_token, the JWT bearer grant), whose own parameters it lacks, is refused and issues no access_token; so is the request with grant_type given twice, client_credentials and the same value or another before or after it (RFC 6749 3.2: "Request and response parameters MUST NOT be included more than once"; 5.2: invalid_request, the request "repeats a parameter"), the repeated name percent-encoded included (grant%5Ftype, every character encoded: the same name once decoded, RFC 3986 2.1). Where the endpoint takes the request as a JSON object (not the documented form), a JSON body that is no object (null, an array, a string, a number, true) carries no grant_type: it is refused with an error, never a 5xx.',
  },
  {
    id: 'oauth.token.response',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement:
      'OAuth 2.0 client-credentials scheme (RFC 6749 5.1: the response carries `access_token` and `token_type`, and the header Cache-Control: no-store).',
    note: 'The token response validates against schemas/token-response.schema.json, and carries Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1, a MUST for both: a token is not to be cached; Pragma read as RFC 9111 5.4 reads it, no-cache among its directives, in any case).',
  },
  {
    id: 'oauth.token.jwt',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement: 'Bearer scheme: header `Authorization: Bearer <ACCESS_TOKEN>`; the token is a JWT.',
    note: 'The issued access token is a JWT: a JWS compact serialisation whose header (with alg) and payload decode to JSON objects, or a JWE compact serialisation (five segments) whose header (with alg and enc) does (RFC 7519 1: "JWTs are always represented using the JWS Compact Serialization or the JWE Compact Serialization"). Every token the endpoint issues is held to it: those of requests with a scope parameter (one scope, several, every scope held), narrowed tokens used by other checks, and tokens issued to HTTP Basic credentials.',
  },
  {
    id: 'oauth.token.accepted',
    level: 'must',
    section: S.auth,
    operations: ALL_OPS,
    requirement:
      'An operation accepts either the bearer scheme or the client-credentials scheme with the scopes it requires.',
    note: "The run's token is accepted by every operation: the probe is answered 2xx; where the document leaves open whether the probe's request itself is allowed (an experiment move, a key type, a text key), a 4xx other than 401 and 403 is accepted too and observed. A 5xx is never accepted. Skipped when the probe addresses nothing that exists (a fixture not set).",
  },
  {
    id: 'oauth.token.bad-client',
    level: 'must',
    section: S.auth,
    operations: ['oauth.token'],
    requirement:
      'OAuth 2.0 client-credentials scheme (RFC 6749 5.2: a failed client authentication gets an error response).',
    note: 'Wrong client credentials get a 4xx and no access_token; so do the right ones with client_id or client_secret given twice, the same value or another before or after it (RFC 6749 3.2: "Request and response parameters MUST NOT be included more than once"; 5.2: invalid_request, the request "repeats a parameter"), the repeated name percent-encoded included (RFC 3986 2.1). HTTP Basic credentials of one client with another registered client\'s id, or an id no client has, as the client_id body parameter get the error response, or a token the operations answer as the authenticated client\'s own (RFC 6749 2.3, 3.2.1: the client is the one authenticated).',
  },
  {
    id: 'oauth.token.accepted.other-refusal',
    level: 'observe',
    section: S.errors,
    operations: ['experiments.transition', 'custom-signing-keys.put', 'custom-text.put'],
    requirement:
      'Allowed source states for each target, and the failure when a move is invalid: not shown. The set of allowed text keys: not shown. The full list of allowed values (kty): not shown.',
    note: "Records the 4xx (other than 401 and 403) a probe sent with the run's token got for a reason the document leaves open.",
  },
  {
    id: 'token-sets.list.any-required-scope',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement:
      'Token-set listing requires `read:federated_connections_tokens`. 403: Insufficient scope; any of the required scopes is expected (`read:federated_connections_tokens`).',
    note: 'Wherever the token endpoint narrows a token to the scope requested (RFC 6749 3.3, 4.4.2), a token holding only read:federated_connections_tokens is served the listing: 200 for CONFORMANCE_USER_ID, 404 for a user that does not exist. Tokens asked for the same scopes in other orders (reversed, the required one first or last, rotated) are answered alike, here and on the other operations (RFC 6749 3.3: the scope is a list whose order is not significant). Skipped, with the reason, with a static token or where the endpoint does not narrow.',
  },
  {
    id: 'oauth.token.scope-narrowing',
    level: 'observe',
    section: S.auth,
    operations: ['oauth.token'],
    requirement: 'Token lifetime and claim contents: not shown.',
    note: 'Records whether the token endpoint narrows a token to a requested scope (the scope parameter of RFC 6749 4.4.2).',
  },
  {
    id: 'oauth.token.error-shape',
    level: 'observe',
    section: S.auth,
    operations: ['oauth.token'],
    requirement: 'Token lifetime and claim contents: not shown.',
    note: 'Records the status and error code of a refused token request, and the token lifetime.',
  },

  // ------------------------------------------------------------- token sets
  {
    id: 'token-sets.list.success',
    level: 'must',
    section: S.ep1,
    operations: ['token-sets.list'],
    requirement: 'Success (200): JSON array of federated connection token set objects (active ones).',
  },
  {
    id: 'token-set.types',
    level: 'must',
    section: S.tokenSet,
    operations: ['token-sets.list'],
    requirement:
      'Fields id, connection, scope (string), expires_at (date-time string or null), issued_at (date-time string), last_used_at (date-time string or null). Additional properties beyond those below are allowed.',
  },
  {
    id: 'token-sets.list.active-only',
    level: 'must',
    section: S.ep1,
    operations: ['token-sets.list'],
    requirement: 'Success (200): JSON array of federated connection token set objects (active ones).',
    note: 'A token set whose expires_at is in the past (by more than a minute, for clock skew) is not listed. A null expires_at is not a past one. A blocked user is a user that exists: after PATCH /users/{id} with {"blocked": true}, and after {"blocked": false}, the listing is 200 with a JSON array; after a profile update beside the listing it holds the same token sets as before (disposable targets only).',
  },
  {
    id: 'token-sets.list.user-id.max-length',
    level: 'must',
    section: S.limits,
    operations: ['token-sets.list'],
    requirement: 'User id in token-set path: maximum length 300.',
    note: 'An id of 301 characters is refused with a 4xx; one of 300 characters is not refused for its length (404 for an unknown user).',
  },
  {
    id: 'token-sets.list.unknown-user',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement: '404: The user does not exist.',
  },
  {
    id: 'token-sets.list.unauthorized',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement: '401: Invalid token; the JWT signature is invalid; the client is not global.',
  },
  {
    id: 'token-sets.list.insufficient-scope',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement:
      '403: Insufficient scope; any of the required scopes is expected (`read:federated_connections_tokens`).',
  },
  {
    id: 'token-sets.list.scope-named',
    level: 'observe',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement: 'The shape of error response bodies: not shown.',
    note: 'Records whether the 403 body names read:federated_connections_tokens.',
  },
  {
    id: 'token-sets.list.rate-limit.status',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement: '429: Too many requests.',
    note: "With the rate-limit probe on, a request over the limit is answered 429. Numeric limits are not shown: reaching no limit within the probe budget is an observation, not a failure. Every request over the limit within a window is answered 429, not only the first: the requests sent right after a window's 429 and answered before its X-RateLimit-Reset (less a second of rounding) are 429 too. The limit is the token's, not the spelling of its Authorization header: once a token is over its limit, the same token with the auth-scheme in another case (bearer, BEARER: RFC 9110 11.1, RFC 6750 2.1) or two spaces after it is not admitted before the 429's X-RateLimit-Reset. The limit is the operation's, not the spelling of its request target: once over it, the listing sent with a query it does not name (?x=1, a cache buster, include_totals=true, an empty ?) or with an equivalent path (/%75sers/, RFC 3986 6.2.2.2) is neither served (2xx) nor failed (5xx) before the 429's X-RateLimit-Reset; a 429, another 4xx or a redirect is correct.",
  },
  {
    id: 'token-sets.list.rate-limit.headers',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement:
      '429: the headers `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` describe the rate limit.',
  },
  {
    id: 'rate-limit.header-values',
    level: 'must',
    section: S.errors,
    operations: ['token-sets.list'],
    requirement:
      '429: the headers `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` describe the rate limit.',
    note: 'On the 429, each value is a number in any numeric form (integer or fraction; Reset as epoch seconds or seconds to go), Limit and Remaining are not negative, and Remaining does not exceed Limit. Numeric values and windows are not shown: integers, and Remaining 0 on a 429, are not required; values on other answers are observed. The Reset of each 429 names when that refusal ends whatever the client sent meanwhile: the first request sent once the latest Reset announced on the 429s has passed (with a tolerance of a second for rounding) is served, after several requests right after the 429 or a late one just before that Reset (partition of what the client sends between a 429 and its Reset).',
  },
  {
    id: 'rate-limit.values',
    level: 'observe',
    section: S.limits,
    operations: ALL_OPS,
    requirement: 'Numeric rate-limit values and windows: not shown.',
    note: 'Records the limit, the form of X-RateLimit-Reset (epoch seconds, seconds to go, with a fraction), Remaining on the 429, and whether the headers come on every response.',
  },

  // ------------------------------------------------------------ experiments
  {
    id: 'experiments.transition.returns-experiment',
    level: 'must',
    section: S.ep2,
    operations: ['experiments.transition'],
    requirement: 'Success: the experiment object.',
    note: 'A 2xx answer carries an experiment that validates against schemas/experiment.schema.json.',
  },
  {
    id: 'experiments.transition.requested-status',
    level: 'must',
    section: S.expStates,
    operations: ['experiments.transition'],
    requirement: 'Next state: the requested status. The updated experiment is returned.',
  },
  {
    id: 'experiments.transition.same-experiment',
    level: 'must',
    section: S.ep2,
    operations: ['experiments.transition'],
    requirement: 'Path parameter `id`: string, required (experiment identifier). Success: the experiment object.',
    note: 'The returned experiment is the one named in the path.',
  },
  {
    id: 'experiments.transition.draft-rejected',
    level: 'must',
    section: S.expStates,
    operations: ['experiments.transition'],
    requirement: '`draft` is not an allowed target.',
    note: 'A move to draft gets a 4xx.',
  },
  {
    id: 'experiments.transition.status-enum',
    level: 'must',
    section: S.ep2,
    operations: ['experiments.transition'],
    requirement:
      'Request body: object with `status`: enum string, required; one of `active`, `paused`, `completed`, `archived`.',
    note: 'A status outside the enum (or not a string) gets a 4xx.',
  },
  {
    id: 'experiments.transition.status-required',
    level: 'must',
    section: S.ep2,
    operations: ['experiments.transition'],
    requirement: 'Request body: object with `status`: enum string, required.',
    note: 'A missing body, or a body without status, gets a 4xx. So does a body without status holding a near miss of its name (state, Status, status_, fullwidth letters, a literal %XX or \\u in the name) with a valid target.',
  },
  {
    id: 'experiments.transition.table',
    level: 'observe',
    section: S.expStates,
    operations: ['experiments.transition'],
    requirement: 'Allowed source states for each target, and the failure when a move is invalid: not shown.',
  },
  {
    id: 'experiments.transition.success-status',
    level: 'observe',
    section: S.ep2,
    operations: ['experiments.transition'],
    requirement: 'Required scope, error statuses and success status code: not shown.',
  },
  {
    id: 'experiments.transition.timestamps',
    level: 'observe',
    section: S.expStates,
    operations: ['experiments.transition'],
    requirement: 'Whether started_at and ended_at are set by the moves: not shown.',
  },
  {
    id: 'experiment.types',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement:
      'Experiment fields and their types (id, name, feature_flag_id, authentication_flow: string; assignment_config: object; is_valid: boolean; allocations: array of allocation; description: string).',
    note: 'The types hold whatever proactive negotiation fields the request carries (RFC 9110 12.5: Accept-Language, an Accept admitting JSON, Accept-Charset, Accept-Encoding): no member is localisable, so name stays a string and every member a move leaves alone equals the answer of a move without them, or the fields are refused 406.',
  },
  {
    id: 'experiment.required',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement:
      'Required: id, name, feature_flag_id, authentication_flow, allocation_strategy, assignment_config, status, is_valid, allocations, created_at, updated_at.',
  },
  {
    id: 'experiment.id.pattern',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement: 'id: Pattern `^exp_[A-HJ-NP-Za-km-z1-9]+$`.',
  },
  {
    id: 'experiment.status.enum',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement: 'status: enum string `draft`, `active`, `paused`, `completed`, `archived`.',
  },
  {
    id: 'experiment.allocation-strategy.enum',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement: 'allocation_strategy: enum string `percentage`, `segment`.',
  },
  {
    id: 'experiment.allocation.types',
    level: 'must',
    section: S.experiment,
    operations: ['experiments.transition'],
    requirement:
      'Allocation object: variation_id, segment_id (string), weight, priority (integer), is_control, is_fallback (boolean).',
  },

  // ---------------------------------------------------------- client grants
  {
    id: 'client-grants.get.success',
    level: 'must',
    section: S.ep3,
    operations: ['client-grants.get'],
    requirement: 'Success: the client grant object.',
    note: 'A 2xx JSON object.',
  },
  {
    id: 'client-grants.get.same-grant',
    level: 'must',
    section: S.ep3,
    operations: ['client-grants.get'],
    requirement: 'Path parameter `id`: string, required (client grant identifier). Success: the client grant object.',
    note: 'Where the grant carries an id, it is the id asked for.',
  },
  {
    id: 'client-grants.get.status',
    level: 'observe',
    section: S.ep3,
    operations: ['client-grants.get'],
    requirement: 'Required scope, error statuses and success status code: not shown.',
    note: 'Records the success code and the answer for an unknown id.',
  },
  {
    id: 'client-grant.types',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement:
      'Client grant fields and their types (id, client_id, audience: string; scope, authorization_details_types: array of string; allow_any_organization, is_system, allow_all_scopes: boolean).',
  },
  {
    id: 'client-grant.audience.min-length',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'audience: API identifier; minimum length 1.',
  },
  {
    id: 'client-grant.scope.items.min-length',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'scope: Scopes allowed; each item minimum length 1.',
  },
  {
    id: 'client-grant.organization-usage.enum',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'organization_usage: enum string `deny`, `allow`, `require`.',
  },
  {
    id: 'client-grant.default-for.enum',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'default_for: enum string. Only accepted value: `third_party_clients`.',
  },
  {
    id: 'client-grant.subject-type.enum',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'subject_type: enum string `client`, `user`.',
  },
  {
    id: 'client-grant.authorization-details-types.length',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'authorization_details_types: array of string. Each item length 1 to 255.',
  },
  {
    id: 'client-grant.client-id-default-for.exclusive',
    level: 'must',
    section: S.grant,
    operations: ['client-grants.get'],
    requirement: 'client_id: Identifier of the client. Mutually exclusive with default_for.',
  },

  // ----------------------------------------------------------------- events
  {
    id: 'events.content-type',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Success: a Server-Sent Events stream; each data line holds one JSON payload.',
    note: 'The response media type is text/event-stream.',
  },
  {
    id: 'events.message.event-field',
    level: 'must',
    section: S.events,
    operations: ['events.subscribe'],
    requirement:
      'The SSE `event` field carries the event type. In addition, the payload `type` can be `error` (an error payload) or `offset-only` (a cursor-only heartbeat).',
    note: 'Every message names a documented event type, error or offset-only.',
  },
  {
    id: 'events.message.data-json',
    level: 'must',
    section: S.events,
    operations: ['events.subscribe'],
    requirement: 'Each data line carries a JSON payload.',
    note: 'The stream is text/event-stream, which is UTF-8 (WHATWG HTML 9.2.5): a message whose bytes a strict UTF-8 decoder refuses (Latin-1 octets, CESU-8 surrogates) breaks this rule, on a live stream and in the history. The text a write stored comes back in its event code point for code point, whatever the widest character of the message: the Latin-1 supplement alone, the BMP (Cyrillic, CJK), beyond the BMP, combining sequences left decomposed.',
  },
  {
    id: 'events.payload.offset',
    level: 'must',
    section: S.payload,
    operations: ['events.subscribe'],
    requirement:
      'offset: string. Opaque cursor for the stream position; pass it as the `from` query parameter to resume.',
    note: 'Every event message carries a string offset. The bytes of every message are UTF-8 (WHATWG SSE; RFC 8259 8.1): a line a strict decoder refuses (CESU-8 surrogate halves) fails the message it sits in, and text beyond the BMP that the suite sent in names and metadata comes back in data.object code point for code point.',
  },
  {
    id: 'events.payload.envelope',
    level: 'must',
    section: S.envelope,
    operations: ['events.subscribe'],
    requirement:
      'event: object. The event envelope (specversion, type, source, id: string; time: date-time string; data: object with object and context; svctenant, svcstream, svcpurpose: string).',
  },
  {
    id: 'events.payload.type-matches',
    level: 'must',
    section: S.payload,
    operations: ['events.subscribe'],
    requirement:
      'type: Discriminator: an event type name, `error`, or `offset-only`. Injected from the SSE event field.',
    note: 'The SSE event field, the envelope type and (where present) the payload type agree.',
  },
  {
    id: 'events.context.types',
    level: 'must',
    section: 'Events: Context (inside data)',
    operations: ['events.subscribe'],
    requirement:
      'context.tenant.tenant_id, context.client.id/name, context.connection.id/name/strategy, context.request.* are strings; context.client.metadata is an object; geo latitude and longitude are numbers.',
  },
  {
    id: 'events.connection-created.object',
    level: 'must',
    section: 'Events: Data object of connection.created',
    operations: ['events.subscribe'],
    requirement: 'Fields of `data.object` of connection.created, with `options` and `oidc_metadata`, and their types.',
  },
  {
    id: 'events.offset-only.offset',
    level: 'must',
    section: S.events,
    operations: ['events.subscribe'],
    requirement: '`offset-only` (a cursor-only heartbeat).',
    note: 'A heartbeat carries a cursor: a string offset in its payload, or (its payload shape is not shown) in the SSE id field; its data is JSON.',
  },
  {
    id: 'events.resume.no-loss',
    level: 'must',
    section: S.payload,
    operations: ['events.subscribe'],
    requirement: 'offset: Opaque cursor for the stream position; pass it as the `from` query parameter to resume.',
    note: 'Resuming from the offset of event k, the newest (the head) included, delivers event k+1 and every later event. How long a cursor stays valid is not shown, but a cursor cannot expire before an older one of the same stream: a refusal is a failure where the older one is accepted right after. A cursor is a position in the stream, not a session: resumed with another token of the same client, the stream gives the same events after the offset as resumed with the token that opened it. Every offset the stream gives out is a cut point, whichever part of the stream it came from (an early, a middle or the last event of a history replayed after from_timestamp or after a cursor, as a live one): passed as from right after it came, it resumes to exactly what followed it. A refused offset breaks this rule only where another cursor the same stream gave out for the same or an older position (the SSE id of the same message, the offset of an earlier event) is accepted right after it and resumes to exactly what follows that position; refusing old positions alone is how long a cursor stays valid, which the document leaves open.',
  },
  {
    id: 'events.resume.no-duplicate',
    level: 'must',
    section: S.payload,
    operations: ['events.subscribe'],
    requirement: 'offset: Opaque cursor for the stream position; pass it as the `from` query parameter to resume.',
    note: 'Resuming from the offset of event k never delivers event k (or an earlier one) again, and delivers no event twice.',
  },
  {
    id: 'events.resume.order',
    level: 'must',
    section: S.payload,
    operations: ['events.subscribe'],
    requirement: 'offset: Opaque cursor for the stream position.',
    note: 'Events resumed from a cursor come in stream order, the order of the first read.',
  },
  {
    id: 'events.resume.heartbeat-offset',
    level: 'must',
    section: S.events,
    operations: ['events.subscribe'],
    requirement: '`offset-only` (a cursor-only heartbeat); offset: pass it as the `from` query parameter to resume.',
    note: 'Resuming from a heartbeat offset delivers exactly what followed the heartbeat in the uncut stream, wherever it came (before, among or after a replay): the events caused after it, and none of those that came before it.',
  },
  {
    id: 'events.start.latest',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Query `from`: When absent, the stream starts from the latest events.',
    note: 'An event caused after connecting without from arrives.',
  },
  {
    id: 'events.start.replay',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Query `from`: When absent, the stream starts from the latest events.',
    note: "Without from, events from before the connection arrive, if at all, only as the latest ones: a tail of the tenant's recent history (from_timestamp a day back) that reaches into none of its older half. How many recent events a start hands over is not shown, so a short replay of the newest passes.",
  },
  {
    id: 'events.from-timestamp.start',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement:
      'Query `from_timestamp`: RFC 3339 timestamp. Start position for the initial query only, when no cursor exists; later requests use the cursor from `from`, which is more accurate.',
    note: 'Every RFC 3339 timestamp of at most 20 characters is a start, "T" and "Z" in either case (RFC 3339 5.6 NOTE: they "may alternatively be lower case"). Every event whose time is at or after the timestamp is delivered, those in its own second included, and so are the events caused after connecting, even where the timestamp is ahead of the clock of the service (it is the start of the initial query only); events caused before connecting a minute or more before it are not. The timestamp is the less accurate start: a server may round it down, within a minute, never up.',
  },
  {
    id: 'events.from-timestamp.max-length',
    level: 'must',
    section: S.limits,
    operations: ['events.subscribe'],
    requirement: '`from_timestamp` (events stream): maximum length 20.',
    note: 'A value of 21 characters gets a 4xx.',
  },
  {
    id: 'events.from.max-length',
    level: 'must',
    section: S.limits,
    operations: ['events.subscribe'],
    requirement: '`from` cursor (events stream): maximum length 1024.',
    note: 'A value of 1025 characters gets a 4xx. The limit holds whatever else the query holds: a 1025-character from beside a valid from_timestamp, a listed event_type, or both, gets a 4xx too (a refusal of from with from_timestamp as a pair is one).',
  },
  {
    id: 'events.filter.only-requested',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Query `event_type`: optional, repeatable (one occurrence per type).',
    note: 'With event_type given once or repeated, only those types arrive. At every point in the life of the stream: events caused again once the stream has been open as long as a check waits for an event are filtered alike.',
  },
  {
    id: 'events.filter.all-when-absent',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'When absent, all event types are streamed.',
  },
  {
    id: 'events.filter.unknown-rejected',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Allowed values are listed in Events.',
    note: "An event_type outside the list gets a 4xx. Outside the list includes every name an allow-list store may find without listing it: the members every JavaScript object inherits (constructor, toString, __proto__), Python dunder names, prototype, length, and a listed type's namespace alone (user); each is refused before any stream opens.",
  },
  {
    id: 'events.from-and-timestamp',
    level: 'must',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement:
      'Query `from_timestamp`: Start position for the initial query only, when no cursor exists; later requests use the cursor from `from`, which is more accurate.',
    note: 'Given both, the cursor wins: a stream that accepts both resumes after the cursor, whatever the timestamp (earlier or later). Refusing the pair is not excluded by the document and is observed.',
  },
  {
    id: 'events.heartbeat.frequency',
    level: 'observe',
    section: S.events,
    operations: ['events.subscribe'],
    requirement: 'Heartbeat frequency and how long a cursor stays valid: not shown.',
  },
  {
    id: 'events.error-payload',
    level: 'observe',
    section: S.events,
    operations: ['events.subscribe'],
    requirement: 'Payload shapes of the `error` and `offset-only` messages: not shown.',
  },
  {
    id: 'events.status',
    level: 'observe',
    section: S.ep4,
    operations: ['events.subscribe'],
    requirement: 'Required scope, error statuses, success status code and response headers: not shown.',
  },

  // ---------------------------------------------------------- event streams
  {
    id: 'event-streams.get.success',
    level: 'must',
    section: S.ep5,
    operations: ['event-streams.get'],
    requirement: 'Success: the event stream object.',
    note: 'A 2xx JSON object.',
  },
  {
    id: 'event-streams.get.same-stream',
    level: 'must',
    section: S.ep5,
    operations: ['event-streams.get'],
    requirement: 'Path parameter `id`: string, required. Success: the event stream object.',
    note: 'Where the stream carries an id, it is the id asked for. The id of a resource of another kind (the self-service profile just written or read, an experiment, a client grant, the user) gets a 4xx, or a stream the listing holds under that id; never that other resource, never a 5xx.',
  },
  {
    id: 'event-streams.get.id.length',
    level: 'must',
    section: S.ep5,
    operations: ['event-streams.get'],
    requirement: 'Path parameter `id`: string, required, length exactly 26.',
    note: 'Ids of 25 and 27 characters get a 4xx.',
  },
  {
    id: 'event-streams.list.success',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: 'Success: object with `eventStreams` (array of event stream objects) and `next` (string, opaque).',
  },
  {
    id: 'event-streams.list.take.range',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: 'Query `take`: integer, optional, range 1 to 100, default 50.',
    note: 'take 1 and 100 are accepted; 0, 101, negative and non-integer values get a 4xx.',
  },
  {
    id: 'event-streams.list.take.page-size',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: 'Query `take`: Results per page.',
    note: 'A page has at most take items, and exactly take when a next page follows.',
  },
  {
    id: 'event-streams.list.take.default',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: 'Query `take`: default 50.',
    note: 'Without take, a page is sized as with take=50.',
  },
  {
    id: 'event-streams.list.next.terminates',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: '`next` (string, opaque; pass it as `from` to get the next page).',
    note: 'Following next ends (a page without next, or with an empty one, or an empty page) within a bounded number of pages.',
  },
  {
    id: 'event-streams.list.next.no-duplicates',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: '`next`: pass it as `from` to get the next page.',
    note: 'A walk by next never returns a stream twice. GET is safe (RFC 9110 9.2.1): a walk during which listed streams, and streams not yet listed, are read by id gives the same streams in the same order as a walk without reads, none twice and none missing.',
  },
  {
    id: 'event-streams.list.next.no-gap',
    level: 'must',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: '`next`: pass it as `from` to get the next page.',
    note: 'Walks with different take values return the same set of streams.',
  },
  {
    id: 'event-streams.list.last-page',
    level: 'observe',
    section: S.ep6,
    operations: ['event-streams.list'],
    requirement: 'The form of the last page (whether `next` is absent): not shown.',
  },
  {
    id: 'event-streams.status',
    level: 'observe',
    section: S.ep5,
    operations: STREAM_OPS,
    requirement: 'Required scope, error statuses and success status code: not shown.',
  },
  {
    id: 'event-stream.types',
    level: 'must',
    section: S.stream,
    operations: STREAM_OPS,
    requirement:
      'Event stream fields and their types (subscriptions items with event_type string; destination with type and configuration; webhook_endpoint string; webhook_authorization with method and username strings).',
  },
  {
    id: 'event-stream.id.length',
    level: 'must',
    section: S.stream,
    operations: STREAM_OPS,
    requirement: 'id: string (format event-stream-id). Exactly 26 characters.',
  },
  {
    id: 'event-stream.name.length',
    level: 'must',
    section: S.stream,
    operations: STREAM_OPS,
    requirement: 'name: string. Length 1 to 128.',
  },
  {
    id: 'event-stream.subscriptions.min-items',
    level: 'must',
    section: S.stream,
    operations: STREAM_OPS,
    requirement: 'subscriptions: array of object. Minimum 1 item.',
  },
  {
    id: 'event-stream.status.enum',
    level: 'must',
    section: S.stream,
    operations: STREAM_OPS,
    requirement: 'status: enum string `enabled`, `disabled`; maximum length 8.',
  },

  // --------------------------------------------------- custom signing keys
  {
    id: 'custom-signing-keys.put.json',
    level: 'must',
    section: S.ep7,
    operations: ['custom-signing-keys.put'],
    requirement: 'Request content types: `application/json`. Success: JWKS object with `keys` (the resulting keys).',
    note: 'A valid JWKS sent as JSON gets a 2xx with a JWKS. kid is any case-sensitive string (RFC 7517 4.5): kids holding path or URL characters (/ \\ .. %2F ? # ;), characters a store treats specially (a leading $ or ., __proto__), a quotation mark or Unicode of any plane are taken, and each key is answered, and read back, with its kid exactly as sent.',
  },
  {
    id: 'custom-signing-keys.put.form',
    level: 'must',
    section: S.ep7,
    operations: ['custom-signing-keys.put'],
    requirement: 'Request content types: `application/json`, `application/x-www-form-urlencoded`.',
    note: 'A form-encoded body is not refused for its media type (no 415). How a JWKS is form-encoded is not shown: the suite sends bracket notation (keys[0][kty]=…) and records the answer as an observation.',
  },
  {
    id: 'custom-signing-keys.put.replaces',
    level: 'must',
    section: S.ep7,
    operations: ['custom-signing-keys.put'],
    requirement:
      'Replaces the entire set of custom signing keys. Success: JWKS object with `keys` (the resulting keys).',
    note: 'After a second PUT with other keys, the answer holds exactly the new keys. A JWK or JWKS with a member name given twice (kid, kty, use, alg, keys) is refused with a 4xx, or answered and stored with the lexically last value (RFC 7517 4, 5); never the first.',
  },
  {
    id: 'custom-signing-keys.put.public-only',
    level: 'must',
    section: S.ep7,
    operations: ['custom-signing-keys.put'],
    requirement: 'Create or replace the set of custom public signing keys, as a JWKS.',
    note: 'The set holds public keys: a key sent with its private part (RFC 7518 6.2.2 d) is refused, or stored and answered without it.',
  },
  {
    id: 'custom-signing-keys.put.min-one-key',
    level: 'must',
    section: S.limits,
    operations: ['custom-signing-keys.put'],
    requirement: 'Custom signing keys array: minimum 1 item.',
    note: 'A JWKS with an empty keys array gets a 4xx.',
  },
  {
    id: 'custom-signing-keys.put.status',
    level: 'observe',
    section: S.ep7,
    operations: ['custom-signing-keys.put'],
    requirement: 'Required scope, error statuses and success status code: not shown.',
  },
  {
    id: 'jwks.keys',
    level: 'must',
    section: S.jwk,
    operations: ['custom-signing-keys.put'],
    requirement: 'A JWKS is an object with `keys`, an array of JWK objects.',
  },
  {
    id: 'jwk.types',
    level: 'must',
    section: S.jwk,
    operations: ['custom-signing-keys.put'],
    requirement: 'JWK fields kty, kid, use, n, e, x, y, x5u, x5t, x5t#S256 (string); key_ops, x5c (array of string).',
  },

  // ------------------------------------------------------------ custom text
  {
    id: 'custom-text.put.json',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Request content types: `application/json`. Success: object of the resulting text keys and values.',
  },
  {
    id: 'custom-text.put.form',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Request content types: `application/json`, `application/x-www-form-urlencoded`.',
    note: 'A flat map sent form-encoded gets a 2xx with the resulting map.',
  },
  {
    id: 'custom-text.put.resulting-map',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Success: object of the resulting text keys and values.',
    note: 'After a PUT of plain-text values, the answer maps each key sent to the value sent. Keys named like members of Object.prototype (toString, constructor, valueOf, ...), and keys a store treats specially ($ first or inside, a dot, / # [ ], _ or @ first, a colon, control characters, a character beyond the BMP, white space around), are answered and stored under their own spelling wherever a plain key beside them is kept (the set of allowed keys is not shown: the whole PUT may be refused); __proto__ is only observed. A value is answered as sent whatever its first or last character (a spreadsheet formula trigger = + - @ TAB, its fullwidth form, a Markdown list, heading or quote start, a quote, backtick, backslash or %): a guard meant for an export or a renderer does not change the stored text; a value beginning or ending with a character HTML gives meaning to may come back as character references of the same text, and one with a < starting no tag or a lone CR may be refused.',
  },
  {
    id: 'custom-text.put.value.max-length',
    level: 'must',
    section: S.limits,
    operations: ['custom-text.put'],
    requirement: 'Custom text value: maximum 2000 characters.',
    note: 'A value of 2000 characters is accepted; 2001 gets a 4xx.',
  },
  {
    id: 'custom-text.put.value.type',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Request body: object of string keys to string values (each value at most 2000 characters).',
    note: 'A JSON body with a value that is not a string (number, boolean, null, object, array) gets a 4xx.',
  },
  {
    id: 'custom-text.put.language.enum',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Path `language`: enum string, required; allowed value: `en`.',
    note: 'Another language gets a 4xx, alone and right after a success of the same body at en (relation: the state before the request). The near misses of en as a path segment (a format extension such as .json, a matrix parameter, a prefix) get a 4xx.',
  },
  {
    id: 'custom-text.put.page.enum',
    level: 'must',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Path `page`: enum string, required; allowed value: `get-started`.',
    note: 'Another page gets a 4xx, alone and right after a success of the same body at get-started (relation: the state before the request). The near misses of get-started as a path segment (a format extension such as .json, a matrix parameter, a prefix) get a 4xx.',
  },
  {
    id: 'custom-text.put.html.basic-allowed',
    level: 'must',
    section: S.text,
    operations: ['custom-text.put'],
    requirement: 'Values may be plain text or rich HTML limited to basic styling tags and hyperlinks.',
    note: 'A value with <b>, <i> and an https hyperlink is accepted. Where a title attribute with a plain value is taken, any quoted value is taken too: > and < (in either quote), =, the other quote mark, character references, white space, empty (HTML 13.2.5.36-38).',
  },
  {
    id: 'custom-text.put.html.restricted',
    level: 'must',
    section: S.text,
    operations: ['custom-text.put'],
    requirement: 'Rich HTML limited to basic styling tags and hyperlinks.',
    note: 'A value with a <script> element is not stored as given: it gets a 4xx, or the stored value no longer holds the script.',
  },
  {
    id: 'custom-text.put.keys',
    level: 'observe',
    section: S.text,
    operations: ['custom-text.put'],
    requirement: 'The set of allowed text keys: not shown.',
  },
  {
    id: 'custom-text.put.status',
    level: 'observe',
    section: S.ep8,
    operations: ['custom-text.put'],
    requirement: 'Required scope, error statuses and success status code: not shown.',
  },
  {
    id: 'custom-text.types',
    level: 'must',
    section: S.text,
    operations: ['custom-text.put'],
    requirement: 'An object mapping text keys (string) to text values (string). Each value has maximum length 2000.',
  },

  // -------------------------------------------------- unknown members (all)
  {
    id: 'bodies.unknown-members',
    level: 'observe',
    section: S.resources,
    operations: JSON_OPS,
    requirement: 'Additional properties beyond those below are allowed (token sets); elsewhere not shown.',
    note: 'Records members that the document does not list.',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof rules)[number]['id'];

const byId = new Map<string, Rule>(rules.map((r) => [r.id, r]));

export function rule(id: RuleId): Rule {
  return byId.get(id)!;
}

export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A `--grep` that selects a rule's checks by their `@rule:<id>` tag, and not a longer id that starts with it. */
export const grepForRule = (id: string) => `@rule:${escapeRegExp(id)}(?![\\w.-])`;

/** A `--grep` that selects a tag exactly (an operation's `@sse`, not `@sse-x`). */
export const grepForTag = (tag: string) => `${escapeRegExp(tag)}(?![\\w.-])`;
