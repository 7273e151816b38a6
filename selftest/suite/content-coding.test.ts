/**
 * An answer its client cannot decode as its Content-Encoding says is the target's failure, not the suite's:
 * against the emulator with `transition-answer-content-encoding-passthrough` (a move answered 200 with
 * Content-Encoding: gzip over a plain JSON body), the moves check fails http.json-bodies ("All request and
 * response bodies are JSON unless stated") with the exchange as evidence, in the report's rule matrix, and no
 * decoder's exception breaks the check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import type { ConformanceReport } from '../../harness/verdicts/reporter.ts';
import { runSuite } from './run-suite.ts';

const FAULT = 'transition-answer-content-encoding-passthrough';

test('should fail http.json-bodies with the exchange as evidence for a success not in the coding its Content-Encoding names, never break the check', async () => {
  test.setTimeout(120_000);
  const emu = await startEmulator({ fault: FAULT });
  try {
    const run = await runSuite({ ...emu.env(), CONFORMANCE_EMBEDDED: '1' }, [
      'tests/experiments.spec.ts',
      '--grep',
      'after each accepted move',
      '--workers=1',
    ]);
    expect(run.code, run.output.slice(-3000)).toBe(1);
    const report = JSON.parse(readFileSync(join(run.reports, 'conformance.json'), 'utf8')) as ConformanceReport;
    const row = report.rules.find((r) => r.id === 'http.json-bodies');
    expect(row?.verdict, run.output.slice(-3000)).toBe('fail');
    const evidence = row!.evidence.join('\n');
    expect(evidence).toContain('Content-Encoding: gzip, and the body is not in gzip');
    expect(evidence).toMatch(/POST \/experimentation\/experiments\/[^ ]+\/status → 200/);
    expect(evidence).toContain('curl');
    expect(report.suiteDefects).toEqual([]);
    // The decoder's own error never reaches the check as an exception of its own.
    expect(run.output).not.toMatch(/Z_DATA_ERROR|^\s*Error: incorrect header check/m);
  } finally {
    await emu.close();
  }
});
