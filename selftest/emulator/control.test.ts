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
