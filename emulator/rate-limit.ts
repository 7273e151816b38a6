/**
 * Fixed-window rate limiting, one window per key (the bearer token; for
 * requests without a valid token, the caller's address).
 *
 * Every /api/v2 response carries the three documented headers:
 * X-RateLimit-Limit (requests per window), X-RateLimit-Remaining (left in
 * this window, after this request) and X-RateLimit-Reset (Unix epoch
 * seconds when the window ends). Over the limit: 429 `too_many_requests`.
 */
import type { RateLimitOptions } from './options.js';

export const HEADER_LIMIT = 'x-ratelimit-limit';
export const HEADER_REMAINING = 'x-ratelimit-remaining';
export const HEADER_RESET = 'x-ratelimit-reset';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests counted in this window, this one included. */
  count: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets. */
  reset: number;
  /** Epoch milliseconds at which the window ends. */
  endsAtMs: number;
  /** Length of the window in milliseconds. */
  windowMs: number;
  /** Seconds until the reset, for Retry-After. */
  retryAfter: number;
}

/** The three headers of a decision, conforming (a literal with fixed names: one shape, built fast). */
export function rateHeaders(d: RateLimitDecision): {
  'x-ratelimit-limit': number;
  'x-ratelimit-remaining': number;
  'x-ratelimit-reset': string;
} {
  return { 'x-ratelimit-limit': d.limit, 'x-ratelimit-remaining': d.remaining, 'x-ratelimit-reset': String(d.reset) };
}

interface Window {
  count: number;
  /** Epoch milliseconds at which this window ends. */
  endsAt: number;
}

/** Keys kept before expired windows are swept (bounded memory under key churn). */
const SWEEP_AT = 50_000;

export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string, rate: RateLimitOptions): RateLimitDecision {
    const now = this.now();
    let w = this.windows.get(key);
    if (w === undefined || w.endsAt <= now) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      w = { count: 0, endsAt: now + rate.windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    const allowed = w.count <= rate.limit;
    return {
      allowed,
      limit: rate.limit,
      count: w.count,
      remaining: Math.max(0, rate.limit - w.count),
      reset: Math.ceil(w.endsAt / 1000),
      endsAtMs: w.endsAt,
      windowMs: rate.windowSeconds * 1000,
      retryAfter: Math.max(0, Math.ceil((w.endsAt - now) / 1000)),
    };
  }

  /** Forget every window (control reset). */
  clear(): void {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    // Still full of live windows: drop the oldest half rather than grow without bound.
    if (this.windows.size >= SWEEP_AT) {
      let drop = this.windows.size / 2;
      for (const k of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(k);
      }
    }
  }
}
