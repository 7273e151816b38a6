/**
 * Property checks of the compiled validators (schemas/index.ts): "every value
 * of this arbitrary is accepted" and "every value of this arbitrary is rejected
 * with this keyword, at this place, naming this rule".
 */
import * as fc from 'fast-check';
import { formatErrors, validate, type SchemaError, type SchemaName } from '../../schemas/index.ts';
import type { RuleId } from '../../spec/rules.ts';

/** Runs per property: enough to hit the edges, small enough to keep the selftest fast. */
export const NUM_RUNS = 60;

export interface Rejection {
  /** The Ajv keyword that must fail, e.g. `maxLength`. */
  keyword: string;
  /** JSON pointer of the failing value ('' for the root). */
  at: string;
  /** The rule the error must name (x-rule); omitted where the test is about the type only. */
  rule?: RuleId;
  /** For `required`: the missing property. */
  missing?: string;
}

export function assertAccepts<V>(name: SchemaName, arb: fc.Arbitrary<V>, numRuns = NUM_RUNS): void {
  fc.assert(
    fc.property(arb, (value) => {
      const r = validate(name, value);
      if (!r.valid)
        throw new Error(`${name} rejected a valid value:\n${formatErrors(r.errors)}\nvalue: ${show(value)}`);
    }),
    { numRuns },
  );
}

export function assertRejects<V>(
  name: SchemaName,
  arb: fc.Arbitrary<V>,
  expected: Rejection,
  numRuns = NUM_RUNS,
): void {
  fc.assert(
    fc.property(arb, (value) => {
      const r = validate(name, value);
      if (r.valid)
        throw new Error(
          `${name} accepted a value that breaks ${expected.keyword} at ${expected.at || '(root)'}: ${show(value)}`,
        );
      const hit = r.errors.find((e) => matches(e, expected));
      if (!hit) {
        throw new Error(
          `${name}: expected ${expected.keyword} at ${expected.at || '(root)'}${expected.rule ? ` [${expected.rule}]` : ''}, got:\n${formatErrors(r.errors)}\nvalue: ${show(value)}`,
        );
      }
      // The value differs from a valid one only at `at`: no error elsewhere.
      const stray = r.errors.filter((e) => !related(e.instancePath, expected.at));
      if (stray.length > 0)
        throw new Error(
          `${name}: errors away from ${expected.at || '(root)'}:\n${formatErrors(stray)}\nvalue: ${show(value)}`,
        );
    }),
    { numRuns },
  );
}

function matches(e: SchemaError, x: Rejection): boolean {
  if (e.keyword !== x.keyword || e.instancePath !== x.at) return false;
  if (x.rule !== undefined && e.rule !== x.rule) return false;
  if (x.missing !== undefined && (e.params as { missingProperty?: unknown }).missingProperty !== x.missing)
    return false;
  return true;
}

/** The error is at the expected place or inside it. */
function related(at: string, expected: string): boolean {
  return expected === '' || at === expected || at.startsWith(expected + '/');
}

function show(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 400 ? s.slice(0, 400) + '…' : s;
}

/** JSON pointer of a slash-separated field path (`a/0/b` → `/a/0/b`); names hold no `/`, a `~` is escaped. */
export const pointer = (path: string): string =>
  path === ''
    ? ''
    : '/' +
      path
        .split('/')
        .map((t) => t.replace(/~/g, '~0'))
        .join('/');

/**
 * A copy of `value` with `replacement` at the slash-separated `path`; missing
 * containers on the way are created (an array where the next step is an index).
 * `undefined` deletes the member.
 */
export function setAt<V>(value: V, path: string, replacement: unknown): V {
  const copy = structuredClone(value) as unknown;
  const steps = path.split('/');
  let node = copy as Record<string, unknown>;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    if (last) {
      if (replacement === undefined) delete node[step];
      else node[step] = replacement;
      return;
    }
    const next = node[step];
    if (next === null || typeof next !== 'object') node[step] = /^\d+$/.test(steps[i + 1]!) ? [] : {};
    node = node[step] as Record<string, unknown>;
  });
  return copy as V;
}
