/**
 * A Playwright run of `npm run verify`: either one project per target (the
 * baseline, its second run, the read-only baseline), each with its own
 * emulator's CONFORMANCE_* variables as `use.targetEnv`; or one project
 * `shared` whose worker checks many targets (the variants, the faults), each
 * check copied per target that selects it (harness/fixtures/targets.ts). The
 * emulators run in verify's own process (verify/run.ts), which also prepared
 * each target's tokens: no global setup here. Timeouts and settings are the
 * suite's own.
 */
import { defineConfig } from '@playwright/test';
import type { TargetFixtures } from '../harness/fixtures/fixtures.ts';
import suite from '../playwright.config.ts';
import { sharedTargetsFromEnv } from '../harness/fixtures/targets.ts';
import { projectsFromEnv, SHARED_PROJECT } from './projects.ts';

export default defineConfig<object, TargetFixtures>({
  testDir: '../tests',
  testMatch: '**/*.spec.ts',
  fullyParallel: suite.fullyParallel,
  retries: 0,
  timeout: suite.timeout,
  expect: suite.expect,
  reporter: [['./reporter.ts']],
  use: suite.use,
  // The rate-limit checks are in every project: a project is one target, and the suite's split
  // into two projects only serves `--project conformance` (playwright.config.ts).
  projects: sharedTargetsFromEnv(process.env).length
    ? // One worker (verify/run.ts runs such processes side by side): a target's checks one after another, in file order.
      [{ name: SHARED_PROJECT, fullyParallel: false }]
    : projectsFromEnv().map((p) => ({
        name: p.name,
        // A fault's project runs the few checks of its rule in one worker, file after file: starting a
        // worker (Playwright and the harness loaded again) costs more than those checks take, and a
        // worker serves one project only. The other worker takes the next project meanwhile.
        ...(p.grep ? { grep: new RegExp(p.grep), fullyParallel: false, workers: 1 } : {}),
        ...(p.dependencies ? { dependencies: p.dependencies } : {}),
        use: { targetEnv: p.targetEnv },
      })),
});
