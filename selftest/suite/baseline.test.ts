/**
 * The run-to-run difference (harness/verdicts/baseline.ts) and its gate:
 * three nightly runs against one emulator, a fault switched on through the
 * control surface before the second. With `--baseline` (the previous run)
 * and `--fail-on new`, the second exits 1 and names exactly the rules that
 * fault broke as new failures; the third changes nothing, exits 0 and still
 * lists them as failing, known and not new.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { difference, type ReportLike, type RunRecord } from '../../harness/verdicts/baseline.ts';
import type { Verdict } from '../../harness/verdicts/decide.ts';
import { runConformance } from './run-suite.ts';

const report = (verdicts: Record<string, Verdict>, evidence: Record<string, string[]> = {}): ReportLike => ({
  target: 'https://tenant.example/api/v2',
  embedded: false,
  startedAt: '2026-11-24T00:00:00.000Z',
  rules: Object.entries(verdicts).map(([id, verdict]) => ({ id, verdict, evidence: evidence[id] ?? [] })),
});
const run = (verdicts: Record<string, Verdict>): RunRecord => ({ target: 'x', startedAt: '', verdicts });

test.describe('the difference between two runs', () => {
  test('should tell new, fixed, known, no longer decided and changed evidence apart', () => {
    const before = report(
      { a: 'pass', b: 'fail', c: 'fail', d: 'pass', e: 'fail', f: 'skipped' },
      {
        c: ['Expected: status 404 for id 123\n  Check:       one check'],
        e: ['Expected: status 404\n  Check:       one check'],
      },
    );
    const now = report(
      { a: 'fail', b: 'pass', c: 'fail', d: 'skipped', e: 'fail', f: 'pass' },
      {
        // The same check and expectation with other generated values: not a change.
        c: ['Expected: status 404 for id 98765\n  Check:       one check'],
        e: ['Expected: status 401\n  Check:       another check'],
      },
    );
    const d = difference(now, { report: before, file: 'before.json', from: 'given' }, []);
    expect(d.newlyFailing).toEqual(['a']);
    // b was failing, f skipped: both pass now.
    expect(d.newlyPassing).toEqual(['b', 'f']);
    expect(d.stillFailing).toEqual(['c', 'e']);
    expect(d.evidenceChanged).toEqual(['e']);
    expect(d.newlyUndecided).toEqual([{ rule: 'd', was: 'pass', now: 'skipped' }]);
    expect(d.baseline?.sameTarget).toBe(true);
  });

  test('should count every failure as new without a baseline, and say why there is none', () => {
    const d = difference(report({ a: 'fail', b: 'pass' }), undefined, [], 'no earlier run kept in reports');
    expect(d.newlyFailing).toEqual(['a']);
    expect(d.none).toBe('no earlier run kept in reports');
  });

  test('should call a rule flapping when its verdict went between pass and fail twice over the kept runs', () => {
    const history = [
      run({ a: 'pass', b: 'pass', c: 'fail' }),
      run({ a: 'fail', b: 'skipped', c: 'fail' }),
      run({ a: 'pass', b: 'pass', c: 'pass' }),
    ];
    const d = difference(report({ a: 'pass', b: 'pass', c: 'pass' }), undefined, history);
    // a: pass → fail → pass flaps; b only went undecided once; c was fixed once.
    expect(d.flapping).toEqual([{ rule: 'a', verdicts: ['pass', 'fail', 'pass'] }]);
  });
});

test.describe.serial('three nights against one emulator', () => {
  test.setTimeout(240_000);
  type Conformance = { rules: Array<{ id: string; verdict: string }>; difference: Record<string, unknown> };
  const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Conformance;

  test('should gate on new failures only, and keep reporting the known ones', async () => {
    const emu = await startEmulator({ control: true, heartbeatMs: 250 });
    try {
      // What a tenant owner sets: target and credentials, read-only defaults; the control surface is the test's own.
      const all = emu.env();
      const env = Object.fromEntries(
        [
          'CONFORMANCE_BASE_URL',
          'CONFORMANCE_AUDIENCE',
          'CONFORMANCE_CLIENT_ID',
          'CONFORMANCE_CLIENT_SECRET',
          'CONFORMANCE_LIMITED_CLIENT_ID',
          'CONFORMANCE_LIMITED_CLIENT_SECRET',
          'CONFORMANCE_USER_ID',
          'CONFORMANCE_CLIENT_GRANT_ID',
        ].map((k) => [k, all[k]!]),
      );
      Object.assign(env, { CONFORMANCE_EVENTS_WAIT_MS: '1000' });
      const gate = (baseline: string) => ['--baseline', join(baseline, 'conformance.json'), '--fail-on', 'new'];

      const first = await runConformance(env);
      expect(first.code, first.output.slice(-3000)).toBe(0);
      expect(read(first.reports).rules.filter((r) => r.verdict === 'fail')).toEqual([]);

      const on = await fetch(`${emu.controlUrl}/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ faults: ['token-sets-status-201'] }),
      });
      expect(on.status).toBe(200);

      const second = await runConformance(env, gate(first.reports));
      expect(second.code, second.output.slice(-3000)).toBe(1);
      const broken = read(second.reports)
        .rules.filter((r) => r.verdict === 'fail')
        .map((r) => r.id);
      expect(broken).toContain('token-sets.list.success');
      expect(read(second.reports).difference['newlyFailing']).toEqual(broken);
      expect(readFileSync(join(second.reports, 'conformance.md'), 'utf8')).toContain('**Newly failing**');

      const third = await runConformance(env, gate(second.reports));
      expect(third.code, third.output.slice(-3000)).toBe(0);
      const d = read(third.reports).difference;
      expect(d['newlyFailing']).toEqual([]);
      expect(d['stillFailing']).toEqual(broken);
      expect(third.output).toContain('none of them new since the baseline; exit 0');

      // The same verdicts from the reports alone (the nightly workflow's gate after merging shards).
      const summary = join(third.reports, 'summary.md');
      const gated = async (reports: string) =>
        runConformance({}, ['gate', '--reports', reports, '--fail-on', 'new', '--summary', summary]);
      expect((await gated(second.reports)).code).toBe(1);
      const passed = await gated(third.reports);
      expect(passed.code, passed.output).toBe(0);
      const text = readFileSync(summary, 'utf8');
      expect(text).toContain('none new since the baseline');
      expect(text.indexOf('## Since the baseline')).toBeLessThan(
        text.indexOf('# Conformance report', text.indexOf('passed;')),
      );
    } finally {
      await emu.close();
    }
  });
});
