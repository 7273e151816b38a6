/**
 * Counts the requests a test sends, per operation, so the report can show
 * what a run costs a tenant (the request budget).
 */
import { operations, pathPattern, type OperationId } from '../../spec/operations.ts';

const matchers: Array<{ id: OperationId | 'other'; method: string; re: RegExp }> = operations.map((o) => ({
  id: o.id,
  method: o.method,
  re: pathPattern(o, true),
}));

let counts: Record<string, number> = {};

/** The operation a request addresses, or `other` (e.g. the management calls that cause events). */
export function operationOf(method: string, path: string): OperationId | 'other' {
  const p = path.split('?')[0]!;
  return matchers.find((m) => m.method === method && m.re.test(p))?.id ?? 'other';
}

export function countRequest(method: string, path: string): void {
  const op = operationOf(method, path);
  counts[op] = (counts[op] ?? 0) + 1;
}

/** The counts since the last call, and a fresh start. */
export function takeCounts(): Record<string, number> {
  const c = counts;
  counts = {};
  return c;
}
