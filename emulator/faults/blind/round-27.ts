/**
 * Blind round 27: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 27`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round27 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-endpoint-slash-redirect-301',
    rule: 'oauth.token.endpoint',
    how: 'The router runs with strict slashes and redirects: POST {auth_url}/oauth/token/ (the documented path, with its trailing slash) is answered 301 Moved Permanently with Location: /oauth/token and no token, instead of the 200 token response (RFC 6749 4.4.3, 5.1); a client that follows the 301 re-sends it as a GET (RFC 9110 15.4.2), which gets no token either.',
    round: 27,
  },
  {
    name: 'token-response-narrowed-without-no-store',
    rule: 'oauth.token.response',
    how: 'The branch of the token endpoint that narrows a token to a requested scope builds its own response and returns before the hook that sets Cache-Control: no-store and Pragma: no-cache: a token response to a request with a scope parameter carries no Cache-Control at all, where RFC 6749 5.1 requires no-store on every response holding a token; requests without scope are right.',
    round: 27,
  },
  {
    name: 'token-header-without-alg',
    rule: 'oauth.token.jwt',
    how: 'Access tokens are written by a hand-rolled JWS writer whose protected header carries only typ and kid ("the key decides the algorithm"), without the alg member RFC 7515 4.1.1 makes REQUIRED (RFC 7519 5, RFC 8725 3.1): the issued access token is no JWS whose header names its alg; the API verifies it with the tenant key and accepts it.',
    round: 27,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'auth-bypassed-with-trailing-slash',
    rule: 'auth.bearer.required',
    how: 'The bearer middleware matches protected routes by their exact path templates, while the router ignores a trailing slash: an operation path sent with a slash appended (GET /api/v2/client-grants/{id}/, /event-streams/, /users/{id}/federated-connections-tokensets/) and no Authorization header at all is routed to the operation and answered 200 instead of refused 401.',
    round: 27,
  },
  {
    name: 'malformed-authorization-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The branch of the bearer middleware that refuses an Authorization header it cannot parse as Bearer credentials (another scheme such as Basic, "Bearer" with no token, a token with characters outside b64token) answers 401 without any WWW-Authenticate header (RFC 9110 11.6.1, RFC 6750 3: every 401 MUST carry a Bearer challenge); a missing header or a JWT that fails verification gets the challenge.',
    round: 27,
  },
  {
    name: 'events-accepts-resource-read-scope',
    rule: 'auth.scope.enforced',
    how: 'GET /events admits the read scope of any resource whose events it streams (read:users, read:organizations, read:connections, taken from the per-resource event permissions) besides read:events: a token narrowed to read:users, which holds none of the in-scope scopes of the stream, opens it 200 instead of being refused 403.',
    round: 27,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-remaining-unsigned-wrap',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Remaining is computed as limit - count in an unsigned 32-bit integer without a clamp: on a 429 (count = limit + 1, and more) it wraps to 4294967295 (4294967294, …), a Remaining far greater than the X-RateLimit-Limit beside it; answers within the limit are right.',
    needs: 'rate-limit-probe',
    round: 27,
  },

  // --------------------------------------------------------------- errors
  {
    name: 'events-400-message-unescaped',
    rule: 'http.json-error-bodies',
    how: 'The 400 of GET /events for an event_type outside the list is written from a string template that puts the raw value into the message without JSON escaping ({"message":"event_type ${value} is not an event type",…}): a value holding a quotation mark or a backslash (event_type=user"x) gives a body, sent as application/json, that is not JSON (RFC 8259 7).',
    round: 27,
  },
  {
    name: 'allow-header-from-last-path',
    rule: 'http.method-not-allowed.allow',
    how: 'The 405 handlers of all paths share one allow variable captured by reference in the registration loop (a closure over the loop variable): every 405 carries the methods of the last path registered (Allow: DELETE, those of DELETE /connections/{id}), so DELETE /client-grants/{id}, /event-streams or /users/{id}/federated-connections-tokensets is refused 405 with an Allow naming the very method refused (RFC 9110 15.5.6).',
    round: 27,
  },
  {
    name: 'custom-text-json-invalid-utf8-replaced',
    rule: 'http.json-request-bodies',
    how: 'The JSON body of PUT custom text is decoded with a lenient UTF-8 decoder (Buffer.toString) that replaces malformed bytes with U+FFFD: a body labelled application/json holding ISO-8859-1 bytes ({"a":"caf\\xE9"}, which is no UTF-8 and so no JSON text, RFC 8259 8.1) is accepted 200 and stored with U+FFFD in place of the byte instead of refused 400.',
    needs: 'writes',
    round: 27,
  },
  {
    name: 'event-streams-list-gzip-without-content-encoding',
    rule: 'http.json-bodies',
    how: 'GET /event-streams is gzip-compressed when the request accepts gzip (Accept-Encoding: gzip, as fetch and browsers send it), but the compressor runs after the Content-Encoding header was dropped by the route resetting its headers: the answer is gzip bytes labelled only application/json, so the body a client reads is not JSON; without Accept-Encoding it is right.',
    round: 27,
  },

  // ---------------------------------------------------------- event streams
  {
    name: 'take-int32-wraparound',
    rule: 'event-streams.list.take.range',
    how: 'take is coerced to a 32-bit integer (Number(take) | 0) before the range check: a take beyond 2^32 wraps into the range (take=4294967297 is 1, take=4294967396 is 100) and is answered 200 with a page, instead of refused as a value over 100; take=101 is still refused.',
    round: 27,
  },
  {
    name: 'event-stream-lookup-by-name',
    rule: 'event-streams.get.same-stream',
    how: "GET /event-streams/{id} looks the stream up with WHERE id = ? OR name = ? (the console's route that opens a stream by id or name): a 26-character id no stream has that is the name of another stream (stream-089-abcdefghijabcde) is answered 200 with that stream, whose id is not the one asked for, instead of 404.",
    round: 27,
  },

  // ---------------------------------------------------------- experiments
  {
    name: 'transition-answer-internal-status-name',
    rule: 'experiment.status.enum',
    how: 'The answer of a move serialises the status of the workflow engine that runs experiments rather than the API enum: an experiment moved to active is answered with status "running" (the engine\'s name of the state), which is not one of draft, active, paused, completed, archived; the other targets are right.',
    needs: 'writes',
    round: 27,
  },
  {
    name: 'transition-status-verb-aliases',
    rule: 'experiments.transition.status-enum',
    how: 'The move keeps the verbs of the older action endpoints (POST …/activate, …/pause) as aliases of the status: {"status":"pause"} moves the experiment to paused, "activate" to active, "complete" to completed, "archive" to archived, instead of refusing a status that is not one of active, paused, completed, archived with a 4xx.',
    needs: 'writes',
    round: 27,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-subject-type-app-type',
    rule: 'client-grant.subject-type.enum',
    how: 'subject_type is filled from the application type of the grant\'s client: a grant for a machine-to-machine client (subject_type client) is answered with subject_type "non_interactive", the app_type of such clients, which is not one of client, user; user grants are right.',
    round: 27,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-id-double-decoded',
    rule: 'token-sets.list.unknown-user',
    how: 'The user id of GET /users/{id}/federated-connections-tokensets is percent-decoded again by the handler after the router decoded it: an id no user has that holds a literal %7C (sent as auth0%257C…, the user id "auth0%7C…") is read as auth0|… and answered 200 with that other user\'s token sets instead of 404.',
    round: 27,
  },

  // --------------------------------------------------------------- events
  {
    name: 'cursor-head-position-cached',
    rule: 'events.resume.no-loss',
    how: 'GET /events checks that a from cursor is not ahead of the log against a head position cached for five seconds (read from a replica): the offset of an event appended within the last seconds, or of a heartbeat naming the current head, is refused 400 invalid_cursor as "ahead of the log", while an older offset of the same stream is accepted, so a client cannot resume right after the newest event.',
    needs: 'writes',
    round: 27,
  },
  {
    name: 'events-resume-caught-up-204',
    rule: 'events.resume.heartbeat-offset',
    how: 'GET /events with a from cursor that has nothing after it (a heartbeat\'s offset, or the newest event\'s) answers 204 No Content ("caught up", the long-polling convention) instead of opening the stream: the events caused after that heartbeat never arrive on the resumed request; a cursor with events after it opens the stream as usual.',
    round: 27,
  },
  {
    name: 'from-padding-stripped-before-length-check',
    rule: 'events.from.max-length',
    how: 'The from cursor is read by a lenient base64url decoder that strips trailing = padding first, and the 1024-character limit is checked on what remains: an offset followed by = characters up to 1025 or more characters is accepted and resumes (200) instead of refused 4xx as a value over the documented maximum length.',
    round: 27,
  },
  {
    name: 'context-connection-as-name',
    rule: 'events.context.types',
    how: 'data.context.connection is serialised from the event\'s denormalised connection_name column: events caused through a connection (connection.*, user.* in a database connection) carry "connection":"<connection name>", a string, instead of the object with id, name and strategy the document gives context.connection.',
    round: 27,
  },
  {
    name: 'sse-data-carriage-return-unescaped',
    rule: 'events.message.data-json',
    how: 'Event payloads are serialised by a hand escaper that escapes " \\ and line feeds but writes a carriage return raw: an event whose object holds one (a user created with "name":"A\\rB") goes out with a raw CR inside its data line, which SSE takes for a line end (HTML Standard 9.2.6) and RFC 8259 7 forbids inside a string, so the data a client reads is not JSON.',
    needs: 'writes',
    round: 27,
  },

  // ---------------------------------------------------- custom signing keys
  {
    name: 'keys-kid-cut-at-64',
    rule: 'custom-signing-keys.put.json',
    how: 'The kid of each custom signing key is stored in a VARCHAR(64) column that truncates silently: a key set with a kid longer than 64 characters (RFC 7517 4.5 sets no limit; a JWK thumbprint URN is 88) is answered and kept with its kid cut to 64, so the resulting keys are not the keys set.',
    needs: 'writes',
    round: 27,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-newlines-to-br',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored through an nl2br filter meant for rendering: each line break of a plain-text value ("Line one\\nLine two", or \\r\\n) is stored and answered as <br> ("Line one<br>Line two"), so the resulting map no longer maps the key to the value sent.',
    needs: 'writes',
    round: 27,
  },
  {
    name: 'custom-text-answer-as-rows',
    rule: 'custom-text.types',
    how: 'The answer of PUT custom text is the rows of the text table, an array of {"key","value"} objects ([{"key":"welcome","value":"Hi"}]), instead of the object mapping text keys to string values.',
    needs: 'writes',
    round: 27,
  },
] as const satisfies readonly Fault[];
