/**
 * The suite's HTTP client sends what a check asks for, and keeps it as evidence: a body given in `chunks`
 * goes framed chunked (RFC 9112 7.1), one chunk per piece, with no Content-Length, and reaches the server
 * whole; its exchange shows Transfer-Encoding and the body, never the token.
 */
import { expect, test } from '@playwright/test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { Api } from '../../harness/requests/client.ts';
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
