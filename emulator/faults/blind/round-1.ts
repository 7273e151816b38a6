/**
 * Blind round 1: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 1`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round1 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-audience-bare-path-refused',
    rule: 'oauth.token.endpoint',
    how: 'The token endpoint compares audience with the absolute identifier {origin}/api/v2/ only: the documented bare /api/v2/ is refused (403 access_denied).',
    round: 1,
    disputed:
      'The suite reads the audience "/api/v2/" as the tenant\'s own API, {origin}/api/v2/, which is what the real deployment takes (CONFORMANCE_AUDIENCE); whether a target must also take the bare path is a question for the document\'s owner.',
  },
  {
    name: 'token-bad-client-200',
    rule: 'oauth.token.bad-client',
    how: 'A failed client authentication is answered 200 with the invalid_client error body (the error object is sent with the default status).',
    round: 1,
  },
  {
    name: 'token-response-cacheable',
    rule: 'oauth.token.response',
    how: 'The token response carries Cache-Control: public, max-age=86400 and no Pragma instead of no-store (RFC 6749 5.1).',
    round: 1,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-hs256-public-key-confusion',
    rule: 'auth.jwt.signature',
    how: 'GET /client-grants/{id} verifies with the key material whatever the header alg says: an HS256 JWT whose HMAC key is the published public key (SPKI PEM) is admitted.',
    round: 1,
  },
  {
    name: 'bearer-lowercase-scheme-refused',
    rule: 'oauth.token.accepted',
    how: 'GET /event-streams/{id} matches the auth scheme case-sensitively: a valid token sent as "bearer <token>" is answered 401 (RFC 9110 11.1: the scheme is case-insensitive).',
    round: 1,
  },
  {
    name: 'scope-check-skipped-on-cache-hit',
    rule: 'auth.scope.enforced',
    how: 'GET /event-streams checks scopes only when it verifies a token afresh: the second request with a verified token (served from the verification cache) skips the scope check, so a token without the scopes gets 403 once and 200 after.',
    round: 1,
  },
  {
    name: 'token-sets-read-users-accepted',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The token-set listing also accepts read:users (a user sub-resource read as a user read): a token narrowed to read:users gets 200 instead of 403.',
    round: 1,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-milliseconds',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is the window end in epoch milliseconds (Date.now() arithmetic left unscaled), on every answer and the 429.',
    round: 1,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-null-expiry-dropped',
    rule: 'token-sets.list.active-only',
    how: 'The "active" filter compares expires_at with now and so drops the token sets whose expires_at is null (never expire).',
    round: 1,
  },
  {
    name: 'user-id-length-counts-encoded',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id is checked on the raw, percent-encoded path segment: a 300-character id with characters that need encoding (auth0|…) is refused 400.',
    round: 1,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-status-case-insensitive',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is lower-cased before validation: ACTIVE or Paused is accepted as a move.',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'transition-second-move-cached',
    rule: 'experiments.transition.requested-status',
    how: 'Answers of POST …/status are cached by path: the second move of an experiment is made but answered with the body of the first move (its old status).',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'experiment-unset-dates-null',
    rule: 'timestamps.date-time',
    how: 'A moved experiment is answered with its unset optional dates as null (started_at, ended_at: null) instead of leaving them out.',
    round: 1,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-default-for-null',
    rule: 'client-grant.default-for.enum',
    how: 'A grant with client_id is answered with default_for: null (the unset column serialised) instead of leaving it out.',
    round: 1,
  },
  {
    name: 'client-grant-accept-list-406',
    rule: 'oauth.token.accepted',
    how: 'GET /client-grants/{id} compares Accept as a string: any Accept other than application/json or */* (a list, a q-value, a parameter) is answered 406, though application/json is acceptable (RFC 9110 12.5.1).',
    round: 1,
  },

  // -------------------------------------------------------------- events
  {
    name: 'sse-replay-frames-not-terminated',
    rule: 'events.message.data-json',
    how: 'Replayed events (from, from_timestamp) are written as one batch joined by a single newline: consecutive messages merge into one whose data is several JSON lines; live events are framed right.',
    round: 1,
  },
  {
    name: 'resume-backlog-capped',
    rule: 'events.resume.no-loss',
    how: 'Resuming from a cursor replays only the first 25 events after it (one page of the event store), then goes live: the rest of the backlog is lost.',
    round: 1,
  },
  {
    name: 'event-type-filter-last-only',
    rule: 'events.filter.only-requested',
    how: 'A repeated event_type keeps only its last occurrence (a query parser that overwrites): with event_type=a&event_type=b only b is streamed.',
    round: 1,
  },
  {
    name: 'from-timestamp-replays-before',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp selects the events before the timestamp instead of at or after it (comparison reversed), then goes live.',
    round: 1,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-get-disabled-404',
    rule: 'event-streams.get.success',
    how: 'GET /event-streams/{id} looks streams up among the enabled ones: a disabled stream, listed by GET /event-streams, answers 404.',
    round: 1,
  },
  {
    name: 'take-ignored-after-first-page',
    rule: 'event-streams.list.take.page-size',
    how: 'take is honoured on the first page only: with from, the page holds the default 50 streams whatever take says.',
    round: 1,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-same-kid-keeps-stored',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The PUT replaces the set, but a sent key whose kid is already stored keeps the stored version (insert-if-absent by kid).',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'keys-json-charset-415',
    rule: 'custom-signing-keys.put.json',
    how: 'PUT /keys/custom-signing compares the whole Content-Type: application/json; charset=utf-8 is answered 415 (RFC 9110 8.3.1: parameters are part of a media type, not another one).',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'keys-answer-cesu8',
    rule: 'http.json-bodies',
    how: 'The PUT /keys/custom-signing answer is encoded per UTF-16 unit (CESU-8): a character outside the BMP (in a kid) goes out as two encoded surrogates, which is not UTF-8 (RFC 8259 8.1).',
    round: 1,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-utf16-units',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit counts UTF-16 code units: a value of 2000 characters with some outside the BMP (emoji) is refused 400.',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'custom-text-form-plus-kept',
    rule: 'custom-text.put.form',
    how: 'Form bodies are decoded with decodeURIComponent only: a space sent as + is stored and answered as +.',
    round: 1,
    needs: 'writes',
  },
  {
    name: 'custom-text-tag-case-sensitive',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML allow-list matches tag names case-sensitively: <SCRIPT> (or <Script>) passes and is stored as given.',
    round: 1,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
