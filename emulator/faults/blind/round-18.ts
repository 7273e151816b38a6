/**
 * Blind round 18: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 18`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round18 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-scope-array',
    rule: 'oauth.token.response',
    how: 'The token response gives scope as a JSON array of scope strings (["read:client_grants", ...]) instead of the space-delimited string RFC 6749 5.1 and 3.3 define; the token itself is right.',
    round: 18,
  },
  {
    name: 'token-basic-plus-after-percent-decode',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic credentials are percent-decoded first and + is read as a space after: a secret holding + sent as %2B (the form encoding RFC 6749 2.3.1 requires under the base64) turns into a space, so a client using HTTP Basic with its right secret gets 401 invalid_client; credentials in the body work.',
    round: 18,
  },
  {
    name: 'token-expires-in-milliseconds',
    rule: 'oauth.token.response',
    how: 'The token response gives expires_in in milliseconds (86400000, a Date arithmetic left unscaled) while the token lives 86400 seconds (its exp claim): RFC 6749 5.1 defines expires_in as the lifetime in seconds, so a client would hold an expired token for a thousand times its life.',
    round: 18,
  },
  {
    name: 'token-client-id-case-insensitive',
    rule: 'oauth.token.bad-client',
    how: "Clients are looked up under a case-insensitive collation: a client_id that differs from a registered one only in letter case, with that client's secret, authenticates and gets a token instead of 401 invalid_client for a client the server does not know.",
    round: 18,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-signature-trailing-chars-ignored',
    rule: 'auth.jwt.signature',
    how: 'The signature segment is decoded into a buffer of the key size and the rest ignored: a valid JWT with base64url characters appended to its signature (…sig + "AAAA", a signature that is not the one signed) is admitted on every operation instead of refused 401.',
    round: 18,
  },
  {
    name: 'bearer-list-first-credentials-accepted',
    rule: 'auth.bearer.malformed',
    how: 'The Authorization header is read as a comma-separated list and its first member taken: "Bearer <jwt>, Basic Zm9vOmJhcg==" (not the one credentials RFC 9110 11.6.2 and RFC 6750 2.1 allow) is admitted instead of refused 401.',
    round: 18,
  },
  {
    name: 'events-accepts-read-event-streams',
    rule: 'auth.scope.enforced',
    how: 'GET /events takes the scope of event streams for its own (one scope constant shared by the two event routes): a token narrowed to read:event_streams, without read:events, opens the events stream instead of being refused 403.',
    round: 18,
  },
  {
    name: 'token-sets-user-lookup-before-scope',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The token-set listing loads the user before it checks the scope: a valid token without read:federated_connections_tokens asking for a user that does not exist gets 404 instead of the documented 403 (a user that exists still gets 403).',
    round: 18,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-status-cut-at-nul',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is compared as a C string: "active\\u0000" or "paused\\u0000x" (not values of the enum) is read up to the NUL, accepted and moves the experiment instead of being refused.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'transition-id-prefix-lookup',
    rule: 'experiments.transition.same-experiment',
    how: "The experiment of a move is looked up with LIKE '<id>%': an id no experiment has that begins an existing id (an experiment id with its last characters cut) moves and answers that experiment instead of being refused as unknown.",
    needs: 'writes',
    round: 18,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-default-for-client-id-null',
    rule: 'client-grant.types',
    how: 'A default_for grant (it has no client) is answered with client_id: null (the nullable foreign key serialised) next to default_for, instead of leaving client_id out; client_id is a string.',
    round: 18,
  },

  // ------------------------------------------------------------ GET /events
  {
    name: 'from-timestamp-days-in-month-parity',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp days are checked against month lengths computed as 30 + (month mod 2): 31 August, 31 October and 31 December (2025-12-31T00:00:00Z, valid RFC 3339) are refused 400, while 31 September and 31 November are accepted and roll over.',
    round: 18,
  },
  {
    name: 'sse-data-split-on-unicode-line-separators',
    rule: 'events.message.data-json',
    how: 'Data lines are split with a line splitter that also breaks at U+2028, U+2029 and U+0085 (which JSON leaves unescaped): an event whose object holds one (a user named with U+2028) goes out over two data lines, which a client joins with a line feed into text that is not JSON.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'context-connection-null-when-absent',
    rule: 'events.context.types',
    how: 'Events not caused through a connection (organization.*, group.* and the like) carry data.context.connection: null instead of leaving it out; context.connection is an object of strings where present.',
    round: 18,
  },
  {
    name: 'event-type-group-member-deleted-refused',
    rule: 'events.filter.unknown-rejected',
    how: 'The allow-list of event types spells group.member.removed (by analogy with organization.connection.removed) instead of group.member.deleted: event_type=group.member.deleted, a listed type, is refused 400.',
    round: 18,
  },

  // ------------------------------------------------------ GET /event-streams
  {
    name: 'event-streams-walk-ends-one-early',
    rule: 'event-streams.list.next.no-gap',
    how: 'Whether more streams follow is computed as start + take < total - 1: a page that ends on the last-but-one stream has no next, so with take 1, 2, 4, 8, 17, 34 or 68 (take dividing the count less one) the walk stops before the last stream, which is never listed.',
    round: 18,
  },
  {
    name: 'event-streams-take-limits-subscription-rows',
    rule: 'event-streams.list.take.page-size',
    how: 'take is applied as the LIMIT of the streams joined with their subscriptions (one row per subscription): a page holds the streams whose subscriptions fit in take rows, fewer than take streams while more follow (take=10 gives about 5).',
    round: 18,
  },

  // ------------------------------------------------------ custom signing keys
  {
    name: 'keys-form-latin1',
    rule: 'custom-signing-keys.put.form',
    how: 'Form-encoded JWKS bodies are percent-decoded as ISO-8859-1: a kid with a non-ASCII letter sent form-encoded (clé as cl%C3%A9) is stored and answered as clÃ©; the same JWKS as JSON is right.',
    needs: 'writes',
    round: 18,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-length-after-json-escaping',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is counted on the value as a JSON string literal (escapes included): a value of at most 2000 characters holding double quotes, backslashes or line breaks (each escaped to two characters) is refused 400.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'custom-text-length-counts-display-width',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit counts display columns (East Asian wide and fullwidth characters and emoji count two): a value of 2000 characters or fewer with CJK text (1001 × 漢) is refused 400.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'custom-text-stored-cut-at-2000-units',
    rule: 'custom-text.put.resulting-map',
    how: 'Values pass the 2000-character check but are stored in a column of 2000 UTF-16 units: a value of at most 2000 characters with emoji (more than 2000 units) is accepted and stored cut, its end lost (a pair split in half), so the answered map is not the one set.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'custom-text-escaped-markup-text-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Character references are decoded before the markup check: plain text that shows markup as text ("Type &lt;script&gt; to embed", which a browser displays and never runs) is refused 400 as a <script> element.',
    needs: 'writes',
    round: 18,
  },
  {
    name: 'custom-text-check-stops-at-nul',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML check reads a value as a C string, up to its first U+0000, while the whole value is stored: "Hi\\u0000<script>alert(1)</script>" (the HTML tokenizer skips the NUL and runs the script) is stored and answered as given.',
    needs: 'writes',
    round: 18,
  },

  // -------------------------------------------------------------- HTTP layer
  {
    name: 'accept-html-preferred-gets-html',
    rule: 'http.json-bodies',
    how: 'GET /event-streams/{id} negotiates a view: when the Accept header lists text/html first (a browser-style Accept: text/html,application/json;q=0.9), the stream is answered as an HTML page (text/html) instead of JSON.',
    round: 18,
  },
  {
    name: 'payload-too-large-html',
    rule: 'http.json-error-bodies',
    how: 'A request body over the size limit is refused by the front server with its own 413 page (text/html "413 Request Entity Too Large") on the experiment move and the two PUTs, instead of a JSON error; the other errors stay JSON.',
    needs: 'writes',
    round: 18,
  },
] as const satisfies readonly Fault[];
