/**
 * Blind round 23: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 23`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round23 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-scope-leading-space',
    rule: 'auth.scope.form',
    how: 'The scope member of the token response is built by concatenation (scopes.reduce((s, x) => s + " " + x, "")): it starts with a space (" read:client_grants read:events …"), which is not the scope syntax of RFC 6749 3.3 (scope-token *( SP scope-token )), so split on the space the first scope is the empty string, not a <verb>:<resource> scope; the JWT claim stays right.',
    round: 23,
  },
  {
    name: 'token-repeated-secret-any-match',
    rule: 'oauth.token.bad-client',
    how: 'A repeated client_secret is read as a list and the client authenticated when any of its values matches (secrets.includes(stored)): client_secret=wrong&client_secret=<right> (or the right one first) gets a token instead of being refused 400 invalid_request (RFC 6749 3.2: parameters MUST NOT be included more than once) or 401.',
    round: 23,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-token-percent-decoded',
    rule: 'auth.bearer.malformed',
    how: 'The bearer token is percent-decoded before it is verified (the reader shared with a query-parameter token path): Authorization: Bearer <jwt with its dots sent as %2E>, which holds % and so is no b64token (RFC 6750 2.1) and no JWS compact serialisation, is admitted as the JWT it decodes to instead of refused 401.',
    round: 23,
  },
  {
    name: 'keys-put-any-write-scope',
    rule: 'auth.scope.enforced',
    how: 'PUT /keys/custom-signing requires "a write scope": its check looks only at the verb of create:custom_signing_keys and update:custom_signing_keys, so a token narrowed to any create: or update: scope of another resource (update:experimentation, update:self_service_profile_custom_texts) replaces the custom signing keys instead of being refused 403.',
    needs: 'writes',
    round: 23,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-remaining-nan',
    rule: 'rate-limit.header-values',
    how: "The limiter's refusal path builds the headers from a decision object without the request count (limit - undefined): every 429 carries X-RateLimit-Remaining: NaN, which is no number, while Limit and Reset are right and answers within the limit carry a numeric Remaining.",
    needs: 'rate-limit-probe',
    round: 23,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-found-by-id-suffix',
    rule: 'token-sets.list.unknown-user',
    how: "Users are indexed by the part of their id after the provider prefix (the | of <provider>|<id>): an id of a user that does not exist but shares that part with one (google-oauth2|<suffix of auth0|…>) is answered 200 with the other user's token sets instead of 404.",
    round: 23,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-same-status-noop-first',
    rule: 'experiments.transition.draft-rejected',
    how: 'A move to the status the experiment already has is short-circuited as an idempotent no-op (200 with the experiment unchanged) before the target is validated: a move of a draft experiment to draft is answered 200 instead of 4xx, though draft is never an allowed target.',
    round: 23,
  },
  {
    name: 'transition-missing-status-advances',
    rule: 'experiments.transition.status-required',
    how: 'status is read as optional with a default of the next step of the lifecycle (body.status || next(current)): a move with no body, {} or status null moves a draft experiment to active (active to completed, completed to archived) and answers 200 instead of refusing the body without the required status.',
    needs: 'writes',
    round: 23,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-id-encoded-slash-dot-segments',
    rule: 'client-grants.get.same-grant',
    how: 'The path is percent-decoded before the dot-segments are removed (a front server that normalises the decoded path): /client-grants/x%2F..%2F{id}, whose id segment is x/../{id} and names no grant, is answered 200 with the grant {id}, whose id is not the one asked for, instead of 404.',
    round: 23,
  },

  // -------------------------------------------------------- event streams
  {
    name: 'event-stream-status-boolean',
    rule: 'event-stream.status.enum',
    how: 'The stream status is kept in a boolean enabled column and answered as it is: GET /event-streams and GET /event-streams/{id} carry "status": true or false instead of the enum string enabled or disabled.',
    round: 23,
  },
  {
    name: 'event-stream-lookup-like-wildcard',
    rule: 'event-streams.get.same-stream',
    how: 'A stream is looked up with WHERE id LIKE ? and the id unescaped: _ in the id matches any one character (and % any run), so a 26-character id no stream has, a listed id with one character replaced by _, is answered 200 with that other stream instead of 404.',
    round: 23,
  },
  {
    name: 'take-number-literal-accepted',
    rule: 'event-streams.list.take.range',
    how: 'take is read with Number() instead of as a decimal integer: take=0x10, 0b11, 0o7, 1e1 or " 5" (JavaScript number literals and padded values, not integers of the query) are accepted as 16, 3, 7, 10 and 5 and answered 200 instead of refused 4xx.',
    round: 23,
    disputed:
      'The document gives take\'s value ("integer, optional, range 1 to 100"), not its spelling in the query: 0x10, 0b11, 0o7 and 1e1 are number literals of the integers 16, 3, 7 and 10 (1e1 a JSON number, RFC 8259 6), and " 5" is 5 with white space a number reader skips, each within the range. Taking them is a lenient reading of the same integer, which a server may have; the suite refuses the spellings no number reader puts inside 1 to 100 (digits then letters, fractions, exponents past the range, wraps, negative zero, separators, other scripts).',
  },
  {
    name: 'event-streams-from-default-take-max',
    rule: 'event-streams.list.take.default',
    how: 'The page route taken with a from cursor defaults take to the maximum (100, the constant next to the default in the cursor route): following next without take gives pages of up to 100 streams, while the first page without take holds 50.',
    round: 23,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'event-time-zone-id-suffix',
    rule: 'timestamps.date-time',
    how: 'Envelope times are written by a zoned date-time\'s toString (Java ZonedDateTime with ZoneId "UTC"): 2026-11-27T09:42:56.123Z[UTC], the zone id in brackets after the offset (RFC 9557 syntax), which is no RFC 3339 date-time.',
    round: 23,
  },
  {
    name: 'envelope-data-json-string',
    rule: 'events.payload.envelope',
    how: 'The CloudEvents envelope is built in structured mode with its data already serialised (datacontenttype application/json): event.data is the JSON text of {object, context}, a string, instead of the object with object and context.',
    round: 23,
  },
  {
    name: 'group-member-deleted-emitted-as-removed',
    rule: 'events.message.event-field',
    how: 'The emitter names the removal of a group member group.member.removed (by analogy with organization.connection.removed): those events go out with the SSE event field and envelope type group.member.removed, which is not among the documented event types (group.member.deleted is).',
    round: 23,
  },
  {
    name: 'resume-grouped-by-object',
    rule: 'events.resume.order',
    how: 'Events replayed after a from cursor are read per aggregate (event-sourcing streams keyed by the affected object, data.object.id), one aggregate after the other in the order of their first event: a user created, another user created, the first user updated come back as created, updated, created, not in stream order.',
    round: 23,
  },
  {
    name: 'resumed-stream-live-events-twice',
    rule: 'events.resume.no-duplicate',
    how: 'A stream resumed with from subscribes to live events twice (once by the catch-up query that then follows the log, once by the live subscription every stream makes): every event caused after it connected is delivered twice on it; streams without from are right.',
    // Live events on the embedded emulator are those a write causes (it has no activity of its own).
    needs: 'writes',
    round: 23,
  },
  {
    name: 'from-timestamp-history-at-load-time',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is compared with the time events were loaded into the store, not their own time: the imported history (hours old) counts as loaded when the service started, so a from_timestamp between the history and the start (an hour back) replays every history event, those hours before the timestamp included.',
    round: 23,
  },
  {
    name: 'connection-created-authentication-flattened',
    rule: 'events.connection-created.object',
    how: 'In connection.created, data.object.authentication is flattened to its active flag (a boolean column authentication_active mapped back to the member name): "authentication": true instead of the object {"active": true}.',
    round: 23,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'jwk-members-buffer-json',
    rule: 'jwk.types',
    how: 'The key material is stored decoded (Buffers) and the answer serialised with JSON.stringify: n, e, x and y of the answered keys are {"type":"Buffer","data":[…]} objects instead of the base64url strings the keys were set with (RFC 7518 6.2.1, 6.3.1).',
    needs: 'writes',
    round: 23,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-answer-control-chars-raw',
    rule: 'http.json-bodies',
    how: 'The custom text answer is written by a hand escaper that handles only ", \\ and line feeds: a value holding a carriage return, a tab or another control character goes out raw inside its JSON string, which RFC 8259 7 forbids (they MUST be escaped), so the body, sent as application/json, is not JSON.',
    needs: 'writes',
    round: 23,
  },
  {
    name: 'custom-text-json-control-chars-accepted',
    rule: 'http.json-request-bodies',
    how: 'The JSON body of PUT custom text is read by a lenient decoder that takes raw control characters inside strings (Python json.loads(strict=False)): {"a":"x<TAB>y"} or a value holding a raw line feed, which is not JSON text (RFC 8259 7: they MUST be escaped), is accepted and stored instead of refused 400.',
    needs: 'writes',
    round: 23,
  },
  {
    name: 'custom-text-multiline-markup-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list pattern matches element content with . without the dotAll flag: basic markup whose element holds a line break (<b>Hello\\nworld</b>, <p>…\\n<a href="https://…">…</a></p>) is refused 400 as disallowed markup, while the same value on one line is accepted.',
    needs: 'writes',
    round: 23,
  },

  // --------------------------------------------------------------- general
  {
    name: 'allow-header-inverted',
    rule: 'http.method-not-allowed.allow',
    how: "The 405 handler is a route registered for the methods a path does not take, and it builds Allow from its own route's methods (request.routeOptions.method): every 405 names the unsupported methods, the refused one included, and none the path supports.",
    round: 23,
  },
] as const satisfies readonly Fault[];
