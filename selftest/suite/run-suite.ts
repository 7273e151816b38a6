/**
 * Runs the conformance suite as a user would (`playwright test` in a child
 * process) with a given environment and a private reports folder, for the
 * tests of the suite's own behaviour: secrets, broken targets, budget.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import { cleanEnv, runProcess } from '../process.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface SuiteRun {
  code: number | null;
  output: string;
  ms: number;
  reports: string;
}

// The commands npx and npm would start, started directly: npm's own start-up is half a second of CPU per run.

/** `npx playwright test args`. */
export function runSuite(env: Record<string, string>, args: string[] = [], timeoutMs = 120_000): Promise<SuiteRun> {
  return run(join(ROOT, 'node_modules/.bin/playwright'), ['test', ...args], env, timeoutMs);
}

/** `npm run conformance -- args`: the wrapper with the suite's own options (profiles). */
export function runConformance(
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs = 120_000,
): Promise<SuiteRun> {
  return run(process.execPath, ['--import', 'tsx', '--', 'harness/run/command.ts', ...args], env, timeoutMs);
}

async function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<SuiteRun> {
  const reports = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const r = await runProcess(cmd, args, {
    cwd: ROOT,
    env: cleanEnv({ CONFORMANCE_REPORTS_DIR: reports, ...env }),
    timeoutMs,
  });
  return { code: r.code, output: r.output, ms: r.ms, reports };
}

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The text of every file a run wrote, with the html report's embedded zip unpacked. */
export async function everythingWritten(dir: string): Promise<Array<{ file: string; text: string }>> {
  const out: Array<{ file: string; text: string }> = [];
  for (const file of filesUnder(dir)) {
    const text = readFileSync(file).toString('latin1');
    out.push({ file, text });
    const zip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(text);
    if (zip) {
      const archive = await JSZip.loadAsync(Buffer.from(zip[1]!, 'base64'));
      for (const [name, entry] of Object.entries(archive.files)) {
        if (!entry.dir) out.push({ file: `${file}#${name}`, text: await entry.async('string') });
      }
    }
  }
  return out;
}
