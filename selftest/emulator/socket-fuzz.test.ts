/**
 * Socket-level fuzzing: real TCP connections (node:net), CONCURRENCY of them
 * at once, keep-alive, at least 10,000 requests of every kind of bad input
 * interleaved with valid requests. inject() cannot see this level: framing,
 * parser errors, half-closed sockets, pipelining, connection reuse.
 *
 * Every case is one of two kinds:
 *  - keep: the input is a complete, framed HTTP/1.1 request (however wrong
 *    its method, path, query, headers, token or body). Each request gets a
 *    complete response below 500, and the connection stays open and usable:
 *    no close, no reset, no `Connection: close`.
 *  - ends: the input justifies ending its own connection, because HTTP/1.1
 *    framing is lost or the client asks for it: a request line or header
 *    the parser cannot parse, headers over the size limit, bad chunked
 *    encoding, a bad or conflicting Content-Length, a body over the body
 *    limit, CONNECT/Upgrade, a truncated request, a half-closed socket,
 *    `Connection: close`, HTTP/1.0. The client sends it, half-closes, and
 *    reads what comes until the server closes. Any response must be below
 *    500, and the server closes these connections, never resets them (a
 *    client must never see ECONNRESET from the emulator, whoever closes).
 *    The connection's next case opens a new one.
 *
 * Asserted, three runs in a row (three seeds): no 5xx at all; no reset on
 * any connection; no error or close on any connection while it carries keep
 * cases; the server answers afterwards; the state digest is unchanged (no
 * fuzz input changes anything: writes carry bad bodies, bad tokens or the
 * limited token).
 *
 * FUZZ_SEED replays a run (and the two after it); FUZZ_REQUESTS scales it.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { Rng } from '../../emulator/state.js';

const CONCURRENCY = 8;
const MIN_REQUESTS = Number(process.env['FUZZ_REQUESTS'] ?? 10_000);
const FIRST_SEED = Number(process.env['FUZZ_SEED'] ?? 0x5eed_f022);
/** The emulator's body limit in this test (small, so over-limit bodies stay cheap). */
const BODY_LIMIT = 64 * 1024;
/** A body no write route accepts, whatever reaches the handler (custom text takes any map of strings, so not `{}`). */
const NO_BODY = '[]';

interface Case {
  kind: 'keep' | 'ends';
  /** What the case is, for the report and failure messages (never a token). */
  label: string;
  bytes: Buffer;
  /** keep: the methods of the requests in `bytes`, in order (HEAD answers carry no body). */
  methods: string[];
}

interface Response {
  status: number;
  headers: Record<string, string>;
}

// ---------------------------------------------------------------------------
// A small HTTP/1.1 response reader: status line, headers, Content-Length or
// chunked bodies, 1xx interim answers skipped.

/** One complete response at the start of `buf`, or undefined if more bytes are needed. */
function parseResponse(buf: Buffer, method: string): { response: Response; length: number } | undefined {
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end < 0) return undefined;
    const head = buf.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]!);
    if (!m) throw new Error(`not a status line: ${JSON.stringify(head[0]!.slice(0, 80))}`);
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyAt = end + 4;
    if (status >= 100 && status < 200) {
      at = bodyAt;
      continue;
    }
    if (method === 'HEAD' || status === 204 || status === 304) return { response: { status, headers }, length: bodyAt };
    if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', bodyAt);
        if (lineEnd < 0) return undefined;
        const size = parseInt(buf.subarray(bodyAt, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailerEnd = buf.indexOf('\r\n\r\n', lineEnd);
          if (trailerEnd >= 0 && trailerEnd === lineEnd) return { response: { status, headers }, length: lineEnd + 4 };
          const blank = buf.indexOf('\r\n', lineEnd + 2);
          if (blank < 0) return undefined;
          if (blank === lineEnd + 2) return { response: { status, headers }, length: blank + 2 };
          if (trailerEnd < 0) return undefined;
          return { response: { status, headers }, length: trailerEnd + 4 };
        }
        if (buf.length < lineEnd + 2 + size + 2) return undefined;
        bodyAt = lineEnd + 2 + size + 2;
      }
    }
    const len = headers['content-length'];
    if (len === undefined) throw new Error(`status ${status} without Content-Length or chunked framing`);
    if (buf.length < bodyAt + Number(len)) return undefined;
    return { response: { status, headers }, length: bodyAt + Number(len) };
  }
}

