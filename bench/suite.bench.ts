/**
 * The full conformance run against the embedded emulator, cold (a new
 * Playwright process each time, which starts its own emulator), all checks,
 * default property runs: `npm run bench:suite`. Prints each wall time and
 * the median of BENCH_SUITE_RUNS (3) runs, and the number of checks.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median } from './stats.ts';

const RUNS = Number(process.env.BENCH_SUITE_RUNS ?? 3);
const walls: number[] = [];
let checks = 0;
for (let i = 0; i < RUNS; i++) {
  const env: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: '0' };
  for (const k of Object.keys(env)) if (k.startsWith('CONFORMANCE_')) delete env[k];
  const t0 = performance.now();
  const r = spawnSync('npx', ['playwright', 'test', '--reporter=json'], {
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: 'reports/bench-suite.json' },
    stdio: 'ignore',
  });
  walls.push((performance.now() - t0) / 1000);
  const stats = JSON.parse(readFileSync('reports/bench-suite.json', 'utf8')).stats as {
    expected: number;
    unexpected: number;
    skipped: number;
  };
  checks = stats.expected + stats.unexpected + stats.skipped;
  console.log(
    `run ${i + 1}: ${walls.at(-1)!.toFixed(1)} s wall, exit ${r.status}, ${stats.expected} passed, ${stats.unexpected} failed, ${stats.skipped} skipped`,
  );
  if (r.status !== 0) process.exitCode = 1;
}
console.log(`full conformance run: median ${median(walls).toFixed(1)} s wall over ${RUNS} cold runs, ${checks} checks`);
