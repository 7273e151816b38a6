/**
 * `npm run verify`: the suite proves itself against its own emulator.
 *
 * 1. Baseline: the whole suite against the fault-free emulator must pass.
 * 2. False-positive guards: the whole suite against each variant of the
 *    emulator (differing only where the document is silent) must pass.
 * 3. Mutation sweep: for each fault of the catalogue (emulator/faults.ts),
 *    an emulator with that one fault, and only the checks tagged with the
 *    fault's rule (`--grep @rule:<id>`). The fault is caught when a check
 *    fails naming that rule (`✗ <rule>` in its failure).
 * 4. Rule coverage: for every must rule, its checks and faults, gaps named.
 *
 * Writes reports/verify/verify.json and verify.md; exits 1 unless every
 * fault is caught and every guard passes.
 *
 * Options: --fault NAME (repeatable), --variant NAME (repeatable),
 * --quick (one fault per rule, no guards), --no-guards, --jobs N.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { faults, type Fault } from '../emulator/faults.ts';
import { startEmulator } from '../emulator/index.ts';
import { variants } from '../emulator/variants.ts';
import { RULE_MARK } from '../harness/checks.ts';
import { coverage, formatCoverage, listChecks } from './coverage.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'reports', 'verify');

interface RunResult {
  passed: number;
  failed: number;
  skipped: number;
  /** Failed tests: title and the rule ids their failures name. */
  failures: Array<{ title: string; rules: string[] }>;
  wallMs: number;
}

