/**
 * Throughput of the reference emulator: `npm run bench:emulator`.
 *
 * Starts the emulator as its own process (the CLI, with a rate limit high
 * enough not to interfere), gets a token for the full client, and starts
 * the ceiling: a bare fastify process serving the same client grant JSON at
 * the same path (bench/bare-server.ts). Then autocannon:
 *
 *   GET /api/v2/client-grants/{id}, token verified, against the bare route:
 *     alternating runs (emulator, bare, emulator, bare, ...), RUNS of each;
 *     the ratio of the medians (target >= 0.8) and the median of the
 *     per-pair ratios. Timings are noisy on a shared machine: only the
 *     ratio within one run means much.
 *   GET /api/v2/event-streams?take=50: RUNS runs, medians.
 *
 * Each series starts with WARMUP unrecorded runs. Any non-2xx answer or
 * socket error fails the bench, and so does a ratio under the target.
 *
 * Knobs (environment): BENCH_RUNS (5, at least 5), BENCH_WARMUP (2),
 * BENCH_DURATION (5), BENCH_CONNECTIONS (32).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parse as parseDotenv } from 'dotenv';
import { median } from './stats.ts';

const RUNS = Math.max(5, Number(process.env['BENCH_RUNS'] ?? 5));
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 2);
const DURATION = Number(process.env['BENCH_DURATION'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
/** GET /client-grants/{id} with token verification, as a share of the bare route in the same run. */
const TARGET_RATIO = 0.8;

/**
 * CPU time (ms) a process has used so far, from /proc (Linux; undefined
 * elsewhere). Per request, it is a second view of the ratio that machine
 * load disturbs less than req/s: how much work each server does per answer.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime (fields 14 and 15), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** autocannon measures latency in whole milliseconds. */
const ms = (v: number): string => (v < 1 ? '<1 ms' : `${v.toFixed(0)} ms`);

async function startEmulatorProcess(): Promise<{
  env: Record<string, string>;
  pid: number | undefined;
  stop: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-bench-'));
  const envFile = join(dir, '.env');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', '--rate-limit', '1000000000/10', '--env-out', envFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('rateLimited')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const env = parseDotenv(readFileSync(envFile, 'utf8'));
  return { env, pid: child.pid, stop: stopper(child, dir) };
}

/** Stops a server process and removes its folder. */
function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The bare fastify route serving `body` (the ceiling). */
async function startBareProcess(
  body: unknown,
): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-bench-bare-'));
  const file = join(dir, 'grant.json');
  writeFileSync(file, JSON.stringify(body));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url, pid: child.pid, stop: stopper(child, dir) };
}

async function run(url: string, token: string, duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${token}` } });
}

async function main(): Promise<void> {
  const { env, pid: emulatorPid, stop } = await startEmulatorProcess();
  let bare: Awaited<ReturnType<typeof startBareProcess>> | undefined;
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
    const grantPath = `/client-grants/${env['CONFORMANCE_CLIENT_GRANT_ID']}`;
    const grantRes = await fetch(`${base}${grantPath}`, { headers: { authorization: `Bearer ${token}` } });
    if (!grantRes.ok) throw new Error(`client grant read failed: ${grantRes.status}`);
    bare = await startBareProcess(await grantRes.json());
    process.stdout.write(
      `emulator bench: ${RUNS} x ${DURATION} s recorded (+${WARMUP} warm-up) per series, ${CONNECTIONS} connections, node ${process.versions.node}\n`,
    );

    /** One autocannon run; with the server's CPU microseconds per request when /proc tells. */
    const once = async (
      name: string,
      url: string,
      pid?: number,
    ): Promise<autocannon.Result & { cpuUsPerRequest?: number }> => {
      const cpu0 = cpuMs(pid);
      const r = await run(url, token, DURATION);
      const cpu1 = cpuMs(pid);
      if (r.non2xx > 0 || r.errors > 0) {
        failed = true;
        process.stdout.write(`  ${name}: ${r.non2xx} non-2xx answers and ${r.errors} errors\n`);
      }
      return cpu0 === undefined || cpu1 === undefined || r.requests.total === 0
        ? r
        : { ...r, cpuUsPerRequest: ((cpu1 - cpu0) * 1000) / r.requests.total };
    };
    const series = (name: string) => ({ name, rps: [] as number[], p99: [] as number[], cpu: [] as number[] });
    const row = (s: ReturnType<typeof series>) =>
      `${s.name.padEnd(40)} median ${median(s.rps).toFixed(0).padStart(7)} req/s   median p99 ${ms(median(s.p99)).padStart(6)}`;

    // The client grant against its ceiling, alternating so that both see the same machine.
    const emu = series('GET /client-grants/{id} (emulator)');
    const ceiling = series('GET /client-grants/{id} (bare fastify)');
    const emuUrl = `${base}${grantPath}`;
    const bareUrl = `${bare.url}/api/v2${grantPath}`;
    for (let i = 0; i < WARMUP; i++) {
      await once(emu.name, emuUrl);
      await once(ceiling.name, bareUrl);
    }
    const pairRatios: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const order = [
        [emu, emuUrl, emulatorPid],
        [ceiling, bareUrl, bare.pid],
      ] as const;
      for (const [s, url, pid] of i % 2 === 0 ? order : [...order].reverse()) {
        const r = await once(s.name, url, pid);
        s.rps.push(r.requests.average);
        s.p99.push(r.latency.p99);
        if (r.cpuUsPerRequest !== undefined) s.cpu.push(r.cpuUsPerRequest);
        const cpu = r.cpuUsPerRequest === undefined ? '' : `, server CPU ${r.cpuUsPerRequest.toFixed(1)} µs/request`;
        process.stdout.write(
          `  ${s.name} run ${i + 1}: ${r.requests.average.toFixed(0)} req/s, p99 ${ms(r.latency.p99)}${cpu}\n`,
        );
      }
      pairRatios.push(emu.rps[i]! / ceiling.rps[i]!);
    }
    const ratio = median(emu.rps) / median(ceiling.rps);
    if (ratio < TARGET_RATIO) failed = true;

    const streams = series('GET /event-streams?take=50 (emulator)');
    for (let i = 0; i < WARMUP; i++) await once(streams.name, `${base}/event-streams?take=50`);
    for (let i = 0; i < RUNS; i++) {
      const r = await once(streams.name, `${base}/event-streams?take=50`);
      streams.rps.push(r.requests.average);
      streams.p99.push(r.latency.p99);
      process.stdout.write(
        `  ${streams.name} run ${i + 1}: ${r.requests.average.toFixed(0)} req/s, p99 ${ms(r.latency.p99)}\n`,
      );
    }

    process.stdout.write(
      `\n${row(emu)}\n${row(ceiling)}\n` +
        `client grant / bare ratio: ${ratio.toFixed(2)} of the medians (median of per-pair ratios ${median(pairRatios).toFixed(2)}; pairs ${pairRatios.map((x) => x.toFixed(2)).join(' ')})  (target ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})\n` +
        (emu.cpu.length > 0 && ceiling.cpu.length > 0
          ? `server CPU per request: emulator median ${median(emu.cpu).toFixed(1)} µs, bare median ${median(ceiling.cpu).toFixed(1)} µs; bare / emulator ${(median(ceiling.cpu) / median(emu.cpu)).toFixed(2)} (the ratio a CPU-bound server would reach)\n`
          : '') +
        `${row(streams)}\n`,
    );
  } finally {
    await bare?.stop();
    await stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
