/**
 * Runs the conformance suite as a user would (`playwright test` in a child
 * process) with a given environment and a private reports folder, for the
 * tests of the suite's own behaviour: secrets, broken targets, budget.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface SuiteRun {
  code: number | null;
  output: string;
  ms: number;
  reports: string;
}

/** The environment with every CONFORMANCE_* variable removed (a .env would add them back; the suite reads it). */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CONFORMANCE_') && !k.startsWith('PLAYWRIGHT_') && !k.startsWith('TEST_') && v !== undefined) env[k] = v;
  return env;
}

export function runSuite(env: Record<string, string>, args: string[] = [], timeoutMs = 120_000): Promise<SuiteRun> {
  return run(['playwright', 'test', ...args], env, timeoutMs);
}

/** `npm run conformance -- args`: the wrapper with the suite's own options (profiles). */
export function runConformance(env: Record<string, string>, args: string[] = [], timeoutMs = 120_000): Promise<SuiteRun> {
  return run(['tsx', 'harness/run.ts', ...args], env, timeoutMs);
}

function run(command: string[], env: Record<string, string>, timeoutMs: number): Promise<SuiteRun> {
  const reports = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const started = Date.now();
  return new Promise((res, rej) => {
    const child = spawn('npx', command, {
      cwd: ROOT,
      env: { ...cleanEnv(), FORCE_COLOR: '0', CONFORMANCE_REPORTS_DIR: reports, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', rej);
    child.on('exit', (code) => {
      clearTimeout(timer);
      res({ code, output, ms: Date.now() - started, reports });
    });
  });
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
