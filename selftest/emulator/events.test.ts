/**
 * Endpoints 4: GET /events, over a real socket. Events come from real state
 * changes (users, organizations, connections) and from the control endpoint.
 * The stream is read with the suite's own SSE harness (harness/requests/sse.ts).
 */
import { expect, test } from '@playwright/test';
import { formatErrors, schemaOf, validate } from '../../schemas/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { encodeOffset } from '../../emulator/events.js';
import { HISTORY_EVENTS } from '../../emulator/state.js';
import type { Query } from '../../harness/requests/client.js';
import { subscribe as openStream, type SseConnection, type SseMessage } from '../../harness/requests/sse.js';
import { body, fetchFullToken, harness } from './helpers.js';

/** How long a test waits for one message (or for the end of a stream). */
const WAIT_MS = 5000;

let emu: RunningEmulator;
let token: string;
const connections: SseConnection[] = [];

test.beforeAll(async () => {
  emu = await startEmulator({ control: true, heartbeatMs: 100 });
  token = await fetchFullToken(emu);
});
test.afterEach(() => {
  for (const c of connections.splice(0)) c.close();
});
test.afterAll(async () => {
  await emu.close();
});

/** Opens GET /events; see429: a 429 is answered as is (and fails), not waited out. */
async function subscribeTo(baseUrl: string, bearer: string, query: Query = {}): Promise<SseConnection> {
  const r = await openStream(baseUrl, bearer, { query, see429: true });
  connections.push(r);
  expect(r.status).toBe(200);
  // The first offset-only message says the subscription is live.
  await r.waitFor((m) => m.event === 'offset-only', WAIT_MS, 0, 'the first offset-only message');
  return r;
}

const subscribe = (query: Query = {}) => subscribeTo(emu.baseUrl, token, query);

/** The JSON payload of a message (its data as one JSON text). */
const json = <T = Record<string, unknown>>(m: SseMessage): T => JSON.parse(m.data) as T;

