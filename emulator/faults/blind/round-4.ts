/**
 * Blind round 4: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 4`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round4 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-failure-400-no-challenge',
    rule: 'oauth.token.bad-client',
    how: 'A client that authenticates with HTTP Basic and fails is answered 400 invalid_client without WWW-Authenticate (RFC 6749 5.2: with the Authorization header, 401 and the challenge are a MUST); body credentials are answered right.',
    round: 4,
  },
  {
    name: 'token-type-jwt',
    rule: 'oauth.token.response',
    how: 'The token response names the format of the token as its type: token_type "JWT" instead of "Bearer" (RFC 6749 7.1, RFC 6750 4).',
    round: 4,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-extra-segment-accepted',
    rule: 'token-sets.list.unauthorized',
    how: 'The token-set listing splits the bearer token on dots and verifies the first three segments only: a valid JWS with a fourth segment appended (not a JWS compact serialisation, RFC 7515 7.1) is admitted instead of 401.',
    round: 4,
  },
  {
    name: 'jwt-hs256-empty-secret',
    rule: 'auth.jwt.signature',
    how: 'GET /event-streams/{id} also verifies HS256 tokens, with an HMAC secret that is unset (the empty key): a JWT with any claims, HMAC-signed with the empty key, is admitted.',
    round: 4,
  },
  {
    name: 'scope-resource-only-match',
    rule: 'auth.scope.enforced',
    how: 'PUT custom text compares only the resource part of a scope (<verb>:<resource>): a token narrowed to read:self_service_profile_custom_texts is admitted to the write.',
    round: 4,
    needs: 'writes',
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-limit-header-default-window',
    rule: 'rate-limit.header-values',
    how: "X-RateLimit-Limit always reports the tenant's default window, not the limit of the token's own window: the rate-limited client is told Limit 100000 while it is refused after 10 requests.",
    round: 4,
  },
  {
    name: 'rate-limit-skipped-on-verify-cache-hit',
    rule: 'token-sets.list.rate-limit.status',
    how: 'Requests admitted through the verified-token cache (every request of a token after its first) skip the rate limiter: a token is counted once and never answered 429.',
    round: 4,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-set-last-used-at-offset-no-colon',
    rule: 'timestamps.date-time',
    how: "A token set's non-null last_used_at is answered with the ISO 8601 basic offset +0000 (2025-01-01T10:00:00.000+0000), which RFC 3339 does not allow (time-numoffset needs the colon).",
    round: 4,
  },
  {
    name: 'token-sets-user-id-trimmed',
    rule: 'token-sets.list.unknown-user',
    how: "The user id is trimmed before the lookup: an id that differs from a user only by leading or trailing white space (…%20) answers that user's token sets instead of 404.",
    round: 4,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-started-at-epoch-ms',
    rule: 'timestamps.date-time',
    how: 'A move to active answers started_at as epoch milliseconds (a number) instead of a date-time string.',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'transition-control-segment-null',
    rule: 'experiment.allocation.types',
    how: 'A moved experiment answers the control allocation (is_control true) with segment_id null instead of a string.',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'transition-ended-experiment-no-allocations',
    rule: 'experiment.required',
    how: 'A move to completed or archived answers the experiment without allocations (released when the run ends), though allocations is required.',
    round: 4,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-allow-all-scopes-tinyint',
    rule: 'client-grant.types',
    how: 'allow_all_scopes is answered as the integer 0 or 1 (a tinyint column) instead of a boolean; only grants that carry it (the default_for one) show it.',
    round: 4,
  },
  {
    name: 'client-grant-default-for-client-id-empty',
    rule: 'client-grant.client-id-default-for.exclusive',
    how: 'A default_for grant is answered with client_id "" (a NOT NULL column defaulted to the empty string) next to default_for.',
    round: 4,
  },

  // -------------------------------------------------------------- events
  {
    name: 'replayed-events-no-event-field',
    rule: 'events.message.event-field',
    how: 'Events replayed after a from cursor are written with an empty SSE event field, so a client reads them as "message"; live events and from_timestamp replays carry their type.',
    round: 4,
  },
  {
    name: 'deleted-event-object-null',
    rule: 'events.payload.envelope',
    how: 'The envelope of *.deleted events carries data.object null (the resource is gone) instead of an object.',
    round: 4,
  },
  {
    name: 'from-timestamp-seconds-vs-ms',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is turned into epoch seconds and compared with event times in milliseconds: every retained event is replayed, those before the timestamp included.',
    round: 4,
  },
  {
    name: 'event-type-comma-list-accepted',
    rule: 'events.filter.unknown-rejected',
    how: 'An event_type value is split on commas before validation: event_type=user.created,user.deleted (not an event type) is accepted as two types instead of refused.',
    round: 4,
  },
  {
    name: 'heartbeat-offset-frozen-at-connect',
    rule: 'events.resume.heartbeat-offset',
    how: 'Heartbeats carry the position the stream had when it connected, not the current one: after live events, resuming from a heartbeat repeats them.',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'first-live-event-dropped',
    rule: 'events.start.latest',
    how: 'A stream not resumed from a cursor drops the first live event after connecting (its subscription starts one event late); the later ones come.',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'from-timestamp-20-refused',
    rule: 'events.from-timestamp.max-length',
    how: 'The from_timestamp limit is off by one (< 20): a timestamp of exactly 20 characters (2025-01-01T00:00:00Z, the shortest RFC 3339 form) is refused 400.',
    round: 4,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'take-compared-as-string',
    rule: 'event-streams.list.take.range',
    how: 'take is checked against the maximum as strings: any take that sorts after "100" (2 to 9, 20 to 99) is refused 400, while 1, 10 to 19 and 100 pass.',
    round: 4,
  },
  {
    name: 'last-page-wraps-around',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'Pages index the list modulo its length: a last page reached with from is filled up to take with streams from the start of the list, listed again.',
    round: 4,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-x5c-chain-truncated',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Only the first certificate of x5c is kept (a single-certificate column): a key sent with a chain is answered with the leaf alone.',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'keys-kid-unicode-normalised',
    rule: 'custom-signing-keys.put.json',
    how: 'kid is normalised to NFC when stored: a kid sent decomposed (e + U+0301) is answered composed (é), not as the key was set (RFC 7517 4.5: kid is a case-sensitive string).',
    round: 4,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-empty-value-dropped',
    rule: 'custom-text.put.resulting-map',
    how: 'A key whose value is the empty string (a valid string value) is left out of the resulting map (a falsy check).',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'custom-text-self-closing-br-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list matches tags by a pattern without the self-closing form: a value with <br/> or <br /> is refused 400 (<br> passes).',
    round: 4,
    needs: 'writes',
  },
  {
    name: 'custom-text-only-first-tag-checked',
    rule: 'custom-text.put.html.restricted',
    how: 'Only the first tag of a value is checked against the allow-list: <b>Hi</b><script>…</script> is stored and answered as given.',
    round: 4,
    needs: 'writes',
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'content-length-counts-characters',
    rule: 'http.json-bodies',
    how: 'The PUT custom text answer is cut at its length in UTF-16 units (Content-Length from the string length, not the UTF-8 bytes): an answer with non-ASCII text is truncated and is not JSON.',
    round: 4,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
