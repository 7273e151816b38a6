/**
 * The SSE harness reads every line end the format allows (HTML, Server-sent
 * events, 9.2.5: end-of-line = ( cr lf / cr / lf )), and a message is read
 * when its blank line arrives, whatever ends its lines: a server that ends
 * them with CR alone and writes nothing after the message for a long time
 * is read as soon as it wrote it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { EVENTS_PATH, lineEndsAsLf, subscribe } from '../../harness/requests/sse.js';

test.describe('line ends of the events stream', () => {
  test('should turn CRLF, CR and LF into LF across chunk boundaries, a CR ending a chunk at once', () => {
    const lf = lineEndsAsLf();
    const chunks = ['event: a\r', '\nid: 1\r\rdata: x\r', '\r', '\n', 'data: y\n\r\n', '\r\n\r', 'data: z\r\r'];
    expect(chunks.map(lf)).toEqual([
      'event: a\n',
      'id: 1\n\ndata: x\n',
      '\n',
      '',
      'data: y\n\n',
      '\n\n',
      'data: z\n\n',
    ]);
  });

  let server: Server;
  let base: string;
  test.beforeAll(async () => {
    // Writes one message with every line ended by CR alone, then nothing until the client goes.
    server = createServer((req, res) => {
      if (!req.url?.startsWith(EVENTS_PATH)) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: offset-only\rid: djE6MQ\rdata: {"offset":"djE6MQ"}\r\r');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('should read a message ended by CR alone as soon as it was written', async () => {
    const conn = await subscribe(base, 'token', {});
    try {
      const m = await conn.waitFor((x) => x.event === 'offset-only', 2_000, 0, 'the heartbeat');
      expect(m.id).toBe('djE6MQ');
      expect(JSON.parse(m.data)).toEqual({ offset: 'djE6MQ' });
    } finally {
      conn.close();
    }
  });
});
