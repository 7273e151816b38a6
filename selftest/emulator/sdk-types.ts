/**
 * The official SDK's declared types as JSON Schemas, derived from its own
 * type declarations (`auth0`'s `management/api/types/types.d.ts`) by
 * ts-json-schema-generator (2.4.0: later versions need Node 22), so that an
 * answer the SDK receives can be held to what the SDK says it receives.
 * TypeScript checks none of this at run time: an answer outside the types
 * reaches the SDK's user as a value its types say cannot exist.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';

const require = createRequire(import.meta.url);
const DECLARATIONS = join(dirname(require.resolve('auth0')), 'management', 'api', 'types', 'types.d.ts');

/** The SDK's response type of each typed call the self-test makes (method, path under /api/v2). */
export const TYPED_ANSWERS: ReadonlyArray<{ method: string; path: RegExp; type: string }> = [
  { method: 'GET', path: /^\/api\/v2\/client-grants\/[^/]+$/, type: 'GetClientGrantResponseContent' },
  { method: 'GET', path: /^\/api\/v2\/event-streams\/[^/]+$/, type: 'GetEventStreamResponseContent' },
  { method: 'GET', path: /^\/api\/v2\/event-streams$/, type: 'ListEventStreamsResponseContent' },
  { method: 'GET', path: /^\/api\/v2\/keys\/custom-signing$/, type: 'GetCustomSigningKeysResponseContent' },
  { method: 'PUT', path: /^\/api\/v2\/keys\/custom-signing$/, type: 'SetCustomSigningKeysResponseContent' },
  {
    method: 'GET',
    path: /^\/api\/v2\/self-service-profiles\/[^/]+\/custom-text\/[^/]+\/[^/]+$/,
    type: 'ListSelfServiceProfileCustomTextResponseContent',
  },
  {
    method: 'PUT',
    path: /^\/api\/v2\/self-service-profiles\/[^/]+\/custom-text\/[^/]+\/[^/]+$/,
    type: 'SetSelfServiceProfileCustomTextResponseContent',
  },
];

/** What `client.events.subscribe` yields, one message each. */
export const EVENT_MESSAGE = 'EventStreamSubscribeEventsResponseContent';

/**
 * The envelope members the document names otherwise than the real stream:
 * the document is a renamed copy of the real interface ("svc" for the
 * service's own prefix), and the emulator follows the document. A message is
 * held to the SDK's types with these names read as the SDK's.
 */
export const RENAMED_ENVELOPE_MEMBERS: Readonly<Record<string, string>> = {
  svctenant: 'a0tenant',
  svcstream: 'a0stream',
  svcpurpose: 'a0purpose',
};

/** A message with the document's envelope names read as the SDK's. */
export function asTheSdkNamesIt(message: unknown): unknown {
  const m = message as { event?: Record<string, unknown> };
  if (typeof m?.event !== 'object' || m.event === null) return message;
  const event = Object.fromEntries(Object.entries(m.event).map(([k, v]) => [RENAMED_ENVELOPE_MEMBERS[k] ?? k, v]));
  return { ...m, event };
}

let generator: ReturnType<typeof createGenerator> | undefined;
const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();
const schemas = new Map<string, { definitions?: Record<string, unknown> }>();

function schemaOf(type: string) {
  let s = schemas.get(type);
  if (!s) {
    generator ??= createGenerator({
      path: DECLARATIONS,
      skipTypeCheck: true,
      expose: 'export',
      topRef: false,
      additionalProperties: true,
    });
    s = generator.createSchema(type) as { definitions?: Record<string, unknown> };
    schemas.set(type, s);
  }
  return s;
}

function validator(type: string, member?: string): ValidateFunction {
  const key = member ? `${type}.${member}` : type;
  let v = compiled.get(key);
  if (!v) {
    const whole = schemaOf(type);
    v = ajv.compile(member ? { $ref: `#/definitions/${key}`, definitions: whole.definitions } : whole);
    compiled.set(key, v);
  }
  return v;
}

/** Where `value` leaves the SDK's declared `type` (or the member of its union named `member`): one line per place. */
export function outsideSdkType(type: string, value: unknown, member?: string): string[] {
  const v = validator(type, member);
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${member ?? type}${e.instancePath || ''}: ${e.message ?? e.keyword}`);
}

/** The member of the SDK's message union for a message `type` (`user.created` → `UserCreated`). */
export function messageMember(type: string): string {
  return type
    .split(/[.-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** Warm the generator and compile every validator the self-test uses, so no request waits on it. */
export function compileSdkTypes(): void {
  for (const t of TYPED_ANSWERS) validator(t.type);
  const union = schemaOf(EVENT_MESSAGE);
  for (const key of Object.keys(union.definitions ?? {}))
    if (key.startsWith(`${EVENT_MESSAGE}.`)) validator(EVENT_MESSAGE, key.slice(EVENT_MESSAGE.length + 1));
}
