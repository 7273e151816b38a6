/**
 * Blind round 29: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 29`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round29 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-reissued-from-cache-max-age',
    rule: 'oauth.token.response',
    how: 'The token endpoint keeps an issuance cache per client, granted scope and audience (a token is handed out again while it has more than half its lifetime left, to save a signature), and a response served from that cache goes out through the cache layer\'s own header writer: the first token response of a client carries Cache-Control: no-store, but every later one for the same client and scope (the same access_token again) carries "Cache-Control: private, max-age=<seconds left>" and an Age header and no no-store, which RFC 6749 5.1 requires on every response holding a token ("The authorization server MUST include the HTTP Cache-Control response header field with a value of no-store").',
    round: 29,
  },
  {
    name: 'token-claims-json-string-payload',
    rule: 'oauth.token.jwt',
    how: 'The claims are serialised to a JSON text by the service and that text is handed to a JWS library that serialises its payload argument as JSON once more: the payload segment of every access token decodes to a JSON string ("{\\"iss\\":…}"), not to the JSON object a JWT Claims Set is (RFC 7519 4 and 7.2 step 10: the claims set is a JSON object; the suite\'s rule: the payload decodes to a JSON object); the API, whose verifier parses the payload twice as well, accepts its own tokens, so nothing fails for a client that treats the token as opaque.',
    round: 29,
  },
  {
    name: 'token-unknown-audience-500',
    rule: 'oauth.token.endpoint',
    how: "The audience parameter is looked up among the tenant's resource servers and the token's signing algorithm read from the row without a null check: a client-credentials request for an audience the tenant does not serve throws a TypeError (Cannot read properties of null (reading 'signing_alg')), answered 500 with error server_error instead of the RFC 6749 5.2 error response (access_denied or invalid_request, 4xx) that the document's refusal of a request beside the documented one must be, never a 5xx; the documented audience /api/v2/ is served as before.",
    round: 29,
  },

  // ------------------------------------------------------ JWT and bearer
  {
    name: 'token-exp-ttl-in-wrong-unit',
    rule: 'oauth.token.accepted',
    how: "The token lifetime is configured as 86400 (meant as seconds, the expires_in the response announces) but the issuer reads the setting as milliseconds and divides it by 1000 before setting exp: every access token carries exp = iat + 86, so the run's token, announced as valid for a day, is refused 401 invalid_token by every operation about a minute and a half after it was issued (RFC 7519 4.1.4: exp is the time after which the token MUST NOT be accepted, and the service itself set it there); a token used at once works.",
    round: 29,
  },
  {
    name: 'bearer-opaque-token-500',
    rule: 'auth.bearer.malformed',
    how: "The bearer middleware decodes the token's protected header (to pick the key by kid) before the try block that turns verification failures into 401: a bearer token that is not a JWT (no dots, or a first segment that is no base64url JSON object, as an opaque token or a random string is) makes the header decoder throw, and the request is answered 500 instead of the 4xx a token that is not a JWT gets (the token is a JWT, RFC 6750 3.1 invalid_token); JWTs with a bad signature, other schemes and missing headers still get their 401.",
    round: 29,
  },

  // --------------------------------------------------------------- scopes
  {
    name: 'scopes-from-clients-last-issued-token',
    rule: 'oauth.token.accepted',
    how: "The API resolves a token's scopes from the client's session record, one row per client that every token issue overwrites with the scope just granted, not from the token's own scope claim: once a client asks the token endpoint for a narrowed token (scope=read:federated_connections_tokens, RFC 6749 4.4.2), every older token of that client is judged by the narrowed scope too, and the run's full token is refused 403 insufficient_scope by every operation but the token-set listing, although it holds their scopes (RFC 6749 3.3: the scope is that of the access token issued).",
    round: 29,
  },

  // ----------------------------------------------------------- rate limits
  {
    name: 'rate-limit-counters-per-worker',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter keeps its window counters in memory in each of the two worker processes the load balancer alternates between: each worker counts only the requests it served, so a token gets twice its limit before a 429; X-RateLimit-Limit reports the limit, X-RateLimit-Remaining (per worker) goes down by one every second request and reaches 0 while requests up to twice the limit are still answered 200, where the document answers a request over the limit with 429 Too many requests.',
    needs: 'rate-limit-probe',
    round: 29,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-set-default-scope-null',
    rule: 'token-set.types',
    how: "A token set's scope is stored only when it differs from the scope the connection requests by default (openid email), and the listing writes the column as it is: the sets holding exactly the default scope are answered with scope null instead of the string the document types scope as; sets with a wider scope carry theirs.",
    round: 29,
  },
  {
    name: 'token-sets-user-check-needs-read-users',
    rule: 'token-sets.list.any-required-scope',
    how: "The listing asks the users service whether the user exists with the caller's own token, and passes that service's refusal through: a token holding only read:federated_connections_tokens (the one scope the document requires) is served the listing of an existing user, but for a user that does not exist it gets the users service's 403 insufficient_scope (read:users) instead of the documented 404 The user does not exist; a token that also holds read:users gets the 404.",
    round: 29,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-assignment-config-flattened',
    rule: 'experiment.required',
    how: 'The experiment is mapped with its assignment configuration as an owned value object flattened into columns, and the answer of a move is the row serialised as it is: the required member assignment_config is missing and its members come as top-level assignment_config_<member> members (assignment_config_subject: "device") instead.',
    needs: 'writes',
    round: 29,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-304-after-first-read',
    rule: 'client-grants.get.success',
    how: "Conditional GET is implemented against the server's memory instead of the request: the ETag of each grant is remembered when the grant is served, and a later GET of the same grant whose current ETag equals the remembered one is answered 304 Not Modified with no body, whether or not the request carried If-None-Match (the comparison meant the request's If-None-Match): only the first read of a grant gets its 200 JSON object, though RFC 9110 13.1.2 and 15.4.5 send 304 only to a conditional request and the document's success is the client grant object.",
    round: 29,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-streams-cursor-index-zero-falsy',
    rule: 'event-streams.list.next.terminates',
    how: "The from cursor is decoded to the index of its stream and tested with if (!index) to tell a first-page request from a next-page one: a cursor naming the first stream of the list (index 0) reads as no cursor, so with take=1 the next of the first page (the first stream's cursor) answers the first page again, with the same next, and a walk by next never ends; with any other take the next cursor names a later stream and the walk is right.",
    round: 29,
  },
  {
    name: 'take-0-page-count-division-500',
    rule: 'event-streams.list.take.range',
    how: 'The pager computes the page count (streams / take, rounded up) and allocates its page slots before take is range-checked: take=0 divides by zero and new Array(Infinity) throws a RangeError, answered 500, where take outside 1 to 100 gets a 4xx; 101, negative and non-integer values are still refused 400.',
    round: 29,
  },
  {
    name: 'event-stream-id-27-db-error-500',
    rule: 'event-streams.get.id.length',
    how: 'GET /event-streams/{id} skips the 26-character check and binds the id as a CHAR(26) parameter: an id longer than 26 characters makes the driver throw (value too long for type character(26)), answered 500 instead of a 4xx; a shorter id is padded, finds no stream and gets 404.',
    round: 29,
  },
  {
    name: 'event-stream-webhook-authorization-as-header',
    rule: 'event-stream.types',
    how: 'The webhook\'s authorization is stored as the ready-made Authorization header value the delivery worker sends, and the read model answers that column: destination.configuration.webhook_authorization is a string ("Basic aG9vay11c2VyLTE6") on GET /event-streams/{id} and in the list, instead of the object with method and username the document types it as.',
    round: 29,
  },
  {
    name: 'event-stream-dates-minute-as-month',
    rule: 'timestamps.date-time',
    how: "An event stream's created_at and updated_at are formatted with the pattern yyyy-mm-dd'T'HH:mm:ss.SSSX, whose mm is the minute where MM (the month) was meant: the month field holds the minute of the time (2025-20-04T11:20:00.000Z), which is no RFC 3339 date-time (date-month is 01 to 12) for every stream whose minute is 13 or more, on GET /event-streams/{id} and in the list.",
    round: 29,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-kid-replaced-by-thumbprint',
    rule: 'custom-signing-keys.put.replaces',
    how: "Each key's kid is overwritten with its RFC 7638 JWK thumbprint when the set is stored (the service names its own keys by thumbprint, and the storage layer applies that to custom keys too): the answer's keys carry other kids than the keys sent (RFC 7517 4.5: kid is the key's identifier, chosen by the party that sent it), so after a PUT the answer does not hold the keys sent and a client cannot find its keys by the kids it gave them.",
    needs: 'writes',
    round: 29,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-answer-document-version-member',
    rule: 'custom-text.types',
    how: "The text map is stored as a document with an optimistic-concurrency counter (_version) beside the text keys, and the PUT answers the document as stored: the resulting map holds a member _version whose value is a number (1, 2, …, one more per PUT of the same profile, language and page), which is no text value; the document's answer is an object mapping text keys to string values.",
    needs: 'writes',
    round: 29,
  },
  {
    name: 'custom-text-allow-list-chosen-by-first-tag',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The markup of a value is classified by its first element and checked against that class\'s allow-list only: a value starting with a styling element (b, strong, i, em, u, span, …) is checked against the styling list, which has no a, and one starting with a link against the link list, which has no styling elements; a value holding <b>, <i> and an https hyperlink together, which the document allows ("rich HTML limited to basic styling tags and hyperlinks"), is refused 400; values with styling tags only or links only pass.',
    needs: 'writes',
    round: 29,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'live-poller-cursor-set-at-first-poll',
    rule: 'events.start.latest',
    how: 'A stream reads live events with a poller that takes the log\'s head as its cursor at its first poll, one poll interval (2 s) after the stream opened, instead of at connection: the events caused during the first two seconds of a stream are never delivered on it (neither replayed nor live), so an event caused right after connecting without from does not arrive, while the document starts such a stream "from the latest events"; events caused later arrive.',
    needs: 'writes',
    round: 29,
  },
  {
    name: 'replay-event-field-only-on-change',
    rule: 'events.message.event-field',
    how: 'The replay writer treats the SSE event field as sticky (as retry is) and writes it only when it differs from the message before: a replayed message of the same type as the one before it (two connection.created, two user.created of the history in a row) has no event field, and SSE dispatches it as type message (HTML Standard 9.2.6: the event type buffer is reset after every dispatch), not as its documented event type; live messages, written one at a time, are right.',
    round: 29,
  },
  {
    name: 'envelope-time-from-object-created-at',
    rule: 'events.payload.envelope',
    how: "The envelope's time is filled from the affected object's created_at (the mapper meant the event's own timestamp): events whose object has no created_at (connection.created, connection.updated, connection.deleted, organization.* and organization membership events) carry time null instead of the date-time string the envelope types time as; user and group events carry a date-time.",
    round: 29,
  },
  {
    name: 'resume-from-archive-cursor-skips-hot-table',
    rule: 'events.resume.no-loss',
    how: 'Resuming from a cursor, the backlog is read from the partition the cursor belongs to only: a cursor naming an event of the imported history (the archive) replays the rest of the archive, but none of the events written since the service started (the hot table) up to the moment of connection; events caused after connecting arrive. Resuming from the offset of a history event k therefore loses every event written after the history and before the resume, although they follow k in the stream.',
    needs: 'writes',
    round: 29,
  },
  {
    name: 'event-type-single-value-split-into-characters',
    rule: 'events.filter.only-requested',
    how: 'The filter matches type prefixes (so that a family such as user. could be asked for) against the event_type values as the query parser gives them, a list when the parameter repeats and a string when it is given once, and iterates them: a single event_type=user.created is iterated character by character, and every event whose type starts with one of u, s, e, r, ., c, a, t, d is delivered (connection.* and user.* types alike), where only user.created should arrive; a repeated event_type filters right.',
    round: 29,
  },
  {
    name: 'from-timestamp-compared-as-string',
    rule: 'events.from-timestamp.start',
    how: 'The backlog of a from_timestamp is selected by comparing the events\' time strings with the parameter as text (time >= from_timestamp, "ISO 8601 sorts lexicographically"): an event in the timestamp\'s own second ("…:00.123Z" against "…:00Z", "." sorting before "Z") is left out, and a timestamp written with a lower-case t or z, which RFC 3339 5.6 allows, sorts after every event time of its own day, whose events are all left out; events caused after connecting arrive.',
    round: 29,
  },
] as const satisfies readonly Fault[];
