/**
 * The SSE harness: reads GET {base_url}/events with byte-level control.
 *
 * It reads the stream with `fetch` and eventsource-parser (the parser the
 * `eventsource` package is built on), because a conformance check must see
 * what a WHATWG EventSource hides: messages of any event name (including
 * undocumented ones), the status and headers of a refused subscription,
 * comments and `retry:` lines. It never reconnects on its own: a resumption
 * is always an explicit new subscription with `from`, so nothing is
 * re-delivered behind the check's back.
 *
 * Every wait has a timeout; every connection is closed by `close()`, which
 * the `sse` fixture also calls after each test, so no test can hang or leak.
 *
 * The stream is decoded as UTF-8, as an EventSource decodes it (errors become
 * U+FFFD), and each line is also held to a strict decoder: bytes that are not
 * UTF-8 (CESU-8's surrogate halves, say) are recorded on the message they sit
 * in (`undecodable`), where a replacing decoder alone would hide them.
 */
import { createParser } from 'eventsource-parser';
import { authorizationHeader, cookieHeader, mediaType, urlsFor, type Authorization, type Query } from './client.ts';
import { honouring429, pace } from './rate-limit.ts';
import { countRequest } from '../verdicts/request-log.ts';
import { describeNetworkError } from './tokens.ts';
import { pathOf } from '../../spec/operations.ts';

export const EVENTS_PATH = pathOf('events.subscribe');

export interface SseMessage {
  /** Position in the connection, from 0. */
  index: number;
  /** The SSE event field ('' when absent). */
  event: string;
  /** The SSE id field, if any. */
  id: string | undefined;
  data: string;
  /** Each data line parsed as JSON (undefined where a line is not JSON). */
  lines: unknown[];
  /** The payload: the first data line parsed as JSON. */
  payload: unknown;
  receivedAt: number;
  /**
   * The lines of this message whose bytes are not UTF-8 (where and which bytes), undefined where all are: its
   * text holds U+FFFD in their place. WHATWG SSE: streams are always UTF-8; RFC 8259 8.1: JSON exchanged is UTF-8.
   */
  undecodable?: string[];
}

export interface SubscribeOptions {
  query?: Query;
  /** Default `'token'`: the harness's token. */
  auth?: Authorization;
  /** How long to wait for the response head. */
  connectTimeoutMs?: number;
  /** Return a 429 as is, instead of waiting for X-RateLimit-Reset and subscribing again. */
  see429?: boolean;
  /** The client's pace (CONFORMANCE_MAX_RPS), if any. */
  maxRps?: number;
  /** The Accept header sent: default text/event-stream; null sends none. */
  accept?: string | null;
  /** A Last-Event-ID header, as an EventSource sends it when it reconnects (HTML Standard 9.2.4). */
  lastEventId?: string;
}

export class SseTimeout extends Error {
  override name = 'SseTimeout';
}

type Waiter = {
  pred: (m: SseMessage) => boolean;
  from: number;
  resolve: (m: SseMessage) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};

/** One subscription to the events stream. */
export class SseConnection {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  readonly retries: number[] = [];
  /** Parse problems reported by the parser (unknown fields, bad retry). */
  readonly parseErrors: string[] = [];
  /** Every line of the stream whose bytes are not UTF-8, messages', comments' and others' (see SseMessage.undecodable). */
  readonly undecodable: string[] = [];
  /** The undecodable lines of the message being read, until its blank line. */
  private undecodableHere: string[] = [];
  status = 0;
  headers: Record<string, string> = {};
  /** The body of a refused subscription (bounded). */
  errorBody = '';
  ended = false;
  endError: Error | undefined;
  private waiters: Waiter[] = [];
  private readonly abort = new AbortController();
  private readonly onEnd: Array<() => void> = [];

  constructor(
    readonly url: string,
    /** Path under {base_url} with the query: evidence, no token. */
    readonly target: string,
  ) {}

  get contentType(): string {
    return this.headers['content-type'] ?? '';
  }

