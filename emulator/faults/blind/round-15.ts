/**
 * Blind round 15: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 15`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round15 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-grant-type-trimmed',
    rule: 'oauth.token.grant-type',
    how: 'grant_type is trimmed before it is compared: "client_credentials " or " client_credentials" (a value RFC 6749 4.4.2 says MUST be client_credentials) gets a token instead of 400 unsupported_grant_type.',
    round: 15,
  },
  {
    name: 'token-client-found-by-secret',
    rule: 'oauth.token.bad-client',
    how: "The client is looked up by its secret when the client_id names no client (a lookup keyed by the secret hash): an unknown client_id with a valid client secret authenticates as the secret's client and gets a token instead of 401 invalid_client.",
    round: 15,
  },
  {
    name: 'token-response-body-credentials-no-no-store',
    rule: 'oauth.token.response',
    how: 'Cache-Control: no-store and Pragma: no-cache are set only on the HTTP Basic branch: a token response to a client that authenticated with client_id and client_secret in the form carries no Cache-Control at all (RFC 6749 5.1 requires no-store).',
    round: 15,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'bearer-padded-token-accepted',
    rule: 'auth.bearer.malformed',
    how: 'Trailing = padding of a bearer token is stripped before it is verified: a JWT with "==" appended to its signature segment (not a JWS compact serialisation, RFC 7515 7.1 omits padding) is admitted instead of refused 401.',
    round: 15,
  },
  {
    name: 'event-streams-any-read-scope',
    rule: 'auth.scope.enforced',
    how: 'GET /event-streams and GET /event-streams/{id} check only the verb of the scopes held: a token holding any read: scope (read:stats, read:client_grants) but not read:event_streams reads event streams instead of being refused 403.',
    round: 15,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-remaining-omitted-when-zero',
    rule: 'token-sets.list.rate-limit.headers',
    how: 'X-RateLimit-Remaining is set only when truthy (if (remaining) ...): the last request of a window and every 429 carry X-RateLimit-Limit and X-RateLimit-Reset but no X-RateLimit-Remaining, since it is 0 there.',
    needs: 'rate-limit-probe',
    round: 15,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'user-id-length-counts-graphemes',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id is counted in grapheme clusters: an id of more than 300 code points but at most 300 clusters (151 letters each followed by the combining accent U+0301: 302 code points) passes the check and is looked up (404) instead of refused as too long.',
    round: 15,
    disputed:
      "Not observable from outside: an id over the maximum names no user that can exist, so where the length is counted otherwise it is looked up and answered 404, a refusal as the length check's is (the listing's errors are 401, 403, 404 and 429; no status is given for an id too long). The same reasoning lists the survivor of the length check's removal (mutation/survivors.json, token-sets.ts).",
  },

  // ---------------------------------------------------------- experiments
  {
    name: 'transition-is-valid-null-after-move',
    rule: 'experiment.types',
    how: 'The answer of a move carries is_valid: null (the validity is recomputed lazily after a status change and not yet known) instead of the boolean.',
    needs: 'writes',
    round: 15,
  },
  {
    name: 'transition-fallback-priority-null',
    rule: 'experiment.allocation.types',
    how: 'In the answer of a move, the allocation marked is_fallback is answered with priority: null (a fallback is read as having no priority) instead of its integer priority.',
    needs: 'writes',
    round: 15,
  },

  // -------------------------------------------------------- client grants
  {
    name: 'client-grant-id-cut-at-semicolon',
    rule: 'client-grants.get.same-grant',
    how: 'The id path segment is cut at its first ; (read as a matrix parameter, servlet style): /client-grants/{id};v=1, an id no grant has, answers the grant {id} instead of 404.',
    round: 15,
  },
  {
    name: 'client-grant-adt-single-item-collapsed',
    rule: 'client-grant.types',
    how: 'An authorization_details_types of exactly one item is answered as that string instead of a one-item array (an XML-style serialiser); grants with several items are right.',
    round: 15,
  },

  // ----------------------------------------------------------- GET /events
  {
    name: 'sse-event-field-double-space',
    rule: 'events.message.event-field',
    how: 'Event messages are written "event:  <type>" with two spaces after the colon: SSE strips only one, so the event type a client reads is " <type>" with a leading space; heartbeats are right.',
    round: 15,
  },
  {
    name: 'heartbeat-data-bare-offset',
    rule: 'events.message.data-json',
    how: 'offset-only heartbeats carry the bare cursor as their data line (data: <offset>), not a JSON payload; event messages are JSON.',
    round: 15,
  },
  {
    name: 'resumed-stream-not-live',
    rule: 'events.resume.no-loss',
    how: 'A stream resumed with from replays the events after the cursor and then stays open with heartbeats only: events appended after it connected are never delivered on it (the catch-up query is not followed by a subscription).',
    // Events appended while a resumed stream is open: a run without writes causes none.
    needs: 'writes',
    round: 15,
  },
  {
    name: 'filtered-timestamp-starts-latest',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is ignored when event_type is given (the filtered query has no time condition): a filtered stream starts at the latest position instead of replaying the matching events at or after the timestamp; unfiltered streams are right.',
    round: 15,
  },
  {
    name: 'context-request-custom-domain-null',
    rule: 'events.context.types',
    how: 'Events caused by a request that used no custom domain carry context.request.custom_domain: null instead of leaving it out (the document types it as a string).',
    round: 15,
  },
  {
    name: 'connection-created-cross-app-access-null',
    rule: 'events.connection-created.object',
    how: 'In connection.created, connected_accounts.cross_app_access is null when it is off (a nullable tri-state column, false stored as unset) instead of the boolean false.',
    round: 15,
  },

  // ------------------------------------------------ GET /event-streams
  {
    name: 'event-streams-list-first-subscription-only',
    rule: 'event-streams.get.same-stream',
    how: 'The list joins each stream with its subscriptions limited to one row: in GET /event-streams every stream shows only its first subscription, while GET /event-streams/{id} answers all of them, so a read disagrees with the listing.',
    round: 15,
  },
  {
    name: 'event-stream-disabled-webhook-endpoint-null',
    rule: 'event-stream.types',
    how: 'A disabled stream is answered (read and list) with destination.configuration.webhook_endpoint: null (the endpoint cleared while the stream does not forward) instead of its string.',
    round: 15,
  },

  // --------------------------------------------- PUT /keys/custom-signing
  {
    name: 'keys-key-ops-dropped-beside-use',
    rule: 'custom-signing-keys.put.json',
    how: 'Keys holding both use and key_ops (RFC 7517 4.3: SHOULD NOT be used together) are answered without key_ops: the resulting keys are not those the PUT set.',
    needs: 'writes',
    round: 15,
  },
  {
    name: 'keys-form-answer-form-encoded',
    rule: 'custom-signing-keys.put.form',
    how: 'A form-encoded PUT is answered in the media type of its request: the resulting JWKS as application/x-www-form-urlencoded bracket notation (keys[0][kty]=EC&...) instead of a JSON object; JSON requests are answered JSON.',
    needs: 'writes',
    round: 15,
  },

  // ------------------------------------------------------ PUT custom text
  {
    name: 'custom-text-markup-check-needs-leading-tag',
    rule: 'custom-text.put.html.restricted',
    how: 'A value is taken for HTML only when it starts with <: text followed by markup (Welcome <script>alert(1)</script>, Hi <img src=x onerror=alert(1)>) skips the allow-list and is stored and answered as given.',
    needs: 'writes',
    round: 15,
  },
  {
    name: 'custom-text-length-first-value-only',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is checked on the first value of the map only: a map whose second or later value is 2001 characters or more is stored and answered instead of refused.',
    needs: 'writes',
    round: 15,
  },
  {
    name: 'custom-text-http-links-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Links are accepted with https: and mailto: only: <a href="http://example.com">x</a>, a plain hyperlink, is refused 400 as an unsafe URL.',
    needs: 'writes',
    round: 15,
  },

  // ------------------------------------------------------------ HTTP layer
  {
    name: 'media-type-space-before-parameter-415',
    rule: 'http.json-request-bodies',
    how: 'The request media type is cut at ; without trimming: Content-Type application/json ; charset=utf-8 (RFC 9110 5.6.6 allows white space before ;) is refused 415 on every operation with a body; application/json;charset=utf-8 passes.',
    round: 15,
  },
  {
    name: 'api-prefix-optional',
    rule: 'versioning.path-prefix',
    how: 'The operations are also routed without the /api/v2 prefix (a second mount at the root): GET /client-grants/{id}, /event-streams, /users/{id}/federated-connections-tokensets ... answer as under /api/v2 instead of 404.',
    round: 15,
    disputed:
      'Every operation is still answered under /api/v2 as the document gives it; that the same operations answer without the prefix too is left open ("Other operations on these resources ...: not shown"), as for round 12\'s api-version-segment-ignored: the document names no status for a path outside the interface.',
  },
] as const satisfies readonly Fault[];
