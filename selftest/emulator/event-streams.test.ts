/**
 * Endpoints 5 and 6: GET /event-streams/{id} and GET /event-streams.
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { body, harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness();
});
test.afterAll(async () => {
  await h.close();
});

interface Page {
  eventStreams: { id: string; name: string; status: string }[];
  next?: string;
}

test.describe('event streams @event-streams', () => {
  test('should walk all 137 seeded streams with take=50, next only while more remain', async () => {
    const seen: string[] = [];
    let from: string | undefined;
    let pages = 0;
    do {
      const res = await h.api('GET', `/event-streams?take=50${from ? `&from=${encodeURIComponent(from)}` : ''}`);
      expect(res.statusCode).toBe(200);
      const r = validate('event-stream-page', res.json());
      expect(r.valid, formatErrors(r.errors)).toBe(true);
      const page = body<Page>(res);
      seen.push(...page.eventStreams.map((s) => s.id));
      from = page.next;
      pages++;
    } while (from !== undefined && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(h.app.emulator.state.fixtures.eventStreamIds);
    expect(new Set(seen).size).toBe(137);
  });

  test('should default take to 50 and honour take=1 and take=100', async () => {
    for (const [q, n] of [
      ['', 50],
      ['?take=1', 1],
      ['?take=100', 100],
    ] as const) {
      const page = body<Page>(await h.api('GET', `/event-streams${q}`));
      expect(page.eventStreams.length, q).toBe(n);
      expect(page.next).toBeDefined();
    }
  });

  test('should seed names from 1 to 128 characters (one of exactly 128), both statuses, 26-character ids', () => {
    const streams = h.app.emulator.state.eventStreams;
    const lengths = streams.map((s) => s.name.length);
    expect(Math.min(...lengths)).toBe(1);
    expect(Math.max(...lengths)).toBe(128);
    expect(new Set(streams.map((s) => s.status))).toEqual(new Set(['enabled', 'disabled']));
    for (const s of streams) {
      expect(s.id.length).toBe(26);
      expect(s.destination.configuration.webhook_authorization.method).toBe('basic');
      const r = validate('event-stream', s);
      expect(r.valid, formatErrors(r.errors)).toBe(true);
    }
  });

  for (const take of ['0', '101', '-1', '1.5', 'abc', '', '1e2', ' 5', '05', '+5', '9999999999999999999']) {
    test(`should answer 400 invalid_query_string to take=${JSON.stringify(take)}`, async () => {
      const res = await h.api('GET', `/event-streams?take=${encodeURIComponent(take)}`);
      expect(res.statusCode).toBe(400);
      expect(body(res)['errorCode']).toBe('invalid_query_string');
    });
  }

  test('should answer 400 to a repeated take', async () => {
    const res = await h.api('GET', '/event-streams?take=1&take=2');
    expect(res.statusCode).toBe(400);
  });

  for (const from of ['', 'garbage', 'ZXMxOm5vcGU', h && 'est_00000000000000000000000', '%00', 'x'.repeat(2000)]) {
    test(`should answer 400 invalid_cursor to from=${JSON.stringify(String(from).slice(0, 20))}`, async () => {
      const res = await h.api('GET', `/event-streams?from=${encodeURIComponent(String(from))}`);
      expect(res.statusCode).toBe(400);
      expect(body(res)['errorCode']).toBe('invalid_cursor');
    });
  }

  test('should read every listed stream by id', async () => {
    for (const id of h.app.emulator.state.fixtures.eventStreamIds.slice(0, 20)) {
      const res = await h.api('GET', `/event-streams/${id}`);
      expect(res.statusCode).toBe(200);
      expect(body(res)['id']).toBe(id);
      expect(validate('event-stream', res.json()).valid).toBe(true);
    }
  });

  for (const [id, status, code] of [
    ['a'.repeat(25), 400, 'invalid_uri'],
    ['a'.repeat(27), 400, 'invalid_uri'],
    ['x', 400, 'invalid_uri'],
    ['a'.repeat(26), 404, 'inexistent_event_stream'],
    ['é'.repeat(26), 404, 'inexistent_event_stream'],
  ] as const) {
    test(`should answer ${status} ${code} to an id of ${id.length} characters (${id[0]})`, async () => {
      const res = await h.api('GET', `/event-streams/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(status);
      expect(body(res)['errorCode']).toBe(code);
    });
  }
});
