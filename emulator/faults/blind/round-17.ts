/**
 * Blind round 17: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 17`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round17 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-bad-client-html-page',
    rule: 'oauth.token.bad-client',
    how: 'A failed client authentication (unknown client or wrong secret) keeps its 401 and Basic challenge but answers an HTML error page (text/html) from the authentication filter instead of the JSON error response with an error member (RFC 6749 5.2).',
    round: 17,
  },
  {
    name: 'token-unsupported-grant-plain-text',
    rule: 'oauth.token.grant-type',
    how: 'A token request of a grant type the server does not support (grant_type=password) is answered 400 with the bare text "unsupported_grant_type" under text/plain (the error code sent as a string) instead of a JSON error response (RFC 6749 5.2).',
    round: 17,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'client-grant-any-read-scope',
    rule: 'auth.scope.enforced',
    how: 'GET /client-grants/{id} admits a token holding any read: scope (read:stats), as if reading one grant needed only some read permission, instead of refusing a token without the in-scope scopes.',
    round: 17,
  },

  // ---------------------------------------------------------- rate limit
  {
    name: 'rate-limit-429-no-limit',
    rule: 'token-sets.list.rate-limit.headers',
    how: 'The 429 of a request over the limit carries X-RateLimit-Remaining and X-RateLimit-Reset but no X-RateLimit-Limit (the limiter that refuses sets only the two headers it computes); answers within the limit keep all three.',
    needs: 'rate-limit-probe',
    round: 17,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'user-id-length-after-nfd',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit of the user id is counted on its NFD form: an id of 300 characters holding precomposed letters (é, sent as %C3%A9) counts more than 300 after decomposition and is refused 400 instead of being looked up (404 for an unknown user).',
    round: 17,
  },
  {
    name: 'token-sets-deleted-user-listed',
    rule: 'token-sets.list.unknown-user',
    how: 'Users are soft-deleted: after DELETE /users/{id}, GET /users/{id}/federated-connections-tokensets answers 200 with an empty array instead of 404 for a user that no longer exists.',
    needs: 'writes',
    round: 17,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-id-trimmed',
    rule: 'experiments.transition.same-experiment',
    how: 'The experiment id of POST /experimentation/experiments/{id}/status is trimmed before the lookup: an id with a space appended (%20) moves and answers the experiment of the trimmed id instead of being refused as an unknown experiment.',
    needs: 'writes',
    round: 17,
  },

  // ---------------------------------------------------------- client grants
  {
    name: 'client-grant-default-allow-any-organization-null',
    rule: 'client-grant.types',
    how: 'allow_any_organization at its default (false) is stored as an unset column and answered null, which is not a boolean; grants that set it true answer true.',
    round: 17,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'resume-cursor-of-filtered-type-refused',
    rule: 'events.resume.heartbeat-offset',
    how: 'With event_type given, a from cursor is looked up among the events of the asked types only: an offset naming an event of another type (such as the offset-only heartbeat of a filtered stream, which carries the head of the whole log) is refused 400 invalid_cursor instead of resuming after it.',
    round: 17,
  },
  {
    name: 'resume-live-before-archive',
    rule: 'events.resume.order',
    how: 'A stream resumed from a cursor inside the older (archived) events replays the events appended since the service started first and the rest of the archive after them, instead of all events in log order.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'connection-created-userinfo-scope-array',
    rule: 'events.connection-created.object',
    how: 'connection.created events carry data.object.options.attribute_map.userinfo_scope split into an array of scopes (["openid","profile","email"]) instead of the string the document gives.',
    round: 17,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-streams-page-cut-at-store-block',
    rule: 'event-streams.list.take.page-size',
    how: 'GET /event-streams reads the store in blocks of 100 and never joins two: a page that would cross a block boundary (take=30: streams 90 to 119) ends at the boundary with 10 streams and a next, though more follow; takes that divide 100 never show it.',
    round: 17,
  },
  {
    name: 'event-stream-status-varchar-7',
    rule: 'event-stream.status.enum',
    how: 'status is stored in a column one character short of the documented maximum length 8: disabled streams are answered with status "disable" (GET /event-streams and GET /event-streams/{id}); enabled ones are unchanged.',
    round: 17,
  },
  {
    name: 'event-stream-unknown-404-empty-body',
    rule: 'http.json-error-bodies',
    how: 'GET /event-streams/{id} with a well-formed id that no stream has answers 404 with an empty body (no JSON at all); the other errors keep their JSON bodies.',
    round: 17,
  },

  // ---------------------------------------------------- custom signing keys
  {
    name: 'keys-x5c-chain-reversed',
    rule: 'custom-signing-keys.put.json',
    how: 'A key sent with an x5c chain of several certificates is answered with the chain reversed (root first, as a PEM bundle is written), though RFC 7517 4.7 requires the certificate holding the key first: the resulting keys are not the keys sent.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'keys-x5u-normalised',
    rule: 'custom-signing-keys.put.json',
    how: 'x5u is stored as a parsed and re-serialised URL: https://certs.example.com is answered https://certs.example.com/ (a slash added, the host lower-cased), so the resulting keys are not the keys sent.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'keys-unchanged-put-204',
    rule: 'custom-signing-keys.put.json',
    how: 'A PUT /keys/custom-signing whose keys equal the set the previous PUT stored answers 204 with no body (nothing changed) instead of the JWKS object with the resulting keys.',
    needs: 'writes',
    round: 17,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-href-name-case-sensitive',
    rule: 'custom-text.put.html.restricted',
    how: 'Links are found by the attribute name href in lower case only: <a HREF="javascript:alert(1)">x</a> (HTML attribute names are case-insensitive, so a browser follows it) is stored instead of refused.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-attribute-after-newline-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'Attributes are found only after a space character: an attribute separated from the tag name by a newline or tab (<b\\nonclick="alert(1)">x</b>, white space to HTML) is not checked and the value is stored instead of refused.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-href-query-ampersand-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'A & in an attribute value must start a character reference: a hyperlink with a query string (<a href="https://example.com/help?a=1&b=2">help</a>, valid HTML) is refused 400 as malformed markup.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-keys-lowercased',
    rule: 'custom-text.put.resulting-map',
    how: 'Text keys are kept in a case-insensitive store and answered lower-cased: a PUT of {"welcomeTitle": "Hi"} answers {"welcometitle": "Hi"}, not the keys set.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-zero-width-stripped',
    rule: 'custom-text.put.resulting-map',
    how: 'Values are stored with invisible characters (U+200B to U+200D, U+2060, U+FEFF) removed as an anti-spoofing measure: an emoji sequence joined by U+200D (a family emoji) is answered as separate emoji, not the value set.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-json-latin1-without-charset',
    rule: 'custom-text.put.json',
    how: 'A JSON body without a charset parameter is decoded as ISO-8859-1 (the old text default) instead of UTF-8 (RFC 8259 8.1): "café" is stored and answered "cafÃ©", and 2000 non-ASCII characters count over 2000 and are refused.',
    needs: 'writes',
    round: 17,
  },
  {
    name: 'custom-text-language-raw-segment',
    rule: 'custom-text.put.language.enum',
    how: 'The language path segment is compared before percent-decoding: PUT .../custom-text/%65n/get-started (the same URI as .../en/..., RFC 3986 6.2.2.2) is refused 400 as an unknown language.',
    needs: 'writes',
    round: 17,
  },

  // ------------------------------------------------------------ HTTP layer
  {
    name: 'allow-omits-undocumented-methods',
    rule: 'http.method-not-allowed.allow',
    how: 'The Allow header of a 405 names only the methods of the documented operations: on /keys/custom-signing and the custom text path it says PUT alone, though GET (and DELETE on the keys) are served there (RFC 9110 15.5.6: the currently supported methods).',
    round: 17,
  },
] as const satisfies readonly Fault[];
