/**
 * The compiled contract: every JSON Schema in this folder, added once to one
 * Ajv (draft 2020-12, strict mode) with ajv-formats, date-time held to
 * RFC 3339 5.6's grammar exactly, and compiled once.
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
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof import('ajv-formats').default;

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
  allocation: true,
  'client-grant': true,
  'connection-created-object': true,
  'custom-text': true,
  'event-context': true,
  'event-envelope': true,
  'event-stream': true,
  'event-stream-page': true,
  'event-type': true,
  experiment: true,
  'experiment-transition-request': true,
  jwk: true,
  jwks: true,
  'sse-error-payload': true,
  'sse-event-payload': true,
  'sse-offset-only-payload': true,
  'token-request': true,
  'token-response': true,
  'token-set': true,
  'token-set-list': true,
} as const;

/**
 * RFC 3339 5.6, exactly: full-date "T" partial-time time-offset, with
 * time-numoffset = ("+" / "-") time-hour ":" time-minute (the colon is not
 * optional), seconds present, the fraction optional; "T" and "Z" in either
 * case (5.6 NOTE), never a space for "T" (the NOTE lets an application choose
 * it, the document's format does not). ajv-formats' date-time accepts a space
 * and an offset without its colon.
 */
const RFC3339_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A date-time by RFC 3339 5.6's grammar and 5.7's restrictions (days of the month, leap seconds at 23:59 UTC). */
export function isRfc3339DateTime(s: string): boolean {
  const m = RFC3339_DATE_TIME.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > (month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  const sign = m[7] === '-' ? -1 : 1;
  const offHour = m[8] === undefined ? 0 : Number(m[8]);
  const offMinute = m[9] === undefined ? 0 : Number(m[9]);
  if (offHour > 23 || offMinute > 59) return false;
  if (second === 60) {
    // 5.7: a leap second is the last second of a UTC day.
    const utc = (((hour * 60 + minute - sign * (offHour * 60 + offMinute)) % 1440) + 1440) % 1440;
    if (utc !== 23 * 60 + 59) return false;
  }
  return true;
}

/** The document gives event stream ids the format `event-stream-id`: exactly 26 characters. */
const EVENT_STREAM_ID = /^[\s\S]{26}$/u;

function createAjv(): Ajv2020 {
  // verbose: errors carry their parentSchema, whose x-rule names the broken rule.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  // x-rule: an annotation naming the rule (spec/rules.ts) that a schema node states.
  // Either a rule id, or a map from keyword to rule id with '*' for the rest.
  ajv.addKeyword({ keyword: 'x-rule', schemaType: ['string', 'object'] });
  // After addFormats: replaces its lenient date-time with RFC 3339 5.6's grammar.
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
  ajv.addFormat('event-stream-id', { type: 'string', validate: (s: string) => EVENT_STREAM_ID.test(s) });
  for (const schema of Object.values(schemaFiles)) ajv.addSchema(schema);
  return ajv;
}

export const ajv = createAjv();

// Each schema is compiled on its first use, once per process: a worker that runs the checks of one
// rule validates a few schemas, and compiling all of them took it about half a second.
const compiled = new Map<string, ValidateFunction>();
function compiledSchema(name: string): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    fn = ajv.getSchema(SCHEMA_BASE + name + '.schema.json');
    if (!fn) throw new Error(`schema ${name} did not compile`);
    compiled.set(name, fn);
  }
  return fn;
}
for (const name of Object.keys(schemaNames)) {
  if (!(name in schemaFiles)) throw new Error(`schemaNames lists ${name}, but schemas/${name}.schema.json is missing`);
}

export interface SchemaError {
  /** JSON pointer into the validated value, '' for the root. */
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  /** The rule this error breaks, from the schema's x-rule annotations. */
  rule: string | undefined;
}

export type ValidationResult = { valid: true; errors: [] } | { valid: false; errors: SchemaError[] };

export function validate(name: SchemaName, value: unknown): ValidationResult {
  const fn = compiledSchema(name);
  if (fn(value)) return { valid: true, errors: [] };
  const fallback = rootRule(name);
  return {
    valid: false,
    errors: (fn.errors ?? []).map((e) => ({
      ...toSchemaError(e),
      rule: ruleOf(e) ?? ruleAlongPath(name, e.instancePath) ?? fallback,
    })),
  };
}

/**
 * The nearest rule above an error's instance: walks the instance path down
 * the schema (following $refs into other files), keeping the last x-rule met.
 */
