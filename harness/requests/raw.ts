/**
 * Requests whose header values are written octet for octet, over a socket of their own: for the probes that send
 * what the suite's HTTP client (undici) refuses to send, a control character in a field value among them
 * (RFC 9110 5.5: a recipient may refuse such a field or replace the character; the probe asks which the target
 * does). The suite's client builds the request (an Api on a RawDispatcher); the answer comes back as a RawAnswer
 * rejection, so no fixture holds it to the rules of the answers the client reads.
 */
import { connect as connectTcp, isIP } from 'node:net';
import { Readable } from 'node:stream';
import { connect as connectTls } from 'node:tls';
import { Dispatcher } from 'undici';
import type { Exchange } from './client.ts';
import { parseJsonBytes } from './tokens.ts';

/** An answer a raw exchange got, carried out of the suite's HTTP client as a rejection (so that it is no answer the fixture holds to the JSON rules). */
export class RawAnswer extends Error {
  override name = 'RawAnswer';
  constructor(readonly exchange: Exchange) {
    super(`${exchange.method} ${exchange.target}: status ${exchange.status}`);
  }
}

/**
 * A dispatcher for the suite's HTTP client that sends each request over a socket of its own, its header values
 * written octet for octet (undici refuses a control character in a field value before anything is sent), with
 * Connection: close, and hands the answer back as a RawAnswer rejection. Only what a probe's request is (method,
 * path, headers, body) is taken from the client; the client never sees the answer.
 */
export class RawDispatcher extends Dispatcher {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    rawExchange(opts, this.baseUrl, this.timeoutMs).then(
      (ex) => handler.onError?.(new RawAnswer(ex)),
      (e: Error) => handler.onError?.(e),
    );
    return true;
  }
}

/** One request over a socket of its own (see RawDispatcher), its answer read whole and kept as evidence (no token). */
async function rawExchange(opts: Dispatcher.DispatchOptions, baseUrl: string, timeoutMs: number): Promise<Exchange> {
  const url = new URL(opts.path, opts.origin);
  const given = (opts.headers ?? {}) as Record<string, string | undefined>;
  let body: Buffer = Buffer.alloc(0);
  if (opts.body instanceof Readable) {
    const parts: Buffer[] = [];
    for await (const p of opts.body) parts.push(Buffer.from(p as Uint8Array));
    body = Buffer.concat(parts);
  } else if (typeof opts.body === 'string') body = Buffer.from(opts.body, 'utf8');
  else if (opts.body instanceof Uint8Array) body = Buffer.from(opts.body);
  const fields = Object.entries(given).filter(
    // No content coding asked for: the answer is read as it comes.
    (e): e is [string, string] => e[1] !== undefined && e[0].toLowerCase() !== 'accept-encoding',
  );
  const head =
    `${opts.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n` +
    fields.map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    (body.length || !['GET', 'HEAD'].includes(opts.method) ? `content-length: ${body.length}\r\n` : '') +
    'connection: close\r\n\r\n';
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket =
    url.protocol === 'https:'
      ? connectTls({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) ? {} : { servername: host }) })
      : connectTcp({ host, port });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve();
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => (clearTimeout(timer), resolve()));
    socket.on('close', () => (clearTimeout(timer), resolve()));
    socket.on('error', (e) => (clearTimeout(timer), chunks.length ? resolve() : reject(e)));
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
  socket.destroy();
  const all = Buffer.concat(chunks);
  const end = all.indexOf('\r\n\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(all.subarray(0, Math.max(0, end)).toString('latin1'))?.[1]);
  if (end < 0 || !status)
    throw new Error(
      `${opts.method} ${url.href}: no HTTP/1.1 answer head within ${timeoutMs} ms (${all.length} octets)`,
    );
  const headers: Record<string, string> = {};
  for (const line of all.subarray(0, end).toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] =
      headers[name] === undefined ? value : `${headers[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  let content = all.subarray(end + 4);
  if (/(^|,)\s*chunked\s*$/i.test(headers['transfer-encoding'] ?? '')) {
    // RFC 9112 7.1: chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF, ended by a chunk of size 0.
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = content.indexOf('\r\n', at);
      const size = eol < 0 ? NaN : parseInt(content.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
      if (!(size > 0)) break;
      parts.push(content.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    content = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined) content = content.subarray(0, Number(headers['content-length']));
  const sentType = fields.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const own = fields.filter(
    ([k]) => !['authorization', 'cookie', 'user-agent', 'accept', 'content-type'].includes(k.toLowerCase()),
  );
  const shown = `${url.origin}${url.pathname}${url.search}`;
  return {
    method: opts.method,
    target: shown.startsWith(baseUrl) ? shown.slice(baseUrl.length) || '/' : shown,
    url: shown,
    ...(sentType === undefined ? {} : { requestContentType: sentType }),
    ...(own.length ? { requestHeaders: Object.fromEntries(own) } : {}),
    ...(body.length ? { requestBody: body.toString('utf8') } : {}),
    authorization: 'custom',
    status,
    headers,
    contentType: headers['content-type'] ?? '',
    text: content.toString('utf8'),
    json: parseJsonBytes(content),
    waitedMs: 0,
  };
}
