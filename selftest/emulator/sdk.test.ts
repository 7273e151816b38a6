/**
 * The official Node SDK of the real service (`auth0` on npm; its types are
 * generated from the real deployment's API definition) against the emulator.
 * The SDK builds `https://<domain>/...` URLs; the `fetch` given to it maps
 * them onto the emulator and records every call (method, path, status).
 *
 * Typed methods: client grant read; event stream get and list (through the
 * SDK's pagination helpers); custom signing keys set, get and delete; custom
 * text list and set; events subscribe and resume from an offset; the typed
 * errors for 401, 403 and 404; a 429 with its headers, and the SDK's retry.
 * The raw request helper (`client.fetch`) for the operations the SDK has no
 * method for: the token-set listing and the experiment transition.
 */
import { expect, test } from '@playwright/test';
import { Management, ManagementClient } from 'auth0';
import { EVENT_TYPES } from '../../emulator/events.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { HISTORY_EVENTS } from '../../emulator/seed/history.ts';
import { CAUSED_CONNECTION_STRATEGY } from '../../harness/fixtures/triggers.ts';
import {
  asTheSdkNamesIt,
  compileSdkTypes,
  EVENT_MESSAGE,
  messageMember,
  outsideSdkType,
  TYPED_ANSWERS,
} from './sdk-types.ts';

/** The host the SDK believes it talks to. */
const DOMAIN = 'tenant.conformance.test';

interface Call {
  method: string;
  path: string;
  status: number;
  /** The SDK's declared type of this answer, where the call is a typed method's. */
  type?: string;
}

let emu: RunningEmulator;
const calls: Call[] = [];
/** Where an answer the SDK received left its declared type: one line each, emptied by every test's end. */
const outside: string[] = [];
/** How many answers and events were held to the SDK's types. */
let held = 0;

test.beforeAll(async () => {
  compileSdkTypes();
  emu = await startEmulator({ control: true, heartbeatMs: 100, rateLimitedClient: { limit: 2, windowSeconds: 1 } });
});
test.afterAll(async () => {
  await emu.close();
});

/** A fetch that sends the SDK's https://DOMAIN/... requests to the emulator. */
const toEmulator: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.host !== DOMAIN || url.protocol !== 'https:')
    throw new Error(`the SDK asked for an unexpected address: ${url.origin}`);
  const target = `${emu.authUrl}${url.pathname}${url.search}`;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const res = await fetch(input instanceof Request ? new Request(target, input) : target, init);
  const type = res.ok ? TYPED_ANSWERS.find((t) => t.method === method && t.path.test(url.pathname))?.type : undefined;
  if (type)
    outside.push(...outsideSdkType(type, await res.clone().json()).map((o) => `${method} ${url.pathname}: ${o}`));
  calls.push({ method, path: url.pathname, status: res.status, ...(type ? { type } : {}) });
  return res;
};

/** Every message the SDK's event subscription yields, held to its declared type. */
function typedMessage<T>(message: T): T {
  const type = String((message as { type?: unknown }).type);
  held++;
  outside.push(
    ...outsideSdkType(EVENT_MESSAGE, asTheSdkNamesIt(message), messageMember(type)).map((o) => `event ${type}: ${o}`),
  );
  return message;
}

/** An SDK client with the emulator's client credentials (its own token request goes through the same fetch). */
function sdk(role: 'full' | 'limited' | 'rateLimited', options: { maxRetries?: number } = {}): ManagementClient {
  const c = emu.clients[role];
  // The emulator's audience is its own origin's; the SDK's default would be https://DOMAIN/api/v2/.
  return new ManagementClient({
    domain: DOMAIN,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    audience: emu.audience,
    fetch: toEmulator,
    ...options,
  });
}

/** The calls made while `fn` ran. */
async function recorded<T>(fn: () => Promise<T>): Promise<{ value: T; calls: Call[] }> {
  const from = calls.length;
  const value = await fn();
  return { value, calls: calls.slice(from) };
}

