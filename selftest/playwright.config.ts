import { defineConfig } from '@playwright/test';

/**
 * The project's own tests: the contract model, the emulator (in-process),
 * the harness. Not the conformance suite (that is ../playwright.config.ts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: '../reports/selftest/results.json' }]],
  outputDir: '../reports/selftest/artifacts',
});
