/**
 * Blind round 2: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 2`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round2 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-endpoint-basic-auth-refused',
    rule: 'oauth.token.endpoint',
    how: 'The token endpoint reads client credentials from the form body only: a client authenticating with HTTP Basic (RFC 6749 2.3.1: the server MUST support it) is refused 401 invalid_client.',
    round: 2,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'verify-cache-keyed-by-claims',
    rule: 'auth.jwt.signature',
    how: 'The verification cache is keyed by the signing input (header.payload): once a token was verified, the same header and payload with any other signature segment is admitted.',
    round: 2,
  },
  {
    name: 'token-sets-401-no-challenge',
    rule: 'token-sets.list.unauthorized',
    how: 'The 401 answers of the token-set listing carry no WWW-Authenticate header (RFC 9110 11.6.1 / RFC 6750 3: a 401 MUST carry the challenge).',
    round: 2,
  },
  {
    name: 'scope-from-client-not-token',
    rule: 'auth.scope.enforced',
    how: "GET /client-grants/{id} checks the scopes granted to the token's client, not the token's own scope claim: a token narrowed to scopes the operation does not accept (read:users) is admitted.",
    round: 2,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-http-date',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is written in the Retry-After date form (an IMF-fixdate, "Wed, 01 Jan 2025 00:01:00 GMT") instead of a number.',
    round: 2,
  },
  {
    name: 'rate-limit-reset-window-start',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is the epoch second the window started, not the one it ends: the 429 names a reset time already past.',
    round: 2,
  },
  {
    name: 'rate-limit-429-plain-text',
    rule: 'http.json-error-bodies',
    how: 'A 429 is answered by the limiter with a text/plain body "Too Many Requests" instead of a JSON error (the other errors stay JSON).',
    round: 2,
    needs: 'rate-limit-probe',
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-user-id-case-insensitive',
    rule: 'token-sets.list.unknown-user',
    how: "Users are looked up with a case-insensitive collation: an id that differs from a user only in letter case (AUTH0|ABC…) answers that user's token sets instead of 404.",
    round: 2,
    disputed:
      'The document gives user ids no case rule, and a server may map ids differing only in case to one user (RFC 3986 6.2.1 says how URIs compare, not which resources a server gives them); the suite leaves case changes out of its near ids for that reason, so whether AUTH0|ABC is a user that "does not exist" is a question for the document\'s owner.',
  },
  {
    name: 'token-set-expires-at-no-seconds',
    rule: 'timestamps.date-time',
    how: "A token set's non-null expires_at is answered to the minute (2026-01-01T00:00Z), which RFC 3339 does not allow (seconds are required).",
    round: 2,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-archived-stores-completed',
    rule: 'experiments.transition.requested-status',
    how: 'A move to archived falls through to the completed branch: the experiment is stored and answered as completed.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'transition-status-array-coerced',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is read with String(): a one-element array ["active"] (not a string of the enum) is accepted as active.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'transition-weights-fractional',
    rule: 'experiment.allocation.types',
    how: 'A moved experiment answers its allocation weights normalised to fractions (50 becomes 0.5) instead of integers.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'experiment-assignment-config-json-string',
    rule: 'experiment.types',
    how: 'assignment_config is answered as the JSON text of its column (a string) instead of an object.',
    round: 2,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-default-for-404',
    rule: 'client-grants.get.success',
    how: 'GET /client-grants/{id} joins the grant to its client: a default_for grant (no client_id) answers 404.',
    round: 2,
  },

  // -------------------------------------------------------------- events
  {
    name: 'sse-event-field-trailing-space',
    rule: 'events.message.event-field',
    how: 'Event messages are written "event: <type> " with a trailing space, so the SSE event type a client reads is "<type> " (only the one leading space is stripped).',
    round: 2,
  },
  {
    name: 'cursor-at-head-refused',
    rule: 'events.resume.heartbeat-offset',
    how: 'The cursor bound is off by one (seq >= position is "ahead of the log"): the offset of the latest event, and so every heartbeat offset, is refused 400 invalid_cursor.',
    round: 2,
  },
  {
    name: 'heartbeat-before-replay',
    rule: 'events.resume.heartbeat-offset',
    how: 'The first offset-only heartbeat (the head position) is written before the replayed events: resuming from it skips every event replayed after it.',
    round: 2,
  },
  {
    name: 'from-timestamp-not-live',
    rule: 'events.from-timestamp.start',
    how: 'A stream started with from_timestamp replays the events since then and then sends only heartbeats: events after connecting never come.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'event-type-filter-by-resource',
    rule: 'events.filter.only-requested',
    how: 'event_type is matched on its resource (the part before the first dot): event_type=user.created also streams user.updated and user.deleted.',
    round: 2,
  },
  {
    name: 'context-client-metadata-null',
    rule: 'events.context.types',
    how: 'An empty context.client.metadata is answered as null instead of an object.',
    round: 2,
  },
  {
    name: 'event-geo-nan-for-local-ip',
    rule: 'events.message.data-json',
    how: 'Events from a loopback or private address (no geo lookup) carry latitude and longitude as NaN (a Python-style serialiser), so their data line is not JSON.',
    round: 2,
    needs: 'writes',
  },

  // ------------------------------------------------------- event streams
  {
    name: 'take-100-refused',
    rule: 'event-streams.list.take.range',
    how: 'The upper bound of take is exclusive: take=100 is refused 400.',
    round: 2,
  },
  {
    name: 'next-cursor-page-number',
    rule: 'event-streams.list.next.no-gap',
    how: 'next encodes a page number, and from is read as page × take of the new request: changing take between pages skips or repeats streams.',
    round: 2,
  },
  {
    name: 'event-stream-json-bom',
    rule: 'http.json-bodies',
    how: 'GET /event-streams/{id} answers its JSON with a leading UTF-8 byte order mark (RFC 8259 8.1: MUST NOT).',
    round: 2,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'jwk-x5t-s256-dropped',
    rule: 'custom-signing-keys.put.json',
    how: 'The answered keys lose their x5t#S256 member (a column mapping that cannot hold the #): the resulting keys are not the keys set.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'keys-private-check-first-key-only',
    rule: 'custom-signing-keys.put.public-only',
    how: 'Private members (d, p, q, ...) are looked for in the first key only: a later key with its private part is stored and answered with it.',
    round: 2,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-after-escaping',
    rule: 'custom-text.put.value.max-length',
    how: 'Values are HTML-escaped for storage before the 2000-character check: a value within the limit holding & < > " or \' is refused when its escaped form is longer.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'custom-text-href-denylist',
    rule: 'custom-text.put.html.restricted',
    how: 'href is checked against a deny-list of javascript: only: a link to a data: or vbscript: URL is stored and answered as given.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'custom-text-strong-em-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list holds b, i, u, br, p and a only: a value with <strong> or <em> is refused 400.',
    round: 2,
    needs: 'writes',
  },
  {
    name: 'custom-text-form-latin1',
    rule: 'custom-text.put.form',
    how: 'Form bodies are decoded as ISO-8859-1: a non-ASCII value sent form-encoded (é as %C3%A9) is stored and answered as mojibake (Ã©).',
    round: 2,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