  get isEventStream(): boolean {
    return mediaType(this.contentType) === 'text/event-stream';
  }

  /** Messages of event types (not heartbeats, errors or nameless ones). */
  get events(): SseMessage[] {
    return this.messages.filter((m) => m.event !== 'offset-only' && m.event !== 'error' && m.event !== '');
  }

  /** The first message at or after index `from` that satisfies `pred`; waits up to `timeoutMs`. */
  waitFor(
    pred: (m: SseMessage) => boolean,
    timeoutMs: number,
    from = 0,
    what = 'a matching message',
  ): Promise<SseMessage> {
    const found = this.messages.slice(from).find(pred);
    if (found) return Promise.resolve(found);
    if (this.ended)
      return Promise.reject(
        new SseTimeout(`the stream ended before ${what} arrived (${this.messages.length} messages read)`),
      );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        reject(
          new SseTimeout(
            `${what} did not arrive within ${timeoutMs} ms (${this.messages.length} messages read on ${this.target})`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({ pred, from, resolve, reject, timer });
    });
  }

  /** Waits until `n` messages satisfying `pred` have arrived; answers them in order. */
  async collect(
    n: number,
    pred: (m: SseMessage) => boolean,
    timeoutMs: number,
    what = 'messages',
  ): Promise<SseMessage[]> {
    const deadline = Date.now() + timeoutMs;
    let from = 0;
    const got: SseMessage[] = [];
    while (got.length < n) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new SseTimeout(`${got.length} of ${n} ${what} arrived within ${timeoutMs} ms on ${this.target}`);
      try {
        const m = await this.waitFor(pred, left, from, what);
        got.push(m);
        from = m.index + 1;
      } catch (e) {
        if (e instanceof SseTimeout)
          throw new SseTimeout(`${got.length} of ${n} ${what} arrived within ${timeoutMs} ms on ${this.target}`);
        throw e;
      }
    }
    return got;
  }

  /** Resolves once the stream has ended (the server closed it, it broke, or `close()`); rejects after `timeoutMs`. */
  waitForEnd(timeoutMs: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.onEnd.indexOf(done);
        if (i >= 0) this.onEnd.splice(i, 1);
        reject(
          new SseTimeout(
            `the stream did not end within ${timeoutMs} ms (${this.messages.length} messages read on ${this.target})`,
          ),
        );
      }, timeoutMs);
      this.onEnd.push(done);
    });
  }

  close(): void {
    if (!this.ended) this.abort.abort();
    this.finish();
  }

  /** @internal */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** @internal */
  push(event: string | undefined, id: string | undefined, data: string): void {
    const lines = data.split('\n').map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return undefined;
      }
    });
    const m: SseMessage = {
      index: this.messages.length,
      event: event ?? '',
      id,
      data,
      lines,
      payload: lines[0],
      receivedAt: Date.now(),
      ...(this.undecodableHere.length ? { undecodable: this.undecodableHere } : {}),
    };
    this.undecodableHere = [];
    this.messages.push(m);
    for (const w of [...this.waiters]) {
      if (m.index >= w.from && w.pred(m)) {
        clearTimeout(w.timer);
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(m);
      }
    }
  }

  /**
   * @internal One line of the stream, as read (its line end already LF), fed to `feed`; `undecodable` says where
   * its bytes are not UTF-8. A blank line ends the message being read (dispatched or not, HTML 9.2.6).
   */
  line(text: string, undecodable: string | undefined, feed: (text: string) => void): void {
    if (undecodable !== undefined) {
      this.undecodable.push(undecodable);
      this.undecodableHere.push(undecodable);
    }
    feed(text);
    if (text === '\n') this.undecodableHere = [];
  }

  /** @internal */
  finish(err?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.endError = err;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(
        new SseTimeout(
          `the stream ended (${err?.message ?? 'closed'}) after ${this.messages.length} messages on ${this.target}`,
        ),
      );
    }
    this.waiters = [];
    this.onEnd.forEach((f) => f());
  }
}

