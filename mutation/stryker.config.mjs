// @ts-check
import { readFileSync } from 'node:fs';
/**
 * The mutation score of the suite: StrykerJS mutates the emulator's
 * conforming code, one mutant at a time, and the whole conformance run
 * against the embedded emulator (started from Stryker's sandbox copy, so it
 * carries the mutant) must fail. A mutant that survives is behaviour no
 * check pins down: a missing check, or a reason written in
 * mutation/survivors.json. `npm run mutation` (mutation/run.ts) runs it and
 * prints the score per file. Not part of `npm test`: a benchmark.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
/** What Stryker does not mutate, each with its reason (mutation/not-mutated.json): not the interface's conforming code. */
const { notMutated } = JSON.parse(readFileSync(new URL('./not-mutated.json', import.meta.url), 'utf8'));

export default {
  testRunner: 'command',
  // --max-failures=1: a mutant is killed by the first failing check; the rest need not run, and a
  // failing property need not be shrunk (CONFORMANCE_FC_SHRINK=off).
  commandRunner: { command: 'CONFORMANCE_FC_SHRINK=off npm run -s conformance -- --max-failures=1 --reporter=dot' },
  // The conforming code of the interface: the emulator but what notMutated names.
  mutate: ['emulator/**/*.ts', ...Object.keys(notMutated).map((p) => (p.endsWith('/') ? `!${p}**` : `!${p}`))],
  // Mutants of what the document leaves open (the prose of an error or of an HTML policy violation, an
  // experiment's allowed moves and run timestamps, an event's context, the HTML allow-list beyond the tags the
  // document names, an error body's members, which 4xx a framework error keeps, connections, what RFC 6749
  // leaves to the token endpoint, an event stream's head beyond its media type and a heartbeat's data) or no
  // answer shows (a log line, bounds on the emulator's memory, what a verify-cache lookup costs, the emulator's
  // own start and shutdown, an event stream's resources once its client is gone), each kind with its reason:
  // mutation/ignorers.mjs.
  plugins: ['@stryker-mutator/*', './mutation/ignorers.mjs'],
  ignorers: [
    'error-prose',
    'experiment-moves-left-open',
    'html-policy-prose',
    'html-allow-list-left-open',
    'log-lines',
    'event-context-left-open',
    'error-body-left-open',
    'which-4xx-left-open',
    'connection-management',
    'memory-bounds',
    'verify-cache-cost',
    'oauth-options-left-open',
    'emulator-lifecycle',
    'event-stream-left-open',
  ],
  ignorePatterns: ['reports', 'node_modules', '.git', 'mutation/stryker-incremental.json', 'tmp'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Incremental: a later run tests only the mutants of code (or checks) that changed.
  incremental: true,
  incrementalFile: 'mutation/stryker-incremental.json',
  // Two cores: one mutant at a time (each conformance run already uses both).
  concurrency: 1,
  // A mutant that loops for ever is killed by the timeout (Stryker counts it as detected).
  timeoutMS: 60_000,
  timeoutFactor: 2,
  tempDirName: 'reports/mutation/.stryker-tmp',
  cleanTempDir: 'always',
  disableTypeChecks: 'emulator/**/*.ts',
};
