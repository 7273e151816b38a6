/**
 * The passive event checks (CONFORMANCE_EVENTS_TRIGGER=none): the suite
 * causes nothing and checks what arrives. Here a background injector stands
 * for the tenant's own activity (the emulator's control endpoint, every
 * 100 ms). They pass on the fault-free emulator and fail, naming the rule,
 * on one that breaks it.
 */
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { runSuite } from './run-suite.ts';

test.setTimeout(120_000);

async function passiveRun(fault?: string): Promise<{ code: number | null; output: string }> {
  const emu = await startEmulator({ control: true, heartbeatMs: 250, fault: fault ?? '' });
  const inject = () => fetch(`${emu.controlUrl}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'group.created' }) }).catch(() => undefined);
  const timer = setInterval(inject, 100);
  try {
    const env = emu.env();
    return await runSuite(
      { ...env, CONFORMANCE_EVENTS_TRIGGER: 'none', CONFORMANCE_EVENTS_WAIT_MS: '10000', CONFORMANCE_EMBEDDED: '1' },
      ['--grep', '\\(passive\\)'],
    );
  } finally {
    clearInterval(timer);
    await emu.close();
  }
}

test('should pass the passive checks on a conforming target with activity', async () => {
  const run = await passiveRun();
  expect(run.code, run.output.slice(-3000)).toBe(0);
  expect(run.output).toMatch(/2 passed/);
});

for (const [fault, rule] of [
  ['payload-type-mismatch', 'events.payload.type-matches'],
  ['resume-repeats-event-k', 'events.resume.no-duplicate'],
  ['resume-loses-event-k1', 'events.resume.no-loss'],
] as const) {
  test(`should fail the passive checks on the fault ${fault}`, async () => {
    const run = await passiveRun(fault);
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(run.output).toContain(`✗ ${rule} (must)`);
  });
}
