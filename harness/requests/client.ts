/**
 * The suite's HTTP client: undici's request (the HTTP client under Node's own
 * fetch, without the Fetch rules that would stop a check: any method may carry
 * a body), one pool of kept-alive connections per worker, with what a careful
 * client of a real tenant needs.
 *
 * - Every request is addressed under {base_url} (never through Playwright's
 *   baseURL, which drops the /api/v2 path for absolute paths).
 * - Every exchange is kept as evidence: method, path, query, status, media
 *   type and body. The token is never kept, and never printed.
 * - With CONFORMANCE_WRITES=none, a write throws before anything is sent.
 * - CONFORMANCE_MAX_RPS paces requests; a 429 is honoured by waiting for
 *   X-RateLimit-Reset (bounded) unless the caller asks to see it (rate-limit.ts).
 * - It sends what Playwright's APIRequestContext sent before it (the client
 *   until 2026-11-26): `accept-encoding: gzip,deflate,br`, with the answer
 *   decoded, and a user agent. Playwright's request context kept, for each
 *   request, a step with its stack: a bookkeeping the report never showed
 *   (traces are never on: they would record the token), which cost more than
 *   the request itself (bench/conformance.bench.ts).
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import type { Config } from '../run/config.ts';
import { countRequest } from '../verdicts/request-log.ts';
import { mustBeJsonBodies } from '../vocabulary/must.ts';
import { honouring429, noteRemaining, pace } from './rate-limit.ts';
import { parseJsonBytes } from './tokens.ts';

/**
 * How a request is authorised: `'token'` the client's token; `'none'` no
 * Authorization header; `{ header }` that value, verbatim.
 */
/**
 * `query`: no Authorization header, the token in the access_token query
 * parameter instead (RFC 6750 2.3), a place the document does not name; the
 * evidence shows ACCESS_TOKEN there, never the token.
 */
/**
 * How a request authenticates: the run's token in the Authorization header, none, the token in the query, an
 * Authorization header given whole, or no Authorization header and a Cookie header given (what a browser sends
 * back of the cookies an answer set).
 */
export type Authorization = 'token' | 'none' | 'query' | { header: string } | { cookie: string };

/** The query parameter RFC 6750 2.3 carries a bearer token in. */
const TOKEN_PARAMETER = 'access_token';

/**
 * The URL a request goes to for `auth` (with the token in its query when
 * `auth` is `query`), and the URL its evidence shows (the token replaced).
 */
export function urlsFor(
  auth: Authorization,
  token: string | undefined,
  baseUrl: string,
  path: string,
  query: Query | undefined,
  who: string,
): { sent: string; shown: string } {
  const shown = buildUrl(baseUrl, path, auth === 'query' ? { ...query, [TOKEN_PARAMETER]: 'ACCESS_TOKEN' } : query);
  if (auth !== 'query') return { sent: shown, shown };
  if (!token) throw new Error(`${who} has no token`);
  return { sent: buildUrl(baseUrl, path, { ...query, [TOKEN_PARAMETER]: token }), shown };
}

/** The Authorization header for `auth`, the token being `token`. */
export function authorizationHeader(auth: Authorization, token: string | undefined, who: string): string | undefined {
  if (auth === 'none' || auth === 'query') return undefined;
  if (auth !== 'token') return 'header' in auth ? auth.header : undefined;
  if (!token) throw new Error(`${who} has no token`);
  return `Bearer ${token}`;
}

/** The Cookie header for `auth`, if it gives one. */
export const cookieHeader = (auth: Authorization): string | undefined =>
  typeof auth === 'object' && 'cookie' in auth ? auth.cookie : undefined;

/** What evidence keeps of an Authorization: never the token (nor a cookie, which may be a session's credential). */
export const authorizationKind = (auth: Authorization): Exchange['authorization'] =>
  auth === 'token'
    ? 'token'
    : auth === 'none' || auth === 'query' || cookieHeader(auth) !== undefined
      ? 'none'
      : 'custom';

export type Query = Record<string, string | number | readonly string[] | undefined>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body (serialised here, sent as application/json). */
  json?: unknown;
  /** A body sent as is, with `contentType`: a string in UTF-8, or these very bytes. */
  body?: string | Uint8Array;
  /**
   * A body sent with `contentType` in these pieces, framed chunked (RFC 9112 7.1): no Content-Length, a chunk
   * for each piece that is not empty.
   */
  chunks?: readonly Uint8Array[];
  contentType?: string;
  headers?: Record<string, string>;
  /** Default `'token'`. */
  auth?: Authorization;
  /** Return a 429 as is, instead of waiting and sending again. */
  see429?: boolean;
  /** false: no User-Agent field at all (RFC 9110 10.1.5: a user agent SHOULD send one, and many clients do not). */
  userAgent?: false;
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
  /** The headers the check set itself beside the client's own (never Authorization or Cookie: they may hold a token). */
  requestHeaders?: Record<string, string>;
  requestBody?: string;
  /** Sent without a User-Agent field (RequestOptions.userAgent false). */
  withoutUserAgent?: true;
  /** The body's bytes where they are no UTF-8 (requestBody then shows them decoded as Latin-1). */
  requestBytes?: Uint8Array;
  authorization: 'token' | 'none' | 'custom';
  status: number;
  headers: Record<string, string>;
  contentType: string;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** Waits spent honouring 429s before this answer, in ms. */
  waitedMs: number;
  /**
   * Why the body could not be read as its Content-Encoding says (RFC 9110 8.4): a body labelled with a coding
   * it is not in, or a coding this client did not offer in Accept-Encoding (12.5.3). `text` then shows the bytes
   * as they came and `json` is undefined: no client reads a body it cannot decode.
   */
  undecodable?: string;
}

