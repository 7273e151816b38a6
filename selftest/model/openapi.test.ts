/**
 * spec/openapi.json: a valid OpenAPI 3.1 document (checked by
 * @readme/openapi-parser), equal to a fresh build of spec/openapi.ts, and
 * faithful to spec/operations.ts and the documented limits; usable as is by
 * other tools: references only to reusable components, an example (from the
 * emulator's seed, valid against its schema) for every parameter and request
 * body, form encodings as the suite sends them.
 */
import { expect, test } from '@playwright/test';
import { compileErrors, dereference, validate as validateOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import type { OpenAPIV3_1 } from 'openapi-types';
import qs from 'qs';
import { decodeOffset } from '../../emulator/events.ts';
import { buildEmulator, parseForm } from '../../emulator/index.ts';
import {
  ajv as projectAjv,
  formatErrors,
  SCHEMA_BASE,
  schemaFiles,
  validate,
  type SchemaName,
} from '../../schemas/index.ts';
import { OPENAPI_FILE, generateOpenApi, seedExamples } from '../../spec/build.ts';
import { BEARER, CLIENT_CREDENTIALS, buildOpenApi, componentName, defComponentName } from '../../spec/openapi.ts';
import { operations, type Operation } from '../../spec/operations.ts';
import { validValues } from './arbitraries.ts';
import { EVENT_TYPES } from './document.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof import('ajv-formats').default;

const committed = (): OpenAPIV3_1.Document => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenAPIV3_1.Document;
const examples = seedExamples();
const doc = buildOpenApi(examples);
const ops = operations as readonly Operation[];

function operationOf(op: Operation): OpenAPIV3_1.OperationObject {
  const item = doc.paths?.[op.path] as Record<string, OpenAPIV3_1.OperationObject> | undefined;
  const found = item?.[op.method.toLowerCase()];
  if (!found) throw new Error(`no ${op.method} ${op.path} in the OpenAPI document`);
  return found;
}
const param = (op: Operation, name: string): OpenAPIV3_1.ParameterObject => {
  const p = (operationOf(op).parameters ?? []).find((x) => (x as OpenAPIV3_1.ParameterObject).name === name);
  if (!p) throw new Error(`${op.id} has no parameter ${name}`);
  return p as OpenAPIV3_1.ParameterObject;
};
const opById = (id: Operation['id']): Operation => ops.find((o) => o.id === id)!;

test('spec/openapi.json equals a fresh build (run npm run gen after changing spec/ or schemas/)', () => {
  expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generateOpenApi());
});

test('spec/openapi.json is a valid OpenAPI 3.1 document (@readme/openapi-parser validate), without warnings', async () => {
  const result = await validateOpenApi(committed());
  expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  expect(result.warnings).toEqual([]);
  expect(committed().openapi).toBe('3.1.0');
});

test('every $ref of spec/openapi.json resolves inside the document (dereference needs no network)', async () => {
  const api = (await dereference(committed())) as OpenAPIV3_1.Document;
  expect(JSON.stringify(api.paths)).not.toContain('"$ref"');
});

test('servers: {base_url} is https://{tenant}/api/v2; the token endpoint has its own {auth_url} server', () => {
  expect(doc.servers?.map((s) => s.url)).toEqual(['https://{tenant}/api/v2']);
  const token = operationOf(opById('oauth.token'));
  expect(token.servers?.map((s) => s.url)).toEqual(['https://{tenant}']);
  expect(token.security).toEqual([]);
});

for (const op of ops) {
  test(`${op.id}: ${op.method} ${op.path} is described, with its operationId, tag and security`, () => {
    const o = operationOf(op);
    expect(o.operationId).toBe(op.id);
    expect(o.tags).toEqual([op.tag.replace(/^@/, '')]);
    if (op.id !== 'oauth.token') {
      for (const scope of op.scopes) {
        expect(o.security).toContainEqual({ [BEARER]: [scope] });
        expect(o.security).toContainEqual({ [CLIENT_CREDENTIALS]: [scope] });
      }
    }
    const types = [...(op.requestContentTypes ?? [])];
    const body = o.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
    expect(Object.keys(body?.content ?? {}).sort()).toEqual(types.sort());
  });
}

