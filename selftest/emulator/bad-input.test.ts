/**
 * Property tests: generated bad input (bodies, media types, path ids, query
 * values, Authorization headers) gets a 4xx, never a 5xx, and a refused
 * write changes nothing.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { decodeOffset, isEventType } from '../../emulator/events.js';
import { parseRfc3339 } from '../../emulator/routes/events.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness({ control: true });
});
test.afterAll(async () => {
  await h.close();
});

const RUNS = { numRuns: 150 };

/** What a refused write must leave as it was. */
function snapshot(): string {
  const s = h.app.emulator.state;
  return JSON.stringify({
    experiments: [...s.experiments.values()],
    keys: s.customSigningKeys,
    text: [...s.customText.entries()],
    users: [...s.users.keys()],
    organizations: [...s.organizations.keys()],
    connections: [...s.connections.keys()],
  });
}

const mediaTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/JSON',
    '*/*',
    ';;;',
  ),
  fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e ]*$/.test(s) && s.trim() !== ''),
);

/** Form bodies with bracket keys, prototype names and odd encodings. */
const formBody = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'keys[0][kty]',
          'keys[0][x5c][0]',
          '__proto__',
          '__proto__[x]',
          'constructor[prototype][x]',
          'keys[999][kty]',
          'a[b][c][d][e][f][g]',
          'keys',
          'a',
        ),
        fc.string({ maxLength: 12 }),
      ),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));

const bodies = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 60 }),
  formBody,
  fc.constantFrom(
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"keys":[{"kty":"EC","__proto__":{}}]}',
    '{',
    'null',
    '[]',
    '""',
    '\u0000',
    '{"status":"active"',
    '%',
  ),
);

test.describe('bad input never makes a 5xx', () => {
  test('should answer < 500 to any body and media type on every write route, and change nothing when refusing', async () => {
    const f = h.app.emulator.state.fixtures;
    // An archived experiment accepts no move, so no generated body can change it.
    const archived = [...h.app.emulator.state.experiments.values()].find((e) => e.status === 'archived')!.id;
    const routes: [string, string][] = [
      ['PUT', '/keys/custom-signing'],
      ['PUT', `/self-service-profiles/${f.selfServiceProfileId}/custom-text/en/get-started`],
      ['POST', `/experimentation/experiments/${archived}/status`],
      ['POST', '/users'],
      ['PATCH', `/users/${encodeURIComponent(f.userId)}`],
      ['POST', '/organizations'],
      ['POST', '/connections'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodies, mediaTypes, async ([method, path], raw, ct) => {
        const before = snapshot();
        const res = await h.api(method as 'PUT', path, { rawBody: raw, contentType: ct });
        expect(
          res.statusCode,
          `${method} ${path} ${ct} ${JSON.stringify(raw)}: ${res.body.slice(0, 200)}`,
        ).toBeLessThan(500);
        expect(res.statusCode).toBeGreaterThanOrEqual(200);
        if (res.statusCode >= 400) {
          expect(snapshot()).toBe(before);
          const b = res.json() as Record<string, unknown>;
          expect(Object.keys(b).sort()).toEqual(['error', 'errorCode', 'message', 'statusCode']);
        }
        expect(({} as Record<string, unknown>)['x']).toBeUndefined();
      }),
      RUNS,
    );
    await h.app.inject({ method: 'POST', url: '/__control/reset' });
  });

  test('should answer 4xx to any odd path id', async () => {
    const known = new Set<string>([
      ...h.app.emulator.state.users.keys(),
      ...h.app.emulator.state.clientGrants.keys(),
      ...h.app.emulator.state.fixtures.eventStreamIds,
    ]);
    const templates = [
      ['GET', (id: string) => `/users/${id}/federated-connections-tokensets`],
      ['GET', (id: string) => `/client-grants/${id}`],
      ['GET', (id: string) => `/event-streams/${id}`],
      ['POST', (id: string) => `/experimentation/experiments/${id}/status`],
      ['PUT', (id: string) => `/self-service-profiles/${id}/custom-text/en/get-started`],
      ['DELETE', (id: string) => `/users/${id}`],
      ['DELETE', (id: string) => `/organizations/${id}`],
      ['DELETE', (id: string) => `/connections/${id}`],
    ] as const;
    const encoded = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 400 }).map((s) => encodeURIComponent(s)),
      fc
        .uint8Array({ maxLength: 40 })
        .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
      fc.constantFrom(
        '%2F',
        '%2f..',
        '%00',
        '%',
        '%zz',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'a'.repeat(5000),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates), encoded, async ([method, make], id) => {
        // Dot segments are resolved by URL parsers before the request is sent, and an
        // empty segment leaves the collection path: neither is an id.
        const notAnId = id === '' || /^(?:\.|%2e){1,2}$/i.test(id);
        fc.pre(!known.has(id) && !notAnId);
        const before = snapshot();
        const res = await h.api(
          method,
          make(id),
          method === 'GET' || method === 'DELETE' ? {} : { body: { status: 'active', a: 'b' } },
        );
        expect(res.statusCode, `${method} ${make(id)}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(snapshot()).toBe(before);
      }),
      RUNS,
    );
  });

  test('should answer 400 to bad event-stream list queries and never 5xx to raw query strings', async () => {
    const take = fc.string({ maxLength: 8 }).filter((s) => !/^(?:[1-9][0-9]?|100)$/.test(s));
    await fc.assert(
      fc.asyncProperty(take, async (t) => {
        const res = await h.api('GET', `/event-streams?take=${encodeURIComponent(t)}`);
        expect(res.statusCode, t).toBe(400);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (q) => {
        let encoded: string;
        try {
          encoded = encodeURI(q).replace(/#/g, '%23');
        } catch {
          encoded = 'x';
        }
        const res = await h.api('GET', `/event-streams?${encoded}`);
        expect(res.statusCode, q).toBeLessThan(500);
      }),
      RUNS,
    );
  });

  test('should answer 400 to bad /events queries', async () => {
    const invalid = fc.oneof(
      fc
        .record({ from: fc.string({ maxLength: 1100 }) })
        .filter((q) => q.from.length > 1024 || decodeOffset(q.from) === undefined),
      fc
        .record({ from_timestamp: fc.string({ maxLength: 30 }) })
        .filter((q) => q.from_timestamp.length > 20 || parseRfc3339(q.from_timestamp) === undefined),
      fc.record({ event_type: fc.string({ maxLength: 30 }) }).filter((q) => !isEventType(q.event_type)),
    );
    await fc.assert(
      fc.asyncProperty(invalid, async (q) => {
        const qs = new URLSearchParams(q as Record<string, string>).toString();
        const res = await h.api('GET', `/events?${qs}`);
        expect(res.statusCode, qs).toBe(400);
      }),
      RUNS,
    );
  });

  test('should answer 401 to any malformed Authorization header', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
      fc
        .string({ maxLength: 200 })
        .filter((s) => /^[\x21-\x7e]*$/.test(s))
        .map((s) => `Bearer ${s}`),
      fc
        .tuple(fc.base64String(), fc.base64String(), fc.base64String())
        .map(([a, b, c]) => `Bearer ${a}.${b}.${c}`.replace(/=/g, '')),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        const res = await h.app.inject({
          method: 'GET',
          url: '/api/v2/client-grants/x',
          headers: { authorization: value },
        });
        expect(res.statusCode, value).toBe(401);
      }),
      RUNS,
    );
  });
});
