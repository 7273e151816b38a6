/**
 * Endpoints 1: GET /users/{id}/federated-connections-tokensets.
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { startEmulator } from '../../emulator/index.js';
import { body, fetchFullToken, harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness();
});
test.afterAll(async () => {
  await h.close();
});

const path = (id: string) => `/users/${encodeURIComponent(id)}/federated-connections-tokensets`;

test.describe('token-set listing @token-sets', () => {
  test("should list the fixture users' active token sets as schema-valid arrays", async () => {
    const f = h.app.emulator.state.fixtures;
    const now = Date.now();
    for (const id of [f.userId, f.userWithOneTokenSetId, f.userWithoutTokenSetsId]) {
      const res = await h.api('GET', path(id));
      expect(res.statusCode).toBe(200);
      const list = res.json() as { id: string }[];
      const r = validate('token-set-list', list);
      expect(r.valid, formatErrors(r.errors)).toBe(true);
      // "(active ones)": the seeded sets that have not expired, whatever the clock says today.
      const active = (h.app.emulator.state.tokenSets.get(id) ?? []).filter(
        (t) => t.expires_at === null || Date.parse(t.expires_at) > now,
      );
      expect(
        list.map((t) => t.id),
        id,
      ).toEqual(active.map((t) => t.id));
    }
    expect((h.app.emulator.state.tokenSets.get(f.userWithoutTokenSetsId) ?? []).length).toBe(0);
  });

  test('should include token sets with null expires_at and last_used_at', async () => {
    const list = (await h.api('GET', path(h.app.emulator.state.fixtures.userId))).json() as {
      expires_at: unknown;
      last_used_at: unknown;
    }[];
    expect(list.some((t) => t.expires_at === null)).toBe(true);
    expect(list.some((t) => t.last_used_at === null)).toBe(true);
  });

  test('should leave out a token set whose expires_at has passed, and list one that expires later', async () => {
    const id = h.app.emulator.state.fixtures.userWithOneTokenSetId;
    const sets = h.app.emulator.state.tokenSets.get(id)!;
    const saved = [...sets];
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    sets.push(
      { ...saved[0]!, id: 'tset_selftestexpired', expires_at: at(-3_600_000) },
      { ...saved[0]!, id: 'tset_selftestlater', expires_at: at(3_600_000) },
    );
    try {
      const ids = ((await h.api('GET', path(id))).json() as { id: string }[]).map((t) => t.id);
      expect(ids).toContain('tset_selftestlater');
      expect(ids).not.toContain('tset_selftestexpired');
    } finally {
      sets.splice(0, sets.length, ...saved);
    }
  });

  test('should answer 404 inexistent_user for an unknown user', async () => {
    const res = await h.api('GET', path(h.app.emulator.state.fixtures.unknownUserId));
    expect(res.statusCode).toBe(404);
    expect(body(res)['errorCode']).toBe('inexistent_user');
  });

  test('should accept an id of exactly 300 characters (404) and refuse 301 (400 invalid_uri)', async () => {
    const at = await h.api('GET', path('u'.repeat(300)));
    expect(at.statusCode).toBe(404);
    const over = await h.api('GET', path('u'.repeat(301)));
    expect(over.statusCode).toBe(400);
    expect(body(over)['errorCode']).toBe('invalid_uri');
    const huge = await h.api('GET', path('u'.repeat(5000)));
    expect(huge.statusCode).toBe(400);
  });

  test('should carry the rate-limit headers on success and on errors', async () => {
    for (const id of [h.app.emulator.state.fixtures.userId, 'nobody']) {
      const res = await h.api('GET', path(id));
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers[name], name).toMatch(/^\d+$/);
    }
  });
});

test.describe('token-set seed and the calendar @token-sets', () => {
  const YEAR = 365 * 86_400_000;
  // The listing returns "active ones": whatever the date, no seeded set has expired.
  for (const years of [0, 3, 30]) {
    test(`should list only token sets whose expires_at is null or in the future with the clock ${years} years ahead`, async () => {
      const now = () => Date.now() + years * YEAR;
      const emu = await startEmulator({ now });
      try {
        const token = await fetchFullToken(emu);
        const seen: { expires_at: string | null; issued_at: string; last_used_at: string | null }[] = [];
        for (const id of [emu.fixtures.userId, emu.fixtures.userWithOneTokenSetId]) {
          const res = await fetch(`${emu.baseUrl}${path(id)}`, { headers: { authorization: `Bearer ${token}` } });
          expect(res.status).toBe(200);
          seen.push(...((await res.json()) as typeof seen));
        }
        const at = now();
        expect(seen.length).toBeGreaterThan(1);
        expect(seen.some((t) => t.expires_at !== null)).toBe(true);
        for (const t of seen) {
          if (t.expires_at !== null)
            expect(
              Date.parse(t.expires_at),
              `expires_at ${t.expires_at} after ${new Date(at).toISOString()}`,
            ).toBeGreaterThan(at);
          // Issued and last used before the (moved) start, never in its future.
          expect(Date.parse(t.issued_at)).toBeLessThanOrEqual(at);
          if (t.last_used_at !== null) expect(Date.parse(t.last_used_at)).toBeLessThanOrEqual(at);
        }
      } finally {
        await emu.close();
      }
    });
  }

  test('should keep the same seeded dates across a reset', async () => {
    const state = h.app.emulator.state;
    const before = JSON.stringify(state.tokenSets.get(state.fixtures.userId));
    state.reset();
    expect(JSON.stringify(state.tokenSets.get(state.fixtures.userId))).toBe(before);
  });
});
