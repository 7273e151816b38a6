/**
 * JSON values compared as JSON defines them: an object is an unordered
 * collection of name/value pairs (RFC 8259 4), an array an ordered sequence
 * (5). Two answers that differ only in the order of an object's members are
 * the same answer.
 */
import { isDeepStrictEqual } from 'node:util';

/** Two JSON values are the same: the same type and value, members in any order, elements in order. */
export const sameJson = (a: unknown, b: unknown): boolean => isDeepStrictEqual(a, b);

/** A JSON value's text with every object's members in name order: equal texts for values sameJson holds equal. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : x,
  );
}
