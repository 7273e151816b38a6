/**
 * Profiles: a run records its observations (--record-profile); a later run
 * expecting them (--profile) passes on a target that behaves the same where
 * the document is silent, and fails, naming the rule, on one that does not.
 * Observations never fail without --profile.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from './run-suite.ts';

test.setTimeout(180_000);
const file = join(mkdtempSync(join(tmpdir(), 'conformance-profile-')), 'emulator.json');
// The write checks, where the success codes are not shown.
const grep = ['--grep', '@custom-signing-keys|@experiments'];
// Differs from the emulator where the document is silent: the success codes of the PUTs and of the moves.
const differs = { EMULATOR_VARIANT: 'success-codes' };

// Needs no profile: runs apart from the three below, which follow one another.
test('should pass, without --profile, a target that differs where the document is silent', async () => {
  const plain = await runConformance(differs, grep);
  expect(plain.code, plain.output.slice(-2000)).toBe(0);
});

test.describe.serial('a recorded profile', () => {
  test('should record the observations of a run', async () => {
    const run = await runConformance({}, ['--record-profile', file, ...grep]);
    expect(run.code, run.output.slice(-2000)).toBe(0);
    expect(existsSync(file)).toBe(true);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      observations: Record<string, string[]>;
    };
    expect(profile.version).toBe(1);
    expect(profile.observations['custom-signing-keys.put.status | JSON PUT answered']).toEqual(['200']);
  });

  test('should pass a target that behaves as the profile says', async () => {
    const run = await runConformance({}, ['--profile', file, ...grep]);
    expect(run.code, run.output.slice(-2000)).toBe(0);
  });

  test('should fail, under the rule, a target that differs where the document is silent', async () => {
    const strict = await runConformance(differs, ['--profile', file, ...grep]);
    expect(strict.code).toBe(1);
    expect(strict.output).toMatch(/✗ [a-z.-]+\.status \(profile\)/);
  });
});