export class WritesDisabledError extends Error {
  override name = 'WritesDisabledError';
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers an exchange never records: they may carry a credential. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

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

/** What the suite says it is, in User-Agent. */
export const USER_AGENT = 'mgmt-api-conformance';

let workerPool: Agent | undefined;

/**
 * The worker's pool of connections, kept alive and shared by every client of
 * every check, as Node's global agent was for Playwright's request contexts:
 * a request may go out on a connection another client's request used (a
 * server caching per connection what it verified is seen so).
 */
export function connectionPool(): Agent {
  return (workerPool ??= new Agent({ connections: 8, pipelining: 1 }));
}

export class Api {
  constructor(
    private readonly dispatcher: Dispatcher,
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
    const auth = opts.auth ?? 'token';
    const url = urlsFor(auth, this.token, this.config.baseUrl, path, opts.query, 'this client');
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    const authorization = authorizationHeader(auth, this.token, 'this client');
    if (authorization !== undefined) headers.authorization = authorization;
    const cookie = cookieHeader(auth);
    if (cookie !== undefined) headers.cookie = cookie;
    let data: string | Uint8Array | undefined;
    let requestContentType = opts.contentType;
    if (opts.json !== undefined) {
      data = JSON.stringify(opts.json);
      requestContentType ??= 'application/json';
    } else if (opts.body !== undefined) {
      data = opts.body;
    } else if (opts.chunks !== undefined) {
      const whole = Buffer.concat(opts.chunks);
      data = isUtf8(whole) ? whole.toString('utf8') : whole;
    }
    if (requestContentType) headers['content-type'] = requestContentType;

    const { answer: res, waitedMs } = await honouring429(
      async () => {
        await pace(this.config.maxRps, this.workers);
        countRequest(method, path);
        const res = await answerOf(
          this.dispatcher,
          method,
          url.sent,
          opts.userAgent === false ? headers : { 'user-agent': USER_AGENT, ...headers },
          // A stream has no length known beforehand: undici frames it chunked, a chunk per piece it reads.
          opts.chunks ? Readable.from(opts.chunks.filter((p) => p.length > 0)) : data,
          opts.timeoutMs ?? 15_000,
        );
        if (!opts.see429) noteRemaining(res.headers);
        return res;
      },
      (res) => ({ status: res.status, reset: res.headers['x-ratelimit-reset'], discard: async () => {} }),
      opts.see429,
    );
    const own = Object.entries({
      ...opts.headers,
      ...(opts.chunks ? { 'Transfer-Encoding': 'chunked' } : {}),
    }).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
    const ex = toExchange(method, url.shown, this.config.baseUrl, res, {
      requestContentType,
      ...(own.length ? { requestHeaders: Object.fromEntries(own) } : {}),
      ...(opts.userAgent === false ? { withoutUserAgent: true as const } : {}),
      requestBody: typeof data === 'string' || data === undefined ? data : Buffer.from(data).toString('latin1'),
      ...(typeof data === 'string' || data === undefined ? {} : { requestBytes: data }),
      authorization: authorizationKind(auth),
      waitedMs,
    });
    answersOfCheck?.push(ex);
    // The answer could not be decoded as its Content-Encoding says: the target's failure, not the check's. Held
    // here, where every request of the operations goes, to "All request and response bodies are JSON unless
    // stated" (a 2xx to http.json-bodies, a 4xx to http.json-error-bodies), with the exchange as evidence;
    // any other answer (a 5xx, outside a check) goes back to the check with no JSON, for its own rule to judge.
    if (ex.undecodable !== undefined) mustBeJsonBodies([ex]);
    return ex;
  }
}

/** The answers every client of this worker gets while a check runs, where a fixture collects them. */
let answersOfCheck: Exchange[] | undefined;

/** Collects into `into` every answer an Api client gets from now until the returned function is called. */
export function collectAnswers(into: Exchange[]): () => void {
  answersOfCheck = into;
  return () => {
    if (answersOfCheck === into) answersOfCheck = undefined;
  };
}

/**
 * An answer, read whole: status, headers (lower-cased names, repeated ones joined) and the decoded body, or
 * the bytes as they came with why they could not be decoded.
 */
interface Answer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  undecodable?: string;
}

