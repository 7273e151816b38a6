/**
 * Blind round 21: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 21`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round21 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-grant-type-hyphen-accepted',
    rule: 'oauth.token.grant-type',
    how: 'grant_type is compared after "-" is mapped to "_" (the service names the grant client-credentials in its gty claim and normalises the two spellings): grant_type=client-credentials, which is not the value RFC 6749 4.4.2 says MUST be sent and so an unsupported grant type (5.2 unsupported_grant_type), gets a token.',
    round: 21,
  },
  {
    name: 'token-basic-issued-without-scopes',
    rule: 'oauth.token.client-auth',
    how: "The scopes of the token are looked up by the client_id body parameter, which a client authenticating with HTTP Basic (RFC 6749 2.3.1) does not send: it gets a 200 token response, but the token's scope is empty, so the operations refuse it 403 instead of accepting it as they accept the token of the body-parameter request.",
    round: 21,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'verify-cache-key-case-insensitive',
    rule: 'auth.jwt.signature',
    how: 'Verified tokens are cached under a key compared case-insensitively (a cache table with a case-insensitive collation): a token that differs from a verified one only in the letter case of some characters (its signature, or payload, with letters flipped; base64url is case-sensitive, so the JWS no longer verifies) is admitted from the cache instead of refused 401.',
    round: 21,
  },
  {
    name: 'api-401-challenge-echoes-client-scheme',
    rule: 'http.unauthorized.challenge',
    how: 'A 401 of /api/v2 answers a challenge of the scheme the client used (the token endpoint\'s RFC 6749 5.2 rule reused): a request sent with Authorization: Basic … or Token … gets WWW-Authenticate: Basic realm="api" (or Token …) instead of the Bearer challenge RFC 6750 3 requires of the resource server.',
    round: 21,
  },
  {
    name: 'event-streams-next-page-scope-unchecked',
    rule: 'auth.scope.enforced',
    how: 'GET /event-streams with a from cursor is served by a page route registered without the scope guard: a token holding none of the in-scope scopes (read:stats only) gets 200 and the next page, where the same token without from is refused 403.',
    round: 21,
  },
  {
    name: 'insufficient-scope-html-error-page',
    rule: 'http.json-error-bodies',
    how: 'The 403 of a token without the required scope is thrown by the scope middleware as an error the framework renders with its default handler: an HTML page (text/html, <pre>InsufficientScopeError: Insufficient scope</pre>) instead of a JSON error body; the other errors stay JSON.',
    round: 21,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-remaining-from-default-window',
    rule: 'rate-limit.header-values',
    how: "X-RateLimit-Remaining is computed against the tenant's default limit while X-RateLimit-Limit and the 429 follow the token's own window: a client with a lower limit is answered 429 with a Remaining of nearly the default limit, greater than the Limit it is shown.",
    needs: 'rate-limit-probe',
    round: 21,
  },
  {
    name: 'rate-limit-writes-only',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter is mounted on the mutating methods only (POST, PUT, PATCH, DELETE): GET requests, the token-set listing among them, are never counted nor answered 429 however many are sent, and carry no X-RateLimit-* headers.',
    needs: 'rate-limit-probe',
    round: 21,
    disputed:
      "Numeric limits and windows are not shown (Limits: \"Numeric rate-limit values and windows: not shown\"), and so neither is which requests count: a token-set listing that reaches no limit within the probe's budget is a listing whose limit lies beyond the probe (the rule's note: an observation, not a failure), and the limit on writes says nothing of the listing's (the real deployment limits each endpoint apart). Headers on the 429 alone are conformant too (the guard rate-limit-on-429-only).",
  },

  // ----------------------------------------------------------- token sets
  {
    name: 'token-set-id-number',
    rule: 'token-set.types',
    how: "The token-set listing answers each set's id as the numeric primary key of its row (a JSON number) instead of the id string the document types it as.",
    round: 21,
  },

  // ---------------------------------------------------------- experiments
  {
    name: 'transition-answer-changed-fields-only',
    rule: 'experiments.transition.returns-experiment',
    how: 'An accepted move answers the update it made (id, status, updated_at and the started_at or ended_at it set: the result of the UPDATE … RETURNING of the changed columns) instead of the experiment object: name, feature_flag_id, allocations and the other required members are missing.',
    needs: 'writes',
    round: 21,
  },

  // -------------------------------------------------------- client grants
  {
    name: 'client-grant-id-lowercase-hex-undecoded',
    rule: 'http.path-id.percent-encoding',
    how: 'GET /client-grants/{id} decodes percent-escapes with a pattern of upper-case hex digits only: an id sent with an unreserved character percent-encoded in lower-case hex (cgr%5f…, the same URI per RFC 3986 2.1 and 2.3) is looked up undecoded and answered 404, while cgr%5F… answers the grant.',
    round: 21,
  },

  // ----------------------------------------------------------- GET /events
  {
    name: 'event-time-unpadded-fields',
    rule: 'timestamps.date-time',
    how: 'The envelope time is written by a hand formatter from the date parts without zero padding (2026-11-27T5:03:07.4Z): RFC 3339 5.6 requires two digits for month, day, hour, minute and second, so every event whose time has a one-digit part (hours 0 to 9, and minutes and seconds below 10) carries a time that is no date-time.',
    round: 21,
  },
  {
    name: 'start-replays-oldest-page',
    rule: 'events.start.replay',
    how: 'A stream opened without from or from_timestamp first replays "the latest events" read with LIMIT 5 and no ORDER BY … DESC: the five oldest retained events of the log (the start of the seeded history), not its newest, then goes live.',
    round: 21,
  },
  {
    name: 'from-and-timestamp-both-applied',
    rule: 'events.from-and-timestamp',
    how: 'Given both from and from_timestamp, the stream resumes after the cursor but keeps the timestamp as a lower bound too (both conditions in one WHERE): events after the cursor that are older than a later from_timestamp are left out, where the document makes the cursor alone decide.',
    round: 21,
  },
  {
    name: 'resume-partitions-concatenated',
    rule: 'events.resume.order',
    how: 'The log is partitioned by the resource of the event type (connection, group, organization, user), and a resumed stream replays the events after the cursor partition by partition, each in order, concatenated: a backlog of user and organization events comes back as all connection ones, then organization, then user, not in stream order.',
    round: 21,
  },
  {
    name: 'event-type-validated-by-prefix',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type is validated with startsWith against the list: a value that begins with a listed type (user.created.v2, user.createdx, organization.deleted_all) is accepted (and matches nothing) instead of refused 4xx.',
    round: 21,
  },
  {
    name: 'sse-data-prefix-doubled',
    rule: 'events.message.data-json',
    how: 'The payload is handed to an SSE writer that adds the "data: " field name, with the field name already written in front of it: every message carries data: data: {…}, so the data a client reads is "data: {…}", not JSON.',
    round: 21,
  },
  {
    name: 'connection-created-oidc-metadata-string',
    rule: 'events.connection-created.object',
    how: 'connection.created carries options.oidc_metadata as the discovery document text the connection cached when it fetched it (a JSON string) instead of the object with its members.',
    round: 21,
  },
  {
    name: 'archive-offsets-not-resumable',
    rule: 'events.resume.no-loss',
    how: 'Events served from the archive (the history before the service started, replayed by from_timestamp) carry an offset of the archive store, a time cursor (base64url of t1:<epoch ms>), which from does not take: resuming from such an event is refused 400 invalid_cursor instead of delivering the events after it.',
    round: 21,
    disputed:
      'How long a cursor stays valid is not shown (Open points 4): a server that refuses the cursors of events logged before some moment (its archive) and resumes from those after it has cursors that expire by the age of their position, as the guard cursor-expires (refused past an hour) does conformantly; no cursor is refused while an older one is accepted, the relation the document does fix.',
  },
  {
    name: 'from-timestamp-ceiled-to-minute',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is rounded to the minute upwards (Math.ceil on minutes) before it is compared: the events from the timestamp to the end of its minute are not delivered, where a server may round down, never up.',
    round: 21,
  },

  // -------------------------------------------------------- event streams
  {
    name: 'event-streams-disabled-subscriptions-empty',
    rule: 'event-stream.subscriptions.min-items',
    how: 'Subscriptions are joined with a condition on their own active flag, which follows the stream status: a disabled stream is answered (list and read) with subscriptions [], below the documented minimum of one item.',
    round: 21,
  },

  // -------------------------------------------------- custom signing keys
  {
    name: 'keys-json-numeric-kid-coerced',
    rule: 'jwk.types',
    how: 'Keys are kept in a column of numeric type affinity (SQLite): a kid that looks like an integer ("2024", "1") is answered as the number 2024, not as the string kid that RFC 7517 4.5 and the document make it; JSON and form bodies alike.',
    needs: 'writes',
    round: 21,
  },
  {
    name: 'keys-ec-p521-refused',
    rule: 'custom-signing-keys.put.json',
    how: 'The EC curve table holds P-256 and P-384 only (the curves of ES256 and ES384, without ES512): a valid EC public key on P-521 (RFC 7518 6.2.1.1) is refused 400, though EC is a documented kty and the JWKS is valid.',
    needs: 'writes',
    round: 21,
    disputed:
      'Which key types a server takes is not shown ("kty: EC is a value; the full list of allowed values: not shown"; "Which fields are required per key type and what each field\'s format is: not shown"): a server that takes EC keys on P-256 and P-384 and refuses P-521 still takes EC keys; the curves are as open as the types, and the suite requires EC P-256 alone.',
  },
  {
    name: 'keys-empty-keys-value-accepted',
    rule: 'custom-signing-keys.put.min-one-key',
    how: 'keys is read as body.keys || []: an empty keys value (the keys= a form sends for no keys, or "" in JSON) is taken as an empty set, stored and answered {"keys": []} instead of refused as a JWKS without its minimum one key.',
    needs: 'writes',
    round: 21,
  },

  // ---------------------------------------------------------- custom text
  {
    name: 'custom-text-sanitiser-reserialised',
    rule: 'custom-text.put.resulting-map',
    how: 'Every value passes through the HTML sanitiser, which parses and serialises it again: plain text holding a bare & or < (Terms & Conditions, 1 < 2) is stored and answered as Terms &amp; Conditions, 1 &lt; 2, so the resulting map is not the text set.',
    needs: 'writes',
    round: 21,
    disputed:
      'Values "may be plain text or rich HTML limited to basic styling tags and hyperlinks" and the answer is "the resulting text keys and values": a server that treats every value as HTML and sanitises it by parsing and serialising it again (as the OWASP XSS prevention cheat sheet recommends; DOMPurify does this) answers Terms &amp; Conditions for Terms & Conditions, the same HTML, since it cannot know which a value is. Text without & < > " \' is checked answered as sent.',
  },
] as const satisfies readonly Fault[];
