/**
 * The suite's HTTP client sends what a check asks for, and keeps it as evidence: a body given in `chunks`
 * goes framed chunked (RFC 9112 7.1), one chunk per piece, with no Content-Length, and reaches the server
 * whole; its exchange shows Transfer-Encoding and the body, never the token. An answer in any content coding
 * the request accepted, or in none, reads as the same JSON; one its client cannot decode as its Content-Encoding
 * says is kept as evidence (`undecodable`), never thrown.
 */
import { expect, test } from '@playwright/test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { Api, CLIENT_ACCEPT_ENCODING } from '../../harness/requests/client.ts';
import type { Config } from '../../harness/run/config.ts';

interface Seen {
  headers: IncomingMessage['headers'];
  body: Buffer;
}

test('should send a body given in chunks framed chunked, with no Content-Length, whole, and show it in the exchange without the token', async () => {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dispatcher = new Agent();
  try {
    const { port } = server.address() as AddressInfo;
    const config = { baseUrl: `http://127.0.0.1:${port}/api/v2`, writes: 'disposable' } as Config;
    const api = new Api(dispatcher, config, 'secret-token');
    const body = '{"status":"ü-running"}';
    const bytes = Buffer.from(body, 'utf8');
    const ex = await api.put('/things/1', {
      chunks: [...bytes].map((b) => Buffer.from([b])),
      contentType: 'application/json',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['transfer-encoding']).toBe('chunked');
    expect(seen[0]!.headers['content-length']).toBeUndefined();
    expect(seen[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(seen[0]!.body.toString('utf8')).toBe(body);
    expect(ex.status).toBe(200);
    expect(ex.json).toEqual({ ok: true });
    expect(ex.requestHeaders).toEqual({ 'Transfer-Encoding': 'chunked' });
    expect(ex.requestBody).toBe(body);
    expect(JSON.stringify(ex)).not.toContain('secret-token');
  } finally {
    await dispatcher.close();
    await new Promise((r) => server.close(r));
  }
});

/** A server answering `{"ok":true}` coded as `reply` says, and what Accept-Encoding each request carried. */
async function codingServer(
  reply: (acceptEncoding: string) => { coding?: string; body: Buffer },
): Promise<{ baseUrl: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const accept = String(req.headers['accept-encoding'] ?? '');
    seen.push(accept);
    const { coding, body } = reply(accept);
    res
      .writeHead(200, { 'content-type': 'application/json', ...(coding ? { 'content-encoding': coding } : {}) })
      .end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/v2`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

const OK = Buffer.from('{"ok":true}', 'utf8');
const ENCODE: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

test('should read an answer in any coding the request accepted, or in none, as the same JSON value (RFC 9110 8.4, 12.5.3)', async () => {
  // A conforming server may compress or not, in any coding the request accepted: each reads alike.
  const server = await codingServer((accept) => {
    const coding = ['br', 'deflate', 'gzip'].find((c) => accept.split(',').some((a) => a.trim().startsWith(c)));
    return coding ? { coding, body: ENCODE[coding]!(OK) } : { body: OK };
  });
  const dispatcher = new Agent();
  try {
    const api = new Api(dispatcher, { baseUrl: server.baseUrl, writes: 'none' } as Config, 'secret-token');
    for (const accept of [undefined, 'gzip', 'deflate', 'br', 'identity']) {
      const ex = await api.get('/things/1', accept ? { headers: { 'accept-encoding': accept } } : {});
      expect(ex.undecodable, accept).toBeUndefined();
      expect(ex.json, accept).toEqual({ ok: true });
    }
    // The client's own Accept-Encoding, as Playwright's APIRequestContext sent it.
    expect(server.seen[0]).toBe(CLIENT_ACCEPT_ENCODING);
    // A HEAD carries the coding its content would have, and no content to decode.
    expect((await api.send('HEAD', '/things/1')).undecodable).toBeUndefined();
  } finally {
    await dispatcher.close();
    await server.close();
  }
});

test('should keep an answer that is not in the coding its Content-Encoding names, or in a coding not offered, as undecodable evidence, never throw', async () => {
  // Plain JSON labelled gzip (what a proxy that decompressed and kept the upstream's headers answers), gzip bytes
  // labelled br, and a coding the client never offered.
  const cases = [
    { coding: 'gzip', body: OK },
    { coding: 'br', body: gzipSync(OK) },
    { coding: 'zstd', body: OK },
  ];
  let i = 0;
  const server = await codingServer(() => cases[i]!);
  const dispatcher = new Agent();
  try {
    const api = new Api(dispatcher, { baseUrl: server.baseUrl, writes: 'none' } as Config, 'secret-token');
    for (; i < cases.length; i++) {
      // Not one of the operations' paths: the exchange comes back for the check to judge.
      const ex = await api.get('/things/1');
      expect(ex.undecodable, cases[i]!.coding).toContain(`Content-Encoding: ${cases[i]!.coding}`);
      expect(ex.json).toBeUndefined();
      expect(ex.text.length).toBeGreaterThan(0);
    }
  } finally {
    await dispatcher.close();
    await server.close();
  }
});
