/**
 * Blind round 16: faults written by someone who read the interface document,
 * the standards it relies on and the emulator, never the checks. Each is
 * marked `round: 16`; the record of what the suite caught before and after
 * the round is verify/blind-rounds.json.
 */
import type { Fault } from '../catalogue.ts';

export const round16 = [
  // ------------------------------------------------------ token endpoint
  {
    name: 'token-unsupported-grant-invalid-grant',
    rule: 'oauth.token.grant-type',
    how: 'A token request with a grant type the server does not support (grant_type=password, authorization_code, ...) is refused 400 with error invalid_grant instead of unsupported_grant_type (RFC 6749 5.2).',
    round: 16,
    disputed:
      'The error code of a token endpoint refusal is observed (oauth.token.error-shape), never failed: the real deployment answers codes RFC 6749 5.2 gives other meanings (a failed client authentication is 401 access_denied "Unauthorized", as reported in auth0/node-auth0 issues 134 and 682), so a code is no verdict; the status and the error member\'s presence are.',
  },
  {
    name: 'token-missing-grant-type-unsupported',
    rule: 'oauth.token.grant-type',
    how: 'A token request without grant_type is refused 400 with error unsupported_grant_type (the missing value compared as an unknown one) instead of invalid_request, the code RFC 6749 5.2 gives a request missing a required parameter.',
    round: 16,
    disputed:
      'The error code of a token endpoint refusal is observed (oauth.token.error-shape), never failed: the real deployment answers codes RFC 6749 5.2 gives other meanings (a failed client authentication is 401 access_denied "Unauthorized", as reported in auth0/node-auth0 issues 134 and 682), so a code is no verdict; the status and the error member\'s presence are.',
  },
  {
    name: 'token-bad-client-unauthorized-client',
    rule: 'oauth.token.bad-client',
    how: 'A failed client authentication (unknown client or wrong secret) is answered 401 with error unauthorized_client instead of invalid_client, the code RFC 6749 5.2 gives a failed client authentication.',
    round: 16,
    disputed:
      'The error code of a token endpoint refusal is observed (oauth.token.error-shape), never failed: the real deployment answers codes RFC 6749 5.2 gives other meanings (a failed client authentication is 401 access_denied "Unauthorized", as reported in auth0/node-auth0 issues 134 and 682), so a code is no verdict; the status and the error member\'s presence are.',
  },
  {
    name: 'token-response-text-plain',
    rule: 'oauth.token.response',
    how: 'A successful token response carries its JSON body under Content-Type text/plain; charset=utf-8 instead of application/json (RFC 6749 5.1); the error responses stay application/json.',
    round: 16,
  },

  // ------------------------------------------------------ authentication
  {
    name: 'transition-any-update-scope',
    rule: 'auth.scope.enforced',
    how: 'POST /experimentation/experiments/{id}/status checks only the verb of the scopes held: a token holding any update: scope (update:users) but not update:experimentation moves an experiment instead of being refused 403.',
    needs: 'writes',
    round: 16,
  },

  // ------------------------------------------------------------ token sets
  {
    name: 'token-sets-user-lookup-by-prefix',
    rule: 'token-sets.list.unknown-user',
    how: "Users are looked up by prefix (LIKE 'id%'): a user id that does not exist but starts with an existing user's id (that id with characters appended) is answered 200 with that user's token sets instead of 404.",
    round: 16,
  },

  // ----------------------------------------------------------- experiments
  {
    name: 'transition-ended-at-no-zone',
    rule: 'timestamps.date-time',
    how: 'The experiment answered by a status move writes ended_at from a naive timestamp column, without Z or offset ("2026-01-01T10:00:00.000"), which is not an RFC 3339 date-time; the other dates keep their Z.',
    needs: 'writes',
    round: 16,
  },

  // ---------------------------------------------------------------- events
  {
    name: 'from-timestamp-leap-day-refused',
    rule: 'events.from-timestamp.start',
    how: 'from_timestamp is checked against a days-in-month table with February at 28: 29 February of a leap year (2024-02-29T00:00:00Z), a valid RFC 3339 date, is refused 400 instead of starting the stream there.',
    round: 16,
  },
  {
    name: 'from-timestamp-epoch-refused',
    rule: 'events.from-timestamp.start',
    how: 'A parsed from_timestamp of 0 ms or less is taken for a failed parse: 1970-01-01T00:00:00Z and earlier times (valid RFC 3339 date-times that start the stream at the oldest event) are refused 400.',
    round: 16,
  },
  {
    name: 'from-timestamp-future-refused',
    rule: 'events.from-timestamp.start',
    how: 'A from_timestamp later than the present is refused 400 as invalid instead of being taken as the start position (the stream then delivers the events at or after that time).',
    round: 16,
  },
  {
    name: 'history-connection-booleans-tinyint',
    rule: 'events.connection-created.object',
    how: 'connection.created events replayed from the stored history carry the boolean members of data.object (is_domain_connection, show_as_button) as 0 or 1 (a tinyint column) instead of false or true; live events keep booleans.',
    round: 16,
  },

  {
    name: 'event-type-trimmed',
    rule: 'events.filter.unknown-rejected',
    how: 'event_type values are trimmed before they are checked: event_type=user.created%20 (a value not in the list of event types) is accepted and filters as user.created instead of being refused 400.',
    round: 16,
  },

  // --------------------------------------------------------- event streams
  {
    name: 'event-stream-id-trimmed',
    rule: 'event-streams.get.id.length',
    how: "The id path segment of GET /event-streams/{id} is trimmed before its length is checked: a stream's 26-character id with a space appended (%20, 27 characters) answers 200 with that stream instead of being refused.",
    round: 16,
  },
  {
    name: 'event-streams-list-updated-at-from-created',
    rule: 'event-streams.get.same-stream',
    how: 'GET /event-streams answers each stream with updated_at equal to its created_at (the list projection has no updated_at column), so a stream updated after creation reads differently in the list and in GET /event-streams/{id}.',
    round: 16,
  },

  // ---------------------------------------------------- custom signing keys
  {
    name: 'keys-null-as-empty',
    rule: 'custom-signing-keys.put.min-one-key',
    how: 'PUT /keys/custom-signing with {"keys": null} is read as an empty set (keys ?? []): it clears the stored keys and answers {"keys": []} instead of being refused, though keys must be an array of at least one key.',
    needs: 'writes',
    round: 16,
  },

  // ----------------------------------------------------------- custom text
  {
    name: 'custom-text-abrupt-comment-hides-markup',
    rule: 'custom-text.put.html.restricted',
    how: 'Comments are removed with /<!--[\\s\\S]*?-->/ before the markup is checked: "<!--><img src=x onerror=alert(1)>-->" (where HTML ends the comment at "<!-->", so the img is live) is stored instead of refused.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-href-last-checked',
    rule: 'custom-text.put.html.restricted',
    how: 'Attributes are read into a map, so only the last of repeated attributes is checked: <a href="javascript:alert(1)" href="https://example.com">x</a> (a browser keeps the first href) is stored instead of refused.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-href-spaced-equals-unchecked',
    rule: 'custom-text.put.html.restricted',
    how: 'Links are found with href="..." written without white space: <a href = "javascript:alert(1)">x</a> (white space around = is allowed in HTML) is stored instead of refused.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-underline-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'The allow-list of styling tags lacks <u>: a value such as "<u>important</u>", basic styling, is refused 400 while <b>, <i>, <strong> and <em> pass.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-mailto-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Links are accepted with http: and https: only: <a href="mailto:help@example.com">help</a>, a plain hyperlink, is refused 400 as an unsafe URL.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-link-target-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Links are accepted with href alone: <a href="https://example.com" target="_blank" rel="noopener">x</a>, an ordinary hyperlink, is refused 400 for its target attribute.',
    needs: 'writes',
    round: 16,
    disputed:
      'Which attributes a hyperlink may carry besides href is not shown: a server whose allow-list takes href alone still takes "basic styling tags and hyperlinks"; the suite holds every hyperlink it sends to href.',
  },
  {
    name: 'custom-text-numeric-entities-refused',
    rule: 'custom-text.put.html.basic-allowed',
    how: 'Character references are accepted by name only: plain text with a numeric reference ("&#169; 2026", "&#x2014;") is refused 400 as malformed markup.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-length-after-nfkc',
    rule: 'custom-text.put.value.max-length',
    how: 'The 2000-character limit is counted on the NFKC form of the value: 2000 compatibility characters such as the ligature "\uFB01" (two characters "fi" after NFKC) or "\u2474" are refused though the value is 2000 characters.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-language-case-insensitive',
    rule: 'custom-text.put.language.enum',
    how: 'The language path segment is compared ignoring case (language tags are case-insensitive in BCP 47): PUT .../custom-text/EN/get-started is accepted and stored instead of refused; the document\'s enum allows the value "en" only.',
    needs: 'writes',
    round: 16,
  },
  {
    name: 'custom-text-malformed-json-html',
    rule: 'http.json-error-bodies',
    how: 'A malformed JSON body of PUT /self-service-profiles/{id}/custom-text/{language}/{page} is answered 400 with an HTML error page (text/html) instead of a JSON error body; the other errors stay JSON.',
    needs: 'writes',
    round: 16,
  },
] as const satisfies readonly Fault[];
