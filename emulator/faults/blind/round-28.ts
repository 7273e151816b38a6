/**
 * Blind round 28: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 28`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round28 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-secret-length-mismatch-500',
    rule: 'oauth.token.bad-client',
    how: 'The client secret is compared with crypto.timingSafeEqual on the two buffers without comparing their lengths first: a known client_id with a wrong secret of another byte length (any secret but a same-length guess) makes timingSafeEqual throw a RangeError, answered 500 server_error instead of the 401 invalid_client RFC 6749 5.2 requires of a failed client authentication; a wrong secret of the same length is refused 401 as it should be.',
    round: 28,
  },
  {
    name: 'token-jws-header-bom',
    rule: 'oauth.token.jwt',
    how: 'The JWS protected header of the access token is serialised through a UTF-8 writer that emits a byte order mark (a .NET StreamWriter with Encoding.UTF8): the header segment decodes to EF BB BF followed by the JSON object, which is no JSON text (RFC 8259 8.1: a sender MUST NOT add a BOM; RFC 7515 5.2: the decoded header must be a completely valid JSON object); the API strips the BOM and accepts its own tokens.',
    round: 28,
  },
  {
    name: 'token-response-scope-audience-qualified',
    rule: 'auth.scope.form',
    how: 'The scope member of the token response writes every granted scope qualified by the audience, as resource-prefixed scopes of another identity platform are ("http://host/api/v2/read:client_grants http://host/api/v2/read:events …"): the scope string no longer holds <verb>:<resource> scopes; the token itself carries the plain ones and works.',
    round: 28,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'events-insufficient-scope-in-band',
    rule: 'auth.scope.enforced',
    how: 'GET /events flushes its 200 text/event-stream head before the scope check (the SSE handler opens the stream first so that every refusal goes out as an error event): a valid token without read:events (read:stats only) gets 200 with one "event: error" message carrying the insufficient_scope error, instead of the 4xx refusal; a missing or invalid token still gets its 401.',
    round: 28,
  },
  {
    name: 'www-authentication-header-misspelt',
    rule: 'http.unauthorized.challenge',
    how: 'The bearer middleware writes its challenge under the misspelt field name WWW-Authentication (the noun, not WWW-Authenticate): every 401 of /api/v2 (no token, a token that fails verification) carries "WWW-Authentication: Bearer …" and no WWW-Authenticate field, which RFC 9110 11.6.1 and RFC 6750 3 require; the token endpoint\'s Basic challenge is right.',
    round: 28,
  },

  // ---------------------------------------------------------- rate limits
  {
    name: 'rate-limit-429-retry-after-only',
    rule: 'token-sets.list.rate-limit.headers',
    how: "Requests over the limit are refused by the framework's TooManyRequests exception, whose renderer replaces the response headers the limiter set with its own Retry-After: every 429 carries Retry-After but none of X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, which the document names on the 429; answers within the limit carry all three.",
    needs: 'rate-limit-probe',
    round: 28,
  },

  // --------------------------------------------------------------- errors
  {
    name: 'transition-invalid-move-409-plain-text',
    rule: 'http.json-error-bodies',
    how: 'A move the transition table does not allow (a draft experiment to paused, an archived one to active) is refused by the state-machine library\'s own exception, rendered as text/plain ("Illegal transition: … -> …") with its 409: the refusal body is not JSON, while the 400 and 404 answers of the move are.',
    needs: 'writes',
    round: 28,
  },
  {
    name: 'custom-text-json-comments-accepted',
    rule: 'http.json-request-bodies',
    how: 'The JSON body of PUT custom text is read by a JSON-with-comments reader (the one the service uses for its configuration files): a body holding // line or /* block */ comments, which is not JSON (RFC 8259 has no comments), is accepted and stored instead of refused 4xx; strict JSON bodies are read as before.',
    needs: 'writes',
    round: 28,
  },

  // --------------------------------------------------------------- limits
  {
    name: 'event-stream-id-prefix-lookup',
    rule: 'event-streams.get.id.length',
    how: "GET /event-streams/{id} skips the 26-character check and looks the stream up with WHERE id LIKE '<id>%': an id of 25 characters (a stream's id without its last character, or any shorter prefix of one) answers 200 with that stream instead of a 4xx; 27 characters find nothing and get 404.",
    round: 28,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-expired-as-null',
    rule: 'token-set.types',
    how: "The token-set listing maps each stored set through the active check instead of filtering by it (sets.map(s => isActive(s) ? view(s) : null)): a user holding an expired set is answered an array with null in that set's place, an element that is no token set object; users without expired sets are right.",
    round: 28,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-allocation-strategy-ordinal',
    rule: 'experiment.allocation-strategy.enum',
    how: 'The answer of a move is serialised without a string-enum converter (System.Text.Json writes enums as numbers by default): allocation_strategy comes as its ordinal, 0 for percentage and 1 for segment, instead of one of the enum strings; the status, also an enum, has its own converter and is right.',
    needs: 'writes',
    round: 28,
  },

  // --------------------------------------------------------- client grants
  {
    name: 'client-grant-authorization-details-types-objects',
    rule: 'client-grant.types',
    how: 'authorization_details_types is filled from the RFC 9396 authorization_details model: each type is answered as an object {"type": "order_details"} instead of the string the document types the items as (array of string).',
    round: 28,
  },
  {
    name: 'client-grant-default-for-camel-case',
    rule: 'client-grant.default-for.enum',
    how: 'Enums of the grant are written by a string-enum converter with the camelCase naming policy: the one-word values (deny, allow, require, client, user) come out right, but default_for ThirdPartyClients is answered "thirdPartyClients" instead of the only accepted value third_party_clients.',
    round: 28,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'next-from-first-of-page',
    rule: 'event-streams.list.next.no-duplicates',
    how: 'The keyset cursor next is built from the first stream of the page (page[0] where page[page.length - 1] was meant): the next page starts right after the first stream of this one, so a walk by next gets every stream but the first of each page again, a page that moves by one stream at a time.',
    round: 28,
  },
  {
    name: 'event-streams-next-as-url',
    rule: 'event-streams.list.next.no-gap',
    how: "next is written as the link to the next page (http://host/api/v2/event-streams?from=<cursor>&take=<take>, the pagination helper's href), not the opaque cursor: passed as from, as the document says, it is refused 400 invalid_cursor, so a walk ends after its first page and the other streams are never listed.",
    round: 28,
  },

  // --------------------------------------------------- custom signing keys
  {
    name: 'keys-private-judged-by-key-ops',
    rule: 'custom-signing-keys.put.public-only',
    how: 'Whether a key is private is read from its declared operations: only a key whose key_ops holds sign (or that has no key_ops) is checked for private members; a key sent with its private part d (RFC 7518 6.2.2 d, 6.3.2.1) but declared key_ops ["verify"] is stored and answered with d.',
    needs: 'writes',
    round: 28,
  },
  {
    name: 'keys-kty-lowercased',
    rule: 'custom-signing-keys.put.json',
    how: 'kty is stored in a lower-case enum column (rsa, ec, okp) and answered as stored: a key set with kty "EC" or "RSA" comes back with "ec" or "rsa", values RFC 7517 4.1 and RFC 7518 6.1 do not define (kty is case-sensitive), so the resulting keys are not the keys sent.',
    needs: 'writes',
    round: 28,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-non-ascii-as-char-refs',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored through an HTML encoder that leaves markup alone but escapes every character outside ASCII as a decimal character reference: a plain-text value "Café 😀" is answered "Caf&#233; &#128512;", not the value sent.',
    needs: 'writes',
    round: 28,
  },
  {
    name: 'custom-text-script-with-attributes-kept',
    rule: 'custom-text.put.html.restricted',
    how: 'Script elements are found by the literal pattern /<script>/i: a script element whose start tag carries attributes (<script src="https://cdn.example.com/x.js"></script>, <script type="text/javascript">alert(1)</script>) is not seen, and when the rest of the value passes the allow-list it is stored and answered as given.',
    needs: 'writes',
    round: 28,
  },

  // ----------------------------------------------------------------- events
  {
    name: 'sse-event-field-double-newline',
    rule: 'events.message.event-field',
    how: 'The SSE writer ends the event field with a blank line ("event: <type>\\n\\n", a doubled newline in its template) before the id and data lines: the blank line dispatches a block with no data, which SSE drops, resetting the event type (HTML Standard 9.2.6), so every message (events and offset-only heartbeats) reaches a client as type message.',
    round: 28,
  },
  {
    name: 'event-context-template-trailing-comma',
    rule: 'events.message.data-json',
    how: 'context.request of the payload is rendered by a template that writes a comma after user_agent and then custom_domain only when the request used one: events caused without a custom domain (all of them here) carry "user_agent":"…",} in their data line, which is not JSON (RFC 8259 4).',
    round: 28,
  },
  {
    name: 'live-event-offset-number',
    rule: 'events.payload.offset',
    how: 'Events appended since the service started are written from the log consumer record, whose offset is a long: their payload offset is a JSON number (the sequence), not the string cursor the document types it as; the SSE id field and the imported history events carry string offsets.',
    needs: 'writes',
    round: 28,
  },
  {
    name: 'resume-history-cursor-inclusive',
    rule: 'events.resume.no-duplicate',
    how: 'A cursor naming an event of the imported history (before the service started) is resolved by the archive query with >= instead of >: resuming from it delivers that event again before the ones after it; cursors of later events resume strictly after them.',
    round: 28,
  },
  {
    name: 'event-type-percent-decoded-twice',
    rule: 'events.filter.unknown-rejected',
    how: 'Each event_type value is percent-decoded once more after the query string was decoded (a decoder shared with values that come double-encoded through a proxy): event_type=user%252Ecreated, the value user%2Ecreated that is not in the list, is accepted as user.created instead of refused 4xx.',
    round: 28,
  },
  {
    name: 'events-stream-ends-after-first-heartbeat',
    rule: 'events.start.latest',
    how: 'A stream opened without from or from_timestamp is answered as a snapshot (a long-polling habit): after its first offset-only heartbeat, the current position, the response ends, so an event caused after connecting never arrives on it; streams with from or from_timestamp stay open.',
    needs: 'writes',
    round: 28,
  },
] as const satisfies readonly Fault[];
