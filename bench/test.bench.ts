/**
 * `npm test`, timed phase by phase: `npm run bench:test -- --runs 3`.
 * Not part of `npm run bench`: one run takes minutes.
 *
 * Runs the three steps of `npm test` as it does, one after the other, each
 * a new process (typecheck, the self-tests, `npm run verify`), and prints
 * each step's wall time and the total per run, then their medians with min
 * and max. Stops at the first step that fails, as `npm test` does.
 *
 * Options: --runs N (1).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spread } from './stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const RUNS = Math.max(1, Number(values.runs) || 1);
const ROOT = resolve(import.meta.dirname, '..');

/** The steps of the package's `test` script, in order. */
const STEPS: Array<[string, string[]]> = [
  ['typecheck', ['run', '--silent', 'typecheck']],
  ['self-tests', ['exec', '--', 'playwright', 'test', '--config', 'selftest/playwright.config.ts', '--reporter=dot']],
  ['verify', ['run', '--silent', 'verify']],
];

const times = new Map<string, number[]>([...STEPS.map(([name]) => [name, []] as [string, number[]]), ['npm test', []]]);
console.log(`npm test: ${RUNS} run${RUNS > 1 ? 's' : ''}, node ${process.versions.node}`);
for (let i = 0; i < RUNS; i++) {
  let total = 0;
  for (const [name, args] of STEPS) {
    const t0 = performance.now();
    const r = spawnSync('npm', args, {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const s = (performance.now() - t0) / 1000;
    total += s;
    times.get(name)!.push(s);
    console.log(`  run ${i + 1}: ${name} ${s.toFixed(1)} s${r.status === 0 ? '' : ` (exit ${r.status})`}`);
    if (r.status !== 0) {
      process.exitCode = 1;
      break;
    }
  }
  if (process.exitCode) break;
  times.get('npm test')!.push(total);
  console.log(`  run ${i + 1}: npm test ${total.toFixed(1)} s`);
}
for (const [name, xs] of times) if (xs.length) console.log(`${name.padEnd(10)} ${spread(xs)}`);
