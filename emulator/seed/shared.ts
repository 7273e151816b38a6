/**
 * What every part of the seed uses: the deterministic PRNG, the id
 * alphabets, the seed's clock, and the names the seed and the routes share.
 */

/** Base58 without 0, O, I, l: the alphabet of experiment ids (`^exp_[A-HJ-NP-Za-km-z1-9]+$`). */
export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const HEX = '0123456789abcdef';
export const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The seed state's clock: fixture timestamps count from here. */
export const SEED_EPOCH = Date.UTC(2025, 0, 1, 0, 0, 0);
export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Deterministic PRNG (mulberry32): enough for ids, not for secrets. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A seeded date `minutes` after the seed's clock. */
export const at = (minutes: number): string => iso(SEED_EPOCH + minutes * MINUTE);

export const USER_CONNECTION = 'Username-Password-Authentication';

export function customTextKey(profileId: string, language: string, page: string): string {
  return `${profileId}\u0000${language}\u0000${page}`;
}
