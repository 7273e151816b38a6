/**
 * Shared pieces of the emulator's self-tests: an in-process emulator
 * (buildEmulator + inject), token helpers, and request shorthands.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildEmulator, type EmulatorOptions } from '../../emulator/index.js';
import type { ClientRole } from '../../emulator/auth.js';

export const API = '/api/v2';

export interface Harness {
  app: FastifyInstance;
  token(role?: ClientRole): Promise<string>;
  /** A request to /api/v2 with the full client's token unless `token` is given ('' for none). */
  api(method: InjectOptions['method'], path: string, opts?: { token?: string; body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  const app = await buildEmulator(options);
  await app.ready();
  const tokens = new Map<ClientRole, string>();
  const token = async (role: ClientRole = 'full') => {
    let t = tokens.get(role);
    if (t === undefined) {
      const c = app.emulator.auth.clients[role];
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/token/',
        payload: { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, audience: '/api/v2/' },
      });
      if (res.statusCode !== 200) throw new Error(`token for ${role}: ${res.statusCode} ${res.body}`);
      t = (res.json() as { access_token: string }).access_token;
      tokens.set(role, t);
    }
    return t;
  };
  const api: Harness['api'] = async (method, path, opts = {}) => {
    const bearer = opts.token ?? (await token('full'));
    const headers: Record<string, string> = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(opts.headers ?? {}) };
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
  return { app, token, api, close: () => app.close() };
}

/** The JSON body of a response, typed loosely. */
export function body<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

/** An in-process emulator with the given fault or variant; closed after `fn`. */
export async function withEmulator(opts: { fault?: string; variant?: string }, fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await harness({ fault: opts.fault ?? '', variant: opts.variant });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}