function ruleAlongPath(name: SchemaName, instancePath: string): string | undefined {
  let node = schemaFiles[name] as SchemaWalk | undefined;
  let found = rootRule(name);
  for (const seg of instancePath.split('/').slice(1)) {
    node = follow(node);
    const x = node?.['x-rule'];
    if (x) found = typeof x === 'string' ? x : (x['*'] ?? found);
    node =
      node?.properties?.[seg] ??
      (/^\d+$/.test(seg) ? node?.items : undefined) ??
      (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (!node) break;
  }
  const last = follow(node)?.['x-rule'];
  return last ? (typeof last === 'string' ? last : (last['*'] ?? found)) : found;
}

type SchemaWalk = SchemaNode & {
  $ref?: string;
  items?: SchemaWalk;
  additionalProperties?: SchemaWalk | boolean;
  properties?: Record<string, SchemaWalk>;
  $defs?: Record<string, SchemaWalk>;
};

/** A node with its $ref resolved: another schema file, or a $defs entry of the same one. */
function follow(node: SchemaWalk | undefined, root?: SchemaWalk): SchemaWalk | undefined {
  const ref = node?.$ref;
  if (!ref) return node;
  if (ref.startsWith('#/$defs/')) return follow((root ?? node)?.$defs?.[ref.slice(8)], root) ?? node;
  return schemaFiles[ref.replace(/\.schema\.json$/, '')] as SchemaWalk | undefined;
}

/** The rule a schema states as a whole: its root x-rule (or the root's '*'). */
export function rootRule(name: SchemaName): string | undefined {
  const x = (schemaFiles[name] as SchemaNode)['x-rule'];
  return typeof x === 'string' ? x : x?.['*'];
}

/** Every rule id a schema names in its x-rule annotations, the root's first. */
export function rulesOf(name: SchemaName): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, seen: Set<unknown>): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const x = (node as SchemaNode)['x-rule'];
    if (typeof x === 'string') found.add(x);
    else if (x) Object.values(x).forEach((r) => found.add(r));
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && !v.startsWith('#'))
        walk(schemaFiles[v.replace(/\.schema\.json$/, '')], seen);
      else if (k !== 'x-rule') walk(v, seen);
    }
  };
  walk(schemaFiles[name], new Set());
  const root = rootRule(name);
  return root ? [root, ...[...found].filter((r) => r !== root)] : [...found];
}

/**
 * The rules a value exercises: the x-rule of every schema node that met a
 * value (the root, each member present, each array item), following $refs.
 * A list with no item exercises no item rule; a member absent exercises none
 * of its rules. What a check may count as decided when the value validates.
 */
export function rulesExercised(name: SchemaName, value: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: SchemaWalk | undefined, v: unknown, root: SchemaWalk): void => {
    if (!node || v === undefined) return;
    if (node.$ref) {
      const external = !node.$ref.startsWith('#');
      const target = follow(node, root);
      if (target && target !== node) walk(target, v, external ? target : root);
    }
    const x = node['x-rule'];
    if (typeof x === 'string') found.add(x);
    else if (x) Object.values(x).forEach((r) => found.add(r));
    if (Array.isArray(v)) {
      if (node.items) v.forEach((item) => walk(node.items, item, root));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, member] of Object.entries(v)) {
        const sub =
          node.properties?.[k] ??
          (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
        walk(sub, member, root);
      }
    }
  };
  const root = schemaFiles[name] as SchemaWalk;
  walk(root, value, root);
  return [...found];
}

function toSchemaError(e: ErrorObject): SchemaError {
  return {
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
    params: e.params,
    rule: ruleOf(e),
  };
}

type XRule = string | Record<string, string>;
type SchemaNode = { 'x-rule'?: XRule; properties?: Record<string, SchemaNode> };

/**
 * The rule an error breaks: the x-rule of the schema node holding the failing
 * keyword (by keyword, else '*'); for `required`, the keyword's own entry,
 * else the missing property's x-rule.
 */
function ruleOf(e: ErrorObject): string | undefined {
  const node = e.parentSchema as SchemaNode | undefined;
  const x = node?.['x-rule'];
  if (typeof x === 'string') return x;
  if (x?.[e.keyword]) return x[e.keyword];
  if (e.keyword === 'required') {
    const missing = String((e.params as { missingProperty?: string }).missingProperty);
    const own = node?.properties?.[missing]?.['x-rule'];
    if (typeof own === 'string') return own;
  }
  return x?.['*'];
}

/** One line per error: `/path keyword: message [rule]`. */
export function formatErrors(errors: readonly SchemaError[]): string {
  return errors
    .map((e) => `${e.instancePath || '(root)'} ${e.keyword}: ${e.message}${e.rule ? ` [${e.rule}]` : ''}`)
    .join('\n');
}

/** The schema object itself, for building documents (OpenAPI) from the same source. */
export function schemaOf(name: SchemaName): object {
  return schemaFiles[name]!;
}
