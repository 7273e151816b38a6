/**
 * Blind round 10: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 10`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round10 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-nbf-in-future',
    rule: 'oauth.token.accepted',
    how: 'Issued tokens carry nbf five minutes after iat (a clock-skew allowance added with the wrong sign), so the API refuses a fresh token 401 until then (RFC 7519 4.1.5).',
    round: 10,
  },
  {
    name: 'token-secret-case-insensitive',
    rule: 'oauth.token.bad-client',
    how: 'The client secret is compared case-insensitively (a case-insensitive collation): the right secret with its letters in another case authenticates the client and gets a token.',
    round: 10,
  },
  {
    name: 'token-body-credentials-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The token endpoint sends WWW-Authenticate only to clients that used HTTP Basic: a failed authentication with credentials in the body (or none) is answered 401 invalid_client without a challenge (RFC 9110 11.6.1: every 401 MUST carry one).',
    round: 10,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-no-space-accepted',
    rule: 'auth.bearer.malformed',
    how: 'The Bearer scheme is matched as a prefix and the rest trimmed: "Bearer<jwt>" with no space between scheme and token (not the RFC 6750 2.1 credentials syntax, 1*SP) is admitted instead of refused 401.',
    round: 10,
  },
  {
    name: 'keys-scope-by-path-not-method',
    rule: 'auth.scope.enforced',
    how: 'Scopes are looked up by path, not by method and path: PUT /keys/custom-signing admits a token holding only read:custom_signing_keys or delete:custom_signing_keys (the scopes of GET and DELETE on that path) instead of refusing it 403.',
    needs: 'writes',
    round: 10,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-first-window',
    rule: 'rate-limit.header-values',
    how: "X-RateLimit-Reset keeps the end of the token's first window (stored once when the token is first seen): once that window has passed, a 429 names a reset time in the past while the request is refused.",
    needs: 'rate-limit-probe',
    round: 10,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-status-nfkc-normalised',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is NFKC-normalised before validation: a status in fullwidth letters ("ａｃｔｉｖｅ", not a value of the enum) is accepted as active.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'transition-allocation-flags-tinyint',
    rule: 'experiment.allocation.types',
    how: 'A moved experiment answers the allocation flags is_control and is_fallback as 1 or 0 (tinyint columns) instead of booleans.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'transition-id-percent-encoded-404',
    rule: 'http.path-id.percent-encoding',
    how: 'The experiment move looks the experiment up by the raw path segment: an id with a character percent-encoded (exp%5F…, the same id per RFC 3986 2.1 and 2.3) answers 404.',
    needs: 'writes',
    round: 10,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-adt-csv-trailing-empty',
    rule: 'client-grant.authorization-details-types.length',
    how: 'authorization_details_types is kept as a comma-terminated list ("a,b,") and split on commas when read: the answered array ends with an empty string item.',
    round: 10,
  },
  {
    name: 'client-grant-lookup-by-client-id',
    rule: 'client-grants.get.same-grant',
    how: "The grant is looked up with id = ? OR client_id = ?: GET /client-grants/{a client id} answers that client's grant, whose id is not the one asked for, instead of 404.",
    round: 10,
  },

  // -------------------------------------------------------------- events
  {
    name: 'resume-at-head-repeats-last',
    rule: 'events.resume.no-duplicate',
    how: "The events after a cursor are taken with slice(findIndex(seq > cursor)): from the newest offset (or a heartbeat's) none follows, findIndex gives -1 and the newest event is replayed again.",
    round: 10,
  },
  {
    name: 'envelope-id-sequence-number',
    rule: 'events.payload.envelope',
    how: "The envelope's id is the log's sequence number as a JSON number instead of a string.",
    round: 10,
  },
  {
    name: 'context-request-ip-forwarded-list',
    rule: 'events.context.types',
    how: 'Live events carry context.request.ip as the list of forwarded addresses (an array of strings) instead of a string; history events are right.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'from-timestamp-archive-only',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is resolved against the archived (seeded) history only: events appended since the emulator started but before connecting are not replayed, though they are at or after the timestamp.',
    needs: 'writes',
    round: 10,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-streams-later-pages-ordered-by-id',
    rule: 'event-streams.list.next.no-gap',
    how: "The first page is in creation order, but pages asked with from are the streams whose id sorts after the cursor's (a keyset on id): the walk skips some streams and repeats others.",
    round: 10,
  },
  {
    name: 'event-stream-id-length-utf8-bytes',
    rule: 'event-streams.get.id.length',
    how: 'The 26-character id length is checked in UTF-8 bytes: an id of 26 characters with a non-ASCII letter is refused 400, and one of 25 characters that takes 26 bytes is looked up (404).',
    round: 10,
    disputed:
      'Both of its answers are refusals: an id of 26 characters refused 400 and one of 25 looked up and not found (404) are each a 4xx, and the document gives the event-stream read no error statuses, so no client can tell a length refusal from an unknown id.',
  },
  {
    name: 'event-stream-get-updated-at-read-time',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams/{id} answers updated_at as the time of the read (a last-accessed column), so the stream read disagrees with the same stream in the list.',
    round: 10,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-default-use-omitted',
    rule: 'custom-signing-keys.put.json',
    how: 'Keys set with use "sig" are answered without use (a serialiser that omits default values): the resulting keys are not the keys set.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'keys-x5c-as-base64url',
    rule: 'custom-signing-keys.put.json',
    how: 'The x5c certificates are answered re-encoded as base64url without padding, like the other binary members, where RFC 7517 4.7 makes them standard base64: the answered chain is not the one set.',
    needs: 'writes',
    round: 10,
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-counts-text-only',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit counts the text content only (tags stripped): a value of more than 2000 characters with at most 2000 outside its markup is accepted and stored.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'custom-text-style-element-allowed',
    rule: 'custom-text.put.html.restricted',
    how: '"Basic styling tags" is read as including the <style> element: a value with <style>…</style> (a whole style sheet, neither a basic styling tag nor a hyperlink) is stored and answered as given.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'custom-text-uppercase-basic-tags-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list is compared with tag names as written: <B>bold</B> or <Strong> (HTML tag names are case-insensitive) is refused 400.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'custom-text-values-nfc-normalised',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored NFC-normalised: a value sent decomposed (e + U+0301) is answered composed (é), not as set.',
    needs: 'writes',
    round: 10,
  },
  {
    name: 'custom-text-answer-latin1-r10',
    rule: 'http.json-bodies',
    how: 'PUT custom text answers its JSON encoded in ISO-8859-1 (declared charset=iso-8859-1), not UTF-8 (RFC 8259 8.1): non-ASCII text comes out as bytes that are not UTF-8.',
    needs: 'writes',
    round: 10,
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'method-not-allowed-text-plain',
    rule: 'http.json-error-bodies',
    how: 'A 405 (a method a path does not take) is answered by the router as text/plain "Method Not Allowed" (with its Allow header) instead of a JSON error; the other errors stay JSON.',
    round: 10,
  },
] as const satisfies readonly Fault[];
