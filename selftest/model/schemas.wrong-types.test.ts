/**
 * Wrong JSON types, field by field: for every field the document lists (with
 * its type, from selftest/model/document.ts), values of every other JSON type
 * are rejected with `type` at that field.
 */
import { test } from '@playwright/test';
import * as fc from 'fast-check';
import type { SchemaName } from '../../schemas/index.ts';
import * as arb from './arbitraries.ts';
import { assertRejects, pointer, setAt } from './check.ts';
import {
  ALLOCATION_FIELDS,
  CLIENT_GRANT_FIELDS,
  CONNECTION_CREATED_OBJECT_FIELDS,
  EVENT_CONTEXT_FIELDS,
  EVENT_ENVELOPE_FIELDS,
  EVENT_STREAM_FIELDS,
  EVENT_STREAM_PAGE_FIELDS,
  EXPERIMENT_FIELDS,
  JWK_FIELDS,
  JWKS_FIELDS,
  SSE_EVENT_PAYLOAD_FIELDS,
  TOKEN_SET_FIELDS,
  type FieldKind,
  type FieldTable,
} from './document.ts';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** Values of each JSON type; `number` here means a number that is not an integer. */
const ofType: Record<JsonType, fc.Arbitrary<unknown>> = {
  string: arb.text,
  integer: fc.integer(),
  number: arb.jsonNumber.filter((n) => !Number.isInteger(n)),
  boolean: fc.boolean(),
  null: fc.constant(null),
  object: arb.jsonObject,
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
};

/** The JSON types a field of each kind may hold. */
const allowed: Record<FieldKind, readonly JsonType[]> = {
  string: ['string'],
  'date-time': ['string'],
  'date-time|null': ['string', 'null'],
  boolean: ['boolean'],
  integer: ['integer'],
  number: ['integer', 'number'],
  object: ['object'],
  array: ['array'],
  'string[]': ['array'],
};

const wrongFor = (kind: FieldKind): { types: JsonType[]; values: fc.Arbitrary<unknown> } => {
  const types = (Object.keys(ofType) as JsonType[]).filter((t) => !allowed[kind].includes(t));
  return { types, values: fc.oneof(...types.map((t) => ofType[t])) };
};

const tables: { schema: SchemaName; base: fc.Arbitrary<unknown>; fields: FieldTable }[] = [
  { schema: 'token-set', base: arb.tokenSet, fields: TOKEN_SET_FIELDS },
  { schema: 'allocation', base: arb.allocation, fields: ALLOCATION_FIELDS },
  { schema: 'experiment', base: arb.experiment, fields: EXPERIMENT_FIELDS },
  // Without client_id and default_for: with both present the grant also breaks their exclusion (`not`).
  {
    schema: 'client-grant',
    base: arb.clientGrant.map((g) => setAt(setAt(g, 'client_id', undefined), 'default_for', undefined)),
    fields: CLIENT_GRANT_FIELDS,
  },
  { schema: 'event-stream', base: arb.eventStream, fields: EVENT_STREAM_FIELDS },
  { schema: 'event-stream-page', base: arb.eventStreamPage, fields: EVENT_STREAM_PAGE_FIELDS },
  { schema: 'jwk', base: arb.jwk, fields: JWK_FIELDS },
  { schema: 'jwks', base: arb.jwks, fields: JWKS_FIELDS },
  { schema: 'sse-event-payload', base: arb.sseEventPayload, fields: SSE_EVENT_PAYLOAD_FIELDS },
  { schema: 'event-envelope', base: arb.eventEnvelope, fields: EVENT_ENVELOPE_FIELDS },
  { schema: 'event-context', base: arb.eventContext, fields: EVENT_CONTEXT_FIELDS },
  { schema: 'connection-created-object', base: arb.connectionCreatedObject, fields: CONNECTION_CREATED_OBJECT_FIELDS },
];

for (const { schema, base, fields } of tables) {
  for (const [path, kind] of Object.entries(fields)) {
    const wrong = wrongFor(kind);
    test(`${schema}: ${path} must be ${kind}; ${wrong.types.join(', ')} rejected (type)`, () => {
      assertRejects(
        schema,
        fc.tuple(base, wrong.values).map(([b, v]) => setAt(b, path, v)),
        { keyword: 'type', at: pointer(path) },
      );
    });
    if (kind === 'string[]') {
      const notString = wrongFor('string');
      test(`${schema}: ${path} items must be strings; ${notString.types.join(', ')} rejected (type)`, () => {
        // Items before the wrong one are valid items (non-empty: some arrays require minLength 1).
        const values = fc
          .tuple(base, fc.array(arb.textBetween(1, 12), { maxLength: 2 }), notString.values)
          .map(([b, before, v]) => ({ value: setAt(b, path, [...before, v]), index: before.length }));
        // The wrong item's index varies: check each value against its own pointer.
        fc.assert(
          fc.property(values, ({ value, index }) =>
            assertRejects(schema, fc.constant(value), { keyword: 'type', at: `${pointer(path)}/${index}` }, 1),
          ),
          { numRuns: 30 },
        );
      });
    }
  }
}

// Shapes that are not objects at all.
const roots: { schema: SchemaName; kind: FieldKind }[] = [
  { schema: 'custom-text', kind: 'object' },
  { schema: 'experiment', kind: 'object' },
  { schema: 'client-grant', kind: 'object' },
  { schema: 'event-stream', kind: 'object' },
  { schema: 'jwks', kind: 'object' },
  { schema: 'token-set', kind: 'object' },
  { schema: 'token-set-list', kind: 'array' },
  { schema: 'event-type', kind: 'string' },
];
for (const { schema, kind } of roots) {
  const wrong = wrongFor(kind);
  test(`${schema}: the body must be ${kind}; ${wrong.types.join(', ')} rejected (type)`, () => {
    assertRejects(schema, wrong.values, { keyword: 'type', at: '' });
  });
}

test('custom-text: values must be strings; integer, number, boolean, null, object, array rejected (type)', () => {
  const wrong = wrongFor('string');
  assertRejects(
    'custom-text',
    fc.tuple(arb.customText, wrong.values).map(([t, v]) => ({ ...t, welcome: v })),
    { keyword: 'type', at: '/welcome', rule: 'custom-text.types' },
  );
});
