/**
 * The compiled contract: every JSON Schema in this folder, added once to one
 * Ajv (draft 2020-12, strict mode) with ajv-formats, and compiled once.
 *
 * `validate(schemaId, value)` answers with readable errors
 * (instance path, keyword, message) instead of throwing.
 *
 * @example
 *   const r = validate('experiment', body);
 *   if (!r.valid) console.log(formatErrors(r.errors));
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its callable sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof import('ajv-formats').default;

export const SCHEMA_BASE = 'https://conformance.invalid/schemas/';
export const SCHEMAS_DIR = dirname(fileURLToPath(import.meta.url));

/** Every schema file of this folder, by short name (file name less `.schema.json`). */
export const schemaFiles: Readonly<Record<string, object>> = Object.fromEntries(
  readdirSync(SCHEMAS_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(join(SCHEMAS_DIR, f), 'utf8')) as object]),
);

export type SchemaName = keyof typeof schemaNames;
/** The short names, as a typed table, so a typo in a schema name is a compile error. */
export const schemaNames = {
  'allocation': true,
  'client-grant': true,
  'connection-created-object': true,
  'custom-text': true,
  'event-context': true,
  'event-envelope': true,
  'event-stream': true,
  'event-stream-page': true,
  'event-type': true,
  'experiment': true,
  'experiment-transition-request': true,
  'jwk': true,
  'jwks': true,
  'sse-error-payload': true,
  'sse-event-payload': true,
  'sse-offset-only-payload': true,
  'token-request': true,
  'token-response': true,
  'token-set': true,
  'token-set-list': true,
} as const;

/** The document gives event stream ids the format `event-stream-id`: exactly 26 characters. */
const EVENT_STREAM_ID = /^[\s\S]{26}$/u;

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('event-stream-id', { type: 'string', validate: (s: string) => EVENT_STREAM_ID.test(s) });
  for (const schema of Object.values(schemaFiles)) ajv.addSchema(schema);
  return ajv;
}

export const ajv = createAjv();

const compiled = new Map<string, ValidateFunction>();
for (const name of Object.keys(schemaFiles)) {
  const fn = ajv.getSchema(SCHEMA_BASE + name + '.schema.json');
  if (!fn) throw new Error(`schema ${name} did not compile`);
  compiled.set(name, fn);
}
for (const name of Object.keys(schemaNames)) {
  if (!compiled.has(name)) throw new Error(`schemaNames lists ${name}, but schemas/${name}.schema.json is missing`);
}

export interface SchemaError {
  /** JSON pointer into the validated value, '' for the root. */
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

export type ValidationResult = { valid: true; errors: [] } | { valid: false; errors: SchemaError[] };

export function validate(name: SchemaName, value: unknown): ValidationResult {
  const fn = compiled.get(name)!;
  if (fn(value)) return { valid: true, errors: [] };
  return { valid: false, errors: (fn.errors ?? []).map(toSchemaError) };
}

function toSchemaError(e: ErrorObject): SchemaError {
  return { instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword, params: e.params };
}

/** One line per error: `/path keyword: message`. */
export function formatErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.keyword}: ${e.message}`).join('\n');
}

/** The schema object itself, for building documents (OpenAPI) from the same source. */
export function schemaOf(name: SchemaName): object {
  return schemaFiles[name]!;
}
