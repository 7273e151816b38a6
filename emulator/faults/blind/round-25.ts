/**
 * Blind round 25: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 25`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round25 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-decoded-as-base64url',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic credentials are decoded with the strict base64url decoder the JWT code uses (RFC 4648 5 alphabet, no padding) instead of base64 (RFC 7617 2, RFC 4648 4): a token68 holding +, / or = padding, as the base64 of most id:secret pairs does (and of every secret with + or / in it), is refused 401 invalid_client "Malformed HTTP Basic client authentication"; credentials in the body work.',
    round: 25,
  },
  {
    name: 'token-missing-secret-public-client',
    rule: 'oauth.token.bad-client',
    how: 'A token request that names a known client_id without a client_secret (absent or empty) is taken for a public client and authenticated by its id alone: the client credentials grant issues it a token (200) instead of refusing the failed client authentication 401 invalid_client (RFC 6749 2.3.1, 4.4: client credentials are for confidential clients, which MUST authenticate; 5.2).',
    round: 25,
  },
  {
    name: 'token-jws-payload-deflated',
    rule: 'oauth.token.jwt',
    how: 'Access tokens are compressed like a JWE (a JWT library\'s compressWith applied to a JWS): the header carries "zip":"DEF" and the payload segment is the raw-DEFLATE of the claims, so the payload no longer decodes to a JSON object (RFC 7515 7.1, RFC 7519 7.2: zip is a JWE header parameter, a JWS payload of a JWT is the claims set itself); the API inflates it and accepts the token.',
    round: 25,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-trailing-dots-dropped',
    rule: 'auth.bearer.malformed',
    how: 'The bearer token is split on dots with a split that drops trailing empty strings (Java String.split): "<jwt>." or "<jwt>..", which has four or more segments and is no JWS compact serialisation (RFC 7515 7.1: exactly three), is read as the three segments of the run\'s own token and admitted 200 on every operation instead of refused 401.',
    round: 25,
  },
  {
    name: 'transition-scope-checked-after-move',
    rule: 'auth.scope.enforced',
    how: 'The scope check of POST /experimentation/experiments/{id}/status runs in a response hook, after the handler: a token holding none of the in-scope scopes (read:stats) is answered 403 insufficient_scope, but the move is made and stored (a later move by an entitled token finds the experiment already moved and gets 409), so the operation accepted a caller without its scopes.',
    needs: 'writes',
    round: 25,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-set-issued-at-culture-time-separator',
    rule: 'timestamps.date-time',
    how: 'issued_at is written with a custom format string whose ":" is the culture\'s time separator (.NET "HH:mm:ss" under a culture that separates with "."): every listed token set carries issued_at 2026-10-28T16.59.22.000Z, which is no RFC 3339 date-time (5.6 partial-time uses ":").',
    round: 25,
  },
  {
    name: 'rate-limit-420-enhance-your-calm',
    rule: 'token-sets.list.rate-limit.status',
    how: 'A request over the limit is refused with status 420 "Enhance Your Calm" (the code another API used for throttling, copied into the limiter) with the X-RateLimit-* headers and Retry-After, instead of the documented 429 Too Many Requests (RFC 6585 4).',
    needs: 'rate-limit-probe',
    round: 25,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-draft-guard-on-raw-json',
    rule: 'experiments.transition.draft-rejected',
    how: 'The request schema of the move reuses the experiment status enum (draft included) and draft is kept out by a scan of the raw body for "status":"draft": a body that spells it with a JSON escape ({"status":"\\u0064raft"}, the same string once parsed, RFC 8259 7) passes the scan and moves a non-draft experiment back to draft (200) instead of 4xx.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'transition-answered-202-job',
    rule: 'experiments.transition.returns-experiment',
    how: 'An accepted move is run as a workflow job: the experiment is moved, but the answer is 202 Accepted with the job ({"id":"job_…","type":"experiment.status","status":"pending","experiment_id":…}) instead of the updated experiment, which the document says the move returns.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'transition-allocations-keyed-by-variation',
    rule: 'experiment.types',
    how: 'The answer of a move serialises allocations from the keyed collection it is held in: an object keyed by variation_id ({"var_a":{"segment_id":…,"weight":50,…}}) instead of the array of allocation objects the document gives the experiment.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'transition-errors-utf16-encoded',
    rule: 'http.json-error-bodies',
    how: 'The error bodies of POST …/status (400, 401, 404, 409) are written by a writer with the UTF-16 default encoding (a byte order mark FF FE, then two bytes a character) under Content-Type application/json; charset=utf-16: JSON exchanged MUST be UTF-8 (RFC 8259 8.1), so a client reading the JSON finds no JSON text; successes and the other operations are right.',
    // Only a move shows it, and a read-only run sends none, not even one meant to be refused.
    needs: 'writes',
    round: 25,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-id-member-duplicated',
    rule: 'client-grants.get.same-grant',
    how: 'The grant is serialised with the store row unwrapped into it: the body holds id twice, the public id first and the row\'s numeric key last ({"id":"cgr_…",…,"id":"4821"}); names SHOULD be unique (RFC 8259 4) and JSON parsers keep the last, so the grant a client reads carries an id that is not the one asked for.',
    round: 25,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-status-char8-padded',
    rule: 'event-stream.status.enum',
    how: 'status is stored in a CHAR(8) column (the documented maximum length 8) and answered as read, blank-padded: enabled streams carry "enabled " with a trailing space on GET /event-streams and GET /event-streams/{id}, which is not one of enabled, disabled; disabled (8 characters) is unchanged.',
    round: 25,
  },
  {
    name: 'event-streams-take-default-remembered',
    rule: 'event-streams.list.take.default',
    how: 'The page size is kept in a module-level variable initialised to 50 and overwritten by every take a request gives: once any client listed with take=10, a GET /event-streams without take answers pages of 10 streams (with next) instead of the default 50.',
    round: 25,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-ec-crv-openssl-name',
    rule: 'custom-signing-keys.put.json',
    how: 'EC keys are imported into the crypto library and answered re-exported with its curve names: crv "P-256" comes back "prime256v1" (P-384 "secp384r1", P-521 "secp521r1"), names RFC 7518 6.2.1.1 does not register, so the resulting keys are not the keys set.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'jwks-single-key-collapsed',
    rule: 'jwks.keys',
    how: 'The answer of PUT /keys/custom-signing is written by a serialiser that collapses one-item lists: a set of one key is answered {"keys":{…the key…}}, an object, not the array of JWK objects a JWKS holds (RFC 7517 5); sets of two or more keys are right.',
    needs: 'writes',
    round: 25,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-nfkc-after-check',
    rule: 'custom-text.put.html.restricted',
    how: 'Values pass the HTML check and are then NFKC-normalised for storage (an anti-spoofing clean-up): "＜script＞alert(1)＜/script＞" (fullwidth U+FF1C and U+FF1E, plain text to the check) is stored and answered as <script>alert(1)</script>.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'custom-text-whitespace-collapsed',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored through an HTML minifier that collapses each run of white space (spaces, tabs, line breaks) into one space: "Welcome,  friend" or "Line one\\nLine two" is answered "Welcome, friend" or "Line one Line two", so the resulting map does not map the key to the value sent.',
    needs: 'writes',
    round: 25,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'events-own-writes-not-echoed',
    rule: 'events.start.latest',
    how: 'Live events are not delivered to a stream opened by the client that caused them (a "no local" subscription, to spare clients the echo of their own changes): an event caused after connecting by the stream\'s own client never arrives; events of other clients and replays do.',
    needs: 'writes',
    round: 25,
  },
  {
    name: 'events-default-binding-two-words',
    rule: 'events.filter.all-when-absent',
    how: 'Without event_type the stream is bound to the topic pattern *.* (where * matches one word, as in AMQP topics, instead of #): only two-word types (user.created, group.updated, organization.deleted, …) are streamed, and group.member.added, organization.member.role.assigned and the other types of three words or more never arrive.',
    round: 25,
  },
  {
    name: 'from-timestamp-hour-bucket',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp selects the hourly partition of the event store it falls in and replays that partition from its start without filtering inside it: events up to 59 minutes before the timestamp are delivered, where a server may round down within a minute only.',
    round: 25,
  },
  {
    name: 'archived-events-without-context',
    rule: 'events.payload.envelope',
    how: 'Events served from the archive (the history older than the service start, replayed by from_timestamp or from) are rebuilt from an archive that keeps only the affected object: their envelope data is {object} without context, though the envelope data has object and context; live events are right.',
    round: 25,
    disputed:
      'The document\'s envelope table gives data "Has `object` (the affected resource) and `context`" in its notes column, and its conventions say "Unless marked required, a field may be absent"; nothing in the envelope is marked required (the same reading that keeps envelope-type-omitted, round 24, disputed). A server leaving context out of some events follows that reading; whether data must always carry context is a question for the document\'s owner. No relation ties these events to others: they are never delivered live.',
  },
  {
    name: 'connection-created-realms-as-rows',
    rule: 'events.connection-created.object',
    how: 'connection.created carries data.object.realms as the rows of the connection\'s realm association ([{"realm":"acme-saml"}], an ORM serialising the relation) instead of the array of realm name strings the document gives.',
    round: 25,
  },
  {
    name: 'heartbeat-terminator-indented',
    rule: 'events.message.data-json',
    how: 'The offset-only heartbeat is written from an indented template whose blank line keeps a space ("\\n \\n"): SSE dispatches only on an empty line (HTML Standard 9.2.6), so the heartbeat is never dispatched and its data is joined with the next message\'s data, which a client then reads as two lines that are not JSON.',
    // The heartbeat's data shows only where an event follows it on the stream, and a read-only run causes none (without
    // one, a heartbeat that never dispatches is one not sent, which the document allows: its frequency is not shown).
    needs: 'writes',
    round: 25,
  },
  {
    name: 'events-query-errors-in-band',
    rule: 'events.from.max-length',
    how: 'GET /events opens the stream before it validates the query and reports a refused query in band: a from over 1024 characters (or a bad event_type or from_timestamp) is answered 200 text/event-stream with one event: error message holding the 400 error, instead of a 4xx status.',
    round: 25,
  },
] as const satisfies readonly Fault[];