test('security schemes: bearer JWT, and OAuth 2.0 client credentials at /oauth/token/ with every scope of the operations table', () => {
  const schemes = doc.components?.securitySchemes as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  expect(schemes[BEARER]).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  const oauth = schemes[CLIENT_CREDENTIALS] as OpenAPIV3_1.OAuth2SecurityScheme;
  expect(oauth.type).toBe('oauth2');
  expect(oauth.flows.clientCredentials?.tokenUrl).toBe('/oauth/token/');
  expect(Object.keys(oauth.flows.clientCredentials?.scopes ?? {}).sort()).toEqual(
    [...new Set(ops.flatMap((o) => o.scopes))].sort(),
  );
});

const limits: {
  title: string;
  op: Operation['id'];
  name: string;
  where: 'path' | 'query';
  schema: Record<string, unknown>;
  extra?: Record<string, unknown>;
}[] = [
  {
    title: 'user id maximum length 300',
    op: 'token-sets.list',
    name: 'id',
    where: 'path',
    schema: { type: 'string', maxLength: 300 },
  },
  { title: 'experiment id', op: 'experiments.transition', name: 'id', where: 'path', schema: { type: 'string' } },
  { title: 'client grant id', op: 'client-grants.get', name: 'id', where: 'path', schema: { type: 'string' } },
  {
    title: 'from maximum length 1024',
    op: 'events.subscribe',
    name: 'from',
    where: 'query',
    schema: { type: 'string', maxLength: 1024 },
  },
  {
    title: 'from_timestamp maximum length 20, RFC 3339',
    op: 'events.subscribe',
    name: 'from_timestamp',
    where: 'query',
    schema: { type: 'string', maxLength: 20, format: 'date-time' },
  },
  {
    title: 'event_type repeatable (explode) with the event type enum',
    op: 'events.subscribe',
    name: 'event_type',
    where: 'query',
    schema: { type: 'array', items: { $ref: '#/components/schemas/EventType' } },
    extra: { style: 'form', explode: true },
  },
  {
    title: 'event stream id exactly 26 characters',
    op: 'event-streams.get',
    name: 'id',
    where: 'path',
    schema: { type: 'string', minLength: 26, maxLength: 26 },
  },
  {
    title: 'take 1 to 100, default 50',
    op: 'event-streams.list',
    name: 'take',
    where: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
  { title: 'list from', op: 'event-streams.list', name: 'from', where: 'query', schema: { type: 'string' } },
  { title: 'profile id', op: 'custom-text.put', name: 'id', where: 'path', schema: { type: 'string' } },
  {
    title: 'language enum en',
    op: 'custom-text.put',
    name: 'language',
    where: 'path',
    schema: { type: 'string', enum: ['en'] },
  },
  {
    title: 'page enum get-started',
    op: 'custom-text.put',
    name: 'page',
    where: 'path',
    schema: { type: 'string', enum: ['get-started'] },
  },
];
for (const l of limits) {
  test(`${l.op}: parameter ${l.name} (${l.where}): ${l.title}`, () => {
    const p = param(opById(l.op), l.name);
    expect(p.in).toBe(l.where);
    expect(p.required).toBe(l.where === 'path');
    expect(p.schema).toEqual(l.schema);
    if (l.extra) expect(p).toMatchObject(l.extra);
  });
}

test('the EventType component lists exactly the documented event types', () => {
  expect(doc.components?.schemas?.['EventType']?.enum).toEqual([...EVENT_TYPES]);
});

test('success responses: 200 where the document says so; 2XX, described as "not shown", elsewhere', () => {
  for (const op of ops) {
    const responses = operationOf(op).responses ?? {};
    const success = Object.keys(responses).filter((k) => k.startsWith('2'));
    if (op.id === 'token-sets.list' || op.id === 'oauth.token') expect(success, op.id).toEqual(['200']);
    else {
      expect(success, op.id).toEqual(['2XX']);
      expect((responses['2XX'] as OpenAPIV3_1.ResponseObject).description, op.id).toMatch(/not shown/);
    }
  }
});

test('token-set listing: documented errors 401, 403, 404, 429, and 429 carries the X-RateLimit-* headers', () => {
  const responses = operationOf(opById('token-sets.list')).responses ?? {};
  expect(Object.keys(responses).sort()).toEqual(['200', '401', '403', '404', '429']);
  const tooMany = responses['429'] as OpenAPIV3_1.ResponseObject;
  expect(Object.keys(tooMany.headers ?? {}).sort()).toEqual([
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
  ]);
  const ok = responses['200'] as OpenAPIV3_1.ResponseObject;
  expect(ok.content?.['application/json']?.schema).toEqual({
    $ref: '#/components/schemas/FederatedConnectionTokenSetList',
  });
});

test('events: the success response is text/event-stream, data lines described by the SSE payload schemas', () => {
  const responses = operationOf(opById('events.subscribe')).responses ?? {};
  const content = (responses['2XX'] as OpenAPIV3_1.ResponseObject).content ?? {};
  expect(Object.keys(content)).toEqual(['text/event-stream']);
  expect(JSON.stringify(content)).toContain('#/components/schemas/SseEventPayload');
});

/** Component name → the schema file (and pointer) it comes from: `event-type.schema.json` or `experiment.schema.json#/$defs/status`. */
const componentSource = new Map<string, string>();
for (const [file, schema] of Object.entries(schemaFiles)) {
  componentSource.set(componentName(file), `${file}.schema.json`);
  for (const key of Object.keys((schema as { $defs?: object }).$defs ?? {}))
    componentSource.set(defComponentName(file, key), `${file}.schema.json#/$defs/${key}`);
}

test('components/schemas: one per schema file and one per $defs entry of a file (hoisted), without $id, $schema or $defs', () => {
  const schemas = doc.components?.schemas ?? {};
  expect(Object.keys(schemas).sort()).toEqual([...componentSource.keys()].sort());
  expect(Object.keys(schemas)).toEqual(
    expect.arrayContaining(['ExperimentStatus', 'ConnectionOptions', 'OidcMetadata', 'ConnectionCreatedObjectStrings']),
  );
  for (const [name, s] of Object.entries(schemas)) {
    expect(s, name).not.toHaveProperty('$id');
    expect(s, name).not.toHaveProperty('$schema');
    expect(s, name).not.toHaveProperty('$defs');
  }
});

test('every $ref of spec/openapi.json names a whole reusable component (no pointer into a component)', () => {
  const refs = [...readFileSync(OPENAPI_FILE, 'utf8').matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]!);
  expect(refs.length).toBeGreaterThan(0);
  for (const r of refs) expect(r).toMatch(/^#\/components\/(schemas|headers)\/[A-Za-z][A-Za-z0-9-]*$/);
});

/** A parameter schema of the document as a schema of the project's Ajv: component refs become the schema files' $ids. */
function projectSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(projectSchema);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => {
      if (k !== '$ref' || typeof v !== 'string') return [k, projectSchema(v)];
      const source = componentSource.get(v.replace('#/components/schemas/', ''));
      if (!source) throw new Error(`unknown component ${v}`);
      return [k, SCHEMA_BASE + source];
    }),
  );
}
const schemaNameOf = (r: unknown): SchemaName => {
  const source = componentSource.get(String((r as { $ref?: string }).$ref).replace('#/components/schemas/', ''));
  if (!source?.endsWith('.schema.json')) throw new Error(`no schema file for ${JSON.stringify(r)}`);
  return source.replace(/\.schema\.json$/, '') as SchemaName;
};

