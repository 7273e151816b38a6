/**
 * Blind round 11: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 11`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round11 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-response-201-created',
    rule: 'oauth.token.response',
    how: 'The token endpoint answers a successful token request 201 Created (the token read as a created resource) instead of the 200 (OK) of RFC 6749 5.1; the body and headers are right.',
    round: 11,
  },
  {
    name: 'token-grant-type-case-insensitive',
    rule: 'oauth.token.grant-type',
    how: 'grant_type is compared ignoring case: CLIENT_CREDENTIALS or Client_Credentials (not the value RFC 6749 4.4.2 requires, so an unsupported grant type per 5.2) gets a token instead of 400.',
    round: 11,
  },
  {
    name: 'token-secret-prefix-accepted',
    rule: 'oauth.token.bad-client',
    how: "The client secret is compared over the presented secret's length only (strncmp): a non-empty prefix of the right secret (the secret with its last characters cut) authenticates the client and gets a token.",
    round: 11,
  },
  {
    name: 'token-scope-narrowing-drops-last',
    rule: 'oauth.token.accepted',
    how: 'A token request with a scope parameter is issued all requested scopes but the last (an off-by-one loop): a token asked for exactly the scope an operation requires holds none and is refused 403.',
    round: 11,
    disputed:
      'The token is refused because it does not hold the scope, and the token response says so (its scope lists what was granted): RFC 6749 3.3 lets the server "fully or partially ignore the scope requested by the client", provided it names the scope issued, and which scopes a narrowed request is granted is not shown ("Token lifetime and claim contents: not shown"). An operation refusing a token without its scope is right.',
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-quoted-token-accepted',
    rule: 'auth.bearer.malformed',
    how: 'Authorization: Bearer "<jwt>" (the token in double quotes, which the RFC 6750 2.1 b64token syntax does not allow) is read with the quotes stripped and admitted instead of refused 401.',
    round: 11,
  },
  {
    name: 'events-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'GET /events refuses a missing or invalid token 401 without a WWW-Authenticate header (RFC 9110 11.6.1, RFC 6750 3); the other operations send the Bearer challenge.',
    round: 11,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-floored',
    rule: 'rate-limit.header-values',
    how: "X-RateLimit-Reset is the window's end rounded down to the second instead of up: it names a time up to a second before the window ends, so a request sent at the reset time is refused 429 again.",
    needs: 'rate-limit-probe',
    round: 11,
    disputed:
      'As rate-limit-reset-clock-aligned (round 8): the document says only that the headers "describe the rate limit"; the unit of X-RateLimit-Reset, its rounding, and that a request at the named second is admitted are not shown. The suite reads a Reset up to 1 s before the window ends as rounding to the second, which a server may do.',
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-none-404',
    rule: 'token-sets.list.success',
    how: 'A user who exists but holds no token set (a user just created) is answered 404 as if the user did not exist (no row from the token set query), instead of 200 with an empty array.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'token-sets-unknown-user-403',
    rule: 'token-sets.list.unknown-user',
    how: 'The token-set listing of a user that does not exist is answered 403 (not allowed to see that user) instead of the documented 404.',
    round: 11,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-charset-value-case-sensitive-415',
    rule: 'http.json-request-bodies',
    how: 'The experiment move compares the charset parameter as written: Content-Type application/json; charset=UTF-8 (charset values are case-insensitive, RFC 9110 8.3.2) is refused 415; charset=utf-8 or none passes.',
    needs: 'writes',
    round: 11,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-scope-space-joined',
    rule: 'client-grant.types',
    how: "The grant's scope is answered as one space-separated string (the OAuth scope parameter's form) instead of an array of strings.",
    round: 11,
  },
  {
    name: 'client-grant-id-case-insensitive',
    rule: 'client-grants.get.same-grant',
    how: 'Grants are looked up under a case-insensitive collation: GET /client-grants/{an id with its letters in another case} answers the grant whose id differs from the one asked for, instead of 404.',
    round: 11,
  },
  {
    name: 'client-grant-organization-usage-uppercase',
    rule: 'client-grant.organization-usage.enum',
    how: 'organization_usage is serialised by its enum constant name (DENY, REQUIRE) instead of the documented deny, allow, require.',
    round: 11,
  },

  // -------------------------------------------------------------- events
  {
    name: 'event-type-validated-by-pattern',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type is validated by shape (a known resource, a dot, an action) rather than against the list: user.frobbed or organization.renamed is accepted (it matches nothing) while not-a-type is refused.',
    round: 11,
  },
  {
    name: 'from-timestamp-first-request-only',
    rule: 'events.from-timestamp.start',
    how: '"Start position for the initial query only" read as the client\'s first query: from_timestamp is honoured on a client\'s first GET /events and ignored afterwards (the stream starts at the latest events).',
    round: 11,
  },
  {
    name: 'heartbeat-offset-not-resumable',
    rule: 'events.resume.heartbeat-offset',
    how: "offset-only heartbeats carry a position cursor of another kind than events' offsets, which from does not take: resuming from a heartbeat's offset is refused 400.",
    round: 11,
  },
  {
    name: 'connection-created-single-item-arrays-collapsed',
    rule: 'events.connection-created.object',
    how: 'connection.created objects pass through a converter that collapses one-item arrays: realms, id_token_signed_response_algs and one-item oidc_metadata lists come as a string instead of an array of strings.',
    round: 11,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-get-username-masked',
    rule: 'event-streams.get.same-stream',
    how: "GET /event-streams/{id} masks the webhook authorization's username (hook-user-1 as ho*********) while the list shows it: the read disagrees with the same stream in the list.",
    round: 11,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-rsa-modulus-zero-prefixed',
    rule: 'custom-signing-keys.put.json',
    how: 'RSA keys are answered with n re-encoded from a signed big integer: a zero octet before the modulus, which RFC 7518 6.3.1.1 forbids, so the answered key is not the key set.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'keys-absent-as-empty',
    rule: 'custom-signing-keys.put.min-one-key',
    how: 'A body without a keys member ({}) is read with keys defaulting to an empty array and stored as an empty set (200 { keys: [] }); an explicit empty array is still refused.',
    needs: 'writes',
    round: 11,
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-limit-counts-key',
    rule: 'custom-text.put.value.max-length',
    how: 'Each entry is stored as a key=value row of at most 2000 characters: a value of 2000 characters (or a little less, with its key) is refused 400.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'custom-text-style-entities-not-decoded',
    rule: 'custom-text.put.html.restricted',
    how: 'Style attributes are searched for url(, expression( and script URLs as written, without decoding character references: style="background:&#117;rl(https://…)" (url( to a browser) is stored.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'custom-text-form-controls-allowed',
    rule: 'custom-text.put.html.restricted',
    how: 'Tags are checked against a deny-list of script-capable elements: form, input, button, textarea and select (neither basic styling tags nor hyperlinks) are stored.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'custom-text-nested-tags-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The HTML check is a flat pattern of allowed tags around plain text: nested basic markup (<b><i>x</i></b>, a link inside <p>) is refused 400.',
    needs: 'writes',
    round: 11,
  },
  {
    name: 'custom-text-language-region-accepted',
    rule: 'custom-text.put.language.enum',
    how: 'The language is matched by its primary subtag: en-US or en_GB (not the one allowed value en) is accepted and the text stored under it.',
    needs: 'writes',
    round: 11,
  },
] as const satisfies readonly Fault[];
