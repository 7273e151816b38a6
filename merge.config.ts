/**
 * Reporters for `playwright merge-reports` (the nightly workflow merges the
 * shards' blob reports with it): the same reports as a local run.
 */
export default {
  testDir: 'tests',
  reporter: [
    ['json', { outputFile: 'reports/results.json' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['html', { outputFolder: 'reports/html', open: 'never' }],
    ['./harness/verdicts/reporter.ts', { outputFolder: 'reports' }],
  ],
};
