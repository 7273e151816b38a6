/**
 * Authentication 2, 4, 5: the OAuth 2.0 client-credentials token endpoint,
 * POST {auth_url}/oauth/token/ with audience /api/v2/.
 * Token lifetime, claims and the error shape are not shown (observed).
 */
import type { Exchange } from '../harness/client.ts';
import { must, mustMatchSchema, mustRefuse, mustStatus, observe } from '../harness/checks.ts';
import type { ClientCredentials, Config } from '../harness/config.ts';
import { requireFixture, rules, test } from '../harness/fixtures.ts';
import { countRequest } from '../harness/request-log.ts';
import { decodeJwt, requestToken, TOKEN_PATH } from '../harness/tokens.ts';

/** Sends a token request and keeps it as evidence, with the secret replaced by a placeholder. */
async function tokenExchange(config: Config, creds: ClientCredentials): Promise<Exchange> {
  countRequest('POST', TOKEN_PATH);
  const a = await requestToken(config, creds);
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: '<client_secret>', audience: config.audience });
  return {
    method: 'POST', target: TOKEN_PATH, url: `${config.authUrl}${TOKEN_PATH}`, authorization: 'none',
    requestContentType: 'application/x-www-form-urlencoded', requestBody: body.toString(),
    status: a.status, headers: {}, contentType: a.contentType, text: a.text.replace(/"access_token"\s*:\s*"[^"]*"/, '"access_token":"<redacted>"'), json: a.json, waitedMs: 0,
  };
}

test.describe('token endpoint @auth', () => {
  test('should issue a token for client credentials and audience /api/v2/', rules('oauth.token.endpoint', 'oauth.token.response', 'auth.scope.form'), async ({ config }) => {
    const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
    const ex = await tokenExchange(config, creds);
    mustStatus('oauth.token.endpoint', ex, 200);
    mustMatchSchema('token-response', ex.json, ex);
    const { expires_in, token_type, scope } = ex.json as { expires_in?: number; token_type: string; scope?: string };
    observe('oauth.token.error-shape', 'token response', `token_type ${token_type}, expires_in ${expires_in === undefined ? 'absent' : 'present'}, scope ${scope === undefined ? 'absent' : 'present'}`, { expires_in });
  });

  test('should issue an access token that is a JWT', rules('oauth.token.jwt'), async ({ config }) => {
    const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
    const ex = await tokenExchange(config, creds);
    const token = (ex.json as { access_token?: unknown } | undefined)?.access_token;
    const jwt = typeof token === 'string' ? decodeJwt(token) : undefined;
    must('oauth.token.jwt', !!jwt && typeof jwt.header.alg === 'string', {
      expected: 'a JWS compact serialisation whose header (with alg) and payload are JSON objects',
      actual: typeof token !== 'string' ? `access_token ${typeof token}` : `${token.split('.').length} segments, ${jwt ? 'no alg' : 'not decodable'}`,
      exchange: ex,
    });
  });

  test('should refuse wrong client credentials without issuing a token', rules('oauth.token.bad-client'), async ({ config }) => {
    const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
    const ex = await tokenExchange(config, { clientId: creds.clientId, clientSecret: `${creds.clientSecret}-wrong` });
    mustRefuse('oauth.token.bad-client', ex, 'the client secret is wrong');
    must('oauth.token.bad-client', (ex.json as { access_token?: unknown } | undefined)?.access_token === undefined, { expected: 'no access_token', actual: 'an access_token', exchange: ex });
    observe('oauth.token.error-shape', 'wrong secret answered', `${ex.status} ${JSON.stringify((ex.json as { error?: unknown })?.error ?? null)}`);
  });
});
