/**
 * The fault catalogue (emulator/faults/catalogue.ts) and the false-positive
 * variants (emulator/faults/variants.ts): well-formed, tied to must rules,
 * each acting through a mutation (faults/mutations.ts) or a seam
 * (faults/seams.ts) and asked about nowhere else, selected only by name; and
 * in-process spot checks that a few of them do what their line says.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { faults, unfaulted } from '../../emulator/faults/catalogue.js';
import { EXTRA_MEMBER, mutated } from '../../emulator/faults/mutations.js';
import { variants } from '../../emulator/faults/variants.js';
import { startEmulator } from '../../emulator/index.js';
import { resolveOptions } from '../../emulator/options.js';
import { rulesOf, validate } from '../../schemas/index.js';
import { rules, type Rule } from '../../spec/rules.js';
import { subscribe, type SseConnection } from '../../harness/requests/sse.js';
import { API, body, fetchFullToken, harness, requestToken, withEmulator, type Harness } from './helpers.js';

const EMULATOR_DIR = join(import.meta.dirname, '..', '..', 'emulator');
const FAULT_LAYER = join(EMULATOR_DIR, 'faults');
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The .ts files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The names the seams ask about: each `this.on('name')` of faults/seams.ts (the typecheck holds them to the catalogues). */
const seamNames = new Set(
  [...readFileSync(join(FAULT_LAYER, 'seams.ts'), 'utf8').matchAll(/this\.on\('([^']+)'\)/g)].map((m) => m[1]!),
);

const byId = new Map<string, Rule>((rules as readonly Rule[]).map((r) => [r.id, r]));

test.describe('fault catalogue', () => {
  test('should name each fault once, in kebab-case, with a one-line how', () => {
    const names = faults.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of faults) {
      expect(f.name, f.name).toMatch(KEBAB);
      expect(f.how.trim().length, f.name).toBeGreaterThan(10);
      expect(f.how, f.name).not.toContain('\n');
    }
  });

  test('should tie every fault to an observable must rule of spec/rules.ts (a disputed one to a must rule)', () => {
    for (const f of faults) {
      const r = byId.get(f.rule);
      expect(r, `${f.name}: rule ${f.rule}`).toBeDefined();
      expect(r!.level, `${f.name}: ${f.rule}`).toBe('must');
      // A disputed fault, written blind, may name a rule nothing outside can decide: the dispute says why.
      if (!(f as { disputed?: string }).disputed) expect(r!.observable, `${f.name}: ${f.rule}`).not.toBe(false);
    }
  });

  test('should break every observable must rule, or say in unfaulted why not', () => {
    const faulted = new Set<string>(faults.map((f) => f.rule));
    const open = (rules as readonly Rule[]).filter(
      (r) =>
        r.level === 'must' &&
        r.observable !== false &&
        !faulted.has(r.id) &&
        !unfaulted[r.id as keyof typeof unfaulted],
    );
    expect(open.map((r) => r.id)).toEqual([]);
    for (const [id, reason] of Object.entries(unfaulted)) {
      expect(byId.get(id)?.level, id).toBe('must');
      expect(faulted.has(id), `${id} is in unfaulted but a fault breaks it`).toBe(false);
      expect(String(reason).length, id).toBeGreaterThan(10);
    }
  });

  test('should hold at least 60 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(60);
  });

  test('should give every fault a mutation or a seam that names it', () => {
    const acting = faults.filter((f) => !mutated.has(f.name) && !seamNames.has(f.name)).map((f) => f.name);
    expect(acting, 'faults with neither a mutation nor a seam').toEqual([]);
  });

  test('should ask whether a fault or variant is on only in the fault layer', () => {
    const outside = sources(EMULATOR_DIR).filter((f) => !f.startsWith(FAULT_LAYER));
    const asking = outside.filter((f) => /faults\.has\(|variant\s*[!=]==/.test(readFileSync(f, 'utf8')));
    expect(asking.map((f) => f.slice(EMULATOR_DIR.length + 1))).toEqual([]);
  });

  test('should keep every schema-level fault on a rule its body schema names', () => {
    // A fault of a schema rule is caught by mustMatchSchema only if some body schema carries that rule.
    const schemaRules = new Set(
      [
        'token-set-list',
        'experiment',
        'client-grant',
        'event-stream-page',
        'event-stream',
        'jwks',
        'custom-text',
        'sse-event-payload',
        'sse-offset-only-payload',
        'connection-created-object',
        'token-response',
      ].flatMap((s) => rulesOf(s as Parameters<typeof rulesOf>[0])),
    );
    for (const id of [
      'experiment.id.pattern',
      'experiment.status.enum',
      'client-grant.client-id-default-for.exclusive',
      'event-stream.name.length',
      'jwk.types',
      'events.context.types',
    ]) {
      expect(schemaRules.has(id), id).toBe(true);
    }
  });
});

