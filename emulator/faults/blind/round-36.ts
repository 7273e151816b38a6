/**
 * Blind round 36: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 36`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round36 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-unknown-client-no-challenge',
    rule: 'oauth.token.client-auth',
    how: "The Basic challenge of the token endpoint is written with the realm of the client's tenant, looked up from the client the credentials name, and the header is skipped when there is no realm to name: a client authenticating with HTTP Basic under a client id the tenant does not have (a typo, a deleted client), whatever the secret, is refused 401 invalid_client without any WWW-Authenticate field, where wrong credentials sent by HTTP Basic get 401 with a Basic challenge (RFC 6749 5.2, RFC 9110 11.6.1); a known client id with a wrong secret by HTTP Basic still gets its Basic challenge, and body credentials are answered as before.",
    round: 36,
  },
  {
    name: 'token-iat-same-second-refused',
    rule: 'oauth.token.accepted',
    how: 'The bearer check adds a claim check of its own, "the token must not be used before it was issued", written as iat >= now in whole seconds (where iat > now was meant): every request whose bearer token was issued in the current second (a token fetched and used at once, as a client does with a fresh token) is refused 401 invalid_token with a Bearer challenge, on every operation, though the token is valid and holds the scopes; the same token is accepted from the next second on, so a client that waits or retries is served.',
    round: 36,
  },
  // ------------------------------------------------------ scopes, bearer
  {
    name: 'token-sets-scope-index-greater-than-zero',
    rule: 'token-sets.list.any-required-scope',
    how: "The scope guard of the token-set listing tests the token's scope claim with scope.split(' ').indexOf('read:federated_connections_tokens') > 0, where >= 0 was meant: a token whose claim names the required scope first (a token narrowed to read:federated_connections_tokens alone, or asked for it before other scopes) is refused 403 insufficient_scope, where any token holding the scope is served; tokens that name it after another scope (the full token, whose scopes are sorted, or a narrowed read:users read:federated_connections_tokens) are served as before.",
    round: 36,
  },
  {
    name: 'method-override-after-scope-check',
    rule: 'auth.scope.enforced',
    how: "A method-override middleware (X-HTTP-Method-Override, for clients behind proxies that pass only GET and POST) runs after the router and the scope guard: a POST to /keys/custom-signing or to the custom text path, which those paths do not take, is matched to the path's 405 route (registered without scopes), and that route re-dispatches it to the PUT handler the header names: POST with X-HTTP-Method-Override: PUT and a valid token that holds none of the in-scope scopes (read:stats only) replaces the custom signing keys or the custom text (200) instead of being refused 403; the PUT itself, and POST without the header (405), are refused or answered as before.",
    needs: 'writes',
    round: 36,
  },
  {
    name: 'challenge-sent-once-per-connection',
    rule: 'http.unauthorized.challenge',
    how: 'The bearer middleware remembers, per client connection, that it has challenged it (a flag copied from a connection-oriented authentication handshake, where the challenge opens the handshake once per connection): the first 401 on a connection carries WWW-Authenticate: Bearer …, and every later 401 of any operation on the same kept-alive connection (a second request without a token, or with a bad one, as a pooling HTTP client sends it) carries no WWW-Authenticate at all, where every 401 MUST carry a Bearer challenge (RFC 9110 11.6.1, RFC 6750 3); 401s on fresh connections keep their challenge.',
    round: 36,
  },
  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-counts-failed-requests-only',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter of the API is configured with the options of the login brute-force limiter it was copied from (skipSuccessfulRequests: true): each request is counted when it comes in and the count is given back when its response is a success (a status below 400), so only refused requests use up the window: any number of successful requests (the token-set listing of an existing user, 200) within the window, far over X-RateLimit-Limit, is answered as usual and never 429, each of them showing X-RateLimit-Remaining one below the limit; requests that fail (a 404 for an unknown user, a 400) are counted and are answered 429 once they exceed the limit, with the three headers.',
    needs: 'rate-limit-probe',
    round: 36,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-set-null-expiry-as-never-label',
    rule: 'timestamps.date-time',
    how: 'The listing is written by the presenter of the console\'s connected-accounts page, which labels a token set without expiry "never": a token set whose expires_at is null is answered with "expires_at": "never", a string that is no RFC 3339 date-time (nor null); token sets with an expiry carry their date-time, and issued_at and last_used_at (null included) are right.',
    round: 36,
  },
  {
    name: 'token-sets-user-lookup-by-email',
    rule: 'token-sets.list.unknown-user',
    how: "The listing resolves its {id} with the user search of the console (WHERE user_id = :id OR email = :id): an id that names no user but is the email address of one (GET /users/user1@conformance.test/federated-connections-tokensets, with the @ as sent or as %40) is answered 200 with that user's active token sets instead of 404 The user does not exist; user ids, and other ids no user has, are answered as before.",
    round: 36,
  },
  {
    name: 'user-id-length-checked-on-case-folded-key',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id is checked where the lookup key is built, on the id lower-cased with toLowerCase() (the users cache is case-insensitive), and lower-casing lengthens some characters (U+0130 İ becomes i and a combining dot): an id of at most 300 characters holding İ (300 characters with one İ, 301 once lower-cased) is refused 400 instead of looked up (404 for an unknown user); ids whose lower case is as long (ASCII, é, ß, …) are checked as sent.',
    round: 36,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-body-data-envelope-unwrapped',
    rule: 'experiments.transition.status-required',
    how: 'The request reader of the move unwraps a top-level data member before it validates, for the JSON:API clients of the experimentation service: a body without status whose data member is an object holding one ({"data": {"status": "active"}}, or with a type and an id beside it) is read as that object and the move is made (200) instead of refused as a body without the required status; bodies with a top-level status, bodies without status and without such a data member, and a missing body are handled as before.',
    needs: 'writes',
    round: 36,
  },
  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-system-subject-type-unset-ordinal',
    rule: 'client-grant.subject-type.enum',
    how: "subject_type is kept as a small integer (1 client, 2 user) added by a migration with DEFAULT 0 that was not backfilled for the grants the platform provisions itself, and the read maps it through ['unknown', 'client', 'user']: a grant with is_system true is answered with \"subject_type\": \"unknown\", which is not one of client, user; the grants the tenant created carry client or user as before.",
    round: 36,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'organization-subresource-event-field-from-method',
    rule: 'events.payload.type-matches',
    how: "The SSE writer names each message from the resource and the HTTP method of the request that caused the event (a map written when organizations had only organization.created, .updated and .deleted), while the envelope keeps the event's own type: the events of an organization's members, connections and roles (organization.member.added, organization.connection.removed, organization.member.role.assigned, …) go out with the SSE event field organization.created, organization.updated or organization.deleted (POST, PATCH or DELETE) and an envelope type that disagrees with it, replayed or live; the events of users, groups, connections and organizations themselves are named by their type.",
    round: 36,
  },
  {
    name: 'event-type-validated-against-types-seen',
    rule: 'events.filter.unknown-rejected',
    how: "event_type is validated against the tenant's event-type dimension table, which gets a row the first time an event of a type is emitted, instead of against the documented list: a listed type the tenant has not emitted yet (organization.group.role.assigned and organization.group.role.deleted, absent from its history) is refused 400 as an unknown event type, where the allowed values are the types listed in Events; listed types that occurred are accepted, and values outside the list are refused as before.",
    round: 36,
  },
  {
    name: 'from-timestamp-int32-seconds-wraps',
    rule: 'events.from-timestamp.start',
    how: 'The start of a from_timestamp subscription is kept as a signed 32-bit count of seconds (a time_t column of the subscription table): a from_timestamp after 2038-01-19T03:14:07Z (up to 2106) wraps to a time between 1901 and 1970, so the stream replays every retained event, those caused long before connecting included, before going live, where only events at or after the timestamp (and those caused after connecting) are delivered; timestamps up to 2038 start where they should.',
    round: 36,
  },
  {
    name: 'events-default-types-from-caller-read-scopes',
    rule: 'events.filter.all-when-absent',
    how: "Without event_type the stream subscribes to the types the caller may read, built from the read scope of each event's resource (read:users for user.*, read:organizations for organization.*, read:connections for connection.*, read:groups for group.*), an authorisation step of the fan-out: a token that holds read:events and read:users but none of the others (the run's full token) gets only user.* events, replayed (from, from_timestamp) or live, and no organization, connection or group event, where without event_type all event types are streamed; streams asked with event_type get the types asked whatever the caller's other scopes.",
    round: 36,
  },
  {
    name: 'resume-cache-skips-large-messages',
    rule: 'events.resume.no-loss',
    how: 'The catch-up after a from cursor is served from a cache of serialised messages whose values are limited to 2 KiB, and a message the cache does not hold is taken for an expired one and skipped instead of being read from the log: a resumed stream leaves out every event whose payload is over 2 KiB (every connection.created, connection.updated and connection.deleted, whose object carries its options and oidc_metadata, about 4 KiB), so resuming from an offset before one of them loses it; smaller events, streams started with from_timestamp or without a start, and live events are delivered whole.',
    round: 36,
  },
  {
    name: 'from-timestamp-cut-to-column-width',
    rule: 'events.from-timestamp.max-length',
    how: 'from_timestamp is written to the VARCHAR(20) start column of the subscription by a database session without strict mode, which truncates silently, and the value read back is the one validated and used: a from_timestamp over 20 characters whose first 20 characters are an RFC 3339 date-time (2025-01-01T00:00:00Z followed by anything: a second Z, a digit, a space, any text) is accepted and starts the stream at that second, where a value over 20 characters gets a 4xx; values whose first 20 characters are no date-time are refused 400, and values within the limit are read as before.',
    round: 36,
  },
  {
    name: 'from-cursor-trailing-bytes-ignored',
    rule: 'events.from.max-length',
    how: 'The from cursor is decoded before anything checks it, by a versioned reader that reads the v1:<sequence> it starts with and ignores the bytes after it (kept for cursor extensions such as a shard tag), and the 1024-character limit is checked on the cursor it read back: a from over 1024 characters that decodes to the v1:<sequence> of a real offset followed by other bytes (an offset padded with A characters, which decode to NUL bytes) resumes after that offset (200) instead of being refused 4xx; values that do not begin with an offset are refused as before.',
    round: 36,
  },
  {
    name: 'context-connection-strategy-null-for-database',
    rule: 'events.context.types',
    how: "The event builder maps the connection's strategy through the table of the strategies the identity-provider catalogue knows, which has no row for the database strategy (auth0): events caused through a database connection (every user.created, user.updated and user.deleted, of the history and live) carry data.context.connection.strategy null instead of a string; events of enterprise and social connections (the connection.* events) carry their strategy.",
    round: 36,
  },
  // --------------------------------------------------------- event streams
  {
    name: 'event-streams-stale-cursor-restarts-at-first-page',
    rule: 'event-streams.list.next.terminates',
    how: "The from cursor is resolved against the index of enabled streams (a cache kept for the delivery workers), and a cursor not found there is taken for a stale one, for which the list starts over at the first page (the console's reset-paging behaviour): a page that ends on a disabled stream hands out that stream's cursor as next, and following it answers the first page again with its next, so a walk by next whose page ends on a disabled stream (take 3, 10, … : every third stream is disabled) never ends; walks whose pages all end on enabled streams (take 50 or 100 over this tenant) end as before.",
    round: 36,
  },
  {
    name: 'event-streams-next-as-query-object-with-take',
    rule: 'event-streams.list.success',
    how: 'Pages asked with an explicit take are built by the paginator of the newer list endpoints, which writes next as the query of the next page for clients to spread into their request ("next": {"from": "<cursor>", "take": 10}), an object, where next is a string (opaque) to pass as from; pages asked without take carry the string as before, and the last page has no next.',
    round: 36,
  },
  {
    name: 'event-streams-list-subscriptions-distinct-on-type',
    rule: 'event-stream.subscriptions.min-items',
    how: "The list joins the page's streams with their subscriptions and collapses the fan-out rows with DISTINCT ON (event_type) where DISTINCT ON (stream_id, event_type) was meant: each event type's subscription goes to the first stream of the page that has it, and the later streams of the page lose it, so every stream whose subscriptions all went to streams before it (most of a page after its first seven streams) is answered with subscriptions [] by GET /event-streams, below the documented minimum of one item; GET /event-streams/{id}, which reads one stream, answers all of its subscriptions.",
    round: 36,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-x5c-parsed-as-pem-text-500',
    rule: 'custom-signing-keys.put.json',
    how: "Before the set is stored, the certificate chain of each key is checked with new X509Certificate(x5c[i]), which takes a PEM text or DER bytes, and is handed the base64 text of the certificate as it is (the Buffer.from(x5c[i], 'base64') was forgotten): every PUT /keys/custom-signing whose keys are otherwise valid and one of which carries an x5c chain makes the constructor throw (PEM routines: no start line) and is answered 500 instead of the 2xx with the JWKS; sets without x5c are stored and answered as before.",
    needs: 'writes',
    round: 36,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-form-csrf-token-required',
    rule: 'custom-text.put.form',
    how: 'Form-encoded bodies of the custom text path go through the CSRF middleware of the console, mounted with its urlencoded parser, which requires a _csrf field (or csrf-token header) matching the console session: every PUT custom text sent as application/x-www-form-urlencoded is refused 403 "invalid csrf token", where a flat map sent form-encoded gets a 2xx with the resulting map; the same map sent as JSON is stored and answered as before.',
    needs: 'writes',
    round: 36,
  },
  {
    name: 'custom-text-link-content-read-as-text',
    rule: 'custom-text.put.html.restricted',
    how: 'The link policy validates an <a> element by its start tag (href, target, rel) and takes everything up to its end tag for the link text, which it does not parse: markup inside a hyperlink is never checked, so <a href="https://example.com/">help<script>alert(1)</script></a> (or an <img onerror=…> inside a link) is stored and answered as given, where a script element is refused or removed; the same markup outside a link, and links with plain text, are checked as before.',
    needs: 'writes',
    round: 36,
  },
] as const satisfies readonly Fault[];