for (const op of ops) {
  const params = (operationOf(op).parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  if (params.length > 0) {
    test(`${op.id}: every parameter has an example valid against its schema (project Ajv)`, () => {
      for (const p of params) {
        expect(p, `${op.id} ${p.name}`).toHaveProperty('example');
        const check = projectAjv.compile(projectSchema(p.schema) as object);
        expect(
          check(p.example),
          `${op.id} ${p.in} ${p.name} = ${JSON.stringify(p.example)}: ${projectAjv.errorsText(check.errors)}`,
        ).toBe(true);
      }
    });
  }
  const body = operationOf(op).requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (body) {
    test(`${op.id}: the request body has an example, valid against its schema, for each media type`, () => {
      for (const [type, media] of Object.entries(body.content)) {
        expect(media, `${op.id} ${type}`).toHaveProperty('example');
        const r = validate(schemaNameOf(media.schema), media.example);
        expect(r.valid, `${op.id} ${type}: ${r.valid ? '' : formatErrors(r.errors)}`).toBe(true);
      }
    });
  }
}

test('the examples address the resources of a fresh emulator (its default seed)', async () => {
  const app = await buildEmulator();
  try {
    const { state } = app.emulator;
    expect(examples.userId).toBe(state.fixtures.userId);
    expect((state.tokenSets.get(examples.userId) ?? []).length).toBeGreaterThan(0);
    expect(examples.clientGrantId).toBe(state.fixtures.clientGrantId);
    expect(examples.selfServiceProfileId).toBe(state.fixtures.selfServiceProfileId);
    expect(state.fixtures.eventStreamIds).toContain(examples.eventStreamId);
    expect(state.experiments.has(examples.experimentId)).toBe(true);
    // The events cursor is a position of a fresh emulator's log (it refuses a cursor past the end): its start, before the seeded history.
    expect(decodeOffset(examples.events.from)).toBeLessThanOrEqual(app.emulator.events.position);
    // Not one of the draft experiments the suite's writes use up.
    expect(state.fixtures.experimentIds).not.toContain(examples.experimentId);
    // The list example is the second page of two: its from is the next of the first page.
    const token = await app.inject({
      method: 'POST',
      url: '/oauth/token/',
      payload: {
        grant_type: 'client_credentials',
        client_id: app.emulator.auth.clients.full.clientId,
        client_secret: app.emulator.auth.clients.full.clientSecret,
        audience: 'http://localhost/api/v2/',
      },
    });
    const auth = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}` };
    const first = await app.inject({
      method: 'GET',
      url: `/api/v2/event-streams?take=${examples.eventStreamsPage.take}`,
      headers: auth,
    });
    expect(first.json<{ next?: string }>().next).toBe(examples.eventStreamsPage.from);
  } finally {
    await app.close();
  }
});

test('token-set listing: the X-RateLimit-* headers of a 429 are required', () => {
  const tooMany = (operationOf(opById('token-sets.list')).responses ?? {})['429'] as OpenAPIV3_1.ResponseObject;
  for (const [name, h] of Object.entries(tooMany.headers ?? {})) {
    const header = doc.components?.headers?.[
      (h as OpenAPIV3_1.ReferenceObject).$ref.replace('#/components/headers/', '')
    ] as OpenAPIV3_1.HeaderObject;
    expect(header.required, name).toBe(true);
  }
});

test('form bodies: the JWKS declares the bracket notation the suite sends (deepObject, explode), custom text plain fields', () => {
  const keys = (operationOf(opById('custom-signing-keys.put')).requestBody as OpenAPIV3_1.RequestBodyObject).content[
    'application/x-www-form-urlencoded'
  ]!;
  expect(keys.encoding).toEqual({ keys: { style: 'deepObject', explode: true } });
  // As tests/custom-signing-keys.spec.ts sends it, and as a qs-reading server reads it back.
  expect(parseForm(qs.stringify(keys.example, { encodeValuesOnly: true }))).toEqual(keys.example);
  const text = (operationOf(opById('custom-text.put')).requestBody as OpenAPIV3_1.RequestBodyObject).content[
    'application/x-www-form-urlencoded'
  ]!;
  expect(text.encoding).toBeUndefined();
  expect(
    Object.fromEntries(new URLSearchParams(new URLSearchParams(text.example as Record<string, string>).toString())),
  ).toEqual(text.example);
});

test('the component schemas accept what the schema files accept (refs rewritten, meaning kept)', () => {
  // A fresh Ajv over the document itself: refs go through #/components/schemas/...
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('event-stream-id', /^[\s\S]{26}$/u);
  ajv.addSchema({ $id: 'https://openapi.invalid/doc', ...JSON.parse(generateOpenApi()) });
  for (const name of Object.keys(schemaFiles) as SchemaName[]) {
    const check = ajv.getSchema(`https://openapi.invalid/doc#/components/schemas/${componentName(name)}`)!;
    fc.assert(
      fc.property(validValues[name] as fc.Arbitrary<unknown>, (v) => {
        if (!check(v))
          throw new Error(`${componentName(name)} rejected ${JSON.stringify(v)}: ${ajv.errorsText(check.errors)}`);
      }),
      { numRuns: 30 },
    );
  }
  // And reject through the rewritten refs.
  const component = (n: string) => ajv.getSchema(`https://openapi.invalid/doc#/components/schemas/${n}`)!;
  expect(component('Experiment')({})).toBe(false);
  expect(component('Jwks')({ keys: [] })).toBe(false);
  expect(component('Jwks')({ keys: [{ kid: 1 }] })).toBe(false);
  expect(component('EventStreamPage')({ eventStreams: [{ name: '' }] })).toBe(false);
  expect(component('ConnectionCreatedObject')({ options: { oidc_metadata: { scopes_supported: [1] } } })).toBe(false);
});
