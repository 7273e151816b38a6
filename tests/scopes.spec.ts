/**
 * Authentication 4 and Errors: "Token-set listing requires
 * `read:federated_connections_tokens`"; "403: Insufficient scope; any of the
 * required scopes is expected". A token holding only that scope is served the
 * listing, wherever the token endpoint lets a token request narrow its scope
 * (the `scope` parameter of RFC 6749 4.4.2; whether a target does is not shown).
 */
import { must, mustStatus, observe } from '../harness/vocabulary/must.ts';
import { requireFixture, skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { narrowedToken, TOKEN_PATH } from '../harness/requests/tokens.ts';
import { decodeJwt, grantedScope as granted } from '../harness/vocabulary/jwt.ts';
import { declareRules } from '../harness/vocabulary/declare.ts';
import { mustBeJwt, mustFollowStatusChecklist, tokenErrorProblem } from '../harness/vocabulary/auth-checks.ts';
import { inScopeScopes, pathOf } from '../spec/operations.ts';

const SCOPE = 'read:federated_connections_tokens';

/** Edit distance between two scope strings (how near a scope is to another). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return row[b.length]!;
}
const path = (id: string) => pathOf('token-sets.list', { id });
/** A user id no tenant holds. */
const UNKNOWN_USER = 'conformance-nobody-scopes';

/** The scope a token narrowed to the listing's was granted. */
const grantedScope = (json: unknown, token: string) => granted(json, token, SCOPE);

test.describe('scopes of the token-set listing @auth @token-sets', () => {
  const anyRequiredScope = declareRules(
    'token-sets.list.any-required-scope',
    'oauth.token.endpoint',
    'oauth.token.jwt',
  );
  test(
    "should serve the token-set listing to a token holding only read:federated_connections_tokens, for a user that exists and for one that does not (relation: as the run's token is answered)",
    anyRequiredScope,
    async ({ api, anonApi, config }) => {
      const creds = requireFixture(
        config.credentials,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET (a static token cannot be narrowed)',
      );
      const a = await narrowedToken(config, creds, SCOPE);
      // A 5xx is never a refusal to narrow.
      must(anyRequiredScope.oauthTokenEndpoint, a.status < 500, {
        expected: `a token, or a 4xx refusal of scope=${SCOPE}`,
        actual: `status ${a.status} from POST ${TOKEN_PATH}`,
      });
      const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
      if (a.status !== 200 || typeof token !== 'string') {
        observe('oauth.token.scope-narrowing', `scope=${SCOPE} requested`, `refused (${a.status})`);
        test.skip(
          true,
          `The token endpoint does not narrow a token to ${SCOPE} (status ${a.status}); whether it must is not shown`,
        );
        return;
      }
      // A narrowed token is an issued token: a JWT like every other (oauth.token.jwt).
      mustBeJwt(anyRequiredScope, token, `the token request with scope=${SCOPE}`);
      const granted = grantedScope(a.json, token);
      const narrowed = granted.scope.split(' ').filter(Boolean);
      observe(
        'oauth.token.scope-narrowing',
        `scope=${SCOPE} requested`,
        narrowed.length === 1 && narrowed[0] === SCOPE ? 'narrowed' : 'not narrowed',
        { from: granted.from, scopes: narrowed.length },
      );
      test.skip(
        narrowed.length !== 1 || narrowed[0] !== SCOPE,
        `The token endpoint granted ${narrowed.length} scope(s) (${granted.from}), not exactly ${SCOPE}: no narrowed token to try`,
      );

      const narrowedAnswer = (user: string) => anonApi.get(path(user), { auth: { header: `Bearer ${token}` } });
      // The configured user's listing: 200.
      if (config.userId)
        mustStatus(anyRequiredScope.tokenSetsListAnyRequiredScope, await narrowedAnswer(config.userId), 200);
      // A user that does not exist: the answer the run's token gets (the document's 404 "The user does not exist";
      // which answer that is, is token-sets.list.unknown-user's to decide), never a refusal for the token's scope
      // (a server that asks another service whether the user exists, with the caller's token, may refuse it there).
      const ex = await narrowedAnswer(UNKNOWN_USER);
      const full = await api.get(path(UNKNOWN_USER));
      must(anyRequiredScope.tokenSetsListAnyRequiredScope, ex.status === full.status && ex.status !== 403, {
        expected: `the status the run's token gets for a user that does not exist (${full.status}), not a 403: ${SCOPE} is the one scope the listing requires`,
        actual: `status ${ex.status} to the token holding only ${SCOPE}`,
        exchange: ex,
      });
    },
  );
  const insufficient = declareRules(
    'token-sets.list.insufficient-scope',
    'http.unauthorized.challenge',
    'oauth.token.jwt',
  );
  test(
    'should answer 403 to tokens narrowed to scopes other than read:federated_connections_tokens: the same resource under another verb, the nearest read scopes, all the others',
    insufficient,
    async ({ anonApi, config }) => {
      const creds = requireFixture(
        config.credentials,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET (a static token cannot be narrowed)',
      );
      // Scope sets that a comparison by resource, by prefix, by "has any scope" or by a list of
      // alternatives lets through: the same resource under another verb, each read scope of the
      // catalogue the client holds nearest to the listing's, and everything the client holds but it.
      const held = String(decodeJwt(config.runToken ?? '')?.payload.scope ?? '')
        .split(' ')
        .filter((s) => s && s !== SCOPE);
      const nearest = held
        .filter((s) => s.startsWith('read:'))
        .sort((a, b) => distance(a, SCOPE) - distance(b, SCOPE) || a.localeCompare(b))
        .slice(0, config.embedded ? 6 : 1);
      const everyOther = held.length ? held : inScopeScopes.filter((s) => s !== SCOPE);
      const sets = [
        ['delete:federated_connections_tokens'],
        ...nearest.map((s) => [s]),
        // The path's own resource under the same verb (the listing lives under /users).
        ['read:users'],
        everyOther,
      ].filter((set, i, all) => all.findIndex((x) => x.join(' ') === set.join(' ')) === i);
      // Against an external target, the set that most comparisons let through (read:users goes to the
      // listing with the narrowed-token check of every operation, harness/vocabulary/auth-checks.ts).
      let tried = 0;
      for (const wanted of config.embedded ? sets : [everyOther]) {
        const a = await narrowedToken(config, creds, wanted.join(' '));
        const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
        if (a.status !== 200 || typeof token !== 'string') continue;
        mustBeJwt(insufficient, token, `the token request with scope=${JSON.stringify(wanted.join(' '))}`);
        const granted = grantedScope(a.json, token).scope.split(' ').filter(Boolean);
        // Only a token that was really narrowed, away from the listing's scope, tells anything.
        if (granted.includes(SCOPE) || granted.some((g) => !wanted.includes(g))) continue;
        tried++;
        const ex = await anonApi.get(path(config.userId ?? UNKNOWN_USER), { auth: { header: `Bearer ${token}` } });
        mustStatus(insufficient.tokenSetsListInsufficientScope, ex, 403);
        mustFollowStatusChecklist(insufficient, ex);
      }
      test.skip(
        tried === 0,
        `The token endpoint narrowed no token to scopes without ${SCOPE}; whether it must is not shown`,
      );
    },
  );

  const beyondGrant = declareRules('token-sets.list.insufficient-scope', 'oauth.token.endpoint', 'oauth.token.jwt');
  test(
    'should never let the limited client into the token-set listing by asking for read:federated_connections_tokens, a scope beyond its grant: the request refused (RFC 6749 5.2: invalid_scope), or a token without it (3.3: the request may be ignored) that the listing refuses with 403',
    beyondGrant,
    async ({ anonApi, config }) => {
      const creds = requireFixture(
        config.limitedCredentials,
        `CONFORMANCE_LIMITED_CLIENT_ID/CONFORMANCE_LIMITED_CLIENT_SECRET (a client without ${SCOPE})`,
      );
      skipBeyondReadOnlyBudget(config, "the limited client's token request beyond its grant is");
      // The request alone, and beside the scopes the client holds: a server that grants what is asked for
      // once one requested scope is held, or that checks the first scope only, lets it through one way.
      const held = String(decodeJwt(config.limitedRunToken ?? '')?.payload.scope ?? '')
        .split(' ')
        .filter((s) => s && s !== SCOPE);
      const asked = [SCOPE, ...(held.length ? [`${held.join(' ')} ${SCOPE}`] : [])];
      for (const scope of config.embedded ? asked : asked.slice(0, 1)) {
        const a = await narrowedToken(config, creds, scope);
        must(beyondGrant.oauthTokenEndpoint, a.status < 500, {
          expected: `a 4xx refusal of scope=${scope}, or a token`,
          actual: `status ${a.status} from POST ${TOKEN_PATH}`,
        });
        const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
        if (a.status !== 200 || typeof token !== 'string') {
          // Refused: RFC 6749 5.2's error response (invalid_scope is the RFC's code; which one is not judged).
          const problem = tokenErrorProblem(a.contentType, a.json);
          must(beyondGrant.oauthTokenEndpoint, problem === undefined, {
            expected: `the error response of RFC 6749 5.2 to scope=${scope}: a JSON object, Content-Type application/json, with "error" a non-empty ASCII code`,
            actual: `status ${a.status} from POST ${TOKEN_PATH}: ${problem ?? ''}`,
          });
          continue;
        }
        mustBeJwt(beyondGrant, token, `the limited client's token request with scope=${JSON.stringify(scope)}`);
        const ex = await anonApi.get(path(config.userId ?? UNKNOWN_USER), { auth: { header: `Bearer ${token}` } });
        // A token the limited client asked the scope for: whatever it was issued, its grant does not hold it.
        mustStatus(beyondGrant.tokenSetsListInsufficientScope, ex, 403);
      }
    },
  );
});
