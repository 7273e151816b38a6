/**
 * Blind round 42: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 42`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round42 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-pragma-copied-from-cache-control',
    rule: 'oauth.token.response',
    how: 'The HTTP/1.0 compatibility shim of the token endpoint sets Pragma by copying the value of the Cache-Control header it finds on the response: every 200 token response of POST /oauth/token/ carries Cache-Control: no-store and Pragma: no-store, a directive Pragma does not have (RFC 9111 5.4 knows only no-cache), where RFC 6749 5.1 requires "the Pragma response header field with a value of no-cache"; Cache-Control: no-store, the body and the error answers of the endpoint are as before.',
    round: 42,
  },
  // --------------------------------------------------------------- scopes
  {
    name: 'scope-refusal-cached-by-path',
    rule: 'oauth.token.accepted',
    how: 'The authorisation layer keeps a deny cache to shed clients that probe without scopes, keyed by method and path where the token (or its client) was meant to be part of the key: once a request was refused 403 insufficient_scope (the limited client reading GET /client-grants/{id}, or the token-set listing of a user), every request of the same method to the same path is refused 403 for the next 60 seconds whatever its token, the run\'s own token holding the required scope included, where "An operation accepts either the bearer scheme or the client-credentials scheme with the scopes it requires"; paths no 403 was answered on, and requests after the 60 seconds, are admitted as before.',
    // Primed by a check of another rule (a 403 to the limited client), read by the run's token in the next:
    // the read-only sweep of the rules that caught it, alone, missed it (rehearsal of 43c08a7).
    sweep: 'whole',
    round: 42,
  },
  {
    name: 'invalid-token-negative-cache-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The bearer verifier remembers the tokens that failed verification (a negative cache against floods of forged tokens), and a token found there is refused by the cache\'s fast path, which answers 401 without any WWW-Authenticate: the first request with a bad bearer token (an altered signature, a foreign key) on any operation gets 401 with WWW-Authenticate: Bearer error="invalid_token", the same token sent again (on any connection, to any operation) gets 401 with no challenge, where RFC 9110 11.6.1 says a server generating a 401 "MUST send a WWW-Authenticate header field" and RFC 6750 3 requires the Bearer challenge; 401s of requests without an Authorization header, and the first 401 of each bad token, carry their challenge as before.',
    round: 42,
  },
  // -------------------------------------------------------- client grants
  {
    name: 'client-grant-serializer-object-reused',
    rule: 'client-grant.client-id-default-for.exclusive',
    how: 'The grant serializer reuses one output object per worker (an allocation-saving pool) and copies each grant onto it with Object.assign, never clearing the members the previous grant had: the first GET /client-grants/{id} is right, but a grant read after another one carries the members it lacks from the grant read before (the default_for grant read after the fixture grant is answered with client_id and default_for both, and the fixture grant read after it with default_for: third_party_clients beside its client_id), where client_id is "Mutually exclusive with default_for"; a grant read again right after itself, and the first read, are as before.',
    round: 42,
  },
  // -------------------------------------------------------- event streams
  {
    name: 'event-streams-list-webhook-endpoint-path-masked',
    rule: 'event-streams.get.same-stream',
    how: 'The list view\'s serializer (the console table\'s projection) masks the path of each webhook endpoint, where a secret token may sit: every stream of GET /event-streams carries destination.configuration.webhook_endpoint as https://hooks.conformance.test/*** while GET /event-streams/{id} answers the same stream\'s endpoint in full (https://hooks.conformance.test/streams/1), so the listing and the read disagree on one stream, where the list holds "event stream objects" whose webhook_endpoint is the "Target address of the webhook"; ids, names, subscriptions and every other member are as before.',
    round: 42,
  },
  {
    name: 'event-streams-cursor-invalidated-by-reads',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'Each next cursor is bound to the version of the stream collection it was cut from, to detect changes under a walk, and GET /event-streams/{id} stamps the stream\'s last_read_at, which bumps that version: a walk by next during which any stream is read by id gets 400 invalid_cursor for the next page asked after the read, where next is to be passed "as `from` to get the next page" and a GET is safe (RFC 9110 9.2.1); walks without reads in between, and the first page, are as before.',
    round: 42,
  },
  {
    name: 'event-stream-subscriptions-filtered-by-caller-read-scopes',
    rule: 'event-stream.subscriptions.min-items',
    how: 'Subscriptions are passed through the data-visibility rule of the events API, which shows an event type only to callers holding the read scope of its resource (read:users for user.*, read:organizations for organization.*, read:connections for connection.*): with a token holding read:event_streams and read:users but neither of the others (the run\'s own token), every stream whose subscriptions are only organization.* or connection.* types is answered by GET /event-streams and GET /event-streams/{id} with subscriptions [], and a token narrowed to read:event_streams sees [] on every stream, where subscriptions has "Minimum 1 item"; the user.* subscriptions, and every other member, are answered as before.',
    round: 42,
  },
  // ----------------------------------------------------------- token sets
  {
    name: 'token-sets-scope-beyond-connection-config-hidden',
    rule: 'token-sets.list.active-only',
    how: 'The listing treats a token set holding a scope its connection no longer requests (a scope outside the connection\'s options.scope, openid profile email for google-oauth2) as a stale grant and leaves it out: GET /users/{id}/federated-connections-tokensets of the fixture user answers only the two sets scoped openid email and not the two active sets that also hold https://www.googleapis.com/auth/calendar.readonly (expiring a year ahead), where the listing is the "JSON array of federated connection token set objects (active ones)"; sets whose scopes the connection requests, and the expired set (still left out), are as before.',
    round: 42,
  },
  {
    name: 'rate-limit-429-rearms-window',
    rule: 'token-sets.list.rate-limit.headers',
    how: "The limiter keeps a penalty box beside its fixed window: every 429 puts the token in the box for a whole window from that moment (re-armed by each further 429), while the 429's X-RateLimit-Reset still names the end of the fixed window and X-RateLimit-Remaining its count: a client of GET /users/{id}/federated-connections-tokensets that gets its 429 and asks again before the announced X-RateLimit-Reset (refused 429, as it should be) is still refused 429 once that reset has passed (then with X-RateLimit-Remaining above 0 and the next window's reset), and every such retry re-arms the box, where the 429's \"headers `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` describe the rate limit\"; requests within the limit, and a token that waits a whole window after its last 429, are served as before.",
    needs: 'rate-limit-probe',
    round: 42,
  },
  // --------------------------------------------------------------- events
  {
    name: 'history-non-oidc-connection-oidc-metadata-null',
    rule: 'events.connection-created.object',
    how: 'The connection serializer of the event builder fills options.oidc_metadata from the OIDC discovery cache, which only connections of the oidc strategy have, and writes null for the others: the connection.created events of the samlp and okta connections in the stored history (replayed by GET /events?from_timestamp=<a day back>), and any connection.created of a strategy other than oidc, carry "oidc_metadata": null, where oidc_metadata is an object of the listed members; the connection.created of the oidc connection, and every other member of the options, are as before.',
    round: 42,
  },
  {
    name: 'resume-seeks-to-block-start',
    rule: 'events.resume.no-duplicate',
    how: "The event store is read in blocks of 16 sequence numbers and a resumption seeks to the block holding the event after the cursor, then replays the whole block without filtering inside it: GET /events?from=<offset of event k> delivers again the events of k's block up to k itself (from the offset of the 20th history event, the 17th to the 20th come again before the 21st), and resuming from a heartbeat's offset repeats the events of the head's block, where resuming \"never delivers event k (or an earlier one) again\"; cursors of the last event of a block (the 16th, 32nd, …) resume right after it, as before.",
    round: 42,
  },
  {
    name: 'from-timestamp-unchecked-beside-cursor',
    rule: 'events.from-timestamp.max-length',
    how: 'Since the cursor wins when both are given, the stream reads from_timestamp only on the branch taken without from, where its checks sit: GET /events?from=<a valid offset>&from_timestamp=<21 characters or more> resumes after the cursor (200) instead of refusing the over-long from_timestamp, where from_timestamp has "maximum length 20"; a 21-character from_timestamp without from is refused 400 as before.',
    round: 42,
  },
  {
    name: 'timestamp-replay-offsets-result-position',
    rule: 'events.resume.no-duplicate',
    how: 'The query behind from_timestamp pages through its result with an index and the writer takes that index (0-based) for the offset column, both being called position: the n-th event replayed by GET /events?from_timestamp=… carries the offset (in the payload and the SSE id) of position n-1, so resuming from any of them replays events that came before it again (resuming from the offset the 20th history event was given delivers the 20th again, and from the first one the whole log), where resuming from the offset of event k "never delivers event k (or an earlier one) again"; offsets of events replayed after a from cursor, of live events and of heartbeats are as before.',
    round: 42,
  },
  {
    name: 'event-filter-judged-on-previous-event',
    rule: 'events.filter.only-requested',
    how: 'In the stream\'s pipeline the event_type filter stage reads the type from a variable the enrichment stage sets after it, so each event is judged by the type of the event before it: GET /events?from_timestamp=<a day back>&event_type=user.created delivers, among others, the organization.created and user.updated events that follow a user.created in the history and not the user.created that follows another type, and live events are judged the same way, where "only those types arrive"; streams without event_type are as before.',
    round: 42,
  },
  {
    name: 'live-deletion-events-offset-null',
    rule: 'events.payload.offset',
    how: 'Deletion events are written by the soft-delete trigger, which stores the envelope before the log assigns it a sequence, and the payload\'s offset is read from that row: every *.deleted event caused after start (DELETE /users/{id}, /organizations/{id}, /connections/{id}) arrives on GET /events with data {"offset": null, "event": …} while its SSE id carries the cursor, where each data line carries "offset: string"; created and updated events, and the deletion events of the stored history, are as before.',
    needs: 'writes',
    round: 42,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-answer-content-encoding-passthrough',
    rule: 'http.json-bodies',
    how: 'The move handler proxies the experimentation service with a client that decompresses the upstream answer and then copies the upstream headers onto the reply, Content-Encoding included: POST /experimentation/experiments/{id}/status sent with Accept-Encoding: gzip (as fetch sends it) is answered 200 with Content-Encoding: gzip over a plain JSON body, which a client decodes as gzip and fails on, where "All request and response bodies are JSON unless stated"; requests without gzip in Accept-Encoding, and the 4xx answers of the move, are as before.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'transition-status-char9-padded',
    rule: 'experiment.status.enum',
    how: 'The experiments table keeps status in a CHAR(9) column (the longest status, completed, has nine letters) and the move answers the row as read, blank-padded: POST /experimentation/experiments/{id}/status moving to active, paused or archived answers "status": "active   " (or "paused   ", "archived "), none of `draft`, `active`, `paused`, `completed`, `archived`; a move to completed (nine letters) is answered as before.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'transition-answer-id-flickr-base58',
    rule: 'experiments.transition.same-experiment',
    how: 'The move\'s answer is built by the experimentation service, which writes the public id from the experiment\'s number with the Flickr base58 alphabet (lower case before upper case), while the ids the interface hands out and takes in the path use the Bitcoin alphabet (upper case first): POST /experimentation/experiments/{id}/status answers an experiment whose id still matches ^exp_[A-HJ-NP-Za-km-z1-9]+$ but is not the id in the path (exp_PS6UMRGz5AUo2uwt comes back as exp_or6tmqgZ5atN2UWT), where "The returned experiment is the one named in the path"; the status and the other members are as before.',
    needs: 'writes',
    round: 42,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-answer-kid-html-escaped',
    rule: 'custom-signing-keys.put.json',
    how: 'The PUT\'s answer is rendered by the service\'s Mustache view layer, whose {{kid}} escapes for HTML: a key whose kid holds a quotation mark, an ampersand, <, >, an apostrophe, a slash, = or a backtick (kid "tenant/2025", "a\\"b") is answered by PUT /keys/custom-signing with "kid": "tenant&#x2F;2025" or "a&quot;b", where kid is a case-sensitive string and each key is answered with its kid as sent (RFC 7517 4.5); the stored set, kids of letters, digits, - _ . and the other members are as before.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'keys-json-bom-500',
    rule: 'http.json-request-bodies',
    how: "The keys route hands its raw body to the JOSE library's JWKS parser, which throws an unchecked exception on a leading byte order mark that the route's error mapper does not know: PUT /keys/custom-signing with a UTF-8 BOM before a valid JWKS (Content-Type: application/json) is answered 500 (the emulator's parser otherwise ignores the BOM and takes the set), where RFC 8259 8.1 lets a parser ignore the BOM or refuse it and a body that is not JSON is refused with a 4xx, never a 5xx; the same body without the BOM, and the other operations, are as before.",
    needs: 'writes',
    round: 42,
  },
  {
    name: 'keys-private-member-400-text-plain',
    rule: 'http.json-error-bodies',
    how: 'The check for private members is done by the JOSE library\'s public-key conversion, whose exception reaches the framework\'s default error handler: PUT /keys/custom-signing with a key holding d (or p, q, dp, dq, qi, oth, k) is refused 400 with Content-Type: text/plain and the body "Bad Request: JWK holds a private member", where "All request and response bodies are JSON unless stated"; the other 400s of the PUT (keys [], a key without kty, malformed JSON), its 401, 403 and 415, and every other operation\'s errors are JSON as before.',
    needs: 'writes',
    round: 42,
  },
  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-title-attribute-split-on-equals',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The sanitiser reads the global attributes of a tag (title, class, lang, dir, style) with attr.split("="), so a quoted value holding = falls apart and the tag is refused: PUT custom text with a value such as <b title="x=1">Hi</b> or <span title="a = b">…</span> is refused 400, where values "may be plain text or rich HTML limited to basic styling tags and hyperlinks" and a title is any quoted value (HTML 13.2.5.36-38); the same markup with a title without =, and hrefs (read by the link validator), are as before.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'custom-text-markdown-rendered-on-store',
    rule: 'custom-text.put.resulting-map',
    how: 'The text store runs a value through the console\'s Markdown renderer when it looks like Markdown (its first line opens a list, a heading or a quote): PUT custom text with {"intro": "- one"} (or "# Title", "> quoted", "1. first") stores and answers "<ul>\\n<li>one</li>\\n</ul>" (or <h1>, <blockquote>, <ol>), so the resulting map does not map the key to the value sent; values whose first line opens none of them are kept as sent.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'custom-text-underscore-keys-dropped',
    rule: 'custom-text.put.resulting-map',
    how: 'The document mapper of the text store treats members whose name starts with _ as its own metadata (_id, _rev) and strips them when it writes the document: PUT custom text with {"_footer": "Hi", "intro": "Hello"} stores and answers {"intro": "Hello"}, where the answer is the "object of the resulting text keys and values" of the keys set; keys that do not start with _ are stored and answered as before.',
    needs: 'writes',
    round: 42,
  },
  {
    name: 'custom-text-path-enum-400-plain-text',
    rule: 'http.json-error-bodies',
    how: 'The language and page segments are checked by enum constraints of the router, whose refusal is its own plain-text answer: PUT /self-service-profiles/{id}/custom-text/fr/get-started (or en/another-page) is refused 400 with Content-Type: text/plain and the body "Bad Request", where "All request and response bodies are JSON unless stated"; the other 400s of the PUT (a value too long, a script, a value that is not a string), its 401, 403, 404 and 415, are JSON as before.',
    needs: 'writes',
    round: 42,
  },
] as const satisfies readonly Fault[];
