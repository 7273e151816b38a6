// Sums what the runs wrote into one closing line: "N passed, N failed, N skipped".
// Self-tests and the conformance run count their tests; verify counts one
// verdict per fault, per false-positive guard, the baseline and coverage.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
const missing = [];
/** What failed, named, printed before the counts: the end of a CI log says what went red. */
const failures = [];

/** The titles of a Playwright JSON report's tests whose outcome was unexpected. */
function unexpected(suite, path = []) {
  const here = suite.title ? [...path, suite.title] : path;
  return [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.some((t) => t.status === 'unexpected') ? [[...here, spec.title].join(' › ')] : [],
    ),
    ...(suite.suites ?? []).flatMap((s) => unexpected(s, here)),
  ];
}

for (const f of ['reports/selftest/results.json', 'reports/results.json']) {
  if (!existsSync(f)) {
    missing.push(f);
    continue;
  }
  const report = JSON.parse(readFileSync(f, 'utf8'));
  const s = report.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  for (const t of (report.suites ?? []).flatMap((x) => unexpected(x))) failures.push(`${f}: ${t}`);
}
if (existsSync('reports/verify/counts.json')) {
  const v = JSON.parse(readFileSync('reports/verify/counts.json', 'utf8'));
  passed += v.passed;
  failed += v.failed;
  for (const why of v.failures ?? []) failures.push(`npm run verify: ${why}`);
} else missing.push('reports/verify/counts.json');
for (const m of missing) {
  failures.push(`missing ${m}: counted as one failure`);
  failed++;
}
if (failures.length) console.log(`\nwhat failed:\n${failures.map((x) => `  - ${x.slice(0, 300)}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
