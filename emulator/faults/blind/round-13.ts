/**
 * Blind round 13: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 13`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round13 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-credentials-split-at-last-colon',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic credentials are form-decoded as a whole and then split at the last colon: a secret holding a colon (sent as %3A, as RFC 6749 2.3.1 requires) is cut there, so a client authenticating with HTTP Basic is refused 401 invalid_client; credentials in the body still work.',
    round: 13,
  },
  {
    name: 'token-audience-claim-as-requested',
    rule: 'oauth.token.accepted',
    how: 'The aud claim of an issued token is the audience parameter as the client sent it: a token asked for with the documented bare audience /api/v2/ carries aud "/api/v2/", which the API does not take as its own, so every operation refuses it 401 (tokens asked for with the absolute {origin}/api/v2/ work).',
    round: 13,
  },
  {
    name: 'token-response-scope-omitted-by-default',
    rule: 'oauth.token.response',
    how: 'A token request without a scope parameter gets a response without the scope member, though the token holds the default scopes, not the ones requested (RFC 6749 5.1: scope is OPTIONAL only if identical to the scope requested, otherwise REQUIRED); a request naming its scopes gets scope back.',
    round: 13,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'invalid-token-challenge-without-scheme',
    rule: 'http.unauthorized.challenge',
    how: 'The 401 for a presented token that fails verification carries WWW-Authenticate: error="invalid_token", the auth-params without the Bearer scheme before them, which is not a challenge (RFC 9110 11.6.1, 11.3; RFC 6750 3); a request with no Authorization header gets the right "Bearer" challenge.',
    round: 13,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-header-names-hyphenated',
    rule: 'token-sets.list.rate-limit.headers',
    how: "The 429 answer names its rate-limit headers X-Rate-Limit-Limit, X-Rate-Limit-Remaining and X-Rate-Limit-Reset (the spelling of another API, from the limiter's own refusal path), not the documented X-RateLimit-*; answers within the limit use the documented names.",
    needs: 'rate-limit-probe',
    round: 13,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-set-never-expires-max-date',
    rule: 'timestamps.date-time',
    how: 'A token set that never expires is stored with the largest Date as a sentinel instead of null and answered as its toISOString(), expires_at "+275760-09-13T00:00:00.000Z": an expanded six-digit year with a sign, which is not an RFC 3339 date-time (date-fullyear is 4DIGIT).',
    round: 13,
  },
  {
    name: 'user-id-decodes-pipe-only',
    rule: 'http.path-id.percent-encoding',
    how: "The user id path segment is decoded by replacing %7C with | only (the one character user ids are known to need encoded): an id with any other character percent-encoded (%61uth0|…, the same id per RFC 3986 2.1 and 2.3) answers 404 instead of the user's token sets.",
    round: 13,
  },
  {
    name: 'token-sets-empty-list-204',
    rule: 'token-sets.list.success',
    how: 'A user with no active token set is answered 204 No Content with no body ("nothing to list") instead of the documented 200 with a JSON array (an empty one).',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'token-sets-xssi-prefix',
    rule: 'http.json-bodies',
    how: "The token-set listing, a top-level JSON array, is sent behind the anti-XSSI guard )]}',\\n (as some frameworks protect array answers from JSON hijacking) under Content-Type application/json, so the body is not JSON; the other operations answer plain JSON.",
    round: 13,
  },

  // ---------------------------------------------------------- experiments
  {
    name: 'transition-bare-string-body-accepted',
    rule: 'experiments.transition.status-required',
    how: 'A move whose JSON body is a bare string ("active", not an object with the required status member) is read as the status and made (200) instead of refused as a body without status.',
    needs: 'writes',
    round: 13,
  },

  // -------------------------------------------------------- client grants
  {
    name: 'client-grant-default-for-array',
    rule: 'client-grant.default-for.enum',
    how: 'default_for is kept in a set-valued column and answered as an array (["third_party_clients"]) instead of the enum string third_party_clients.',
    round: 13,
  },

  // ----------------------------------------------------------- GET /events
  {
    name: 'from-timestamp-date-only-accepted',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is read with Date.parse after the strict check fails: a date without a time (2025-01-01, an ISO 8601 date, not an RFC 3339 date-time) is accepted as midnight UTC and the stream replays from there instead of refusing it 400.',
    round: 13,
  },
  {
    name: 'from-timestamp-length-counted-raw',
    rule: 'events.from-timestamp.max-length',
    how: 'The 20-character limit of from_timestamp is counted on the raw query value: 2025-01-01T00:00:00Z sent with its colons percent-encoded (%3A, as URLSearchParams writes them) counts 24 and is refused 400, though the value is 20 characters.',
    round: 13,
  },
  {
    name: 'filtered-stream-no-heartbeats',
    rule: 'events.offset-only.offset',
    how: 'With event_type given, offset-only heartbeats are filtered out like events of a type not asked for (their type is not in the filter): a filtered stream never sends a cursor-only heartbeat, while an unfiltered stream does.',
    round: 13,
    disputed:
      'Events, open point 4: "Heartbeat frequency and how long a cursor stays valid: not shown". A server sending no heartbeat on a filtered stream has a frequency the document leaves open, as one sending none at all would; the suite skips its heartbeat checks, with that reason, where none arrives. Every offset-only message it does send still carries its offset.',
  },
  {
    name: 'event-field-cut-at-32-characters',
    rule: 'events.message.event-field',
    how: 'The SSE event field is written from a 32-character buffer: organization.member.role.assigned (33 characters) goes out as event: organization.member.role.assigne, while the payload type and envelope are right.',
    round: 13,
  },

  // ------------------------------------------------ GET /event-streams
  {
    name: 'event-streams-no-next-at-take-100',
    rule: 'event-streams.list.next.no-gap',
    how: 'Whether more streams follow is found by asking the store for take+1 rows, and the store caps a query at 100: with take=100 the extra row never comes, so the page has no next while more streams follow, and a walk with take=100 stops after the first page.',
    round: 13,
  },
  {
    name: 'event-streams-take-counts-enabled-only',
    rule: 'event-streams.list.take.page-size',
    how: 'take limits the enabled streams of a page only (the limit applied to a query filtered on status, the disabled streams joined back): a page holds take enabled streams and the disabled ones between them, more than take streams.',
    round: 13,
  },

  // --------------------------------------------- PUT /keys/custom-signing
  {
    name: 'keys-answer-previous-set',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The PUT replaces the stored set but answers the set as it was before the write (read before the transaction): once some keys are set, each PUT is answered with the keys of the previous one, not the resulting keys.',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'keys-key-ops-space-joined',
    rule: 'jwk.types',
    how: 'key_ops is stored in a text column and answered as one space-separated string ("verify", "sign verify") instead of an array of strings.',
    needs: 'writes',
    round: 13,
  },

  // ------------------------------------------------------ PUT custom text
  {
    name: 'custom-text-form-html-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML allow-list is applied to JSON bodies only: a value with <script> or an onclick attribute sent form-encoded is stored and answered as given; the same map as JSON is refused 400.',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'custom-text-length-entities-count-one',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is counted with character references decoded (&amp;, &lt;, &#169; count one character each): a value of more than 2000 characters holding them, at most 2000 once decoded, is accepted and stored as sent.',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'custom-text-href-control-chars-kept',
    rule: 'custom-text.put.html.restricted',
    how: 'The href scheme is checked after trim() only: a javascript: URL with a tab or newline inside the scheme (java&#9;script:, java\\tscript:) or a leading control character, all of which browsers strip from URLs, is stored and answered as a link.',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'custom-text-empty-map-keeps-previous',
    rule: 'custom-text.put.resulting-map',
    how: 'An empty map {} is read as an update with nothing to change: the stored text is kept and answered, instead of being replaced by the empty map the PUT sets (a non-empty body replaces the map).',
    needs: 'writes',
    round: 13,
  },
  {
    name: 'custom-text-iframe-allowed',
    rule: 'custom-text.put.html.restricted',
    how: 'The allow-list (a rich-text editor preset for embedded videos) holds iframe with src: <iframe src="https://…"></iframe>, neither a basic styling tag nor a hyperlink, is stored and answered as given.',
    needs: 'writes',
    round: 13,
  },

  // ---------------------------------------------------------- HTTP layer
  {
    name: 'allow-keeps-last-registered-method',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 is built from a map that keeps only the last route registered for each path: on paths with several methods it names one of them only (DELETE on /keys/custom-signing, GET on the custom text path), leaving out the documented PUT (RFC 9110 15.5.6).',
    round: 13,
  },
] as const satisfies readonly Fault[];
