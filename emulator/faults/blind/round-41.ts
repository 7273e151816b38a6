/**
 * Blind round 41: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 41`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round41 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-signature-standard-base64',
    rule: 'oauth.token.jwt',
    how: 'The hand-rolled signer encodes the signature segment with Buffer.toString("base64") and strips the padding, forgetting to map + and / to - and _ (the header and claims go through the base64url helper), and the API\'s verifier reads both alphabets: every access token POST /oauth/token/ issues carries a third segment with + and / in it, where "the token is a JWT" and RFC 7515 7.1 builds the compact serialization from "BASE64URL(JWS Signature)" (RFC 7515 2: base64url, "with all trailing \'=\' characters omitted" and the URL-safe alphabet of RFC 4648 5); the header and payload decode to JSON as before, the token is accepted by every operation, and the token response is otherwise as before.',
    round: 41,
  },
  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-route-key-with-query-string',
    rule: 'token-sets.list.rate-limit.status',
    how: 'The limiter finds the route\'s policy by matching request.url, query string included, against its table of paths: a token-set listing sent with any query string (GET /users/{id}/federated-connections-tokensets?x=1, a cache buster, an SDK\'s include_totals) matches no policy and is never counted or refused, so the rate-limited client gets 200 however many it sends within a window, where every request over the limit is answered "429: Too many requests"; listings without a query string are counted and refused 429 with the X-RateLimit headers as before.',
    needs: 'rate-limit-probe',
    round: 41,
  },
  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-403-legacy-scope-deprecation',
    rule: 'versioning.lifecycle',
    how: 'The 403 handler of the listing was written to nudge clients still holding the retired read:user_idp_tokens scope towards read:federated_connections_tokens, and sets its Deprecation: @1719792000 and Link rel="deprecation" headers on every 403: GET /users/{id}/federated-connections-tokensets with a token lacking the scope is answered 403 announcing a deprecation dated in the past, where "The token-set listing is Generally Available" (RFC 9745: Deprecation with a past date says the resource is deprecated); the 200, 401, 404 and 429 answers carry no Deprecation header as before.',
    round: 41,
  },
  {
    name: 'token-sets-long-id-proxy-html-400',
    rule: 'http.json-error-bodies',
    how: 'The edge proxy in front of the users service limits a path segment to 300 characters and refuses a longer one with its own error page: GET /users/{id}/federated-connections-tokensets with an id over 300 characters is answered 400 (as the limit asks) with a text/html page, where "All request and response bodies are JSON unless stated"; the 401, 403 and 404 of the listing, and the 400s of the other operations, are JSON as before.',
    round: 41,
  },
  {
    name: 'token-set-recent-last-used-humanized',
    rule: 'timestamps.date-time',
    how: 'The shared serializer runs date members through the admin console\'s humanize filter, which rewrites times of the last 24 hours: a token set used within the last day is listed by GET /users/{id}/federated-connections-tokensets with last_used_at like "58 minutes ago", where "All timestamps are ISO 8601 / RFC 3339 date-time strings" (last_used_at: date-time string or null); older last_used_at values, null ones, issued_at and expires_at are RFC 3339 as before.',
    round: 41,
  },
  // ----------------------------------------------------------- experiments
  {
    name: 'transition-array-body-first-element',
    rule: 'experiments.transition.status-required',
    how: 'The move handler is shared with the bulk-move endpoint, which takes an array of moves: POST /experimentation/experiments/{id}/status with the JSON body [{"status":"active"}] (no object, so no status member) moves the experiment and answers 200, where the request body is an "object with `status`: enum string, required" and a body without status is refused with a 4xx; object bodies, with or without status, are handled as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'transition-second-move-created-at-omitted',
    rule: 'experiment.required',
    how: 'After a move the write-through cache keeps the changed columns merged onto the list projection, which has no created_at, and a later move of the same experiment is answered from that row: the second and later POST /experimentation/experiments/{id}/status of an experiment answer 200 without created_at, where created_at is a required member of the experiment; the first move of each experiment, and refused moves, are answered as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'transition-segment-strategy-service-enum',
    rule: 'experiment.allocation-strategy.enum',
    how: 'The move\'s answer passes through the allocation_strategy value the targeting service returns, whose enum names the segment strategy segment_based: POST /experimentation/experiments/{id}/status of an experiment with allocation_strategy segment answers "allocation_strategy": "segment_based", where allocation_strategy is an enum string of "`percentage`, `segment`"; percentage experiments, and the other members, are answered as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'transition-name-localised-with-accept-language',
    rule: 'experiment.types',
    how: 'The i18n middleware answers the localisable members as a language map whenever the request carries Accept-Language: POST /experimentation/experiments/{id}/status with Accept-Language: en-US answers "name": {"en-US": "…"}, where the experiment\'s name is a string; moves sent without Accept-Language, and the other members, are answered as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'transition-404-body-python-repr',
    rule: 'http.json-error-bodies',
    how: "The experiments service's not-found handler returns str(error), Python's repr of the error dict, under the JSON media type: POST /experimentation/experiments/{id}/status for an id no experiment has is answered 404 with Content-Type: application/json and the body {'statusCode': 404, 'error': 'Not Found', …} (single quotes), which is not JSON, where \"All request and response bodies are JSON unless stated\"; the 400 and 409 refusals of the move, and the 404s of the other operations, are JSON as before.",
    needs: 'writes',
    round: 41,
  },
  // ---------------------------------------------------------- client grants
  {
    name: 'client-grant-org-required-filtered-404',
    rule: 'client-grants.get.success',
    how: 'The read reuses the listing\'s query, whose default filter leaves out grants that organisations must use (organization_usage = require, listed through the organisation\'s own endpoint): GET /client-grants/{id} of a grant whose organization_usage is require is answered 404, where "Success: the client grant object"; grants whose organization_usage is deny or allow, or unset (the default_for grant, the system grant), are answered 200 as before.',
    round: 41,
  },
  // ---------------------------------------------------------- event streams
  {
    name: 'event-streams-later-pages-ids-unprefixed',
    rule: 'event-stream.id.length',
    how: 'The pages after the first come from a keyset query on the raw table, whose row key lacks the est_ type prefix the repository adds: GET /event-streams?from=<next> answers each stream with a 22-character id, where the event stream id is "Exactly 26 characters"; the first page (no from), GET /event-streams/{id}, and the next cursors themselves are as before.',
    round: 41,
  },
  {
    name: 'event-stream-status-auto-suspended',
    rule: 'event-stream.status.enum',
    how: 'The delivery worker writes its own status, suspended, over a disabled stream it switched off after failed deliveries (every disabled stream updated after it was created), and the reads pass it through: GET /event-streams/{id} and GET /event-streams answer such streams with "status": "suspended", where status is an enum string of "`enabled`, `disabled`; maximum length 8"; enabled streams and disabled streams never updated since they were created are answered as before.',
    round: 41,
  },
  {
    name: 'event-stream-name-tenant-qualified',
    rule: 'event-stream.name.length',
    how: 'The store keeps each stream\'s name tenant-qualified (conformance/<name>) to satisfy a global unique index, and the read path forgets to strip the prefix: GET /event-streams/{id} and GET /event-streams answer names 12 characters longer, so a stream named with more than 116 characters is answered with a name over 128, where the name has "Length 1 to 128"; ids, subscriptions and the other members are answered as before.',
    round: 41,
  },
  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-kidless-key-numeric-kid',
    rule: 'jwk.types',
    how: 'A key sent without kid is given the row\'s serial number as its kid, answered as a JSON number: PUT /keys/custom-signing with a key that has no kid answers that key with "kid": 1 (its position), where the JWK\'s kid is a string (RFC 7517 4.5: "The "kid" value is a case-sensitive string"); keys sent with a kid are answered with it as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'keys-rsa-exponent-four-octets',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The key writer parses e into a 32-bit integer and writes it back from its four-octet big-endian form: PUT /keys/custom-signing with an RSA key whose e is AQAB answers that key with "e": "AAEAAQ", where the answer holds the keys sent ("Success: JWKS object with `keys` (the resulting keys)"; RFC 7518 6.3.1.2: e is a Base64urlUInt, which "MUST utilize the minimum number of octets to represent the value"); EC keys, and every other member of RSA keys, are answered as sent as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'keys-empty-json-body-500',
    rule: 'http.json-request-bodies',
    how: 'The JSON parser hands an empty body on as undefined and the handler reads body.keys of it: PUT /keys/custom-signing with Content-Type: application/json and no content (Content-Length: 0) is answered 500, where "All request and response bodies are JSON" and a body that is not JSON is refused with a 4xx; malformed JSON bodies get 400, and the other operations refuse an empty JSON body 400, as before.',
    needs: 'writes',
    round: 41,
  },
  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-formula-prefix-escaped',
    rule: 'custom-text.put.resulting-map',
    how: 'The guard against spreadsheet formula injection, meant for the CSV export, runs when the text is stored: a value that starts with =, +, - or @ ("- Step one", "@support") is stored and answered by PUT /self-service-profiles/{id}/custom-text/en/get-started with a \' before it, where "Success: object of the resulting text keys and values" maps each key to the value sent; values starting with any other character are stored and answered as sent as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'custom-text-href-fragment-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The link validator\'s URL pattern ends the URL at #, so an href with a fragment is not taken for a URL: PUT /self-service-profiles/{id}/custom-text/en/get-started with a value holding <a href="https://example.com/help#faq">FAQ</a> is refused 400, where values "may be plain text or rich HTML limited to basic styling tags and hyperlinks"; https links without a fragment, and <b> and <i>, are taken as before.',
    needs: 'writes',
    round: 41,
  },
  // ----------------------------------------------------------------- events
  {
    name: 'live-geo-time-zone-object',
    rule: 'events.context.types',
    how: 'The live path\'s geo lookup moved to a newer GeoIP client that returns the time zone as an object: every event caused after connecting arrives on GET /events with context.request.geo.time_zone as {"name": "Europe/Berlin", "abbreviation": "CET", "offset_seconds": 3600}, where context.request.geo.time_zone is a string; the events of the stored history, and the other geo members, are as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'envelope-type-subresource-underscored',
    rule: 'events.payload.type-matches',
    how: 'The envelope type is built from the internal enum (ORGANIZATION_MEMBER_ROLE_ASSIGNED) by a mapper that joins the sub-resource with an underscore, while the SSE event field comes from the documented name: events of the four-part types (organization.member.role.assigned, organization.group.role.deleted, …) arrive with event: organization.member.role.assigned and an envelope type organization.member_role.assigned, where the payload type is "Injected from the SSE event field" and the envelope type is "The event type"; events of the two- and three-part types agree as before.',
    round: 41,
  },
  {
    name: 'history-payload-offset-json-encoded-twice',
    rule: 'events.resume.no-loss',
    how: 'The archive\'s offset column holds JSON text and the payload writer encodes it again: every event of the stored history replayed on GET /events (from_timestamp, or a cursor before the live part) carries an offset wrapped in quotation marks ("\\"…\\""), which the stream refuses 400 as from, where the offset is the cursor to "pass it as the `from` query parameter to resume"; the SSE id field of those messages, and the offsets of live events and heartbeats, are as before.',
    round: 41,
  },
  {
    name: 'updated-events-object-as-json-patch',
    rule: 'events.payload.envelope',
    how: 'Update events are fed from the change-data-capture stream, whose record is a JSON Patch diff: every *.updated event caused after connecting arrives on GET /events with data.object as an array of {"op": "replace", "path": "/name", "value": …} operations, where data "Has `object` (the affected resource)", an object; created and deleted events, and the events of the stored history, are as before.',
    needs: 'writes',
    round: 41,
  },
  {
    name: 'from-over-length-dropped-beside-timestamp',
    rule: 'events.from.max-length',
    how: 'The length of from is checked in the cursor branch only, and the branch taken when from_timestamp is given reads the cursor only when it fits its 1024-character column, else takes it as absent: GET /events?from=<1025 characters>&from_timestamp=<RFC 3339> opens the stream (200) from the timestamp, where from has "maximum length 1024" and a longer value gets a 4xx; a 1025-character from without from_timestamp is refused 400 as before, and so is every cursor the stream did not give out.',
    round: 41,
  },
] as const satisfies readonly Fault[];
