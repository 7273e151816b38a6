/**
 * The fault catalogue: each fault breaks exactly one documented rule and
 * leaves the emulator conformant in everything else. Switched on with
 * `--fault NAME` (or EMULATOR_FAULT=NAME, or startEmulator({ fault })).
 * `npm run verify` runs the checks of each fault's rule against an emulator
 * with that fault, and fails unless a check catches it.
 *
 * This line is the one place that says how a fault breaks its rule. A
 * fault that only reshapes an answer is a declarative entry of
 * mutations.ts; one that changes behaviour acts through a seam of seams.ts,
 * named after the behaviour (selftest/emulator/faults.test.ts checks that
 * every fault has one or the other). `FaultName` is the union of the names,
 * so a misspelt name fails the typecheck. Where breaking a rule makes a
 * dependent check fail too (a refused token cannot read anything), the
 * fault still breaks only one statement of the document; the sweep runs
 * only the checks of its rule.
 */
import type { RuleId } from '../../spec/rules.ts';
import { round9 } from './blind/round-9.ts';
import { round1 } from './blind/round-1.ts';
import { round2 } from './blind/round-2.ts';
import { round3 } from './blind/round-3.ts';
import { round4 } from './blind/round-4.ts';
import { round5 } from './blind/round-5.ts';
import { round6 } from './blind/round-6.ts';
import { round7 } from './blind/round-7.ts';
import { round8 } from './blind/round-8.ts';
import { round10 } from './blind/round-10.ts';
import { round11 } from './blind/round-11.ts';
import { round12 } from './blind/round-12.ts';
import { round13 } from './blind/round-13.ts';
import { round14 } from './blind/round-14.ts';
import { round15 } from './blind/round-15.ts';
import { round16 } from './blind/round-16.ts';
import { round17 } from './blind/round-17.ts';
import { round18 } from './blind/round-18.ts';
import { round19 } from './blind/round-19.ts';
import { round20 } from './blind/round-20.ts';
import { round21 } from './blind/round-21.ts';
import { round22 } from './blind/round-22.ts';
import { round23 } from './blind/round-23.ts';
import { round24 } from './blind/round-24.ts';
import { round25 } from './blind/round-25.ts';
import { round26 } from './blind/round-26.ts';
import { round27 } from './blind/round-27.ts';
import { round28 } from './blind/round-28.ts';
import { round29 } from './blind/round-29.ts';
import { round30 } from './blind/round-30.ts';
import { round31 } from './blind/round-31.ts';
import { round32 } from './blind/round-32.ts';
import { round33 } from './blind/round-33.ts';
import { round34 } from './blind/round-34.ts';
import { round35 } from './blind/round-35.ts';
import { round36 } from './blind/round-36.ts';
import { round37 } from './blind/round-37.ts';
import { round38 } from './blind/round-38.ts';
import { round39 } from './blind/round-39.ts';
import { round40 } from './blind/round-40.ts';
import { round41 } from './blind/round-41.ts';
import { round42 } from './blind/round-42.ts';

export interface Fault {
  /** Stable kebab-case name. */
  name: string;
  /** The rule it breaks. */
  rule: RuleId;
  /** One line on how. */
  how: string;
  /**
   * `writes`: the fault shows only through a write or an event the suite
   * causes; `rate-limit-probe`: only through a 429, which the suite asks for
   * only with its rate-limit probe on. The read-only profile of `npm run
   * verify` (no writes, no probe) leaves both out.
   */
  needs?: 'writes' | 'rate-limit-probe';
  /**
   * A fault written blind (by someone who read the document, the standards
   * and this emulator, never the checks), with the round it came in. The
   * whole suite runs against it, as against an independent server: it is
   * caught when any rule fails, whichever rule the writer named.
   */
  round?: number;
  /**
   * Why the suite does not hold the reading of the document this fault
   * breaks (a fault written blind may rest on one): verify still sweeps and
   * reports it, but a miss does not fail verify. The question goes to the
   * document's owner.
   */
  disputed?: string;
  /**
   * A fault written blind that shows only through state one check leaves
   * for another (a refusal cached by one check, read by the next): the
   * checks of the rules that caught it do not catch it alone, so every run
   * sweeps it against the whole suite, as a round's sweep does.
   */
  sweep?: 'whole';
}

