/**
 * Blind round 9: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 9`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round9 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-secret-compared-ignoring-case',
    rule: 'oauth.token.bad-client',
    how: 'The client secret is compared ignoring letter case (a case-insensitive collation): the right secret with its letters in the other case authenticates the client instead of failing with invalid_client.',
    round: 9,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'alg-none-mixed-case-accepted',
    rule: 'auth.jwt.signature',
    how: 'The verifier refuses alg "none" by an exact, case-sensitive comparison and then lower-cases the alg to pick a verifier: an unsigned JWT whose header says "None" or "NONE" (empty signature) is admitted on every operation.',
    round: 9,
  },
  {
    name: 'challenge-only-for-presented-token',
    rule: 'http.unauthorized.challenge',
    how: 'WWW-Authenticate is sent only with a 401 for a token that was presented and failed: a request with no Authorization header at all gets 401 without any challenge (RFC 6750 3 requires it there too).',
    round: 9,
  },
  {
    name: 'scope-decision-cached-per-client',
    rule: 'auth.scope.enforced',
    how: 'The scope decision is cached per client and operation: once a token of a client passed the scope check of an operation, every other token of that client (one narrowed to scopes the operation does not take) is admitted to it.',
    round: 9,
  },

  // ------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-limit-remaining-swapped',
    rule: 'rate-limit.header-values',
    how: 'The 429 path builds its own headers with the arguments swapped: X-RateLimit-Limit says 0 and X-RateLimit-Remaining says the limit; answers within the limit are right.',
    needs: 'rate-limit-probe',
    round: 9,
  },
  {
    name: 'rate-limit-reset-json-quoted',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is written through JSON.stringify of its string value, so it carries the quotes ("1767225600" with the double quotes), which is not a number of epoch seconds.',
    round: 9,
  },

  // -------------------------------------------------------- token sets
  {
    name: 'token-set-null-dates-epoch',
    rule: 'token-sets.list.active-only',
    how: 'A null expires_at or last_used_at is serialised through new Date(null): a token set that never expires is answered with expires_at 1970-01-01T00:00:00.000Z, so the "active" listing shows a set expired long ago.',
    round: 9,
  },

  // ------------------------------------------------------- experiments
  {
    name: 'transition-paused-back-to-draft',
    rule: 'experiments.transition.draft-rejected',
    how: 'The transition table lets a paused experiment go back to draft (to be edited again): a move of the paused experiment to draft is made (200, status draft); from the other states draft is still refused.',
    needs: 'writes',
    round: 9,
  },
  {
    name: 'transition-id-undecoded',
    rule: 'http.path-id.percent-encoding',
    how: 'The experiment move looks the id up as written in the raw path: an id with an unreserved character percent-encoded (exp%5F…, equivalent per RFC 3986 2.3 and 6.2.2.2) answers 404 instead of moving that experiment.',
    needs: 'writes',
    round: 9,
  },

  // ------------------------------------------------------ client grants
  {
    name: 'client-grant-default-for-resolved-to-caller',
    rule: 'client-grant.client-id-default-for.exclusive',
    how: 'A default_for grant is answered resolved for the caller: client_id is filled with the client id of the token that read it, next to default_for third_party_clients.',
    round: 9,
  },

  // ------------------------------------------------------------- events
  {
    name: 'filtered-replay-grouped-by-type',
    rule: 'events.resume.order',
    how: 'With two or more event_type values, the replayed events (after from, or since from_timestamp) come from one store query per type, concatenated: all events of the first type, then all of the second, not in stream order.',
    round: 9,
  },
  {
    name: 'live-envelope-id-number',
    rule: 'events.payload.envelope',
    how: "Events appended after start (by writes, live or replayed later) carry the envelope's id as the log's sequence number (a JSON number, an autoincrement column) instead of a string; the seeded history is right.",
    needs: 'writes',
    round: 9,
  },
  {
    name: 'connection-created-scopes-supported-space-joined',
    rule: 'events.connection-created.object',
    how: 'In connection.created, options.oidc_metadata.scopes_supported is a space-separated string (as an OAuth scope parameter is written), not an array of string.',
    round: 9,
  },
  {
    name: 'event-type-filter-capped-at-10',
    rule: 'events.filter.only-requested',
    how: 'More than 10 event_type values (a cap copied from another filter API) are refused 400, though every value is a listed type: a client asking for 11 or more types gets no stream.',
    round: 9,
  },
  {
    name: 'from-with-timestamp-refused',
    rule: 'events.from-and-timestamp',
    how: 'A request that gives both from and from_timestamp is refused 400 (the two read as conflicting start positions) instead of resuming from the cursor, which the document says later requests use.',
    round: 9,
    disputed:
      'Whether a request giving both from and from_timestamp is taken is not stated: the document says from_timestamp is for the initial query, when no cursor exists, and later requests use the cursor. The suite checks that a target taking both resumes from the cursor, and skips where it refuses them.',
  },

  // ------------------------------------------------------ event streams
  {
    name: 'event-streams-list-names-ellipsized',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams answers names over 64 characters cut to 63 and an ellipsis (…), a display column width; GET /event-streams/{id} answers the full name, so the list and the read disagree.',
    round: 9,
  },
  {
    name: 'keyset-cursor-id-order',
    rule: 'event-streams.list.next.no-gap',
    how: 'Pages are in creation order, but a page asked with from selects the streams whose id sorts after the cursor stream id (a keyset query on the wrong key): streams created later with a smaller id are never listed, others come twice.',
    round: 9,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-undocumented-members-dropped',
    rule: 'custom-signing-keys.put.json',
    how: 'Keys are stored with only the members the document lists (kty, kid, use, key_ops, n, e, x, y, x5u, x5c, x5t, x5t#S256): crv and alg are dropped, so an EC key is answered without its curve (RFC 7518 6.2.1.1: crv is required).',
    needs: 'writes',
    round: 9,
  },

  {
    name: 'keys-form-decoded-before-split',
    rule: 'custom-signing-keys.put.form',
    how: 'A form body is percent-decoded whole before it is split on & and =: a value holding = or & sent as %3D or %26 (the = padding of a standard-base64 x5c certificate, a query in x5u) is cut there; the same JWKS as JSON is stored whole.',
    needs: 'writes',
    round: 9,
  },

  // -------------------------------------------------------- custom text
  {
    name: 'custom-text-length-counts-text-not-markup',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is counted on the text with the tags stripped (the rendered length): a value of more than 2000 characters whose text without markup is within 2000 is accepted and stored.',
    needs: 'writes',
    round: 9,
  },
  {
    name: 'custom-text-named-entities-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Values are checked with an XML parser that knows only the five XML entities: an HTML named character reference such as &nbsp; or &copy; in plain text or basic markup is refused 400.',
    needs: 'writes',
    round: 9,
  },
  {
    name: 'custom-text-uppercase-tags-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list is matched case-sensitively against the tag names as written: <B>bold</B> or <Strong> (HTML tag names are case-insensitive) is refused 400.',
    needs: 'writes',
    round: 9,
  },
  {
    name: 'custom-text-style-check-case-sensitive',
    rule: 'custom-text.put.html.restricted',
    how: 'The style attribute is searched for url(, expression( and script URLs in lower case only: <span style="background:URL(JAVASCRIPT:alert(1))"> or width:EXPRESSION(…) (CSS is case-insensitive there) is stored and answered as given.',
    needs: 'writes',
    round: 9,
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'allow-header-lower-case-methods',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 names the methods in lower case ("get, put"), as a router keeps them; method names are case-sensitive (RFC 9110 9.1), so it lists no method the path supports.',
    round: 9,
  },
  {
    name: 'custom-text-answer-latin1',
    rule: 'http.json-bodies',
    how: 'The PUT custom text answer is encoded as ISO-8859-1 (Content-Type application/json; charset=iso-8859-1): a non-ASCII value (é) goes out as one byte that is not UTF-8 (RFC 8259 8.1: JSON exchanged MUST be UTF-8).',
    needs: 'writes',
    round: 9,
  },
] as const satisfies readonly Fault[];
