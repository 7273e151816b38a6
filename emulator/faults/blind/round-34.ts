/**
 * Blind round 34: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 34`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round34 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-client-id-lowercased',
    rule: 'oauth.token.client-auth',
    how: 'The HTTP Basic parser of the token endpoint is shared with the login form, which normalises the userid as a username (lower case, usernames being case-insensitive there): a client authenticating with HTTP Basic (RFC 6749 2.3.1, which the server MUST support) with its right id and secret is looked up under its id lower-cased, finds no client (client ids are case-sensitive and mixed-case) and is refused 401 invalid_client with the Basic challenge; the same id and secret sent as body parameters get a token, as does a client whose id has no upper-case letter.',
    round: 34,
  },
  {
    name: 'token-secret-compared-as-decoded-base64',
    rule: 'oauth.token.bad-client',
    how: 'Client secrets are stored as the bytes their base64url text decodes to, and the presented secret is decoded the same way before the comparison, by Node\'s Buffer.from(secret, "base64url"), which skips every character outside the base64 alphabets and reads + and / as - and _: a wrong secret that differs from the right one only by characters the decoder skips (a space or tab before or after it, a colon, a dot, or its ":" removed) or by + for - and / for _ authenticates the client and gets a token instead of 401 invalid_client; any other wrong secret (another letter, the secret cut or in another case) is refused as before.',
    round: 34,
  },
  // ------------------------------------------------------ bearer, scopes
  {
    name: 'scope-claim-cut-at-255',
    rule: 'oauth.token.accepted',
    how: "The API gateway verifies the token and forwards its scope claim to the service in an X-Token-Scopes header written through a template that cuts values at 255 characters, and the service checks scopes against that header: a token whose scope claim is longer (the run's full token, about 420 characters of scopes in alphabetical order) loses every scope after the first 255 characters (read:federated_connections_tokens is cut in the middle, update:experimentation, update:self_service_profile_custom_texts and the others after it are gone), so the token-set listing, the experiment move and PUT custom text refuse the run's own token 403 although it holds their scopes; tokens narrowed to a few scopes, and the operations whose scopes come early in the claim, are served.",
    round: 34,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-scope-checked-on-unverified-claims',
    rule: 'token-sets.list.unauthorized',
    how: 'The scope guard of the token-set listing is registered before the JWT verifier and reads the claims it needs with jwt.decode (no verification): a bearer JWT whose signature is invalid (forged, altered, unsigned with alg none, signed by another key) and whose decoded scope claim lacks read:federated_connections_tokens, or has no scope claim, is answered 403 insufficient_scope instead of the documented 401 for an invalid token; invalid tokens whose claims hold the scope, tokens that do not decode, and missing headers still get 401 with the challenge.',
    round: 34,
  },
  {
    name: 'token-sets-one-per-connection',
    rule: 'token-sets.list.active-only',
    how: 'The listing reads the token vault\'s "current token set per connection" view (DISTINCT ON (connection) ORDER BY connection, issued_at DESC), written for the token exchange that needs one set per connection: a user holding several active token sets of the same connection (the fixture user holds four of google-oauth2) is answered only the most recently issued one instead of all the active ones; users with one set per connection, and expired sets, are answered as before.',
    round: 34,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-status-unique-prefix-accepted',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is parsed by the enum helper shared with the admin CLI, which accepts any unambiguous abbreviation of a value (as argparse\'s allow_abbrev does): {"status":"act"}, "pau", "comp", "arch" (or "ac", "p", "c", "ar") move the experiment to active, paused, completed or archived (200) instead of being refused as statuses outside the enum; ambiguous prefixes ("a"), prefixes of draft, the empty string and other values are still refused 400.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'transition-answer-jsonapi-document',
    rule: 'experiments.transition.returns-experiment',
    how: 'The move is proxied to the experimentation service, whose answers go through its JSON:API serializer, and the gateway passes the document on as it is: an accepted move answers {"data":{"type":"experiments","id":"exp_…","attributes":{"name":…,"status":…,…}},"jsonapi":{"version":"1.1"}} instead of the experiment object (id, name, status and the other required members at the top level); the move itself is made, and refused moves keep their 4xx.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'transition-description-null-from-mapper',
    rule: 'experiment.types',
    how: 'The answer of a move is built by a generated DTO mapper whose source property for description was renamed in the entity (to summary) without updating the mapping, so the mapper leaves it unset and the serialiser, configured to write nulls, answers "description": null for every moved experiment instead of the experiment\'s description string (or no member); the stored experiment keeps its description and the other members are right.',
    needs: 'writes',
    round: 34,
  },
  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-empty-scope-split-blank-item',
    rule: 'client-grant.scope.items.min-length',
    how: 'A grant\'s scope is kept as one space-separated column and split on read with scope.split(" "), and "".split(" ") is [""]: a grant with no scope (the system grant, whose scope is empty) is answered "scope": [""], an item of length 0 where each item has minimum length 1; grants holding scopes are answered their array as before.',
    round: 34,
  },
  {
    name: 'client-grant-read-joined-to-caller-client',
    rule: 'client-grants.get.success',
    how: "GET /client-grants/{id} reuses the per-application grants query of the console (WHERE id = :id AND client_id = :caller), the caller being the token's azp: a grant of any other client (the system grant, the organisation grant) and the default_for grant, which has no client_id, are answered 404 inexistent_client_grant to a token holding read:client_grants, instead of the grant object; the grant of the calling client itself is answered as before.",
    round: 34,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'from-timestamp-also-filters-live-events',
    rule: 'events.from-timestamp.start',
    how: 'The stream is one tailing query whose WHERE time >= :from_timestamp holds for the live part too: a stream started with a from_timestamp later than the events caused after connecting (a timestamp in the future, or a client whose clock runs ahead of the server by a few seconds and asks to start "now") delivers none of them until the service clock passes the timestamp, where every event caused after connecting is delivered; streams with a timestamp in the past, with from, or with neither are right.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'resume-cursor-single-use',
    rule: 'events.resume.no-loss',
    how: 'A from cursor is a continuation row the service deletes when a stream is resumed from it (one-shot continuation tokens, as some paging APIs use): resuming a second time from the same offset (a client retrying a resumption that failed on the way, or a heartbeat offset naming the same position as an event offset already resumed from) is refused 400 invalid_cursor, while an older offset of the same stream is still accepted; each offset resumes right the first time.',
    round: 34,
  },
  {
    name: 'event-filter-tombstones-always-delivered',
    rule: 'events.filter.only-requested',
    how: 'Deletions are forwarded to every subscription whatever its filter, so that subscribers can evict what they cached (a CDC habit: tombstones bypass the filter): a stream asked for event_type=user.created also receives user.deleted, organization.deleted, group.member.deleted, organization.connection.removed and every other .deleted or .removed event, live and replayed, where only the types asked arrive; unfiltered streams, and the other types, are right.',
    round: 34,
  },
  {
    name: 'from-timestamp-sticky-per-client',
    rule: 'events.start.replay',
    how: "The first from_timestamp a client gives creates a durable consumer named after the client with a deliver-by-start-time policy, and every later GET /events of that client attaches to it, the consumer re-reading from that start time on each connection: once a client opened a stream with from_timestamp (a day back), its later streams opened without from or from_timestamp replay every retained event since that time, the older half of the tenant's history included, before going live, where such a stream starts from the latest events; streams with from, and the first stream of each client, are right.",
    round: 34,
  },
  {
    name: 'resume-handoff-repeats-head',
    rule: 'events.resume.no-duplicate',
    how: 'A resumed stream replays the events after its cursor by a catch-up query and then tails the log from the head position it read before the catch-up, with seq >= head: the newest event, which the catch-up already delivered, is delivered a second time right after the replay, whenever the cursor had events after it; streams resumed from the newest offset, and streams without from, deliver every event once.',
    round: 34,
  },
  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-id-checked-with-base58-alphabet',
    rule: 'event-streams.get.success',
    how: 'GET /event-streams/{id} validates the id with the shared validator of prefixed ids, written for experiment ids, which requires the part after the prefix to be base58 (no 0, O, I or l): a listed stream whose 26-character id holds one of those characters (most of them) is refused 400 invalid_uri instead of answered; streams whose id is base58 by chance, and ids of other lengths (refused 400), are answered as before.',
    round: 34,
  },
  {
    name: 'event-stream-get-model-name-min-3',
    rule: 'event-streams.get.success',
    how: 'The detail view builds a model whose constructor validates the row with the console form\'s name rule (3 to 128 characters) and the failure is not caught: a listed stream whose name has one or two characters (the stream named "S", the first of the list) is answered 500 by GET /event-streams/{id}, though names of 1 to 128 characters are valid; GET /event-streams lists it, and the other streams are read as before.',
    round: 34,
  },
  {
    name: 'event-streams-page-cut-at-response-budget',
    rule: 'event-streams.list.take.page-size',
    how: 'The list adds streams to a page while its serialised eventStreams stay within a response budget of 16 KiB, and then ends the page with a next after the last stream it holds: a page of take streams whose JSON is larger (above about 34 streams of this tenant, so with take 50, the default, 60 or 100) holds 33 or 34 streams although more follow, where a page followed by another holds exactly take; walks by next list every stream once, and pages within the budget are right.',
    round: 34,
  },
  {
    name: 'event-streams-wide-page-second-read-overlaps',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'The store returns at most 50 rows a read, so a page of take 51 to 100 is read in two: the first 50 streams, then the rest keyed on the 50th stream with >= instead of >: every such page holds its 50th stream twice (and one stream less after it, which comes first on the next page), so a walk with take=100 returns that stream twice; walks with take up to 50 are right.',
    round: 34,
  },
  {
    name: 'take-unicode-digits-accepted',
    rule: 'event-streams.list.take.range',
    how: "take is read with a parser that takes any Unicode decimal digit (Java's Integer.parseInt, Python's int()): take=٥ (ARABIC-INDIC DIGIT FIVE), ５０ (fullwidth) or १० (Devanagari), which are not integers in the query's syntax, are read as 5, 50 and 10 and answered 200 with a page instead of refused 4xx; ASCII values are checked as before.",
    round: 34,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-kid-stored-url-encoded',
    rule: 'custom-signing-keys.put.json',
    how: 'Each key is stored under its kid as a path segment of the key\'s URL (/keys/custom-signing/{kid}), and the storage layer writes the kid encodeURIComponent-ed and answers it so: a key whose kid holds a character that URI component encoding escapes (a colon, as in a JWK thumbprint URN, a space, a slash, a +, a non-ASCII letter) is answered with its kid percent-encoded ("urn%3Aietf%3A…"), so the resulting keys are not the keys set (RFC 7517 4.5: kid is a case-sensitive string); kids of letters, digits and - _ . ! ~ * \' ( ) are right.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'keys-answer-items-json-text',
    rule: 'jwks.keys',
    how: 'The set is stored in a text[] column holding one JSON document a key, and the PUT answers the column as the driver returns it, without parsing its items: {"keys": ["{\\"kty\\":\\"EC\\",…}"]}, an array of strings where a JWKS holds an array of JWK objects; the keys are stored right.',
    needs: 'writes',
    round: 34,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-values-json-escaped-when-stored',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are escaped for the page\'s inline JSON when stored (JSON.stringify(value).slice(1, -1)) and answered as stored: a plain-text value holding a double quote, a backslash, a line break or a tab ("Say \\"hi\\"", "Line one\\nLine two") is answered with the escapes as text (a backslash before the quote, a backslash and n in place of the line break), not the value sent; values without those characters are kept as sent.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'custom-text-attribute-quotes-reserialised',
    rule: 'custom-text.put.html.restricted',
    how: 'The sanitiser checks the markup as parsed and stores it re-serialised by a hand-written writer that puts every single-quoted attribute value in double quotes without escaping the double quotes inside it: an allowed attribute whose value holds them (<a href="https://example.com/" title=\'x" onmouseover="alert(1)\'>x</a>, a title to the check) is stored and answered as <a … title="x" onmouseover="alert(1)">, a live event handler; values without single-quoted attributes are stored as sent.',
    needs: 'writes',
    round: 34,
  },
  {
    name: 'custom-text-form-values-as-lists',
    rule: 'custom-text.types',
    how: 'A form-encoded PUT is bound to a multi-value map (url.Values, a MultiValueMap) that is stored and answered as it is: the answer maps each key to an array holding its value ({"introduction": ["Welcome"]}) instead of to the string; JSON PUTs are answered the map of strings.',
    needs: 'writes',
    round: 34,
  },
] as const satisfies readonly Fault[];
