/**
 * Blind round 35: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 35`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round35 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-secret-nfkc-normalised',
    rule: 'oauth.token.bad-client',
    how: 'The credential store treats client secrets as passwords and normalises both the stored and the presented secret with Unicode NFKC before it compares them (the normalisation NIST SP 800-63B recommends for passwords): a wrong secret that spells the right one with compatibility characters (fullwidth letters, digits and signs, ｘ for x, ＋ for +, ： for :, or other characters NFKC folds to ASCII) authenticates the client, in the body or by HTTP Basic, and gets a token instead of 401 invalid_client; secrets that differ otherwise (another letter, the secret cut, another letter case) are refused as before.',
    round: 35,
  },
  {
    name: 'token-response-basic-branch-no-no-store',
    rule: 'oauth.token.response',
    how: "HTTP Basic client authentication is handled by an authentication strategy that, once the client is authenticated, issues the token through its own success callback and writes the response there, past the route's code that sets Cache-Control: no-store and Pragma: no-cache: a token response to a client that authenticated with HTTP Basic (RFC 6749 2.3.1) carries no Cache-Control at all, where RFC 6749 5.1 requires no-store on every response holding a token; clients sending client_id and client_secret in the body get no-store as before.",
    round: 35,
  },
  {
    name: 'token-json-string-body-read-as-form',
    rule: 'oauth.token.grant-type',
    how: 'The JSON flavour of the token endpoint hands a body that parses to a JSON string to the form reader (a fallback written for an SDK that posted its form text under Content-Type: application/json): a JSON body such as "grant_type=client_credentials&client_id=…&client_secret=…&audience=%2Fapi%2Fv2%2F", a string and no object, so carrying no grant_type member, is read as that form and issued a token (200) instead of being refused; JSON strings that do not spell a whole token request (a bare "client_credentials") are still refused 400, as are the other bodies that are no object.',
    round: 35,
  },
  // ------------------------------------------------------ scopes, bearer
  {
    name: 'scope-decision-cached-per-connection',
    rule: 'auth.scope.enforced',
    how: "The authorisation layer memoises its scope decisions on the client connection, as a session (a kept-alive socket taken for one client's): once a request on a connection passed the scope check of an operation, later requests on that connection to the same operation skip the check, whatever token they carry: a valid token that holds none of the in-scope scopes (read:stats only), sent on a kept-alive connection that served an entitled request to that operation before (as a pooling HTTP client sends it), is answered 200 instead of 403; on a new connection, or to an operation the connection has not served yet, it is refused 403 as before.",
    round: 35,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-resolved-before-bearer-check',
    rule: 'token-sets.list.unauthorized',
    how: 'The users router resolves its {id} parameter in an onRequest hook registered before the authentication plugin (it loads the user for every route under /users/{id} and answers 404 when there is none): GET /users/{id}/federated-connections-tokensets for a user that does not exist is answered 404 inexistent_user to a request whose token is invalid (a forged or altered signature, alg none, another key) or missing, instead of the documented 401 with its challenge; requests for an existing user get their 401 as before, and valid tokens are answered as before.',
    round: 35,
  },
  {
    name: 'token-sets-unknown-user-relays-legacy-deprecation',
    rule: 'versioning.lifecycle',
    how: "The listing asks whether the user exists through the users service's v1 endpoint, which is deprecated, and relays its 404 with the upstream headers: the 404 of GET /users/{id}/federated-connections-tokensets for a user that does not exist carries Deprecation: @1704067200 (1 January 2024, RFC 9745), a Sunset date and a Link to the deprecation notice, announcing the Generally Available operation as deprecated since a time already past; the 200 answers for existing users, and the other errors, carry none.",
    round: 35,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-resume-clears-pause-flag-only',
    rule: 'experiments.transition.requested-status',
    how: 'The move to active calls start() for a draft experiment and resume() for a paused one, and resume() was written when pausing was an is_paused flag beside the status: it clears the flag, stamps updated_at and saves, leaving the status as it was: a paused experiment moved to active is answered 200 with status paused and stays paused (the same move is accepted again, with the same answer), where its next state is the requested status; draft to active, and every other move, are right.',
    needs: 'writes',
    round: 35,
  },
  {
    name: 'transition-empty-status-noop',
    rule: 'experiments.transition.status-enum',
    how: 'The request schema checks only that status is present and a string, and the handler returns early when there is "nothing to change" (if (!body.status) return experiment, a guard written for partial updates) before it checks the value against the targets: a body whose status is the empty string ({"status": ""}, not one of active, paused, completed, archived) is answered 200 with the experiment unchanged instead of a 4xx; a missing body, a body without status, status null and the other values outside the enum are refused 400 as before, and an unknown experiment gets 404.',
    needs: 'writes',
    round: 35,
  },
  {
    name: 'transition-archive-answered-as-soft-delete',
    rule: 'experiments.transition.returns-experiment',
    how: "Archiving is implemented by the repository's soft delete (archived_at set, the row left out of lists), and the move to archived is answered by the soft-delete route's responder: the experiment is archived (later moves are judged from archived) but the answer is 204 No Content with no body, instead of the updated experiment the document says a move returns; moves to active, paused and completed answer the experiment, and refused moves keep their 4xx.",
    needs: 'writes',
    round: 35,
  },
  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-id-prefix-optional',
    rule: 'client-grants.get.same-grant',
    how: 'Grant ids are stored without their type prefix, and the path id is read by a prefixed-id helper that strips cgr_ when it is there and takes the id as the key when it is not (to accept the ids handed out before prefixes were introduced): GET /client-grants/{a grant id without cgr_} (9RgSdtKZ23d1XP1s for cgr_9RgSdtKZ23d1XP1s), an id no grant has, is answered 200 with the grant cgr_…, whose id is not the one asked for, instead of 404; ids with the prefix, and unknown ones, are answered as before.',
    round: 35,
  },
  {
    name: 'client-grant-organization-usage-required-spelling',
    rule: 'client-grant.organization-usage.enum',
    how: 'The organisation settings of a grant are merged in from the organisations service, whose enum spells its third value as an adjective (deny, allow, required): a grant whose organization_usage is require (the grant organisations must use) is answered "organization_usage": "required", which is not one of deny, allow, require; grants with deny or allow, spelt alike by both services, are right.',
    round: 35,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'heartbeat-keepalive-timer-without-cursor',
    rule: 'events.offset-only.offset',
    how: "The stream writes its first offset-only message itself, right after the replay, with the current position, but the periodic ones come from the SSE library's keep-alive timer, configured with the offset-only event name so that clients see heartbeats, which knows nothing of the stream's position: every heartbeat after the first (one a heartbeat period) is event: offset-only with data {} and no id field, a cursor-only heartbeat without a cursor; the first heartbeat of each stream carries its offset, in the payload and the id field, as before.",
    round: 35,
  },
  {
    name: 'filtered-stream-payload-offset-missing',
    rule: 'events.payload.offset',
    how: 'A stream asked with event_type is served from the per-type view of the event store, whose rows hold the envelope but not the log offset, and its writer puts the offset into the SSE id field only: every event message of a filtered stream, replayed or live, carries data {"event":…} without offset, where every event message carries a string offset; streams without event_type carry it in the payload as before.',
    round: 35,
  },
  {
    name: 'resume-replay-compacted-per-object',
    rule: 'events.resume.no-loss',
    how: 'The catch-up after a from cursor reads the changelog table, which keeps one row per affected object (an upsert of the latest event of each user, organization, connection, group or membership), instead of the log: of the events after the cursor only the latest of each object is replayed, so an object created and then updated or deleted after the cursor comes back as its last event alone and the earlier ones are lost; a backlog whose events each touch another object, and live events, are delivered whole.',
    round: 35,
  },
  {
    name: 'resume-backlog-pages-read-from-head',
    rule: 'events.resume.order',
    how: "The catch-up after a from cursor reads the log backwards from the head in pages of 25 (ORDER BY seq DESC LIMIT 25, the index's natural direction, down to the cursor), reverses each page and writes the pages as they are read: a backlog of more than 25 events comes out as its newest 25 in order, then the 25 before them, and so on, not in stream order; backlogs of up to 25 events, and streams started without from, are in order.",
    round: 35,
  },
  {
    name: 'live-subscription-replaced-per-token',
    rule: 'events.start.latest',
    how: "The live part of GET /events is a push subscription registered per credential, keyed by the token's jti (so that a client that reconnects replaces its dead stream instead of leaking one): opening a second stream with the same token moves the subscription to it, and the first stream keeps its heartbeats but gets no live event any more, so an event caused after connecting without from does not arrive on a stream whose token opened another stream since; streams opened with different tokens are independent.",
    round: 35,
  },
  {
    name: 'filtered-start-tail-per-type',
    rule: 'events.start.replay',
    how: 'A stream opened with event_type but without from or from_timestamp first replays a warm-up read from the per-type index, the last 10 events of each type asked for (LIMIT 10 per type, merged in log order), then goes live: for a type the tenant seldom emits (connection.created: three events, the newest hours old) the warm-up reaches back to the oldest events the tenant retains, where a start without from hands over only the latest events; streams without event_type start at the latest position.',
    round: 35,
  },
  {
    name: 'events-default-types-first-registry-page',
    rule: 'events.filter.all-when-absent',
    how: 'Without event_type the stream subscribes to every type the event-type registry lists, and the registry is read with its default page size of 20 (one page, in name order): the types after the twentieth, organization.member.role.deleted, organization.updated, user.created, user.deleted and user.updated, are never streamed without event_type (neither replayed nor live), where all event types are; streams that ask for them by event_type get them.',
    round: 35,
  },
  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-subscriptions-joined-to-type-catalogue',
    rule: 'event-stream.subscriptions.min-items',
    how: "Subscriptions are read joined (INNER JOIN) to the tenant's event-type catalogue table for their display names, and the catalogue was seeded before the connection events were released: subscriptions to connection.created and connection.deleted drop out of every answer, so the streams subscribed to connection events only (every seventh stream from the sixth on, and the one after each) are answered with subscriptions [], below the documented minimum of one item, by GET /event-streams and GET /event-streams/{id}; the other subscriptions are answered as before.",
    round: 35,
  },
  {
    name: 'event-streams-from-read-only-as-first-parameter',
    rule: 'event-streams.list.next.terminates',
    how: 'The list reads its cursor by hand from the request target, url.split("?from=")[1] up to the next &, so from is found only as the first query parameter: a request that passes next as from after another parameter (?take=10&from=<next>) is read as a first page and answered the first page again, with the same next, so a walk that writes take before from never ends (and lists its first page over and over); ?from=<next>&take=10, or from alone, walks as before.',
    round: 35,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-put-debounced-as-double-submit',
    rule: 'custom-signing-keys.put.replaces',
    how: "A double-submit guard in front of the keys route (written for the console's Save button) takes a PUT of the same client to the same path within two seconds of the last one it ran for a repetition of it and answers that one's response without running the request: a second PUT /keys/custom-signing sent right after a first one (a client replacing its keys twice in a row) leaves the set of the first in place and is answered 200 with its keys, not the resulting keys of the new request; PUTs more than two seconds apart replace the set as before.",
    needs: 'writes',
    round: 35,
  },
  {
    name: 'keys-deduplicated-by-thumbprint',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Keys are stored under their RFC 7638 thumbprint as primary key (an upsert per key, so that the same key material is never stored twice): two keys of a set that hold the same public key under different kids or uses (a key published twice during a kid rename, or once with use sig and once with key_ops) collapse into one, the last sent, so the answer and the stored set lack the other and are not the keys the PUT set; sets of distinct keys are right.',
    needs: 'writes',
    round: 35,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-length-checked-on-trimmed-copy',
    rule: 'custom-text.put.value.max-length',
    how: "Values are validated by a schema that trims strings before it checks them (Joi's .trim() with convert on), and the handler stores the request body rather than the validated copy: a value of more than 2000 characters whose text without its leading and trailing white space is within 2000 (2000 letters and a trailing line break or spaces, a pasted paragraph) passes the check and is stored and answered as sent, where a value over 2000 characters gets a 4xx; values over the limit without surrounding white space are refused 400 as before.",
    needs: 'writes',
    round: 35,
  },
  {
    name: 'custom-text-form-key-dots-spaces-underscored',
    rule: 'custom-text.put.form',
    how: 'Form bodies are parsed by the PHP-style form reader of the front end, which rewrites the dots and spaces of a field name to underscores (as parse_str and $_POST do): a flat map sent form-encoded whose keys hold a dot or a space (signup.title=Hi, welcome+message=Hi) is stored and answered under signup_title and welcome_message, not the keys sent; keys without them, and the same map sent as JSON, are right.',
    needs: 'writes',
    round: 35,
  },
  {
    name: 'custom-text-backslash-escapes-read',
    rule: 'custom-text.put.resulting-map',
    how: "Plain-text values (those without markup) pass the reader of the old console's export format, which wrote line breaks, tabs and backslashes as \\n, \\t, \\r and \\\\ and reads them back when a text is stored: a plain-text value holding a backslash before n, t, r or another backslash (a Windows path C:\\new\\table, a\\\\b, a pattern such as \\t+) is stored and answered with the escape read (a line break, a tab, one backslash), not the value sent; values without such a pair, and values with markup, are kept as sent.",
    needs: 'writes',
    round: 35,
  },
] as const satisfies readonly Fault[];
