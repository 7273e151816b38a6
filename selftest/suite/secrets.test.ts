/**
 * No secret in any output: runs the whole suite against an emulator with a
 * token and client secrets this test knows, then searches the console
 * output and every file the run wrote (reports, html report unpacked,
 * junit, json, artifacts) for them.
 */
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { requestToken } from '../../harness/requests/tokens.ts';
import { everythingWritten, runSuite } from './run-suite.ts';

test.setTimeout(180_000);

/** A token for one of the emulator's clients, through the suite's own token request. */
async function token(
  emu: Awaited<ReturnType<typeof startEmulator>>,
  c: { clientId: string; clientSecret: string },
): Promise<string> {
  return ((await requestToken(emu, c)).json as { access_token: string }).access_token;
}

test('should write no token and no client secret anywhere', async () => {
  const emu = await startEmulator({ control: true, heartbeatMs: 250 });
  try {
    const main = await token(emu, emu.clients.full);
    const limited = await token(emu, emu.clients.limited);
    const run = await runSuite({
      ...emu.env(),
      CONFORMANCE_EMBEDDED: '1',
      CONFORMANCE_TOKEN: main,
      CONFORMANCE_LIMITED_TOKEN: limited,
    });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const secrets: Record<string, string> = {
      'main token': main,
      'main token signature': main.split('.')[2]!,
      'limited token': limited,
      'limited token signature': limited.split('.')[2]!,
      'client secret': emu.clients.full.clientSecret,
      'limited client secret': emu.clients.limited.clientSecret,
      'rate-limit client secret': emu.clients.rateLimited.clientSecret,
    };
    const written = await everythingWritten(run.reports);
    expect(written.length).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const [what, secret] of Object.entries(secrets)) {
      if (run.output.includes(secret)) leaks.push(`${what} in the console output`);
      for (const f of written) if (f.text.includes(secret)) leaks.push(`${what} in ${f.file}`);
    }
    test.info().annotations.push({
      type: 'scanned',
      description: `${written.length} files and archive entries, ${run.output.length} characters of console output, ${Object.keys(secrets).length} secrets`,
    });
    expect(leaks).toEqual([]);
  } finally {
    await emu.close();
  }
});
