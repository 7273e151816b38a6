/**
 * Blind round 32: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 32`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round32 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-repeated-client-id-first-wins',
    rule: 'oauth.token.bad-client',
    how: "The token handler reads its form with Go's url.Values.Get, which answers the first value of a repeated parameter: a request with client_id given twice, the right id first and any other after it, authenticates the first with the client_secret and is issued a token instead of being refused invalid_request (RFC 6749 3.2: parameters MUST NOT be included more than once); client_id repeated with a wrong id first is refused 401 as a bad client, and other repeated parameters are refused 400 as before.",
    round: 32,
  },
  {
    name: 'token-repeated-grant-type-any-match',
    rule: 'oauth.token.grant-type',
    how: 'The grant dispatcher checks the grant with params.getAll("grant_type").includes("client_credentials"), written so that a form posted with a duplicate hidden field would still work: a token request with grant_type given twice, one of them client_credentials (the same value twice, or password / refresh_token before or after it), is issued a token instead of being refused invalid_request; grant_type given once with another grant, empty or missing is refused as before.',
    round: 32,
  },
  {
    name: 'token-json-request-no-store-missing',
    rule: 'oauth.token.response',
    how: "The JSON flavour of the token endpoint is a second handler (added for SDKs that post JSON) whose reply is built by the framework's generic JSON sender, not the OAuth response writer that sets Cache-Control: no-store and Pragma: no-cache: a token issued to a request sent as application/json carries no Cache-Control at all, where RFC 6749 5.1 requires no-store on every token response; tokens issued to the documented form request carry the headers.",
    round: 32,
  },

  // ------------------------------------------------------ bearer, scopes, 405
  {
    name: 'fields-projection-skips-scope-check',
    rule: 'auth.scope.enforced',
    how: 'Reads that ask for a projection (the fields query parameter of the management API, fields=id,name) are served by a second route, added for the projection and registered without the scope guard of the plain route (its projection left to a later release, the answer is whole): a GET of the token-set listing, a client grant, an event stream, the stream list or the events stream with ?fields=… and a token that holds none of the in-scope scopes (read:stats only) is answered 200 instead of 403; the same reads without fields, and the writes, are refused 403 as before.',
    round: 32,
  },
  {
    name: 'allow-header-adds-options-cors',
    rule: 'http.method-not-allowed.allow',
    how: "A CORS middleware appends OPTIONS to every Allow header on its way out (it answers preflights itself, with Origin and Access-Control-Request-Method), but a plain OPTIONS request without those headers falls through to the router and gets its 405: the 405 of an OPTIONS on an operation's path carries Allow: GET, OPTIONS (PUT, OPTIONS; POST, OPTIONS), listing the very method it refused; 405s of other methods (DELETE, PATCH) list OPTIONS too but not the method refused.",
    round: 32,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-id-colon-separator-alias',
    rule: 'token-sets.list.unknown-user',
    how: "User ids of the old identity store spelt the provider separator with a colon (auth0:abc) and the lookup still maps them: an id no user has whose first colon, read as a |, names an existing user (auth0:09c6… for auth0|09c6…) is answered 200 with that user's token sets instead of 404 The user does not exist; ids without a colon, and colon ids that name no user once mapped, are answered as before.",
    round: 32,
  },
  {
    name: 'token-sets-single-item-unwrapped',
    rule: 'token-sets.list.success',
    how: 'The listing goes through a serializer helper that "unwraps singletons" (written for the single-result lookups of the users API): a user with exactly one active token set is answered 200 with that token set object instead of a JSON array holding it; users with several token sets, or none ([]), get their array.',
    round: 32,
  },
  {
    name: 'rate-limit-429-remaining-from-tenant-bucket',
    rule: 'rate-limit.header-values',
    how: "Two limiters apply in turn, one per token and one per tenant (ten times larger); the 429 is written by the per-token limiter but its header writer reads Remaining from the last limiter to run, the tenant one: every 429 carries X-RateLimit-Limit of the token's window and X-RateLimit-Remaining of the tenant's bucket, which is larger than the Limit beside it (and never 0); answers within the limit carry the token's own Remaining.",
    needs: 'rate-limit-probe',
    round: 32,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-status-checked-with-in-operator',
    rule: 'experiments.transition.status-enum',
    how: 'The target is validated with `status in ALLOWED_SOURCES` over a plain object literal, so inherited names pass: a body whose status is toString, constructor, valueOf, hasOwnProperty, isPrototypeOf, propertyIsEnumerable or toLocaleString gets past the enum check and fails in the transition table lookup (ALLOWED_SOURCES[status].includes is not a function), answered 500 instead of a 4xx; other statuses outside the enum (draft, unknown strings, non-strings) are refused 400 as before.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'transition-allocation-priority-pg-int8-string',
    rule: 'experiment.allocation.types',
    how: 'The allocations\' priority column is BIGINT and node-postgres returns int8 values as strings (its default, since they may not fit a double): in the experiment a move answers, every allocation\'s priority is a string ("1", "2") instead of an integer; weight (INTEGER) and the other members are right.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'transition-json-unexpected-end-500',
    rule: 'http.json-request-bodies',
    how: "The move's body goes through a streaming JSON reader whose end-of-input error (the body ends inside a value: '{\"status\":\"act', '{\"status\":' or '{') is its own IncompleteJSONError, not the SyntaxError the error mapper turns into 400: a truncated JSON body is answered 500 instead of a 4xx; other malformed JSON (a stray token, single quotes, trailing garbage) is refused 400 invalid_json as before.",
    needs: 'writes',
    round: 32,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-cached-read-octet-stream',
    rule: 'http.json-bodies',
    how: "Grants are served through a response cache that stores the body bytes but not the Content-Type, and the cache hit is written with the store's default, application/octet-stream: the first GET /client-grants/{id} of a grant is application/json, every later read of the same grant (until restart) has the same JSON bytes as application/octet-stream, which is no JSON media type; reads of another grant are right the first time.",
    round: 32,
  },
  {
    name: 'client-grant-system-scope-wildcard-string',
    rule: 'client-grant.types',
    how: 'System grants are stored with the scope marker "*" (all scopes of the audience, resolved at token time) and the read answers the column as it is: a grant with is_system true comes with "scope": "*", a string, instead of an array of strings; the grants created by the tenant (is_system false) carry their scope array.',
    round: 32,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'take-negative-slices-from-end',
    rule: 'event-streams.list.take.range',
    how: 'take is checked only against its upper bound (take > 100 → 400) and then used as the end of streams.slice(start, start + take): a negative take (-1, -5) slices from the end and is answered 200 with a page of the streams before the last |take| of the list (or an empty page) instead of a 4xx; take 0, 101 and non-integer values are refused 400, and 1 to 100 are served as before.',
    round: 32,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'from-timestamp-month-off-by-one',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is parsed by hand into Date.UTC(year, month, day, …) with the month as written, where Date.UTC counts months from 0: every start lands a month late (in December, in January of the next year), so a subscription with from_timestamp a day back replays none of the events since then (only events caused after connecting arrive); cursors (from) and subscriptions without a start position are unaffected.',
    round: 32,
  },
  {
    name: 'payload-type-stale-from-previous-message',
    rule: 'events.payload.type-matches',
    how: 'The SSE writer injects the payload type (as the document describes) from a reused encoder object whose type member is set after the data line is serialised: each message\'s payload carries "type" set to the type of the message the writer sent before it, so consecutive messages of different types disagree with their own SSE event field (the first message the writer sends carries no type; a run of one type agrees).',
    round: 32,
  },
  {
    name: 'group-events-envelope-without-svc-extensions',
    rule: 'events.payload.envelope',
    how: 'Group events are published by the newer groups service, whose CloudEvents producer does not add the tenant extension attributes: the envelopes of group.created, group.updated, group.deleted, group.member.* and group.role.* lack svctenant and svcstream; events of users, organizations and connections carry them.',
    round: 32,
    disputed:
      'The document marks no member of the event envelope required: its table has no Required column, and "Unless marked required, a field may be absent" (Resources and their fields). An envelope without svctenant and svcstream conforms as written; whether the two are meant to be required goes to the document\'s owner.',
  },
  {
    name: 'context-hostname-null-for-ip-literal-host',
    rule: 'events.context.types',
    how: 'context.request.hostname is taken from the request\'s server name after the TLS/SNI layer, which has no name for a request addressed to an IP literal (RFC 6066 3: literal addresses are not permitted in SNI): events caused by requests sent to http://127.0.0.1:… or any IP host carry "hostname": null instead of a string; events caused through a host name, like the seeded history, carry it.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'connection-created-display-name-null-when-same-as-name',
    rule: 'events.connection-created.object',
    how: 'The event builder writes display_name only "when it adds something": a connection whose display_name equals its name is sent with "display_name": null in data.object of connection.created instead of the string; connections with their own display name (the seeded Partner IdP, Acme SAML, Workforce) are right.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'events-resumed-stream-content-type-missing',
    rule: 'events.content-type',
    how: 'A stream resumed with from first flushes the replayed frames through reply.raw.write before the SSE headers are set (the replay path was added beside the live one), so Node sends its implicit head without Content-Type: a GET /events with a from cursor is answered 200 without any Content-Type; streams started without from, or with from_timestamp, are text/event-stream.',
    round: 32,
  },
  {
    name: 'event-type-separators-normalised',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type values are normalised before validation, - and _ read as the dot (for clients that send Python-style enum names): user_created, group-member-added or organization_member_role_assigned are accepted as the documented type they spell instead of 4xx, and the stream filters on it; values that do not normalise to a listed type (user.renamed, foo) are still refused 400.',
    round: 32,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-private-check-only-on-create',
    rule: 'custom-signing-keys.put.public-only',
    how: 'The private-member check lives in the create path; once a set is stored, PUT goes through the update path, which validates only kty: the first PUT of a key with its private part (d, p, q, …) is refused 400, but the same PUT after any set exists is accepted and stores and answers the private members; a tenant with no set yet is protected.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'keys-form-charset-415',
    rule: 'custom-signing-keys.put.form',
    how: "The keys route matches the form media type against the Content-Type header with the parameters kept (its parser list is keyed by 'application/x-www-form-urlencoded' exactly): a form body sent as application/x-www-form-urlencoded;charset=UTF-8, as browsers and many HTTP clients write it, is refused 415; the bare form type, and JSON with or without charset, are accepted.",
    needs: 'writes',
    round: 32,
  },
  {
    name: 'keys-put-same-count-kept',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The write is skipped when it "changes nothing", judged by an optimistic check that compares only the number of keys (a cheap row-count check meant for idempotent retries): a PUT whose set has as many keys as the stored one leaves the stored keys in place and answers them, where the PUT replaces the whole set; a PUT with more or fewer keys than stored, and the first PUT, replace the set.',
    needs: 'writes',
    round: 32,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-length-after-paragraph-wrap',
    rule: 'custom-text.put.value.max-length',
    how: 'A plain-text value (one without any <) is wrapped as rich text, <p>…</p>, before the length is checked: a plain value of 1994 to 2000 characters is refused 400 as over 2000 characters, where 2000 are allowed; values that already hold markup are measured as sent, and 2001 characters are still refused.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-smart-quotes',
    rule: 'custom-text.put.resulting-map',
    how: 'A typography filter meant for rendering runs when the text is stored: straight quotes in text outside tags are replaced by typographic ones ("a" → “a”, it\'s → it’s), so a value holding \' or " is stored and answered with curly quotes instead of the value sent; values without quotes, and quotes inside markup attributes, are kept.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-language-iso639-2-alias',
    rule: 'custom-text.put.language.enum',
    how: 'The language segment is mapped through an ISO 639-2 to 639-1 table before the check (for the locales of the old console, which used three-letter codes): eng passes as en and the text is stored and answered 200, where any language but en gets a 4xx; other three-letter codes map to languages that are not allowed (fra → fr, deu → de) and are still refused 400.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-page-universal-login-screens',
    rule: 'custom-text.put.page.enum',
    how: "The page segment is checked against the prompt screens of the tenant's Universal Login (login, signup, reset-password, consent, mfa, logout) together with the self-service get-started, since both are stored in one custom-text table: PUT …/custom-text/en/login (or signup, reset-password, …) is accepted and stored, where any page but get-started gets a 4xx; other pages are refused 400.",
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-sanitiser-skips-stored-keys',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML check runs only on text keys the profile does not hold yet (the update path assumes stored values were checked when created): a value with a <script> element under a key the profile already holds (the seeded introduction, or any key a previous PUT stored) is stored and answered as given; keys the profile does not hold yet are checked and a script under them refused 400.',
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-first-put-201-no-body',
    rule: 'custom-text.put.json',
    how: "The PUT follows RFC 9110 9.3.4 for a resource it creates: whether the text exists is read from an in-process cache of the resources this instance wrote, empty at start, so the first PUT of a profile's text for a language and page after a (re)start is answered 201 Created with a Location and no body, instead of the object of the resulting text the document gives the success; later PUTs of the same text answer 200 with the map.",
    needs: 'writes',
    round: 32,
  },
  {
    name: 'custom-text-form-body-limit-1kb',
    rule: 'custom-text.put.form',
    how: "The form parser of the custom-text route is registered with a body limit of 1 KiB (the urlencoded parser of the console's settings forms), where JSON bodies get 1 MiB: a form-encoded map longer than 1024 bytes (one value of a few hundred non-ASCII characters, or of 1100 letters) is refused 413; short form maps and JSON bodies of any size up to 1 MiB are accepted.",
    needs: 'writes',
    round: 32,
  },
] as const satisfies readonly Fault[];