/** The Accept-Encoding this client sends unless a check sets its own: what Playwright's APIRequestContext sent. */
export const CLIENT_ACCEPT_ENCODING = 'gzip,deflate,br';

const DECODERS: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

async function answerOf(
  dispatcher: Dispatcher,
  method: string,
  url: string,
  headers: Record<string, string>,
  data: string | Uint8Array | Readable | undefined,
  timeoutMs: number,
): Promise<Answer> {
  const res = await undiciRequest(url, {
    dispatcher,
    method: method as Dispatcher.HttpMethod,
    headers: { 'accept-encoding': CLIENT_ACCEPT_ENCODING, ...headers },
    body: data === undefined ? undefined : typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
    signal: AbortSignal.timeout(timeoutMs),
  });
  let bytes: Buffer = Buffer.from(await res.body.arrayBuffer());
  const answerHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    // As a Fetch Headers object joins them (RFC 9110 5.3); Set-Cookie lines stay apart.
    answerHeaders[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  const sent = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
  const undecodable = bytes.length ? await decodeContent(bytes, answerHeaders['content-encoding'], sent) : undefined;
  if (undecodable && 'decoded' in undecodable) bytes = undecodable.decoded;
  return {
    status: res.statusCode,
    headers: answerHeaders,
    bytes,
    ...(undecodable && 'why' in undecodable ? { undecodable: undecodable.why } : {}),
  };
}

/**
 * A body's content codings undone, in the order applied, last first (RFC 9110 8.4), or why they cannot be:
 * a coding this client cannot decode (none but gzip, x-gzip, deflate and br, the codings it offers: RFC 9110
 * 12.5.3), or bytes that are not in the coding their label names. An empty body has nothing to decode (a HEAD,
 * a 204 carry the coding the content would have).
 */
async function decodeContent(
  bytes: Buffer,
  contentEncoding: string | undefined,
  acceptEncoding: string = CLIENT_ACCEPT_ENCODING,
): Promise<{ decoded: Buffer } | { why: string } | undefined> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (!codings.length) return undefined;
  let decoded = bytes;
  for (const c of [...codings].reverse()) {
    const decode = DECODERS[c];
    if (!decode)
      return {
        why: `Content-Encoding: ${contentEncoding}: ${c} is no coding this client can decode (the request's Accept-Encoding: ${acceptEncoding})`,
      };
    try {
      decoded = await decode(decoded);
    } catch (e) {
      return {
        why: `Content-Encoding: ${contentEncoding}, and the body is not in ${c} (${(e as Error).message}; the request's Accept-Encoding: ${acceptEncoding})`,
      };
    }
  }
  return { decoded };
}

function toExchange(
  method: string,
  url: string,
  baseUrl: string,
  res: Answer,
  extra: Pick<
    Exchange,
    | 'requestContentType'
    | 'requestHeaders'
    | 'withoutUserAgent'
    | 'requestBody'
    | 'requestBytes'
    | 'authorization'
    | 'waitedMs'
  >,
): Exchange {
  const { bytes, headers, undecodable } = res;
  const text = bytes.toString('utf8');
  // RFC 8259 8.1: a JSON text exchanged between systems MUST be UTF-8 and MUST NOT begin with a byte
  // order mark; bytes that are not UTF-8, or that begin with a BOM, are no JSON text (every check sees no JSON).
  const json = undecodable === undefined ? parseJsonBytes(bytes) : undefined;
  return {
    method,
    target: url.slice(baseUrl.length) || '/',
    url,
    ...extra,
    status: res.status,
    headers,
    contentType: headers['content-type'] ?? '',
    text,
    json,
    ...(undecodable !== undefined ? { undecodable } : {}),
  };
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]";
/** RFC 9110 8.3.1: media-type = type "/" subtype parameters; parameters = *( OWS ";" OWS [ token "=" ( token / quoted-string ) ] ). */
const MEDIA_TYPE = new RegExp(
  `^(${TCHAR}+/${TCHAR}+)((?:[ \\t]*;[ \\t]*(?:${TCHAR}+=(?:${TCHAR}+|"(?:[^"\\\\]|\\\\.)*"))?)*)[ \\t]*$`,
);
const PARAMETER = new RegExp(`(${TCHAR}+)=(${TCHAR}+|"(?:[^"\\\\]|\\\\.)*")`, 'g');

/**
 * A JSON media type, read by RFC 9110's grammar (8.3.1): application/json or a +json type (RFC 6839), its
 * parameters well formed, and a charset, where one is given, UTF-8 (RFC 8259 8.1: JSON exchanged between systems
 * "MUST be encoded using UTF-8"; a label naming another encoding tells a client to decode it wrongly).
 */
export function isJsonMediaType(contentType: string): boolean {
  const m = MEDIA_TYPE.exec(contentType.trim());
  if (!m) return false;
  const type = m[1]!.toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return false;
  for (const [, name, value] of m[2]!.matchAll(PARAMETER))
    if (name!.toLowerCase() === 'charset' && value!.replace(/^"|"$/g, '').toLowerCase() !== 'utf-8') return false;
  return true;
}
