/**
 * A careful client of a rate-limited tenant, for every way the suite sends
 * requests (HTTP client, SSE reader, a standard EventSource's fetch): pacing
 * by CONFORMANCE_MAX_RPS and by the target's own X-RateLimit-Remaining, and
 * on a 429 waiting for X-RateLimit-Reset (bounded) before sending again.
 */
export const MAX_429_WAIT_MS = 15_000;
export const MAX_429_RETRIES = 4;

let nextSlot = 0;

/** Waits for this worker's next slot under `maxRps` (each worker takes its share of the global pace). */
export async function pace(maxRps: number | undefined, workers: number): Promise<void> {
  if (!maxRps) return;
  const interval = (1000 * Math.max(1, workers)) / maxRps;
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + interval;
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

/** Milliseconds until X-RateLimit-Reset, whether the target sends epoch seconds or a delta. */
export function resetDelayMs(reset: string | undefined, now = Date.now()): number | undefined {
  if (reset === undefined || !/^\d+(\.\d+)?$/.test(reset.trim())) return undefined;
  const n = Number(reset);
  const ms = n > 1e9 ? n * 1000 - now : n * 1000;
  return Math.max(0, ms);
}

/** How long to wait for a window's reset: X-RateLimit-Reset, else a second, never more than MAX_429_WAIT_MS. */
const waitFor = (reset: string | undefined) => Math.min(resetDelayMs(reset) ?? 1000, MAX_429_WAIT_MS);

/** Pace by the target's own account: with nothing left in the window, the next request waits for its reset. */
export function noteRemaining(headers: Record<string, string>): void {
  if (headers['x-ratelimit-remaining']?.trim() === '0')
    nextSlot = Math.max(nextSlot, Date.now() + waitFor(headers['x-ratelimit-reset']));
}

/** One answer as the wait on 429 sees it. */
export interface RateLimited {
  status: number;
  /** The X-RateLimit-Reset header, if any. */
  reset: string | undefined;
  /** Lets go of an answer that is sent again (its body is not read). */
  discard(): Promise<void>;
}

/**
 * Sends with `send` until the answer is not a 429, at most MAX_429_RETRIES
 * times waiting for the window's reset; with `see429`, once. Answers the last
 * answer and how long was waited.
 */
export async function honouring429<A>(
  send: () => Promise<A>,
  view: (a: A) => RateLimited,
  see429 = false,
): Promise<{ answer: A; waitedMs: number }> {
  let waitedMs = 0;
  for (let attempt = 0; ; attempt++) {
    const answer = await send();
    const v = view(answer);
    if (v.status !== 429 || see429 || attempt >= MAX_429_RETRIES) return { answer, waitedMs };
    await v.discard();
    const wait = waitFor(v.reset);
    waitedMs += wait;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** `fetch` that honours 429 the way the suite's client does (for a standard EventSource). */
export async function fetchHonouring429(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { answer } = await honouring429(
    () => fetch(input, init),
    (res) => ({
      status: res.status,
      reset: res.headers.get('x-ratelimit-reset') ?? undefined,
      discard: async () => void (await res.body?.cancel()),
    }),
  );
  return answer;
}
