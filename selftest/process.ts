/**
 * Child processes for the self-tests that run something as a user would
 * (the suite, the packed command, the contract tools): a clean environment,
 * the output kept, a time limit.
 */
import { spawn } from 'node:child_process';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
  ms: number;
}

/** The environment a fresh shell or CI job has: no CONFORMANCE_* variable, nothing of the test runner. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(CONFORMANCE_|PLAYWRIGHT_|PW_|TEST_)/.test(k) || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return { ...env, FORCE_COLOR: '0', ...extra };
}

/** Runs a command to its end, killed after `timeoutMs`. */
export function runProcess(
  cmd: string,
  args: readonly string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs: number },
): Promise<Ran> {
  const started = Date.now();
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d) => ((stdout += String(d)), (output += String(d))));
    child.stderr.on('data', (d) => ((stderr += String(d)), (output += String(d))));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', rej);
    child.on('exit', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr, output, ms: Date.now() - started });
    });
  });
}
