/**
 * Throughput of the reference emulator: `npm run bench:emulator`.
 *
 * Starts the emulator as its own process (the CLI, with a rate limit high
 * enough not to interfere), gets a token for the full client, then runs
 * autocannon against two read routes with the bearer header:
 *
 *   GET /api/v2/client-grants/{id}      (target: >= 10,000 req/s on 2 cores)
 *   GET /api/v2/event-streams?take=50
 *
 * Each route gets WARMUP unrecorded runs, then RUNS recorded runs of
 * DURATION seconds; the medians of req/s and p99 latency are printed.
 * Any non-2xx answer or socket error fails the run.
 *
 * Knobs (environment): BENCH_RUNS (5), BENCH_WARMUP (2), BENCH_DURATION (5),
 * BENCH_CONNECTIONS (10).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 2);
const DURATION = Number(process.env['BENCH_DURATION'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const TARGET_GRANT_RPS = 10_000;

/** autocannon measures latency in whole milliseconds. */
const ms = (v: number): string => (v < 1 ? '<1 ms' : `${v.toFixed(0)} ms`);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function startEmulatorProcess(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-bench-'));
  const envFile = join(dir, '.env');
  const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', '--rate-limit', '1000000000/10', '--env-out', envFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('rateLimited')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const env = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).replace(/^"(.*)"$/, '$1')]),
  );
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { env, stop };
}

async function run(url: string, token: string, duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } });
}

async function main(): Promise<void> {
  const { env, stop } = await startEmulatorProcess();
  let failed = false;
  try {
    const tokenRes = await fetch(`${env['CONFORMANCE_AUTH_URL']}/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: env['CONFORMANCE_CLIENT_ID']!,
        client_secret: env['CONFORMANCE_CLIENT_SECRET']!,
        audience: env['CONFORMANCE_AUDIENCE']!,
      }),
    });
    if (!tokenRes.ok) throw new Error(`token request failed: ${tokenRes.status}`);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const base = env['CONFORMANCE_BASE_URL']!;
    const routes = [
      { name: `GET /client-grants/{id}`, url: `${base}/client-grants/${env['CONFORMANCE_CLIENT_GRANT_ID']}`, target: TARGET_GRANT_RPS },
      { name: 'GET /event-streams?take=50', url: `${base}/event-streams?take=50`, target: undefined },
    ];
    process.stdout.write(`emulator bench: ${RUNS} x ${DURATION} s recorded (+${WARMUP} warm-up) per route, ${CONNECTIONS} connections, node ${process.versions.node}\n`);
    const rows: string[] = [];
    for (const route of routes) {
      for (let i = 0; i < WARMUP; i++) await run(route.url, token, DURATION);
      const rps: number[] = [];
      const p99: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await run(route.url, token, DURATION);
        if (r.non2xx > 0 || r.errors > 0) {
          failed = true;
          process.stdout.write(`  ${route.name}: run ${i + 1} had ${r.non2xx} non-2xx answers and ${r.errors} errors\n`);
        }
        rps.push(r.requests.average);
        p99.push(r.latency.p99);
        process.stdout.write(`  ${route.name} run ${i + 1}: ${r.requests.average.toFixed(0)} req/s, p99 ${ms(r.latency.p99)}\n`);
      }
      const m = median(rps);
      const verdict = route.target === undefined ? '' : m >= route.target ? `  (target ${route.target}: met)` : `  (target ${route.target}: NOT met)`;
      rows.push(`${route.name.padEnd(30)} median ${m.toFixed(0).padStart(7)} req/s   median p99 ${ms(median(p99)).padStart(6)}${verdict}`);
    }
    process.stdout.write(`\n${rows.join('\n')}\n`);
  } finally {
    await stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
