import { defineConfig } from '@playwright/test';
import { onCI, processEnv, reportsDir } from './harness/run/config.ts';

/** Where every report goes (default `reports/`). */
const REPORTS = reportsDir();
/**
 * The embedded emulator is the target (no CONFORMANCE_BASE_URL): the rate-limit
 * probe, which mostly waits for its window to reset, gets a worker of its own
 * beside the two of the other checks. Against an external target, two workers
 * in all, as the pacing budget (CONFORMANCE_MAX_RPS, shared among workers) assumes.
 */
const EMBEDDED = !processEnv().CONFORMANCE_BASE_URL?.trim() || process.env.CONFORMANCE_EMBEDDED === '1';

/**
 * The conformance suite. Target: CONFORMANCE_BASE_URL from the environment
 * or .env; unset, the embedded reference emulator (harness/run/global-setup.ts).
 * Playwright's own flags pass through: `npm run conformance -- --grep @sse`.
 */
export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  globalSetup: './harness/run/global-setup.ts',
  fullyParallel: true,
  forbidOnly: onCI(),
  retries: 0,
  workers: EMBEDDED ? 3 : 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  outputDir: `${REPORTS}/artifacts`,
  reporter: [
    ['list'],
    ['json', { outputFile: `${REPORTS}/results.json` }],
    ['junit', { outputFile: `${REPORTS}/junit.xml` }],
    ['html', { outputFolder: `${REPORTS}/html`, open: 'never' }],
    // After html: it links its rule matrix from the html report.
    ['./harness/verdicts/reporter.ts', { outputFolder: REPORTS }],
  ],
  use: {
    // Traces would record Authorization headers: never on.
    trace: 'off',
  },
  projects: [
    // The rate-limit probe drives a client past its limit. Its own project, so that
    // `--project conformance` leaves it out; no dependency, because a dependency
    // project runs whole whenever --grep selects one probe check. Other checks
    // meeting a 429 meanwhile wait for the reset (harness/requests/client.ts).
    // Listed first: a worker serves one project, and workers take projects in this
    // order; last, its worker started only once every other check was over.
    { name: 'rate-limit', testMatch: '**/rate-limit.spec.ts', workers: 1 },
    { name: 'conformance', testIgnore: '**/rate-limit.spec.ts', workers: 2 },
  ],
});