test.describe('variant catalogue', () => {
  test('should name each variant once, in kebab-case, with what differs', () => {
    const names = variants.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const v of variants) {
      expect(v.name, v.name).toMatch(KEBAB);
      expect(v.differs.trim().length, v.name).toBeGreaterThan(20);
    }
    for (const required of [
      'error-body-shape',
      'transition-table',
      'last-page-empty-next',
      'extra-members',
      'success-codes',
      'sse-comments-retry',
    ]) {
      expect(names, required).toContain(required);
    }
  });

  test('should give every variant a mutation or a seam that names it', () => {
    const acting = variants.filter((v) => !mutated.has(v.name) && !seamNames.has(v.name)).map((v) => v.name);
    expect(acting, 'variants with neither a mutation nor a seam').toEqual([]);
  });
});

test.describe('fault and variant options', () => {
  test('should refuse an unknown fault and list the catalogue', () => {
    expect(() => resolveOptions({ fault: 'take-0-accepted,no-such-fault' })).toThrow(
      /unknown fault no-such-fault; the catalogue .*take-0-accepted/,
    );
    expect(() => resolveOptions({ variant: 'no-such-variant' })).toThrow(
      /unknown variant no-such-variant; the catalogue .*extra-members/,
    );
  });

  test('should read EMULATOR_FAULT and EMULATOR_VARIANT when no option is given', () => {
    const saved = { fault: process.env['EMULATOR_FAULT'], variant: process.env['EMULATOR_VARIANT'] };
    try {
      process.env['EMULATOR_FAULT'] = 'take-0-accepted, take-101-accepted';
      process.env['EMULATOR_VARIANT'] = 'validation-422';
      const r = resolveOptions();
      expect([...r.faults]).toEqual(['take-0-accepted', 'take-101-accepted']);
      expect(r.variant).toBe('validation-422');
      // An explicit option wins over the environment.
      expect([...resolveOptions({ fault: '' }).faults]).toEqual([]);
      process.env['EMULATOR_FAULT'] = 'no-such-fault';
      expect(() => resolveOptions()).toThrow(RangeError);
    } finally {
      for (const [k, v] of [
        ['EMULATOR_FAULT', saved.fault],
        ['EMULATOR_VARIANT', saved.variant],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  test('should make the CLI exit 1 on --fault with an unknown name, listing the catalogue', async () => {
    const env = { ...process.env };
    delete env['EMULATOR_FAULT'];
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--fault', 'no-such-fault'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('unknown fault no-such-fault');
    expect(err).toContain('take-0-accepted');
  });
});

test.describe('faults in action (inject)', () => {
  test('take-0-accepted: take=0 answers 200, take=101 still 400', async () => {
    await withEmulator({ fault: 'take-0-accepted' }, async (h) => {
      expect((await h.api('GET', '/event-streams?take=0')).statusCode).toBe(200);
      expect((await h.api('GET', '/event-streams?take=101')).statusCode).toBe(400);
    });
    await withEmulator({}, async (h) => {
      expect((await h.api('GET', '/event-streams?take=0')).statusCode).toBe(400);
    });
  });

  test('missing-token-accepted: only GET /client-grants/{id} lets a request without a token in', async () => {
    await withEmulator({ fault: 'missing-token-accepted' }, async (h) => {
      const f = h.app.emulator.state.fixtures;
      expect((await h.api('GET', `/client-grants/${f.clientGrantId}`, { token: '' })).statusCode).toBe(200);
      expect(
        (await h.api('GET', `/users/${encodeURIComponent(f.userId)}/federated-connections-tokensets`, { token: '' }))
          .statusCode,
      ).toBe(401);
      expect((await h.api('GET', '/event-streams', { token: '' })).statusCode).toBe(401);
    });
  });

  test('token-wrong-secret-accepted: a wrong secret gets a token', async () => {
    await withEmulator({ fault: 'token-wrong-secret-accepted' }, async (h) => {
      const res = await requestToken(h.app, 'full', { client_secret: 'wrong' });
      expect(res.statusCode).toBe(200);
      expect(typeof body(res)['access_token']).toBe('string');
    });
  });

  test('token-not-jwt: an opaque token is issued and still accepted', async () => {
    await withEmulator({ fault: 'token-not-jwt' }, async (h) => {
      const token = await h.token('full');
      expect(token.split('.')).toHaveLength(1);
      expect(
        (await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`, { token })).statusCode,
      ).toBe(200);
    });
  });

  test('client-grant-client-id-and-default-for: the answer breaks exactly the exclusivity rule', async () => {
    await withEmulator({ fault: 'client-grant-client-id-and-default-for' }, async (h) => {
      const res = await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`);
      expect(res.statusCode).toBe(200);
      const r = validate('client-grant', body(res));
      expect(r.valid).toBe(false);
      expect([...new Set(r.errors.map((e) => e.rule))]).toEqual(['client-grant.client-id-default-for.exclusive']);
    });
  });

  test('experiment-id-with-zero: seeded ids break the pattern and still address their experiment', async () => {
    await withEmulator({ fault: 'experiment-id-with-zero' }, async (h) => {
      const id = h.app.emulator.state.fixtures.experimentIds[0]!;
      expect(id).toMatch(/^exp_0/);
      const res = await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: 'active' } });
      expect(res.statusCode).toBe(200);
      expect(body(res)['id']).toBe(id);
      const r = validate('experiment', body(res));
      expect([...new Set(r.errors.map((e) => e.rule))]).toEqual(['experiment.id.pattern']);
    });
  });

  test('keys-put-appends: a second PUT answers both sets', async () => {
    await withEmulator({ fault: 'keys-put-appends' }, async (h) => {
      await h.api('PUT', '/keys/custom-signing', { body: { keys: [{ kty: 'EC', kid: 'a' }] } });
      const second = await h.api('PUT', '/keys/custom-signing', { body: { keys: [{ kty: 'EC', kid: 'b' }] } });
      expect(body<{ keys: Array<{ kid: string }> }>(second).keys.map((k) => k.kid)).toEqual(['a', 'b']);
    });
  });

  test('json-as-text-plain: JSON successes say text/plain, errors stay JSON', async () => {
    await withEmulator({ fault: 'json-as-text-plain' }, async (h) => {
      const ok = await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`);
      expect(ok.headers['content-type']).toMatch(/^text\/plain/);
      expect(() => JSON.parse(ok.body)).not.toThrow();
      const missing = await h.api('GET', '/client-grants/nope');
      expect(missing.headers['content-type']).toMatch(/^application\/json/);
    });
  });

  test('next-loops-on-last-page: the last page gives back the cursor that led to it', async () => {
    await withEmulator({ fault: 'next-loops-on-last-page' }, async (h) => {
      const first = body<{ next: string }>(await h.api('GET', '/event-streams?take=100'));
      const last = body<{ eventStreams: unknown[]; next?: string }>(
        await h.api('GET', `/event-streams?take=100&from=${first.next}`),
      );
      expect(last.eventStreams.length).toBe(37);
      expect(last.next).toBe(first.next);
    });
  });
});

test.describe('variants in action (inject)', () => {
  test('error-body-shape: errors are problem+json', async () => {
    await withEmulator({ variant: 'error-body-shape' }, async (h) => {
      const res = await h.api('GET', '/client-grants/nope');
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(body(res)).toMatchObject({ status: 404, type: 'urn:conformance:error:inexistent_client_grant' });
    });
  });

  test('validation-422: validation failures answer 422, unknown resources still 404', async () => {
    await withEmulator({ variant: 'validation-422' }, async (h) => {
      expect((await h.api('GET', '/event-streams?take=0')).statusCode).toBe(422);
      expect((await h.api('GET', '/client-grants/nope')).statusCode).toBe(404);
    });
  });

  test('extra-members: unknown members on objects, errors and token answers; none in custom text', async () => {
    await withEmulator({ variant: 'extra-members' }, async (h) => {
      const f = h.app.emulator.state.fixtures;
      const grant = await h.api('GET', `/client-grants/${f.clientGrantId}`);
      expect(body(grant)[EXTRA_MEMBER]).toBeDefined();
      const page = body<{ eventStreams: Array<Record<string, unknown>> } & Record<string, unknown>>(
        await h.api('GET', '/event-streams?take=2'),
      );
      expect(page[EXTRA_MEMBER]).toBeDefined();
      expect(page.eventStreams[0]![EXTRA_MEMBER]).toBeDefined();
      expect(body(await h.api('GET', '/client-grants/nope'))[EXTRA_MEMBER]).toBeDefined();
      const text = await h.api('PUT', `/self-service-profiles/${f.selfServiceProfileId}/custom-text/en/get-started`, {
        body: { introduction: 'hi' },
      });
      expect(body(text)).toEqual({ introduction: 'hi' });
      const r = validate('event-stream-page', page);
      expect(r.valid).toBe(true);
    });
  });

  test('last-page-empty-next and last-page-trailing-empty: the two other forms of the last page', async () => {
    await withEmulator({ variant: 'last-page-empty-next' }, async (h) => {
      const first = body<{ next: string }>(await h.api('GET', '/event-streams?take=100'));
      expect(body(await h.api('GET', `/event-streams?take=100&from=${first.next}`))['next']).toBe('');
    });
    await withEmulator({ variant: 'last-page-trailing-empty' }, async (h) => {
      const first = body<{ next: string }>(await h.api('GET', '/event-streams?take=100'));
      const second = body<{ eventStreams: unknown[]; next: string }>(
        await h.api('GET', `/event-streams?take=100&from=${first.next}`),
      );
      expect(second.eventStreams.length).toBe(37);
      const third = body<{ eventStreams: unknown[]; next?: string }>(
        await h.api('GET', `/event-streams?take=100&from=${second.next}`),
      );
      expect(third).toEqual({ eventStreams: [] });
    });
  });

  test('transition-table and success-codes: archived moves back to active, answered 201 under success-codes', async () => {
    await withEmulator({ variant: 'transition-table' }, async (h) => {
      const id = h.app.emulator.state.fixtures.experimentIds[0]!;
      for (const status of ['archived', 'active']) {
        expect(
          (await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status } })).statusCode,
          status,
        ).toBe(200);
      }
      expect(
        (await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: 'active' } })).statusCode,
      ).toBe(409);
      expect(
        (await h.api('POST', `/experimentation/experiments/${id}/status`, { body: { status: 'draft' } })).statusCode,
      ).toBe(400);
    });
    await withEmulator({ variant: 'success-codes' }, async (h) => {
      expect(
        (await h.api('PUT', '/keys/custom-signing', { body: { keys: [{ kty: 'EC', kid: 'a' }] } })).statusCode,
      ).toBe(201);
    });
  });

  test('rate-limit variants: headers only on 429; Reset as a delta', async () => {
    await withEmulator({ variant: 'rate-limit-on-429-only' }, async (h) => {
      const res = await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    });
    await withEmulator({ variant: 'rate-limit-reset-delta' }, async (h) => {
      const res = await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(
        h.app.emulator.options.rateLimit.windowSeconds,
      );
    });
  });

  test('auth-statuses: 403 without a token and 404 without the scope, except on the token-set listing', async () => {
    await withEmulator({ variant: 'auth-statuses' }, async (h) => {
      const f = h.app.emulator.state.fixtures;
      expect((await h.api('GET', `/client-grants/${f.clientGrantId}`, { token: '' })).statusCode).toBe(403);
      expect(
        (await h.api('GET', `/client-grants/${f.clientGrantId}`, { token: await h.token('limited') })).statusCode,
      ).toBe(404);
      const tokenSets = `/users/${encodeURIComponent(f.userId)}/federated-connections-tokensets`;
      expect((await h.api('GET', tokenSets, { token: '' })).statusCode).toBe(401);
      expect((await h.api('GET', tokenSets, { token: await h.token('limited') })).statusCode).toBe(403);
    });
  });

  test('html-sanitised and form-jwks-unparsed: a script is stripped; a form JWKS is 400, not 415', async () => {
    await withEmulator({ variant: 'html-sanitised' }, async (h) => {
      const res = await h.api(
        'PUT',
        `/self-service-profiles/${h.app.emulator.state.fixtures.selfServiceProfileId}/custom-text/en/get-started`,
        { body: { introduction: 'Hello<script>alert(1)</script>' } },
      );
      expect(res.statusCode).toBe(200);
      expect(body(res)).toEqual({ introduction: 'Hello' });
    });
    await withEmulator({ variant: 'form-jwks-unparsed' }, async (h) => {
      const res = await h.app.inject({
        method: 'PUT',
        url: `${API}/keys/custom-signing`,
        headers: { authorization: `Bearer ${await h.token()}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'keys[0][kty]=EC',
      });
      expect(res.statusCode).toBe(400);
    });
  });
});

/** How long a spot check waits for one message. */
const WAIT_MS = 5000;

/** Opens GET /events (the SSE harness) on a listening emulator with the given fault or variant; `fn` gets the connection. */
async function withStream(
  opts: { fault?: string; variant?: string },
  fn: (r: SseConnection, emu: Awaited<ReturnType<typeof startEmulator>>) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({ heartbeatMs: 50, control: true, fault: opts.fault ?? '', variant: opts.variant });
  let r: SseConnection | undefined;
  try {
    const token = await fetchFullToken(emu);
    r = await subscribe(emu.baseUrl, token, { see429: true });
    expect(r.status).toBe(200);
    await fn(r, emu);
  } finally {
    r?.close();
    await emu.close();
  }
}

test.describe('SSE faults and variants in action', () => {
  test('heartbeat-without-offset: heartbeats carry {}', async () => {
    await withStream({ fault: 'heartbeat-without-offset' }, async (r) => {
      const hb = await r.waitFor((m) => m.event === 'offset-only', WAIT_MS, 0, 'an offset-only message');
      expect(JSON.parse(hb.data)).toEqual({});
    });
  });

  test('data-pretty-printed: the payload of an event spans several data lines', async () => {
    await withStream({ fault: 'data-pretty-printed' }, async (r, emu) => {
      await r.waitFor((m) => m.event === 'offset-only', WAIT_MS, 0, 'an offset-only message');
      await fetch(`${emu.controlUrl}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'group.created' }),
      });
      const m = await r.waitFor((x) => x.event === 'group.created', WAIT_MS, 0, 'group.created');
      expect(m.data.split('\n').length).toBeGreaterThan(3);
      expect(JSON.parse(m.data)).toHaveProperty('offset');
    });
  });

  test('sse-payload-type-no-id: payloads carry type, messages no id', async () => {
    await withStream({ variant: 'sse-payload-type-no-id' }, async (r, emu) => {
      await r.waitFor((m) => m.event === 'offset-only', WAIT_MS, 0, 'an offset-only message');
      await fetch(`${emu.controlUrl}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'group.created' }),
      });
      const m = await r.waitFor((x) => x.event === 'group.created', WAIT_MS, 0, 'group.created');
      expect(m.id).toBeUndefined();
      expect(JSON.parse(m.data)).toMatchObject({ type: 'group.created' });
    });
  });
});

test('sse-comments-retry: the stream opens with retry and sends keep-alive comments', async () => {
  const emu = await startEmulator({ heartbeatMs: 50, fault: '', variant: 'sse-comments-retry' });
  const abort = new AbortController();
  try {
    const token = await fetchFullToken(emu);
    const res = await fetch(`${emu.baseUrl}/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(': keep-alive')) break;
    }
    expect(text.startsWith('retry: 3000\n\n')).toBe(true);
    expect(text).toContain(': keep-alive\n\nevent: offset-only');
  } finally {
    abort.abort();
    await emu.close();
  }
});
