/**
 * fast-check settings for the suite's property checks. A failure prints the
 * seed and path; replay it with CONFORMANCE_FC_SEED and CONFORMANCE_FC_PATH.
 * CONFORMANCE_FC_RUNS scales the number of generated cases (default per check).
 */
import fc from 'fast-check';

/**
 * `numRuns` is for the embedded emulator; against an external target a
 * third of it (at least 3), to keep a read-only run within its request budget.
 */
export function fcParams<T>(numRuns: number): fc.Parameters<T> {
  const seed = process.env.CONFORMANCE_FC_SEED;
  const path = process.env.CONFORMANCE_FC_PATH;
  const embedded = process.env.CONFORMANCE_EMBEDDED === '1';
  const runs = Number(process.env.CONFORMANCE_FC_RUNS) || (embedded ? numRuns : Math.max(3, Math.ceil(numRuns / 3)));
  return {
    numRuns: runs,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
    // The failure message of the first failing case, plus seed and path.
    verbose: 1,
  };
}

/** Strings of a given length, from characters safe in a URL path segment. */
export function pathSafeString(length: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'), minLength: length, maxLength: length });
}

export { fc };
