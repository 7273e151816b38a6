/**
 * The cache of verified bearer tokens (emulator/verify-cache.ts): keyed by
 * the whole token, honouring each token's exp, bounded. A token differing
 * from a cached one in any byte goes through the full check.
 */
import { expect, test } from '@playwright/test';
import { VerifyCache } from '../../emulator/verify-cache.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness();
});
test.afterAll(async () => {
  await h.close();
});

const grantPath = () => `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`;

/** `token` with the character at `i` replaced by another base64url character that changes the decoded bytes. */
function changeAt(token: string, i: number): string {
  const c = token[i]!;
  const other = c === 'A' ? 'Q' : 'A';
  return token.slice(0, i) + other + token.slice(i + 1);
}

test.describe('verify cache, unit', () => {
  test('should answer a remembered token only for the very same string', () => {
    const cache = new VerifyCache<string>(10, () => 1_000);
    cache.set('aaa.bbb.ccc', 'principal', 2_000);
    expect(cache.get('aaa.bbb.ccc')).toBe('principal');
    for (const other of [
      'aaa.bbb.ccd',
      'aab.bbb.ccc',
      'aaa.bbc.ccc',
      'aaa.bbb.cc',
      'aaa.bbb.ccc ',
      ' aaa.bbb.ccc',
      'AAA.bbb.ccc',
    ])
      expect(cache.get(other), other).toBeUndefined();
  });

  test('should forget a token at its exp, and never remember an expired one', () => {
    let now = 1_000;
    const cache = new VerifyCache<string>(10, () => now);
    cache.set('t', 'p', 1_500);
    expect(cache.get('t')).toBe('p');
    now = 1_499;
    expect(cache.get('t')).toBe('p');
    now = 1_500;
    expect(cache.get('t')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('old', 'p', 1_000);
    expect(cache.get('old')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('should stay within its capacity, dropping the oldest entry first', () => {
    const cache = new VerifyCache<number>(3, () => 0);
    for (let i = 0; i < 10; i++) {
      cache.set(`t${i}`, i, 1_000);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect(cache.size).toBe(3);
    expect(cache.get('t6')).toBeUndefined();
    expect([cache.get('t7'), cache.get('t8'), cache.get('t9')]).toEqual([7, 8, 9]);
    expect(() => new VerifyCache(0)).toThrow(RangeError);
  });

  test('should answer through a holder exactly as without one: same string, held by the map, before its exp', () => {
    let now = 0;
    const cache = new VerifyCache<string>(2, () => now);
    const connection = {};
    cache.set('aaa.bbb.ccc', 'p', 1_000);
    expect(cache.get('aaa.bbb.ccc', connection)).toBe('p');
    // Remembered for the connection: another string still misses, the same one (a fresh copy) still hits.
    expect(cache.get('aaa.bbb.ccd', connection)).toBeUndefined();
    expect(cache.get(['aaa', 'bbb', 'ccc'].join('.'), connection)).toBe('p');
    // Dropped as the oldest: the holder does not keep it alive.
    cache.get('aaa.bbb.ccc', connection);
    cache.set('t1', 'q', 1_000);
    cache.set('t2', 'r', 1_000);
    expect(cache.get('aaa.bbb.ccc', connection)).toBeUndefined();
    // Replaced: the holder answers the new value.
    expect(cache.get('t2', connection)).toBe('r');
    cache.set('t2', 's', 2_000);
    expect(cache.get('t2', connection)).toBe('s');
    // Cleared, then expired.
    cache.clear();
    expect(cache.get('t2', connection)).toBeUndefined();
    cache.set('t3', 'u', 1_500);
    expect(cache.get('t3', connection)).toBe('u');
    now = 1_500;
    expect(cache.get('t3', connection)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test("the emulator's cache is bounded", () => {
    expect(h.app.emulator.auth.verified.capacity).toBeLessThanOrEqual(10_000);
  });
});

test.describe('verify cache in the bearer check @auth', () => {
  test('should refuse a token differing by one byte in its header, payload or signature after the original was cached', async () => {
    const token = await h.token('full');
    expect((await h.api('GET', grantPath(), { token })).statusCode).toBe(200);
    expect(h.app.emulator.auth.verified.get(token)).toBeDefined();
    const [header, payload] = token.split('.') as [string, string, string];
    const positions = {
      header: Math.floor(header.length / 2),
      payload: header.length + 1 + Math.floor(payload.length / 2),
      signature: header.length + 1 + payload.length + 1 + 10,
      'signature, first character': header.length + 1 + payload.length + 1,
    };
    for (const [part, i] of Object.entries(positions)) {
      const forged = changeAt(token, i);
      expect(forged).not.toBe(token);
      const res = await h.api('GET', grantPath(), { token: forged });
      expect(res.statusCode, `${part} changed`).toBe(401);
      expect(h.app.emulator.auth.verified.get(forged), `${part} changed`).toBeUndefined();
    }
    // The original is still good.
    expect((await h.api('GET', grantPath(), { token })).statusCode).toBe(200);
  });

  test('should refuse a cached token once it has expired', async () => {
    const auth = h.app.emulator.auth;
    // exp counts from iat, a whole second: a one-second token issued late in its second is valid for a moment only.
    const token = await auth.issue(auth.clients.full, h.app.emulator.origin, auth.clients.full.scopes, {
      ttlSeconds: 2,
    });
    expect((await h.api('GET', grantPath(), { token })).statusCode).toBe(200);
    expect(auth.verified.get(token)).toBeDefined();
    // Expiry is the behaviour under test: let the token's own seconds run out.
    const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number }).exp;
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 1));
    expect(auth.verified.get(token)).toBeUndefined();
    expect((await h.api('GET', grantPath(), { token })).statusCode).toBe(401);
  });

  test("should keep each token's own principal (no cross-talk between cached tokens)", async () => {
    const full = await h.token('full');
    const limited = await h.token('limited');
    for (let i = 0; i < 3; i++) {
      expect((await h.api('GET', grantPath(), { token: full })).statusCode).toBe(200);
      expect((await h.api('GET', grantPath(), { token: limited })).statusCode).toBe(403);
    }
  });
});
