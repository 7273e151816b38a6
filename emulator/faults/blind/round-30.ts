/**
 * Blind round 30: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 30`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round30 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-empty-scope-reduce-500',
    rule: 'oauth.token.endpoint',
    how: 'The requested scope is narrowed with scopes.split(" ").filter(Boolean).reduce((a, s) => a + " " + s) to rebuild the granted string, a reduce without an initial value: a client-credentials request whose scope parameter is present but empty (scope= or scope=%20, RFC 6749 3.3 leaves the value to the client) throws "Reduce of empty array with no initial value" after the client authenticated, answered 500 server_error, where a request beside the documented one gets a token or the RFC 6749 5.2 error response, never a 5xx; requests without scope, or with scopes, are served.',
    round: 30,
  },
  {
    name: 'token-response-scope-default-openid-added',
    rule: 'auth.scope.form',
    how: 'The authorization server applies its OpenID default-scope policy to every grant, client credentials included: the token response\'s scope ends with openid ("read:client_grants … update:users openid", and "read:federated_connections_tokens openid" for a narrowed token), a scope that is not of the documented form <verb>:<resource>; the access token\'s own claim, written from the client\'s grant, has no openid, so the API serves the token as before.',
    round: 30,
  },

  // ------------------------------------------------------ JWT and bearer
  {
    name: 'jwt-at-jwt-typ-unverified',
    rule: 'auth.jwt.signature',
    how: 'The bearer middleware routes tokens by their header typ: JWTs typed at+jwt (the RFC 9068 access-token profile) are taken for tokens the edge gateway has verified already and are only decoded, so a token whose header says {"alg":"RS256","typ":"at+jwt"} is admitted with whatever claims it carries and any signature (a forged or altered one), on every operation; tokens typed JWT, as the token endpoint issues them, are verified as before (RFC 8725 3.11: explicit typing tells kinds of JWT apart, it never replaces the signature check).',
    round: 30,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-alg-not-allowed-400',
    rule: 'token-sets.list.unauthorized',
    how: "The listing's error mapper turns the JOSE library's algorithm error (JOSEAlgNotAllowed: the token's alg is not the RS256 the tenant signs with) into 400 invalid_request, as a malformed request, while the other verification failures keep their 401: a JWT with alg none, HS256 or any other algorithm than RS256 is answered 400 without a WWW-Authenticate challenge, where the document answers an invalid token, whose signature is invalid, with 401.",
    round: 30,
  },
  {
    name: 'token-sets-cache-ejson-dates',
    rule: 'token-set.types',
    how: 'A user\'s listing is cached after its first read: the cache writer serialises the store\'s documents with the MongoDB driver\'s EJSON.stringify, and the reader parses them back with plain JSON.parse, so from the second listing of the same user on (within the cache\'s lifetime) issued_at, expires_at and last_used_at are answered as extended-JSON objects {"$date": "2026-…Z"} instead of the date-time strings (or null) the document types them as; the first listing of a user is right.',
    round: 30,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-answer-id-resource-name',
    rule: 'experiment.id.pattern',
    how: 'The experiments backend is a gRPC service whose resources carry AIP-122 resource names, and the HTTP gateway maps the message\'s name field onto id: the experiment answered by a move has id "experiments/exp_…" (the collection and the identifier), which does not match the documented pattern ^exp_[A-HJ-NP-Za-km-z1-9]+$; the move itself is applied to the right experiment.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'transition-is-valid-omitempty',
    rule: 'experiment.required',
    how: 'A move recomputes is_valid (an experiment that has ended can no longer assign, so it is false once completed or archived) and the answer is written from a Go struct whose field is tagged json:"is_valid,omitempty": the false is left out, so a move to completed or archived answers an experiment without is_valid, a required member; moves to active or paused (is_valid true) are right.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'transition-id-confusables-folded',
    rule: 'experiments.transition.same-experiment',
    how: 'The experiment id is normalised before the lookup the way the console normalises ids that people retype: the characters base58 leaves out because they look alike are folded to the ones it keeps (l and I to 1, 0 and O to o). A move of exp_…l… (an id no experiment has: l is outside the documented alphabet) is applied to the experiment exp_…1… and answered with it, so the experiment returned is not the one the path names (that one does not exist); ids spelt as minted are served right.',
    needs: 'writes',
    round: 30,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-dangling-scope-coalesced-empty',
    rule: 'client-grant.scope.items.min-length',
    how: "A grant's scopes are stored as references to the resource server's scope rows and read back with a LEFT JOIN, COALESCE(rs_scope.value, ''): a scope the API no longer defines (create:orders, removed from the orders API while grants still hold it) is answered as an empty string item, so the fixture grant's scope is [\"read:orders\", \"\"], where each item has minimum length 1; grants whose scopes all still exist (read:payments) are right.",
    round: 30,
  },
  {
    name: 'client-grant-default-audience-empty',
    rule: 'client-grant.audience.min-length',
    how: 'The grant\'s audience is stored as the resource server\'s id and resolved for the answer through the grant\'s client (client_grants.client_id → clients → resource servers of the client\'s tenant); a default_for grant has no client_id, the LEFT JOIN finds no resource server, and the serialiser writes the missing string as "": GET of the third_party_clients default grant answers audience "", where the audience has minimum length 1; per-client grants carry their API identifier.',
    round: 30,
  },
  {
    name: 'client-grant-adt-postgres-array-literal',
    rule: 'client-grant.types',
    how: 'authorization_details_types is a column of a Postgres enum array type (authorization_details_type[]), whose OID node-postgres has no parser for, so the driver hands the column over as its text form: the member is answered as the array literal string "{payment_initiation,account_information}" (and "{order_details}") instead of an array of strings; the grants without the column are unaffected.',
    round: 30,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-id-base62-leading-zero-dropped',
    rule: 'event-stream.id.length',
    how: 'Event stream ids are 128-bit values stored as numbers and rendered on the way out as est_ plus their base62 digits (alphabet 0-9a-zA-Z), without left-padding the digits to 22: an id whose first digit is the zero digit (est_0bPnWuJO9wsob0MbA8fWWa with the default seed) is answered with 25 characters (est_bPnWu…), on GET /event-streams/{id} and in the list, where every id is exactly 26 characters; the other ids are right.',
    round: 30,
  },
  {
    name: 'event-stream-disabled-name-suffixed',
    rule: 'event-stream.name.length',
    how: 'The read model serves the name column of the console\'s view, which marks a disabled stream by appending " (disabled)" to its name: every disabled stream is answered with the suffix, and those whose name has 118 characters or more (four of the seeded streams) are answered with a name over the documented 128 characters, on GET /event-streams/{id} and in the list; enabled streams are right.',
    round: 30,
  },
  {
    name: 'event-streams-later-pages-keyed-object',
    rule: 'event-streams.list.success',
    how: 'The page is cut from the stream collection with array_filter on the index range, which keeps the array\'s keys, and json_encode writes an array whose keys do not run 0, 1, 2 … as an object: the first page\'s eventStreams is an array, but every page asked with from (keys 50, 51 … with the default take) answers eventStreams as an object {"50": {…}, "51": {…}} instead of the documented array of event stream objects.',
    round: 30,
  },
  {
    name: 'event-stream-get-long-name-projection-missing',
    rule: 'event-streams.get.success',
    how: "GET /event-streams/{id} reads a read-model projection whose name column is VARCHAR(100); the projector's insert failed for every stream with a longer name and the error was swallowed, so those streams never reached the projection: a listed stream whose name has more than 100 characters (34 of the seeded streams, the 128-character one included) is answered 404 by GET /event-streams/{id}, while GET /event-streams, which reads the primary table, lists it.",
    round: 30,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-x5c-parsed-certificate-objects',
    rule: 'jwk.types',
    how: 'Each certificate of a key\'s x5c is parsed into the X.509 library\'s certificate object for the chain check, and the answer serialises the key as parsed: x5c is answered as an array of objects ({"raw": "MIIB…", "fingerprint256": "AB:CD:…"}) instead of the array of base64 DER strings the document types it as (RFC 7517 4.7); keys without x5c are right.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'keys-kid-header-non-latin1-500',
    rule: 'custom-signing-keys.put.json',
    how: 'After storing the set, the PUT writes the kids of the new keys into a response header for the key-rotation cache (X-Custom-Signing-Key-Ids) with Node\'s setHeader, which throws ERR_INVALID_CHAR for characters beyond Latin-1: a valid JWKS with a kid holding such a character ("clé-ключ-1", "key-😀", RFC 7517 4.5: kid is any case-sensitive string) is stored but answered 500 instead of the 2xx with the JWKS; kids in ASCII or Latin-1 are served.',
    needs: 'writes',
    round: 30,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-values-yaml-typed',
    rule: 'custom-text.types',
    how: 'The text map is kept as a YAML document written by a template (key: value, unquoted) and read back by a YAML 1.1 parser, which resolves plain scalars by their look (the "Norway problem"): a value such as "Yes", "no", "on", "off", "true", "42", "3.5", "null", "~" or "" is answered as a boolean, a number or null instead of the string sent, where the answer maps text keys to string values; other text comes back as sent.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'custom-text-html-suffix-keys-unsanitised',
    rule: 'custom-text.put.html.restricted',
    how: 'Values whose key ends in _html (or -html) are taken for the raw-HTML slots the page template inserts as given, and are exempt from the allow-list: a value with a <script> element under a key such as footer_html is stored and answered as given, while the document limits rich HTML to basic styling tags and hyperlinks for every value; under other keys (introduction) the script is refused.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'custom-text-falsy-values-unchecked',
    rule: 'custom-text.put.value.type',
    how: 'The value check is a truthiness guard, if (value && typeof value !== "string") refuse: a value that is not a string but falsy (false, 0, null) passes it and is stored and answered as given ({"title": false} → 200 {"title": false}), where a value that is not a string gets a 4xx; truthy non-strings (true, 42, objects, arrays) are refused as they should be.',
    needs: 'writes',
    round: 30,
  },
  {
    name: 'custom-text-answer-astral-escaped-as-single-code-point',
    rule: 'custom-text.put.resulting-map',
    how: 'The answer is written by an ASCII-safe JSON encoder that escapes every non-ASCII character as \\u followed by its code point in hex, iterating by code point: a character beyond U+FFFF gets five hex digits (😀 written \\u1f600), which JSON reads as U+1F60 followed by the digit 0 (RFC 8259 7: a character outside the BMP is escaped as a UTF-16 surrogate pair), so a value with an emoji or another supplementary character is answered as another string than the one sent; BMP text (é, ü, 中) is escaped right.',
    needs: 'writes',
    round: 30,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'envelope-large-object-claim-check',
    rule: 'events.payload.envelope',
    how: 'The outbox keeps an event\'s data.object inline only up to 2 KiB (a VARCHAR(2048) column) and stores a larger one in the blob store with a claim check: events whose object serialises to more than 2048 bytes (every connection.created, connection.updated and connection.deleted: a connection with its options and oidc_metadata is about 3 KiB) carry data {"object_ref": {"url", "size", "sha256"}, "context"} without the object the envelope\'s data must have; user, group and organization events are right.',
    round: 30,
  },
  {
    name: 'heartbeat-position-not-advanced-by-replay',
    rule: 'events.resume.heartbeat-offset',
    how: 'A stream keeps its position in a variable initialised from the from cursor and advanced in the live listener only (the replay loop writes the backlog without touching it), and heartbeats carry that position: on a stream resumed from a cursor, every heartbeat before the first live event carries the cursor the stream was resumed from, so resuming from such a heartbeat replays the whole backlog that came before it in the uncut stream; streams opened without from, and heartbeats after a live event, are right.',
    round: 30,
  },
  {
    name: 'start-replays-compacted-latest-per-object',
    rule: 'events.start.replay',
    how: 'Events are read from a log-compacted topic keyed by the affected object, and a consumer started without an offset reads it from the beginning (auto.offset.reset=earliest): a stream opened without from or from_timestamp first replays the latest event of every object the tenant ever touched (the acme-saml connection.created, the first event of the seeded history, among them), reaching into the older half of the history, where a start without from hands over only the latest events; live events follow as they should.',
    round: 30,
  },
  {
    name: 'from-timestamp-length-checked-after-normalising',
    rule: 'events.from-timestamp.max-length',
    how: "A query middleware normalises from_timestamp to the store's second resolution in UTC (parse, then toISOString without the fraction) before the validation layer checks its length: 2025-01-01T00:00:00.123Z (24 characters) or 2025-01-01T01:00:00+01:00 (25) is checked as the 20 characters of 2025-01-01T00:00:00Z and accepted, where from_timestamp has a maximum length of 20; values that do not parse are checked as sent.",
    round: 30,
  },
] as const satisfies readonly Fault[];
