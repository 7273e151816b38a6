/**
 * Blind round 39: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 39`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round39 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-padded-credentials-refused',
    rule: 'oauth.token.client-auth',
    how: 'The token endpoint reads the HTTP Basic credentials with a token68 pattern written without its trailing *"=" (/^Basic ([A-Za-z0-9+/]+)$/): credentials whose base64 ends in = or == padding, as the base64 of id:secret does whenever its length is not a multiple of three (the emulator\'s clients: 32-character id, : and a 49-character form-encoded secret, 82 octets, two = of padding), are answered 401 invalid_client "Malformed HTTP Basic client authentication", where RFC 6749 2.3.1 says "The authorization server MUST support the HTTP Basic authentication scheme" and the right id and secret by Basic get a token (RFC 7617 2, RFC 4648 4: base64 with padding); Basic credentials that need no padding, and body credentials, are answered as before.',
    round: 39,
  },
  {
    name: 'token-json-scalar-body-500',
    rule: 'oauth.token.grant-type',
    how: "The token endpoint's JSON reader guards null and arrays, then looks for the grant with the in operator ('grant_type' in body), which throws a TypeError on a primitive: a token request sent as application/json whose body is a number (42) or a boolean (true) is answered 500 server_error, where such a body carries no grant_type and is refused with an error (RFC 6749 5.2: invalid_request, 400), never a 5xx; JSON objects, null, arrays, strings and form bodies are answered as before.",
    round: 39,
  },
  {
    name: 'token-scope-outside-catalogue-500',
    rule: 'oauth.token.endpoint',
    how: "The token endpoint looks each requested scope up in the table of the scopes its registered APIs define, to find the API that owns it (table[scope].api), before it compares the scope with the client's grant: a client-credentials request with the right credentials whose scope parameter names a scope no API of the tenant defines (scope=read:nonexistent, or a <verb>:<resource> of the catalogue that no API here carries, such as read:actions) is answered 500 server_error, where a scope beyond the client's grant is refused with the RFC 6749 5.2 error response (invalid_scope, 400), never a 5xx; defined scopes the client lacks (the limited client asking read:client_grants) are refused invalid_scope as before, and requests without scope or with granted scopes get their token as before.",
    round: 39,
  },
  // ------------------------------------------------------ bearer, JWT
  {
    name: 'verify-cache-entry-fixed-lifetime',
    rule: 'auth.token.expired',
    how: 'Verified tokens are kept in a second-level cache with a fixed lifetime of ten minutes from their first verification, not until their exp: a token verified once is admitted for ten minutes whatever its exp says, so a token of the expiring client served 200 by the token-set listing is still served 200 after the expires_in its token response announced has passed, where RFC 7519 4.1.4 says "the current date/time MUST be before the expiration date/time" and an expired token gets 401 Invalid token; tokens never verified before their exp (an expired token presented for the first time) are refused as before, and tokens within their lifetime are admitted as before.',
    round: 39,
  },
  {
    name: 'expired-token-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The verifier\'s expiry error (jose\'s JWTExpired) is mapped to its own 401 token_expired answer by a separate branch that sets no WWW-Authenticate header: a request on any operation with a token whose exp has passed (the expiring client\'s token once expires_in has run out) is answered 401 without a challenge, where RFC 9110 11.6.1 says a server generating a 401 "MUST send a WWW-Authenticate header field containing at least one challenge" (RFC 6750 3: Bearer error="invalid_token"); 401s for a missing, malformed or badly signed token still carry the Bearer challenge, and live tokens are answered as before.',
    round: 39,
  },
  {
    name: 'bearer-separator-unicode-whitespace',
    rule: 'auth.bearer.malformed',
    how: 'The Authorization header is split with a Unicode-aware pattern, /^Bearer\\s+(\\S+)\\s*$/iu, whose \\s matches NO-BREAK SPACE and the other Unicode spaces: a header whose scheme and token are separated by U+00A0 (the octet 0xA0, which HTTP carries as obs-text) instead of SP, "Bearer\\xA0<token>", is admitted (200) as the token, where RFC 6750 2.1 and RFC 9110 11.4 separate the scheme from the credentials by 1*SP and a header that is not a bearer JWT in that syntax is refused 401; headers with one or more spaces or tabs, and every other malformed header, are answered as before.',
    round: 39,
  },
  // ------------------------------------------------------------- scopes
  {
    name: 'token-sets-scopes-from-parent-user-route',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The route-scope table is matched by longest registered prefix, and the listing\'s path /users/{id}/federated-connections-tokensets falls under the entry of /users/{id} (PATCH and DELETE): a token holding update:users or delete:users but not read:federated_connections_tokens is served the listing (200 with the user\'s token sets), where a token without the scope is answered 403 Insufficient scope, "any of the required scopes is expected (read:federated_connections_tokens)"; tokens holding neither (read:stats, read:client_grants) are refused 403 as before, and tokens with the scope are answered as before.',
    round: 39,
  },
  {
    name: 'scope-lookup-misses-trailing-slash',
    rule: 'auth.scope.enforced',
    how: 'The scope guard looks the required scopes up by the request path in a table keyed by the route templates without a trailing slash, while the router ignores one: an operation path sent with a slash appended (GET /api/v2/client-grants/{id}/, /event-streams/, /event-streams/{id}/, /users/{id}/federated-connections-tokensets/) finds no entry and is served to a token holding none of the in-scope scopes (the limited client\'s read:stats token gets 200), where "An operation accepts either the bearer scheme or the client-credentials scheme with the scopes it requires" and such a token is refused 403; the bearer check still runs (no token is 401), and paths without the slash are judged by their scopes as before.',
    round: 39,
  },
  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-increments-flushed-each-second',
    rule: 'token-sets.list.rate-limit.status',
    how: "Each instance batches its rate-limit increments and flushes them to the shared counter once a second, and decides on the shared counter: the requests of a token that come within a second of the last flush are all judged on the count flushed before them, so the rate-limited client's token sending its twelve listings in quick succession (a window of ten) gets twelve 200s, and only a request more than a second later sees the count and is answered 429, where every request over the limit within a window is answered 429 Too many requests; requests spaced more than a second apart are counted and refused as before.",
    needs: 'rate-limit-probe',
    round: 39,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-cleared-by-profile-update',
    rule: 'token-sets.list.active-only',
    how: 'A profile update rewrites the user document from the PATCH body merged into the profile projection, which does not carry the linked federated tokens, so after PATCH /users/{id} (a name, or {"blocked": true}) the listing of that user answers 200 [] although its token sets are still active, where the listing holds "the active token sets held for a user" and a profile update beside it leaves them as they were; users never updated (the seeded ones, users only created) are listed as before.',
    needs: 'writes',
    round: 39,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-ended-feature-flag-released',
    rule: 'experiment.types',
    how: 'A move that ends a run (to completed or archived) releases the experiment\'s feature flag and the answer is built from the row after the release, with feature_flag_id null: POST /experimentation/experiments/{id}/status with {"status":"completed"} or {"status":"archived"} answers the experiment with feature_flag_id: null, where feature_flag_id is a required string; moves to active or paused, and refused moves, are answered as before.',
    needs: 'writes',
    round: 39,
  },
  {
    name: 'transition-state-member-alias',
    rule: 'experiments.transition.status-required',
    how: 'The move reads the target from status, falling back to state, the member name of the v1 lifecycle endpoint kept for old clients: a body without status that carries state ({"state":"paused"}) moves the experiment and answers 200, where the body "object with `status`: enum string, required" without status gets a 4xx; bodies with status, and bodies with neither member, are answered as before.',
    needs: 'writes',
    round: 39,
  },
  // ---------------------------------------------------------- client grants
  {
    name: 'client-grant-empty-scope-null',
    rule: 'client-grant.types',
    how: 'The grant serialiser writes an empty scope list as null (a nil slice marshalled): a grant that allows no scope by name (the system grant, allow_all_scopes true, scope []) is answered by GET /client-grants/{id} with "scope": null, where scope is an array of string; grants with scopes are answered as before.',
    round: 39,
  },
  // ---------------------------------------------------------- event streams
  {
    name: 'event-streams-list-status-active-inactive',
    rule: 'event-stream.status.enum',
    how: 'The listing is served from the search index, whose documents keep the console\'s active/inactive vocabulary for the status: GET /event-streams answers every stream with status "active" or "inactive", where status is the enum enabled, disabled; GET /event-streams/{id} reads the store and answers enabled or disabled as before.',
    round: 39,
  },
  // ------------------------------------------------------ custom signing keys
  {
    name: 'keys-x5t-s256-member-refused',
    rule: 'custom-signing-keys.put.json',
    how: 'The JWK validator is generated from the member table with the names used as JSON pointers, so x5t#S256 becomes x5t (a pointer fragment) and the real member is unknown to it (additionalProperties false): a valid JWKS whose key carries x5t#S256, a member the document lists, is refused 400, where a valid JWKS sent as JSON gets a 2xx with the resulting keys; keys without that member are accepted as before.',
    needs: 'writes',
    round: 39,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-dollar-keys-dropped',
    rule: 'custom-text.put.resulting-map',
    how: 'The text map is kept as a document of a store that refuses field names starting with $ (an operator prefix) and leaves them out silently: a PUT of {"$title":"Hi","intro":"Hello"} answers {"intro":"Hello"}, where the answer is "object of the resulting text keys and values" and maps each key sent to the value sent; maps without such keys are answered as before.',
    needs: 'writes',
    round: 39,
  },
  {
    name: 'custom-text-page-extension-stripped',
    rule: 'custom-text.put.page.enum',
    how: 'The page segment is read by a router that strips a format extension first (.json, .html, .htm, as for content negotiation): PUT /self-service-profiles/{id}/custom-text/en/get-started.json (or get-started.html) is accepted and sets the text of get-started, where page is "enum string, required; allowed value: `get-started`" and another page gets a 4xx; other pages, and get-started itself, are answered as before.',
    needs: 'writes',
    round: 39,
  },
  // ---------------------------------------------------------- errors, HTTP
  {
    name: 'allow-empty-on-trailing-slash-path',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow value of a 405 is looked up by the request path as sent in a map keyed by the route templates without a trailing slash, while the router ignores one: a method a path does not take, sent to the path with a slash appended (DELETE /api/v2/client-grants/{id}/, POST /api/v2/event-streams/{id}/, GET /api/v2/keys/custom-signing/ where GET is not served), is answered 405 with an empty Allow, where RFC 9110 15.5.6 says the origin server "MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods" (GET, or PUT); the same requests without the slash carry the list as before.',
    round: 39,
  },
  // ---------------------------------------------------------- versioning
  {
    name: 'token-sets-429-legacy-throttle-deprecation',
    rule: 'versioning.lifecycle',
    how: 'A request to the token-set listing over its rate limit is answered by the shared throttling handler of the v1 routes, which adds their deprecation headers: the 429 of GET /users/{id}/federated-connections-tokensets carries Deprecation: @1688169600 (a time already past, RFC 9745), a Sunset and a Link rel="deprecation", where "The token-set listing is Generally Available"; the listing\'s 200, 403 and 404 answers carry no Deprecation header as before.',
    needs: 'rate-limit-probe',
    round: 39,
  },
  // ------------------------------------------------------------ events stream
  {
    name: 'event-object-astral-replaced',
    rule: 'events.payload.offset',
    how: "The live event store keeps data.object in a 3-byte utf8 column (MySQL utf8mb3), whose connection replaces each character beyond the BMP by U+FFFD: a user, organization or connection created with an emoji or a CJK extension character in its name or metadata reaches the stream with U+FFFD in their place, where the stream's text is UTF-8 (WHATWG SSE; RFC 8259 8.1) and comes back code point for code point; text within the BMP, and the seeded history, are delivered as before.",
    needs: 'writes',
    round: 39,
  },
  {
    name: 'context-request-ip-socket-address-object',
    rule: 'events.context.types',
    how: 'The event builder takes the caller\'s address from the socket\'s address() instead of its remote address string: live events carry context.request.ip as an object {"address":"127.0.0.1","family":"IPv4","port":…}, where context.request.ip is a string; the seeded history, and every other member of the context, are as before.',
    needs: 'writes',
    round: 39,
  },
  {
    name: 'connection-created-enabled-clients-objects',
    rule: 'events.connection-created.object',
    how: 'Live connection events are serialised with the mapper of the connection-clients view, which writes one object per client: connection.created caused by POST /connections with enabled_clients carries data.object.enabled_clients as [{"client_id":"…"}], where the document lists enabled_clients as an array of string; the seeded history and the other members are delivered as before.',
    needs: 'writes',
    round: 39,
  },
  {
    name: 'envelope-svctenant-tenant-record',
    rule: 'events.payload.envelope',
    how: 'The live event producer is handed the tenant record where it expects its id and writes it whole into the CloudEvents extension: live events carry svctenant as an object {"id":"conformance","name":"conformance","region":…}, where svctenant is a string ("Tenant identifier"); the seeded history is delivered as before, and every other member of the envelope is unchanged.',
    needs: 'writes',
    round: 39,
  },
  {
    name: 'events-timestamp-stream-octet-stream',
    rule: 'events.content-type',
    how: 'A stream opened with from_timestamp (and no from) is served by the history-export handler, which writes the same SSE messages under Content-Type: application/octet-stream, where the success is "a Server-Sent Events stream" (text/event-stream); streams opened without a position or resumed with from are text/event-stream as before.',
    round: 39,
  },
  {
    name: 'event-filter-lost-on-keepalive-renewal',
    rule: 'events.filter.only-requested',
    how: 'The live subscription is renewed by the connection\'s keep-alive a second after the stream opened, and the renewal re-subscribes with the defaults, without the event_type filter: on a stream opened with event_type=user.created, events of every type caused a second or more after connecting arrive (organization.created, connection.created, …), where "With event_type given once or repeated, only those types arrive"; the replay, and live events caused within the first second, are filtered as before, and streams without event_type are unchanged.',
    needs: 'writes',
    round: 39,
  },
] as const satisfies readonly Fault[];