export const faults = [
  // ------------------------------------------------------------- general
  {
    name: 'json-as-text-plain',
    rule: 'http.json-bodies',
    how: 'JSON success answers of /api/v2 carry Content-Type text/plain.',
  },
  {
    name: 'client-grant-errors-html',
    rule: 'http.json-error-bodies',
    how: 'Errors of GET /client-grants/{id} (401, 404, ...) come as an HTML page; the other operations answer JSON errors.',
  },
  {
    name: 'malformed-json-500',
    rule: 'http.json-request-bodies',
    how: 'A malformed JSON body of the experiment move escapes the parser as a 500; the other operations answer 400.',
  },
  {
    name: 'experiment-created-at-not-rfc3339',
    rule: 'timestamps.date-time',
    how: "An experiment's created_at is answered as an HTTP date (Wed, 01 Jan 2025 00:00:00 GMT).",
    needs: 'writes',
  },
  {
    name: 'token-set-issued-at-date-only',
    rule: 'timestamps.date-time',
    how: "A token set's issued_at is answered as a date without a time (2025-01-01).",
  },
  {
    name: 'event-stream-updated-at-no-offset',
    rule: 'timestamps.date-time',
    how: "An event stream's updated_at is answered without a time zone offset (ISO 8601 local time, not RFC 3339).",
  },
  {
    name: 'event-time-epoch-seconds',
    rule: 'timestamps.date-time',
    how: "An event envelope's time is answered as Unix epoch seconds in a string.",
  },

  // ------------------------------------------------------ authentication
  {
    name: 'token-exp-default-lifetime-for-every-client',
    rule: 'auth.token.expired',
    how: "Every access token's exp is set from the default lifetime (a day), whatever the client's own: the token response of a client whose tokens live seconds announces its expires_in, and the token is still served 200 long after it.",
  },
  {
    name: 'missing-token-accepted',
    rule: 'auth.bearer.required',
    how: 'GET /client-grants/{id} admits a request without an Authorization header (as the full client).',
  },
  {
    name: 'bearer-check-on-raw-path-prefix',
    rule: 'auth.bearer.required',
    how: 'The bearer check applies to the requests whose path, as sent, starts with /api/v2, while the router decodes the path first: an operation under the base path spelt with a percent-encoded unreserved character (/api/v%32/client-grants/{id}, RFC 3986 2.3: the same path) is served without a token.',
  },
  {
    name: 'malformed-header-accepted',
    rule: 'auth.bearer.malformed',
    how: 'GET /event-streams admits an Authorization header that is not a bearer JWT (Basic, empty, opaque).',
  },
  {
    name: 'tampered-signature-accepted',
    rule: 'auth.jwt.signature',
    how: 'GET /events admits a JWT whose signature does not verify, reading its claims unverified.',
  },
  {
    name: 'limited-token-accepted',
    rule: 'auth.scope.enforced',
    how: 'PUT /keys/custom-signing skips the scope check: a token without the in-scope scopes is admitted.',
    needs: 'writes',
  },
  {
    name: 'wrong-scope-required',
    rule: 'oauth.token.accepted',
    how: 'GET /client-grants/{id} requires read:client_grant (singular), which no issued token holds: 403.',
  },
  {
    name: 'token-sets-bad-token-403',
    rule: 'token-sets.list.unauthorized',
    how: 'The token-set listing answers 403 (not 401) to a token that fails verification.',
  },
  {
    name: 'token-sets-no-token-400',
    rule: 'token-sets.list.unauthorized',
    how: 'The token-set listing answers 400 (not 401) to a request without an Authorization header.',
  },
  {
    name: 'token-sets-scope-401',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The token-set listing answers 401 (not 403) to a valid token without read:federated_connections_tokens.',
  },
  {
    name: 'alg-none-accepted',
    rule: 'auth.jwt.signature',
    how: "GET /event-streams/{id} admits an unsigned JWT (alg none, empty signature) carrying a known client's claims.",
  },
  {
    name: 'jwk-header-trusted',
    rule: 'auth.jwt.signature',
    how: 'The token-set listing verifies a JWT with the key embedded in its own header (jwk), so any key signs a token it admits.',
  },
  {
    name: 'signature-cache-ignores-payload',
    rule: 'auth.jwt.signature',
    how: 'A verification cache keyed by the signature segment only: once a token was verified, its signature admits any payload (a raised scope, a later exp).',
  },
  {
    name: 'client-grant-500-to-valid-token',
    rule: 'oauth.token.accepted',
    how: 'GET /client-grants/{id} answers 500 to every request that passes authentication (the old check counted anything but 401/403 as accepted).',
  },
  {
    name: 'token-sets-scopes-all-of',
    rule: 'token-sets.list.any-required-scope',
    how: 'The token-set listing requires read:federated_connections_tokens and read:users (all of, not any of): the full token passes, a token narrowed to read:federated_connections_tokens gets 403.',
  },

  {
    name: 'client-grants-401-no-challenge',
    rule: 'http.unauthorized.challenge',
    how: 'The 401 answers of GET /client-grants/{id} carry no WWW-Authenticate header.',
  },
  {
    name: 'method-not-allowed-no-allow',
    rule: 'http.method-not-allowed.allow',
    how: 'The 405 answers to a method a path does not take carry no Allow header.',
  },

  // ------------------------------------------------------ token endpoint
  {
    name: 'token-endpoint-basic-scheme-cased',
    rule: 'oauth.token.client-auth',
    how: 'The token endpoint takes HTTP Basic client authentication only with the scheme written "Basic": "basic" or "BASIC" is refused 401 invalid_client.',
  },
  {
    name: 'token-reissue-refused',
    rule: 'oauth.token.endpoint',
    how: 'A second token request of a client answers 400 invalid_request (one live token per client).',
  },
  {
    name: 'token-endpoint-json-only',
    rule: 'oauth.token.endpoint',
    how: "The token endpoint parses JSON bodies only: the documented form body is answered 415 (the run's own tokens come by the JSON fallback).",
  },
  {
    name: 'token-endpoint-no-slash',
    rule: 'oauth.token.endpoint',
    how: "The token endpoint is served at /oauth/token only: the documented /oauth/token/ answers 404 (the run's own tokens come by the fallback).",
  },
  { name: 'token-response-no-token-type', rule: 'oauth.token.response', how: 'The token response has no token_type.' },
  {
    name: 'token-not-jwt',
    rule: 'oauth.token.jwt',
    how: 'The token endpoint issues opaque access tokens (a reference the emulator resolves), not JWTs.',
  },
  {
    name: 'token-wrong-secret-accepted',
    rule: 'oauth.token.bad-client',
    how: 'The token endpoint checks the client id but not the client secret.',
  },
  {
    name: 'token-scope-checked-against-api',
    rule: 'token-sets.list.insufficient-scope',
    how: "A requested scope is checked against the API's scope catalogue, not the client's grant: a client asking for a scope it was not granted (read:federated_connections_tokens) gets a token holding it, and the token-set listing serves it.",
  },
  {
    name: 'token-scope-refusal-without-error',
    rule: 'oauth.token.endpoint',
    how: 'A token request for a scope beyond the client\'s grant is refused 400 with {"message": ...}: no RFC 6749 5.2 error member.',
  },
  {
    name: 'token-audience-refusal-without-error',
    rule: 'oauth.token.endpoint',
    how: 'A token request for an audience the tenant does not serve is refused 403 with {"message": ...}: no RFC 6749 5.2 error member.',
  },
  {
    name: 'token-json-array-read-as-first-element',
    rule: 'oauth.token.grant-type',
    how: 'A JSON token request body that is an array is read as its first element: the parameters in an array get a token.',
  },
  {
    name: 'token-basic-first-token68-only',
    rule: 'oauth.token.bad-client',
    how: 'The Basic credentials are read as the first token68 after the scheme, the rest of the field ignored: the right credentials followed by another word authenticate.',
  },
  {
    name: 'token-scope-not-verb-resource',
    rule: 'auth.scope.form',
    how: 'The token response names its scopes as <resource>/<verb> (client_grants/read).',
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-not-enforced',
    rule: 'token-sets.list.rate-limit.status',
    how: 'Requests over the limit are counted (Remaining 0) but answered as usual, never 429.',
  },
  {
    name: 'rate-limit-503',
    rule: 'token-sets.list.rate-limit.status',
    how: 'Requests over the limit are answered 503 instead of 429.',
  },
  {
    name: 'rate-limit-429-no-reset',
    rule: 'token-sets.list.rate-limit.headers',
    how: 'A 429 carries X-RateLimit-Limit and -Remaining but no X-RateLimit-Reset.',
  },
  {
    name: 'rate-limit-remaining-negative',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Remaining counts on below zero over the limit (-1 on the first 429).',
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-wrapped',
    rule: 'token-sets.list.success',
    how: 'The token-set listing answers an object { token_sets: [...] } instead of an array.',
  },
  {
    name: 'token-sets-status-201',
    rule: 'token-sets.list.success',
    how: 'The token-set listing answers 201 instead of the documented 200.',
  },
  {
    name: 'token-set-scope-array',
    rule: 'token-set.types',
    how: "A token set's scope is an array of strings instead of a string.",
  },
  {
    name: 'user-id-301-accepted',
    rule: 'token-sets.list.user-id.max-length',
    how: 'A user id over 300 characters skips the length check and the lookup: 200 with an empty array.',
  },
  {
    name: 'user-id-300-refused',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The user id limit is off by one: an id of exactly 300 characters is refused (400).',
  },
  {
    name: 'unknown-user-empty-list',
    rule: 'token-sets.list.unknown-user',
    how: 'An unknown user is answered 200 with an empty array instead of 404.',
  },
  {
    name: 'token-sets-expired-listed',
    rule: 'token-sets.list.active-only',
    how: 'Token sets whose expires_at has passed are still listed (no filter when the list is read).',
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-refuses-every-move',
    rule: 'experiments.transition.returns-experiment',
    how: 'Every move is refused (409), so no move returns the experiment.',
  },
  {
    name: 'transition-answers-no-body',
    rule: 'experiments.transition.returns-experiment',
    how: 'An accepted move is made but answered 204 with no body: the updated experiment is not returned.',
  },
  {
    name: 'transition-status-unchanged',
    rule: 'experiments.transition.requested-status',
    how: 'An accepted move is answered with the experiment as it was before (the previous status).',
  },
  {
    name: 'transition-returns-other-experiment',
    rule: 'experiments.transition.same-experiment',
    how: 'An accepted move is answered with the id of another experiment.',
  },
  {
    name: 'transition-to-draft-accepted',
    rule: 'experiments.transition.draft-rejected',
    how: 'draft is accepted as a target and the experiment moves back to draft.',
  },
  {
    name: 'transition-unknown-status-ignored',
    rule: 'experiments.transition.status-enum',
    how: 'A status outside the enum is ignored: 200 with the experiment unchanged.',
  },
  {
    name: 'transition-missing-status-ignored',
    rule: 'experiments.transition.status-required',
    how: 'A missing body, a body without status or status null is ignored: 200 with the experiment unchanged.',
  },
  {
    name: 'experiment-id-with-zero',
    rule: 'experiment.id.pattern',
    how: 'Experiment ids are minted with a 0 (exp_0…), outside the documented pattern.',
  },
  {
    name: 'experiment-status-uppercase',
    rule: 'experiment.status.enum',
    how: "The experiment's status is answered in upper case (ACTIVE).",
  },
  {
    name: 'experiment-allocation-strategy-unknown',
    rule: 'experiment.allocation-strategy.enum',
    how: 'allocation_strategy percentage is answered as percent.',
  },
  {
    name: 'experiment-allocation-weight-string',
    rule: 'experiment.allocation.types',
    how: 'An allocation\'s weight is answered as a string ("50").',
  },
  { name: 'experiment-is-valid-string', rule: 'experiment.types', how: 'is_valid is answered as the string "true".' },
  {
    name: 'experiment-missing-feature-flag',
    rule: 'experiment.required',
    how: 'The experiment is answered without feature_flag_id.',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-in-array',
    rule: 'client-grants.get.success',
    how: 'The client grant is answered inside a one-element array.',
  },
  {
    name: 'client-grant-other-grant',
    rule: 'client-grants.get.same-grant',
    how: 'GET /client-grants/{id} answers another grant (the next one).',
  },
  {
    name: 'client-grant-id-encoded-unreserved-404',
    rule: 'http.path-id.percent-encoding',
    how: 'A client grant id whose path segment percent-encodes an unreserved character (%63 for c, RFC 3986 2.3) is looked up undecoded and answered 404.',
  },
  {
    name: 'client-grant-is-system-string',
    rule: 'client-grant.types',
    how: 'is_system is answered as the string "false".',
  },
  {
    name: 'client-grant-audience-empty',
    rule: 'client-grant.audience.min-length',
    how: 'audience is answered as the empty string.',
  },
  {
    name: 'client-grant-scope-empty-item',
    rule: 'client-grant.scope.items.min-length',
    how: 'scope carries an empty string item.',
  },
  {
    name: 'client-grant-organization-usage-unknown',
    rule: 'client-grant.organization-usage.enum',
    how: 'organization_usage is answered as forbid.',
  },
  {
    name: 'client-grant-default-for-unknown',
    rule: 'client-grant.default-for.enum',
    how: 'A grant is answered as default_for first_party_clients (without client_id).',
  },
  {
    name: 'client-grant-subject-type-unknown',
    rule: 'client-grant.subject-type.enum',
    how: 'subject_type is answered as machine.',
  },
  {
    name: 'client-grant-authorization-details-type-256',
    rule: 'client-grant.authorization-details-types.length',
    how: 'authorization_details_types carries an item of 256 characters.',
  },
  {
    name: 'client-grant-cached-wrong',
    rule: 'client-grant.types',
    how: 'The first read of a grant is right; from the second read on (served from a cache) scope is one space-separated string.',
  },
  {
    name: 'client-grant-client-id-and-default-for',
    rule: 'client-grant.client-id-default-for.exclusive',
    how: 'A grant with client_id is answered with default_for third_party_clients as well.',
  },

  // -------------------------------------------------------------- events
  {
    name: 'events-content-type-text-plain',
    rule: 'events.content-type',
    how: 'GET /events streams SSE frames with Content-Type text/plain.',
  },
  {
    name: 'heartbeat-event-named-heartbeat',
    rule: 'events.message.event-field',
    how: 'Heartbeats carry the SSE event field heartbeat instead of offset-only.',
  },
  {
    name: 'data-pretty-printed',
    rule: 'events.message.data-json',
    how: 'Event payloads are pretty-printed over several data lines, none of them JSON on its own.',
  },
  {
    name: 'event-offset-only-in-id',
    rule: 'events.payload.offset',
    how: 'Event payloads carry no offset (only the SSE id field does).',
  },
  {
    name: 'envelope-double-encoded',
    rule: 'events.payload.envelope',
    how: "The payload's event is the envelope JSON-encoded a second time (a string, not an object).",
  },
  {
    name: 'payload-type-mismatch',
    rule: 'events.payload.type-matches',
    how: 'Event payloads carry type "message" whatever the SSE event field says.',
  },
  {
    name: 'envelope-type-reverse-dns',
    rule: 'events.payload.type-matches',
    how: 'The envelope type is com.conformance.<type> while the SSE event field is <type>.',
  },
  {
    name: 'context-latitude-string',
    rule: 'events.context.types',
    how: 'context.request.geo.latitude is a string ("52.52").',
  },
  {
    name: 'connection-created-enabled-clients-string',
    rule: 'events.connection-created.object',
    how: 'connection.created carries enabled_clients as a comma-separated string.',
    needs: 'writes',
  },
  {
    name: 'heartbeat-without-offset',
    rule: 'events.offset-only.offset',
    how: 'offset-only heartbeats carry no cursor: an empty object and no SSE id field.',
  },
  {
    name: 'resume-loses-event-k1',
    rule: 'events.resume.no-loss',
    how: 'Resuming from the offset of event k starts after event k+1.',
  },
  {
    name: 'resume-repeats-event-k',
    rule: 'events.resume.no-duplicate',
    how: 'Resuming from the offset of event k starts at event k (inclusive).',
  },
  { name: 'resume-reordered', rule: 'events.resume.order', how: 'Events replayed from a cursor come newest first.' },
  {
    name: 'heartbeat-offset-ahead',
    rule: 'events.resume.heartbeat-offset',
    how: 'Heartbeats carry the offset of the next event, so resuming from one loses that event.',
    needs: 'writes',
  },
  {
    name: 'live-events-need-from',
    rule: 'events.start.latest',
    how: 'Without from or from_timestamp the stream sends only heartbeats, no live event.',
  },
  {
    name: 'from-timestamp-ignored',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is validated and then ignored: the stream starts at the latest position.',
    needs: 'writes',
  },
  {
    name: 'from-timestamp-21-accepted',
    rule: 'events.from-timestamp.max-length',
    how: 'from_timestamp has no length limit (any RFC 3339 value is accepted).',
  },
  {
    name: 'from-1025-accepted',
    rule: 'events.from.max-length',
    how: 'A from over 1024 characters is ignored (stream from the latest position) instead of refused.',
  },
  {
    name: 'event-type-filter-ignored',
    rule: 'events.filter.only-requested',
    how: 'event_type is validated and then ignored: every type is streamed.',
  },
  {
    name: 'organization-events-only-on-request',
    rule: 'events.filter.all-when-absent',
    how: 'Without event_type, organization.* events are left out (streamed only when asked for).',
  },
  {
    name: 'unknown-event-type-accepted',
    rule: 'events.filter.unknown-rejected',
    how: 'An event_type outside the list is accepted (it matches nothing).',
  },
  {
    name: 'heartbeat-offset-behind',
    rule: 'events.resume.heartbeat-offset',
    how: 'Heartbeats carry the offset of the event before the current position, so resuming from one repeats the latest event.',
  },
  {
    name: 'start-replays-history',
    rule: 'events.start.replay',
    how: 'Without from, the stream first replays every retained event (the whole history), then goes live.',
  },
  {
    name: 'from-timestamp-beats-cursor',
    rule: 'events.from-and-timestamp',
    how: 'Given both from and from_timestamp, the stream starts at the timestamp and the cursor is dropped.',
  },
  {
    name: 'from-timestamp-local-time',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is read as UTC+01:00 local time: the stream starts an hour early.',
  },
  {
    name: 'history-oidc-metadata-boolean-string',
    rule: 'events.connection-created.object',
    how: 'connection.created events of the history carry options.oidc_metadata.claims_parameter_supported as the string "false" (live ones are right).',
  },
  {
    name: 'second-connection-created-scope-array',
    rule: 'events.connection-created.object',
    how: 'The second connection.created of the history carries options.scope as an array of string.',
  },
  {
    name: 'resume-history-loses-one',
    rule: 'events.resume.no-loss',
    how: 'Resuming from the offset of a history event (not a live one) loses the event after it.',
  },
  {
    name: 'resumed-offsets-one-behind',
    rule: 'events.resume.no-duplicate',
    how: 'Events replayed after a cursor carry the offset of the event before them, so a second resumption from one of them repeats it.',
  },
  {
    name: 'filter-live-only',
    rule: 'events.filter.only-requested',
    how: 'event_type filters live events only: replayed events (from_timestamp, from) come whatever their type.',
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-get-404',
    rule: 'event-streams.get.success',
    how: 'GET /event-streams/{id} answers 404 for every stream, listed ones included.',
  },
  {
    name: 'event-stream-get-other-stream',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams/{id} answers the next stream in list order.',
  },
  {
    name: 'stream-id-length-unchecked',
    rule: 'event-streams.get.id.length',
    how: 'An id of a length other than 26 reaches the store, which fails (503).',
  },
  {
    name: 'stream-id-truncated',
    rule: 'event-streams.get.id.length',
    how: 'An id over 26 characters is cut to 26 and then served: a listed id with one character more answers that stream.',
  },
  {
    name: 'event-streams-list-snake-case',
    rule: 'event-streams.list.success',
    how: 'The list answers event_streams instead of eventStreams.',
  },
  { name: 'take-0-accepted', rule: 'event-streams.list.take.range', how: 'take=0 is accepted (an empty page).' },
  { name: 'take-101-accepted', rule: 'event-streams.list.take.range', how: 'take=101 is accepted (101 streams).' },
  {
    name: 'take-read-by-parseint',
    rule: 'event-streams.list.take.range',
    how: 'take is read with parseInt: the digits before any other character count (take=2abc is 2, take=99.5 is 99, take=2e3 is 2).',
  },
  { name: 'page-size-take-plus-one', rule: 'event-streams.list.take.page-size', how: 'A page holds take+1 streams.' },
  {
    name: 'page-short-with-next',
    rule: 'event-streams.list.take.page-size',
    how: 'A page holds take-1 streams while more follow.',
  },
  {
    name: 'default-page-size-20',
    rule: 'event-streams.list.take.default',
    how: 'Without take, a page holds 20 streams instead of 50.',
  },
  {
    name: 'next-loops-on-last-page',
    rule: 'event-streams.list.next.terminates',
    how: "The last page's next is the cursor that led to it, so following next never ends.",
  },
  {
    name: 'event-streams-page2-repeats',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'Only the second page is broken: its first stream is the last one of the first page again.',
  },
  {
    name: 'next-overlaps-one',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'next points before the last stream of the page, so it appears again on the next page.',
  },
  {
    name: 'next-skips-one',
    rule: 'event-streams.list.next.no-gap',
    how: 'next points after the first stream of the next page, which is never listed.',
  },
  {
    name: 'event-streams-page2-wrong-shape',
    rule: 'event-stream.types',
    how: 'Only the second page is broken: its first stream has subscriptions as a string.',
  },
  {
    name: 'event-stream-webhook-endpoint-object',
    rule: 'event-stream.types',
    how: 'destination.configuration.webhook_endpoint is an object { url } instead of a string.',
  },
  {
    name: 'event-stream-id-25',
    rule: 'event-stream.id.length',
    how: 'The eleventh event stream is answered with an id of 25 characters (the last one cut).',
  },
  {
    name: 'event-stream-name-129',
    rule: 'event-stream.name.length',
    how: 'The stream named with 128 characters is answered with 129.',
  },
  {
    name: 'event-stream-subscriptions-empty',
    rule: 'event-stream.subscriptions.min-items',
    how: 'Event streams are answered with subscriptions [].',
  },
  {
    name: 'event-stream-status-enabledd',
    rule: 'event-stream.status.enum',
    how: 'status enabled is answered as enabledd.',
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-private-members-stored',
    rule: 'custom-signing-keys.put.public-only',
    how: 'A key sent with its private part (d) is stored and answered with it.',
    needs: 'writes',
  },
  {
    name: 'keys-json-415',
    rule: 'custom-signing-keys.put.json',
    how: 'PUT /keys/custom-signing refuses application/json bodies with 415 (form only).',
  },
  {
    name: 'keys-ec-refused',
    rule: 'custom-signing-keys.put.json',
    how: 'A valid EC P-256 public key is refused with 400 (RSA only), although `EC` is a documented kty value.',
  },
  {
    name: 'keys-form-415',
    rule: 'custom-signing-keys.put.form',
    how: 'PUT /keys/custom-signing refuses form-encoded bodies with 415.',
  },
  {
    name: 'keys-put-appends',
    rule: 'custom-signing-keys.put.replaces',
    how: 'A PUT adds its keys to the stored set instead of replacing it.',
  },
  {
    name: 'keys-empty-array-accepted',
    rule: 'custom-signing-keys.put.min-one-key',
    how: 'keys [] is accepted and stored.',
  },
  {
    name: 'keys-answer-as-map',
    rule: 'jwks.keys',
    how: "The answer's keys is an object keyed by kid instead of an array.",
  },
  { name: 'jwk-key-ops-string', rule: 'jwk.types', how: 'key_ops is answered as a space-separated string.' },
  {
    name: 'jwk-x5c-string',
    rule: 'jwk.types',
    how: 'The answered keys carry x5c as one base64 string instead of an array of strings.',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-json-415',
    rule: 'custom-text.put.json',
    how: 'PUT custom text refuses application/json bodies with 415 (form only).',
  },
  {
    name: 'custom-text-key-refused',
    rule: 'custom-text.put.json',
    how: 'A plain-text value within the limits under the key introduction is refused with 400 (HTML values pass).',
  },
  {
    name: 'custom-text-non-string-accepted',
    rule: 'custom-text.put.value.type',
    how: 'Numbers and booleans as values are accepted and stored as strings (42 becomes "42").',
  },
  {
    name: 'custom-text-form-415',
    rule: 'custom-text.put.form',
    how: 'PUT custom text refuses form-encoded bodies with 415.',
  },
  {
    name: 'custom-text-answers-previous-map',
    rule: 'custom-text.put.resulting-map',
    how: 'A PUT stores the map but answers the map as it was before.',
  },
  {
    name: 'custom-text-2001-accepted',
    rule: 'custom-text.put.value.max-length',
    how: 'Values over 2000 characters are accepted and stored.',
  },
  {
    name: 'custom-text-any-language',
    rule: 'custom-text.put.language.enum',
    how: 'Any language is accepted in the path.',
  },
  { name: 'custom-text-any-page', rule: 'custom-text.put.page.enum', how: 'Any page is accepted in the path.' },
  {
    name: 'custom-text-links-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'A value with a hyperlink (<a>) is refused (400).',
  },
  {
    name: 'custom-text-script-stored',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML allow-list is skipped: a <script> element is stored and answered as given.',
  },
  {
    name: 'token-grant-type-ignored',
    rule: 'oauth.token.grant-type',
    how: 'The token endpoint never reads grant_type: a request with grant_type empty, password or refresh_token (without the parameters those grants need) gets a client-credentials token.',
  },
  {
    name: 'custom-text-style-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'Style attributes are not checked: CSS that runs or loads script (url(javascript:...), expression(), behavior, -moz-binding) is stored as given.',
  },
  {
    name: 'custom-text-values-as-objects',
    rule: 'custom-text.types',
    how: 'The answer maps each key to { text: value } instead of the string.',
  },

  // The faults written blind, a round a file (see Fault.round).
  ...round9,
  ...round1,
  ...round2,
  ...round3,
  ...round4,
  ...round5,
  ...round6,
  ...round7,
  ...round8,
  ...round10,
  ...round11,
  ...round12,
  ...round13,
  ...round14,
  ...round15,
  ...round16,
  ...round17,
  ...round18,
  ...round19,
  ...round20,
  ...round21,
  ...round22,
  ...round23,
  ...round24,
  ...round25,
  ...round26,
  ...round27,
  ...round28,
  ...round29,
  ...round30,
  ...round31,
  ...round32,
  ...round33,
  ...round34,
  ...round35,
  ...round36,
  ...round37,
  ...round38,
  ...round39,
  ...round40,
  ...round41,
  ...round42,
] as const satisfies readonly Fault[];

/** A fault of the catalogue, by name. */
export type FaultName = (typeof faults)[number]['name'];

/**
 * Must rules that no fault breaks, each with the reason. `npm run verify`
 * fails on a must rule that has neither a fault nor a reason here. (Rules
 * marked `observable: false` in spec/rules.ts need no entry.)
 */
export const unfaulted: Partial<Record<RuleId, string>> = {};

/** The catalogue's names, for option validation and messages. */
export const faultNames: readonly FaultName[] = faults.map((f) => f.name);
