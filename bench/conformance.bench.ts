/**
 * `npm run conformance` as a user runs it, timed: `npm run bench:conformance`.
 *
 * Each run is the whole command as a new process (npm, harness/run/command.ts,
 * Playwright, its global setup starting the embedded emulator, workers,
 * every reporter), its wall time from node's clock. From the run's output
 * and results.json, also where that time went: start-up until the global
 * setup had its target (the "Conformance run" banner: processes, config,
 * test files, the emulator), then until the first check began (token,
 * preflight, a worker's start), the checks (first start to last end), and
 * what followed (reports, exit); and the checks' own time summed over workers.
 *
 * Options: --runs N (5); --against DIR: another checkout of this project,
 * run alternately with this one (A B A B ...) so that both see the same
 * machine, each with its own medians.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spread } from './stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, against: { type: 'string' } } });
const RUNS = Math.max(1, Number(values.runs) || 5);
const ROOT = resolve(import.meta.dirname, '..');
const dirs = [ROOT, ...(values.against ? [resolve(values.against)] : [])];

interface Run {
  wall: number;
  setup: number;
  startup: number;
  checks: number;
  after: number;
  checkTime: number;
}

interface Result {
  duration: number;
  startTime: string;
}
interface Suite {
  specs?: Array<{ tests: Array<{ results: Result[] }> }>;
  suites?: Suite[];
}

async function once(dir: string): Promise<Run> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-conformance-'));
  try {
    const env: Record<string, string | undefined> = {
      ...process.env,
      FORCE_COLOR: '0',
      CONFORMANCE_REPORTS_DIR: reports,
    };
    // The embedded emulator: no target of the caller's environment.
    for (const k of Object.keys(env))
      if (k.startsWith('CONFORMANCE_') && k !== 'CONFORMANCE_REPORTS_DIR') delete env[k];
    const t0 = performance.now();
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', 'conformance'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let setup = 0;
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      if (setup) return;
      out += String(d);
      if (out.includes('Conformance run')) setup = performance.now() - t0;
    });
    const code = await new Promise<number | null>((res) => child.on('exit', res));
    const wall = performance.now() - t0;
    if (code !== 0) throw new Error(`npm run conformance in ${dir} exited ${code}`);
    const report = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as { suites: Suite[] };
    const results: Result[] = [];
    const walk = (s: Suite) => {
      for (const spec of s.specs ?? []) for (const t of spec.tests) results.push(...t.results);
      (s.suites ?? []).forEach(walk);
    };
    report.suites.forEach(walk);
    const first = Math.min(...results.map((x) => Date.parse(x.startTime))) - started;
    const last = Math.max(...results.map((x) => Date.parse(x.startTime) + x.duration)) - started;
    return {
      wall,
      setup,
      startup: first - setup,
      checks: last - first,
      after: wall - last,
      checkTime: results.reduce((a, x) => a + x.duration, 0),
    };
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

const runs = new Map<string, Run[]>(dirs.map((d) => [d, []]));
console.log(
  `npm run conformance: ${RUNS} runs${dirs.length > 1 ? ` each, alternating ${dirs.join(' and ')}` : ''}, node ${process.versions.node}`,
);
for (let i = 0; i < RUNS; i++) {
  for (const dir of i % 2 ? [...dirs].reverse() : dirs) {
    const r = await once(dir);
    runs.get(dir)!.push(r);
    const s = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      `  ${dirs.length > 1 ? `${dir} ` : ''}run ${i + 1}: ${s(r.wall)} s wall = to the setup's target ${s(r.setup)} + to the first check ${s(r.startup)} + checks ${s(r.checks)} + after ${s(r.after)}; ${s(r.checkTime)} s in checks over all workers`,
    );
  }
}
for (const [dir, rs] of runs) {
  const col = (f: (r: Run) => number) => spread(rs.map((r) => f(r) / 1000));
  console.log(`\n${dirs.length > 1 ? `${dir}\n` : ''}npm run conformance wall: ${col((r) => r.wall)}`);
  console.log(`  to the setup's target:       ${col((r) => r.setup)}`);
  console.log(`  then to the first check:     ${col((r) => r.startup)}`);
  console.log(`  first check to the last:     ${col((r) => r.checks)}`);
  console.log(`  after the last check:        ${col((r) => r.after)}`);
  console.log(`  time in checks, all workers: ${col((r) => r.checkTime)}`);
}