test.describe('official SDK (auth0) against the emulator @sdk', () => {
  test.afterEach(() => {
    // Every typed answer and every event within the SDK's declared types.
    expect(outside.splice(0)).toEqual([]);
  });

  test('should get a client grant with clientGrants.get', async () => {
    const { value: grant, calls: made } = await recorded(() =>
      sdk('full').clientGrants.get(emu.fixtures.clientGrantId),
    );
    expect(grant.id).toBe(emu.fixtures.clientGrantId);
    expect(grant.audience).toBe('https://api.conformance.test/orders');
    expect(grant.scope).toEqual(['read:orders', 'create:orders']);
    expect(made.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'POST /oauth/token 200',
      `GET /api/v2/client-grants/${emu.fixtures.clientGrantId} 200`,
    ]);
  });

  test('should get an event stream and list all of them through the pagination helpers', async () => {
    const client = sdk('full');
    const ids = emu.fixtures.eventStreamIds;
    const one = await client.eventStreams.get(ids[5]!);
    expect(one.id).toBe(ids[5]);
    // for await over the pageable: every page, in order, through `next` → `from`.
    const seen: string[] = [];
    const { calls: made } = await recorded(async () => {
      for await (const stream of await client.eventStreams.list({ take: 50 })) seen.push(stream.id!);
    });
    expect(seen).toEqual(ids);
    expect(made.filter((c) => c.path === '/api/v2/event-streams').length).toBe(Math.ceil(ids.length / 50));
    // Page by page.
    let page = await client.eventStreams.list({ take: 100 });
    const pages = [page.data.length];
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      pages.push(page.data.length);
    }
    expect(pages).toEqual([100, ids.length - 100]);
  });

  test('should set, get and delete custom signing keys with keys.customSigning', async () => {
    const client = sdk('full');
    const key: Management.CustomSigningKeyJwk = {
      kty: 'EC',
      kid: 'sdk-key-1',
      use: 'sig',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    const set = await client.keys.customSigning.set({ keys: [key] });
    expect(set.keys?.map((k) => k.kid)).toEqual(['sdk-key-1']);
    const got = await client.keys.customSigning.get();
    expect(got.keys).toEqual(set.keys);
    await client.keys.customSigning.delete();
    await expect(client.keys.customSigning.get()).rejects.toBeInstanceOf(Management.NotFoundError);
  });

  test('should list and set custom text with selfServiceProfiles.customText', async () => {
    const client = sdk('full');
    const id = emu.fixtures.selfServiceProfileId;
    const before = await client.selfServiceProfiles.customText.list(id, 'en', 'get-started');
    expect(Object.keys(before).length).toBeGreaterThan(0);
    try {
      const set = await client.selfServiceProfiles.customText.set(id, 'en', 'get-started', {
        introduction: 'Set through the <b>SDK</b>.',
      });
      expect(set).toEqual({ introduction: 'Set through the <b>SDK</b>.' });
      expect(await client.selfServiceProfiles.customText.list(id, 'en', 'get-started')).toEqual(set);
    } finally {
      await client.selfServiceProfiles.customText.set(id, 'en', 'get-started', before as Record<string, string>);
    }
  });

  test('should subscribe to events, carry no svcpurpose on ordinary events, and resume from an offset', async () => {
    const client = sdk('full');
    const made = await fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'user.created', count: 3 }),
    });
    const { offsets } = (await made.json()) as { offsets: string[] };
    expect(offsets).toHaveLength(3);

    /** The events after `from`, up to the first heartbeat (the live end). */
    const readFrom = async (from: string) => {
      const abort = new AbortController();
      const out: Management.EventStreamSubscribeEventsResponseContent[] = [];
      const stream = await client.events.subscribe({ from }, { abortSignal: abort.signal });
      try {
        for await (const message of stream) {
          if (typedMessage(message).type === 'offset-only') break;
          out.push(message);
        }
      } finally {
        abort.abort();
      }
      return out;
    };

    const all = await readFrom(offsets[0]!);
    expect(all.map((m) => m.type)).toEqual(['user.created', 'user.created']);
    expect(all.map((m) => (m as { offset: string }).offset)).toEqual(offsets.slice(1));
    for (const m of all) {
      const event = (m as Management.EventStreamSubscribeEventsResponseContent.UserCreated).event as unknown as Record<
        string,
        unknown
      >;
      // The SDK reads a purpose as the marker of test events; ordinary events carry none.
      expect(event).not.toHaveProperty('svcpurpose');
      expect(event['type']).toBe('user.created');
    }
    // Resume from the first delivered event's offset: exactly the rest, nothing twice.
    const rest = await readFrom((all[0] as { offset: string }).offset);
    expect(rest.map((m) => (m as { offset: string }).offset)).toEqual([offsets[2]]);
  });

  test('should deliver connection.created only of the strategies the SDK types, seeded, caused and injected', async () => {
    const client = sdk('full');
    // What the SDK declares data.object.strategy to be: the union of its connection.created object types' enums.
    const sdkEnums = Management as unknown as Record<string, Record<string, string> | undefined>;
    const typed = new Set(
      Object.keys(sdkEnums)
        .filter((k) => /^EventStreamCloudEventConnectionCreatedObject\d+StrategyEnum$/.test(k))
        .flatMap((k) => Object.values(sdkEnums[k]!)),
    );
    expect([...typed].sort()).toEqual(['ad', 'adfs', 'google-apps', 'oidc', 'okta', 'pingfederate', 'samlp', 'waad']);
    // Caused as the suite causes it (harness/fixtures/triggers.ts), and injected through the control surface.
    const created = await client.fetch('/connections', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'sdk-types-saml',
        strategy: CAUSED_CONNECTION_STRATEGY,
        options: { signInEndpoint: 'https://idp.conformance.invalid/saml', signingCert: 'c2lnbmluZw==' },
      }),
    });
    expect(created.status).toBe(201);
    await fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'connection.created' }),
    });
    const abort = new AbortController();
    const strategies: string[] = [];
    const stream = await client.events.subscribe(
      {
        from_timestamp: new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
        event_type: 'connection.created',
      },
      { abortSignal: abort.signal },
    );
    try {
      for await (const message of stream) {
        if (typedMessage(message).type === 'offset-only') break;
        const m = message as Management.EventStreamSubscribeEventsResponseContent.ConnectionCreated;
        strategies.push(String((m.event.data.object as { strategy: unknown }).strategy));
      }
    } finally {
      abort.abort();
    }
    // The seeded history's three, the caused one, the injected one.
    expect(strategies.length).toBeGreaterThanOrEqual(5);
    expect(strategies.filter((s) => !typed.has(s))).toEqual([]);
  });

  test("should deliver the seeded history and one injected event of every type within the SDK's types", async () => {
    for (const type of EVENT_TYPES) {
      const made = await fetch(`${emu.controlUrl}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type }),
      });
      expect(made.status, type).toBe(201);
    }
    const abort = new AbortController();
    const seen = new Set<string>();
    const stream = await sdk('full').events.subscribe(
      { from_timestamp: new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z') },
      { abortSignal: abort.signal },
    );
    let count = 0;
    try {
      for await (const message of stream) {
        if (typedMessage(message).type === 'offset-only') break;
        seen.add(message.type);
        count++;
      }
    } finally {
      abort.abort();
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
    expect(count).toBeGreaterThanOrEqual(HISTORY_EVENTS + EVENT_TYPES.length);
  });

  test('should raise the typed errors for 401, 403 and 404', async () => {
    const bad = new ManagementClient({ domain: DOMAIN, token: 'not-a-token', fetch: toEmulator });
    const unauthorized = await bad.clientGrants.get(emu.fixtures.clientGrantId).catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(Management.UnauthorizedError);
    expect((unauthorized as Management.UnauthorizedError).statusCode).toBe(401);

    const forbidden = await sdk('limited')
      .clientGrants.get(emu.fixtures.clientGrantId)
      .catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(Management.ForbiddenError);
    expect((forbidden as Management.ForbiddenError).statusCode).toBe(403);

    const notFound = await sdk('full')
      .clientGrants.get('cgr_doesnotexist000000')
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(Management.NotFoundError);
    expect((notFound as Management.NotFoundError).statusCode).toBe(404);
  });

  test("should raise TooManyRequestsError with the rate-limit headers, and succeed through the SDK's retry", async () => {
    // The rate-limited client: 2 requests per 1-second window.
    const client = sdk('rateLimited', { maxRetries: 0 });
    const grant = emu.fixtures.clientGrantId;
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) await client.clientGrants.get(grant).catch((e: unknown) => errors.push(e));
    expect(errors).toHaveLength(1);
    const e = errors[0] as Management.TooManyRequestsError;
    expect(e).toBeInstanceOf(Management.TooManyRequestsError);
    expect(e.statusCode).toBe(429);
    const headers = e.rawResponse!.headers;
    expect(headers.get('x-ratelimit-limit')).toBe('2');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));

    // With retries on, the SDK waits (Retry-After / X-RateLimit-Reset) and asks again in the next window.
    const { value, calls: made } = await recorded(() => client.clientGrants.get(grant, { maxRetries: 2 }));
    expect(value.id).toBe(grant);
    const statuses = made.filter((c) => c.path.startsWith('/api/v2/')).map((c) => c.status);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.slice(0, -1).every((s) => s === 429)).toBe(true);
  });

  test('should reach the operations the SDK has no method for through its raw request helper', async () => {
    const client = sdk('full');
    // Paths are relative to the SDK's base URL, https://DOMAIN/api/v2.
    const sets = await client.fetch(
      `/users/${encodeURIComponent(emu.fixtures.userId)}/federated-connections-tokensets`,
    );
    expect(sets.status).toBe(200);
    const list = (await sets.json()) as { id: string; expires_at: string | null }[];
    expect(list.length).toBeGreaterThan(1);

    const id = emu.fixtures.experimentIds.at(-1)!;
    const moved = await client.fetch(`/experimentation/experiments/${id}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'active' }),
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { status: string }).status).toBe('active');
  });

  test.afterAll(() => {
    // The list of calls, for the report.
    const lines = calls.map(
      (c) =>
        `${c.method} ${c.path.replace(/\/(cgr|est|ssp|exp)_[A-Za-z0-9]+/, '/$1_…').replace(/auth0%7C[0-9a-f]+/, '{user}')} → ${c.status}`,
    );
    test.info().annotations.push({ type: 'sdk-calls', description: lines.join('\n') });
    process.stdout.write(`Answers and events held to the SDK's types: ${held}\n`);
    process.stdout.write(`SDK calls (${calls.length}):\n${[...new Set(lines)].join('\n')}\n`);
  });
});
