/**
 * Blind round 7: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 7`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round7 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-no-cache-not-no-store',
    rule: 'oauth.token.response',
    how: 'The token response carries Cache-Control: no-cache (and Pragma: no-cache) instead of no-store: no-cache lets a cache keep the token and only revalidate it, where RFC 6749 5.1 requires no-store.',
    round: 7,
  },
  {
    name: 'token-secret-compared-on-stored-length',
    rule: 'oauth.token.bad-client',
    how: 'The presented client secret is cut to the length of the stored one before the comparison: the right secret with anything appended (secret + "x") authenticates the client and gets a token.',
    round: 7,
  },
  {
    name: 'token-basic-failure-bearer-challenge',
    rule: 'oauth.token.client-auth',
    how: 'A client that authenticates with HTTP Basic and fails gets 401 with WWW-Authenticate: Bearer error="invalid_token" (the API challenge) instead of a Basic challenge, the scheme the client used (RFC 6749 5.2).',
    round: 7,
  },
  {
    name: 'token-response-form-encoded-unless-accept-json',
    rule: 'oauth.token.response',
    how: 'The token response is form-encoded (access_token=...&token_type=Bearer, application/x-www-form-urlencoded) unless the request’s Accept names application/json: a client sending Accept: */* or none gets no JSON (RFC 6749 5.1: application/json).',
    round: 7,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-remaining-reports-used',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Remaining gives the requests used in the window (1, 2, 3, ...) instead of those left: it grows with each request and a 429 says Limit+1 remain.',
    round: 7,
  },
  {
    name: 'rate-limit-remaining-before-count',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Remaining is read before the request is counted (one too many): the last request the window allows says 1 remains, and the next one is refused 429.',
    round: 7,
    needs: 'rate-limit-probe',
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'user-id-length-utf16-units',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id counts UTF-16 code units: an id of 300 characters with some outside the BMP (emoji) is refused 400 instead of looked up (404 for no such user).',
    round: 7,
  },
  {
    name: 'token-sets-never-used-dropped',
    rule: 'token-sets.list.active-only',
    how: '"Active" is read as "recently used": token sets whose last_used_at is null (issued, never used, not expired) are left out of the listing.',
    round: 7,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-status-member-case-insensitive',
    rule: 'experiments.transition.status-required',
    how: 'Body members are matched case-insensitively (Go encoding/json): a move whose body has no status but Status or STATUS ({"Status":"active"}) is made instead of refused as missing the required status.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'transition-updated-at-sql-space',
    rule: 'timestamps.date-time',
    how: 'A moved experiment answers updated_at with a space between date and time (2026-01-01 10:00:00.000Z, a SQL datetime), not the T of RFC 3339 5.6 date-time.',
    round: 7,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-unknown-falls-back-to-default',
    rule: 'client-grants.get.same-grant',
    how: 'An id no grant has is answered with the default_for (third_party_clients) grant, as if the default applied to a read, instead of 404.',
    round: 7,
  },

  // -------------------------------------------------------------- events
  {
    name: 'event-type-filter-suffix-match',
    rule: 'events.filter.only-requested',
    how: 'event_type is matched as a routing-key suffix: event_type=connection.updated also streams organization.connection.updated, group.role.assigned also organization.group.role.assigned.',
    round: 7,
  },
  {
    name: 'event-type-only-first-validated',
    rule: 'events.filter.unknown-rejected',
    how: 'Only the first event_type occurrence is checked against the list: event_type=user.created&event_type=no.such.type opens the stream instead of being refused.',
    round: 7,
  },
  {
    name: 'event-type-last-listed-refused',
    rule: 'events.filter.unknown-rejected',
    how: 'The list of allowed types is searched with an off-by-one loop that misses its last entry: event_type=user.updated, a listed type, is refused 400.',
    round: 7,
  },
  {
    name: 'resume-replay-drops-deleted-events',
    rule: 'events.resume.no-loss',
    how: 'Events replayed after a from cursor leave out the *.deleted events (tombstones compacted out of the replay store): a resumed stream lacks user.deleted, organization.deleted, ... that the uncut stream delivered.',
    round: 7,
  },
  {
    name: 'live-offsets-count-delivered-events',
    rule: 'events.resume.no-duplicate',
    how: 'A live event carries as offset the stream’s position at connect plus the number of live events it delivered: with an event_type filter the offsets lag behind, so resuming from one replays events already delivered.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'connection-created-empty-objects-as-arrays',
    rule: 'events.connection-created.object',
    how: 'In connection.created, empty objects (metadata, options.connection_settings, options.upstream_params, ...) are answered as [] (PHP json_encode of an empty array), not as objects.',
    round: 7,
  },
  {
    name: 'from-timestamp-day-rollover',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is read with Date.UTC, which rolls an impossible date over: 2025-02-30T00:00:00Z (not an RFC 3339 date-time, RFC 3339 5.7) is accepted as 2025-03-02 instead of refused.',
    round: 7,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-streams-page-cached-by-from',
    rule: 'event-streams.list.take.page-size',
    how: 'Pages are cached by their from cursor alone: after the first page was read with one take, every first page (and every page after the same cursor) is that cached page whatever take asks.',
    round: 7,
  },
  {
    name: 'event-stream-get-status-always-enabled',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams/{id} answers status enabled for every stream: a stream the list answers as disabled is read back as enabled.',
    round: 7,
  },
  {
    name: 'event-streams-400-text-plain',
    rule: 'http.json-error-bodies',
    how: 'The 400 answers of GET /event-streams (bad take, bad from) carry the JSON error text with Content-Type text/plain; the other errors are application/json.',
    round: 7,
  },
  {
    name: 'take-1-refused',
    rule: 'event-streams.list.take.range',
    how: 'The lower bound of take is exclusive: take=1, the smallest page the document allows, is refused 400.',
    round: 7,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-form-plus-decoded-after-percent',
    rule: 'custom-signing-keys.put.form',
    how: 'Form bodies are percent-decoded before + is read as a space: a + sent as %2B (in an x5c certificate, standard base64) is stored and answered as a space; the same key as JSON is right.',
    round: 7,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-newlines-as-crlf',
    rule: 'custom-text.put.value.max-length',
    how: 'Line breaks are normalised to CRLF before the 2000-character check: a value of 2000 characters holding line feeds is refused 400.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'custom-text-length-counts-graphemes',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit counts grapheme clusters: a value of more than 2000 characters made of letters with combining accents (e + U+0301), at most 2000 graphemes, is accepted and stored.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'custom-text-handler-attribute-case-sensitive',
    rule: 'custom-text.put.html.restricted',
    how: 'Event handler attributes are looked for in lower case only: <b ONCLICK="alert(1)">…</b> (HTML attribute names are case-insensitive) is stored and answered as given.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'custom-text-img-allowed',
    rule: 'custom-text.put.html.restricted',
    how: 'The allow-list (copied from a rich-text preset) holds img with src, alt, width and height: <img src="https://…"> (neither a styling tag nor a hyperlink) is stored and answered as given.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'custom-text-values-trimmed',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are trimmed when stored: "Welcome " or " Hi\\n" is stored and answered without the white space, so the resulting map is not the one set.',
    round: 7,
    needs: 'writes',
  },
  {
    name: 'custom-text-page-case-insensitive',
    rule: 'custom-text.put.page.enum',
    how: 'The page is matched case-insensitively (as a case-insensitive router would): Get-Started or GET-STARTED, not the allowed value get-started, is accepted.',
    round: 7,
    needs: 'writes',
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'media-type-case-sensitive-415',
    rule: 'http.json-request-bodies',
    how: 'The experiment move compares the request media type as written: a JSON body labelled Application/JSON (RFC 9110 8.3.1: type and subtype are case-insensitive) is refused 415.',
    round: 7,
    needs: 'writes',
  },
] as const satisfies readonly Fault[];
