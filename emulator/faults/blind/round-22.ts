/**
 * Blind round 22: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 22`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round22 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-no-store-only-on-slashless-route',
    rule: 'oauth.token.response',
    how: 'The token endpoint is registered twice, /oauth/token with the hook that sets Cache-Control: no-store and Pragma: no-cache, and the alias /oauth/token/ without it: the token response at the documented path with its trailing slash carries no Cache-Control: no-store, which RFC 6749 5.1 requires of every response holding a token.',
    round: 22,
  },
  {
    name: 'token-basic-extra-space-refused',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic credentials are read as header.split(" ")[1]: an Authorization header with more than one space between the scheme and the token68 (Basic  <b64>, allowed by RFC 9110 11.4, credentials = auth-scheme 1*SP token68) yields an empty credential and the right client id and secret are refused 401 invalid_client instead of getting a token.',
    round: 22,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-signature-std-base64-accepted',
    rule: 'auth.bearer.malformed',
    how: 'The bearer token\'s segments are decoded with a base64 decoder that reads both alphabets (Buffer.from(seg, "base64")): the run\'s own token with "-" and "_" spelt "+" and "/" (standard base64, RFC 4648 4), which is no JWS compact serialisation (RFC 7515 2, 7.1: base64url) and so no JWT, is accepted 200 as the token it decodes to, instead of refused 4xx.',
    round: 22,
  },
  {
    name: 'scope-map-keyed-by-raw-path',
    rule: 'auth.scope.enforced',
    how: "The scopes a request needs are looked up by matching the raw request path against the operations' path templates, while the router percent-decodes the path first: an operation path spelt with a percent-encoded unreserved character in a fixed segment (/api/v2/client-grant%73/{id}, RFC 3986 2.3: the same resource) is routed to the operation but matches no template, so no scope is required and a token holding none of the in-scope scopes (read:stats only) is answered 200 instead of refused 403.",
    round: 22,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-go-duration',
    rule: 'rate-limit.header-values',
    how: 'On the 429 the limiter\'s refusal path writes X-RateLimit-Reset as the time left formatted as a Go time.Duration string ("37s", "1m0s"), not a number: the header no longer describes the reset as a number in any numeric form.',
    needs: 'rate-limit-probe',
    round: 22,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-404-message-unescaped',
    rule: 'http.json-error-bodies',
    how: 'The 404 of an unknown user is written from a string template that puts the decoded user id into the message without JSON escaping ({"message":"The user ${id} does not exist."}): for an id holding a quotation mark or a backslash (/users/a%22b/federated-connections-tokensets) the body, sent as application/json, is not JSON (RFC 8259 7: both MUST be escaped in a string).',
    round: 22,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-updated-at-basic-format',
    rule: 'timestamps.date-time',
    how: 'A move stamps updated_at with an ISO 8601 basic-format formatter (yyyyMMdd\'T\'HHmmss\'Z\', the compact form of signed-request dates: 20261127T062000Z): ISO 8601, but not the RFC 3339 date-time (5.6: full-date "-" separators, partial-time ":" separators) the document requires of every timestamp.',
    needs: 'writes',
    round: 22,
  },
  {
    name: 'transition-json5-accepted',
    rule: 'http.json-request-bodies',
    how: 'The body of POST …/status is read by a relaxed JSON5-style parser: {"status":"active",} (trailing comma), {\'status\':\'active\'} (single quotes) and bodies with // or /* */ comments, none of them JSON text (RFC 8259 2, 4, 7), are accepted and the move made (200) instead of refused 400.',
    needs: 'writes',
    round: 22,
  },
  {
    name: 'transition-answer-id-lowercased',
    rule: 'experiments.transition.same-experiment',
    how: 'Experiments are looked up under a lower-cased key (a case-insensitive store) and the answer of a move carries that key as its id: the experiment answered for exp_PS6UMRGz5AUo2uwt is exp_ps6umrgz5auo2uwt, not the experiment named in the path (and its id may leave the pattern, a lower-cased L being l).',
    needs: 'writes',
    round: 22,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-answer-trailing-comma',
    rule: 'http.json-bodies',
    how: 'The grant is serialised by hand, each member followed by a comma that is trimmed only after allow_all_scopes, the last member of the schema: a grant without allow_all_scopes (the fixture grant) is answered {…,"authorization_details_types":["order_details"],} with Content-Type application/json, which is not JSON (RFC 8259 4: no trailing comma).',
    round: 22,
  },
  {
    name: 'path-invalid-utf8-octets-dropped',
    rule: 'http.path-id.percent-encoding',
    how: 'The request path is percent-decoded by a UTF-8 decoder that silently drops octets that are not UTF-8 (iconv //IGNORE): /client-grants/{id}%FF (or {id}%80, a lone continuation octet) names the grant {id} and is answered 200 with it, where a segment that is no percent-encoding of UTF-8 (RFC 3986 2.5) names no resource.',
    round: 22,
  },

  // -------------------------------------------------------- event streams
  {
    name: 'event-streams-list-configuration-json-string',
    rule: 'event-stream.types',
    how: 'The list query reads destination.configuration from its JSON column as text and answers it unparsed: each stream of GET /event-streams carries "configuration":"{\\"webhook_endpoint\\":…}", a string, not the object with webhook_endpoint and webhook_authorization (GET /event-streams/{id} parses it and is right).',
    round: 22,
  },
  {
    name: 'take-unchecked-with-from',
    rule: 'event-streams.list.take.range',
    how: 'take is range-checked only on the first page: with a from cursor the page route reads take as any integer, so from=<next>&take=0, take=101 or take=500 is answered 200 (an empty page, or a page of 101 or more streams) instead of refused 4xx.',
    round: 22,
  },
  {
    name: 'event-stream-get-disabled-status-null',
    rule: 'event-stream.status.enum',
    how: 'The detail view maps the stored state to the status enum with a lookup that knows only the active state: a disabled stream read by GET /event-streams/{id} is answered with "status": null, not enabled or disabled (the list maps it right).',
    round: 22,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'offsets-base64-padded',
    rule: 'events.resume.no-loss',
    how: 'Offsets are written with a padded base64url encoder (Java Base64.getUrlEncoder() without withoutPadding()), while from is validated as unpadded base64url: every offset whose v1:<sequence> is not a multiple of three bytes long ends in = or == and, passed back as from, is refused 400 invalid_cursor, so resuming after those events is impossible.',
    round: 22,
  },
  {
    name: 'heartbeat-without-event-field',
    rule: 'events.message.event-field',
    how: 'Heartbeats are written with an empty event field (the writer leaves the name of the cursor-only message blank): an SSE parser dispatches them with the default type message (HTML Standard 9.2.6: an empty event type buffer), which is no documented event type, error or offset-only.',
    round: 22,
  },
  {
    name: 'event-type-glob-accepted',
    rule: 'events.filter.unknown-rejected',
    how: "event_type is matched as a glob pattern (the message bus's own subscription syntax): event_type=user.* or organization.*.added, which is not one of the listed values, is accepted and streams the matching types instead of being refused 4xx.",
    round: 22,
  },
  {
    name: 'live-geo-names-null-for-loopback',
    rule: 'events.context.types',
    how: "The geo lookup of the caller's address finds nothing for a loopback or private address and the event is built from nullable columns: events caused by writes from such an address carry context.request.geo continent_code, country_code, country_name, subdivision_code, subdivision_name, city_name and time_zone null and latitude and longitude null, not strings and numbers.",
    needs: 'writes',
    round: 22,
  },
  {
    name: 'organization-event-type-from-collection',
    rule: 'events.message.event-field',
    how: 'The event type of an organization write is built from the route\'s collection name (organizations + ".created"): POST and DELETE /organizations emit organizations.created and organizations.deleted (SSE event field and envelope type alike), which are not among the documented event types.',
    needs: 'writes',
    round: 22,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-json-nan-accepted',
    rule: 'http.json-request-bodies',
    how: 'The JSON body of PUT /keys/custom-signing is read by a decoder that accepts the literals NaN, Infinity and -Infinity (Python json.loads\' default): {"keys":[{…,"ext":NaN}]}, which is not JSON text (RFC 8259 6: they are not permitted), is accepted and the keys set (the value stored as null) instead of refused 400.',
    needs: 'writes',
    round: 22,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-script-stripped-once',
    rule: 'custom-text.put.html.restricted',
    how: 'Script elements are not refused but stripped by one non-recursive pass of a regex (value.replace(/<\\/?script\\b[^>]*>/gi, "")) and the result stored unchecked: <scr<script>ipt>alert(1)</scr</script>ipt> becomes <script>alert(1)</script> and is stored and answered with the script.',
    needs: 'writes',
    round: 22,
  },
  {
    name: 'custom-text-href-idn-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Hyperlinks are checked with an ASCII-only URL pattern (https?://[A-Za-z0-9.-]+…): a value with <b>, <i> and <a href="https://bücher.example/">, an absolute https hyperlink with an internationalised host name, is refused 400 instead of accepted.',
    needs: 'writes',
    round: 22,
    disputed:
      'Which URLs a hyperlink may hold is not shown: https://bücher.example/ is an IRI (RFC 3987), not a URI (RFC 3986 allows ASCII alone in a host), and a server that holds hrefs to URIs still takes hyperlinks, the same host included in its A-label form (https://xn--bcher-kva.example/, which this fault takes).',
  },
  {
    name: 'custom-text-json-quoted-charset-415',
    rule: 'custom-text.put.json',
    how: 'The media type parameters are split on ; and = without reading quoted-strings: Content-Type: application/json; charset="utf-8" (RFC 9110 8.3.1, 5.6.6: a quoted value equal to the token utf-8) is taken for an unknown charset "utf-8" (quotes kept) and refused 415 instead of read as JSON.',
    needs: 'writes',
    round: 22,
  },
  {
    name: 'custom-text-page-regex-unanchored',
    rule: 'custom-text.put.page.enum',
    how: 'The page is checked by an unanchored pattern (new RegExp("get-started").test(page)): pages that only contain the allowed value (get-started-now, x-get-started) are accepted instead of refused 4xx.',
    needs: 'writes',
    round: 22,
  },
  {
    name: 'custom-text-dotted-key-nested',
    rule: 'custom-text.put.resulting-map',
    how: 'The text map is stored with a path setter (lodash set(map, key, value)): a text key holding a dot ("intro.title") is stored and answered as a nested object {"intro":{"title":…}}, so the answer no longer maps the key sent to the value sent.',
    needs: 'writes',
    round: 22,
  },
] as const satisfies readonly Fault[];