/** Runs the Playwright suite against an emulator started with the given options. */
async function runSuite(opts: { fault?: string; variant?: string; grep?: string }): Promise<RunResult> {
  // '' rather than undefined: an EMULATOR_FAULT or EMULATOR_VARIANT in the environment must not reach the baseline.
  const emu = await startEmulator({ control: true, heartbeatMs: 250, fault: opts.fault ?? '', variant: opts.variant ?? '' });
  const file = join(tmpdir(), `conformance-verify-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const started = Date.now();
  try {
    // Each run its own output folder: Playwright empties it at start, and runs go two at a time.
    const args = ['playwright', 'test', '--reporter=json', '--workers=2', '--output', `${file}.artifacts`];
    if (opts.grep) args.push('--grep', opts.grep);
    const env = { ...process.env, ...emu.env(), CONFORMANCE_EMBEDDED: '1', PLAYWRIGHT_JSON_OUTPUT_FILE: file, FORCE_COLOR: '0' };
    const code = await new Promise<number>((res, rej) => {
      const child = spawn('npx', args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err = (err + String(d)).slice(-4000)));
      child.on('error', rej);
      child.on('exit', (c) => {
        if (c !== 0 && c !== 1) rej(new Error(`playwright exited ${c}: ${err}`));
        else res(c ?? 1);
      });
    });
    const report = JSON.parse(readFileSync(file, 'utf8')) as PwReport;
    const result = summarise(report);
    result.wallMs = Date.now() - started;
    if (code === 1 && result.failed === 0 && (report.errors?.length ?? 0) > 0) {
      throw new Error(`the suite did not run: ${report.errors!.map((e) => e.message).join('; ').slice(0, 500)}`);
    }
    return result;
  } finally {
    rmSync(file, { force: true });
    rmSync(`${file}.artifacts`, { recursive: true, force: true });
    await emu.close();
  }
}

interface PwResult { status: string; errors?: Array<{ message?: string }> }
interface PwTest { status: string; results: PwResult[] }
interface PwSpec { title: string; tests: PwTest[] }
interface PwSuite { title: string; specs?: PwSpec[]; suites?: PwSuite[] }
interface PwReport { suites: PwSuite[]; errors?: Array<{ message: string }> }

function summarise(report: PwReport): RunResult {
  const r: RunResult = { passed: 0, failed: 0, skipped: 0, failures: [], wallMs: 0 };
  const walk = (s: PwSuite, path: string[]) => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === 'skipped') r.skipped++;
        else if (t.status === 'expected' || t.status === 'flaky') r.passed++;
        else {
          r.failed++;
          const text = t.results.flatMap((x) => x.errors ?? []).map((e) => e.message ?? '').join('\n');
          const named = [...text.matchAll(new RegExp(`${RULE_MARK} ([a-z0-9.-]+) \\(`, 'g'))].map((m) => m[1]!);
          r.failures.push({ title: [...path, spec.title].filter(Boolean).join(' › '), rules: [...new Set(named)] });
        }
      }
    }
    for (const sub of s.suites ?? []) walk(sub, [...path, sub.title]);
  };
  report.suites.forEach((s) => walk(s, []));
  return r;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const grepForRule = (rule: string) => `@rule:${escape(rule)}(?![\\w.-])`;

async function pool<T, R>(items: T[], jobs: number, fn: (t: T) => Promise<R>, onDone: (t: T, r: R, i: number) => void): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
        onDone(items[i]!, out[i]!, ++done);
      }
    }),
  );
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      quick: { type: 'boolean', default: false },
      'no-guards': { type: 'boolean', default: false },
      jobs: { type: 'string', default: '2' },
    },
  });
  const jobs = Math.max(1, Number(values.jobs) || 2);
  const t0 = Date.now();
  mkdirSync(OUT, { recursive: true });

  let selected: readonly Fault[] = faults;
  if (values.fault?.length) {
    const unknown = values.fault.filter((f) => !faults.some((x) => x.name === f));
    if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')}`);
    selected = faults.filter((f) => values.fault!.includes(f.name));
  } else if (values.quick) {
    const seen = new Set<string>();
    selected = faults.filter((f) => !seen.has(f.rule) && seen.add(f.rule));
  }
  const runGuards = !values['no-guards'] && !values.quick && !values.fault?.length;
  const selectedVariants = values.variant?.length ? variants.filter((v) => values.variant!.includes(v.name)) : runGuards ? variants : [];

  console.log(`verify: baseline, ${selectedVariants.length} false-positive guards, ${selected.length} faults (${jobs} at a time)\n`);

  const baseline = await runSuite({});
  console.log(`baseline (fault-free emulator): ${baseline.passed} passed, ${baseline.failed} failed, ${baseline.skipped} skipped (${(baseline.wallMs / 1000).toFixed(1)} s)`);
  for (const f of baseline.failures) console.log(`  ✗ ${f.title} [${f.rules.join(', ')}]`);

  const guards = await pool([...selectedVariants], jobs, (v) => runSuite({ variant: v.name }), (v, r) =>
    console.log(`guard ${v.name.padEnd(28)} ${r.failed === 0 ? 'pass' : 'FAIL'}: ${r.passed} passed, ${r.failed} failed${r.failures.length ? `\n${r.failures.map((f) => `  ✗ ${f.title} [${f.rules.join(', ')}]`).join('\n')}` : ''}`),
  );

  const sweep = await pool([...selected], jobs, (f) => runSuite({ fault: f.name, grep: grepForRule(f.rule) }), (f, r, i) => {
    const caughtBy = r.failures.filter((x) => x.rules.includes(f.rule));
    console.log(`[${String(i).padStart(3)}/${selected.length}] ${caughtBy.length ? 'caught ' : 'MISSED '} ${f.name.padEnd(40)} ${f.rule}${caughtBy.length ? '' : `  (${r.passed} passed, ${r.failed} failed: ${r.failures.map((x) => x.rules.join('+')).join('; ') || 'no failure'})`}`);
  });

  const rows = selected.map((f, i) => {
    const r = sweep[i]!;
    return { fault: f.name, rule: f.rule, how: f.how, caughtBy: r.failures.filter((x) => x.rules.includes(f.rule)).map((x) => x.title), otherFailures: r.failures.filter((x) => !x.rules.includes(f.rule)).map((x) => x.title), checksRun: r.passed + r.failed };
  });
  const caught = rows.filter((r) => r.caughtBy.length > 0).length;
  const score = selected.length ? (100 * caught) / selected.length : 100;

  const checks = await listChecks(ROOT);
  const cov = coverage(checks, faults);
  const wallMs = Date.now() - t0;

  const summary = {
    baseline: { passed: baseline.passed, failed: baseline.failed, skipped: baseline.skipped, failures: baseline.failures },
    guards: selectedVariants.map((v, i) => ({ variant: v.name, differs: v.differs, passed: guards[i]!.passed, failed: guards[i]!.failed, failures: guards[i]!.failures })),
    faults: rows,
    mutationScore: score,
    coverage: cov,
    wallMs,
  };
  writeFileSync(join(OUT, 'verify.json'), JSON.stringify(summary, null, 2));
  writeFileSync(join(OUT, 'verify.md'), markdown(summary, rows));

  console.log(`\n${'fault'.padEnd(40)} ${'rule'.padEnd(46)} caught by`);
  for (const r of rows) console.log(`${r.fault.padEnd(40)} ${r.rule.padEnd(46)} ${r.caughtBy.length ? r.caughtBy.map((t) => t.split(' › ').at(-1)).join('; ') : '— MISSED'}`);
  console.log(`\n${formatCoverage(cov)}`);
  console.log(`\nmutation score: ${caught}/${selected.length} faults caught (${score.toFixed(1)}%)`);
  const guardFailures = summary.guards.filter((g) => g.failed > 0);
  console.log(`false-positive guards: ${summary.guards.length - guardFailures.length}/${summary.guards.length} pass`);
  console.log(`wall time: ${(wallMs / 1000).toFixed(1)} s   report: reports/verify/verify.md`);

  // The counts line CI reads: each baseline/guard run and each fault is one verdict.
  const unjustified = cov.gaps.filter((g) => !g.justified);
  if (unjustified.length) console.log(`unjustified coverage gaps: ${unjustified.length}`);
  const passed = (baseline.failed === 0 ? 1 : 0) + (summary.guards.length - guardFailures.length) + caught + (unjustified.length ? 0 : 1);
  const failed = (baseline.failed === 0 ? 0 : 1) + guardFailures.length + (selected.length - caught) + (unjustified.length ? 1 : 0);
  writeFileSync(join(OUT, 'counts.json'), JSON.stringify({ passed, failed }));
  process.exitCode = failed === 0 ? 0 : 1;
}

