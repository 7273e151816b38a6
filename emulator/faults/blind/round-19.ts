/**
 * Blind round 19: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 19`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round19 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-body-plus-after-percent-decode',
    rule: 'oauth.token.endpoint',
    how: 'Form parameters of the token request are percent-decoded first and + is read as a space after: a client_secret holding + sent in the body as %2B (as URLSearchParams encodes it) turns into a space, so a client authenticating with body credentials and its right secret gets 401 invalid_client; HTTP Basic and JSON bodies work.',
    round: 19,
  },
  {
    name: 'token-iat-milliseconds',
    rule: 'oauth.token.jwt',
    how: 'Issued access tokens carry iat in epoch milliseconds (Date.now() without the division) while exp is in seconds: RFC 7519 4.1.6 makes iat a NumericDate in seconds, so the token says it was issued some 55,000 years after it expires.',
    round: 19,
  },
  {
    name: 'token-response-json-bom',
    rule: 'oauth.token.response',
    how: 'A successful token response body starts with a UTF-8 byte order mark (EF BB BF) before the JSON object, which RFC 8259 8.1 forbids on networked JSON: a client that parses the bytes as JSON finds no access_token.',
    round: 19,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'verify-cache-key-cut-at-255',
    rule: 'auth.jwt.signature',
    how: 'Verified tokens are cached under their first 255 characters (a VARCHAR(255) key): a token that begins as a verified one but has a changed end (its signature, or exp, jti and the other late claims) is admitted from the cache on every operation instead of refused 401.',
    round: 19,
  },
  {
    name: 'bearer-challenge-realm-unquoted',
    rule: 'http.unauthorized.challenge',
    how: 'Every 401 of /api/v2 writes its challenge as Bearer realm=Management API, error="invalid_token": a realm value with a space and no quotes is neither a token nor a quoted-string (RFC 9110 11.2), so the field is not a valid challenge a client can parse.',
    round: 19,
  },
  {
    name: 'custom-text-put-accepts-read-scope',
    rule: 'auth.scope.enforced',
    how: 'The scopes of the custom text path are read from both its routes: PUT custom text admits a token holding only read:self_service_profile_custom_texts (the scope of reading it) and changes the text, instead of refusing it 403.',
    needs: 'writes',
    round: 19,
  },

  // ----------------------------------------------------------- rate limits
  {
    name: 'rate-limit-counts-each-request-twice',
    rule: 'rate-limit.header-values',
    how: 'Each request with a token is counted twice (by the limiter of the auth hook and again of the route): X-RateLimit-Remaining falls by two a request and the 429 comes after half the requests X-RateLimit-Limit announces.',
    round: 19,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-users-cached-at-start',
    rule: 'token-sets.list.success',
    how: 'The token-set listing finds users in a directory loaded at start: a user created since (POST /users) is answered 404 as if it did not exist, instead of 200 with its (empty) list.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'user-id-length-after-provider-prefix',
    rule: 'token-sets.list.user-id.max-length',
    how: 'The 300-character limit is counted on the part of the user id after its provider prefix (after the |): auth0| followed by 295 to 300 characters (301 to 306 in all) is looked up and answered 404 instead of refused 400 as too long.',
    round: 19,
    disputed:
      'Both of its answers say the same to a client: an id of 301 characters can name no user, so the 404 it gets (the user does not exist) is as true as a 400, and the document leaves validation statuses open ("Status codes for validation failures ... not shown"); no request tells a lookup that finds nothing from a length refused.',
  },

  // ------------------------------------------------------------ GET /events
  {
    name: 'event-type-group-types-refused',
    rule: 'events.filter.unknown-rejected',
    how: 'The allow-list of event_type is built from the resources the service manages (users, organizations, connections): group.* and organization.group.* types, listed in the document, are refused 400.',
    round: 19,
  },
  {
    name: 'resume-same-second-ordered-by-type',
    rule: 'events.resume.order',
    how: 'Events replayed after a cursor are ordered by their time cut to the second, then by type name: events written within one second (user.created, user.updated, user.deleted) come back as user.created, user.deleted, user.updated, unlike the live stream.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'replayed-envelope-time-regenerated',
    rule: 'events.resume.no-duplicate',
    how: 'Events replayed after a from cursor carry the time they are replayed as their envelope time, not the time they happened: the same event has one time live and another when resumed, so a resumed stream is not the uncut one.',
    round: 19,
  },

  // ------------------------------------------------------ custom signing keys
  {
    name: 'keys-x5c-pem-wrapped',
    rule: 'custom-signing-keys.put.replaces',
    how: 'Certificates of x5c are re-encoded through a PEM writer and answered as base64 broken into 64-character lines: RFC 7517 4.7 wants plain base64 (RFC 4648 adds no line feeds), and the resulting keys are not the keys sent.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'keys-put-replaces-same-kty-only',
    rule: 'custom-signing-keys.put.replaces',
    how: 'A PUT deletes only the stored keys of the key types it sends before inserting its own: after an RSA set, a PUT of EC keys answers and keeps the RSA keys too, instead of replacing the entire set.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'keys-ec-coordinate-leading-zero-stripped',
    rule: 'custom-signing-keys.put.replaces',
    how: 'EC coordinates are kept as integers and written back without their leading zero octets: an EC key whose x or y starts with a zero byte is answered with a shorter coordinate, which RFC 7518 6.2.1.2 forbids and which is not the key sent.',
    needs: 'writes',
    round: 19,
  },

  // ------------------------------------------------------------ custom text
  {
    name: 'custom-text-form-charset-415',
    rule: 'custom-text.put.form',
    how: 'PUT custom text compares a form Content-Type with its parameters: application/x-www-form-urlencoded; charset=UTF-8 (as many HTTP clients send it) is refused 415; without the parameter, or as JSON, it works.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-unclosed-elements-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'The markup check reads elements as start and end tag pairs: a tag no end tag closes (<img src=x onerror=alert(1)>, <iframe src=…> left open) is not read and is stored and answered as given.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-tag-name-slash-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'Tags are found as < and a name followed by white space or >: <svg/onload=alert(1)> or <img/src=x/onerror=alert(1)> (a slash ends the name, as HTML reads it) is not read and is stored and answered as given.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-href-padded-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The scheme of an href is tested on the value as written: a hyperlink <a href=" https://example.com/ "> (HTML allows a URL surrounded by spaces and strips them) is refused 400.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-empty-value-refused',
    rule: 'custom-text.put.value.type',
    how: 'The minimum length of keys is applied to values too: a text value that is the empty string (a string, at most 2000 characters) is refused 400.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-astral-refused',
    rule: 'custom-text.put.value.type',
    how: 'Values go to a strict 3-byte utf8 column: a value holding a character outside the BMP (an emoji) fails with an "incorrect string value" and is refused 400, though it is a string of at most 2000 characters.',
    needs: 'writes',
    round: 19,
  },
  {
    name: 'custom-text-answer-only-changed-keys',
    rule: 'custom-text.put.resulting-map',
    how: 'A PUT answers only the keys whose value it changed: setting a map again, or one sharing keys and values with the stored one, answers a map without them (an empty object for the same map) instead of the resulting map.',
    needs: 'writes',
    round: 19,
  },

  // -------------------------------------------------------------- HTTP layer
  {
    name: 'api-prefix-case-insensitive',
    rule: 'versioning.path-prefix',
    how: 'The /api/v2 prefix is matched ignoring case (a router mounted case-insensitively): /API/V2/... and /Api/v2/... answer the operations instead of 404, though paths are case-sensitive (RFC 3986 6.2.2.1) and every operation lives under /api/v2.',
    round: 19,
    disputed:
      'The document says where the interface lives ("every path is under the prefix /api/v2"), not that nothing answers elsewhere: a router that matches without case (the default of Express) serves the same operations at /API/V2 as well, and no documented operation answers differently for it.',
  },
  {
    name: 'accept-json-charset-406',
    rule: 'http.json-bodies',
    how: 'GET /event-streams compares Accept ranges with their parameters: Accept: application/json; charset=utf-8 is answered 406 though it names the JSON media type the answer has; application/json alone or */* work.',
    round: 19,
  },
  {
    name: 'unknown-route-404-html',
    rule: 'http.json-error-bodies',
    how: "A request under /api/v2 that no route matches (a path with an empty id, a typo) gets the router's own 404 page as text/html instead of a JSON error.",
    round: 19,
  },
] as const satisfies readonly Fault[];
