/**
 * Blind round 26: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 26`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round26 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-client-auth-cached-by-id',
    rule: 'oauth.token.bad-client',
    how: 'Client authentication is cached by client: once a client authenticated with its right secret, a later token request naming that client_id with a wrong secret is not checked again and gets a token (200) instead of 401 invalid_client (RFC 6749 2.3.1, 5.2); a client that never authenticated is still refused.',
    round: 26,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'jwt-unknown-kid-unverified',
    rule: 'auth.jwt.signature',
    how: "The verifier looks the key up by the token header's kid and, when it finds none (no kid, or a kid that is not the tenant's: \"legacy tokens before key rotation\"), reads the claims without verifying them: a JWT with any kid but the tenant's (or none, alg none included), signed by any key or not at all, is admitted as the client it names on every operation instead of refused 401 (RFC 7515 10.7, RFC 8725 3.1).",
    round: 26,
  },
  {
    name: 'client-grant-response-cache-ignores-authorization',
    rule: 'auth.scope.enforced',
    how: 'GET /client-grants/{id} is served through a response cache keyed by the request path that sits after authentication but before the scope check (no Vary on Authorization): once any entitled token read a grant, a valid token holding none of the in-scope scopes (read:stats) gets the cached grant 200 on the same path instead of 403; a path nobody read yet is still refused.',
    round: 26,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-reset-locale-grouped',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset is written with the number formatter of the locale (toLocaleString("en-US")): the epoch seconds go out with thousands separators ("1,795,000,123") on every answer and on the 429, which is no number in any numeric form (and, split on the comma as a field list, four values).',
    needs: 'rate-limit-probe',
    round: 26,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'user-id-router-param-limit-100',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The router keeps its default limit on a path parameter (maxParamLength 100 of find-my-way/fastify): GET /users/{id}/federated-connections-tokensets with an id of 101 to 300 characters is answered 414 URI Too Long by the router, where the document allows user ids of up to 300 characters (an unknown one of 300 characters is 404).',
    round: 26,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-status-boolean-as-toggle',
    rule: 'experiments.transition.status-enum',
    how: 'The move keeps an older "enabled" toggle of the experiment API: a body {"status": true} is read as active and {"status": false} as paused and the move is made (200), instead of refusing a status that is not a string of the enum with a 4xx.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'transition-not-persisted',
    rule: 'experiments.transition.requested-status',
    how: 'The move is made on a detached copy of the experiment that is never saved: the answer carries the requested status (and its dates), but the experiment stays in its old status, so the next move is judged from the old one (draft → active answers active, then active → paused is refused 409 from draft, and a second move to active is accepted again).',
    needs: 'writes',
    round: 26,
    disputed:
      'Not observable from outside with the document\'s operations: no read of an experiment is in the interface, and the move answers the requested status either way, so only a later move shows the status kept; and the document leaves "Allowed source states for each target, and the failure when a move is invalid" open, so a later move refused (active → paused after draft → active) or taken again (a second move to active) is what a server with another table answers too. The suite decides what follows a refused move (nothing changed), not what an accepted one leaves.',
  },
  {
    name: 'transition-null-body-500',
    rule: 'experiments.transition.status-required',
    how: 'The move reads body.status before the body is validated: a body that is the JSON literal null (valid JSON, RFC 8259 3, but no object with the required status) throws a TypeError in the handler and is answered 500 instead of a 4xx; a missing body or {} is still refused 400.',
    needs: 'writes',
    round: 26,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-vendor-media-type',
    rule: 'http.json-bodies',
    how: 'GET /client-grants/{id} answers its JSON under a versioned vendor media type without the +json structured syntax suffix (Content-Type: application/vnd.tenant.client-grant.v2; charset=utf-8, RFC 6839 3.1), which names no JSON media type; the other operations answer application/json.',
    round: 26,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-created-at-hour-offset',
    rule: 'timestamps.date-time',
    how: "Event stream dates are written in the tenant's zone (CET) with a Java pattern ending in a single X (yyyy-MM-dd'T'HH:mm:ss.SSSX): created_at and updated_at of GET /event-streams and GET /event-streams/{id} read 2025-01-04T12:20:00.000+01, an ISO 8601 hour-only offset that RFC 3339 5.6 does not allow (time-numoffset is +hh:mm).",
    round: 26,
  },
  {
    name: 'event-streams-partial-last-page-unreached',
    rule: 'event-streams.list.next.no-gap',
    how: 'next is handed out only when a whole page remains after this one (remaining >= take instead of remaining > 0): a walk stops before a last page shorter than take, so with take=50 over 137 streams the last 37 are never listed, and walks with different take values return different sets.',
    round: 26,
  },
  {
    name: 'take-falsy-defaulted',
    rule: 'event-streams.list.take.range',
    how: 'The query is coerced by its schema (ajv coerceTypes turns an empty value into 0) and take then defaulted with take || 50: take=0 (or 00, -0) and take= (empty, no integer) are answered 200 with the default page of 50 streams instead of refused 4xx; negative, fractional, non-numeric and over-100 values are still refused.',
    round: 26,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-kid-escaped-surrogates-replaced',
    rule: 'custom-signing-keys.put.json',
    how: 'The JSON body of PUT /keys/custom-signing is decoded by a reader that turns each \\u escape into UTF-8 on its own: a character outside the BMP spelt as an escaped surrogate pair ("kid":"key-\\ud83d\\udd11", RFC 8259 7) becomes two U+FFFD, so the kid (or any other string so written) is stored and answered "key-\ufffd\ufffd", not the key sent; raw UTF-8 is right.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'keys-absent-members-null',
    rule: 'jwk.types',
    how: 'Keys are stored in a table with a column per documented member and answered as the whole row: every member a key was sent without (use, key_ops, x5u, x5c, x5t, x5t#S256, and n and e of an EC key, x and y of an RSA key) comes back as null, which is not the string or array of strings a JWK member is.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'keys-private-check-skips-x5c-keys',
    rule: 'custom-signing-keys.put.public-only',
    how: 'A key that carries a certificate chain (x5c) is taken for a certificate-backed public key and its private members are not looked for: an RSA or EC key sent with x5c and its private d (and p, q, …) is stored and answered with them; keys without x5c are refused as usual.',
    needs: 'writes',
    round: 26,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-check-first-1024-chars',
    rule: 'custom-text.put.html.restricted',
    how: 'The HTML check reads a value up to its 1024th character (the sanitiser is handed a preview buffer of 1 KiB) while the whole value is stored: a value of at most 2000 characters whose <script> element starts after its 1024th character is stored and answered as given.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'custom-text-href-percent-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'An anti-obfuscation rule refuses any hyperlink whose href holds a percent-encoding (a % is taken for an encoded script URL): <a href="https://example.com/help%20center">, a plain https hyperlink (RFC 3986 2.1), in a value with <b> and <i> is refused 400.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'custom-text-form-length-unchecked',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit sits in the JSON schema of the body, which form-encoded bodies skip: a value of 2001 or more characters sent as application/x-www-form-urlencoded is stored and answered, while the same value as JSON is refused 400.',
    needs: 'writes',
    round: 26,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'sse-heartbeat-data-html-escaped',
    rule: 'events.message.data-json',
    how: "The offset-only heartbeat is rendered through the server's HTML template engine with auto-escaping on: its data line is {&#34;offset&#34;:&#34;…&#34;}, which is not JSON (RFC 8259); event messages, written by the serialiser, are JSON.",
    round: 26,
  },
  {
    name: 'sse-event-field-capitalised',
    rule: 'events.message.event-field',
    how: 'Event messages are written from a header-style template, "Event: <type>", with the field name capitalised: SSE field names are case-sensitive (HTML Standard 9.2.6), so a client ignores the unknown field "Event" and dispatches every event as type message; heartbeats keep event: offset-only.',
    round: 26,
  },
  {
    name: 'resume-sorted-by-offset-text',
    rule: 'events.resume.order',
    how: 'The events after a cursor are read from a store keyed by their offset string and come back sorted by it: base64url text does not sort as the positions it encodes, so a backlog that crosses a change of digit count (event 9 to 10, 99 to 100) comes back out of stream order (event 10 before 9, 100 before 11).',
    round: 26,
  },
  {
    name: 'from-and-timestamp-earliest-wins',
    rule: 'events.from-and-timestamp',
    how: 'Given both from and from_timestamp, the stream starts at the earlier of the two positions ("the safe one"): with a timestamp before the cursor, the events between the timestamp and the cursor, the cursor\'s own event included, are replayed again, where the document makes the cursor win.',
    round: 26,
  },
  {
    name: 'event-type-filter-replay-only',
    rule: 'events.filter.only-requested',
    how: 'event_type is a condition of the replay query only: the live subscription is made unfiltered, so events caused after connecting arrive whatever their type on a stream asked for event_type=user.created, while replayed events (from, from_timestamp) are filtered.',
    needs: 'writes',
    round: 26,
  },
  {
    name: 'connection-created-upstream-params-base64',
    rule: 'events.connection-created.object',
    how: 'options.connection_settings and options.upstream_params are held as raw JSON bytes ([]byte, not json.RawMessage) and serialised as Go serialises bytes: base64 strings ("eyJwa2NlIjoiYXV0byJ9") instead of the objects the document gives, in every connection.created event.',
    round: 26,
  },

  // ----------------------------------------------------------------- paths
  {
    name: 'path-malformed-escape-dropped',
    rule: 'http.path-id.percent-encoding',
    how: 'The path decoder drops an incomplete percent-escape at the end of a segment (a % followed by fewer than two characters: it stops at the end of its input): /client-grants/{id}% or {id}%4 names the grant {id} and is answered 200, where a segment holding a % without two hex digits after it (RFC 3986 2.1) names no resource.',
    round: 26,
  },
] as const satisfies readonly Fault[];
