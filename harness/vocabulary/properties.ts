/**
 * fast-check settings for the suite's property checks. A failure prints the
 * seed and path; replay it with CONFORMANCE_FC_SEED and CONFORMANCE_FC_PATH.
 * CONFORMANCE_FC_RUNS scales the number of generated cases (default per check);
 * CONFORMANCE_FC_SHRINK=off reports the first failing case unshrunk.
 */
import fc from 'fast-check';
import type { Config } from '../run/config.ts';

/**
 * `numRuns` is for the embedded emulator; against an external target a
 * eighth of it (at least 2), to keep a read-only run within its request budget.
 */
export function fcParams<T>(config: Config, numRuns: number): fc.Parameters<T> {
  const { seed, path, runs } = config.fc;
  return {
    numRuns: runs ?? (config.embedded ? numRuns : Math.max(2, Math.ceil(numRuns / 8))),
    ...(seed !== undefined ? { seed } : {}),
    ...(path ? { path } : {}),
    // Where only failing matters (a fault's sweep, a mutant), the first failing case decides: shrinking finds nothing more.
    ...(config.fc.shrink ? {} : { endOnFailure: true }),
    // The failure message of the first failing case, plus seed and path.
    verbose: 1,
  };
}

/** Strings of a given length, from characters safe in a URL path segment. */
export function pathSafeString(length: number): fc.Arbitrary<string> {
  return fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'),
    minLength: length,
    maxLength: length,
  });
}

/**
 * Any code point of Unicode, U+0000 to U+10FFFF, surrogate halves included: what fast-check's `binary` unit
 * draws, without the table of all 1,114,112 code points that unit builds (about a second of a worker's time)
 * to shrink a value it did not draw itself.
 */
export function anyCodePoint(): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
}

export { fc };
