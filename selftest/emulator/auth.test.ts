/**
 * Token endpoint (Authentication 2, RFC 6749 §4.4) and the bearer check of
 * /api/v2 (Authentication 1, 3; Errors 401/403).
 */
import { expect, test } from '@playwright/test';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { validate } from '../../schemas/index.js';
import { operations } from '../../spec/operations.js';
import { body, harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness();
});
test.afterAll(async () => {
  await h.close();
});

const full = () => h.app.emulator.auth.clients.full;
const basic = (id: string, secret: string) =>
  'Basic ' + Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');

function tokenRequest(
  payload: string | Record<string, unknown> | undefined,
  headers: Record<string, string> = {},
  url = '/oauth/token/',
) {
  const isForm = typeof payload === 'string';
  return h.app.inject({
    method: 'POST',
    url,
    headers: {
      ...(payload === undefined
        ? {}
        : { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: isForm ? payload : JSON.stringify(payload) }),
  });
}

test.describe('token endpoint @auth', () => {
  test('should issue a bearer token for a form-encoded client-credentials request', async () => {
    const c = full();
    const res = await tokenRequest(
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
        audience: '/api/v2/',
      }).toString(),
    );
    expect(res.statusCode).toBe(200);
    expect(validate('token-response', res.json()).errors).toEqual([]);
    expect(res.headers['cache-control']).toBe('no-store');
    const t = body<{ token_type: string; expires_in: number; scope: string }>(res);
    expect(t.token_type).toBe('Bearer');
    expect(t.expires_in).toBeGreaterThan(0);
    for (const op of operations) for (const s of op.scopes) expect(t.scope.split(' ')).toContain(s);
  });

  test('should accept JSON bodies, HTTP Basic client authentication, the full audience and the path without a slash', async () => {
    const c = full();
    const origin = h.app.emulator.origin;
    const cases = [
      tokenRequest({
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
        audience: `${origin}/api/v2/`,
      }),
      tokenRequest(`grant_type=client_credentials&audience=%2Fapi%2Fv2%2F`, {
        authorization: basic(c.clientId, c.clientSecret),
      }),
      tokenRequest(
        {
          grant_type: 'client_credentials',
          client_id: c.clientId,
          client_secret: c.clientSecret,
          audience: '/api/v2/',
        },
        {},
        '/oauth/token',
      ),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(200);
      expect(validate('token-response', res.json()).valid).toBe(true);
    }
  });

  test('should sign RS256 JWTs with iss, aud, sub, azp, scope, gty, iat, exp verifiable with the published JWKS', async () => {
    const token = await h.token('full');
    const jwksRes = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(jwksRes.statusCode).toBe(200);
    const jwks = jwksRes.json() as { keys: { kid: string; kty: string }[] };
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('RS256');
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    const origin = h.app.emulator.origin;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as never), {
      issuer: `${origin}/`,
      audience: `${origin}/api/v2/`,
    });
    expect(payload.sub).toBe(`${full().clientId}@clients`);
    expect(payload['azp']).toBe(full().clientId);
    expect(payload['gty']).toBe('client-credentials');
    expect(typeof payload['scope']).toBe('string');
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
  });

  test('should narrow the token to a requested subset of scopes and refuse scopes not granted', async () => {
    const c = full();
    const ok = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      audience: '/api/v2/',
      scope: 'read:client_grants',
    });
    expect(ok.statusCode).toBe(200);
    expect(decodeJwt(body<{ access_token: string }>(ok).access_token)['scope']).toBe('read:client_grants');
    const limited = h.app.emulator.auth.clients.limited;
    const bad = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: limited.clientId,
      client_secret: limited.clientSecret,
      audience: '/api/v2/',
      scope: 'read:client_grants',
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)['error']).toBe('invalid_scope');
  });

  const c = () => full();
  const errorCases: { name: string; req: () => ReturnType<typeof tokenRequest>; status: number; error: string }[] = [
    { name: 'no body', req: () => tokenRequest(undefined), status: 400, error: 'invalid_request' },
    {
      name: 'missing grant_type',
      req: () => tokenRequest({ client_id: c().clientId, client_secret: c().clientSecret, audience: '/api/v2/' }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'grant_type password',
      req: () =>
        tokenRequest({
          grant_type: 'password',
          client_id: c().clientId,
          client_secret: c().clientSecret,
          audience: '/api/v2/',
        }),
      status: 400,
      error: 'unsupported_grant_type',
    },
    {
      name: 'no client credentials',
      req: () => tokenRequest({ grant_type: 'client_credentials', audience: '/api/v2/' }),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'unknown client',
      req: () =>
        tokenRequest({
          grant_type: 'client_credentials',
          client_id: 'nobody',
          client_secret: 'x',
          audience: '/api/v2/',
        }),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'wrong secret',
      req: () =>
        tokenRequest({
          grant_type: 'client_credentials',
          client_id: c().clientId,
          client_secret: 'wrong',
          audience: '/api/v2/',
        }),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'wrong secret over Basic',
      req: () =>
        tokenRequest('grant_type=client_credentials&audience=/api/v2/', {
          authorization: basic(c().clientId, 'wrong'),
        }),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'malformed Basic',
      req: () => tokenRequest('grant_type=client_credentials&audience=/api/v2/', { authorization: 'Basic !!!' }),
      status: 401,
      error: 'invalid_client',
    },
    {
      name: 'Basic and client_secret together',
      req: () =>
        tokenRequest(`grant_type=client_credentials&audience=/api/v2/&client_secret=${c().clientSecret}`, {
          authorization: basic(c().clientId, c().clientSecret),
        }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'missing audience',
      req: () =>
        tokenRequest({ grant_type: 'client_credentials', client_id: c().clientId, client_secret: c().clientSecret }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'unknown audience',
      req: () =>
        tokenRequest({
          grant_type: 'client_credentials',
          client_id: c().clientId,
          client_secret: c().clientSecret,
          audience: 'https://elsewhere.test/api/v2/',
        }),
      status: 403,
      error: 'access_denied',
    },
    {
      name: 'repeated parameter',
      req: () => tokenRequest('grant_type=client_credentials&grant_type=client_credentials'),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'non-string JSON member',
      req: () => tokenRequest({ grant_type: 'client_credentials', client_id: 42 }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'JSON array body',
      req: () =>
        h.app.inject({
          method: 'POST',
          url: '/oauth/token/',
          headers: { 'content-type': 'application/json' },
          payload: '[]',
        }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'malformed JSON',
      req: () =>
        h.app.inject({
          method: 'POST',
          url: '/oauth/token/',
          headers: { 'content-type': 'application/json' },
          payload: '{"grant_type":',
        }),
      status: 400,
      error: 'invalid_request',
    },
    {
      name: 'text/plain body',
      req: () =>
        h.app.inject({
          method: 'POST',
          url: '/oauth/token/',
          headers: { 'content-type': 'text/plain' },
          payload: 'grant_type=client_credentials',
        }),
      status: 415,
      error: 'invalid_request',
    },
  ];
  for (const ec of errorCases) {
    test(`should answer ${ec.status} ${ec.error} for ${ec.name}`, async () => {
      const res = await ec.req();
      expect(res.statusCode, res.body).toBe(ec.status);
      const b = body<{ error: string; error_description: string }>(res);
      expect(b.error).toBe(ec.error);
      expect(typeof b.error_description).toBe('string');
      expect(res.body).not.toContain(c().clientSecret);
    });
  }
});

test.describe('bearer check of /api/v2 @auth', () => {
  const path = () => `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`;

  test('should admit the full client token', async () => {
    const res = await h.api('GET', path());
    expect(res.statusCode).toBe(200);
  });

  const forged: { name: string; make: () => Promise<string>; header?: (t: string) => string }[] = [
    { name: 'no Authorization header', make: async () => '' },
    { name: 'a non-Bearer scheme', make: async () => h.token(), header: (t) => `Token ${t}` },
    { name: 'a token that is not a JWT', make: async () => 'not-a-jwt' },
    {
      name: 'a token signed by another key',
      make: async () => {
        const { privateKey } = await generateKeyPair('RS256');
        const origin = h.app.emulator.origin;
        return new SignJWT({ scope: 'read:client_grants' })
          .setProtectedHeader({ alg: 'RS256', kid: h.app.emulator.auth.kid })
          .setIssuer(`${origin}/`)
          .setAudience(`${origin}/api/v2/`)
          .setSubject(`${full().clientId}@clients`)
          .setIssuedAt()
          .setExpirationTime('1h')
          .setJti('x')
          .sign(privateKey);
      },
    },
    {
      name: 'an HS256 token',
      make: async () => {
        const origin = h.app.emulator.origin;
        return new SignJWT({ scope: 'read:client_grants' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(`${origin}/`)
          .setAudience(`${origin}/api/v2/`)
          .setSubject(`${full().clientId}@clients`)
          .setIssuedAt()
          .setExpirationTime('1h')
          .setJti('x')
          .sign(new TextEncoder().encode('k'.repeat(32)));
      },
    },
    {
      name: 'an unsigned alg=none token',
      make: async () => {
        const real = decodeJwt(await h.token());
        const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
        return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(real)}.`;
      },
    },
    {
      name: 'a tampered payload',
      make: async () => {
        const [a, , c2] = (await h.token()).split('.');
        return `${a}.${Buffer.from(JSON.stringify({ scope: 'x' })).toString('base64url')}.${c2}`;
      },
    },
    {
      name: 'an expired token',
      make: () => h.app.emulator.auth.issue(full(), h.app.emulator.origin, ['read:client_grants'], { ttlSeconds: -60 }),
    },
    {
      name: 'a token for another audience',
      make: () =>
        h.app.emulator.auth.issue(full(), h.app.emulator.origin, ['read:client_grants'], {
          audience: 'https://other.test/api/v2/',
        }),
    },
    {
      name: 'a token from another issuer',
      make: () =>
        h.app.emulator.auth.issue(full(), h.app.emulator.origin, ['read:client_grants'], {
          issuer: 'https://other.test/',
        }),
    },
  ];
  for (const f of forged) {
    test(`should answer 401 to ${f.name}`, async () => {
      const t = await f.make();
      const res = await h.app.inject({
        method: 'GET',
        url: `/api/v2${path()}`,
        headers: t === '' ? {} : { authorization: f.header ? f.header(t) : `Bearer ${t}` },
      });
      expect(res.statusCode, res.body).toBe(401);
      expect(['missing_authorization', 'invalid_token']).toContain(body(res)['errorCode']);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    });
  }

  test('should answer 403 insufficient_scope naming the expected scopes to the limited client, for every operation', async () => {
    const limited = await h.token('limited');
    const f = h.app.emulator.state.fixtures;
    const concrete: Record<string, string> = {
      'token-sets.list': `/users/${encodeURIComponent(f.userId)}/federated-connections-tokensets`,
      'experiments.transition': `/experimentation/experiments/${f.experimentIds[0]}/status`,
      'client-grants.get': `/client-grants/${f.clientGrantId}`,
      'events.subscribe': '/events',
      'event-streams.get': `/event-streams/${f.eventStreamIds[0]}`,
      'event-streams.list': '/event-streams',
      'custom-signing-keys.put': '/keys/custom-signing',
      'custom-text.put': `/self-service-profiles/${f.selfServiceProfileId}/custom-text/en/get-started`,
    };
    for (const op of operations.filter((o) => o.id !== 'oauth.token')) {
      const res = await h.api(op.method, concrete[op.id]!, {
        token: limited,
        ...(op.method === 'GET' ? {} : { body: {} }),
      });
      expect(res.statusCode, op.id).toBe(403);
      const b = body<{ errorCode: string; message: string }>(res);
      expect(b.errorCode).toBe('insufficient_scope');
      expect(b.message).toBe(`Insufficient scope, expected any of: ${op.scopes.join(', ')}`);
    }
    // Nothing changed: the experiment is still a draft.
    expect(h.app.emulator.state.experiments.get(f.experimentIds[0]!)!.status).toBe('draft');
  });

  test('should word the token-set 403 exactly as the document', async () => {
    const res = await h.api('GET', `/users/x/federated-connections-tokensets`, { token: await h.token('limited') });
    expect(body(res)['message']).toBe('Insufficient scope, expected any of: read:federated_connections_tokens');
  });
});