async function call(method: string, path: string, b?: unknown): Promise<Response> {
  return fetch(`${emu.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(b === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(b === undefined ? {} : { body: JSON.stringify(b) }),
  });
}

let seq = 0;
const unique = (p: string) => `${p}-${process.pid}-${Date.now().toString(36)}-${seq++}`;

function expectEventMessage(m: SseMessage, type: string) {
  expect(m.event).toBe(type);
  const payload = json<{ offset: string; event: { type: string; data: { object: Record<string, unknown> } } }>(m);
  const pr = validate('sse-event-payload', payload);
  expect(pr.valid, formatErrors(pr.errors)).toBe(true);
  const er = validate('event-envelope', payload.event);
  expect(er.valid, formatErrors(er.errors)).toBe(true);
  expect(payload.event.type).toBe(type);
  expect(m.id).toBe(payload.offset);
  return payload;
}

const isType = (type: string, pred: (o: Record<string, unknown>) => boolean) => (m: SseMessage) =>
  m.event === type &&
  pred((JSON.parse(m.data) as { event: { data: { object: Record<string, unknown> } } }).event.data.object);

test.describe('events stream @sse', () => {
  test('should answer text/event-stream with rate-limit headers and an offset-only heartbeat first', async () => {
    const r = await subscribe();
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const first = r.messages[0]!;
    expect(first.event).toBe('offset-only');
    const payload = json(first);
    const v = validate('sse-offset-only-payload', payload);
    expect(v.valid, formatErrors(v.errors)).toBe(true);
    expect(first.id).toBe(payload['offset']);
  });

  test('should repeat heartbeats every heartbeatMs', async () => {
    const r = await subscribe();
    await r.waitFor((m) => m.event === 'offset-only', 2000, 1, 'a second offset-only message');
  });

  test('should deliver user.created, user.updated and user.deleted from the users routes', async () => {
    const r = await subscribe();
    const email = `${unique('u')}@conformance.test`;
    const created = await call('POST', '/users', {
      connection: emu.fixtures.userConnection,
      email,
      password: 'Secret-123',
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { user_id: string };
    expect((await call('PATCH', `/users/${encodeURIComponent(user.user_id)}`, { name: 'Renamed' })).status).toBe(200);
    expect((await call('DELETE', `/users/${encodeURIComponent(user.user_id)}`)).status).toBe(204);
    const byId = (o: Record<string, unknown>) => o['user_id'] === user.user_id;
    const c = expectEventMessage(
      await r.waitFor(isType('user.created', byId), WAIT_MS, 0, 'user.created'),
      'user.created',
    );
    expect(c.event.data.object['email']).toBe(email);
    expect(JSON.stringify(c)).not.toContain('Secret-123');
    const u = expectEventMessage(
      await r.waitFor(isType('user.updated', byId), WAIT_MS, 0, 'user.updated'),
      'user.updated',
    );
    expect(u.event.data.object['name']).toBe('Renamed');
    expectEventMessage(await r.waitFor(isType('user.deleted', byId), WAIT_MS, 0, 'user.deleted'), 'user.deleted');
  });

  test('should deliver connection.created with the full connection object, then connection.deleted', async () => {
    const r = await subscribe();
    const name = unique('conn');
    const created = await call('POST', '/connections', {
      name,
      strategy: 'oidc',
      options: { client_id: 'abc', issuer: 'https://idp.test/' },
    });
    expect(created.status).toBe(201);
    const conn = (await created.json()) as { id: string };
    const m = await r.waitFor(
      isType('connection.created', (o) => o['name'] === name),
      WAIT_MS,
      0,
      'connection.created',
    );
    const payload = expectEventMessage(m, 'connection.created');
    const obj = payload.event.data.object;
    const v = validate('connection-created-object', obj);
    expect(v.valid, formatErrors(v.errors)).toBe(true);
    const options = obj['options'] as Record<string, unknown>;
    expect(options['client_id']).toBe('abc');
    expect(options['oidc_metadata']).toBeDefined();
    expect(
      (payload.event.data as unknown as { context: { connection: { name: string } } }).context.connection.name,
    ).toBe(name);
    expect((await call('DELETE', `/connections/${conn.id}`)).status).toBe(204);
    await r.waitFor(
      isType('connection.deleted', (o) => o['id'] === conn.id),
      WAIT_MS,
      0,
      'connection.deleted',
    );
  });

  test('should deliver only the requested event types', async () => {
    const r = await subscribe({ event_type: ['organization.created', 'organization.deleted'] });
    await call('POST', '/users', { connection: emu.fixtures.userConnection, email: `${unique('f')}@conformance.test` });
    const name = unique('org').toLowerCase();
    const org = (await (await call('POST', '/organizations', { name })).json()) as { id: string };
    await call('DELETE', `/organizations/${org.id}`);
    await r.waitFor(
      isType('organization.created', (o) => o['name'] === name),
      WAIT_MS,
      0,
      'organization.created',
    );
    await r.waitFor(
      isType('organization.deleted', (o) => o['id'] === org.id),
      WAIT_MS,
      0,
      'organization.deleted',
    );
    // Events on one stream arrive in order: a user.created would have come first.
    expect(r.messages.filter((m) => m.event.startsWith('user.'))).toEqual([]);
  });

  test('should resume strictly after a cursor given as from', async () => {
    const live = await subscribe();
    const names = [unique('a'), unique('b'), unique('c')].map((n) => n.toLowerCase());
    for (const name of names) expect((await call('POST', '/organizations', { name })).status).toBe(201);
    const offsets: string[] = [];
    for (const name of names)
      offsets.push(
        r0(
          await live.waitFor(
            isType('organization.created', (o) => o['name'] === name),
            WAIT_MS,
            0,
            `organization.created of ${name}`,
          ),
        ).offset,
      );
    const resumed = await subscribe({ from: offsets[0]!, event_type: 'organization.created' });
    const got = resumed.messages.filter((m) => m.event === 'organization.created').map((m) => m.id);
    expect(got).toEqual(offsets.slice(1));
    function r0(m: SseMessage) {
      return JSON.parse(m.data) as { offset: string };
    }
  });

  test('should start at the first event at or after from_timestamp', async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    expect(at.length).toBe(20);
    const result = await fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'group.created', count: 2 }),
    });
    const { offsets } = (await result.json()) as { offsets: string[] };
    const r = await subscribe({ from_timestamp: at, event_type: 'group.created' });
    const got = r.messages.filter((m) => m.event === 'group.created').map((m) => m.id);
    for (const o of offsets) expect(got).toContain(o);
    const future = await subscribe({ from_timestamp: '2999-01-01T00:00:00Z' });
    expect(future.messages.filter((m) => m.event !== 'offset-only')).toEqual([]);
  });

  test('should deliver events injected through the control endpoint', async () => {
    const r = await subscribe({ event_type: 'group.member.added' });
    const res = await fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'group.member.added', count: 3 }),
    });
    expect(res.status).toBe(201);
    const { offsets } = (await res.json()) as { offsets: string[] };
    for (const o of offsets)
      expectEventMessage(
        await r.waitFor((m) => m.id === o, WAIT_MS, 0, `the message with id ${o}`),
        'group.member.added',
      );
  });

  test('should stop listening when the client disconnects', async () => {
    const before = emu.app.emulator.events.subscriberCount;
    const r = await subscribe();
    expect(emu.app.emulator.events.subscriberCount).toBe(before + 1);
    r.close();
    await expect.poll(() => emu.app.emulator.events.subscriberCount, { timeout: 5000 }).toBe(before);
  });

  test('should end open streams when the emulator closes', async () => {
    const other = await startEmulator({ heartbeatMs: 50 });
    try {
      const tok = await fetchFullToken(other);
      const r = await subscribeTo(other.baseUrl, tok);
      await other.close();
      await r.waitForEnd(WAIT_MS);
      expect(other.app.emulator.streams.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});

test.describe('seeded event history @sse', () => {
  const dayAgo = () => new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const payloadOf = (m: SseMessage) =>
    json<{
      offset: string;
      event: { id: string; type: string; time: string; svcpurpose?: string; data: { object: Record<string, unknown> } };
    }>(m);

  const seqOf = (m: SseMessage) => Number(Buffer.from(m.id!, 'base64url').toString().slice(3));

  /** The seeded history as a subscription from a day ago reads it (other tests of this file add live events after it). */
  async function readHistory(query: Query = {}): Promise<SseMessage[]> {
    const r = await subscribe({ from_timestamp: dayAgo(), ...query });
    const hb = r.messages.find((m) => m.event === 'offset-only')!;
    return r.messages.slice(0, hb.index).filter((m) => seqOf(m) <= emu.app.emulator.events.historyPosition);
  }

  test('should stream every message under the faults switched on now, not those of an earlier read', async () => {
    const switchTo = async (faults: string[]) =>
      expect((await emu.app.inject({ method: 'PUT', url: '/__control/faults', payload: { faults } })).statusCode).toBe(
        200,
      );
    const firstType = async () => payloadOf((await readHistory())[0]!).event.type;
    const plain = await firstType();
    try {
      await switchTo(['envelope-type-reverse-dns']);
      expect(await firstType()).toBe(`com.conformance.${plain}`);
    } finally {
      await switchTo([]);
    }
    expect(await firstType()).toBe(plain);
  });

  test('should answer a subscription from a day ago with the seeded events in order, over the last hours', async () => {
    const history = await readHistory();
    expect(history.length).toBe(HISTORY_EVENTS);
    const times = history.map((m) => Date.parse(payloadOf(m).event.time));
    const started = emu.app.emulator.events.after(0)[0]!.timeMs;
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    // Relative to the clock at start: within the last seven hours, the newest at least five minutes old.
    expect(Date.now() - times[0]!).toBeLessThan(7 * 3_600_000);
    expect(started).toBe(times[0]);
    expect(emu.app.emulator.events.historyPosition).toBe(HISTORY_EVENTS);
    const types = new Set(history.map((m) => m.event));
    expect(types.size).toBeGreaterThanOrEqual(10);
    for (const m of history) {
      const p = expectEventMessage(m, m.event);
      // An ordinary event carries no purpose (svcpurpose `test` marks test events).
      expect(p.event).not.toHaveProperty('svcpurpose');
    }
  });

  test('should carry connection.created with every documented field of data.object, options and oidc_metadata', async () => {
    const created = await readHistory({ event_type: 'connection.created' });
    expect(created.length).toBe(3);
    const schema = schemaOf('connection-created-object') as {
      properties: Record<string, unknown>;
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    for (const m of created) {
      const object = payloadOf(m).event.data.object;
      const v = validate('connection-created-object', object);
      expect(v.valid, formatErrors(v.errors)).toBe(true);
      const options = object['options'] as Record<string, unknown>;
      expect(Object.keys(object).sort()).toEqual(expect.arrayContaining(Object.keys(schema.properties).sort()));
      expect(Object.keys(options)).toEqual(expect.arrayContaining(Object.keys(schema.$defs['options']!.properties)));
      expect(Object.keys(options['oidc_metadata'] as object)).toEqual(
        expect.arrayContaining(Object.keys(schema.$defs['oidc_metadata']!.properties)),
      );
    }
  });

  test('should resume from the offset of any history event with the rest of the history, in order', async () => {
    const history = await readHistory();
    const ids = history.map((m) => payloadOf(m).event.id);
    for (const k of [0, 1, 17, history.length - 2]) {
      const resumed = await subscribe({ from: payloadOf(history[k]!).offset });
      const hb = resumed.messages.find((m) => m.event === 'offset-only')!;
      const got = resumed.messages.slice(0, hb.index).map((m) => payloadOf(m).event.id);
      expect(got.slice(0, ids.length - k - 1)).toEqual(ids.slice(k + 1));
    }
  });

  test('should not replay the history to a subscription without from', async () => {
    const r = await subscribe();
    const hb = r.messages.find((m) => m.event === 'offset-only')!;
    expect(r.messages.slice(0, hb.index)).toEqual([]);
  });
});

test.describe('events stream query validation @sse', () => {
  const cases: [string, string, string][] = [
    ['from that is not an offset', '?from=garbage', 'invalid_cursor'],
    ['from ahead of the log', `?from=${encodeOffset(999_999)}`, 'invalid_cursor'],
    ['from in a non-canonical spelling', `?from=${encodeOffset(0)}=`, 'invalid_cursor'],
    ['from longer than 1024', `?from=${'a'.repeat(1025)}`, 'invalid_cursor'],
    ['from given twice', `?from=${encodeOffset(0)}&from=${encodeOffset(0)}`, 'invalid_query_string'],
    ['from_timestamp longer than 20', '?from_timestamp=2025-01-01T00:00:00.000Z', 'invalid_query_string'],
    ['from_timestamp not RFC 3339', '?from_timestamp=yesterday', 'invalid_query_string'],
    ['from_timestamp with month 13', '?from_timestamp=2025-13-01T00:00:00Z', 'invalid_query_string'],
    ['from_timestamp on 30 February', '?from_timestamp=2025-02-30T00:00:00Z', 'invalid_query_string'],
    ['an unknown event_type', '?event_type=user.exploded', 'invalid_query_string'],
    ['one unknown among known event types', '?event_type=user.created&event_type=nope', 'invalid_query_string'],
    ['an empty event_type', '?event_type=', 'invalid_query_string'],
  ];
  for (const [name, q, code] of cases) {
    test(`should answer 400 ${code} to ${name}`, async () => {
      const h = await harness();
      try {
        const res = await h.api('GET', `/events${q}`);
        expect(res.statusCode).toBe(400);
        expect(body(res)['errorCode']).toBe(code);
      } finally {
        await h.close();
      }
    });
  }
});
