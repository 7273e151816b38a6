/**
 * The OpenAPI 3.1 description of the interface, built from the two sources
 * the rest of the project uses: the operations table (spec/operations.ts) and
 * the JSON Schemas (schemas/*.schema.json). Nothing here restates a field:
 * bodies are `$ref`s to `#/components/schemas/<title>`, and the components are
 * the schema files themselves with `$id`/`$schema` removed and their `$ref`s
 * rewritten (a `$id` inside a component would change the base of those refs).
 *
 * `npm run gen` (spec/build.ts) writes the result to spec/openapi.json; the
 * selftest selftest/model/openapi.test.ts checks that file is fresh and valid.
 *
 * Where the document says "not shown" (success status codes, scopes, error
 * statuses), the description says so instead of inventing a value.
 *
 * Made for other tools (Dredd, Prism, Schemathesis) to use as is: each
 * `$defs` entry of a schema file is a component of its own, so every `$ref`
 * names a whole component; every parameter and request body carries an
 * example (SeedExamples, from the emulator's seed via spec/build.ts); the
 * 429's X-RateLimit-* headers are required; the form JWKS declares the
 * `encoding` the suite sends.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { SCHEMA_BASE, schemaFiles } from '../schemas/index.ts';
import { inScopeScopes, operations, type Operation, type OperationId } from './operations.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// ---------------------------------------------------------------------------
// Schema bundling: one shared step for OpenAPI components and for the types.
// ---------------------------------------------------------------------------

const SCHEMA_SUFFIX = '.schema.json';

/** Component (and TypeScript type) name of a schema file: its `title`. */
export function componentName(file: string): string {
  const schema = schemaFiles[file] as { title?: unknown } | undefined;
  if (!schema) throw new Error(`no schema file schemas/${file}${SCHEMA_SUFFIX}`);
  if (typeof schema.title !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(schema.title)) {
    throw new Error(`schemas/${file}${SCHEMA_SUFFIX} needs a PascalCase title to name its component`);
  }
  return schema.title;
}

/**
 * Resolves a `$ref` found in schemas/<file>.schema.json to the schema file it
 * names and the JSON pointer inside it, without any network: `X.schema.json`,
 * `https://conformance.invalid/schemas/X.schema.json` and `#/...` all map to
 * files of the schemas folder.
 */
