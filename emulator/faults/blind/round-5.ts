/**
 * Blind round 5: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 5`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round5 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-form-charset-param-415',
    rule: 'oauth.token.endpoint',
    how: 'The token endpoint compares the whole Content-Type with application/x-www-form-urlencoded: a form body labelled "; charset=UTF-8" is refused 415 (RFC 9110 8.3.1: parameters do not change the media type).',
    round: 5,
  },
  {
    name: 'token-response-scope-comma-joined',
    rule: 'auth.scope.form',
    how: 'The token response joins the granted scopes with commas (read:a,read:b) instead of spaces (RFC 6749 3.3), so the scope string is not a list of <verb>:<resource> scopes; the JWT claim stays right.',
    round: 5,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-custom-signing-key-trusted',
    rule: 'auth.jwt.signature',
    how: "The bearer check resolves the token header's kid among the tenant's custom signing keys too: after a PUT of a caller's own public key, a JWT the caller signs with its private key (ES256, that kid) is admitted.",
    round: 5,
    needs: 'writes',
  },
  {
    name: 'scope-claim-split-on-comma',
    rule: 'oauth.token.accepted',
    how: 'GET /event-streams reads the scope claim as a comma-separated list: a token holding one scope passes, a token holding several (space-separated, as issued) is refused 403.',
    round: 5,
  },
  {
    name: 'api-401-basic-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The 401 answers of the experiment move and of PUT custom text carry WWW-Authenticate: Basic realm="api" (copied from the token endpoint) instead of a Bearer challenge (RFC 6750 3).',
    round: 5,
    // Both operations are writes: a client that sends none never gets these 401s.
    needs: 'writes',
  },
  {
    name: 'allow-header-lists-every-method',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 lists every method the server knows (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS), not the methods the path supports (RFC 9110 15.5.6).',
    round: 5,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-header-duplicated',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is set twice (by the limiter and again by the response writer), so a client reads the combined field value "N, N", not a number.',
    round: 5,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-first-store-page-only',
    rule: 'token-sets.list.active-only',
    how: 'The listing reads one page of 3 token sets from the store and filters it: a user holding more than 3 active token sets is answered only those of the first page.',
    round: 5,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-status-trimmed',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is trimmed before validation: " active" or "paused\\n" (not values of the enum) are accepted as moves.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'transition-answer-status-from-dates',
    rule: 'experiments.transition.requested-status',
    how: 'The answered status is derived from the dates (ended_at: completed, else started_at: active): a move to paused is stored but answered active, a move to archived answered completed.',
    round: 5,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-id-double-decoded',
    rule: 'http.path-id.percent-encoding',
    how: 'GET /client-grants/{id} percent-decodes the id a second time: an id that no grant has, holding a literal %XX (sent as %25XX), is answered the grant whose id has the decoded character.',
    round: 5,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-streams-next-integer',
    rule: 'event-streams.list.success',
    how: 'next is the index of the next page as a JSON number (50), not a string; from=50 is accepted.',
    round: 5,
  },
  {
    name: 'event-streams-later-pages-enabled-only',
    rule: 'event-streams.list.next.no-gap',
    how: 'Pages asked with from leave the disabled streams out (the keyset query of later pages filters on status): streams after the first page that are disabled are never listed.',
    round: 5,
  },
  {
    name: 'event-stream-created-at-decimal-comma',
    rule: 'timestamps.date-time',
    how: 'GET /event-streams/{id} answers created_at with a decimal comma (2025-01-04T11:20:00,000Z), which ISO 8601 allows and RFC 3339 does not.',
    round: 5,
  },

  // -------------------------------------------------------------- events
  {
    name: 'event-type-lowercased-before-check',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type values are lower-cased before they are checked: USER.CREATED or User.Created (not event types) are accepted as user.created.',
    round: 5,
  },
  {
    name: 'event-filter-shared-across-streams',
    rule: 'events.filter.only-requested',
    how: 'The live event filter is held once for the process: every open stream delivers live events by the filter of the stream opened last (a stream for user.created gets every type once an unfiltered stream opens).',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'envelope-specversion-number',
    rule: 'events.payload.envelope',
    how: 'The envelope carries specversion as the number 1 (1.0 read as a float) instead of the string "1.0".',
    round: 5,
  },
  {
    name: 'from-timestamp-leap-second-refused',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp with second 60 (a leap second, 2016-12-31T23:59:60Z, allowed by RFC 3339 5.6/5.7) is refused 400 (Date.parse cannot read it).',
    round: 5,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-form-single-item-array-flattened',
    rule: 'custom-signing-keys.put.form',
    how: 'A form-encoded JWKS has its one-item arrays flattened: key_ops[0]=verify (or a one-certificate x5c) is answered as the string, not an array; JSON bodies are right.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'keys-private-check-json-only',
    rule: 'custom-signing-keys.put.public-only',
    how: 'Private members (d, p, q, ...) are looked for in JSON bodies only: a key with its private part sent form-encoded is stored and answered with it.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'keys-coordinates-std-base64',
    rule: 'custom-signing-keys.put.json',
    how: 'The answered keys carry n, e, x and y re-encoded as standard base64 with padding (+, /, =) instead of the base64url the keys were set with (RFC 7518 6).',
    round: 5,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-after-nfd',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is checked on the value normalised to NFD: a value of 2000 characters with precomposed accented letters (é) is refused 400.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'custom-text-href-scheme-case-sensitive',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The href scheme is matched case-sensitively: a link to HTTPS://… or Mailto:… (RFC 3986 3.1: schemes are case-insensitive) is refused 400.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'custom-text-slash-attribute-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'Attributes are found only after white space: <b/onmouseover=alert(1)>…</b> (a slash before the attribute, which browsers read as one) is stored and answered as given.',
    round: 5,
    needs: 'writes',
  },
  {
    name: 'custom-text-answer-html-escaped',
    rule: 'custom-text.put.resulting-map',
    how: 'The answered map has its values HTML-escaped (<b> as &lt;b&gt;, & as &amp;) by an output encoder meant for pages: the answer is not the text set.',
    round: 5,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
