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
 *
 * A lookup may name a holder (the connection the token came on): the entry
 * found is remembered for it, and the next lookup with the same holder
 * compares the token with that entry's token instead of hashing it for the
 * map (a JWT is over a kilobyte, and each request brings a fresh string, so
 * the hash was the cache's whole cost). The remembered entry answers only
 * while the map still holds it (an entry dropped, replaced or cleared is
 * marked so), for the very same string and before its exp: the holder
 * changes what a lookup costs, never what it answers.
 */
interface Entry<T> {
  readonly token: string;
  readonly value: T;
  readonly expMs: number;
  /** Whether the map still holds this entry (false once dropped, replaced or cleared). */
  held: boolean;
}

export class VerifyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** The entry each holder last found. */
  private readonly recent = new WeakMap<object, Entry<T>>();

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

  /** What `token` was verified as, if it was and has not expired; `holder` remembers the entry found (see above). */
  get(token: string, holder?: object): T | undefined {
    let hit = holder === undefined ? undefined : this.recent.get(holder);
    if (hit === undefined || !hit.held || hit.token !== token) {
      hit = this.entries.get(token);
      if (hit === undefined) return undefined;
      if (holder !== undefined) this.recent.set(holder, hit);
    }
    if (hit.expMs <= this.now()) {
      this.drop(hit);
      return undefined;
    }
    return hit.value;
  }

  /** Remembers a verified `token` until `expMs` (its `exp` in epoch milliseconds). */
  set(token: string, value: T, expMs: number): void {
    if (expMs <= this.now()) return;
    const previous = this.entries.get(token);
    if (previous !== undefined) this.drop(previous);
    if (this.entries.size >= this.capacity) {
      // Map iteration is insertion order: the first entry is the oldest.
      const oldest = this.entries.values().next();
      if (!oldest.done) this.drop(oldest.value);
    }
    this.entries.set(token, { token, value, expMs, held: true });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    for (const e of this.entries.values()) e.held = false;
    this.entries.clear();
  }

  private drop(e: Entry<T>): void {
    e.held = false;
    this.entries.delete(e.token);
  }
}