export function resolveSchemaRef(ref: string, file: string): { file: string; pointer: string } {
  const url = new URL(ref, SCHEMA_BASE + file + SCHEMA_SUFFIX);
  const document = url.href.slice(0, url.href.length - url.hash.length);
  if (!document.startsWith(SCHEMA_BASE) || !document.endsWith(SCHEMA_SUFFIX)) {
    throw new Error(`schemas/${file}${SCHEMA_SUFFIX}: $ref ${ref} leaves the schemas folder`);
  }
  const target = document.slice(SCHEMA_BASE.length, -SCHEMA_SUFFIX.length);
  if (!(target in schemaFiles)) throw new Error(`schemas/${file}${SCHEMA_SUFFIX}: $ref ${ref} names no schema file`);
  const pointer = decodeURIComponent(url.hash.replace(/^#/, ''));
  if (pointer !== '' && !pointer.startsWith('/'))
    throw new Error(`schemas/${file}${SCHEMA_SUFFIX}: $ref ${ref} is not a JSON pointer`);
  return { file: target, pointer };
}

/** Project annotations left out of the bundle: x-rule names a rule of spec/rules.ts, which neither OpenAPI nor the types need. */
const DROPPED_ANNOTATIONS = new Set(['x-rule']);
/** Keywords whose value maps names to schemas: their keys are names, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** The component name of `$defs/<key>` of a schema file: the def's own PascalCase `title`, else the file's title + PascalCase key. */
export function defComponentName(file: string, key: string): string {
  const defs = (schemaFiles[file] as { $defs?: Record<string, { title?: unknown }> }).$defs;
  const def = defs?.[key];
  if (!def) throw new Error(`schemas/${file}${SCHEMA_SUFFIX} has no $defs/${key}`);
  if (typeof def.title === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(def.title)) return def.title;
  return (
    componentName(file) +
    key
      .replace(/(^|[^A-Za-z0-9]+)([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase())
      .replace(/[^A-Za-z0-9]/g, '')
  );
}

/**
 * How `$ref`s are rewritten: `nested` keeps a ref into a file's `$defs` as a
 * pointer inside that file's schema (`<prefix>Experiment/$defs/status`);
 * `hoisted` makes each `$defs` entry a schema of its own (`<prefix>ExperimentStatus`),
 * since some tools (Dredd) take references only to a whole reusable component.
 */
type DefsMode = 'nested' | 'hoisted';

function rewriteRefs(node: Json, file: string, refPrefix: string, mode: DefsMode, isNameMap = false): Json {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, file, refPrefix, mode));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (isNameMap) out[key] = rewriteRefs(value, file, refPrefix, mode);
    else if (DROPPED_ANNOTATIONS.has(key)) continue;
    else if (key === '$ref' && typeof value === 'string') {
      const { file: target, pointer } = resolveSchemaRef(value, file);
      if (mode === 'nested' || pointer === '') out[key] = refPrefix + componentName(target) + pointer;
      else {
        const def = /^\/\$defs\/([^/]+)$/.exec(pointer);
        if (!def)
          throw new Error(
            `schemas/${file}${SCHEMA_SUFFIX}: $ref ${value} points inside a schema, not at a file or one of its $defs`,
          );
        out[key] = refPrefix + defComponentName(target, def[1]!.replace(/~1/g, '/').replace(/~0/g, '~'));
      }
    } else out[key] = rewriteRefs(value, file, refPrefix, mode, NAME_MAPS.has(key));
  }
  return out;
}

/**
 * Every schema file, keyed by its title, as a self-contained set of schemas
 * whose `$ref`s point at `refPrefix + <title>` (e.g. `#/components/schemas/`).
 * The root `$id` and `$schema` and the x-rule annotations are dropped; everything else is kept as is.
 * With `mode` `hoisted`, each file's `$defs` entries are schemas of the set too
 * (named by defComponentName), and no schema keeps a `$defs`.
 */
export function bundledSchemas(refPrefix: string, mode: DefsMode = 'nested'): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  const add = (name: string, schema: JsonObject, from: string): void => {
    if (name in out) throw new Error(`two schemas are named ${name} (the second from schemas/${from}${SCHEMA_SUFFIX})`);
    out[name] = schema;
  };
  for (const [file, schema] of Object.entries(schemaFiles)) {
    const { $id: _id, $schema: _schema, $defs, ...rest } = schema as JsonObject;
    if (mode === 'nested') {
      add(
        componentName(file),
        rewriteRefs($defs === undefined ? rest : { ...rest, $defs }, file, refPrefix, mode) as JsonObject,
        file,
      );
      continue;
    }
    add(componentName(file), rewriteRefs(rest, file, refPrefix, mode) as JsonObject, file);
    for (const [key, def] of Object.entries(($defs ?? {}) as JsonObject))
      add(defComponentName(file, key), rewriteRefs(def, file, refPrefix, mode) as JsonObject, file);
  }
  return out;
}

// ---------------------------------------------------------------------------
// The document.
// ---------------------------------------------------------------------------

/** Extensions this document puts on operations. */
interface OperationExtensions {
  /** Section of the interface document the operation comes from. */
  'x-document-section'?: string;
  /** false when the document does not show the required scope (see spec/operations.ts). */
  'x-scope-documented'?: boolean;
  /** Release lifecycle label, where the document gives one (Versioning 2). */
  'x-release-lifecycle'?: string;
}
export type OpenApiDocument = OpenAPIV3_1.Document<OperationExtensions>;

/**
 * The examples of the document: a value for every path parameter, query
 * parameter and request body, so that tools which send requests from the
 * document (Dredd, Schemathesis) address real resources. spec/build.ts takes
 * them from the emulator's seed (the embedded target); selftest/model checks
 * each against its schema.
 */
