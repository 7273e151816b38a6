/**
 * Shared pieces of the emulator's self-tests: an in-process emulator
 * (buildEmulator + inject), token helpers, and request shorthands.
 */
import { test } from '@playwright/test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildEmulator, type EmulatorOptions } from '../../emulator/index.js';
import type { ClientRole } from '../../emulator/auth.js';
import type { startEmulator } from '../../emulator/index.js';

export const API = '/api/v2';

export interface Harness {
  app: FastifyInstance;
  token(role?: ClientRole): Promise<string>;
  /** A request to /api/v2 with the full client's token unless `token` is given ('' for none). */
  api(
    method: InjectOptions['method'],
    path: string,
    opts?: { token?: string; body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Back to the seeded state, rate-limit windows forgotten (as POST /__control/reset): the event log and the tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

/** The documented token request of a client, in process; `change` alters its fields (a wrong secret, a narrower scope). */
export function requestToken(
  app: FastifyInstance,
  role: ClientRole = 'full',
  change: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const c = app.emulator.auth.clients[role];
  return app.inject({
    method: 'POST',
    url: '/oauth/token/',
    payload: {
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      audience: '/api/v2/',
      ...change,
    },
  });
}

export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const app = await buildEmulator(options);
  await app.ready();
  const tokens = new Map<ClientRole, string>();
  const token = async (role: ClientRole = 'full') => {
    let t = tokens.get(role);
    if (t === undefined) {
      const res = await requestToken(app, role);
      if (res.statusCode !== 200) throw new Error(`token for ${role}: ${res.statusCode} ${res.body}`);
      t = (res.json() as { access_token: string }).access_token;
      tokens.set(role, t);
    }
    return t;
  };
  const api: Harness['api'] = async (method, path, opts = {}) => {
    const bearer = opts.token ?? (await token('full'));
    const headers: Record<string, string> = {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(opts.headers ?? {}),
    };
    let payload: string | undefined;
    if (opts.rawBody !== undefined) {
      payload = opts.rawBody;
      headers['content-type'] = opts.contentType ?? 'application/json';
    } else if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    return app.inject({ method, url: API + path, headers, ...(payload !== undefined ? { payload } : {}) });
  };
  const reset = () => {
    app.emulator.state.reset();
    app.emulator.limiter.clear();
  };
  return { app, token, api, reset, close: () => app.close() };
}

/**
 * One in-process emulator per worker for the tests of a file, back to the
 * seeded state before each test: for files whose tests need the seeded
 * state but no fresh event log or tokens. A new emulator per test costs
 * far more (each generates its RSA signing key, about 150 ms of CPU).
 */
export function harnessPerFile(options: EmulatorOptions = {}): Harness {
  let current: Harness | undefined;
  test.beforeAll(async () => {
    current = await harness(options);
  });
  test.beforeEach(() => h().reset());
  test.afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const h = (): Harness => {
    if (!current) throw new Error('harnessPerFile: used outside a test');
    return current;
  };
  return {
    get app() {
      return h().app;
    },
    token: (role) => h().token(role),
    api: (...args) => h().api(...args),
    reset: () => h().reset(),
    close: () => h().close(),
  };
}

/** The JSON body of a response, typed loosely. */
export function body<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

/** An in-process emulator with the given fault or variant; closed after `fn`. */
export async function withEmulator(
  opts: { fault?: string; variant?: string },
  fn: (h: Harness) => Promise<void>,
): Promise<void> {
  const h = await harness({ fault: opts.fault ?? '', variant: opts.variant });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

/** The full client's token from a listening emulator, by the documented request (a form body to /oauth/token/). */
export async function fetchFullToken(emu: Awaited<ReturnType<typeof startEmulator>>): Promise<string> {
  const res = await fetch(`${emu.authUrl}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: emu.clients.full.clientId,
      client_secret: emu.clients.full.clientSecret,
      audience: emu.audience,
    }),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
