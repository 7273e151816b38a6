/**
 * Blind round 20: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 20`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round20 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-repeated-identical-params-collapsed',
    rule: 'oauth.token.bad-client',
    how: 'The token endpoint takes a repeated form parameter for ambiguous only when its values differ: client_id (or client_secret, audience, grant_type) given twice with the same value is read once and the request gets a token, instead of the invalid_request a request that repeats a parameter gets (RFC 6749 3.2: parameters MUST NOT be included more than once; 5.2).',
    round: 20,
  },
  {
    name: 'token-repeated-scope-joined',
    rule: 'oauth.token.endpoint',
    how: 'A repeated scope parameter is read as a list and joined with spaces (scope=read:events&scope=read:client_grants as "read:events read:client_grants"): the request gets a token narrowed to both, instead of being refused as one that repeats a parameter (RFC 6749 3.2, 5.2 invalid_request).',
    round: 20,
  },
  {
    name: 'token-expires-in-absolute',
    rule: 'oauth.token.response',
    how: "expires_in carries the token's expiry as a Unix time (its exp claim, about 1.8e9) instead of the lifetime in seconds RFC 6749 5.1 defines (86400): a client adding it to the present keeps the token for decades after it expired.",
    round: 20,
  },
  {
    name: 'token-jwt-bearer-grant-without-assertion',
    rule: 'oauth.token.grant-type',
    how: 'The JWT bearer grant (grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer) is taken, and a request of it without its assertion falls back to the client credentials of the body and issues a token, instead of 400 (RFC 7523 2.1: assertion REQUIRED; RFC 6749 5.2: a missing required parameter is invalid_request).',
    round: 20,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-hs256-client-secret-accepted',
    rule: 'auth.jwt.signature',
    how: "The bearer check also takes HS256 tokens MACed with the secret of the client they name (the way ID tokens of confidential clients are signed): a token a client signs itself with its own secret, holding any scope it writes, is admitted on every operation instead of refused 401 (the tenant's tokens are RS256 under its own key; RFC 8725 3.1, 3.2).",
    round: 20,
  },
  {
    name: 'events-access-token-query-accepted',
    rule: 'auth.bearer.required',
    how: 'GET /events also takes its token from an access_token query parameter (for browser EventSource clients, which cannot set headers; RFC 6750 2.3): a request without the Authorization header but with ?access_token=<jwt> opens the stream (200) instead of being refused.',
    round: 20,
  },
  {
    name: 'challenge-description-unescaped-quotes',
    rule: 'http.unauthorized.challenge',
    how: 'The 401 for a token that fails verification puts the verifier\'s message in error_description as it is: for a token of another alg (none, HS256) it is "alg" (Algorithm) Header Parameter value not allowed, whose quotes end the quoted-string early, so WWW-Authenticate holds no parsable challenge (RFC 9110 11.2 quoted-string; RFC 6750 3: error_description excludes %x22).',
    round: 20,
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'allow-header-adds-head-to-get',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 adds HEAD wherever GET is served (GET implies HEAD, RFC 9110 9.3.2), but no HEAD route is registered: HEAD on a GET path is answered 405 with an Allow naming HEAD, the method it refused.',
    round: 20,
  },
  {
    name: 'path-overlong-utf8-decoded',
    rule: 'http.path-id.percent-encoding',
    how: 'Request paths are percent-decoded by a lenient UTF-8 decoder that reads overlong forms: /users/auth0%C1%BC…/federated-connections-tokensets (C1 BC, an overlong | that is no UTF-8, RFC 3629 3, RFC 3986 2.5) names the user auth0|… and its token sets are answered 200, instead of no resource.',
    round: 20,
  },
  {
    name: 'keys-json-trailing-data-ignored',
    rule: 'http.json-request-bodies',
    how: 'The JSON body of PUT /keys/custom-signing is read by a streaming decoder that stops after the first JSON value (Go json.Decoder.Decode): {"keys":[…]} followed by anything ({"keys":[…]}} or {"keys":[…]}x), which is not JSON text (RFC 8259 2), is accepted and the keys set, instead of refused 400.',
    needs: 'writes',
    round: 20,
  },
  {
    name: 'custom-text-answer-apostrophe-escaped',
    rule: 'http.json-bodies',
    how: "The custom text answer is written with a JavaScript string escaper instead of a JSON one: an apostrophe in a value goes out as \\' (Don\\'t), an escape JSON does not have (RFC 8259 7), so an answer holding one is not JSON.",
    needs: 'writes',
    round: 20,
  },
  {
    name: 'events-errors-as-sse',
    rule: 'http.json-error-bodies',
    how: 'GET /events answers its refusals (400 for a bad event_type, from or from_timestamp, 401, 403) with their status but as text/event-stream: one "event: error" message whose data line holds the JSON error (the stream\'s own error payload), instead of a JSON error body.',
    round: 20,
  },

  // ----------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-delta-sign-flipped',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset gives the seconds to go computed as now minus the window end (operands swapped): a negative number (-58) on every answer and on the 429, neither an epoch time nor a wait.',
    needs: 'rate-limit-probe',
    round: 20,
  },

  // ------------------------------------------------------- experiments
  {
    name: 'experiment-percentage-segment-id-null',
    rule: 'experiment.allocation.types',
    how: 'In the answer of a move, the allocations of an experiment whose allocation_strategy is percentage carry segment_id: null (a percentage split targets no segment, so the column is left unset) instead of the string.',
    needs: 'writes',
    round: 20,
  },
  {
    name: 'transition-duplicate-status-first-validated',
    rule: 'experiments.transition.draft-rejected',
    how: 'A body naming status twice is validated on its first occurrence and applied with its last (a validator reading the raw JSON, the handler JSON.parse\'s last-wins object; RFC 8259 4: names SHOULD be unique, parsers differ): {"status":"active","status":"draft"} passes as a move to active and is answered and stored as draft.',
    needs: 'writes',
    round: 20,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-scope-key-preserving-sort',
    rule: 'client-grant.types',
    how: 'The grant\'s scope is sorted with a key-preserving sort (PHP asort) before it is encoded: a list the sort reorders (read:orders, create:orders) keeps its indexes out of order and is encoded as the object {"1":"create:orders","0":"read:orders"} instead of an array; a list already in order stays an array.',
    round: 20,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-never-updated-zero-date',
    rule: 'timestamps.date-time',
    how: 'Event streams not updated since they were created answer updated_at as the zero date 0000-00-00T00:00:00Z (a MySQL zero DATETIME default of an ON UPDATE column), which is no RFC 3339 date-time (month and day 00), on GET /event-streams/{id} and in the list.',
    round: 20,
  },
  {
    name: 'event-streams-last-page-next-null',
    rule: 'event-streams.list.success',
    how: 'The last page of GET /event-streams answers next: null (hasMore ? cursor : null) instead of leaving next out or giving a string: next is a string (opaque).',
    round: 20,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-key-ops-set-serialised',
    rule: 'jwk.types',
    how: 'key_ops is deduplicated into a Set (RFC 7517 4.3: duplicates MUST NOT be present) and serialised as it is: JSON.stringify writes a Set as {}, so every key sent with key_ops is answered with key_ops: {} instead of an array of strings.',
    needs: 'writes',
    round: 20,
  },
  {
    name: 'keys-put-overwrites-by-position',
    rule: 'custom-signing-keys.put.replaces',
    how: 'A PUT writes the keys sent over the stored ones by position and deletes none: a PUT of fewer keys than the set holds answers and keeps the stored keys past its own (after a set of 3, a PUT of 1 key answers that key and the old second and third).',
    needs: 'writes',
    round: 20,
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-unterminated-tag-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: "The markup check parses a value as a document of its own, where a last tag with no > is dropped as incomplete: Hello <img src=x onerror=alert(1) (which the page's markup after it completes into a live handler) is stored and answered as given.",
    needs: 'writes',
    round: 20,
  },
  {
    name: 'custom-text-nested-object-flattened',
    rule: 'custom-text.put.value.type',
    how: 'Nested objects of the body are flattened to dotted keys (the message-catalogue convention): {"signup":{"title":"Hi"}}, a value that is an object, is accepted and stored as {"signup.title":"Hi"} instead of refused 4xx.',
    needs: 'writes',
    round: 20,
  },

  // -------------------------------------------------------- events stream
  {
    name: 'sse-line-ends-lf-cr',
    rule: 'events.message.event-field',
    how: 'SSE lines are ended with LF CR (CRLF written backwards): SSE takes LF and CR each for a line end, so the CR makes an empty line after every field that dispatches it; the event field is reset before the data line comes, and every message reaches a client as type message.',
    round: 20,
  },
  {
    name: 'heartbeat-offset-last-delivered',
    rule: 'events.resume.heartbeat-offset',
    how: 'Heartbeats carry the offset of the last event the stream itself delivered, and an empty offset (and SSE id) while it has delivered none: resuming from the first heartbeat of a stream opened without from sends from= (empty), which is refused 400, so what followed that heartbeat cannot be resumed.',
    round: 20,
  },
  {
    name: 'events-gzip-buffered',
    rule: 'events.start.latest',
    how: "GET /events goes through the compression the other answers get: with Accept-Encoding: gzip (as fetch sends it) the stream is gzip-encoded and never flushed per message, so heartbeats and events sit in the compressor's buffer and an event caused after connecting does not arrive; without Accept-Encoding the stream is right.",
    round: 20,
  },
] as const satisfies readonly Fault[];