/** One client connection: bytes in, parsed responses out, every socket event recorded. */
class Connection {
  private readonly socket: Socket;
  private buf = Buffer.alloc(0);
  private readonly expected: string[] = [];
  readonly responses: Response[] = [];
  ended = false;
  closed = false;
  error: NodeJS.ErrnoException | undefined;
  /** Bytes after the last parsed response that did not parse (ends cases). */
  unparsed = '';
  private wake: (() => void) | undefined;

  constructor(port: number) {
    this.socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    this.socket.setNoDelay(true);
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.drain();
      this.notify();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.notify();
    });
    this.socket.on('error', (e: NodeJS.ErrnoException) => {
      this.error = e;
      this.notify();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  private drain(): void {
    for (;;) {
      let parsed: ReturnType<typeof parseResponse>;
      try {
        parsed = parseResponse(this.buf, this.expected[0] ?? 'GET');
      } catch (e) {
        this.unparsed = String(e);
        return;
      }
      if (parsed === undefined) return;
      this.expected.shift();
      this.responses.push(parsed.response);
      this.buf = this.buf.subarray(parsed.length);
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Resolves when `done()` holds, re-checked after every socket event. */
  private async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise<void>((resolve) => (this.wake = resolve));
  }

  get open(): boolean {
    return !this.ended && !this.closed && this.error === undefined;
  }

  /** keep: sends `bytes` and waits for one response per method; answers them, or throws with what went wrong. */
  async exchange(c: Case): Promise<Response[]> {
    const first = this.responses.length;
    this.expected.push(...c.methods);
    this.socket.write(c.bytes);
    await this.until(() => this.responses.length >= first + c.methods.length || !this.open || this.unparsed !== '');
    const got = this.responses.slice(first);
    if (got.length < c.methods.length) {
      const why = this.error
        ? `error ${this.error.code ?? this.error.message}`
        : this.unparsed || (this.ended ? 'closed by the server' : 'closed');
      throw new Error(`${c.label}: ${why} after ${got.length} of ${c.methods.length} responses`);
    }
    return got;
  }

  /** ends: sends `bytes`, half-closes, and waits until the server closes; answers what arrived. */
  async finish(bytes: Buffer): Promise<{ responses: Response[]; reset: boolean }> {
    const first = this.responses.length;
    if (this.open) {
      this.socket.write(bytes);
      this.socket.end();
    }
    await this.until(() => this.closed);
    return { responses: this.responses.slice(first), reset: this.error !== undefined };
  }

  /** The client ends a connection whose keep cases all went well. */
  async close(): Promise<void> {
    this.socket.end();
    await this.until(() => this.closed);
  }
}

// ---------------------------------------------------------------------------
// The cases

interface Tokens {
  full: string;
  limited: string;
}

function request(method: string, target: string, headers: [string, string][], body?: string | Buffer): Buffer {
  const b = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (b !== undefined && !headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k)))
    lines.push(`Content-Length: ${b.length}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), b ?? Buffer.alloc(0)]);
}

/** One generator per kind of input; each answers a case. */
function generators(
  t: Tokens,
  ids: { grant: string; user: string; profile: string; archived: string; stream: string },
  rng: Rng,
) {
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
  const bearer = (tok: string): [string, string] => ['Authorization', `Bearer ${tok}`];
  const full = bearer(t.full);
  const json: [string, string] = ['Content-Type', 'application/json'];
  const form: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
  const keep = (label: string, bytes: Buffer, methods = [bytes.toString('latin1').split(' ', 1)[0]!]): Case => ({
    kind: 'keep',
    label,
    bytes,
    methods,
  });
  const ends = (label: string, bytes: Buffer | string): Case => ({
    kind: 'ends',
    label,
    bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1'),
    methods: [],
  });
  const readPaths = [
    `/api/v2/client-grants/${ids.grant}`,
    `/api/v2/users/${encodeURIComponent(ids.user)}/federated-connections-tokensets`,
    '/api/v2/event-streams?take=3',
    `/api/v2/event-streams/${ids.stream}`,
  ];
  const writeTargets: [string, string][] = [
    ['PUT', '/api/v2/keys/custom-signing'],
    ['PUT', `/api/v2/self-service-profiles/${ids.profile}/custom-text/en/get-started`],
    ['POST', `/api/v2/experimentation/experiments/${ids.archived}/status`],
  ];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  const badTokens = () => [
    'garbage',
    t.full.slice(0, -1),
    flip(t.full, rng.int(t.full.length)),
    t.full.split('.').slice(0, 2).join('.'),
    `${t.full}.x`,
    'e30.e30.',
    'x'.repeat(4000),
    '',
  ];
  // Bodies no write route accepts (custom text takes any map of string to string, so none is one).
  const badJson = [
    '{',
    '{"keys":',
    'nul',
    '[1,2',
    '{"a":"\\ud800"',
    '\u0000',
    '{"status":"active"',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '"',
    '{"keys":[{"kty":1}]}',
    '{"status":["draft"]}',
    '{"a":{"b":1}}',
    '[]',
    'null',
    '1e999999',
  ];
  const badForms = [
    'keys[0][kty][x]=1',
    'keys[0][d]=private&keys[0][kty]=EC',
    'a[b][c][d][e][f][g]=1',
    'a[]=1&a[]=2',
    'keys[0][kty]=EC&keys[0][k]=1',
    `t=${'x'.repeat(2001)}`,
    't=%3Cscript%3Ex%3C%2Fscript%3E',
    'a[b]=1',
  ];
  const oddQueries = [
    'take=0',
    'take=101',
    'take=abc',
    'take=1e1',
    'take=-1',
    'take=01',
    'from=%',
    'from=!!!',
    'take=1&take=2',
    'from=' + 'A'.repeat(5000),
    'a=%zz',
    '&&==&&',
    'take=%00',
    'take[]=1',
    '__proto__=1',
  ];
  const oddPaths = [
    '/api/v2/client-grants/' + 'g'.repeat(4000),
    '/api/v2/client-grants/%zz',
    '/api/v2/client-grants/%00',
    '/api/v2//client-grants//x',
    '/api/v2/../api/v2/client-grants/x',
    '/api/v2/event-streams/' + 'e'.repeat(25),
    '/api/v2/event-streams/%E2%82%AC' + 'e'.repeat(23),
    '/api/v2/users/' + 'u'.repeat(301) + '/federated-connections-tokensets',
    '/api/v2/users/%2F..%2F/federated-connections-tokensets',
    '/api/v2/nope',
    '/api/v2',
    '/api/v2/',
    '/api/v2?x=1',
    '/' + 'a/'.repeat(1000),
    '/api/v2/keys/custom-signing/extra',
    '/api/v2/self-service-profiles/x/custom-text/fr/get-started',
    '/api/v2/events?event_type=nope',
    '/api/v2/events?from=bad',
    '/api/v2/events?from_timestamp=2024-13-99T00:00:00Z',
    '*',
    'http://127.0.0.1/api/v2/client-grants/x',
  ];
  const oddMethods = [
    'OPTIONS',
    'TRACE',
    'PATCH',
    'DELETE',
    'PROPFIND',
    'PURGE',
    'REPORT',
    'SEARCH',
    'MKCOL',
    'LOCK',
    'HEAD',
    'POST',
    'PUT',
  ];

  return {
    // ---- valid requests (about a third of all cases)
    valid: (): Case => keep('valid read', request('GET', pick(readPaths), [full])),
    // ---- complete requests with bad content: the connection stays open
    badToken: (): Case => keep('bad token', request('GET', pick(readPaths), [bearer(pick(badTokens()))])),
    badScheme: (): Case =>
      keep(
        'bad Authorization scheme',
        request('GET', pick(readPaths), [
          [
            'Authorization',
            pick([
              'Basic Zm9vOmJhcg==',
              'bearer',
              'Bearer',
              'Token x',
              'Bearer  a b',
              `Bearer ${t.full} extra`,
              'Bearer\t' + t.full.slice(5),
            ]),
          ],
        ]),
      ),
    noToken: (): Case => keep('no token', request('GET', pick(readPaths), [])),
    limited: (): Case => {
      const [m, p] = pick(writeTargets);
      return keep('limited token write', request(m, p, [bearer(t.limited), json], '{"keys":[{"kty":"EC"}]}'));
    },
    badJson: (): Case => {
      const [m, p] = pick(writeTargets);
      return keep('bad JSON body', request(m, p, [full, json], pick(badJson)));
    },
    badForm: (): Case => {
      const [m, p] = pick(writeTargets);
      // Form bodies only on the two PUTs that accept them; the experiment route refuses the media type.
      return keep('bad form body', request(m, p, [full, form], pick(badForms)));
    },
    badMediaType: (): Case => {
      const [m, p] = pick(writeTargets);
      return keep(
        'unsupported media type',
        request(
          m,
          p,
          [
            full,
            [
              'Content-Type',
              pick([
                'text/plain',
                'application/xml',
                'multipart/form-data; boundary=x',
                ';;;',
                'application/json; charset=nope',
              ]),
            ],
          ],
          NO_BODY,
        ),
      );
    },
    chunkedBadJson: (): Case => {
      const [m, p] = pick(writeTargets);
      const body = pick(badJson);
      const chunked = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
      return keep('chunked bad JSON', request(m, p, [full, json, ['Transfer-Encoding', 'chunked']], chunked));
    },
    oddMethod: (): Case => {
      const method = pick(oddMethods);
      const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? NO_BODY : undefined;
      return keep(
        `odd method ${method}`,
        request(
          method,
          pick([...readPaths, ...writeTargets.map((w) => w[1])]),
          [bearer(t.limited), ...(body ? [json] : [])],
          body,
        ),
      );
    },
    badTokenRequest: (): Case =>
      keep(
        'bad token request',
        request(
          'POST',
          pick(['/oauth/token/', '/oauth/token']),
          [pick<[string, string]>([json, form, ['Content-Type', 'text/plain']])],
          pick([
            '{',
            'grant_type=password',
            '{"grant_type":"client_credentials"}',
            'grant_type=client_credentials&client_id=x&client_secret=y&audience=%2Fapi%2Fv2%2F',
            '%',
            '[]',
            'grant_type[]=a',
            '{"grant_type":1}',
          ]),
        ),
      ),
    oddPath: (): Case => keep('odd path', request('GET', pick(oddPaths), [full])),
    oddQuery: (): Case => keep('odd query', request('GET', `/api/v2/event-streams?${pick(oddQueries)}`, [full])),
    manyHeaders: (): Case => {
      const hs: [string, string][] = Array.from({ length: 60 }, (_, i) => [`X-Fuzz-${i}`, 'v'.repeat(rng.int(80))]);
      return keep('many headers', request('GET', pick(readPaths), [full, ...hs]));
    },
    bigHeader: (): Case =>
      keep('large header under the limit', request('GET', pick(readPaths), [full, ['X-Big', 'b'.repeat(6000)]])),
    oddHeaders: (): Case =>
      keep(
        'odd header values',
        request('GET', pick(readPaths), [
          full,
          pick<[string, string]>([
            ['Accept', '*/*;q=x'],
            ['Content-Type', ''],
            ['Content-Length', '0'],
            ['Accept-Encoding', 'br;q=2, *'],
            ['Expect', '100-continue'],
            ['Cookie', '=;=;'],
            ['X-Forwarded-For', 'not-an-ip'],
            ['Host', 'evil.example'],
            ['Authorization', 'Bearer x'],
            ['If-None-Match', '*'],
          ]),
        ]),
      ),
    getWithBody: (): Case => keep('GET with a body', request('GET', pick(readPaths), [full, json], '{"x":1}')),
    expectContinue: (): Case => {
      const [m, p] = pick(writeTargets);
      return keep(
        'Expect: 100-continue with a bad body',
        request(m, p, [full, json, ['Expect', '100-continue']], pick(badJson)),
      );
    },
    pipelined: (): Case => {
      const parts = Array.from({ length: 2 + rng.int(4) }, () =>
        pick([
          () => request('GET', pick(readPaths), [full]),
          () => request('GET', pick(readPaths), [bearer(pick(badTokens()))]),
          () => request('GET', pick(oddPaths), [full]),
          () => {
            const [m, p] = pick(writeTargets);
            return request(m, p, [full, json], pick(badJson));
          },
          () => request('HEAD', pick(readPaths), [full]),
        ])(),
      );
      return keep(
        `${parts.length} pipelined`,
        Buffer.concat(parts),
        parts.map((b) => b.toString('latin1').split(' ', 1)[0]!),
      );
    },
    // ---- inputs that may end their own connection
    badRequestLine: (): Case =>
      ends(
        'malformed request line',
        pick([
          'GARBAGE\r\n\r\n',
          'GET\r\n\r\n',
          'GET / HTTP/9.9\r\n\r\n',
          'GET /  HTTP/1.1\r\n\r\n',
          'FOO /api/v2 HTTP/1.1\r\nHost: x\r\n\r\n',
          'get /api/v2 HTTP/1.1\r\nHost: x\r\n\r\n',
          '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03',
          'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n',
          ' GET / HTTP/1.1\r\n\r\n',
        ]),
      ),
    badHeader: (): Case =>
      ends(
        'bad header',
        `GET /api/v2/event-streams HTTP/1.1\r\nHost: x\r\n${pick(['NoColon', 'Bad Name: x', 'X-A : x', '\x01: x', 'X-Fold: a\r\n  folded', ': empty-name', 'X-Nul: a\x00b', 'Content-Length: 1\r\nContent-Length: 2'])}\r\n\r\n`,
      ),
    oversizedHeader: (): Case =>
      ends(
        'oversized header',
        request('GET', '/api/v2/event-streams', [['X-Huge', 'h'.repeat(20_000 + rng.int(20_000))]]),
      ),
    oversizedBody: (): Case => {
      const [m, p] = pick(writeTargets);
      return ends(
        'body over the limit',
        request(m, p, [full, json], '"' + 'x'.repeat(BODY_LIMIT + 1 + rng.int(1000)) + '"'),
      );
    },
    lyingLength: (): Case => {
      const [m, p] = pick(writeTargets);
      return ends(
        'declared length over the limit',
        request(m, p, [full, json, ['Content-Length', String(BODY_LIMIT * 16)]], NO_BODY),
      );
    },
    badChunked: (): Case => {
      const [m, p] = pick(writeTargets);
      return ends(
        'bad chunked encoding',
        request(
          m,
          p,
          [full, json, ['Transfer-Encoding', 'chunked']],
          pick([
            'zz\r\n[]\r\n0\r\n\r\n',
            '2\r\n[]0\r\n\r\n',
            'ffffffffffffffffff\r\n[]\r\n',
            '2\r\n[]\r\n',
            '-1\r\n\r\n',
            '2;x=\x01\r\n[]\r\n0\r\n\r\n',
          ]),
        ),
      );
    },
    badLength: (): Case => {
      const [m, p] = pick(writeTargets);
      return ends(
        'bad Content-Length',
        request(
          m,
          p,
          [
            full,
            json,
            ...pick<[string, string][]>([
              [['Content-Length', 'abc']],
              [['Content-Length', '-1']],
              [
                ['Content-Length', '2'],
                ['Transfer-Encoding', 'chunked'],
              ],
              [['Content-Length', '1, 2']],
            ]),
          ],
          NO_BODY,
        ),
      );
    },
    truncated: (): Case =>
      ends('truncated request', request('GET', pick(readPaths), [full]).subarray(0, 10 + rng.int(30))),
    truncatedBody: (): Case => {
      const [m, p] = pick(writeTargets);
      return ends('truncated body', request(m, p, [full, json, ['Content-Length', '100']], '{"keys":'));
    },
    halfClosed: (): Case => ends('valid request then half-close', request('GET', pick(readPaths), [full])),
    connectionClose: (): Case =>
      ends('Connection: close', request('GET', pick(readPaths), [full, ['Connection', 'close']])),
    http10: (): Case =>
      ends(
        'HTTP/1.0',
        Buffer.from(`GET ${pick(readPaths)} HTTP/1.0\r\nAuthorization: Bearer ${t.full}\r\n\r\n`, 'latin1'),
      ),
    connectMethod: (): Case => ends('CONNECT', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n'),
    upgrade: (): Case =>
      ends('Upgrade', request('GET', pick(readPaths), [full, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']])),
    binary: (): Case => ends('random bytes', Buffer.from(Array.from({ length: 1 + rng.int(200) }, () => rng.int(256)))),
  };
}

/** Everything the fuzz must leave as it was, part by part. */
function digest(emu: RunningEmulator): Record<string, string> {
  const s = emu.app.emulator.state;
  const plain = (_k: string, v: unknown) => (v instanceof Map ? [...v.entries()] : v instanceof Set ? [...v] : v);
  const parts: Record<string, unknown> = {
    users: s.users,
    tokenSets: s.tokenSets,
    connections: s.connections,
    organizations: s.organizations,
    experiments: s.experiments,
    clientGrants: s.clientGrants,
    eventStreams: s.eventStreams,
    profiles: s.profiles,
    customText: s.customText,
    customSigningKeys: s.customSigningKeys,
    events: emu.app.emulator.events.position,
  };
  return Object.fromEntries(
    Object.entries(parts).map(([k, v]) => [
      k,
      createHash('sha256')
        .update(JSON.stringify(v, plain) ?? 'undefined')
        .digest('hex')
        .slice(0, 16),
    ]),
  );
}

test.describe('socket-level fuzzing @slow', () => {
  for (const SEED of [FIRST_SEED, FIRST_SEED + 1, FIRST_SEED + 2]) {
    test(`should answer ${MIN_REQUESTS}+ requests of bad input on ${CONCURRENCY} keep-alive connections with no 5xx, no reset, and no change (seed ${SEED})`, async () => {
      const emu = await startEmulator({
        rateLimit: { limit: 1_000_000_000, windowSeconds: 10 },
        bodyLimit: BODY_LIMIT,
      });
      try {
        const token = async (role: 'full' | 'limited') => {
          const c = emu.clients[role];
          const res = await fetch(`${emu.authUrl}/oauth/token/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              grant_type: 'client_credentials',
              client_id: c.clientId,
              client_secret: c.clientSecret,
              audience: emu.audience,
            }),
          });
          return ((await res.json()) as { access_token: string }).access_token;
        };
        const tokens = { full: await token('full'), limited: await token('limited') };
        const state = emu.app.emulator.state;
        const ids = {
          grant: emu.fixtures.clientGrantId,
          user: emu.fixtures.userId,
          profile: emu.fixtures.selfServiceProfileId,
          // An archived experiment accepts no move: no body can change it.
          archived: [...state.experiments.values()].find((e) => e.status === 'archived')!.id,
          stream: emu.fixtures.eventStreamIds[0]!,
        };
        const before = digest(emu);
        const port = Number(new URL(emu.authUrl).port);
        const rng = new Rng(SEED);
        const gen = generators(tokens, ids, rng);
        const keepKinds = Object.entries(gen).filter(([k]) =>
          [
            'valid',
            'badToken',
            'badScheme',
            'noToken',
            'badTokenRequest',
            'limited',
            'badJson',
            'badForm',
            'badMediaType',
            'chunkedBadJson',
            'oddMethod',
            'oddPath',
            'oddQuery',
            'manyHeaders',
            'bigHeader',
            'oddHeaders',
            'getWithBody',
            'expectContinue',
            'pipelined',
          ].includes(k),
        );
        const endKinds = Object.entries(gen).filter(([k]) => !keepKinds.some(([j]) => j === k));

        // The plan: a third valid reads, about one case in twelve ends its connection, the rest bad but well framed.
        const plans: Case[][] = Array.from({ length: CONCURRENCY }, () => []);
        let planned = 0;
        for (let i = 0; planned < MIN_REQUESTS; i++) {
          const r = rng.next();
          const c =
            r < 0.33
              ? gen.valid()
              : r < 0.92
                ? keepKinds[rng.int(keepKinds.length)]![1]()
                : endKinds[rng.int(endKinds.length)]![1]();
          plans[i % CONCURRENCY]!.push(c);
          planned += c.kind === 'keep' ? c.methods.length : 1;
        }

        const counts = {
          requests: 0,
          keepRequests: 0,
          endsCases: 0,
          byStatus: new Map<number, number>(),
          connections: 0,
          endsResets: 0,
          endsWithoutAnswer: 0,
        };
        const failures: string[] = [];
        const fiveHundreds: string[] = [];
        const note = (label: string, rs: Response[]) => {
          for (const r of rs) {
            counts.byStatus.set(r.status, (counts.byStatus.get(r.status) ?? 0) + 1);
            if (r.status >= 500) fiveHundreds.push(`${label}: ${r.status}`);
          }
        };

        const started = Date.now();
        await Promise.all(
          plans.map(async (plan) => {
            let conn: Connection | undefined;
            for (const c of plan) {
              if (conn === undefined) {
                conn = new Connection(port);
                counts.connections++;
              }
              if (c.kind === 'keep') {
                counts.requests += c.methods.length;
                counts.keepRequests += c.methods.length;
                try {
                  const rs = await conn.exchange(c);
                  note(c.label, rs);
                  const closing = rs.find((r) => r.headers['connection']?.toLowerCase() === 'close');
                  if (closing) throw new Error(`${c.label}: answered ${closing.status} with Connection: close`);
                } catch (e) {
                  failures.push(String(e instanceof Error ? e.message : e));
                  conn = undefined;
                }
              } else {
                counts.requests += 1;
                counts.endsCases += 1;
                const { responses, reset } = await conn.finish(c.bytes);
                note(c.label, responses);
                if (reset) counts.endsResets++;
                if (responses.length === 0) counts.endsWithoutAnswer++;
                conn = undefined;
              }
            }
            if (conn !== undefined) {
              if (!conn.open)
                failures.push(
                  `a connection was closed by the server after its last case (${conn.error?.code ?? 'end'})`,
                );
              await conn.close();
            }
          }),
        );
        const seconds = (Date.now() - started) / 1000;

        // Alive and unchanged.
        const alive = await fetch(`${emu.baseUrl}/client-grants/${ids.grant}`, {
          headers: { authorization: `Bearer ${tokens.full}` },
        });
        const after = digest(emu);
        const statuses = [...counts.byStatus.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}:${n}`)
          .join(' ');
        const report =
          `socket fuzz (seed ${SEED}): ${counts.requests} requests on ${CONCURRENCY} concurrent connections (${counts.connections} opened) in ${seconds.toFixed(1)} s; ` +
          `${counts.keepRequests} well-framed, ${counts.endsCases} ending their connection (${counts.endsResets} of those reset, ${counts.endsWithoutAnswer} closed without an answer); ` +
          `statuses ${statuses}; 5xx ${fiveHundreds.length}; errors on well-framed connections ${failures.length}`;
        test.info().annotations.push({ type: 'fuzz', description: report });
        process.stdout.write(`${report}\n`);

        expect(counts.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
        expect(fiveHundreds, fiveHundreds.slice(0, 10).join('\n')).toEqual([]);
        expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
        expect(counts.endsResets, 'connections the server reset instead of closing').toBe(0);
        expect(alive.status).toBe(200);
        expect(after, 'state digest after the fuzz').toEqual(before);
      } finally {
        await emu.close();
      }
    });
  }
});
