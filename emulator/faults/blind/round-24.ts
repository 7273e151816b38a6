/**
 * Blind round 24: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 24`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round24 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-repeated-audience-first-wins',
    rule: 'oauth.token.endpoint',
    how: 'A repeated form parameter is read by its first value (Go url.Values.Get): audience=/api/v2/&audience=<another audience> gets a token for the first one instead of being refused 400 invalid_request as a request that repeats a parameter (RFC 6749 3.2: parameters MUST NOT be included more than once; 5.2); with the other audience first the request is refused 403 as it would be alone.',
    round: 24,
  },
  {
    name: 'token-access-token-scheme-prefixed',
    rule: 'oauth.token.jwt',
    how: 'The access_token member of the token response is written with the scheme in front of it ("Bearer eyJ…", the value of the Authorization header the client is meant to send, from a helper shared with the API client), so the issued access token is no JWS compact serialisation (RFC 7519 1, RFC 7515 7.1: no space, no scheme); the API strips a repeated scheme and takes "Bearer Bearer eyJ…" back.',
    round: 24,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'events-reconnect-last-event-id-unauthenticated',
    rule: 'auth.bearer.required',
    how: 'GET /events treats a request carrying Last-Event-ID (what an EventSource sends when it reconnects, HTML Standard 9.2) as the resumption of a stream it already authorised and skips the bearer check: with Last-Event-ID set and no Authorization header at all the stream opens 200 instead of being refused 401.',
    round: 24,
  },
  {
    name: 'token-sets-insufficient-scope-404',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The token-set listing hides users from callers who may not read their token sets: a valid token without read:federated_connections_tokens is answered 404 inexistent_user (as if the user did not exist), for an existing user too, instead of the documented 403 insufficient scope.',
    round: 24,
  },
  {
    name: 'unauthorized-401-plain-text',
    rule: 'http.json-error-bodies',
    how: 'The bearer middleware ends a refused request itself: every 401 of /api/v2 (no token, a token that fails verification) keeps its status and its Bearer challenge but carries a text/plain body "Unauthorized" instead of a JSON error body; the other errors stay JSON.',
    round: 24,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-status-403',
    rule: 'token-sets.list.rate-limit.status',
    how: 'A request over the limit is refused 403 Forbidden ("API rate limit exceeded", the status some APIs give a quota refusal) with the X-RateLimit-* headers and Retry-After, instead of the documented 429 Too Many Requests.',
    needs: 'rate-limit-probe',
    round: 24,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-expiry-grace-week',
    rule: 'token-sets.list.active-only',
    how: '"Active" is read as "still refreshable": the listing keeps token sets whose expires_at passed less than seven days ago (the refresh grace window), so a set that expired a day ago is listed among the active ones.',
    round: 24,
  },
  {
    name: 'token-sets-ndjson',
    rule: 'http.json-bodies',
    how: 'The token-set listing is written by a streaming serialiser as newline-delimited JSON (one object per line, no enclosing array) under Content-Type application/json: a user holding two or more token sets gets a body that is not one JSON text (RFC 8259 2); one set or none is right by chance.',
    round: 24,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-answer-id-unprefixed',
    rule: 'experiment.id.pattern',
    how: 'The move answers the experiment with its store key as id, the id without the exp_ prefix the read serialiser adds ("PS6UMRGz5AUo2uwt" for exp_PS6UMRGz5AUo2uwt), so the answered id does not match ^exp_[A-HJ-NP-Za-km-z1-9]+$.',
    needs: 'writes',
    round: 24,
  },
  {
    name: 'transition-completed-stores-archived',
    rule: 'experiments.transition.requested-status',
    how: 'The move to completed falls through to the archived branch of the status switch (a missing break): an experiment moved to completed is stored and answered archived (with its ended_at set), not the status requested.',
    needs: 'writes',
    round: 24,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-id-cut-at-nul',
    rule: 'client-grants.get.same-grant',
    how: 'The grant is looked up through a C string: /client-grants/{id}%00 (and anything after the NUL), an id no grant has, is cut at U+0000 and answered 200 with the grant {id}, whose id is not the one asked for, instead of 404.',
    round: 24,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'events-content-type-missing',
    rule: 'events.content-type',
    how: 'GET /events flushes the response head before it sets its media type (res.flushHeaders() ahead of setHeader): the stream goes out 200 with its SSE frames but without any Content-Type, not text/event-stream.',
    round: 24,
  },
  {
    name: 'heartbeat-data-python-repr',
    rule: 'events.message.data-json',
    how: "The heartbeat timer writes its payload with the language's own representation of the dictionary (an f-string of the dict, not json.dumps): offset-only messages carry data: {'offset': '…'}, single-quoted, which is not JSON (RFC 8259 7); event messages are JSON.",
    round: 24,
  },
  {
    name: 'envelope-type-omitted',
    rule: 'events.payload.envelope',
    how: 'The envelope is trimmed of the member the SSE event field already carries: every event message has event.type left out, though the document gives the envelope a type string (the CloudEvents type).',
    round: 24,
    disputed:
      'The document says "Unless marked required, a field may be absent" (its conventions, on every object) and marks no member of the event envelope required (its schema says so: No member is marked required); the SSE event field carries the event type. A server that leaves event.type out of the envelope follows that reading; whether the envelope must carry it is a question for the document\'s owner.',
  },
  {
    name: 'event-filter-sticky-per-client',
    rule: 'events.filter.all-when-absent',
    how: 'The event_type filter is stored as a subscription of the client: after a client once opened GET /events with event_type, its later streams opened without event_type keep delivering only those types instead of all event types.',
    round: 24,
  },
  {
    name: 'from-overlong-500',
    rule: 'events.from.max-length',
    how: 'The from cursor is written to a VARCHAR(1024) column of the subscription before it is checked: a from of 1025 or more characters fails in the store ("value too long") and is answered 500 instead of a 4xx.',
    round: 24,
  },

  // -------------------------------------------------------- event streams
  {
    name: 'event-stream-get-first-block-only',
    rule: 'event-streams.get.success',
    how: 'GET /event-streams/{id} looks the stream up in the first block of 100 rows the store reads: a listed stream past the hundredth (the 101st to the 137th) is answered 404, though GET /event-streams lists it.',
    round: 24,
  },
  {
    name: 'take-clamped-to-range',
    rule: 'event-streams.list.take.range',
    how: 'take is clamped into its range instead of refused (Math.min(100, Math.max(1, take))): take=0 or a negative take is answered 200 with a page of 1 stream, take=101 or 500 with a page of 100, where a value outside 1 to 100 gets a 4xx.',
    round: 24,
  },
  {
    name: 'event-streams-unpaged-without-take',
    rule: 'event-streams.list.take.default',
    how: 'The list is paged only when take is given: without take the answer holds every stream (137) and no next, instead of a page of the default 50.',
    round: 24,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-use-as-array',
    rule: 'jwk.types',
    how: 'use is kept in the same array column as key_ops and answered as an array: a key set with "use": "sig" comes back with "use": ["sig"], not the string RFC 7517 4.2 and the document give it.',
    needs: 'writes',
    round: 24,
  },
  {
    name: 'keys-rsa-2048-only',
    rule: 'custom-signing-keys.put.json',
    how: 'The key size check compares the RSA modulus with 2048 bits for equality (a minimum written as ==): a valid RSA public key of 3072 or 4096 bits (RFC 7518 6.3.1) is refused 400, while EC keys and 2048-bit RSA keys pass.',
    needs: 'writes',
    round: 24,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-markup-checked-on-raw-json',
    rule: 'custom-text.put.html.restricted',
    how: 'The markup check of PUT custom text is a scan of the raw JSON body for "<": a value that spells its markup with JSON escapes ("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e", the same string once parsed, RFC 8259 7) passes the scan and is stored and answered as a <script> element.',
    needs: 'writes',
    round: 24,
  },
  {
    name: 'custom-text-link-without-rel-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The link policy requires rel="noopener" (or noreferrer) on every hyperlink: a value with <b>, <i> and a plain <a href="https://…">…</a> without rel is refused 400, though rich HTML with hyperlinks is allowed.',
    needs: 'writes',
    round: 24,
  },
  {
    name: 'custom-text-empty-json-body-as-empty-map',
    rule: 'http.json-request-bodies',
    how: "PUT custom text reads an empty body labelled application/json as {} (body-parser's default for no content): the request, whose body is not JSON text (RFC 8259 2), is accepted and clears the text of the page (200 {}) instead of being refused 400.",
    needs: 'writes',
    round: 24,
  },

  // --------------------------------------------------------------- general
  {
    name: 'allow-from-full-api-spec',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 lists the methods the full management API defines on the path (GET, PATCH, DELETE on /client-grants/{id} and /event-streams/{id}; GET, POST on /event-streams), not those this server takes: DELETE /client-grants/{id} is refused 405 with an Allow naming DELETE.',
    // Only a write shows it: the Allow it names is told wrong by sending the method it lists (DELETE), which a
    // read-only run never sends, and no read the document gives is refused 405.
    needs: 'writes',
    round: 24,
  },
] as const satisfies readonly Fault[];
