/**
 * The schema files as files: each is named by its `$id`, uses draft 2020-12,
 * is listed in schemas/index.ts, has a title that names its type and component,
 * and resolves every `$ref` inside the schemas folder.
 */
import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { SCHEMA_BASE, SCHEMAS_DIR, schemaFiles, schemaNames, type SchemaName } from '../../schemas/index.ts';
import type { SchemaTypes } from '../../schemas/types.ts';
import { componentName, resolveSchemaRef } from '../../spec/openapi.ts';

// Compile-time: the generated SchemaTypes has exactly the keys of schemaNames.
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const sameNames: Equal<keyof SchemaTypes, SchemaName> = true;

const files = readdirSync(SCHEMAS_DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .sort();

test('every schema file has $id https://conformance.invalid/schemas/<file name> and $schema 2020-12', () => {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const schema = schemaFiles[file.replace(/\.schema\.json$/, '')] as { $id?: unknown; $schema?: unknown };
    expect(schema.$id, file).toBe(`https://conformance.invalid/schemas/${file}`);
    expect(schema.$id, file).toBe(SCHEMA_BASE + file);
    expect(schema.$schema, file).toBe('https://json-schema.org/draft/2020-12/schema');
  }
});

test('schemaNames in schemas/index.ts lists exactly the schema files', () => {
  expect(sameNames).toBe(true);
  expect(Object.keys(schemaNames).sort()).toEqual(files.map((f) => f.replace(/\.schema\.json$/, '')).sort());
});

test('every schema file has a unique PascalCase title (its type and component name)', () => {
  const titles = files.map((f) => componentName(f.replace(/\.schema\.json$/, '')));
  expect(new Set(titles).size).toBe(titles.length);
});

test('every $ref resolves to a schema file of the folder and to a node inside it', () => {
  const walk = (node: unknown, file: string, visit: (ref: string) => void): void => {
    if (Array.isArray(node)) node.forEach((n) => walk(n, file, visit));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') visit(v);
        else walk(v, file, visit);
      }
    }
  };
  let count = 0;
  for (const name of Object.keys(schemaFiles)) {
    walk(schemaFiles[name], name, (ref) => {
      count++;
      const { file, pointer } = resolveSchemaRef(ref, name);
      let target: unknown = schemaFiles[file];
      for (const token of pointer.split('/').slice(1))
        target = (target as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(target, `${name}: ${ref}`).toBeInstanceOf(Object);
    });
  }
  expect(count).toBeGreaterThan(0);
});

test('a $ref that leaves the schemas folder is refused, never fetched', () => {
  expect(() => resolveSchemaRef('https://example.com/x.schema.json', 'jwks')).toThrow(/leaves the schemas folder/);
  expect(() => resolveSchemaRef('nope.schema.json', 'jwks')).toThrow(/names no schema file/);
  expect(resolveSchemaRef('jwk.schema.json', 'jwks')).toEqual({ file: 'jwk', pointer: '' });
  expect(resolveSchemaRef('https://conformance.invalid/schemas/jwk.schema.json#/properties/kid', 'jwks')).toEqual({
    file: 'jwk',
    pointer: '/properties/kid',
  });
  expect(resolveSchemaRef('#/$defs/status', 'experiment')).toEqual({ file: 'experiment', pointer: '/$defs/status' });
});
