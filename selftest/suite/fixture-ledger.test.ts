/**
 * Every run, not only the first: the experiments check run again and again
 * against one emulator whose table has final states (completed, archived)
 * keeps its verdict while a listed experiment still takes a move, then skips
 * with the used-up fixtures named; it never fails. A target that refuses
 * every move on experiments no run left anywhere still fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { runSuite } from './run-suite.ts';

const CHECK = ['tests/experiments.spec.ts', '--grep', 'after each accepted move', '--reporter=json', '--workers=1'];

interface Outcome {
  code: number | null;
  status: string;
  annotations: Array<{ type: string; description?: string }>;
}

async function once(env: Record<string, string>): Promise<Outcome> {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-ledger-')), 'results.json');
  const run = await runSuite({ ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: file }, CHECK);
  type Suite = {
    specs?: Array<{ tests: Array<{ status: string; annotations: Outcome['annotations'] }> }>;
    suites?: Suite[];
  };
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: Suite[] };
  const tests: Array<{ status: string; annotations: Outcome['annotations'] }> = [];
  const walk = (s: Suite) => {
    s.specs?.forEach((sp) => tests.push(...sp.tests));
    s.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  expect(tests, run.output.slice(-2000)).toHaveLength(1);
  return { code: run.code, status: tests[0]!.status, annotations: tests[0]!.annotations };
}

test('should keep the moves verdict over runs on one emulator, then skip on used-up experiments, never fail', async () => {
  test.setTimeout(300_000);
  const emu = await startEmulator({ variant: 'transition-table-terminal' });
  const state = mkdtempSync(join(tmpdir(), 'conformance-state-'));
  try {
    // Two ids: one no other check holds, tried first, and one held by other checks (the 2nd), tried after it.
    // More ids would only repeat the same step: each run uses up one, and the run after the last skips.
    const ids = emu.fixtures.experimentIds.slice(0, 2);
    const env = { ...emu.env(), CONFORMANCE_EXPERIMENT_IDS: ids.join(','), CONFORMANCE_STATE_DIR: state };
    const outcomes: Outcome[] = [];
    for (let run = 1; run <= 3; run++) outcomes.push(await once(env));
    const usedUp = (o: Outcome) => o.annotations.filter((a) => a.type === 'used-up-fixture').map((a) => a.description);
    // Runs 1-2 each find an experiment that still takes a move; run 2 names the one run 1 used up.
    expect(outcomes.slice(0, 2).map((o) => o.status)).toEqual(['expected', 'expected']);
    expect(usedUp(outcomes[0]!)).toEqual([]);
    expect(usedUp(outcomes[1]!)).toEqual([
      expect.stringContaining(`CONFORMANCE_EXPERIMENT_IDS: ${ids[0]} (left completed`),
    ]);
    // Run 3: every experiment used up by earlier runs: skipped with the reason, each named.
    expect(outcomes[2]!.status).toBe('skipped');
    expect(outcomes[2]!.code).toBe(0);
    expect(usedUp(outcomes[2]!)).toHaveLength(2);
    expect(usedUp(outcomes[2]!)).toEqual(
      expect.arrayContaining(
        ids.map((id) => expect.stringContaining(`CONFORMANCE_EXPERIMENT_IDS: ${id} (left completed`)),
      ),
    );
  } finally {
    rmSync(state, { recursive: true, force: true });
    await emu.close();
  }
});

test('should fail a target that refuses every move on experiments no run left anywhere', async () => {
  test.setTimeout(120_000);
  const emu = await startEmulator({ fault: 'transition-refuses-every-move' });
  const state = mkdtempSync(join(tmpdir(), 'conformance-state-'));
  try {
    const outcome = await once({
      ...emu.env(),
      CONFORMANCE_EXPERIMENT_IDS: emu.fixtures.experimentIds.slice(0, 2).join(','),
      CONFORMANCE_STATE_DIR: state,
    });
    expect(outcome.status).toBe('unexpected');
  } finally {
    rmSync(state, { recursive: true, force: true });
    await emu.close();
  }
});
