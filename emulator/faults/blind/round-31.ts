/**
 * Blind round 31: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 31`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round31 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-json-null-body-500',
    rule: 'oauth.token.grant-type',
    how: "The token handler destructures its parameters straight from the parsed body (const { grant_type, client_id, … } = req.body) before anything checks the body's type: a JSON token request whose body is the literal null (valid JSON, RFC 8259 3, but no object and so no grant_type) throws \"Cannot destructure property 'grant_type' of 'req.body' as it is null\" and is answered 500 server_error instead of an RFC 6749 5.2 error; JSON bodies that are a number, a string, true or an array destructure to undefined and are refused 400 as before, and form requests are untouched.",
    round: 31,
  },
  {
    name: 'token-unknown-client-id-500',
    rule: 'oauth.token.bad-client',
    how: 'The client is loaded by client_id and its stored secret read without a null check (client.clientSecret of a lookup that found nothing): a token request naming a client_id the tenant does not have (a typo, a deleted client), in the body or by HTTP Basic, throws a TypeError and is answered 500 server_error instead of the 401 invalid_client of a failed client authentication (RFC 6749 5.2); a known client with a wrong secret is still refused 401, and the right credentials get their token.',
    round: 31,
  },

  // ------------------------------------------------------ bearer, scopes
  {
    name: 'unknown-kid-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: "The verifier resolves the signing key through a JWKS client before it verifies, and the JWKS client's own error (SigningKeyNotFoundError: the protected header names no kid, or a kid the tenant does not publish) is mapped to 401 by a separate branch that sets no header: a bearer JWT without a kid (an unsigned alg none token, one that embeds its own jwk) or with a foreign kid is refused 401 without any WWW-Authenticate; a JWT under the tenant's kid whose signature fails, a token that is no JWT and a missing Authorization header still get their Bearer challenge (RFC 9110 11.6.1, RFC 6750 3).",
    round: 31,
  },
  {
    name: 'loopback-get-trusted-without-token',
    rule: 'auth.bearer.required',
    how: 'The bearer middleware exempts "internal" traffic, meant for the health checks of the sidecar: a GET without an Authorization header coming from a loopback or private address (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16) with no X-Forwarded-For is admitted as the tenant\'s own management client, so every read operation (token sets, client grant, events, event streams) answers 200 to an unauthenticated caller on the same host or network, or behind a proxy that does not add X-Forwarded-For; POST and PUT without a token, and any request carrying X-Forwarded-For, are still refused 401.',
    round: 31,
  },
  {
    name: 'get-route-preset-scopes-concatenated',
    rule: 'auth.scope.enforced',
    how: "The routes served through the generic resource router (GET /client-grants/{id}, GET /events, GET /event-streams and GET /event-streams/{id}) are built by deep-merging a shared read preset, written for the tenant's stats routes ({ method: 'GET', scopes: ['read:stats'] }), under each route's own options with deepmerge, whose default array merge concatenates: their required scopes become any of read:stats and their own, so a token holding only read:stats (none of the in-scope scopes) reads grants, event streams and the events stream 200 instead of 403; the token-set listing, declared outside the preset, and the writes still refuse it.",
    round: 31,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-id-nfkc-folded',
    rule: 'token-sets.list.unknown-user',
    how: "The user id of GET /users/{id}/federated-connections-tokensets is NFKC-normalised before the lookup (a Unicode hygiene step copied from the sign-up path): an id no user has that spells a user's id with compatibility characters (auth0｜… with the fullwidth vertical line U+FF5C, or fullwidth hex digits) folds to that user and is answered 200 with its token sets instead of 404 The user does not exist; ids in plain ASCII, existing or not, are answered as before.",
    round: 31,
  },
  {
    name: 'token-set-dates-day-of-year-pattern',
    rule: 'timestamps.date-time',
    how: "A token set's dates are written with the pattern yyyy-MM-DD'T'HH:mm:ss.SSS'Z', whose DD is the day of the year where dd (the day of the month) was meant: in January the two agree and the dates are right, from February on issued_at, expires_at and last_used_at carry a day field that is the day of the year (2026-11-332T…, 2027-02-35T…), which is no RFC 3339 date-time (date-mday is 01 to 28-31, two digits); null dates stay null.",
    round: 31,
  },
  {
    name: 'rate-limit-429-ietf-draft-header-names',
    rule: 'token-sets.list.rate-limit.headers',
    how: "Requests over the limit are refused by the API gateway's limiter, which writes the header names of the IETF RateLimit draft (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, the last as seconds to go) beside Retry-After and drops the service's own: every 429 lacks X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, which the document names on the 429; answers within the limit, written by the service, carry the three X-RateLimit-* headers.",
    needs: 'rate-limit-probe',
    round: 31,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-proto3-default-enum-omitted',
    rule: 'experiment.required',
    how: "The move's answer comes from a gRPC backend through a gateway that marshals with protojson's default EmitUnpopulated: false; allocation_strategy is a proto3 enum without explicit presence whose zero value is PERCENTAGE, so an experiment whose allocation strategy is percentage is answered without the required allocation_strategy member (the scalars are declared optional and keep their false and 0); experiments of the segment strategy (enum value 1) are answered whole.",
    needs: 'writes',
    round: 31,
  },
  {
    name: 'transition-answered-303-see-other',
    rule: 'experiments.transition.returns-experiment',
    how: "The move follows the Post/Redirect/Get pattern of the console's form handlers: it applies the new status and answers 303 See Other with Location: /api/v2/experimentation/experiments/{id} and no body, instead of the updated experiment the document says the move returns; a client that follows the redirect sends a GET to a path the interface does not serve (404), so no answer of a move carries the experiment; refused moves keep their 4xx.",
    needs: 'writes',
    round: 31,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'path-percent-u-escape-decoded',
    rule: 'http.path-id.percent-encoding',
    how: 'The front server decodes request paths with a legacy decoder that also reads the non-standard %uXXXX escapes (JavaScript unescape(), IIS): a segment holding %u0063, which is no percent-encoding (RFC 3986 2.1: a % is followed by two hex digits), is read as c, so /client-grants/cgr_%u0039… (or any path id spelt with %u escapes) names the grant and is answered 200, where a segment that is no percent-encoding of UTF-8 names no resource; ordinary %XX escapes are decoded as before and ids sent plain are unaffected.',
    round: 31,
  },
  {
    name: 'client-grant-booleans-char1-yn',
    rule: 'client-grant.types',
    how: 'The grants table lives in a database without a boolean type and keeps its flags as CHAR(1) \'Y\'/\'N\' columns, which the read maps to the answer as they are: is_system, allow_any_organization and allow_all_scopes come as the strings "Y" or "N" instead of booleans on GET /client-grants/{id} (the fixture grant answers "is_system":"N", "allow_any_organization":"N"); the string and array members are right.',
    round: 31,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-short-id-decoder-500',
    rule: 'event-streams.get.id.length',
    how: 'GET /event-streams/{id} guards only the upper bound of the id (id.length > 26 → 400) and hands a shorter id to the base62 decoder of the storage key, which reads 22 digits after est_ by index and throws a string-index-out-of-range error: an id of 25 characters or fewer is answered 500 instead of a 4xx; 27 characters or more are refused 400 and 26-character ids are served or 404 as before.',
    round: 31,
  },
  {
    name: 'event-streams-cursor-page-keeps-probe-row',
    rule: 'event-streams.list.take.page-size',
    how: 'Both page routes ask the store for take+1 rows to learn whether more streams follow; the first-page route drops the extra row, but the cursor route (pages asked with from) only tests rows.length > take and answers every row: each page after the first that is followed by another holds take+1 streams, and its next is made from that extra stream, so a walk neither skips nor repeats one; the first page and a last page shorter than take are right.',
    round: 31,
  },
  {
    name: 'event-streams-last-page-filled-backwards',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'A page asked with from that would be short is "kept full" by the pager: when fewer than take streams remain after the cursor it reads the last take streams of the list (OFFSET total - take) instead, so the last page of a walk repeats streams the page before it already gave (with take=50 over 137 streams the third page holds streams 88 to 137, 88 to 100 a second time); first pages and walks whose last page is exactly full (take dividing the count) are right.',
    round: 31,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'connection-created-endpoints-go-url-struct',
    rule: 'events.connection-created.object',
    how: 'The connection\'s endpoints are held as *url.URL in the Go service that builds the event, and url.URL has no MarshalJSON: in connection.created, options.authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri, issuer, discovery_url and icon_url, and the endpoint and URI members of options.oidc_metadata, are written as objects {"Scheme","Opaque","User","Host","Path",…} instead of the strings the document gives them; the other members (ids, names, scopes, arrays, booleans) are right.',
    round: 31,
  },
  {
    name: 'heartbeat-offset-committed-every-10',
    rule: 'events.resume.heartbeat-offset',
    how: "Heartbeats carry the consumer group's committed offset, which the log client auto-commits in batches of ten events, not the stream's current position: a heartbeat sent while the position is not a multiple of ten names the last multiple of ten, so resuming from it replays the up to nine events that came before the heartbeat in the uncut stream; when the position is a multiple of ten the heartbeat is right, and event offsets are untouched.",
    round: 31,
  },
  {
    name: 'archived-events-offset-null',
    rule: 'events.payload.offset',
    how: 'Events served from the archive (the history older than the service\'s start, replayed by from_timestamp or after a cursor) are read from the archive table, which has no offset column: their payload carries "offset": null while the SSE id field keeps the cursor, where every event message carries a string offset; events appended since the start, live or replayed, carry it.',
    round: 31,
  },
  {
    name: 'from-timestamp-before-retention-refused',
    rule: 'events.from-timestamp.start',
    how: 'The retention check written for cursors (a position older than the oldest kept event cannot be resumed) is applied to from_timestamp too: a timestamp before the oldest retained event (from_timestamp a day back, when the tenant\'s history reaches six hours back) is refused 400 "older than the events this stream keeps" instead of starting the stream at the oldest event at or after it; timestamps within the retained history, and from cursors, are served as before.',
    round: 31,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-key-ops-flags-integer',
    rule: 'jwk.types',
    how: 'key_ops is mapped to a [Flags] enum of operations (sign 1, verify 2, encrypt 4, decrypt 8, wrapKey 16, unwrapKey 32, deriveKey 64, deriveBits 128) and serialised without a string converter: the keys answered by PUT /keys/custom-signing carry key_ops as the integer of the flags (["verify"] becomes 2, ["sign","verify"] 3) instead of the array of strings; keys sent without key_ops are right.',
    needs: 'writes',
    round: 31,
  },
  {
    name: 'keys-answer-echoes-request-private-members',
    rule: 'custom-signing-keys.put.public-only',
    how: "PUT /keys/custom-signing sanitises instead of refusing: private members (d, p, q, dp, dq, qi, oth, k) are stripped from the keys it stores, but the answer is built from the request's keys, not the stored ones, so a key sent with its private part is answered with it (the stored set, read later, is public); keys sent without private members are answered as stored.",
    needs: 'writes',
    round: 31,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-form-decodeuri-reserved-kept',
    rule: 'custom-text.put.form',
    how: 'Form bodies of PUT custom text are split on & and =, + read as a space, and each name and value decoded with decodeURI instead of decodeURIComponent: escapes of reserved characters (%2C , %2F / %3A : %3B ; %3D = %3F ? %40 @ %23 # %24 $ %26 & %2B +), which a form encoder writes for them, stay encoded, so a value such as "Hello, world" or a link\'s https:// is stored and answered "Hello%2C world" (or refused as a link that is no absolute URL); the same map as JSON, and form values of letters, digits, spaces and non-ASCII text, are right.',
    needs: 'writes',
    round: 31,
  },
  {
    name: 'custom-text-language-tenant-enabled-list',
    rule: 'custom-text.put.language.enum',
    how: "The language path segment is checked against the tenant's enabled Universal Login languages (en, fr, de, es, it, pt, ja) instead of the one value the endpoint allows: PUT …/custom-text/fr/get-started (or de, es, it, pt, ja) is accepted and the text stored under that language, where any language but en gets a 4xx; languages outside the tenant's list (xx, zz) are still refused 400.",
    needs: 'writes',
    round: 31,
  },
  {
    name: 'custom-text-link-domain-allowlist',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'An anti-phishing policy allows hyperlinks only to the tenant\'s own domains (conformance.test and its subdomains): a value with <b>, <i> and an https link to any other host (https://example.com/help) is refused 400 "link to a domain that is not allowed", though the document allows rich HTML with hyperlinks; links to the tenant\'s domains, mailto: links and values without links are accepted.',
    needs: 'writes',
    round: 31,
  },
  {
    name: 'custom-text-400-problem-xml',
    rule: 'http.json-error-bodies',
    how: 'The validation failures of PUT custom text are rendered by the framework\'s problem-details writer, which negotiates on Accept and, for */* or no Accept, picks the first formatter registered, the XML one: every 400 of the PUT (a value too long, a script, a value that is not a string, malformed JSON) is answered application/problem+xml (<problem xmlns="urn:ietf:rfc:7807">…) instead of a JSON error body; a request whose Accept names application/json gets JSON, and the 401, 403, 404 and 415 of the PUT stay JSON.',
    needs: 'writes',
    round: 31,
  },
] as const satisfies readonly Fault[];
