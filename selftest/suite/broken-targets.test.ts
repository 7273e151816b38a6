/**
 * A broken target is reported as one clear message and a non-zero exit
 * within a bounded time, not as a hundred failures.
 */
import { createServer, type Server } from 'node:net';
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { runSuite } from './run-suite.ts';

test.setTimeout(90_000);

/** A TCP server on 127.0.0.1; `mode` says what it does with a connection. */
async function tcpServer(mode: 'silent' | 'garbage'): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    if (mode === 'garbage') s.end('HTTP/1.1 200 OK\r\n\r\nnot tls at all');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise((r) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}

async function closedPort(): Promise<number> {
  const s = await tcpServer('silent');
  await s.close();
  return s.port;
}

const BOUND_MS = 30_000;

function expectOneClearMessage(run: { code: number | null; output: string; ms: number }, message: RegExp): void {
  expect(run.code, run.output.slice(-2000)).not.toBe(0);
  expect(run.output).toMatch(message);
  expect(run.output).toContain('The run did not start');
  expect(run.output).not.toMatch(/^\s*\d+ failed/m);
  expect(run.ms).toBeLessThan(BOUND_MS);
}

test('should report an unreachable base URL', async () => {
  const port = await closedPort();
  const run = await runSuite({ CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/api/v2`, CONFORMANCE_TOKEN: 'a.b.c' });
  expectOneClearMessage(run, /Nothing listens at 127\.0\.0\.1:\d+ \(connection refused\)/);
});

test('should report a TLS error', async () => {
  const srv = await tcpServer('garbage');
  try {
    const run = await runSuite({
      CONFORMANCE_BASE_URL: `https://127.0.0.1:${srv.port}/api/v2`,
      CONFORMANCE_TOKEN: 'a.b.c',
    });
    expectOneClearMessage(run, /TLS handshake with 127\.0\.0\.1:\d+ failed/);
  } finally {
    await srv.close();
  }
});

test('should report a target that hangs', async () => {
  const srv = await tcpServer('silent');
  try {
    const run = await runSuite({
      CONFORMANCE_BASE_URL: `http://127.0.0.1:${srv.port}/api/v2`,
      CONFORMANCE_TOKEN: 'a.b.c',
      CONFORMANCE_TIMEOUT_MS: '3000',
    });
    expectOneClearMessage(run, /did not answer in time/);
  } finally {
    await srv.close();
  }
});

test('should report a token endpoint that rejects the credentials', async () => {
  const emu = await startEmulator();
  try {
    const run = await runSuite({ ...emu.env(), CONFORMANCE_CLIENT_SECRET: 'wrong-secret' });
    expectOneClearMessage(run, /refused the main client credentials \(status 401/);
    expect(run.output).not.toContain('wrong-secret');
  } finally {
    await emu.close();
  }
});

test('should tell a target that refuses a token holding the scope apart from a token without it', async () => {
  // The fault reads the scope claim as a comma-separated list: the run's token, holding read:event_streams, gets 403.
  const emu = await startEmulator({ fault: 'scope-claim-split-on-comma' });
  try {
    const run = await runSuite(emu.env());
    expectOneClearMessage(run, /although its scope claim holds read:event_streams.*oauth\.token\.accepted/);
    expect(run.output).not.toContain('lacks the in-scope scopes');
  } finally {
    await emu.close();
  }
});

test('should report a token that lacks the in-scope scopes', async () => {
  const emu = await startEmulator();
  try {
    const env = emu.env();
    const run = await runSuite({
      ...env,
      CONFORMANCE_CLIENT_ID: env.CONFORMANCE_LIMITED_CLIENT_ID!,
      CONFORMANCE_CLIENT_SECRET: env.CONFORMANCE_LIMITED_CLIENT_SECRET!,
    });
    expectOneClearMessage(run, /lacks the in-scope scopes/);
  } finally {
    await emu.close();
  }
});
