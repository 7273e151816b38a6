// Sums what the runs wrote into one closing line: "N passed, N failed, N skipped".
// Self-tests and the conformance run count their tests; verify counts one
// verdict per fault, per false-positive guard, the baseline and coverage.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
const missing = [];
for (const f of ['reports/selftest/results.json', 'reports/results.json']) {
  if (!existsSync(f)) {
    missing.push(f);
    continue;
  }
  const s = JSON.parse(readFileSync(f, 'utf8')).stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
}
if (existsSync('reports/verify/counts.json')) {
  const v = JSON.parse(readFileSync('reports/verify/counts.json', 'utf8'));
  passed += v.passed;
  failed += v.failed;
} else missing.push('reports/verify/counts.json');
for (const m of missing) {
  console.log(`missing ${m}: counted as one failure`);
  failed++;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
