/**
 * The bearer check's memory of verified tokens, so that a hot token costs
 * one map lookup instead of an RS256 signature check per request.
 *
 * Safe by construction:
 *  - keyed by the whole token string: a lookup hits only for a token equal
 *    to a verified one in every character (header, payload and signature),
 *    so a token differing in any byte is verified afresh (and refused if
 *    forged);
 *  - an entry lives until the token's own `exp`, never longer: an expired
 *    token misses (and is dropped) and goes to the full check, which refuses it;
 *  - bounded: at `capacity` entries the oldest is dropped first.
 */
export class VerifyCache<T> {
  private readonly entries = new Map<string, { value: T; expMs: number }>();

  /**
   * @param capacity most entries kept
   * @param now the clock (epoch ms); expiry is checked against it on every lookup
   */
  constructor(
    readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  /** What `token` was verified as, if it was and has not expired. */
  get(token: string): T | undefined {
    const hit = this.entries.get(token);
    if (hit === undefined) return undefined;
    if (hit.expMs <= this.now()) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.value;
  }

  /** Remembers a verified `token` until `expMs` (its `exp` in epoch milliseconds). */
  set(token: string, value: T, expMs: number): void {
    if (expMs <= this.now()) return;
    this.entries.delete(token);
    if (this.entries.size >= this.capacity) {
      // Map iteration is insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { value, expMs });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
