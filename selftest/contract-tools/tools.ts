/**
 * What the self-tests of the contract tools share: the emulator's tokens,
 * and the tools themselves (node_modules/.bin/dredd, .bin/prism) run as a
 * user runs them, in a child process stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { RunningEmulator } from '../../emulator/index.ts';
import { cleanEnv, runProcess, type Ran } from '../process.ts';
import { ROOT } from '../suite/run-suite.ts';

export const OPENAPI = join(ROOT, 'spec/openapi.json');
const BIN = join(ROOT, 'node_modules/.bin');

/** A client-credentials token of one of the emulator's clients. */
export async function tokenOf(emu: RunningEmulator, role: 'full' | 'limited' | 'rateLimited'): Promise<string> {
  const { clientId, clientSecret } = emu.clients[role];
  const res = await fetch(`${emu.authUrl}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      audience: emu.audience,
    }),
  });
  if (res.status !== 200) throw new Error(`token request of the ${role} client answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export type ToolRun = Pick<Ran, 'code' | 'output' | 'ms'>;

/** Runs node_modules/.bin/<tool> with args to its end (killed after timeoutMs), with no CONFORMANCE_* variable. */
export function runTool(
  tool: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<ToolRun> {
  return runProcess(join(BIN, tool), args, { cwd: ROOT, env: cleanEnv({ NO_COLOR: '1', ...env }), timeoutMs });
}

/** One validation message of Prism's log: `[VALIDATOR] ✖ error Violation: response.body ...`. */
export interface PrismViolation {
  severity: 'error' | 'warning' | 'info';
  location: string;
  message: string;
  /** The request it belongs to (`get /client-grants/...`), as Prism logged it just before. */
  request: string;
  /** The status the upstream answered that request with, as Prism logged it (0 if not yet). */
  status: number;
}

export interface PrismProxy {
  url: string;
  /** Everything Prism logged so far. */
  log(): string;
  violations(): PrismViolation[];
  stop(): Promise<void>;
}

/**
 * `prism proxy spec/openapi.json <upstream>` on 127.0.0.1, a free port
 * (Prism takes -p 0 and logs the port it got). Prism logs each request, then
 * its violations; with one request at a time the order ties them together.
 */
export async function startPrism(upstream: string): Promise<PrismProxy> {
  const child: ChildProcess = spawn(join(BIN, 'prism'), ['proxy', OPENAPI, upstream, '-h', '127.0.0.1', '-p', '0'], {
    cwd: ROOT,
    env: cleanEnv({ NO_COLOR: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`Prism did not start within 30 s:\n${log}`)), 30_000);
    const onData = (d: Buffer) => {
      log += String(d);
      const m = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        res(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => rej(new Error(`Prism exited (${code}) before listening:\n${log}`)));
  });
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  return {
    url,
    log: () => log,
    violations: () => parseViolations(log),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function parseViolations(log: string): PrismViolation[] {
  const out: PrismViolation[] = [];
  let request = '';
  let status = 0;
  for (const line of log.split('\n')) {
    const received = /\[HTTP SERVER\] (\w+ \S+) .*Request received/.exec(line);
    if (received) {
      request = received[1]!;
      status = 0;
    }
    const upstream = /The upstream call to \S+ has returned (\d{3})/.exec(line);
    if (upstream) status = Number(upstream[1]);
    const v = /\[VALIDATOR\] \S+\s+(error|warning|info)\s+Violation: (\S+) (.*)$/.exec(line);
    if (v)
      out.push({
        severity: v[1] as PrismViolation['severity'],
        location: v[2]!,
        message: v[3]!.trim(),
        request,
        status,
      });
  }
  return out;
}
