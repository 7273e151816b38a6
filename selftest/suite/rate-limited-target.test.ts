/**
 * Against a target that limits hard (4 requests per second for the run's
 * token, which both workers share), the suite honours 429 and
 * X-RateLimit-Remaining, and completes with no spurious failure (the read
 * checks of three areas, without CONFORMANCE_MAX_RPS: the target's own
 * headers pace it). The target is seen answering 429s, so the waits were
 * exercised; 4 per second rather than 2 proves the same in half the time
 * (at 2 the run mostly sleeps through windows).
 */
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { runSuite } from './run-suite.ts';

test.setTimeout(180_000);

test('should complete with no failure against a target allowing 4 requests per second', async () => {
  const emu = await startEmulator({ rateLimit: { limit: 4, windowSeconds: 1 } });
  // Counted on the socket: every answer the run received, 429s included.
  let tooMany = 0;
  emu.app.server.on('request', (_req, res) => res.on('finish', () => void (res.statusCode === 429 && tooMany++)));
  try {
    const env = emu.env();
    const run = await runSuite(
      {
        CONFORMANCE_BASE_URL: env.CONFORMANCE_BASE_URL!,
        CONFORMANCE_CLIENT_ID: env.CONFORMANCE_CLIENT_ID!,
        CONFORMANCE_CLIENT_SECRET: env.CONFORMANCE_CLIENT_SECRET!,
        CONFORMANCE_LIMITED_CLIENT_ID: env.CONFORMANCE_LIMITED_CLIENT_ID!,
        CONFORMANCE_LIMITED_CLIENT_SECRET: env.CONFORMANCE_LIMITED_CLIENT_SECRET!,
        CONFORMANCE_CLIENT_GRANT_ID: env.CONFORMANCE_CLIENT_GRANT_ID!,
        // No activity on this target: the passive event checks need not wait long to skip.
        CONFORMANCE_EVENTS_WAIT_MS: '1000',
      },
      ['--grep', '@client-grants|@token-sets|@sse'],
    );
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toMatch(/\d+ passed/);
    expect(run.output).not.toMatch(/^\s*\d+ failed/m);
    test.info().annotations.push({ type: '429 answers', description: String(tooMany) });
    expect(tooMany, 'the target refused some requests with 429: the suite met its limit').toBeGreaterThan(0);
  } finally {
    await emu.close();
  }
});
