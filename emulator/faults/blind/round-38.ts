/**
 * Blind round 38: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 38`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round38 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-body-client-id-issues-for-named-client',
    rule: 'oauth.token.bad-client',
    how: "The token endpoint authenticates the HTTP Basic credentials, but the grant step that follows looks the client up by the client_id body parameter when there is one (params.client_id ?? authenticated.id, written for body authentication), so a request that authenticates one client by Basic and names another registered client in client_id (the limited client's id and secret by Basic, client_id=<the full client's id> in the form) is issued a token of the named client, with its scopes and its sub, which never authenticated (RFC 6749 2.3, 3.2.1: the client is the one authenticated; 5.2: a failed client authentication gets invalid_client), where the mismatch is refused 400; Basic requests without client_id, or naming the authenticated client, and body authentication are answered as before.",
    round: 38,
  },
  {
    name: 'token-unrecognised-parameter-refused',
    rule: 'oauth.token.endpoint',
    how: 'The token request is validated against a strict schema (additionalProperties: false over grant_type, client_id, client_secret, audience and scope): the documented client-credentials request with any other parameter beside them (resource, an RFC 8707 resource indicator; organization; a tracking field a client library adds) is refused 400 invalid_request "Unrecognized parameter", where RFC 6749 3.2 says "The authorization server MUST ignore unrecognized request parameters" and the documented request gets a token; requests that carry only the five parameters are answered as before.',
    round: 38,
  },
  {
    name: 'token-form-malformed-escape-500',
    rule: 'oauth.token.bad-client',
    how: "The token endpoint's form reader decodes each name and value with decodeURIComponent, outside the try block that maps parse failures to invalid_request: a form body holding a % that does not start a valid UTF-8 escape (client_secret=abc%zz, %E9 alone, a secret with a stray % that the client did not encode) throws URIError and is answered 500 server_error, where wrong credentials get invalid_client (401) and a malformed request 400 (RFC 6749 5.2; the WHATWG urlencoded parser leaves such a % as it is); well-formed forms and JSON bodies are read as before.",
    round: 38,
  },
  {
    name: 'token-narrowed-token-opaque-reference',
    rule: 'oauth.token.jwt',
    how: 'Tokens narrowed with the scope parameter are minted by the down-scoping service, which hands out opaque references (opq_<hex>, resolved by the API through an introspection table) instead of JWTs: a token response to a request with scope (scope=read:federated_connections_tokens) carries an access_token that is no JWS or JWE compact serialisation, where the document\'s bearer token "is a JWT" (RFC 7519 1); the reference works on the operations, and tokens issued without scope are JWTs as before.',
    round: 38,
  },
  // ------------------------------------------------------ bearer, JWT
  {
    name: 'bearer-signing-input-rebuilt-from-decoded-parts',
    rule: 'auth.jwt.signature',
    how: 'The bearer verifier decodes the protected header and the claims first and verifies the signature over a signing input rebuilt from them (base64url of their re-serialised JSON) rather than over the two segments as received: a token whose header or payload segment was re-encoded without changing its JSON value (white space added in the header JSON, {"alg": "RS256", …}; a member written with a \\u escape; non-canonical trailing bits in a base64url segment), so that its signature does not verify over what was sent (RFC 7515 5.2 step 8), is admitted (200), where a JWT whose signature is invalid gets 401; tokens whose claims were changed still fail, and tokens as issued are admitted as before.',
    round: 38,
  },
  // ------------------------------------------------------------- scopes
  {
    name: 'client-grant-owner-reads-without-scope',
    rule: 'auth.scope.enforced',
    how: "GET /client-grants/{id} lets a client read the grants that name it without read:client_grants (an ownership shortcut of the console's self-service view): a token of the client a grant belongs to, narrowed to scopes outside the operation's (the full client's token asked with scope=read:users, reading the fixture grant, whose client_id is the full client) is answered 200 with the grant, where a token that holds none of the in-scope scopes is refused 403; grants of other clients, and tokens of other clients, are refused as before.",
    round: 38,
  },
  {
    name: 'scope-decision-memoised-per-token',
    rule: 'auth.scope.enforced',
    how: "The authorisation layer memoises a token's scope decision by its jti, without the operation in the key (\"this token is authorised\"): once a token passed the scope check of one operation, it is admitted to every other without its scopes being read, so a token narrowed to read:client_grants that has read a client grant is then answered 200 by GET /event-streams, GET /events, the token-set listing and the writes, where a token holding none of an operation's in-scope scopes is refused 403; a token's first request, and tokens that never passed a check, are judged by their scopes as before.",
    round: 38,
  },
  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-forged-tokens-counted-on-claimed-jti',
    rule: 'token-sets.list.rate-limit.status',
    how: "The limiter runs before the signature check (to shield it) and keys a request by the jti its token claims, read without verifying it: requests with a forged or altered copy of a client's token (the same claims, another signature), each refused 401, are counted in the window of the real token, so that token's next request is answered 429 Too many requests after it made one request (with the rate-limited client, ten forged requests use up its window of ten), where only the token's own requests count towards its limit; tokens nobody forged are counted as before.",
    needs: 'rate-limit-probe',
    round: 38,
    disputed:
      "The document does not say what a limit counts: \"Numeric rate-limit values and windows: not shown\", and nothing names its key (a token, a client, an address, the tenant). A server that counts every request from an address, or for the tenant, refused ones included, lowers the real token's X-RateLimit-Remaining after forged requests just as this fault does, and conforms. Whether a request nobody authenticated may draw on a client's quota is a question for the document's owner.",
  },
  {
    name: 'rate-limit-only-first-request-over-refused',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter refuses when count === limit + 1, an equality where count > limit was meant: the first request over the limit in a window is answered 429 with the three headers, but every later one in the same window (the second, third, … over it) is answered 200 (X-RateLimit-Remaining 0), so a client that keeps going past its first 429 is served as many requests as it sends, where every request over the limit is answered 429 Too many requests; requests within the limit, and the first one over it, are answered as before.',
    needs: 'rate-limit-probe',
    round: 38,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-blocked-user-not-found',
    rule: 'token-sets.list.success',
    how: 'The listing loads the user through the query the login path uses, WHERE user_id = ? AND NOT blocked: after PATCH /users/{id} with {"blocked": true}, GET /users/{id}/federated-connections-tokensets answers 404 "The user does not exist" for a user that exists (a blocked user is still a user, and its active token sets are still held), where the listing of an existing user is 200 with its active token sets; users that are not blocked (and users unblocked again) are listed as before.',
    needs: 'writes',
    round: 38,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-body-prefiltered-by-raw-pattern',
    rule: 'experiments.transition.requested-status',
    how: 'A request filter in front of the move allows a body only when its raw text matches "status"\\s*:\\s*"(active|paused|completed|archived|draft)": a body that spells the member name or the status with JSON escapes ({"status":"\\u0061ctive"}, {"st\\u0061tus":"paused"}, {"status":"archiv\\u0065d"}, the same JSON value once parsed, RFC 8259 7) is refused 400 as a body without a valid status, and the experiment is not moved to the requested status; bodies written without escapes are moved as before.',
    needs: 'writes',
    round: 38,
  },
  {
    name: 'transition-lock-kept-after-refused-move',
    rule: 'experiments.transition.requested-status',
    how: 'The move takes a per-experiment lock (30 s lease) before it validates the body and releases it only on the success path (no finally): after a move of an experiment is refused by its handler (400 for a move to draft or an unknown status, 409 for a move the table does not allow), every move of that experiment for the next 30 s is answered 503 "Could not acquire the experiment lock" instead of being made, so a valid move (draft to active) right after a refused one fails, where a move to an allowed status moves the experiment; experiments whose last move succeeded, and other experiments, move as before.',
    needs: 'writes',
    round: 38,
  },
  // ----------------------------------------------------------- client grants
  {
    name: 'client-grant-enrichment-memo-keyed-by-audience',
    rule: 'client-grants.get.same-grant',
    how: "The read joins each grant with its resource server's definition through a memo keyed by the audience, and the memo holds the whole enriched grant, not only the resource-server part: after one grant of an audience was read, a read of another grant of the same audience (the fixture grant and the organisation grant both name https://api.conformance.test/orders) is answered the first grant, whose id is not the one asked for; grants of an audience read for the first time, and every grant of an audience no other grant has, are answered as before.",
    round: 38,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'events-offset-bound-to-token',
    rule: 'events.resume.no-loss',
    how: "Offsets carry a tag bound to the token that opened the stream (<offset>.<8 characters of a hash of its jti>, meant to keep one consumer from reading another's position), and a from cursor whose tag is not that of the request's token is refused 400 invalid_cursor: a client that reconnects with a newly issued token (its token expired, or another token of the same client) cannot resume from any offset it was given, where an offset passed as from resumes the stream; a resume with the token that opened the stream is served as before.",
    round: 38,
  },
  {
    name: 'sse-astral-characters-cesu8',
    rule: 'events.message.data-json',
    how: 'The SSE writer encodes each message per UTF-16 code unit (CESU-8, as a modified-UTF-8 writer does): a message whose JSON payload holds a character outside the Basic Multilingual Plane (an emoji or a CJK extension character in a user name, a display name or metadata) goes out with each surrogate as its own 3-byte sequence (ED A0 BD ED B8 80 for U+1F600), which is not UTF-8, so a client decoding the stream as UTF-8 (WHATWG SSE: streams are UTF-8; RFC 8259 8.1) reads U+FFFD where the character was; messages holding only BMP characters are written as before.',
    needs: 'writes',
    round: 38,
  },
  {
    name: 'live-deletion-events-not-forwarded',
    rule: 'events.start.latest',
    how: 'The live fan-out is fed by the change feed of the rows it tracks, which a deletion leaves without a row to notify about: user.deleted, organization.deleted and connection.deleted caused after a stream connected never arrive on it (they are in the log, and a resume from an earlier offset delivers them), where an event caused after connecting without from arrives; creations and updates arrive live as before.',
    needs: 'writes',
    round: 38,
  },
  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-get-entity-cache-keyed-by-id',
    rule: 'event-streams.get.same-stream',
    how: "Resources loaded by the service go through one entity cache keyed by id alone (ids are prefixed and taken for unique across types), and GET /event-streams/{id} consults it before the event stream store: once a self-service profile was loaded (by a PUT of its custom text), GET /event-streams/<that profile's id> (ssp_… is 26 characters, the length an event stream id has) is answered 200 with the profile ({id, name}), which is no event stream, where the id names no event stream; ids of event streams, and ids of profiles not loaded, are answered as before.",
    needs: 'writes',
    round: 38,
  },
  {
    name: 'event-stream-id-nfkc-folded',
    rule: 'event-streams.get.same-stream',
    how: "GET /event-streams/{id} retries an id it does not find in its NFKC form (the search normaliser of the console): an id no stream has that is a stream's id in fullwidth characters (ｅｓｔ＿…, 26 code points, percent-encoded UTF-8 in the path) is answered 200 with the stream whose id is the ASCII one, not the id asked for, instead of the 404 of an unknown id; ids that exist, and ids whose NFKC form names no stream, are answered as before.",
    round: 38,
  },
  {
    name: 'event-streams-walk-position-kept-per-token',
    rule: 'event-streams.list.next.no-gap',
    how: 'The list keeps a paginator session per token (the position after the last page it served) and a page asked with from continues from that session, the cursor being read only when the token has none: two walks by one token that interleave (walk A with take=10 reads its first page, walk B with take=20 reads its first, walk A passes its next) continue from where the other left off, so walk A skips the streams 11 to 20 (and a page asked again with the same from is answered the page after it), where next passed as from gives the page after the stream it names; a single walk that asks each page once is paged as before.',
    round: 38,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-duplicate-member-first-wins',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The JSON body of PUT /keys/custom-signing is read by a streaming parser that keeps the first of duplicate member names: a key sent with a member twice ({"kty":"EC","kid":"old","kid":"new",…}) is stored and answered with the first value, where RFC 7517 4 says JWK parsers "MUST either reject JWKs with duplicate member names or use a JSON parser that returns only the lexically last duplicate member name" (as JSON.parse does); keys without duplicate members are stored as before.',
    needs: 'writes',
    round: 38,
  },
  {
    name: 'keys-private-member-check-on-raw-json',
    rule: 'custom-signing-keys.put.public-only',
    how: 'The private-member check of a JSON PUT is a scan of the raw body for the member names as written ("d":, "p":, "k": …): a key whose private member name is spelt with a JSON escape ({"kty":"EC",…,"\\u0064":"…"}, the member d once parsed, RFC 8259 7) passes the scan and is stored and answered with its private part, where a key sent with its private part is refused or stored without it; names written plainly, and form-encoded keys, are checked as before.',
    needs: 'writes',
    round: 38,
  },
  {
    name: 'keys-kid-unique-index-case-insensitive',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Keys are upserted by kid into a table whose unique index on kid has a case-insensitive collation: two keys of one set whose kids differ only in letter case ("Key-1" and "key-1"; RFC 7517 4.5: kid is a case-sensitive string) collapse into one, the later, so the answer and the stored set hold one key fewer than were sent, where the PUT replaces the set with exactly the keys sent; kids that differ otherwise, and kidless keys, are stored as before.',
    needs: 'writes',
    round: 38,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-double-submit-keyed-by-profile',
    rule: 'custom-text.put.language.enum',
    how: "A double-submit guard (for the console's Save button) answers a PUT of custom text that repeats the body of the client's last successful PUT to the same profile within two seconds with that PUT's response, its key being the client, the profile id and the body, not the language and page: PUT /self-service-profiles/{id}/custom-text/fr/get-started (or …/en/another-page) with the body just PUT to …/en/get-started is answered 200 with the map, where a language other than en gets a 4xx; other bodies, later requests and valid paths are answered as before.",
    needs: 'writes',
    round: 38,
  },
  {
    name: 'custom-text-prototype-named-keys-dropped',
    rule: 'custom-text.put.resulting-map',
    how: 'The map is rebuilt with a duplicate-key guard written as if (key in seen) continue over a plain object literal, so keys that name an Object.prototype member (toString, constructor, valueOf, hasOwnProperty, isPrototypeOf, propertyIsEnumerable, toLocaleString) are taken for seen and dropped: a PUT of {"toString":"Show text","title":"Hi"} is stored and answered {"title":"Hi"}, where the answer maps each key sent to the value sent; other keys are kept as before.',
    needs: 'writes',
    round: 38,
  },
  {
    name: 'custom-text-gt-in-attribute-value-ends-tag',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The sanitiser finds tags with /<[^>]*>/, which ends a tag at the first > even inside a quoted attribute value, and then refuses the tag whose last attribute it cut off as malformed: a valid hyperlink or styled element whose quoted attribute value holds > (<a href="https://example.com/next" title="Next >">Next</a>, <span title="a > b">x</span>) is refused 400, where values may be rich HTML with basic styling tags and hyperlinks (a > in a quoted attribute value is plain HTML); tags whose attribute values hold no > are checked as before.',
    needs: 'writes',
    round: 38,
  },
] as const satisfies readonly Fault[];
