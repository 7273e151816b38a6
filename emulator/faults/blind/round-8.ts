/**
 * Blind round 8: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 8`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round8 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-basic-failure-bearer-challenge-r8',
    rule: 'oauth.token.client-auth',
    how: 'A client that authenticates with HTTP Basic and fails gets 401 with WWW-Authenticate: Bearer (the API challenge reused), not a challenge of the Basic scheme the client used (RFC 6749 5.2).',
    round: 8,
  },
  {
    name: 'token-basic-credentials-not-form-decoded',
    rule: 'oauth.token.client-auth',
    how: 'The client id and secret of HTTP Basic are used as base64-decoded, without the form-urlencoded decoding RFC 6749 2.3.1 puts under the base64: a client id sent with a percent-encoded character (%41 for A) is refused 401 invalid_client.',
    round: 8,
  },
  {
    name: 'token-response-no-cache-not-no-store-r8',
    rule: 'oauth.token.response',
    how: 'The token response carries Cache-Control: no-cache (revalidate) instead of the no-store RFC 6749 5.1 requires.',
    round: 8,
  },
  {
    name: 'token-jwt-padded-base64',
    rule: 'oauth.token.jwt',
    how: 'The access token segments are written in standard base64 with = padding (+ and /), not base64url without padding (RFC 7515 2, 7.1), so the token is not a JWS compact serialisation; the API still takes it back.',
    round: 8,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'verify-cache-keyed-by-jti',
    rule: 'auth.jwt.signature',
    how: 'The verification cache is keyed by the jti claim: once a token was verified, any token carrying the same jti (with other claims, another sub, and any signature) is admitted as what it claims.',
    round: 8,
  },
  {
    name: 'token-sets-any-read-scope',
    rule: 'token-sets.list.insufficient-scope',
    how: 'The token-set listing checks only the verb of the scopes (<verb>:<resource>): a token narrowed to any read: scope (read:client_grants) gets 200 instead of 403.',
    round: 8,
  },

  // --------------------------------------------------------- rate limits
  {
    name: 'rate-limit-remaining-before-count-r8',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Remaining is computed before the request is counted: the last request the window allows says Remaining 1, and the next one is refused 429.',
    needs: 'rate-limit-probe',
    round: 8,
  },
  {
    name: 'rate-limit-reset-clock-aligned',
    rule: 'rate-limit.header-values',
    how: 'X-RateLimit-Reset names the next clock boundary of the window length (a multiple of it in epoch seconds), while windows start at the first request: a client that waits until the Reset it was given is still refused 429.',
    needs: 'rate-limit-probe',
    round: 8,
    disputed:
      'The suite reads an X-RateLimit-Reset up to 1 s before the window ends as rounding to the second (a server may round down), and waits that much more before its retry: the announced boundary is that early only when the window began in the second half of a clock period, so with the embedded 2 s window about half the runs see the retry refused. Whether a Reset may be rounded down is not shown.',
  },

  // ---------------------------------------------------------- token sets
  {
    name: 'token-sets-never-used-dropped-r8',
    rule: 'token-sets.list.active-only',
    how: '"Active" is read as "in use": token sets whose last_used_at is null (never used, not expired) are left out of the listing.',
    round: 8,
  },

  // --------------------------------------------------------- experiments
  {
    name: 'transition-answer-camel-case-dates',
    rule: 'experiment.required',
    how: 'The move answers its dates in camelCase (createdAt, updatedAt, startedAt, endedAt: a serialiser of the model), so the required created_at and updated_at are missing.',
    needs: 'writes',
    round: 8,
  },

  // ------------------------------------------------------- client grants
  {
    name: 'client-grant-unset-organization-usage-null',
    rule: 'client-grant.organization-usage.enum',
    how: 'A grant without organization_usage (the default_for grant) is answered with organization_usage: null (the unset column serialised), which is not one of deny, allow, require.',
    round: 8,
  },

  // ------------------------------------------------------- event streams
  {
    name: 'event-stream-id-length-raw-segment',
    rule: 'http.path-id.percent-encoding',
    how: 'GET /event-streams/{id} checks the 26-character length on the raw path segment: a listed id with an unreserved character percent-encoded (est%5F…, RFC 3986 2.3: equivalent) is refused 400.',
    round: 8,
  },
  {
    name: 'event-streams-list-subscriptions-flattened',
    rule: 'event-stream.types',
    how: 'GET /event-streams answers each stream with subscriptions as the list of event type names (["user.created"]), a summary projection, instead of objects with event_type; GET /event-streams/{id} is right.',
    round: 8,
  },
  {
    name: 'event-streams-list-text-json',
    rule: 'http.json-bodies',
    how: 'GET /event-streams answers its JSON with Content-Type text/json (a legacy, unregistered type) instead of application/json; the other operations are right.',
    round: 8,
  },
  {
    name: 'event-stream-id-case-insensitive',
    rule: 'event-streams.get.same-stream',
    how: 'Event streams are looked up with a case-insensitive collation: a 26-character id that differs from a stream only in letter case answers that stream instead of 404.',
    round: 8,
  },

  // -------------------------------------------------------------- events
  {
    name: 'sse-bom-per-message',
    rule: 'events.message.event-field',
    how: 'Every SSE message is written with a leading byte order mark (a UTF-8-with-BOM encoder per write): the client drops only the one at the start of the stream, so later messages begin with the unknown field "\\uFEFFevent" and are read as type message.',
    round: 8,
  },
  {
    name: 'event-type-payload-types-accepted',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type is validated against the payload type discriminator, so offset-only and error (not event types of the list) are accepted as filters instead of refused.',
    round: 8,
  },
  {
    name: 'resume-by-second-loses-same-second',
    rule: 'events.resume.no-loss',
    how: 'A from cursor is resolved to its event time cut to the second and the stream resumes after that second: events after the cursor in the same second (a burst of live events) are lost.',
    needs: 'writes',
    round: 8,
  },

  // ------------------------------------------------- custom signing keys
  {
    name: 'keys-form-values-coerced',
    rule: 'custom-signing-keys.put.form',
    how: 'Form values that look like numbers or booleans are coerced by the form reader (kid=1 is answered as the number 1, "true" as true, not the strings sent); the same JWKS sent as JSON is answered right.',
    needs: 'writes',
    round: 8,
  },
  {
    name: 'keys-form-plus-after-percent-decode',
    rule: 'custom-signing-keys.put.form',
    how: 'The form decoder percent-decodes first and reads + as a space after: a %2B in a value (the standard base64 of an x5c certificate) is stored and answered as a space.',
    needs: 'writes',
    round: 8,
  },

  // --------------------------------------------------------- custom text
  {
    name: 'custom-text-length-crlf-as-one',
    rule: 'custom-text.put.value.max-length',
    how: 'Line breaks are normalised (CRLF to LF) before the 2000-character check but the value is stored as sent: a value of 2001 or more characters holding CRLF pairs is accepted.',
    needs: 'writes',
    round: 8,
  },
  {
    name: 'custom-text-values-trimmed-r8',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are trimmed when stored: leading or trailing white space (a trailing space or newline) is missing from the resulting map.',
    needs: 'writes',
    round: 8,
  },
  {
    name: 'custom-text-event-attribute-case-sensitive',
    rule: 'custom-text.put.html.restricted',
    how: 'Event handler attributes are looked for with a case-sensitive "on" prefix: <b OnMouseOver="alert(1)"> (HTML attribute names are case-insensitive) is stored and answered as given.',
    needs: 'writes',
    round: 8,
  },
  {
    name: 'custom-text-single-quoted-href-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: "Links are matched with a pattern for double-quoted href only: a hyperlink written <a href='https://…'> (valid HTML) is refused 400.",
    needs: 'writes',
    round: 8,
  },
  {
    name: 'custom-text-page-slug-normalised',
    rule: 'custom-text.put.page.enum',
    how: 'The page path segment is normalised as a slug (lower case, _ to -) before the enum check: get_started or Get-Started is accepted as get-started instead of refused.',
    needs: 'writes',
    round: 8,
  },
  {
    name: 'custom-text-profile-id-undecoded',
    rule: 'http.path-id.percent-encoding',
    how: 'PUT custom text looks the profile id up as written in the raw path: an id with an unreserved character percent-encoded (ssp%5F…, equivalent per RFC 3986 2.3) answers 404.',
    needs: 'writes',
    round: 8,
  },

  // ---------------------------------------------------------------- HTTP
  {
    name: 'unsupported-media-type-plain-text',
    rule: 'http.json-error-bodies',
    how: 'A 415 (a body of a media type the operation does not take) is answered by the body-parser layer as text/plain "Unsupported Media Type" instead of a JSON error; the other errors stay JSON.',
    needs: 'writes',
    round: 8,
  },
] as const satisfies readonly Fault[];
