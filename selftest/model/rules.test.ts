/**
 * The rule catalogue is well formed: unique stable ids, a quoted
 * requirement and a section on every rule, known operations, and every
 * x-rule annotation in the schemas names a rule that exists.
 */
import { expect, test } from '@playwright/test';
import { schemaFiles } from '../../schemas/index.ts';
import { operations } from '../../spec/operations.ts';
import { rules, type Rule } from '../../spec/rules.ts';

const all = rules as readonly Rule[];
const opIds = new Set<string>(operations.map((o) => o.id));

test('rule ids are unique', () => {
  const seen = new Set<string>();
  const dupes = all.filter((r) => seen.size === seen.add(r.id).size).map((r) => r.id);
  expect(dupes).toEqual([]);
});

test('rule ids are lower-case, dotted and kebab-case', () => {
  expect(all.filter((r) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/.test(r.id)).map((r) => r.id)).toEqual(
    [],
  );
});

test('every rule has a section, a requirement and at least one known operation', () => {
  for (const r of all) {
    expect(r.section, r.id).not.toBe('');
    expect(r.requirement.length, r.id).toBeGreaterThan(10);
    expect(r.operations.length, r.id).toBeGreaterThan(0);
    for (const o of r.operations) expect(opIds.has(o), `${r.id}: ${o}`).toBe(true);
  }
});

test('observe rules quote a point the document leaves unspecified', () => {
  // An observation is only for what the document does not show.
  for (const r of all.filter((x) => x.level === 'observe')) {
    expect(
      /not shown|elsewhere not shown|not shown\.|starts from the latest|Start position|Allowed source states|active ones/.test(
        r.requirement,
      ),
      r.id,
    ).toBe(true);
  }
});

test('rules that cannot be observed say why', () => {
  for (const r of all.filter((x) => x.observable === false)) expect(r.note?.length ?? 0, r.id).toBeGreaterThan(10);
});

test('every x-rule annotation in the schemas names an existing rule', () => {
  const ids = new Set(all.map((r) => r.id));
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const x = (node as { 'x-rule'?: string | Record<string, string> })['x-rule'];
    if (typeof x === 'string') found.push(x);
    else if (x) found.push(...Object.values(x));
    Object.values(node).forEach(walk);
  };
  Object.values(schemaFiles).forEach(walk);
  expect(found.length).toBeGreaterThan(30);
  expect(found.filter((id) => !ids.has(id))).toEqual([]);
});

test('every limit of the document has a rule', () => {
  // The Limits table, row by row.
  for (const id of [
    'event-streams.list.take.range',
    'events.from.max-length',
    'events.from-timestamp.max-length',
    'token-sets.list.user-id.max-length',
    'event-stream.id.length',
    'event-stream.name.length',
    'event-stream.subscriptions.min-items',
    'event-stream.status.enum',
    'client-grant.audience.min-length',
    'client-grant.scope.items.min-length',
    'client-grant.authorization-details-types.length',
    'custom-signing-keys.put.min-one-key',
    'custom-text.put.value.max-length',
  ]) {
    expect(
      all.some((r) => r.id === id),
      id,
    ).toBe(true);
  }
});
