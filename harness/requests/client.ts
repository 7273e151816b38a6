/**
 * The suite's HTTP client: Playwright's APIRequestContext with what a careful
 * client of a real tenant needs.
 *
 * - Every request is addressed under {base_url} (never through Playwright's
 *   baseURL, which drops the /api/v2 path for absolute paths).
 * - Every exchange is kept as evidence: method, path, query, status, media
 *   type and body. The token is never kept, and never printed.
 * - With CONFORMANCE_WRITES=none, a write throws before anything is sent.
 * - CONFORMANCE_MAX_RPS paces requests; a 429 is honoured by waiting for
 *   X-RateLimit-Reset (bounded) unless the caller asks to see it.
 */
import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { Config } from '../run/config.ts';
import { countRequest } from '../verdicts/request-log.ts';

export type Query = Record<string, string | number | readonly string[] | undefined>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body (serialised here, sent as application/json). */
  json?: unknown;
  /** A body sent as is, with `contentType`. */
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * `'token'` (default): the client's token; `'none'`: no Authorization;
   * any other string: sent verbatim as the Authorization header value.
   */
  auth?: 'token' | 'none' | { header: string };
  /** Return a 429 as is, instead of waiting and sending again. */
  see429?: boolean;
  timeoutMs?: number;
}

/** One request and its answer, as evidence. Never holds a token. */
export interface Exchange {
  method: string;
  /** Path under {base_url}, with the query string. */
  target: string;
  /** Full URL, for the reproduction line. */
  url: string;
  requestContentType?: string;
  requestBody?: string;
  authorization: 'token' | 'none' | 'custom';
  status: number;
  headers: Record<string, string>;
  contentType: string;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** Waits spent honouring 429s before this answer, in ms. */
  waitedMs: number;
}

export class WritesDisabledError extends Error {
  override name = 'WritesDisabledError';
}

export const MAX_429_WAIT_MS = 15_000;
export const MAX_429_RETRIES = 4;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

let nextSlot = 0;

export async function pace(maxRps: number | undefined, workers: number): Promise<void> {
  if (!maxRps) return;
  // Each worker takes its share of the global pace.
  const interval = (1000 * Math.max(1, workers)) / maxRps;
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + interval;
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

/** Milliseconds until X-RateLimit-Reset, whether the target sends epoch seconds or a delta. */
export function resetDelayMs(reset: string | undefined, now = Date.now()): number | undefined {
  if (reset === undefined || !/^\d+(\.\d+)?$/.test(reset.trim())) return undefined;
  const n = Number(reset);
  const ms = n > 1e9 ? n * 1000 - now : n * 1000;
  return Math.max(0, ms);
}

/** `fetch` that honours 429 the way the suite's client does: waits for X-RateLimit-Reset (bounded), then sends again. */
export async function fetchHonouring429(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(input, init);
    if (res.status !== 429 || attempt >= MAX_429_RETRIES) return res;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, Math.min(resetDelayMs(res.headers.get('x-ratelimit-reset') ?? undefined) ?? 1000, MAX_429_WAIT_MS)));
  }
}

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => params.append(k, x));
    else params.append(k, String(v));
  }
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

export class Api {
  constructor(
    private readonly ctx: APIRequestContext,
    readonly config: Config,
    /** The bearer token this client sends (never printed or kept in evidence). */
    readonly token: string | undefined,
    private readonly workers = 1,
  ) {}

  get hasToken(): boolean {
    return !!this.token;
  }

  get(path: string, opts: RequestOptions = {}): Promise<Exchange> {
    return this.send('GET', path, opts);
  }

  post(path: string, opts: RequestOptions = {}): Promise<Exchange> {
    return this.send('POST', path, opts);
  }

  put(path: string, opts: RequestOptions = {}): Promise<Exchange> {
    return this.send('PUT', path, opts);
  }

  delete(path: string, opts: RequestOptions = {}): Promise<Exchange> {
    return this.send('DELETE', path, opts);
  }

  async send(method: string, path: string, opts: RequestOptions = {}): Promise<Exchange> {
    if (!READ_METHODS.has(method) && this.config.writes === 'none') {
      throw new WritesDisabledError(`${method} ${path} not sent: CONFORMANCE_WRITES=none`);
    }
    const url = buildUrl(this.config.baseUrl, path, opts.query);
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    const auth = opts.auth ?? 'token';
    if (auth === 'token') {
      if (!this.token) throw new Error('this client has no token');
      headers.authorization = `Bearer ${this.token}`;
    } else if (auth !== 'none') {
      headers.authorization = auth.header;
    }
    let data: string | undefined;
    let requestContentType = opts.contentType;
    if (opts.json !== undefined) {
      data = JSON.stringify(opts.json);
      requestContentType ??= 'application/json';
    } else if (opts.body !== undefined) {
      data = opts.body;
    }
    if (requestContentType) headers['content-type'] = requestContentType;

    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      await pace(this.config.maxRps, this.workers);
      countRequest(method, path);
      const res = await this.ctx.fetch(url, {
        method,
        headers,
        // Bytes, not a string: Playwright would serialise a string again as a JSON string under a JSON media type.
        data: data === undefined ? undefined : Buffer.from(data, 'utf8'),
        failOnStatusCode: false,
        maxRedirects: 0,
        timeout: opts.timeoutMs ?? 15_000,
      });
      // Pace by the target's own account: with nothing left in the window, the next request waits for its reset.
      if (res.headers()['x-ratelimit-remaining']?.trim() === '0' && !opts.see429) {
        const wait = Math.min(resetDelayMs(res.headers()['x-ratelimit-reset']) ?? 1000, MAX_429_WAIT_MS);
        nextSlot = Math.max(nextSlot, Date.now() + wait);
      }
      if (res.status() === 429 && !opts.see429 && attempt < MAX_429_RETRIES) {
        const wait = Math.min(resetDelayMs(res.headers()['x-ratelimit-reset']) ?? 1000, MAX_429_WAIT_MS);
        await res.dispose();
        waitedMs += wait;
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      return toExchange(method, url, this.config.baseUrl, res, {
        requestContentType,
        requestBody: data,
        authorization: auth === 'token' ? 'token' : auth === 'none' ? 'none' : 'custom',
        waitedMs,
      });
    }
  }
}

async function toExchange(
  method: string,
  url: string,
  baseUrl: string,
  res: APIResponse,
  extra: Pick<Exchange, 'requestContentType' | 'requestBody' | 'authorization' | 'waitedMs'>,
): Promise<Exchange> {
  const text = await res.text();
  const headers = res.headers();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  await res.dispose();
  return {
    method,
    target: url.slice(baseUrl.length) || '/',
    url,
    ...extra,
    status: res.status(),
    headers,
    contentType: headers['content-type'] ?? '',
    text,
    json,
  };
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

export function isJsonMediaType(contentType: string): boolean {
  const m = mediaType(contentType);
  return m === 'application/json' || m.endsWith('+json');
}
