/**
 * Blind round 12: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 12`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round12 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-echoes-request-media-type',
    rule: 'oauth.token.response',
    how: 'The token response is labelled with the media type of the request (a form request gets its JSON body under Content-Type application/x-www-form-urlencoded) instead of application/json (RFC 6749 5.1).',
    round: 12,
  },
  {
    name: 'token-response-scope-form-encoded',
    rule: 'auth.scope.form',
    how: 'The scope member of the token response is written form-encoded (read%3Aclient_grants+read%3Aevents), as the form parameter would be, so the string holds no <verb>:<resource> scope; the JWT claim stays right.',
    round: 12,
  },
  {
    name: 'token-repeated-param-last-wins',
    rule: 'oauth.token.grant-type',
    how: 'A token request that repeats grant_type (grant_type=password&grant_type=client_credentials) is read with its last value and gets a token instead of 400 invalid_request (RFC 6749 3.2: a parameter MUST NOT be included more than once; 5.2).',
    round: 12,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-scheme-not-checked',
    rule: 'auth.bearer.malformed',
    how: 'The token is read as the last word of the Authorization header whatever the scheme: a valid JWT sent as "Token <jwt>" or "JWT <jwt>" (not the Bearer credentials the document requires) is admitted instead of refused 401.',
    round: 12,
  },
  {
    name: 'missing-token-connection-session',
    rule: 'auth.bearer.required',
    how: 'The principal admitted on a kept-alive connection is remembered as a session of that connection: a later request on it with no Authorization header at all is admitted as that principal instead of refused 401.',
    round: 12,
  },
  {
    name: 'keys-401-no-challenge-with-body',
    rule: 'http.unauthorized.challenge',
    how: 'PUT /keys/custom-signing with a body and no valid token is refused 401 by the body-reading path without a WWW-Authenticate header (RFC 9110 11.6.1, RFC 6750 3); without a body the challenge is sent.',
    needs: 'writes',
    round: 12,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-limit-off-by-one',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Limit reports the highest zero-based request index of the window (the limit minus one): a fresh window says Limit 9 and Remaining 9 while 10 requests are admitted.',
    round: 12,
  },

  // ---------------------------------------------------------- versioning
  {
    name: 'api-version-segment-ignored',
    rule: 'versioning.path-prefix',
    how: 'Routes are registered under /api/:version and the version is never read: /api/v1/... and /api/v3/... answer the operations as /api/v2/... does, instead of 404, though every path of the interface is under /api/v2.',
    round: 12,
    disputed:
      'Every operation is still answered under /api/v2 as the document gives it; that other prefixes answer too is left open ("Other operations on these resources ...: not shown"; "Deprecation policy and compatibility guarantees: not shown"): a server may serve a version 1 or 3 beside 2, and the document names no status for a path outside the interface.',
  },
  {
    name: 'token-sets-deprecation-header',
    rule: 'versioning.lifecycle',
    how: 'The token-set listing answers with a Deprecation header (RFC 9745, a date in the past) as if the operation were deprecated, though the document marks it Generally Available.',
    round: 12,
  },
  {
    name: 'client-grant-default-for-early-access-hidden',
    rule: 'versioning.lifecycle',
    how: 'default_for is treated as an Early Access member and left out of GET /client-grants/{id}: the default grant is answered with neither client_id nor default_for, though the member is generally available.',
    round: 12,
    disputed:
      '"Which fields are required: not shown": a grant answered without default_for (and without client_id) is within the document, and from outside nothing tells a default grant from one whose server leaves optional members out. Only its release label makes the member expected, and a label has no mark on the wire.',
  },

  // --------------------------------------------------------- token sets
  {
    name: 'token-set-connection-object',
    rule: 'token-set.types',
    how: 'A token set answers connection as the joined connection object ({ name }) instead of the connection name string.',
    round: 12,
  },
  {
    name: 'user-id-length-utf8-bytes',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id counts UTF-8 bytes: an id of at most 300 characters with accented letters (é, two bytes each) is refused 400 instead of looked up (404 for no such user).',
    round: 12,
  },

  // -------------------------------------------------------- experiments
  {
    name: 'transition-id-case-insensitive',
    rule: 'experiments.transition.same-experiment',
    how: 'Experiments are looked up under a case-insensitive collation: a move of an id that differs from a seeded one only in letter case (base58 ids are case-sensitive) moves and answers that other experiment instead of 404.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'transition-status-regex-unanchored',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is matched with an unanchored pattern (active|paused|completed|archived) and the match used: "inactive" moves the experiment to active, "not paused" to paused, instead of being refused.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'transition-body-whitespace-refused',
    rule: 'http.json-request-bodies',
    how: 'The experiment move reads its body as compact JSON only: a body with insignificant white space ({ "status": "active" }, or a trailing newline, allowed by RFC 8259 2) is refused 400.',
    needs: 'writes',
    round: 12,
  },

  // --------------------------------------------------------- HTTP layer
  {
    name: 'bad-percent-encoding-text-plain',
    rule: 'http.json-error-bodies',
    how: 'A request whose path holds malformed percent-encoding (/client-grants/%ZZ, a cut %C3) is answered by the router 400 with a text/plain body instead of a JSON error; the other errors stay JSON.',
    round: 12,
  },

  // ------------------------------------------------------ event streams
  {
    name: 'event-stream-get-subscriptions-of-previous',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams/{id} joins the subscriptions with an off-by-one index: every stream but the first is answered with the subscriptions of the stream before it in the list, so the read disagrees with the listing.',
    round: 12,
  },

  // ------------------------------------------------------------- events
  {
    name: 'envelope-svcpurpose-null',
    rule: 'events.payload.envelope',
    how: 'An envelope of an ordinary event (no purpose) carries svcpurpose: null (the unset column serialised) instead of leaving it out; svcpurpose is a string.',
    round: 12,
  },
  {
    name: 'context-client-metadata-json-string',
    rule: 'events.context.types',
    how: 'context.client.metadata is answered as the JSON text of the object ("{}", a JSON column returned unparsed) instead of an object.',
    round: 12,
  },
  {
    name: 'payload-offset-lags-sse-id',
    rule: 'events.resume.no-duplicate',
    how: 'The payload offset of an event message is the offset of the event before it (a variable updated after the payload is built); the SSE id field is right: resuming from a payload offset repeats the event it came with.',
    round: 12,
  },
  {
    name: 'user-updated-event-field-created',
    rule: 'events.payload.type-matches',
    how: 'user.updated events (an upsert) go out with the SSE event field user.created while their envelope type says user.updated.',
    round: 12,
  },
  {
    name: 'events-default-filter-subscribed-types',
    rule: 'events.filter.all-when-absent',
    how: "Without event_type, the stream delivers only the types the tenant's event streams subscribe to (user.*, organization.created/deleted, connection.created/deleted): group.*, organization.member.* and the other listed types are never streamed.",
    round: 12,
  },
  {
    name: 'from-timestamp-hour-24-accepted',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is checked by its shape and read with Date.parse: hour 24 (2025-01-01T24:00:00Z, outside RFC 3339 5.6 time-hour 00-23) is accepted as the next midnight instead of refused 400.',
    round: 12,
  },

  // ------------------------------------------------ custom signing keys
  {
    name: 'keys-private-check-rsa-only',
    rule: 'custom-signing-keys.put.public-only',
    how: 'Private members are looked for in RSA keys only: an EC key sent with its private part d is stored and answered with it.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'jwks-answer-bare-array',
    rule: 'jwks.keys',
    how: 'PUT /keys/custom-signing answers the bare array of keys instead of the JWKS object with keys.',
    needs: 'writes',
    round: 12,
  },

  // -------------------------------------------------------- custom text
  {
    name: 'custom-text-href-entities-not-decoded',
    rule: 'custom-text.put.html.restricted',
    how: 'href is checked as written, character references not decoded: a link to &#106;avascript:alert(1) (javascript: to a browser) is stored and answered as given.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'custom-text-check-first-line-only',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML check reads a value up to its first line break: "<b>Hi</b>\\n<script>…</script>" is stored and answered as given.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'custom-text-crlf-stored-as-lf',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored with line breaks normalised (CRLF to LF, as a form field is): a value sent with \\r\\n is answered with \\n, so the resulting map is not the one set.',
    needs: 'writes',
    round: 12,
  },
  {
    name: 'custom-text-array-value-joined',
    rule: 'custom-text.put.value.type',
    how: 'An array of strings as a value ({"a":["x","y"]}, or a repeated form key) is joined with commas and stored as "x,y" instead of refused as a value that is not a string.',
    needs: 'writes',
    round: 12,
  },
] as const satisfies readonly Fault[];
