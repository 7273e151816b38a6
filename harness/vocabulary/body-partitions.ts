/**
 * Partitions of how a request body is framed (RFC 9112 6): the suite's client sends every body with
 * Content-Length (harness/requests/client.ts); here the same bytes go with Transfer-Encoding: chunked
 * instead (RFC 9112 6.1, 7.1), whole in one chunk, cut in two halves (inside a token, inside a UTF-8
 * sequence where the cut falls in one), and a chunk per byte. "A recipient MUST be able to parse the
 * chunked transfer coding" (RFC 9112 7.1); a server that wants a length first may answer 411 Length
 * Required (RFC 9110 15.5.12), which a check accepts and only observes.
 *
 * A chunked body is sent by `sendChunked`, beside the client (which has no way to send one, and which this
 * file does not change): undici sends a body of unknown length, a stream, chunked over HTTP/1.1, each
 * piece it reads a chunk. It goes out on the worker's pool of connections with the run's token, paced and
 * honouring a 429 as the client does, and its exchange is evidence like any other (Transfer-Encoding shown
 * among the request's headers, so the curl line replays it chunked; never the token).
 */
import { test } from '@playwright/test';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { request as undiciRequest, type Dispatcher } from 'undici';
import {
  buildUrl,
  connectionPool,
  USER_AGENT,
  WritesDisabledError,
  type Api,
  type Exchange,
} from '../requests/client.ts';
import { honouring429, noteRemaining, pace } from '../requests/rate-limit.ts';
import { parseJsonBytes } from '../requests/tokens.ts';
import { countRequest } from '../verdicts/request-log.ts';

/** One way of cutting a body's bytes into the chunks of a chunked message (none of them empty). */
export interface ChunkedFraming {
  what: string;
  cut: (bytes: Buffer) => Buffer[];
}

/** The body cut at its middle byte: inside a token of a short JSON or form body, and inside a UTF-8 sequence where one sits there. */
const halves = (b: Buffer): Buffer[] => {
  const mid = Math.floor(b.length / 2);
  return mid === 0 ? [b] : [b.subarray(0, mid), b.subarray(mid)];
};

/**
 * The chunked framings of a body (RFC 9112 7.1: chunk sizes are the sender's choice; the content is the
 * chunks' data put together). A server reading the body by Content-Length, or a chunk at a time, sees another
 * body in one of them.
 */
export const CHUNKED_FRAMINGS: readonly ChunkedFraming[] = [
  { what: 'Transfer-Encoding: chunked, the body in one chunk', cut: (b) => [b] },
  { what: 'Transfer-Encoding: chunked, the body cut in two halves', cut: halves },
  {
    what: 'Transfer-Encoding: chunked, a chunk per byte',
    cut: (b) => [...b].map((x) => Buffer.from([x])),
  },
];

/** RFC 9110 15.5.12: the server refuses to take a body without a Content-Length (allowed; not a verdict). */
export const LENGTH_REQUIRED = 411;

const DECODERS: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/**
 * Sends `body` (UTF-8) to `path` under {base_url} with the run's token, framed chunked as `framing` cuts it.
 * Throws, as the client does, where writes are off.
 */
export async function sendChunked(
  api: Api,
  method: 'POST' | 'PUT',
  path: string,
  body: string,
  contentType: string,
  framing: ChunkedFraming,
): Promise<Exchange> {
  if (api.config.writes === 'none')
    throw new WritesDisabledError(`${method} ${path} not sent: CONFORMANCE_WRITES=none`);
  if (!api.token) throw new Error('this client has no token');
  const url = buildUrl(api.config.baseUrl, path);
  const pieces = framing.cut(Buffer.from(body, 'utf8')).filter((p) => p.length > 0);
  const { answer, waitedMs } = await honouring429(
    async () => {
      await pace(api.config.maxRps, test.info().config.workers);
      countRequest(method, path);
      const res = await undiciRequest(url, {
        dispatcher: connectionPool(),
        method: method as Dispatcher.HttpMethod,
        headers: {
          'user-agent': USER_AGENT,
          'accept-encoding': 'gzip,deflate,br',
          accept: 'application/json',
          authorization: `Bearer ${api.token}`,
          'content-type': contentType,
        },
        // A stream has no length known beforehand: undici frames it chunked, a chunk per piece it reads.
        body: Readable.from(pieces),
        signal: AbortSignal.timeout(15_000),
      });
      let bytes: Buffer = Buffer.from(await res.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const codings = (headers['content-encoding'] ?? '')
        .split(',')
        .map((c) => c.trim().toLowerCase())
        .filter((c) => c && c !== 'identity');
      for (const c of codings.reverse()) {
        const decode = DECODERS[c];
        if (!decode) break;
        bytes = await decode(bytes);
      }
      noteRemaining(headers);
      return { status: res.statusCode, headers, bytes };
    },
    (a) => ({ status: a.status, reset: a.headers['x-ratelimit-reset'], discard: async () => {} }),
  );
  return {
    method,
    target: url.slice(api.config.baseUrl.length) || '/',
    url,
    requestContentType: contentType,
    requestHeaders: { 'Transfer-Encoding': 'chunked' },
    requestBody: body,
    authorization: 'token',
    status: answer.status,
    headers: answer.headers,
    contentType: answer.headers['content-type'] ?? '',
    text: answer.bytes.toString('utf8'),
    json: parseJsonBytes(answer.bytes),
    waitedMs,
  };
}

/**
 * Spellings of a custom-text key by the characters around a separator (the document leaves the allowed keys
 * open: "object of string keys", each a JSON member name, compared exactly, RFC 8259 8.3): an underscore, a
 * hyphen or a dot before a letter or a digit, capitals around one, a separator first, last or doubled, the
 * separators mixed. A serialiser that rewrites member names (camelCase, snake_case, kebab-case) rewrites some
 * of them and leaves the others, so every category is tried.
 */
export const TEXT_KEY_SPELLINGS: ReadonlyArray<{ what: string; keys: readonly string[] }> = [
  { what: 'an underscore before a letter', keys: ['footer_link_text'] },
  { what: 'a hyphen before a letter', keys: ['button-label'] },
  { what: 'an underscore before a digit', keys: ['step_2'] },
  { what: 'a hyphen before a digit', keys: ['line-1'] },
  { what: 'a dot before a letter', keys: ['signup.title'] },
  { what: 'a dot before a digit', keys: ['item.3'] },
  { what: 'capitals around an underscore', keys: ['FOOTER_NOTE'] },
  { what: 'a capital after a hyphen', keys: ['Sign-Up'] },
  { what: 'a leading underscore', keys: ['_hint'] },
  { what: 'a trailing hyphen', keys: ['note-'] },
  { what: 'two underscores in a row', keys: ['help__text'] },
  { what: 'a dot, a hyphen and an underscore', keys: ['form.field-name_label'] },
  // Two keys one rewriting folds together, the camelCase one first: each maps to its own value.
  { what: 'a key beside its camelCase spelling', keys: ['buttonLabel', 'button_label'] },
  { what: 'a key beside its snake_case spelling', keys: ['footer_text', 'footerText'] },
];
