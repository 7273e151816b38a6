/**
 * Blind round 6: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 6`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round6 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-form-not-percent-decoded',
    rule: 'oauth.token.endpoint',
    how: 'The token endpoint splits the form body on & and = and reads + as a space, but does not percent-decode: audience=%2Fapi%2Fv2%2F (the documented /api/v2/, encoded as URLSearchParams or curl --data-urlencode write it) is refused 403; sent unencoded it passes.',
    round: 6,
  },
  {
    name: 'token-expires-in-string',
    rule: 'oauth.token.response',
    how: 'The token response gives expires_in as a JSON string ("86400"), where RFC 6749 5.1 says numerical values are included as JSON numbers.',
    round: 6,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'verify-cache-per-connection',
    rule: 'auth.jwt.signature',
    how: 'The verification cache remembers the principal per connection and answers it for any Bearer header sent on that connection: after one valid request on a kept-alive connection, a later request on it with a forged or garbage token is admitted.',
    round: 6,
  },
  {
    name: 'bearer-split-on-space',
    rule: 'auth.bearer.malformed',
    how: 'The bearer token is read as header.split(" ")[1]: an Authorization header with anything after the token ("Bearer <jwt> extra", not the RFC 6750 2.1 credentials syntax) is admitted instead of refused 401.',
    round: 6,
  },
  {
    name: 'empty-scope-claim-unrestricted',
    rule: 'auth.scope.enforced',
    how: 'A token whose scope claim is empty (issued for scope= with no scopes) is read as a token without restrictions and admitted to every operation instead of refused 403.',
    round: 6,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-limit-with-window-policy',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Limit carries the quota policy of the IETF RateLimit draft appended ("10, 10;w=60"), so it is no longer the number of requests the window allows.',
    round: 6,
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'user-id-provider-prefix-required',
    rule: 'token-sets.list.unknown-user',
    how: 'The user id is validated as <provider>|<id>: an id of a user that does not exist without a | (nobody, a bare id) is refused 400 instead of answered 404.',
    round: 6,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-answer-cached-by-body',
    rule: 'experiments.transition.same-experiment',
    how: 'Move answers are cached by request body: the second experiment moved with the same body ({"status":"active"}) is moved but answered with the first experiment.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'transition-status-from-query',
    rule: 'experiments.transition.status-required',
    how: 'Query and body parameters are merged: a move with no body (or a body without status) and ?status=active in the query is made instead of refused.',
    round: 6,
    needs: 'writes',
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-format-suffix-stripped',
    rule: 'client-grants.get.same-grant',
    how: 'GET /client-grants/{id} strips a format suffix (.json, .xml) from the id: an id no grant has, <grant id>.json, is answered that grant instead of 404.',
    round: 6,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'take-capped-at-50',
    rule: 'event-streams.list.take.page-size',
    how: 'Pages are capped at 50 streams by the store: take from 51 to 100 is accepted but the page holds 50 (with next) while more streams follow.',
    round: 6,
  },
  {
    name: 'event-streams-fraction-zeros-trimmed',
    rule: 'timestamps.date-time',
    how: 'GET /event-streams writes created_at and updated_at with the trailing zeros of the fraction trimmed but the point kept: a time on a whole second is 2025-01-04T11:20:00.Z (RFC 3339 5.6: time-secfrac needs a digit).',
    round: 6,
  },
  {
    name: 'event-stream-single-subscription-collapsed',
    rule: 'event-stream.types',
    how: 'A stream with exactly one subscription is answered with subscriptions as that one object instead of a one-item array (an XML-style serialiser); streams with several are right.',
    round: 6,
  },

  // -------------------------------------------------------------- events
  {
    name: 'event-type-empty-ignored',
    rule: 'events.filter.unknown-rejected',
    how: 'An empty event_type value (event_type=) is skipped instead of refused: the stream opens and, when it is the only one, streams every type.',
    round: 6,
    disputed:
      "Whether an empty occurrence (event_type=) is an unknown type or no filter at all is not shown: the document lists the allowed values and says the parameter is repeatable, not what an empty one means, and servers commonly read an empty query value as absent; the suite leaves the empty value out of its unknown spellings for that reason, so this is a question for the document's owner.",
  },
  {
    name: 'events-json-without-sse-accept',
    rule: 'events.content-type',
    how: 'GET /events answers a JSON array of the replayed payloads (application/json) unless Accept names text/event-stream: a client sending Accept: */* or no Accept gets no event stream.',
    round: 6,
  },
  {
    name: 'resume-cursor-compared-as-text',
    rule: 'events.resume.no-loss',
    how: 'The events after a cursor are selected by comparing sequence numbers as text: resuming from event 5 loses events 10 to 49, resuming from event 20 replays 3 to 9 again.',
    round: 6,
  },
  {
    name: 'heartbeat-offset-raw-sequence',
    rule: 'events.offset-only.offset',
    how: 'offset-only heartbeats carry the internal sequence number (a JSON number) as offset instead of the opaque cursor string the event messages carry; their SSE id is right.',
    round: 6,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-stored-by-kid',
    rule: 'custom-signing-keys.put.replaces',
    how: 'The sent keys are stored in a map keyed by kid: keys without a kid (optional, RFC 7517 4.5) overwrite each other and only the last is kept and answered.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'keys-rsa-exponent-number',
    rule: 'jwk.types',
    how: 'RSA keys are answered with e as the exponent number (65537) instead of its base64url string ("AQAB", RFC 7518 6.3.1.2); EC keys are right.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'keys-form-array-limit-20',
    rule: 'custom-signing-keys.put.form',
    how: 'Form bodies are parsed with the qs default arrayLimit (20): a form-encoded JWKS of more than 21 keys has keys turned into an object keyed by index and is refused 400; JSON bodies are right.',
    round: 6,
    needs: 'writes',
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-limit-on-total',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is applied to the values together: a map of two values of 1500 characters (each within the limit) is refused 400.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'custom-text-only-first-value-checked',
    rule: 'custom-text.put.html.restricted',
    how: 'Only the first value of the map is checked against the HTML allow-list: a <script> in the second value is stored and answered as given.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'custom-text-null-value-deletes',
    rule: 'custom-text.put.value.type',
    how: 'A null value is read as JSON merge patch (RFC 7396) removal: {"a":"x","b":null} is accepted (200, b left out) instead of refused as a value that is not a string.',
    round: 6,
    needs: 'writes',
  },
  {
    name: 'custom-text-form-dots-nested',
    rule: 'custom-text.put.form',
    how: 'Form bodies are parsed with allowDots: a text key holding a dot (signup.title=Hi) becomes a nested object and the form body is refused 400; the same map as JSON passes.',
    round: 6,
    needs: 'writes',
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'allow-header-space-separated',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 joins the methods with spaces ("PUT GET DELETE"), not as the comma-separated list RFC 9110 10.2.1 / 5.6.1 defines; a path with one method is right.',
    round: 6,
  },
] as const satisfies readonly Fault[];
