/**
 * The passive event checks (CONFORMANCE_EVENTS_TRIGGER=none): the suite
 * causes nothing and checks what arrives. Here a background injector stands
 * for the tenant's own activity (the emulator's control endpoint, every
 * 100 ms). They pass on the fault-free emulator and fail, naming the rule,
 * on one that breaks it (each fault run takes only the check of its rule).
 * One worker: two checks waiting on the stream gain nothing from a second.
 */
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { runSuite } from './run-suite.ts';

test.setTimeout(120_000);

const PASSIVE = {
  messages: 'should send only well-formed messages for whatever arrives \\(passive\\)',
  resume: 'should resume after an offset with nothing lost, repeated or reordered \\(passive\\)',
};

async function passiveRun(grep: string, fault?: string): Promise<{ code: number | null; output: string }> {
  const emu = await startEmulator({ control: true, heartbeatMs: 250, fault: fault ?? '' });
  const inject = () =>
    fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'group.created' }),
    }).catch(() => undefined);
  const timer = setInterval(inject, 100);
  try {
    const env = emu.env();
    return await runSuite(
      { ...env, CONFORMANCE_EVENTS_TRIGGER: 'none', CONFORMANCE_EVENTS_WAIT_MS: '10000', CONFORMANCE_EMBEDDED: '1' },
      ['--grep', grep, '--workers', '1'],
    );
  } finally {
    clearInterval(timer);
    await emu.close();
  }
}

test('should pass the passive checks on a conforming target with activity', async () => {
  const run = await passiveRun(`${PASSIVE.messages}|${PASSIVE.resume}`);
  expect(run.code, run.output.slice(-3000)).toBe(0);
  expect(run.output).toMatch(/2 passed/);
});

for (const [fault, rule, check] of [
  ['payload-type-mismatch', 'events.payload.type-matches', PASSIVE.messages],
  ['resume-repeats-event-k', 'events.resume.no-duplicate', PASSIVE.resume],
  ['resume-loses-event-k1', 'events.resume.no-loss', PASSIVE.resume],
  // Live events on a resumed stream sent twice: the activity after the resumption shows it.
  ['resumed-stream-live-events-twice', 'events.resume.no-duplicate', PASSIVE.resume],
] as const) {
  test(`should fail the passive checks on the fault ${fault}`, async () => {
    const run = await passiveRun(check, fault);
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toMatch(/1 failed/);
    expect(run.output).toContain(`✗ ${rule} (must)`);
  });
}