/**
 * Opens GET {base_url}/events. Resolves once the response head has arrived:
 * inspect `status` and `contentType`; a refused subscription has its body in
 * `errorBody` and is already closed.
 */
export async function subscribe(
  baseUrl: string,
  token: string | undefined,
  opts: SubscribeOptions = {},
): Promise<SseConnection> {
  // Honour the rate limit as the HTTP client does: wait for the window to reset, then subscribe again.
  const { answer } = await honouring429(
    async () => {
      await pace(opts.maxRps, 1);
      return subscribeOnce(baseUrl, token, opts);
    },
    (conn) => ({ status: conn.status, reset: conn.headers['x-ratelimit-reset'], discard: async () => conn.close() }),
    opts.see429,
  );
  return answer;
}

async function subscribeOnce(
  baseUrl: string,
  token: string | undefined,
  opts: SubscribeOptions,
): Promise<SseConnection> {
  const auth = opts.auth ?? 'token';
  const { sent, shown: url } = urlsFor(auth, token, baseUrl, EVENTS_PATH, opts.query, 'the SSE harness');
  const conn = new SseConnection(url, url.slice(baseUrl.length));
  const headers: Record<string, string> = { 'cache-control': 'no-cache' };
  const accept = opts.accept === undefined ? 'text/event-stream' : opts.accept;
  if (accept !== null) headers.accept = accept;
  if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  const authorization = authorizationHeader(auth, token, 'the SSE harness');
  if (authorization !== undefined) headers.authorization = authorization;
  const cookie = cookieHeader(auth);
  if (cookie !== undefined) headers.cookie = cookie;

  countRequest('GET', EVENTS_PATH);
  const connectTimer = setTimeout(() => conn.close(), opts.connectTimeoutMs ?? 10_000);
  let res: Response;
  try {
    res = await fetch(sent, { headers, signal: conn.signal });
  } catch (e) {
    conn.finish(e as Error);
    if (conn.signal.aborted)
      throw new SseTimeout(`no response head from ${conn.target} within ${opts.connectTimeoutMs ?? 10_000} ms`);
    throw new Error(describeNetworkError(url, e));
  } finally {
    clearTimeout(connectTimer);
  }
  conn.status = res.status;
  res.headers.forEach((v, k) => (conn.headers[k] = v));
  if (!res.ok || !res.body || !conn.isEventStream) {
    // A 200 that is not an event stream may stream for ever: read what comes within a bound.
    conn.errorBody = (await readBounded(res, 4096, 2_000)).trim();
    conn.close();
    return conn;
  }
  const parser = createParser({
    onEvent: (m) => conn.push(m.event, m.id, m.data),
    onComment: (c) => conn.comments.push(c),
    onRetry: (r) => conn.retries.push(r),
    onError: (e) => conn.parseErrors.push(`${e.type}: ${e.message}`),
  });
  void (async () => {
    const lines = utf8Lines();
    const lf = lineEndsAsLf();
    const feed = (text: string) => parser.feed(text);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        for (const l of lines(chunk)) conn.line(lf(l.text), l.undecodable, feed);
      for (const l of lines(undefined)) conn.line(lf(l.text), l.undecodable, feed);
      conn.finish();
    } catch (e) {
      conn.finish(conn.signal.aborted ? undefined : (e as Error));
    }
  })();
  return conn;
}

/**
 * The stream's text with every line end as LF (HTML, Server-sent events, 9.2.5: end-of-line = ( cr lf / cr /
 * lf )), chunk by chunk. A CR that ends a chunk ends its line at once, and an LF opening the next chunk is
 * taken as the rest of that CRLF: the parser, which holds a trailing CR back until it sees what follows, would
 * otherwise keep a message ended by CR alone until the next chunk, however long the server waits to send one.
 */
