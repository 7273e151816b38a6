import { defineConfig } from '@playwright/test';

/**
 * The project's own tests: the contract model, the emulator (in-process),
 * the harness. Not the conformance suite (that is ../playwright.config.ts).
 */

/**
 * The tests that run the suite, a contract tool, the packed command or the
 * emulator's CLI in child processes: seconds to a minute each. Their project
 * comes first, so they start first (files in name order, cli/package, the
 * longest chain, first) and the short in-process tests fill the workers
 * around them; a long test started last would decide the run's end.
 */
const CHILD_PROCESSES = [
  'cli/*.test.ts',
  'contract-tools/*.test.ts',
  'suite/*.test.ts',
  'emulator/start.test.ts',
  'emulator/socket-fuzz.test.ts',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: '../reports/selftest/results.json' }]],
  outputDir: '../reports/selftest/artifacts',
  projects: [
    { name: 'child-processes', testMatch: CHILD_PROCESSES },
    { name: 'in-process', testIgnore: CHILD_PROCESSES },
  ],
});
