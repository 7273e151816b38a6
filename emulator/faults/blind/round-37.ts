/**
 * Blind round 37: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 37`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round37 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-grant-type-encoded-name-repeat-unseen',
    rule: 'oauth.token.grant-type',
    how: 'The guard against repeated token parameters counts the name=value pairs of the raw form body by their names as written, before anything is percent-decoded, and the parser that runs after it decodes the names and keeps the last value of a name: grant_type given twice with one of the two names percent-encoded (grant%5Ftype=password&grant_type=client_credentials, the same parameter name once decoded, RFC 3986 2.1 / WHATWG urlencoded parsing) passes the guard and issues a token (200, the last value wins) instead of being refused invalid_request as a request that "repeats a parameter" (RFC 6749 3.2, 5.2); the same repeat with both names spelt alike is refused as before, and single parameters are read as before.',
    round: 37,
  },
  // ------------------------------------------------------ bearer, JWT
  {
    name: 'bearer-kid-echoed-in-header-500',
    rule: 'auth.jwt.signature',
    how: 'When the signature of a bearer JWT does not verify and its protected header names a kid that is not the tenant\'s, the 401 carries a diagnostic header naming that kid (X-Auth-Error: no signing key for kid …, for the support team), set with Node\'s setHeader: a kid holding a character beyond Latin-1 or a control character ("ключ-1", "key-😀"; RFC 7515 4.1.4 lets kid be any string) makes setHeader throw ERR_INVALID_CHAR, and the forged token is answered 500 instead of 401 (on the token-set listing) or another 4xx, on every operation; forged tokens with a Latin-1 kid, or with the tenant\'s, are refused 401 with the Bearer challenge as before (the extra header beside it).',
    round: 37,
  },
  {
    name: 'bearer-jws-json-serialization-accepted',
    rule: 'auth.bearer.malformed',
    how: 'The bearer verifier is shared with the service-to-service tokens, which travel as a JWS JSON serialization base64url-encoded into the header value, and takes either form: a bearer value without dots that base64url-decodes to a flattened ({"protected","payload","signature"}) or general ({"payload","signatures":[…]}) JWS JSON object is verified as the compact JWS those members make, so the run\'s own token re-packed that way is admitted (200) although it is no JWT (RFC 7519 1: a JWT is always in the JWS or JWE Compact Serialization) and a header that is not a bearer JWT is to be refused; compact tokens and other non-JWT values are handled as before.',
    round: 37,
  },
  // ------------------------------------------------------------- scopes
  {
    name: 'scope-claim-binary-searched',
    rule: 'token-sets.list.any-required-scope',
    how: "The scope guard looks the required scope up in the token's scope claim by binary search, on the assumption that the issuer writes the claim sorted (it sorts the scopes of a client's default token), but a token narrowed with the scope parameter carries the scopes in the order they were asked: a token holding read:federated_connections_tokens among other scopes out of alphabetical order (scope=read:users read:federated_connections_tokens, or update:users read:federated_connections_tokens read:events) is refused 403 insufficient_scope on the token-set listing (and the other operations likewise) though it holds the required scope; the full token, whose claim is sorted, tokens narrowed to one scope and tokens asked in sorted order are served as before.",
    round: 37,
  },
  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-window-per-connection',
    rule: 'token-sets.list.rate-limit.status',
    how: "The limiter's counters are kept in the per-connection context of the HTTP server (a map on the socket, the place the middleware had for request-scoped state), so each new TCP connection starts a fresh window for the same token: a client that sends each request on a connection of its own (no keep-alive, Connection: close, or a pool that does not reuse sockets) is never answered 429, however far over X-RateLimit-Limit it goes within the window, and every answer shows X-RateLimit-Remaining one below the limit; requests sent on one kept-alive connection are counted and refused 429 with the three headers as before.",
    needs: 'rate-limit-probe',
    round: 37,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-expired-relisted-after-profile-update',
    rule: 'token-sets.list.active-only',
    how: "A profile update re-syncs the user's token sets from the vault into the listing's cache through the vault's export call, which returns every token set the user holds, expired ones included, and the listing serves the cache as it is once it was re-synced: after PATCH /users/{id} of a user that holds an expired token set (the fixture user, CONFORMANCE_USER_ID, holds one that expired a day before start), GET /users/{id}/federated-connections-tokensets lists that expired set beside the active ones, where only active ones are listed; users never updated are listed with their active sets only, as before.",
    needs: 'writes',
    round: 37,
  },
  {
    name: 'token-sets-forged-token-unknown-client-404',
    rule: 'token-sets.list.unauthorized',
    how: "The bearer middleware resolves the token's client (from its unverified azp or sub) to find the tenant whose key verifies it, before it verifies the signature, and an unknown client ends in the client lookup's own 404 (\"Client not found\") instead of the 401 of an invalid token: a JWT whose signature is invalid and whose claims name a client the tenant does not have (the run's token with azp and sub changed after signing, or an unsigned one naming another client) is answered 404 on the token-set listing, where an invalid token or signature gets 401 (and 404 elsewhere); forged tokens that name one of the tenant's clients, and tokens that are not JWTs, are refused 401 with the challenge as before.",
    round: 37,
  },
  {
    name: 'token-sets-legacy-paging-params-deprecated-at-start',
    rule: 'versioning.lifecycle',
    how: 'The listing announces the removal of the legacy pagination parameters of the v2 list endpoints through the deprecation middleware, registered without a date and so defaulting to the time it was set up (new Date() evaluated once, when the server starts): a listing asked with page, per_page or include_totals in its query (GET /users/{id}/federated-connections-tokensets?per_page=10, which the operation ignores) is answered with Deprecation: @<the start time of the server> (RFC 9745, a time already past, so the resource is announced as deprecated) and a Link rel=deprecation, though the operation is Generally Available; listings without those parameters carry no Deprecation header, as before.',
    round: 37,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-segment-assignment-config-omitted',
    rule: 'experiment.required',
    how: 'The experiment serialiser writes assignment_config only for percentage rollouts (a conditional inclusion on allocation_strategy: segment experiments assign by segment membership, so their subject was taken for irrelevant): the answer of a move of an experiment whose allocation_strategy is segment (the seeded fixtures 3, 6, 9, 12, 15 among others) lacks the required member assignment_config; moves of percentage experiments are answered whole, as before.',
    needs: 'writes',
    round: 37,
  },
  {
    name: 'transition-chunked-body-read-as-empty',
    rule: 'experiments.transition.requested-status',
    how: 'The move\'s route reads its body through a raw-body middleware (kept for request signing) that reads Content-Length bytes and takes a request without Content-Length for one without a body: a move sent with Transfer-Encoding: chunked (RFC 9112 6.1, as a streaming client or curl -H \'Transfer-Encoding: chunked\' sends it) and a valid body ({"status":"active"} for a draft experiment) is refused 400 as a body without the required status, and the experiment is not moved to the requested status; the same body with Content-Length is moved as before.',
    needs: 'writes',
    round: 37,
  },
  {
    name: 'transition-answer-shared-slot-under-concurrency',
    rule: 'experiments.transition.same-experiment',
    how: "The move's handler keeps the experiment it answers in a module-level variable (the handler was ported from a single-threaded worker), sets it before awaiting the write to the store (about 25 ms) and answers whatever it holds after the await: when moves of two different experiments overlap (two requests in flight at once, as parallel clients or workers send them), both are answered with the experiment of the later one, so one client gets an experiment other than the one named in its path (each experiment is still moved right); moves that do not overlap are answered with their own experiment, as before.",
    needs: 'writes',
    round: 37,
  },
  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-allow-any-organization-folded-into-usage',
    rule: 'client-grant.organization-usage.enum',
    how: 'The read of a grant folds allow_any_organization back into organization_usage for the console\'s v1 clients, whose enum had a fourth value any for "any organization may be used": a grant with allow_any_organization true (the grant organisations must use, organization_usage require) is answered with organization_usage "any", which is not one of deny, allow, require; grants with allow_any_organization false or absent keep their organization_usage.',
    round: 37,
  },
  {
    name: 'client-grant-jsonp-callback-honoured',
    rule: 'http.json-bodies',
    how: "The grant route answers with Express's res.jsonp (left from the console's cross-origin reads), which wraps the body in a call when the query names a callback: GET /client-grants/{id}?callback=cb is answered /**/ typeof cb === 'function' && cb({…}); with Content-Type text/javascript, which is neither JSON nor of a JSON media type; reads without a callback parameter are answered application/json, as before.",
    round: 37,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'event-type-unchecked-on-resume',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type is validated only when a stream starts a new subscription; a request with a from cursor is taken for the resumption of a subscription whose filter was validated when it was made, and its event_type values are taken as they come: GET /events?from=<an offset>&event_type=user.frobbed (or any value outside the list) opens the stream (200, the unknown type matching nothing) instead of a 4xx; without from (from_timestamp or no start), a value outside the list is refused 400 as before.',
    round: 37,
  },
  {
    name: 'sse-retry-preamble-unterminated-on-resume',
    rule: 'events.message.event-field',
    how: 'A stream resumed from a cursor opens with a retry field that tells the client to reconnect quickly after a gap, written as `retry: 1000` without its line end (a template literal that lost its \\n), so it runs into the first line of the first message: the first message of a resumed stream (its first replayed event, or the offset-only heartbeat when nothing follows the cursor) begins with the line "retry: 1000event: <type>", which an SSE parser reads as a retry field with a value that is no number (HTML Standard 9.2.6, ignored), and the message is dispatched without its event field, as type message, which is no event type, error or offset-only; the later messages, and streams started with from_timestamp or without a start, name their type as before.',
    round: 37,
  },
  {
    name: 'filtered-resume-index-into-filtered-list',
    rule: 'events.resume.no-loss',
    how: "With event_type given, the catch-up after a from cursor is read from the per-type index (the events of the asked types), and the cursor's position in the whole log is used as the index into that list (filtered.slice(seq) where the events after seq were meant): a resumed stream with an event_type filter skips as many of the filtered events as the cursor's sequence number, so it loses events of the asked types that came after the cursor (with event_type=user.created from the offset of the second event of the history, the first two user.created after it), or all of them when the cursor is far enough; resumed streams without event_type, and filtered streams started otherwise, deliver every event as before.",
    round: 37,
  },
  {
    name: 'live-dedupe-keyed-by-object-id',
    rule: 'events.start.latest',
    how: "The fan-out's duplicate suppression (meant for an event delivered twice by the outbox's retry) is keyed by the affected object, not by the event's id, with a window of a second: a live event about an object that already had an event forwarded less than a second earlier (a user created and then updated or deleted at once, an organization created and deleted in quick succession) is dropped from every open stream, though it is in the log (a resume from the earlier event's offset delivers it); changes to one object more than a second apart, and changes to different objects, arrive live as before.",
    needs: 'writes',
    round: 37,
  },
  {
    name: 'context-user-agent-null-when-absent',
    rule: 'events.context.types',
    how: "The event builder copies the User-Agent header of the request that caused the event into data.context.request.user_agent as it finds it, and a request without a User-Agent header (HTTP does not require one, RFC 9110 10.1.5; curl -H 'User-Agent:', many server-side clients) gives user_agent null instead of a string: events caused by such requests (user.created, organization.created, connection.created, …) carry null, where the context's request members are strings; events caused by requests with a User-Agent, and the seeded history, carry it as a string, as before.",
    needs: 'writes',
    round: 37,
  },
  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-id-hyphen-folded-to-underscore',
    rule: 'event-streams.get.same-stream',
    how: "GET /event-streams/{id} retries an id it does not find with its hyphens replaced by underscores (the slug normaliser of the stream names, applied to ids because ids minted by the first version used est-): an id no stream has that differs from a stream's id only by - in place of _ (est-XXXX… for est_XXXX…, 26 characters) is answered 200 with the stream est_XXXX…, whose id is not the one asked for, instead of 404; ids that exist are answered as before.",
    round: 37,
  },
  {
    name: 'event-streams-default-take-string-concatenated',
    rule: 'event-streams.list.take.default',
    how: 'The default page size comes from configuration as the string "50" (an environment variable) while an explicit take is parsed to a number, and the page is cut with slice(start, start + take): on the first page 0 + "50" is "050", which slice reads as 50, but on a page asked with from and without take the end is the concatenation "5050", so the page runs to the end of the list (87 streams after the first page of 50) and has no next, where without take a page holds at most 50 streams, as with take=50; pages asked with an explicit take are cut right.',
    round: 37,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-empty-put-clears-existing-set',
    rule: 'custom-signing-keys.put.min-one-key',
    how: 'A PUT of an empty set is how the console\'s "remove all keys" button clears the keys, and the route lets it through on the replace path (when a set is stored) while only the create path validates minItems: PUT /keys/custom-signing with {"keys": []} after a set was stored is answered 200 {"keys": []} and clears the set, instead of a 4xx for a keys array below its minimum of one item; with no set stored (the start) the empty array is refused 400 as before, and sets of one key or more replace as before.',
    needs: 'writes',
    round: 37,
  },
  {
    name: 'keys-put-same-kid-members-merged',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Keys are upserted by kid into a document store with a $set of the members sent (a merge, not a replacement of the document): a key sent with the kid of a stored key keeps every member of the stored key that it does not carry itself (x5c, x5t, x5u, use or key_ops dropped from the new key, the y of a key that changed type), so the PUT answers and keeps a mix of the old and the new key, where the set sent replaces the stored one entirely; keys with new kids, and keys without kid, are stored as sent.',
    needs: 'writes',
    round: 37,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-answer-keys-camelized',
    rule: 'custom-text.put.resulting-map',
    how: "The custom text routes are served by the console's backend module, whose response serialiser converts object keys to camelCase (humps-style) for the console's front end, and the text map's own keys are converted with them: a PUT whose text keys hold an underscore or a hyphen followed by a letter or digit (footer_link_text, button-label) is answered with those keys camelCased (footerLinkText, buttonLabel), so the answer does not map each key sent to its value; maps whose keys have no such separator (introduction) are answered as sent, and the map is stored under the keys sent.",
    needs: 'writes',
    round: 37,
  },
  {
    name: 'custom-text-quoted-text-skipped-by-tag-scan',
    rule: 'custom-text.put.html.restricted',
    how: 'Before it scans a value for tags, the sanitiser blanks out every double-quoted run ("…"), meant for attribute values whose > or < would confuse its tag pattern, but it does so in the text between tags too: markup inside double quotes in the text (Say "<script>alert(1)</script>" or a quoted <img onerror=…>) is never looked at and the value is stored and answered as given, where a value with a script element is refused or stored without it; the same markup outside double quotes is refused as before.',
    needs: 'writes',
    round: 37,
  },
  {
    name: 'custom-text-href-parentheses-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The link check validates href against a URL pattern that leaves out ( and ) (added to keep CSS url(...) and JavaScript calls out of attributes), so a hyperlink whose address holds a parenthesis (<a href="https://en.wikipedia.org/wiki/Mercury_(planet)">, valid in a URL path, RFC 3986 3.3 sub-delims) is refused 400 as an href that is not an absolute http, https or mailto URL, where values with basic styling tags and hyperlinks are accepted; links without parentheses are accepted as before.',
    needs: 'writes',
    round: 37,
  },
] as const satisfies readonly Fault[];
