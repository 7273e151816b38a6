/**
 * Forged tokens and the token endpoint's documented form, in process: the
 * fault-free emulator refuses every forged token the suite makes (so the
 * checks cannot fail a correct target), each fault admits its forgery only
 * where its line says, and the setup's fallback gets the run's own token from
 * an endpoint that breaks only the documented form, and records it.
 */
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.js';
import type { Config } from '../../harness/run/config.js';
import { fetchToken } from '../../harness/requests/tokens.js';
import { changedPayloadToken, foreignKeyToken, jwtKind, unsignedToken } from '../../harness/vocabulary/jwt.js';
import { body, requestToken, withEmulator, type Harness } from './helpers.js';

const tokenSets = (h: Harness) =>
  `/users/${encodeURIComponent(h.app.emulator.state.fixtures.userId)}/federated-connections-tokensets`;
const eventStream = (h: Harness) => `/event-streams/${h.app.emulator.state.eventStreams[0]!.id}`;
const laterExp = (p: Record<string, unknown>) => ({ ...p, exp: (p.exp as number) + 3600 });

/** Every forgery of the authentication checks, made from the full client's token. */
async function forgeries(h: Harness): Promise<Record<string, string>> {
  const token = await h.token('full');
  return {
    'alg none': unsignedToken(token)!,
    'a foreign key under the tenant kid': (await foreignKeyToken(token, false))!,
    'a foreign key embedded as jwk': (await foreignKeyToken(token, true))!,
    'a payload changed after signing': changedPayloadToken(token, laterExp)!,
  };
}

test.describe('forged tokens', () => {
  test('should all be refused 401 by the fault-free emulator, on the token-set listing and elsewhere', async () => {
    await withEmulator({}, async (h) => {
      for (const [name, forged] of Object.entries(await forgeries(h))) {
        for (const path of [tokenSets(h), eventStream(h), '/event-streams']) {
          expect((await h.api('GET', path, { token: forged })).statusCode, `${name} on ${path}`).toBe(401);
        }
      }
      expect((await h.api('GET', tokenSets(h))).statusCode).toBe(200);
    });
  });

  test('alg-none-accepted: an unsigned token is admitted on GET /event-streams/{id} only', async () => {
    await withEmulator({ fault: 'alg-none-accepted' }, async (h) => {
      const forged = unsignedToken(await h.token('full'))!;
      expect((await h.api('GET', eventStream(h), { token: forged })).statusCode).toBe(200);
      expect((await h.api('GET', tokenSets(h), { token: forged })).statusCode).toBe(401);
      expect(
        (await h.api('GET', eventStream(h), { token: (await foreignKeyToken(await h.token('full'), true))! }))
          .statusCode,
      ).toBe(401);
    });
  });

  test('jwk-header-trusted: a foreign key embedded in the header is trusted on the token-set listing only; without jwk it is not', async () => {
    await withEmulator({ fault: 'jwk-header-trusted' }, async (h) => {
      const token = await h.token('full');
      expect((await h.api('GET', tokenSets(h), { token: (await foreignKeyToken(token, true))! })).statusCode).toBe(200);
      expect((await h.api('GET', tokenSets(h), { token: (await foreignKeyToken(token, false))! })).statusCode).toBe(
        401,
      );
      expect((await h.api('GET', eventStream(h), { token: (await foreignKeyToken(token, true))! })).statusCode).toBe(
        401,
      );
    });
  });

  test('signature-cache-ignores-payload: a changed payload passes only after its signature was seen verified', async () => {
    await withEmulator({ fault: 'signature-cache-ignores-payload' }, async (h) => {
      const limited = await h.token('limited');
      const raised = changedPayloadToken(limited, (p) => ({ ...p, scope: 'read:federated_connections_tokens' }))!;
      expect((await h.api('GET', tokenSets(h), { token: raised })).statusCode).toBe(401);
      expect((await h.api('GET', tokenSets(h), { token: limited })).statusCode).toBe(403);
      expect((await h.api('GET', tokenSets(h), { token: raised })).statusCode).toBe(200);
    });
  });

  test('token-sets-scopes-all-of: a token narrowed to read:federated_connections_tokens is refused, the full one served', async () => {
    await withEmulator({ fault: 'token-sets-scopes-all-of' }, async (h) => {
      const res = await requestToken(h.app, 'full', { scope: 'read:federated_connections_tokens' });
      expect(body(res)['scope']).toBe('read:federated_connections_tokens');
      expect(
        (await h.api('GET', tokenSets(h), { token: body<{ access_token: string }>(res).access_token })).statusCode,
      ).toBe(403);
      expect((await h.api('GET', tokenSets(h))).statusCode).toBe(200);
    });
  });

  test('token-jwe: the token is a five-segment JWE the emulator accepts; a changed one is refused', async () => {
    await withEmulator({ variant: 'token-jwe' }, async (h) => {
      const token = await h.token('full');
      expect(jwtKind(token)).toBe('jwe');
      expect((await h.api('GET', tokenSets(h), { token })).statusCode).toBe(200);
      const changed = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await h.api('GET', tokenSets(h), { token: changed })).statusCode).toBe(401);
    });
  });
});

test.describe('token endpoint as documented', () => {
  const form = (h: Harness, url: string, json: boolean) => {
    const c = h.app.emulator.auth.clients.full;
    const params = {
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      audience: '/api/v2/',
    };
    return h.app.inject({
      method: 'POST',
      url,
      ...(json
        ? { payload: params }
        : {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(params).toString(),
          }),
    });
  };

  test('token-endpoint-json-only and token-endpoint-no-slash: only the documented form is broken', async () => {
    await withEmulator({ fault: 'token-endpoint-json-only' }, async (h) => {
      expect((await form(h, '/oauth/token/', false)).statusCode).toBe(415);
      expect((await form(h, '/oauth/token/', true)).statusCode).toBe(200);
    });
    await withEmulator({ fault: 'token-endpoint-no-slash' }, async (h) => {
      expect((await form(h, '/oauth/token/', false)).statusCode).toBe(404);
      expect((await form(h, '/oauth/token', false)).statusCode).toBe(200);
    });
  });

  test("should let the setup get the run's token by a fallback, and record it, when only the documented form is broken", async () => {
    const emu = await startEmulator({ fault: 'token-endpoint-json-only' });
    const notes: string[] = [];
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      const config = { authUrl: emu.authUrl, audience: emu.audience, timeoutMs: 5000 } as Config;
      const token = await fetchToken(config, emu.clients.full, 'main', (note) => notes.push(note));
      expect(jwtKind(token)).toBe('jws');
      expect(notes.join('; ')).toContain(
        'main: the documented request (a form body to /oauth/token/) answered 415; a JSON body to /oauth/token/ was answered 200',
      );
      expect(warned.join('\n')).toContain('oauth.token.endpoint');
      expect(warned.join('\n')).not.toContain(emu.clients.full.clientSecret);
      await expect(
        fetchToken(config, { clientId: emu.clients.full.clientId, clientSecret: 'wrong' }, 'main'),
      ).rejects.toThrow(/refused the main client credentials \(status 415/);
    } finally {
      console.warn = warn;
      await emu.close();
    }
  });
});