export function lineEndsAsLf(): (chunk: string) => string {
  let afterCr = false;
  return (chunk) => {
    const text = afterCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    afterCr = text.endsWith('\r');
    return text.replace(/\r\n?/g, '\n');
  };
}

/** The strict decoder every line is held to: it throws on what is not UTF-8 (RFC 3629 4), CESU-8's surrogates included. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The decoder an EventSource reads with (WHATWG Encoding's UTF-8 decode: errors become U+FFFD). */
const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** One line of the stream: its text, its line end (CR or LF) kept, and where its bytes are not UTF-8. */
export interface ByteLine {
  text: string;
  undecodable: string | undefined;
}

/**
 * The stream's bytes cut into lines, chunk by chunk (undefined: the stream ended, the unfinished line follows):
 * each complete line, its CR or LF kept (single bytes in UTF-8 that no other character's encoding holds), decoded
 * whole, so a character split across chunks is read as one, and held to the strict decoder. One leading BOM of
 * the stream is dropped (HTML 9.2.6).
 */
export function utf8Lines(): (chunk: Uint8Array | undefined) => ByteLine[] {
  let pending: Uint8Array = new Uint8Array(0);
  let first = true;
  let n = 0;
  const decode = (bytes: Uint8Array): ByteLine => {
    n++;
    let text: string;
    let undecodable: string | undefined;
    try {
      text = STRICT_UTF8.decode(bytes);
    } catch {
      text = LENIENT_UTF8.decode(bytes);
      const at = invalidUtf8At(bytes);
      const shown = [...bytes.subarray(Math.max(0, at), Math.max(0, at) + 12)]
        .map((b) => b.toString(16).toUpperCase().padStart(2, '0'))
        .join(' ');
      const before = LENIENT_UTF8.decode(bytes.subarray(Math.max(0, at - 60), Math.max(0, at)));
      undecodable = `line ${n} of the stream, byte ${at + 1} of ${bytes.length}: ${shown} is not UTF-8 (after …${JSON.stringify(before)}; a replacing decoder reads U+FFFD there)`;
    }
    if (first && text.startsWith('\uFEFF')) text = text.slice(1);
    first = false;
    return { text, undecodable };
  };
  return (chunk) => {
    if (chunk === undefined) {
      const rest = pending;
      pending = new Uint8Array(0);
      return rest.length ? [decode(rest)] : [];
    }
    const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const out: ByteLine[] = [];
    let start = 0;
    for (let i = 0; i < buf.length; i++) {
      if (buf[i] !== 0x0a && buf[i] !== 0x0d) continue;
      out.push(decode(buf.subarray(start, i + 1)));
      start = i + 1;
    }
    pending = buf.slice(start);
    return out;
  };
}

/**
 * Where the first byte sequence that is not UTF-8 starts (RFC 3629 4: UTF8-2, -3, -4, with E0 A0..BF, ED 80..9F,
 * F0 90..BF, F4 80..8F), or -1. ED A0..BF, the start of an encoded surrogate (CESU-8), is not UTF-8.
 */
export function invalidUtf8At(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const [n, lo, hi] =
      c >= 0xc2 && c <= 0xdf
        ? [1, 0x80, 0xbf]
        : c >= 0xe0 && c <= 0xef
          ? [2, c === 0xe0 ? 0xa0 : 0x80, c === 0xed ? 0x9f : 0xbf]
          : c >= 0xf0 && c <= 0xf4
            ? [3, c === 0xf0 ? 0x90 : 0x80, c === 0xf4 ? 0x8f : 0xbf]
            : [0, 0, 0];
    if (n === 0) return i;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** At most `max` bytes of a body, read for at most `timeoutMs`. */
async function readBounded(res: Response, max: number, timeoutMs: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<{ done: true; value: undefined }>((resolve) => {
    timer = setTimeout(() => resolve({ done: true, value: undefined }), timeoutMs);
  });
  try {
    while (size < max) {
      const { done, value } = await Promise.race([reader.read(), timeUp]);
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body cut short is still evidence.
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}
