/**
 * Blind round 40: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 40`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round40 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-pragma-missing',
    rule: 'oauth.token.response',
    how: 'The token endpoint\'s success writer sets Cache-Control: no-store but drops the legacy Pragma header its HTTP/1.0 shim used to add: every 200 token response of POST /oauth/token/ carries no Pragma: no-cache, where RFC 6749 5.1 says the authorization server "MUST include the HTTP Cache-Control response header field with a value of no-store in any response containing tokens, credentials, or other sensitive information, as well as the Pragma response header field with a value of no-cache"; Cache-Control: no-store, the body, and every error answer of the endpoint are as before.',
    round: 40,
  },
  {
    name: 'token-basic-issued-audience-without-slash',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic branch of the token endpoint builds the token\'s aud from the API\'s identifier with its trailing slash stripped ({origin}/api/v2), while the API checks aud against {origin}/api/v2/: a client that authenticates by HTTP Basic gets a 200 token response, but every operation refuses that token 401 Invalid token, where RFC 6749 2.3.1 says "The authorization server MUST support the HTTP Basic authentication scheme" and the document says "An operation accepts either the bearer scheme or the client-credentials scheme with the scopes it requires"; tokens issued to clients that send client_id and client_secret in the body are accepted as before.',
    round: 40,
  },
  // ------------------------------------------------------ bearer, JWT
  {
    name: 'bearer-long-token-500',
    rule: 'auth.bearer.malformed',
    how: 'The bearer check copies the token into a fixed 4 KiB buffer before it parses it, and a token longer than 4096 characters overflows it: a request on any operation whose Authorization is Bearer followed by more than 4096 token characters that are not a valid JWT is answered 500 Internal Server Error, where "the token is a JWT" and a header that is not a bearer JWT is refused as an invalid token (401, RFC 6750 3.1 invalid_token), never a 5xx; shorter invalid tokens are refused 401 as before, and valid tokens are admitted as before.',
    round: 40,
  },
  {
    name: 'disallowed-alg-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The algorithm allow-list is checked by a guard in front of the verifier that answers its own 401 without the Bearer challenge: a request on any operation whose JWT header names an alg other than RS256 (none, HS256, RS512, …) is answered 401 without WWW-Authenticate, where RFC 9110 11.6.1 says a server generating a 401 "MUST send a WWW-Authenticate header field containing at least one challenge" (RFC 6750 3: Bearer error="invalid_token"); 401s for a missing header, a token that is not a JWT, or an RS256 token with a bad signature still carry the challenge, and valid tokens are admitted as before.',
    round: 40,
  },
  {
    name: 'events-expired-token-hour-leeway',
    rule: 'auth.token.expired',
    how: 'The events stream verifies its bearer token with a clock tolerance of an hour (set for long-lived SSE connections that reconnect with the token they opened with): GET /events with a token whose exp passed less than an hour ago (the expiring client\'s token once its expires_in has run out) opens the stream (200), where RFC 7519 4.1.4 says "the current date/time MUST be before the expiration date/time listed in the exp claim" (allowing "some small leeway") and an expired token gets 401 Invalid token; the other operations refuse the same token 401 as before, and tokens within their lifetime are admitted as before.',
    round: 40,
  },
  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-lowercase-scheme-uncounted',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter finds the key of a request with a case-sensitive prefix test (header.startsWith("Bearer ")), while the bearer check reads the scheme case-insensitively as RFC 9110 11.1 and RFC 6750 2.1 allow: a request whose Authorization spells the scheme bearer or BEARER is admitted but never counted, so the rate-limited client\'s token sending its listings as "bearer <token>" gets 200 however many it sends within a window, where every request over the limit is answered 429 Too many requests; requests that spell the scheme Bearer are counted and refused 429 as before.',
    needs: 'rate-limit-probe',
    round: 40,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-empty-list-text-plain',
    rule: 'http.json-bodies',
    how: 'An empty listing is sent by a short cut that writes the literal [] with res.end and the server\'s default media type: GET /users/{id}/federated-connections-tokensets of a user that holds no token set is answered 200 with the body [] under Content-Type: text/plain; charset=utf-8, where "All request and response bodies are JSON" (application/json); listings with token sets, and the error answers, are application/json as before.',
    round: 40,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-allocation-is-control-null',
    rule: 'experiment.allocation.types',
    how: 'The allocation rows keep is_control in a nullable column that the move\'s answer reads back with only true written, so a false flag comes back null: POST /experimentation/experiments/{id}/status answers each allocation that is not the control with "is_control": null, where the allocation object\'s is_control is a boolean; the control allocation (true), the other members, and the refusals are as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'transition-segment-authentication-flow-omitted',
    rule: 'experiment.required',
    how: 'The answer of a move is built by the mapper of the segment experiments, which has no authentication_flow (it targets a segment, not a flow) and leaves the member out: an experiment whose allocation_strategy is segment is answered by POST /experimentation/experiments/{id}/status without authentication_flow, where authentication_flow is a required member of the experiment; experiments with allocation_strategy percentage, and refused moves, are answered as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'transition-pause-answered-before-commit',
    rule: 'experiments.transition.requested-status',
    how: 'A move to paused is written through a queue (pausing drains live assignments first) and answered with the row as read before the queued write lands: POST /experimentation/experiments/{id}/status with {"status":"paused"} answers 200 with the experiment still "status": "active" although the move is stored, where the next state is "the requested status" and "The updated experiment is returned"; moves to active, completed and archived answer the requested status as before.',
    needs: 'writes',
    round: 40,
  },
  // ---------------------------------------------------------- client grants
  {
    name: 'client-grant-answer-id-from-client-id',
    rule: 'client-grants.get.same-grant',
    how: 'The grant mapper fills id from the row\'s client_id column (the two columns sit side by side in the view it reads): GET /client-grants/{id} of a grant that has a client_id answers it with "id" equal to that client_id, not the grant id asked for, where the path id is "client grant identifier" and the success is "the client grant object" of that id; the default grant of third-party clients, which has no client_id, is answered with its own id as before, and every other member is unchanged.',
    round: 40,
  },
  {
    name: 'client-grant-missing-authorization-details-types-null',
    rule: 'client-grant.types',
    how: 'The grant serialiser writes an unset authorization_details_types as null (a nil list without omitempty) instead of leaving it out: GET /client-grants/{id} of a grant that has no authorization_details_types answers "authorization_details_types": null, where authorization_details_types is an "array of string" (a field that may be absent, never null); grants that carry the list are answered as before.',
    round: 40,
  },
  // ------------------------------------------------------------ events stream
  {
    name: 'event-type-prototype-names-accepted',
    rule: 'events.filter.unknown-rejected',
    how: 'The event_type allow-list is an object literal keyed by the types and looked up with the in operator, which also finds the members every object inherits: GET /events?event_type=constructor (or toString, valueOf, hasOwnProperty, __proto__) is accepted and opens a stream (200) that delivers no event, where the allowed values "are listed in Events" and a value outside the list gets a 4xx; the listed types, and other unknown values (user.renamed, foo), are answered as before.',
    round: 40,
  },
  {
    name: 'sse-live-data-latin1-encoded',
    rule: 'events.message.data-json',
    how: 'The stream writer encodes each message with the socket\'s default latin1 encoding instead of UTF-8: a message whose text holds non-ASCII characters within U+0080-U+00FF (a user, organization or connection created with the name "José Müller") is written with one octet per character (0xE9, 0xFC), so the data line is not valid UTF-8 and the JSON decoded from it holds U+FFFD, where the stream is text/event-stream in UTF-8 (WHATWG HTML 9.2.5: "Streams must be decoded using the UTF-8 decode algorithm") and each data line carries the JSON payload; messages of ASCII text (the seeded history, heartbeats) are sent as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'live-envelope-svcstream-number',
    rule: 'events.payload.envelope',
    how: 'The live event producer writes the stream\'s numeric row key into the CloudEvents extension instead of its identifier: live events carry svcstream as a number (699751 for the stream events-api), where svcstream is a string ("Stream identifier"); the seeded history is delivered as before, and every other member of the envelope is unchanged.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'context-client-metadata-empty-as-array',
    rule: 'events.context.types',
    how: 'The context is serialised by a writer that cannot tell an empty map from an empty list (PHP json_encode of an empty array): every event whose client has no metadata carries context.client.metadata as [], where context.client.metadata is an object; the other members of the context, and client metadata with entries, are as before.',
    round: 40,
  },
  {
    name: 'connection-created-federated-access-tokens-flattened',
    rule: 'events.connection-created.object',
    how: 'The connection.created payload is built from the connection row, where the federated access tokens setting is a single boolean column: data.object.options.federated_connections_access_tokens is answered as the bare boolean of active (false), not as the object {"active": false} the document lists ("federated_connections_access_tokens (object: active boolean)"); the seeded history and live events alike, every other member of options as before.',
    round: 40,
  },
  // ---------------------------------------------------------- event streams
  {
    name: 'event-stream-get-subscriptions-as-type-strings',
    rule: 'event-stream.types',
    how: 'GET /event-streams/{id} is served from the detail cache, which keeps each subscription as its event type name: the stream is answered with subscriptions ["user.created", …], where subscriptions is an array of object, each with event_type (string); GET /event-streams answers the objects as before, and every other member of the stream is unchanged.',
    round: 40,
  },
  {
    name: 'event-streams-list-ordered-by-last-read',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'The listing is ordered by last_read_at NULLS FIRST, then by id, and GET /event-streams/{id} stamps last_read_at on the stream it reads, while next names the last stream of the page: a stream already listed that is read by GET /event-streams/{id} during a walk moves to the end of the order and is listed again on a later page, so the walk returns it twice, where next is to be passed "as `from` to get the next page"; walks during which no stream is read, and streams never read, are listed in the stored order as before.',
    round: 40,
  },
  // ------------------------------------------------------ custom signing keys
  {
    name: 'keys-put-form-appends',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The form-urlencoded body is handled by the legacy "add keys" form handler, which inserts the keys sent beside the stored ones: PUT /keys/custom-signing sent as application/x-www-form-urlencoded answers (and stores) the previous keys followed by the new ones, where the body "Replaces the entire set of custom signing keys" and the success is the resulting keys; a JSON PUT replaces the set as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'keys-kid-with-slash-refused',
    rule: 'custom-signing-keys.put.json',
    how: 'Each key is stored under a path of the key store built from its kid, unescaped, and a kid holding a / names no valid store path: a valid JWKS whose key carries a kid with a slash ("2024/rotation-1") is refused 400, where kid is a string (RFC 7517 4.5: "The kid value is a case-sensitive string") and a valid JWKS sent as JSON gets a 2xx with the resulting keys; keys whose kid has no slash, and keys without kid, are accepted as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'keys-json-trailing-comma-500',
    rule: 'http.json-request-bodies',
    how: 'The keys body is read by a tolerant parser that strips a trailing comma before a closing bracket and then dereferences the hole it leaves: a PUT /keys/custom-signing sent as application/json whose text has a comma before ] or } ({"keys":[{"kty":"EC"},]}) is answered 500, where such a body is not JSON (RFC 8259 2, 4, 5) and "Requests with bodies carry Content-Type: application/json" is refused with a 4xx, never a 5xx; other malformed JSON is refused 400 as before, and valid bodies are answered as before.',
    round: 40,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-keys-trimmed',
    rule: 'custom-text.put.resulting-map',
    how: 'The text keys are normalised with trim() before the map is stored: a PUT of {" welcome ": "Hi", "intro": "Hello"} stores and answers {"welcome": "Hi", "intro": "Hello"}, where the answer is "object of the resulting text keys and values" and maps each key sent to the value sent; keys without white space around them are answered as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'custom-text-href-with-port-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The hyperlink check matches href with a URL pattern whose authority is a host name without a port (^(https?|mailto):(//[A-Za-z0-9.-]+)?[^:]*$): a value with <a href="https://example.com:8443/help">help</a> is refused 400, where values "may be plain text or rich HTML limited to basic styling tags and hyperlinks" and an absolute https URL with a port is a hyperlink like any other (RFC 3986 3.2.3); links without a port are accepted as before.',
    needs: 'writes',
    round: 40,
  },
  {
    name: 'custom-text-tag-name-prefix-allowed',
    rule: 'custom-text.put.html.restricted',
    how: 'The tag allow-list is matched with startsWith, so a tag whose name begins with an allowed one passes as that one: values holding <button>Pay now</button>, <input>, <iframe></iframe> or <embed> (b, i, em) are accepted and stored, where values are "rich HTML limited to basic styling tags and hyperlinks" and form controls and embedded content are neither; the allowed tags themselves are accepted, and tags that begin with no allowed name (script, img, object), or that carry an attribute the tag they pass as does not take, are refused as before.',
    needs: 'writes',
    round: 40,
  },
] as const satisfies readonly Fault[];