export interface SeedExamples {
  /** A user holding token sets. */
  userId: string;
  /** An experiment the conformance suite does not use up, and a status it may move to. */
  experimentId: string;
  experimentTransition: { status: string };
  clientGrantId: string;
  eventStreamId: string;
  /** `from` (the `next` of the page before) and `take` of one page of event streams. */
  eventStreamsPage: { from: string; take: number };
  /** Start positions and event types of the events stream. */
  events: { from: string; from_timestamp: string; event_type: string[] };
  selfServiceProfileId: string;
  /** Custom text of the self-service profile, for both media types. */
  customText: Record<string, string>;
  /** A JWKS of public keys, for both media types. */
  jwks: { keys: Record<string, string | string[]>[] };
  /** A token request; the client credentials are placeholders (a secret never enters the document). */
  tokenRequest: Record<string, string>;
}

const SCHEMAS = '#/components/schemas/';
const ref = (file: string): OpenAPIV3_1.ReferenceObject => ({ $ref: SCHEMAS + componentName(file) });

/** Security scheme names. */
export const BEARER = 'bearer';
export const CLIENT_CREDENTIALS = 'clientCredentials';

const NOT_SHOWN_SUCCESS =
  'Success. The document gives the body but not the status code ("success status code: not shown"), so any 2XX is described.';

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Parameters of each operation, with the limits the document states. */
function parameters(id: OperationId, ex: SeedExamples): OpenAPIV3_1.ParameterObject[] {
  const path = (name: string, description: string, schema: object, example: Json): OpenAPIV3_1.ParameterObject =>
    ({ name, in: 'path', required: true, description, schema, example }) as OpenAPIV3_1.ParameterObject;
  const query = (
    name: string,
    description: string,
    schema: object,
    example: Json,
    extra: object = {},
  ): OpenAPIV3_1.ParameterObject =>
    ({ name, in: 'query', required: false, description, schema, example, ...extra }) as OpenAPIV3_1.ParameterObject;
  switch (id) {
    case 'token-sets.list':
      return [path('id', 'User identifier; maximum length 300.', { type: 'string', maxLength: 300 }, ex.userId)];
    case 'experiments.transition':
      return [path('id', 'Experiment identifier.', { type: 'string' }, ex.experimentId)];
    case 'client-grants.get':
      return [path('id', 'Client grant identifier.', { type: 'string' }, ex.clientGrantId)];
    case 'events.subscribe':
      return [
        query(
          'from',
          'Opaque cursor of a stream position (an `offset` from an earlier payload). When absent, the stream starts from the latest events. Maximum length 1024.',
          { type: 'string', maxLength: 1024 },
          ex.events.from,
        ),
        query(
          'from_timestamp',
          'RFC 3339 timestamp: start position for the initial query only, when no cursor exists; later requests use `from`, which is more accurate. Maximum length 20.',
          { type: 'string', format: 'date-time', maxLength: 20 },
          ex.events.from_timestamp,
        ),
        query(
          'event_type',
          'Event types to stream, one occurrence per type. When absent, all event types are streamed.',
          { type: 'array', items: ref('event-type') },
          ex.events.event_type,
          { style: 'form', explode: true },
        ),
      ];
    case 'event-streams.get':
      return [
        path(
          'id',
          'Event stream identifier; exactly 26 characters.',
          { type: 'string', minLength: 26, maxLength: 26 },
          ex.eventStreamId,
        ),
      ];
    case 'event-streams.list':
      return [
        query(
          'from',
          'Identifier from which to start the selection: the `next` of the previous page.',
          { type: 'string' },
          ex.eventStreamsPage.from,
        ),
        query(
          'take',
          'Results per page: 1 to 100, default 50.',
          { type: 'integer', minimum: 1, maximum: 100, default: 50 },
          ex.eventStreamsPage.take,
        ),
      ];
    case 'custom-signing-keys.put':
      return [];
    case 'custom-text.put':
      return [
        path('id', 'Self-service profile identifier.', { type: 'string' }, ex.selfServiceProfileId),
        path('language', 'Language; allowed value: `en`.', { type: 'string', enum: ['en'] }, 'en'),
        path(
          'page',
          'Flow page; allowed value: `get-started`.',
          { type: 'string', enum: ['get-started'] },
          'get-started',
        ),
      ];
    case 'oauth.token':
      return [];
  }
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The request body of each operation that has one (content types come from
 * spec/operations.ts): schema, description, example (one value for every
 * media type) and, for form bodies, the `encoding` the suite sends.
 */
function requestBodyOf(
  id: OperationId,
  ex: SeedExamples,
):
  | { file: string; description: string; example: Json; formEncoding?: Record<string, OpenAPIV3_1.EncodingObject> }
  | undefined {
  switch (id) {
    case 'experiments.transition':
      return {
        file: 'experiment-transition-request',
        description: 'The requested status; `draft` is not an allowed target.',
        example: ex.experimentTransition,
      };
    case 'custom-signing-keys.put':
      return {
        file: 'jwks',
        description:
          'JWKS: `keys`, at least one JWK. Replaces the entire set of custom signing keys. How nested members are encoded in a form body: not shown; the encoding given is the one the conformance suite sends (bracket notation: `keys[0][kty]=EC&keys[0][key_ops][0]=verify`).',
        example: ex.jwks,
        // deepObject with explode: `keys[0][kty]=EC`, nested to any depth (the qs library's bracket notation).
        formEncoding: { keys: { style: 'deepObject', explode: true } },
      };
    case 'custom-text.put':
      return {
        file: 'custom-text',
        description:
          'Text keys to text values (each at most 2000 characters). How the object is encoded in a form body: not shown; the conformance suite sends one plain form field per text key (`introduction=Welcome`), the default encoding of an object body.',
        example: ex.customText,
      };
    case 'oauth.token':
      return {
        file: 'token-request',
        description: 'Client-credentials token request; `audience` is `/api/v2/` (Authentication 2).',
        example: ex.tokenRequest,
      };
    default:
      return undefined;
  }
}

function jsonResponse(description: string, file: string): OpenAPIV3_1.ResponseObject {
  return { description, content: { 'application/json': { schema: ref(file) } } };
}

function responses(id: OperationId): OpenAPIV3_1.ResponsesObject {
  switch (id) {
    case 'token-sets.list':
      return {
        '200': jsonResponse('The active token sets of the user.', 'token-set-list'),
        '401': {
          description: 'Invalid token; the JWT signature is invalid; the client is not global. Body shape: not shown.',
        },
        '403': {
          description:
            'Insufficient scope; any of the required scopes is expected (`read:federated_connections_tokens`). Body shape: not shown.',
        },
        '404': { description: 'The user does not exist. Body shape: not shown.' },
        '429': {
          description:
            'Too many requests. The X-RateLimit-* headers describe the rate limit; numeric values and windows: not shown. Body shape: not shown.',
          headers: Object.fromEntries(RATE_LIMIT_HEADERS.map((h) => [h, { $ref: `#/components/headers/${h}` }])),
        },
      };
    case 'experiments.transition':
      return { '2XX': jsonResponse(`${NOT_SHOWN_SUCCESS} Body: the updated experiment.`, 'experiment') };
    case 'client-grants.get':
      return { '2XX': jsonResponse(`${NOT_SHOWN_SUCCESS} Body: the client grant.`, 'client-grant') };
    case 'events.subscribe':
      return {
        '2XX': {
          description: `${NOT_SHOWN_SUCCESS} Body: a Server-Sent Events stream; the SSE \`event\` field carries the event type (or \`error\`, \`offset-only\`) and each data line holds one JSON payload: SseEventPayload, SseErrorPayload or SseOffsetOnlyPayload. Response headers: not shown.`,
          content: {
            'text/event-stream': {
              schema: {
                type: 'string',
                description:
                  'The event stream, in the text/event-stream format; the schema of one data line is in x-data-line-schema.',
              },
              'x-data-line-schema': {
                anyOf: [ref('sse-event-payload'), ref('sse-error-payload'), ref('sse-offset-only-payload')],
              },
            } as OpenAPIV3_1.MediaTypeObject,
          },
        },
      };
    case 'event-streams.get':
      return { '2XX': jsonResponse(`${NOT_SHOWN_SUCCESS} Body: the event stream.`, 'event-stream') };
    case 'event-streams.list':
      return {
        '2XX': jsonResponse(
          `${NOT_SHOWN_SUCCESS} Body: one page of event streams; pass \`next\` as \`from\` for the next page. The form of the last page: not shown.`,
          'event-stream-page',
        ),
      };
    case 'custom-signing-keys.put':
      return { '2XX': jsonResponse(`${NOT_SHOWN_SUCCESS} Body: JWKS with the resulting keys.`, 'jwks') };
    case 'custom-text.put':
      return { '2XX': jsonResponse(`${NOT_SHOWN_SUCCESS} Body: the resulting text keys and values.`, 'custom-text') };
    case 'oauth.token':
      return {
        '200': jsonResponse(
          'Access token (RFC 6749 section 5.1); the token is a JWT. Lifetime and claims: not shown.',
          'token-response',
        ),
      };
  }
}

/** Any one scope suffices, under either scheme: one security requirement per (scheme, scope). */
function security(op: Operation): OpenAPIV3_1.SecurityRequirementObject[] {
  if (op.id === 'oauth.token') return [];
  return op.scopes.flatMap((s): OpenAPIV3_1.SecurityRequirementObject[] => [
    { [BEARER]: [s] },
    { [CLIENT_CREDENTIALS]: [s] },
  ]);
}

const SUMMARY: Record<OperationId, string> = {
  'token-sets.list': 'List token sets of a user',
  'experiments.transition': 'Transition an experiment',
  'client-grants.get': 'Get a client grant',
  'events.subscribe': 'Subscribe to events (Server-Sent Events)',
  'event-streams.get': 'Get an event stream',
  'event-streams.list': 'List event streams',
  'custom-signing-keys.put': 'Create or replace custom signing keys',
  'custom-text.put': 'Set custom text for a self-service profile',
  'oauth.token': 'Client-credentials token request',
};

function operationObject(op: Operation, ex: SeedExamples): OpenAPIV3_1.OperationObject<OperationExtensions> {
  const out: OpenAPIV3_1.OperationObject<OperationExtensions> = {
    operationId: op.id,
    summary: SUMMARY[op.id],
    tags: [op.tag.replace(/^@/, '')],
    'x-document-section': op.section,
    'x-scope-documented': op.scopeDocumented,
  };
  if (!op.scopeDocumented) {
    const chosen =
      op.scopes.length > 1
        ? `scopes listed under security (any one of ${op.scopes.join(', ')}) were`
        : `scope listed under security (${op.scopes.join(', ')}) was`;
    out.description = `Required scope: not shown. The ${chosen} chosen by this project from the scope catalogue; a target is not failed on that choice. Error statuses: not shown.`;
  }
  if (op.id === 'token-sets.list') out['x-release-lifecycle'] = 'Generally Available';
  const params = parameters(op.id, ex);
  if (params.length > 0) out.parameters = params;
  const body = requestBodyOf(op.id, ex);
  const types = 'requestContentTypes' in op ? op.requestContentTypes : undefined;
  if (body && types) {
    const media = (t: string): OpenAPIV3_1.MediaTypeObject => ({
      schema: ref(body.file),
      example: body.example,
      ...(t === FORM && body.formEncoding ? { encoding: body.formEncoding } : {}),
    });
    out.requestBody = {
      required: true,
      description: body.description,
      content: Object.fromEntries(types.map((t) => [t, media(t)])),
    };
  }
  out.responses = responses(op.id);
  out.security = security(op);
  if (op.id === 'oauth.token') {
    out.servers = [{ url: 'https://{tenant}', description: '{auth_url}: the tenant host.', variables: TENANT }];
    out.description =
      'The token endpoint of the client-credentials scheme, on the tenant host ({auth_url}), not under /api/v2. Client authentication method and error responses: not shown.';
  }
  return out;
}

const TENANT: Record<string, OpenAPIV3_1.ServerVariableObject> = {
  tenant: { default: 'tenant.conformance.invalid', description: 'The tenant host.' },
};

const SCOPE_DOCUMENTED = new Set(
  operations.filter((o) => o.scopeDocumented).flatMap((o) => o.scopes as readonly string[]),
);

/** The OpenAPI 3.1 document of the eight operations and the token endpoint, with the given examples. */
export function buildOpenApi(examples: SeedExamples): OpenApiDocument {
  // Built as plain records: openapi-types' PathItemObject intersects the 3.0 and
  // 3.1 operation types, so a 3.1 operation cannot be assigned to a method key.
  const items: Record<string, Record<string, OpenAPIV3_1.OperationObject<OperationExtensions>>> = {};
  for (const op of operations as readonly Operation[])
    (items[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, examples);
  const paths = items as OpenAPIV3_1.PathsObject<OperationExtensions>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant management interface (in-scope operations)',
      version: '2.0',
      description:
        'Built by spec/build.ts from spec/operations.ts and schemas/*.schema.json; do not edit spec/openapi.json by hand. Component schemas are JSON Schema 2020-12. Statements the interface document marks "not shown" are described as such, never given a value.',
    },
    servers: [
      {
        url: 'https://{tenant}/api/v2',
        description: '{base_url}: the tenant host followed by /api/v2.',
        variables: TENANT,
      },
    ],
    tags: [
      {
        name: 'token-sets',
        description: 'User federated-connection token sets: list the active token sets held for a user.',
      },
      { name: 'experiments', description: 'Experiments: move an experiment to a new lifecycle status.' },
      { name: 'client-grants', description: 'Client grants: read one grant that lets a client use an API audience.' },
      { name: 'sse', description: 'Events stream: subscribe to tenant events as a Server-Sent Events stream.' },
      {
        name: 'event-streams',
        description: 'Event streams: read the configured event streams that forward events to a destination.',
      },
      {
        name: 'custom-signing-keys',
        description: 'Custom signing keys: create or replace the set of custom public signing keys, as a JWKS.',
      },
      {
        name: 'custom-text',
        description:
          'Self-service profile custom text: set text customizations for one profile, language and flow page.',
      },
      { name: 'auth', description: 'The OAuth 2.0 client-credentials token endpoint.' },
    ],
    paths,
    components: {
      schemas: bundledSchemas(SCHEMAS, 'hoisted') as Record<string, OpenAPIV3_1.SchemaObject>,
      headers: Object.fromEntries(
        // Required: the document makes the three headers part of a 429 answer (Errors); only their values' format is not shown.
        RATE_LIMIT_HEADERS.map((h) => [
          h,
          {
            description: `${h}: describes the rate limit; value format: not shown.`,
            required: true,
            schema: { type: 'string' },
          },
        ]),
      ),
      securitySchemes: {
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Authorization: Bearer <ACCESS_TOKEN>; the token is a JWT (Authentication 1).',
        },
        [CLIENT_CREDENTIALS]: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials (Authentication 2). The token endpoint is /oauth/token/ on the tenant host; the token request carries the form parameter audience=/api/v2/.',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth/token/',
              scopes: Object.fromEntries(
                [...inScopeScopes]
                  .sort()
                  .map((s) => [
                    s,
                    SCOPE_DOCUMENTED.has(s)
                      ? 'Documented required scope (Authentication 4).'
                      : 'Chosen from the scope catalogue; the document does not show it as required.',
                  ]),
              ),
            },
          },
        },
      },
    },
  };
}

/** Recursively key-sorted, pretty JSON: the form of spec/openapi.json. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
    );
  };
  return JSON.stringify(sort(value), null, 2) + '\n';
}
