/**
 * Blind round 33: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 33`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round33 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-grant-type-urn-prefix-stripped',
    rule: 'oauth.token.grant-type',
    how: 'The grant dispatcher, written for extension grants, strips the IETF URN prefix urn:ietf:params:oauth:grant-type: from grant_type before it looks up a handler: a token request with grant_type=urn:ietf:params:oauth:grant-type:client_credentials (no grant of RFC 6749 or any registry) is issued a client-credentials token instead of being refused unsupported_grant_type; the JWT bearer URN still finds no handler here and is refused, as are password, refresh_token and an empty grant_type.',
    round: 33,
  },
  {
    name: 'token-response-scope-all-as-wildcard',
    rule: 'auth.scope.form',
    how: 'The token response writer abbreviates a granted scope that holds every scope the client\'s grant has to "*" (the grant\'s allow_all_scopes marker, meant for the console): a token request without a scope parameter (or asking for the whole grant) is answered "scope": "*", which is no <verb>:<resource> scope; the token\'s own scope claim, and the response of a request narrowed to fewer scopes, list the scopes as before.',
    round: 33,
  },
  {
    name: 'token-secret-matched-against-any-client',
    rule: 'oauth.token.bad-client',
    how: "The client secret is checked by looking it up in the tenant's secret index (kept for secret rotation) and the client_id only for existence: the right client_id with the secret of another client of the tenant (the limited client's secret under the full client's id) authenticates and is issued a token with the scopes of the client_id; a secret no client has, and an unknown client_id, are refused 401 invalid_client as before.",
    round: 33,
  },

  // ------------------------------------------------------ bearer, scopes
  {
    name: 'api-session-cookie-accepted-without-token',
    rule: 'auth.bearer.required',
    how: "A session middleware answers every /api/v2 request admitted by a bearer token with Set-Cookie: api_session=… (Path=/api/v2, HttpOnly), and the auth hook admits a request without an Authorization header that carries that cookie as the session's caller: a client that keeps cookies (a browser, a request context with a cookie jar) is answered 200 without any token once it made one authenticated request; requests without the cookie are refused 401 with the Bearer challenge as before.",
    round: 33,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-insufficient-scope-filtered-empty',
    rule: 'token-sets.list.insufficient-scope',
    how: "Authorisation of the listing is a row filter (the caller sees the token sets it may read) instead of a scope check: a valid token without read:federated_connections_tokens is answered 200 with an empty array for a user that exists (404 for one that does not) instead of 403 Insufficient scope; tokens holding the scope get the user's token sets as before.",
    round: 33,
  },
  {
    name: 'token-sets-expiry-beyond-a-year-dropped',
    rule: 'token-sets.list.active-only',
    how: "The listing runs each row through a plausibility check written for access tokens, which treats an expires_at more than 365 days ahead as a corrupt row and skips it: active token sets that expire more than a year from now (two of the seeded user's dated sets, and the one set of the user holding one) are left out of the listing; sets that never expire (null) or expire within a year are listed, and expired ones are still left out.",
    round: 33,
  },
  {
    name: 'token-sets-zero-user-id-unfiltered',
    rule: 'token-sets.list.unknown-user',
    how: 'The id part of a user id is parsed into a 12-byte ObjectId, and the repository reads the zero ObjectId as "no user filter" (an IsZero() check meant for optional filters): a well-formed id that no user has whose id part is 24 zeros (auth0|000000000000000000000000) is answered 200 with the active token sets of every user of the tenant instead of 404 The user does not exist; other unknown ids are answered 404.',
    round: 33,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-status-locale-compare-case-sensitivity',
    rule: 'experiments.transition.status-enum',
    how: 'The requested status is matched against the targets with localeCompare(target, undefined, { sensitivity: \'case\' }) === 0, meant as a "case-sensitive, locale-aware" comparison, but collation at that strength also ignores accents, width and ignorable characters: "áctive", "pausé", fullwidth "ａｃｔｉｖｅ" or "active" with a zero-width space move the experiment (200) instead of being refused as statuses outside the enum; ACTIVE, draft and other unknown statuses are still refused 400.',
    needs: 'writes',
    round: 33,
  },
  {
    name: 'transition-json-body-sniffed-form',
    rule: 'http.json-request-bodies',
    how: 'The move\'s body parser is chosen by sniffing the body\'s first character rather than by its Content-Type (a { or [ is JSON, anything else is read as a form): a body sent as application/json that is no JSON but form-shaped, status=active, is read as { status: "active" } and the move is made (200) instead of refused 4xx; malformed bodies that start like JSON, and bodies without an =, are refused 400 as before.',
    needs: 'writes',
    round: 33,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-system-guard-on-read',
    rule: 'client-grants.get.success',
    how: 'The guard that keeps system grants from being "modified or deleted directly" is a preHandler mounted on the /client-grants/{id} path for every method, GET included: reading a grant with is_system true is answered 403 forbidden ("System grants cannot be modified or deleted directly") instead of the grant object; the other grants are read as before.',
    round: 33,
  },
  {
    name: 'client-grant-system-answered-template-id',
    rule: 'client-grants.get.same-grant',
    how: 'System grants are materialised per tenant from a global template, and the read serialises the template row\'s id for them: GET /client-grants/{id} of a grant with is_system true answers the grant with "id": "cgr_tmpl_…", not the id asked for (and read back with that id, 404); grants the tenant created answer their own id.',
    round: 33,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-get-id-echoed-from-raw-path',
    rule: 'http.path-id.percent-encoding',
    how: 'The detail answer takes its id member from the request path as sent (to spare a column read), while the lookup uses the decoded segment: GET /event-streams/{id} with an unreserved character of the id percent-encoded (est%5F…, the same id per RFC 3986 2.3) finds the stream but answers "id": "est%5F…", 28 characters and not the stream\'s id, where the canonical spelling answers the stream\'s own id; requests without percent-encoding are right.',
    round: 33,
  },
  {
    name: 'event-stream-get-dates-tenant-zone-unicode-minus',
    rule: 'timestamps.date-time',
    how: 'The detail view shows dates in the tenant\'s time zone (America/New_York), written with the common Intl "sv-SE" trick for ISO-like output and its longOffset zone name with "GMT" cut off: created_at and updated_at of GET /event-streams/{id} read 2025-01-04T06:20:00−05:00, whose minus is U+2212 MINUS SIGN, not the ASCII hyphen RFC 3339 time-numoffset requires, so they are no date-time; GET /event-streams answers the same dates in UTC, right.',
    round: 33,
  },
  {
    name: 'event-stream-get-served-from-list-cache',
    rule: 'event-streams.get.success',
    how: 'GET /event-streams/{id} reads the stream from the cache the list route fills as it pages (a read model built as a side effect of listing), and a cache miss answers 404 instead of falling through to the store: a listed stream read before any GET /event-streams page returned it since the emulator started is answered 404 inexistent_event_stream; once a page holding it was listed (any take, any cursor), it is answered 200 with the stream.',
    round: 33,
  },
  {
    name: 'event-streams-subscriptions-loader-first-batch-only',
    rule: 'event-stream.subscriptions.min-items',
    how: "The list fills each stream's subscriptions through a batch loader whose maximum batch is 50 ids, and the resolver reads only the first batch's result: on a page of more than 50 streams (take 51 to 100) every stream from the 51st on is answered with subscriptions [], below the documented minimum of one; pages of 50 or fewer streams (the default take included) and GET /event-streams/{id} are right.",
    round: 33,
  },
  {
    name: 'event-streams-default-page-next-from-helper-default',
    rule: 'event-streams.list.next.no-duplicates',
    how: "Without take the route sizes the page with its own default (50), but next is built by a shared pagination helper that, given no take, finds the page's last row with its own default of 20: a walk by next without take gets pages of 50 whose next points after their 20th stream, so each page repeats 30 streams of the one before; walks that give take (50 included) are right.",
    round: 33,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'resume-archive-handoff-duplicated',
    rule: 'events.resume.no-duplicate',
    how: "The log is an archive (the imported history) and a hot table whose first row is an anchor copy of the archive's last event; a cursor in the archive is resumed by reading the archive after it and then the whole hot table: resuming from the offset of any history event but the newest delivers that newest history event twice in a row (then the live events once); cursors of the newest history event or of later events, and streams started with from_timestamp, deliver every event once.",
    round: 33,
  },
  {
    name: 'heartbeat-offset-second-checkpoint',
    rule: 'events.resume.heartbeat-offset',
    how: "Heartbeats carry the checkpoint table's position, written at the start of each second, not the stream's current position: a heartbeat sent in the same second as an event it follows names the position before that event, so resuming from it delivers that event again; heartbeats of a second without new events (every one while nothing is caused) name the head and resume right.",
    needs: 'writes',
    round: 33,
  },
  {
    name: 'filtered-start-new-filter-replays-retained',
    rule: 'events.start.replay',
    how: 'Each GET /events with event_type joins a consumer group named after its set of types, and a new group starts at the earliest offset (auto.offset.reset=earliest): the first stream opened without from or from_timestamp for a given set of event types replays every retained event of those types, the six-hour-old history included, before going live; later streams with the same types, and streams without event_type, start at the latest events.',
    round: 33,
  },
  {
    name: 'event-type-filter-substring-of-asked',
    rule: 'events.filter.only-requested',
    how: 'The event_type values are kept as one comma-joined string and an event is delivered when that string includes its type (filter.includes(type)): a stream asked for organization.connection.updated also gets connection.updated, and one asked for organization.group.role.assigned also group.role.assigned, live and replayed; filters whose types contain no other listed type (user.created, group.updated, …) are right.',
    round: 33,
  },
  {
    name: 'event-type-filter-resource-and-action-columns',
    rule: 'events.filter.only-requested',
    how: 'The event_type filter is stored as two columns, the resources (first segment) and the actions (last segment) asked, and matched on both: a stream asked for user.created and group.updated also gets user.updated and group.created, and one asked for organization.member.deleted also organization.deleted, organization.group.role.deleted and organization.member.role.deleted; a filter whose resource and action pairs name only the types asked (user.created, group.member.added, user.created with user.deleted) is right.',
    round: 33,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-alg-member-refused',
    rule: 'custom-signing-keys.put.json',
    how: 'The request is validated by a JSON schema generated from the document\'s JWK table with additionalProperties: false, crv added by hand: a valid JWKS whose keys carry alg (RFC 7517 4.4), ext (as WebCrypto exports keys) or another member outside the table is refused 400 ("must NOT have additional property alg"), though RFC 7517 4 says members not understood MUST be ignored; keys holding only the table\'s members and crv are stored and answered as before.',
    needs: 'writes',
    round: 33,
  },
  {
    name: 'keys-put-kidless-keys-never-deleted',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The PUT runs DELETE … WHERE kid NOT IN (the kids sent) and then upserts the sent keys by kid, and SQL NOT IN is never true for a NULL: stored keys without a kid survive every later PUT, and a PUT that itself holds a key without kid deletes none of the stored keys (only those with a kid it sends are replaced), so the answer holds keys the PUT did not send; sets whose keys all carry a kid are replaced as before.',
    needs: 'writes',
    round: 33,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-line-separators-stripped',
    rule: 'custom-text.put.resulting-map',
    how: 'A step copied from the renderer that inlines texts into script blocks removes U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (which broke JavaScript string literals) when a text is stored: a plain-text value holding either is stored and answered without it, not as sent; values without them are kept as sent.',
    needs: 'writes',
    round: 33,
  },
  {
    name: 'custom-text-answer-keyed-by-page',
    rule: 'custom-text.types',
    how: 'Texts are stored as one document per profile and language keyed by page (the layout of the Universal Login prompts API), and the PUT answers that document: {"get-started": {"introduction": "…"}} instead of the object of the resulting text keys and string values; the texts are stored right.',
    needs: 'writes',
    round: 33,
  },
] as const satisfies readonly Fault[];
