/**
 * Blind round 14: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 14`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round14 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-secret-trimmed',
    rule: 'oauth.token.bad-client',
    how: 'The presented client secret is trimmed before it is compared (input clean-up applied to credentials): the right secret with a space or tab before or after it authenticates and gets a token instead of 401 invalid_client.',
    round: 14,
  },
  {
    name: 'token-grant-type-missing-defaults',
    rule: 'oauth.token.grant-type',
    how: 'A token request without grant_type (or with an empty one) is taken as client_credentials, the only grant the endpoint serves, and answered with a token instead of 400 invalid_request (RFC 6749 4.4.2: grant_type is REQUIRED); a wrong grant_type is still refused.',
    round: 14,
  },
  {
    name: 'token-basic-with-client-id-param-refused',
    rule: 'oauth.token.client-auth',
    how: 'A request authenticating with HTTP Basic that also names its client_id in the body (the same id; RFC 6749 3.2.1 lets a client identify itself so) is refused 400 as using two authentication methods, though client_id alone authenticates nothing; Basic without client_id works.',
    round: 14,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'event-streams-get-accepts-read-events',
    rule: 'auth.scope.enforced',
    how: 'GET /event-streams/{id} takes the scope of the events stream for its own (one scope constant shared by the two event routes): a token holding read:events but not read:event_streams reads an event stream instead of being refused.',
    round: 14,
  },
  {
    name: 'keys-form-scope-unchecked',
    rule: 'auth.scope.enforced',
    how: 'The scope check of PUT /keys/custom-signing is skipped for form-encoded bodies (the form route variant is registered without the scope guard): a token without create: or update:custom_signing_keys replaces the keys when it sends the JWKS as application/x-www-form-urlencoded; JSON bodies are refused 403.',
    needs: 'writes',
    round: 14,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-headers-first-only',
    rule: 'token-sets.list.rate-limit.headers',
    how: "Only the first 429 a token gets carries X-RateLimit-Limit, -Remaining and -Reset; later 429s come from the limiter's blocked-key fast path without any of the three headers.",
    needs: 'rate-limit-probe',
    round: 14,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-404-body-not-json',
    rule: 'http.json-error-bodies',
    how: 'The 404 for an unknown user is labelled application/json but its body is the bare message The user does not exist. (a text, not a JSON value); the other errors are JSON.',
    round: 14,
  },
  {
    name: 'token-set-issued-at-offset-and-z',
    rule: 'timestamps.date-time',
    how: 'issued_at is written as an offset-aware isoformat with a Z appended (2025-01-01T00:00:00.000+00:00Z), both a numeric offset and Z, which is not an RFC 3339 date-time.',
    round: 14,
  },

  // ---------------------------------------------------------- experiments
  {
    name: 'transition-status-enum-index-accepted',
    rule: 'experiments.transition.status-enum',
    how: 'A numeric status is read as the index of the lifecycle enum (1 active, 2 paused, 3 completed, 4 archived, as a protobuf enum is): {"status": 1} moves the experiment to active instead of being refused as not one of the four strings.',
    needs: 'writes',
    round: 14,
  },

  // -------------------------------------------------------- client grants
  {
    name: 'client-grant-id-trimmed',
    rule: 'client-grants.get.same-grant',
    how: 'The grant id path segment is trimmed before the lookup: /client-grants/{id}%20 (an id no grant has) answers the grant {id} instead of 404.',
    round: 14,
  },

  // ----------------------------------------------------------- GET /events
  {
    name: 'sse-data-wrapped-at-2048',
    rule: 'events.message.data-json',
    how: 'Messages whose JSON is longer than 2048 characters are written as several data lines cut every 2048 characters, wherever the cut falls (inside a string too): joined back with the newline SSE puts between data lines, the payload of a large event (connection.created) is no longer JSON, and no single data line holds a JSON payload.',
    round: 14,
  },
  {
    name: 'heartbeat-payload-type-heartbeat',
    rule: 'events.payload.type-matches',
    how: 'The offset-only heartbeat payload carries its own type member "heartbeat" (the name of the timer that writes it), which disagrees with its SSE event field offset-only; event messages are right.',
    round: 14,
  },
  {
    name: 'replayed-envelope-id-regenerated',
    rule: 'events.resume.no-duplicate',
    how: 'Events replayed after a from cursor are rebuilt from the archive with a freshly minted envelope id: the same event has one id live and another when resumed, so a resumed stream is not the uncut one and a client deduplicating by id sees the replayed events as new ones.',
    round: 14,
  },
  {
    name: 'from-timestamp-skips-archive',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is looked up in the recent (in-memory) part of the log only, not in the archived history: a timestamp before the newest archived event replays only the events made since the emulator started, leaving out the older ones at or after the timestamp.',
    round: 14,
    disputed:
      'Not observable from outside: every from_timestamp read, the one reaching furthest back included, leaves out the archived events alike, and no other way reaches them (a from cursor to one comes only from such a read; without from the stream starts at the latest events). The target then looks like a conformant one whose history begins when it started; telling them apart needs a fact the document does not give, that the target holds older events.',
  },

  // ------------------------------------------------ GET /event-streams
  {
    name: 'event-streams-next-from-last-enabled',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'next is made from the last enabled stream of the page (the cursor query skips disabled rows): a page ending in disabled streams hands out a cursor before them, so the next page repeats them.',
    round: 14,
  },
  {
    name: 'event-streams-cursor-at-disabled-refused',
    rule: 'event-streams.list.next.no-gap',
    how: 'A from cursor naming a disabled stream is refused 400 invalid_cursor (the cursor is resolved among enabled streams only), though the list hands out such cursors: a walk whose page ends on a disabled stream (take=3) stops there.',
    round: 14,
  },
  {
    name: 'accept-application-wildcard-406',
    rule: 'http.json-bodies',
    how: 'GET /event-streams matches Accept literally: an Accept of application/* (a wildcard subtype that application/json satisfies, RFC 9110 12.5.1) is answered 406; */*, application/json or no Accept work.',
    round: 14,
  },

  // --------------------------------------------- PUT /keys/custom-signing
  {
    name: 'keys-answer-includes-tenant-key',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The PUT answers the keys sent followed by the tenant\'s own signing key ("the resulting keys" read as every key the tenant signs with): the answer holds a key the request did not send, not the set the PUT made.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'keys-private-check-skips-okp',
    rule: 'custom-signing-keys.put.public-only',
    how: 'The private members are looked up in a table by kty that has RSA, EC and oct only: an OKP key (RFC 8037, Ed25519) holding its private d is stored and answered; RSA and EC keys with d are refused.',
    needs: 'writes',
    round: 14,
  },

  // ------------------------------------------------------ PUT custom text
  {
    name: 'custom-text-2000-refused',
    rule: 'custom-text.put.value.max-length',
    how: 'The limit is checked with < instead of <=: a value of exactly 2000 characters, the documented maximum, is refused 400.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'custom-text-form-length-counted-encoded',
    rule: 'custom-text.put.value.max-length',
    how: 'For form-encoded bodies the 2000-character limit is counted on the value as sent, percent-escapes included: a value of at most 2000 characters holding non-ASCII letters or reserved characters (é sent as %C3%A9) is refused 400 form-encoded, while the same value as JSON is accepted.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'custom-text-href-unquoted-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'The href scheme check only reads quoted attribute values: <a href=javascript:alert(1)>x</a> (an unquoted value, valid HTML) is stored and answered as a link; quoted script URLs are refused.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'custom-text-values-percent-decoded-after-check',
    rule: 'custom-text.put.html.restricted',
    how: 'Each value is percent-decoded once more when stored, after the HTML check (a second decode meant for form bodies): %3Cscript%3E passes the check as text and is stored and answered as <script>.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'custom-text-value-cut-at-nul',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored as C strings: a value holding U+0000 (valid in a JSON string) is cut at it, so the answered map holds a shorter value than the one the PUT set.',
    needs: 'writes',
    round: 14,
  },
  {
    name: 'custom-text-unchanged-put-204',
    rule: 'custom-text.put.resulting-map',
    how: 'A PUT sending the same map the path was last set to is answered 204 No Content without a body (nothing changed), instead of the resulting map; a PUT that changes the map answers it.',
    needs: 'writes',
    round: 14,
  },
] as const satisfies readonly Fault[];
