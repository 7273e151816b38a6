/**
 * The SSE harness against the emulator: `npm run bench:sse`.
 *
 * 1. Throughput: events per second that the harness receives and verifies
 *    (JSON payload validated against sse-event-payload, SSE event field equal
 *    to the envelope type), over BENCH_SSE_EVENTS events injected through the
 *    emulator's control endpoint while one subscription reads; median of
 *    BENCH_RUNS runs.
 * 2. Soak: 10,000 events injected while the reader disconnects 50 times and
 *    resumes each time from the offset of the last event it read. Every event
 *    must arrive exactly once, in order: the lost and duplicated counts must
 *    both be 0, or the benchmark exits 1.
 */
import { startEmulator } from '../emulator/index.ts';
import { subscribe, type SseConnection } from '../harness/requests/sse.ts';
import { requestToken } from '../harness/requests/tokens.ts';
import { validate } from '../schemas/index.ts';
import { median } from './stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const EVENTS = Number(process.env.BENCH_SSE_EVENTS ?? 20_000);
const SOAK_EVENTS = 10_000;
const SOAK_DISCONNECTS = 50;
const BATCH = 1000;

type Emu = Awaited<ReturnType<typeof startEmulator>>;

async function token(emu: Emu): Promise<string> {
  return ((await requestToken(emu, emu.clients.full)).json as { access_token: string }).access_token;
}

/** Injects `n` user.created events in batches, in order; answers their offsets in stream order. */
async function inject(emu: Emu, n: number): Promise<string[]> {
  const offsets: string[] = [];
  for (let left = n; left > 0; left -= BATCH) {
    const res = await fetch(`${emu.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'user.created', count: Math.min(BATCH, left) }),
    });
    offsets.push(...((await res.json()) as { offsets: string[] }).offsets);
  }
  return offsets;
}

function verify(conn: SseConnection, from: number): number {
  let bad = 0;
  for (const m of conn.messages.slice(from)) {
    if (m.event === 'offset-only') continue;
    const p = m.payload as { event?: { type?: string } };
    if (!validate('sse-event-payload', p).valid || p.event?.type !== m.event) bad++;
  }
  return bad;
}

async function throughput(emu: Emu, bearer: string): Promise<number> {
  const conn = await subscribe(emu.baseUrl, bearer, { query: { event_type: 'user.created' } });
  const t0 = performance.now();
  const injecting = inject(emu, EVENTS);
  await conn.collect(EVENTS, (m) => m.event === 'user.created', 120_000, 'injected events');
  const seconds = (performance.now() - t0) / 1000;
  await injecting;
  const bad = verify(conn, 0);
  conn.close();
  if (bad) throw new Error(`${bad} events failed verification`);
  return EVENTS / seconds;
}

async function soak(
  emu: Emu,
  bearer: string,
): Promise<{ received: number; lost: number; duplicated: number; reordered: boolean; seconds: number }> {
  const t0 = performance.now();
  const got: string[] = [];
  let conn = await subscribe(emu.baseUrl, bearer, { query: { event_type: 'user.created' } });
  const injecting = inject(emu, SOAK_EVENTS);
  const per = Math.floor(SOAK_EVENTS / (SOAK_DISCONNECTS + 1));
  for (let d = 0; d <= SOAK_DISCONNECTS; d++) {
    const want = d === SOAK_DISCONNECTS ? SOAK_EVENTS - got.length : per;
    const msgs = await conn.collect(want, (m) => m.event === 'user.created', 60_000, 'soak events');
    got.push(...msgs.map((m) => (m.payload as { offset: string }).offset));
    conn.close();
    if (d < SOAK_DISCONNECTS)
      conn = await subscribe(emu.baseUrl, bearer, { query: { event_type: 'user.created', from: got.at(-1)! } });
  }
  const expected = await injecting;
  const seen = new Set(got);
  const lost = expected.filter((o) => !seen.has(o)).length;
  const duplicated = got.length - seen.size;
  const reordered = JSON.stringify(got) !== JSON.stringify(expected);
  return { received: got.length, lost, duplicated, reordered, seconds: (performance.now() - t0) / 1000 };
}

async function main(): Promise<void> {
  const emu = await startEmulator({
    control: true,
    heartbeatMs: 1000,
    rateLimit: { limit: 1_000_000_000, windowSeconds: 10 },
  });
  try {
    const bearer = await token(emu);
    await throughput(emu, bearer); // warm-up
    const rates: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      rates.push(await throughput(emu, bearer));
      console.log(`run ${i + 1}: ${rates.at(-1)!.toFixed(0)} events/s received and verified`);
    }
    console.log(`SSE throughput: median ${median(rates).toFixed(0)} events/s over ${RUNS} runs of ${EVENTS} events`);
    const s = await soak(emu, bearer);
    console.log(
      `SSE soak: ${s.received} events, ${SOAK_DISCONNECTS} disconnects and resumes, ${s.lost} lost, ${s.duplicated} duplicated, order ${s.reordered ? 'BROKEN' : 'kept'} (${s.seconds.toFixed(1)} s)`,
    );
    if (s.lost || s.duplicated || s.reordered) process.exitCode = 1;
  } finally {
    await emu.close();
  }
}

await main();