function markdown(s: { baseline: { passed: number; failed: number }; guards: Array<{ variant: string; differs: string; passed: number; failed: number }>; mutationScore: number; coverage: ReturnType<typeof coverage>; wallMs: number }, rows: Array<{ fault: string; rule: string; how: string; caughtBy: string[] }>): string {
  const lines = [
    '# Verify: the suite against its own emulator',
    '',
    `Baseline (fault-free): ${s.baseline.passed} passed, ${s.baseline.failed} failed.`,
    `Mutation score: **${s.mutationScore.toFixed(1)}%** (${rows.filter((r) => r.caughtBy.length).length}/${rows.length} faults caught).`,
    `Wall time: ${(s.wallMs / 1000).toFixed(1)} s.`,
    '',
    '## False-positive guards',
    '',
    '| variant | differs where the document is silent | result |',
    '|---|---|---|',
    ...s.guards.map((g) => `| ${g.variant} | ${g.differs} | ${g.failed === 0 ? 'pass' : `**${g.failed} failed**`} |`),
    '',
    '## Faults',
    '',
    '| fault | rule | how | caught by |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.fault} | ${r.rule} | ${r.how} | ${r.caughtBy.length ? r.caughtBy.map((t) => t.split(' › ').at(-1)).join('<br>') : '**missed**'} |`),
    '',
    '## Rule coverage',
    '',
    '| rule | level | checks | faults |',
    '|---|---|---|---|',
    ...s.coverage.rules.map((c) => `| ${c.id} | ${c.level} | ${c.checks} | ${c.faults.join(', ') || (c.level === 'must' ? `**none**${c.gap ? `: ${c.gap}` : ''}` : '—')} |`),
    '',
  ];
  return lines.join('\n');
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  main().catch((e) => {
    console.error(`verify: ${(e as Error).stack ?? e}`);
    process.exit(2);
  });
}
