/**
 * The control endpoints (/__control): off by default, no authentication
 * when on; reset restores the seeded state.
 */
import { expect, test } from '@playwright/test';
import { body, harness } from './helpers.js';

test.describe('control endpoint', () => {
  test('should not exist unless control is on', async () => {
    const h = await harness();
    try {
      for (const [method, url] of [
        ['POST', '/__control/reset'],
        ['GET', '/__control/state'],
        ['POST', '/__control/events'],
        ['PUT', '/__control/faults'],
      ] as const) {
        expect((await h.app.inject({ method, url })).statusCode).toBe(404);
      }
    } finally {
      await h.close();
    }
  });

  test('should restore the seeded state on reset', async () => {
    const h = await harness({ control: true });
    try {
      const s = h.app.emulator.state;
      const id = s.fixtures.experimentIds[0]!;
      const seeded = structuredClone(s.experiments.get(id));
      expect(
        (await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: 'active' } })).statusCode,
      ).toBe(200);
      await h.api('PUT', '/keys/custom-signing', { body: { keys: [{ kty: 'EC' }] } });
      await h.api('POST', '/users', { body: { connection: s.fixtures.userConnection, email: 'x@y.z' } });
      const position = h.app.emulator.events.position;
      const res = await h.app.inject({ method: 'POST', url: '/__control/reset' });
      expect(res.statusCode).toBe(204);
      expect(s.experiments.get(id)).toEqual(seeded);
      expect(s.customSigningKeys).toBeNull();
      expect(s.users.size).toBe(3);
      // The event log is kept so cursors stay valid.
      expect(h.app.emulator.events.position).toBe(position);
      const state = body<{ seed: number; counts: Record<string, number> }>(
        await h.app.inject({ method: 'GET', url: '/__control/state' }),
      );
      expect(state.counts['eventStreams']).toBe(137);
    } finally {
      await h.close();
    }
  });

  test('should switch faults while it runs, back to conforming with none, and refuse what it cannot switch', async () => {
    const h = await harness({ control: true });
    try {
      const s = h.app.emulator.state;
      const listing = `/users/${encodeURIComponent(s.fixtures.userId)}/federated-connections-tokensets`;
      const put = (faults: unknown) => h.app.inject({ method: 'PUT', url: '/__control/faults', payload: { faults } });
      const wrongSecret = () =>
        h.app.inject({
          method: 'POST',
          url: '/oauth/token/',
          payload: {
            grant_type: 'client_credentials',
            client_id: h.app.emulator.auth.clients.full.clientId,
            client_secret: 'not-the-secret',
            audience: `${h.app.emulator.origin}/api/v2/`,
          },
        });
      expect((await h.api('GET', listing)).statusCode).toBe(200);
      expect((await wrongSecret()).statusCode).toBe(401);
      // An answer reshape and a behavioural seam, switched on together.
      const on = await put(['token-sets-status-201', 'token-wrong-secret-accepted']);
      expect(on.statusCode).toBe(200);
      expect(body<{ faults: string[] }>(on).faults).toEqual(['token-sets-status-201', 'token-wrong-secret-accepted']);
      expect((await h.api('GET', listing)).statusCode).toBe(201);
      expect((await wrongSecret()).statusCode).toBe(200);
      expect(body<{ faults: string[] }>(await h.app.inject({ method: 'GET', url: '/__control/state' })).faults).toEqual(
        ['token-sets-status-201', 'token-wrong-secret-accepted'],
      );
      expect((await put([])).statusCode).toBe(200);
      expect((await h.api('GET', listing)).statusCode).toBe(200);
      expect((await wrongSecret()).statusCode).toBe(401);
      for (const bad of [['no-such-fault'], ['experiment-id-with-zero'], 'token-sets-status-201', [1]]) {
        const res = await put(bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      }
      expect((await h.api('GET', listing)).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  test('should inject events and refuse unknown types or counts', async () => {
    const h = await harness({ control: true });
    try {
      const ok = await h.app.inject({
        method: 'POST',
        url: '/__control/events',
        payload: { type: 'user.created', count: 2 },
      });
      expect(ok.statusCode).toBe(201);
      expect(body<{ offsets: string[] }>(ok).offsets).toHaveLength(2);
      for (const payload of [
        { type: 'nope' },
        { type: 'user.created', count: 0 },
        { type: 'user.created', count: 1001 },
        {},
      ]) {
        const res = await h.app.inject({ method: 'POST', url: '/__control/events', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      }
    } finally {
      await h.close();
    }
  });
});
