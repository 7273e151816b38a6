/**
 * Blind round 3: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 3`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round3 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-cache-ignores-scope',
    rule: 'oauth.token.accepted',
    how: 'The token endpoint caches one token response per client, whatever scope is asked: after a token narrowed to one scope, a request without scope gets the narrowed token again, and the client is refused (403) on the operations it holds the scopes for.',
    round: 3,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-extra-space-refused',
    rule: 'oauth.token.accepted',
    how: 'The token-set listing takes the token as everything after exactly "Bearer ": a valid token sent after two spaces (RFC 6750 2.1 / RFC 9110 11.4: 1*SP) is answered 401.',
    round: 3,
  },
  {
    name: 'jwt-empty-signature-accepted',
    rule: 'auth.jwt.signature',
    how: 'GET /event-streams skips the signature check when the signature segment is empty: a token whose header still says RS256, with any claims and an empty third segment, is admitted.',
    round: 3,
  },
  {
    name: 'events-scope-check-bypassed',
    rule: 'auth.scope.enforced',
    how: 'GET /events, a streaming route registered outside the scope middleware, checks the token but not its scopes: a valid token without the in-scope scopes opens the stream (200).',
    round: 3,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-window-start-r3',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset gives the epoch second the window started, not when it ends: a 429 says the limit reset already, in the past.',
    round: 3,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-cached-by-route',
    rule: 'token-sets.list.success',
    how: 'The listing is cached by route template, not by user id: after the first listing, every user (that exists) is answered the token sets of the first user listed.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'user-id-lowercase-percent-hex-404',
    rule: 'token-sets.list.success',
    how: 'The user id is percent-decoded by a decoder that knows upper-case hex digits only: auth0%7c... (lower-case hex, equivalent per RFC 3986 2.1) is looked up undecoded and answered 404.',
    round: 3,
  },
  {
    name: 'token-set-null-dates-empty-string',
    rule: 'token-set.types',
    how: 'A null expires_at or last_used_at is answered as the empty string "" (a nullable column read into a plain string).',
    round: 3,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-draft-mixed-case-accepted',
    rule: 'experiments.transition.draft-rejected',
    how: 'The draft guard compares the raw status case-sensitively and the status is lower-cased after it: DRAFT or Draft moves the experiment back to draft.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'experiment-assignment-config-string',
    rule: 'experiment.types',
    how: 'The moved experiment carries assignment_config as the JSON text of the object (a JSON column returned unparsed), not as an object.',
    round: 3,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-lookup-prefix',
    rule: 'client-grants.get.same-grant',
    how: "The grant is looked up with LIKE '<id>%': an id no grant has but that begins another grant's id (cgr_, a truncated id) answers that grant instead of 404.",
    round: 3,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'take-100-refused-r3',
    rule: 'event-streams.list.take.range',
    how: 'The upper bound of take is exclusive: take=100 is refused (400), take=99 passes.',
    round: 3,
  },
  {
    name: 'next-page-offset-default-take',
    rule: 'event-streams.list.next.no-gap',
    how: 'next stands for a page number and the page starts at number x default take (50): with take other than 50 the second page starts at the wrong place (take=10: page 2 starts at the 51st stream).',
    round: 3,
  },
  {
    name: 'next-cursor-needs-raw-query',
    rule: 'event-streams.list.next.no-gap',
    how: 'next is standard base64 with = padding (and + or /), and from is read from the raw query string, not percent-decoded: a client that encodes the cursor as a query value (from=...%3D%3D, as URLSearchParams writes it) gets 400 on the second page.',
    round: 3,
  },

  // -------------------------------------------------------------- events
  {
    name: 'sse-event-field-trailing-space-r3',
    rule: 'events.message.event-field',
    how: 'Event messages are written "event: <type> " with a trailing space, so the SSE event type is "<type> " (SSE strips only the one leading space).',
    round: 3,
  },
  {
    name: 'cursor-at-position-refused',
    rule: 'events.resume.heartbeat-offset',
    how: 'A cursor is refused as ahead of the log when it is at or after the latest position (>= instead of >): resuming from a heartbeat or from the newest event answers 400.',
    round: 3,
  },
  {
    name: 'from-timestamp-same-second-lost',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is compared with event times cut to the second, with >: events in the same second as the timestamp (an event time cut to whole seconds, as 20 characters allow) are not replayed.',
    round: 3,
  },
  {
    name: 'from-timestamp-lowercase-refused',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp with lower-case t or z (allowed by RFC 3339 5.6) is refused 400.',
    round: 3,
  },
  {
    name: 'filtered-resume-starts-latest',
    rule: 'events.resume.no-loss',
    how: 'With event_type given, the from cursor is ignored and the stream starts at the latest position: everything after the cursor is lost (without event_type, resumption is right).',
    round: 3,
  },
  {
    name: 'live-events-one-subscriber-each',
    rule: 'events.start.latest',
    how: 'Live events go to open streams as to competing consumers: each event is delivered to the first stream that takes it, so a second open stream gets none of them.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'context-client-metadata-null-r3',
    rule: 'events.context.types',
    how: 'context.client.metadata is null when the client has no metadata (a nil map serialised), not an object.',
    round: 3,
  },
  {
    name: 'connection-created-empty-arrays-null',
    rule: 'events.connection-created.object',
    how: 'In connection.created, the empty arrays (acr_values_supported, domain_aliases, ...) are null (nil slices serialised), not [].',
    round: 3,
  },
  {
    name: 'live-geo-nan',
    rule: 'events.message.data-json',
    how: 'Live events (from requests the geo lookup cannot place) carry latitude and longitude as NaN, which is not JSON (RFC 8259 6): their data line does not parse; history events are right.',
    round: 3,
    needs: 'writes',
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-x5t-s256-dropped',
    rule: 'custom-signing-keys.put.json',
    how: 'The member x5t#S256 (a name a struct field cannot carry) is dropped: the answered keys lack it.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'keys-only-first-stored',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Only keys[0] is stored and answered: a set of two or more keys loses every key after the first.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'keys-private-check-d-only',
    rule: 'custom-signing-keys.put.public-only',
    how: 'Only d is checked as a private member: an RSA key with p, q, dp, dq, qi (the private factors) but no d is stored and answered with them.',
    round: 3,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-utf8-bytes',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit counts UTF-8 bytes: a value of 2000 characters with accented letters (é, ü) is refused 400.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'custom-text-astral-truncated',
    rule: 'custom-text.put.resulting-map',
    how: 'A value is cut at its first character outside the BMP (a 3-byte utf8 column): "Hi 😀 there" is answered "Hi ".',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'custom-text-entities-decoded-after-check',
    rule: 'custom-text.put.html.restricted',
    how: 'HTML entities are decoded after the allow-list check: &lt;script&gt;... passes as text and is stored and answered as a <script> element.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'custom-text-bare-ampersand-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Plain text with a bare & or < (Terms & Conditions, 1 < 2) is taken for markup and refused 400.',
    round: 3,
    needs: 'writes',
  },
  {
    name: 'custom-text-form-latin1-r3',
    rule: 'custom-text.put.form',
    how: 'Form bodies are percent-decoded as ISO-8859-1: caf%C3%A9 is stored and answered as cafÃ© (JSON bodies are right).',
    round: 3,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
