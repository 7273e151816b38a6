/**
 * Faults and variants that only reshape an answer, as data: which answers
 * (the operation, successes or errors, an SSE message or heartbeat), and a
 * function from the conforming answer to the reshaped one. The function
 * reads the answer, the request and the state, and changes none of them
 * (it builds a new answer; the conforming path answers stored objects
 * without copying them). Requests a fault refuses before the route reads
 * them are data too (`refusals`).
 *
 * Applied in one place, `Mutations` (built per emulator with the entries
 * switched on): the route runner (answers.ts) and the error sender pass
 * every answer of a route through `answer()`, GET /events its head and each
 * message through `answer()` and `frame()`. The catalogues say how; an
 * entry here says only where.
 */
import { createHash, randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import { operations, type OperationId } from '../../spec/operations.js';
import { isApiPath, OAuthError } from '../auth.js';
import { CONTROL_PREFIX } from '../control.js';
import { apiError, type ErrorBody, type ErrorCode } from '../errors.js';
import { decodeOffset, encodeOffset, EVENT_TYPES, type EventLog, type LoggedEvent } from '../events.js';
import { ALLOWED_TAGS, htmlViolation } from '../html-policy.js';
import { VALUE_MAX } from '../routes/custom-text.js';
import { TAKE_DEFAULT, TAKE_MAX, EVENT_STREAM_ID_LENGTH, encodeStreamCursor } from '../routes/event-streams.js';
import { USER_ID_MAX } from '../routes/token-sets.js';
import { FROM_MAX, FROM_TIMESTAMP_MAX, parseRfc3339 } from '../routes/events.js';
import { codePoints, isPlainObject, param, singleQuery } from '../routes/shared.js';
import { mediaTypeOf, rawFormOf } from './requests.js';
import { experimentStatuses, type State } from '../state.js';
import type { FaultName } from './catalogue.js';
import {
  CLOSED_TEXT_KEYS,
  OFFSET_TAG,
  offsetTagOf,
  rawJsonOf,
  scopeRefusalDeferred,
  SESSION_COOKIE,
  sessionCookieValue,
} from './seams.js';
import type { VariantName } from './variants.js';

/** An answer on its way out: status, body (undefined: none) and headers (undefined removes one the reply holds). */
export interface Answer {
  status: number;
  body: unknown;
  headers: Readonly<Record<string, string | number | undefined>>;
}

/** What a mutation reads besides the answer. */
export interface Asked {
  request: FastifyRequest;
  operation: OperationId | undefined;
  state: State;
  /** Keys this entry noted before, for a fault that answers a second read differently. */
  seen: Set<string>;
}

/** One SSE message: its event field, id field (undefined: none), data (a string is sent as it is) and raw lines before it. */
export interface SseFrame {
  event: string;
  id: string | undefined;
  data: unknown;
  before?: string;
}

/** Where an SSE message stands: the event it carries (none for heartbeats), whether it is of the seeded history, whether replayed after a cursor. */
export interface FrameAt {
  logged?: LoggedEvent;
  history: boolean;
  afterCursor: boolean;
  log: EventLog;
}

type By = FaultName | VariantName;

interface AnswerMutation {
  by: By;
  /** The operations whose answers it reshapes, or every answer. */
  on: readonly OperationId[] | 'every';
  /** Successes (status below 400, the default), errors, or both. */
  answers?: 'errors' | 'all';
  when?: (a: Answer, q: Asked) => boolean;
  reshape: (a: Answer, q: Asked) => Answer;
}

interface FrameMutation {
  by: By;
  frames: readonly ('message' | 'heartbeat')[];
  when?: (f: SseFrame, at: FrameAt) => boolean;
  reshape: (f: SseFrame, at: FrameAt) => SseFrame;
}

interface Refusal {
  by: By;
  on: OperationId;
  when: (request: FastifyRequest, state: State) => boolean;
  error: (request: FastifyRequest) => Error;
}

// ---------------------------------------------------------------- helpers

/** The member the `extra-members` variant adds to every object: one the document does not list. */
export const EXTRA_MEMBER = 'x_conformance_unlisted';

/** A deep copy of a JSON value with EXTRA_MEMBER added to every object. */
export function withExtraMembers<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withExtraMembers(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withExtraMembers(v);
  out[EXTRA_MEMBER] = 'a member the document does not list';
  return out as T;
}

/** A string encoded per UTF-16 code unit (CESU-8): a surrogate pair becomes two 3-byte sequences, not UTF-8. */
function cesu8(s: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(bytes);
}

type Json = Record<string, unknown>;

/** A JSON value with every empty array replaced by null (nil slices serialised). */
function emptyArraysNull(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? null : v.map(emptyArraysNull);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, emptyArraysNull(x)]));
}

/** A JSON value with every empty object replaced by [] (PHP's json_encode of an empty array). */
function emptyObjectsAsArrays(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(emptyObjectsAsArrays);
  if (!isPlainObject(v)) return v;
  if (Object.keys(v).length === 0) return [];
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, emptyObjectsAsArrays(x)]));
}

const error = (code: ErrorCode, message?: string, headers?: Record<string, string>): Answer => {
  const e = apiError(code, message, headers);
  return { status: e.statusCode, body: e.toBody(), headers: e.headers };
};
const ok = (body: unknown): Answer => ({ status: 200, body, headers: {} });
/** The JSON answer with a UTF-8 byte order mark before it (RFC 8259 8.1: "MUST NOT add a byte order mark"). */
const withByteOrderMark = (a: Answer): Answer => ({
  ...a,
  headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(a.body), 'utf8')]),
});
const errorCode = (a: Answer): string | undefined =>
  isPlainObject(a.body) && typeof a.body['errorCode'] === 'string' ? a.body['errorCode'] : undefined;
const is =
  (...codes: ErrorCode[]) =>
  (a: Answer) =>
    codes.includes(errorCode(a) as ErrorCode);
/** An API error answered with another status (the body's statusCode and error follow). */
const withStatus = (a: Answer, status: number): Answer => ({
  ...a,
  status,
  body: { ...(a.body as ErrorBody), statusCode: status, error: STATUS_CODES[status] ?? 'Error' },
});
const body = (a: Answer, f: (b: Json) => unknown): Answer => ({ ...a, body: f(a.body as Json) });
/** Each item of a list answer. */
const items = (a: Answer, f: (item: Json) => Json): Answer => ({ ...a, body: (a.body as Json[]).map(f) });
/** Each stream of an event stream answer or page. */
const streams = (a: Answer, f: (s: Json) => Json): Answer => {
  const b = a.body as Json;
  return Array.isArray(b['eventStreams'])
    ? { ...a, body: { ...b, eventStreams: (b['eventStreams'] as Json[]).map(f) } }
    : { ...a, body: f(b) };
};
/** The first stream of the second page (a page cache keyed by the first cursor), if this page is it. */
const secondPageFirst = (a: Answer, q: Asked): number | undefined => {
  const first = (a.body as { eventStreams: Json[] }).eventStreams[0];
  const i = first === undefined ? undefined : q.state.eventStreamIndexOf(String(first['id']));
  const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
  return singleQuery(q.request, 'from') !== undefined && i !== undefined && i > 0 && i === take ? i : undefined;
};
const onSecondPageFirst = (a: Answer, q: Asked, f: (i: number) => Json): Answer => {
  const b = a.body as { eventStreams: Json[] };
  const i = secondPageFirst(a, q)!;
  return { ...a, body: { ...b, eventStreams: [f(i), ...b.eventStreams.slice(1)] } };
};
/** The status an experiment move asked for (undefined when there is none). */
const askedStatus = (q: Asked): unknown => (isPlainObject(q.request.body) ? q.request.body['status'] : undefined);
const experimentAsIs = (q: Asked): Answer => {
  const e = q.state.experiments.get(param(q.request, 'id'));
  return e === undefined ? error('inexistent_experiment') : ok(e);
};
const streamById = (q: Asked, id: string): Answer => {
  const i = q.state.eventStreamIndexOf(id);
  return i === undefined ? error('inexistent_event_stream') : ok(q.state.eventStreams[i]);
};
/** A payload's envelope, copied and changed. */
const envelope = (f: SseFrame, change: (e: Json & { data: { object: Json; context: Json } }) => void): SseFrame => {
  const data = f.data as Json;
  const e = structuredClone(data['event']) as Json & { data: { object: Json; context: Json } };
  change(e);
  return { ...f, data: { ...data, event: e } };
};
const offsetMoved = (f: SseFrame, by: number): SseFrame => {
  const offset = encodeOffset(Math.max(0, (decodeOffset(String((f.data as Json)['offset'])) ?? 0) + by));
  return { ...f, id: f.id === undefined ? undefined : offset, data: { ...(f.data as Json), offset } };
};
const isConnectionCreated = (f: SseFrame) => f.event === 'connection.created';
const FORM = 'application/x-www-form-urlencoded';
const keysOf = (request: FastifyRequest): unknown[] =>
  isPlainObject(request.body) && Array.isArray(request.body['keys']) ? request.body['keys'] : [];
const textsOf = (request: FastifyRequest): Array<[string, unknown]> =>
  isPlainObject(request.body) ? Object.entries(request.body) : [];
/** Addresses without a geo location: loopback and private ranges (IPv4, IPv6, IPv4-mapped). */
const LOCAL_ADDRESS =
  /^(?:::1|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2[0-9]|3[01])\.|::ffff:(?:127|10|192\.168)\.|f[cd][0-9a-f]{2}:|fe80:)/i;
/** A value HTML-escaped as a store would keep it. */
const htmlEscaped = (v: string): string =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** The grant id a client grant path names once percent-decoded again (`client-grant-id-double-decoded`). */
const grantDecodedAgain = (q: Asked): string | undefined => {
  const id = param(q.request, 'id');
  if (!/%[0-9A-Fa-f]{2}/.test(id)) return undefined;
  try {
    const again = decodeURIComponent(id);
    return q.state.clientGrants.has(again) ? again : undefined;
  } catch {
    return undefined;
  }
};
/** The grant an id names once a format suffix (.json, .xml) is stripped (`client-grant-format-suffix-stripped`). */
const grantWithoutSuffix = (q: Asked): string | undefined => {
  const m = /^(.+)\.(?:json|xml)$/i.exec(param(q.request, 'id'));
  return m !== null && q.state.clientGrants.has(m[1]!) ? m[1] : undefined;
};
/** A base64url unsigned integer (an RSA exponent) as a number. */
const base64urlUint = (v: string): number => {
  let n = 0;
  for (const byte of Buffer.from(v, 'base64url')) n = n * 256 + byte;
  return n;
};
/** The user an unknown id names when letter case is ignored (a case-insensitive collation). */
const userIgnoringCase = (q: Asked): string | undefined => {
  const id = param(q.request, 'id').toLowerCase();
  return [...q.state.users.keys()].find((k) => k.toLowerCase() === id);
};
/** The suite's default custom text key (CONFORMANCE_CUSTOM_TEXT_KEY). */
const DEFAULT_TEXT_KEY = 'introduction';
/** The stream an unknown id names when letter case is ignored (a case-insensitive collation). */
const streamIgnoringCase = (q: Asked): unknown => {
  const id = param(q.request, 'id').toLowerCase();
  return q.state.eventStreams.find((s) => s.id.toLowerCase() === id);
};
/** A form value as a coercing parser leaves it: numbers and booleans read out of their text. */
const coerced = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(coerced);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, coerced(x)]));
  if (v === 'true' || v === 'false') return v === 'true';
  return typeof v === 'string' && /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]+)?$/.test(v) ? Number(v) : v;
};
/** The width of a name in the event stream list (`event-streams-list-names-ellipsized`). */
const LIST_NAME_WIDTH = 64;
/** How many event_type values `event-type-filter-capped-at-10` takes. */
const EVENT_TYPE_FILTER_CAP = 10;
/** The entities an XML parser knows (`custom-text-named-entities-refused`). */
const XML_ENTITIES: readonly string[] = ['amp', 'lt', 'gt', 'quot', 'apos'];
/** Catalogue codes that say a request was malformed. */
const VALIDATION_CODES: readonly ErrorCode[] = [
  'invalid_uri',
  'invalid_query_string',
  'invalid_body',
  'invalid_cursor',
];

// ---------------------------------------------------------------- answers

/** A user id's part after its provider prefix (`token-sets-user-found-by-id-suffix`), and the user it finds. */
const userBySuffix = (q: Asked): string | undefined => {
  const id = param(q.request, 'id');
  const bar = id.indexOf('|');
  if (bar < 0) return undefined;
  const suffix = id.slice(bar + 1);
  return [...q.state.users.keys()].find((u) => u !== id && u.includes('|') && u.slice(u.indexOf('|') + 1) === suffix);
};
/** The grant a decoded id names once its dot-segments are removed (`client-grant-id-encoded-slash-dot-segments`). */
const grantByDotSegments = (q: Asked): string | undefined => {
  const id = param(q.request, 'id');
  if (!id.includes('/')) return undefined;
  const out: string[] = [];
  for (const s of id.split('/')) {
    if (s === '..') out.pop();
    else if (s !== '.') out.push(s);
  }
  const last = out.at(-1);
  return last !== undefined && q.state.clientGrants.has(last) ? last : undefined;
};
/** The stream an unescaped LIKE pattern finds: _ any one character, % any run (`event-stream-lookup-like-wildcard`). */
const streamByLike = (q: Asked): string | undefined => {
  const id = param(q.request, 'id');
  if (!/[_%]/.test(id)) return undefined;
  const pattern = new RegExp(
    `^${id
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/_/g, '.')
      .replace(/%/g, '.*')}$`,
    's',
  );
  return q.state.eventStreams.find((s) => pattern.test(s.id))?.id;
};
/** A string escaped by hand for JSON: ", \ and line feed only (`custom-text-answer-control-chars-raw`). */
const handEscaped = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** How long after expiry a token set still reads as active (`token-sets-expiry-grace-week`). */
const REFRESH_GRACE_MS = 7 * 24 * 3_600_000;
/** How many rows the stream detail lookup reads (`event-stream-get-first-block-only`). */
const STORE_ROWS_READ = 100;
/** The methods the full management API defines on a path, by route (`allow-from-full-api-spec`). */
const FULL_API_METHODS: Readonly<Record<string, string>> = {
  '/api/v2/client-grants/:id': 'GET, PATCH, DELETE',
  '/api/v2/event-streams/:id': 'GET, PATCH, DELETE',
  '/api/v2/event-streams': 'GET, POST',
};

/** The router's default limit on a path parameter (`user-id-router-param-limit-100`). */
const ROUTER_MAX_PARAM_LENGTH = 100;
/** The documented JWK members, each a column (`keys-absent-members-null`). */
const JWK_COLUMNS: readonly string[] = ['kid', 'use', 'key_ops', 'n', 'e', 'x', 'y', 'x5u', 'x5c', 'x5t', 'x5t#S256'];
/** A date-time written in CET with an hour-only offset (`event-stream-created-at-hour-offset`). */
const cetHourOffset = (v: unknown): unknown =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v))
    ? new Date(Date.parse(v) + 3_600_000).toISOString().replace(/Z$/, '+01')
    : v;

/** A member written last, where the template's trailing comma goes (`event-context-template-trailing-comma`). */
const TEMPLATE_TAIL = '\u0000template-tail';

/** Token responses of the issuance cache, by client, scope and audience, per emulator (`token-reissued-from-cache-max-age`). */
const issuanceCache = new WeakMap<State, Map<string, { body: unknown; atMs: number }>>();
/** The client a token request authenticates as: by HTTP Basic, else the client_id parameter. */
const tokenClientOf = (request: FastifyRequest): string => {
  const basic = basicCredentials(request.headers.authorization);
  if (basic !== undefined) return formDecoded(basic[0]) ?? basic[0];
  return isPlainObject(request.body) && typeof request.body['client_id'] === 'string' ? request.body['client_id'] : '';
};
/** Whether a bearer token is a JWS whose first segment decodes to a JSON object (`bearer-opaque-token-500`). */
const headerDecodes = (token: string): boolean => {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    return isPlainObject(JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')));
  } catch {
    return false;
  }
};
/** The document version of each custom text map, per emulator (`custom-text-answer-document-version-member`). */
const textVersions = new WeakMap<State, Map<string, number>>();
/** An RFC 3339 date-time written with the minute where the month goes (`event-stream-dates-minute-as-month`). */
const minuteAsMonth = (v: unknown): unknown =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)
    ? `${v.slice(0, 5)}${v.slice(14, 16)}${v.slice(7)}`
    : v;
/** The allow-list classes of a markup check that picks one list by the first element (`custom-text-allow-list-chosen-by-first-tag`). */
const STYLING_TAGS: ReadonlySet<string> = new Set(['b', 'strong', 'i', 'em', 'u', 'small', 'sup', 'sub', 'span']);
const LINK_TAGS: ReadonlySet<string> = new Set(['a']);
/** Whether a value mixes styling elements and links, the class of its first element deciding the list. */
const mixesMarkupClasses = (value: string): boolean => {
  const tags = [...value.matchAll(/<([A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1]!.toLowerCase());
  const first = tags.find((t) => STYLING_TAGS.has(t) || LINK_TAGS.has(t));
  if (first === undefined) return false;
  const other = LINK_TAGS.has(first) ? STYLING_TAGS : LINK_TAGS;
  return tags.some((t) => other.has(t));
};

/** The scopes each API of the seed still defines (`client-grant-dangling-scope-coalesced-empty`: create:orders removed). */
const RESOURCE_SERVER_SCOPES: Readonly<Record<string, readonly string[]>> = {
  'https://api.conformance.test/orders': ['read:orders'],
};
/** An array as Postgres writes its text form: {a,b}, items quoted where they must be (`client-grant-adt-postgres-array-literal`). */
const postgresArrayLiteral = (items: readonly unknown[]): string =>
  `{${items
    .map((v) => {
      const s = String(v);
      return s !== '' && /^[^\s{}",\\]+$/.test(s) && s.toUpperCase() !== 'NULL'
        ? s
        : `"${s.replace(/[\\"]/g, '\\$&')}"`;
    })
    .join(',')}}`;
/** The date members of a token set (`token-sets-cache-ejson-dates`). */
const TOKEN_SET_DATES: readonly string[] = ['issued_at', 'expires_at', 'last_used_at'];
/** The JOSE algorithm of a bearer token's protected header, if it decodes (`token-sets-alg-not-allowed-400`). */
const bearerAlg = (request: FastifyRequest): string | undefined => {
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = token?.split('.')[0];
  if (header === undefined || header === '') return undefined;
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown;
    return isPlainObject(h) && typeof h['alg'] === 'string' ? h['alg'] : undefined;
  } catch {
    return undefined;
  }
};
/** Whether a scope parameter is given but names no scope (`token-empty-scope-reduce-500`). */
const blankScopeParam = (request: FastifyRequest): boolean => {
  const scope = isPlainObject(request.body) ? request.body['scope'] : undefined;
  return typeof scope === 'string' && scope.trim() === '';
};
/** The console's ids: base62 digits after est_, written without left-padding (`event-stream-id-base62-leading-zero-dropped`). */
const unpaddedStreamId = (id: unknown): unknown =>
  typeof id === 'string' && id.startsWith('est_') ? `est_${id.slice(4).replace(/^0+/, '')}` : id;
/** The console view's suffix of a disabled stream's name (`event-stream-disabled-name-suffixed`). */
const DISABLED_NAME_SUFFIX = ' (disabled)';
/** The projection's name column width (`event-stream-get-long-name-projection-missing`). */
const PROJECTION_NAME_WIDTH = 100;
/** Characters Node's setHeader takes: tab, visible ASCII, space and Latin-1 (`keys-kid-header-non-latin1-500`). */
const HEADER_CHARS = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A scalar as a YAML 1.1 parser (PyYAML's resolvers) reads it unquoted (`custom-text-values-yaml-typed`). */
const yamlScalar = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  if (/^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/.test(v)) return true;
  if (/^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/.test(v)) return false;
  if (/^(?:~|null|Null|NULL|)$/.test(v)) return null;
  if (/^[-+]?(?:0|[1-9][0-9_]*)$/.test(v)) return Number(v.replace(/_/g, ''));
  if (/^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]+(?:[eE][-+][0-9]+)?$/.test(v)) return Number(v.replace(/_/g, ''));
  return v;
};
/** JSON with every non-ASCII code point written \u + its hex, astral ones with five or six digits (`custom-text-answer-astral-escaped-as-single-code-point`). */
const asciiJsonByCodePoint = (value: unknown): string =>
  JSON.stringify(value).replace(/[^\u0000-\u007f]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/** A date-time written with yyyy-MM-DD: the day of the year where the day of the month was meant (`token-set-dates-day-of-year-pattern`). */
const dayOfYearStamp = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  const y = d.getUTCFullYear();
  const doy = Math.floor((Date.UTC(y, d.getUTCMonth(), d.getUTCDate()) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${y}-${two(d.getUTCMonth() + 1)}-${two(doy)}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:` +
    `${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}Z`
  );
};
/** The flags of a [Flags] enum of key operations (`keys-key-ops-flags-integer`). */
const KEY_OPS_FLAGS: Readonly<Record<string, number>> = {
  sign: 1,
  verify: 2,
  encrypt: 4,
  decrypt: 8,
  wrapKey: 16,
  unwrapKey: 32,
  deriveKey: 64,
  deriveBits: 128,
};
/** The grant flags a CHAR(1) 'Y'/'N' column holds (`client-grant-booleans-char1-yn`). */
const GRANT_FLAGS: readonly string[] = ['is_system', 'allow_any_organization', 'allow_all_scopes'];
/** The kid of a bearer JWT's protected header: undefined when it decodes without one, null when it is no JWT (`unknown-kid-401-no-challenge`). */
const bearerKid = (request: FastifyRequest): string | undefined | null => {
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = token?.split('.')[0];
  if (header === undefined || header === '') return null;
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown;
    if (!isPlainObject(h)) return null;
    return typeof h['kid'] === 'string' ? h['kid'] : undefined;
  } catch {
    return null;
  }
};
/** XML special characters escaped (`custom-text-400-problem-xml`). */
const xmlEscaped = (v: string): string =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
/** The URL members of a connection's options and oidc_metadata (`connection-created-endpoints-go-url-struct`). */
const OPTION_URLS: readonly string[] = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
  'issuer',
  'discovery_url',
  'icon_url',
];
const OIDC_METADATA_URLS: readonly string[] = [
  'authorization_endpoint',
  'issuer',
  'jwks_uri',
  'end_session_endpoint',
  'op_policy_uri',
  'op_tos_uri',
  'registration_endpoint',
  'service_documentation',
  'token_endpoint',
  'userinfo_endpoint',
];
/** A URL as Go's json.Marshal writes a url.URL, which has no MarshalJSON (`connection-created-endpoints-go-url-struct`). */
const goUrl = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return v;
  }
  return {
    Scheme: u.protocol.replace(/:$/, ''),
    Opaque: '',
    User: null,
    Host: u.host,
    Path: decodeURIComponent(u.pathname),
    RawPath: '',
    OmitHost: false,
    ForceQuery: false,
    RawQuery: u.search.replace(/^\?/, ''),
    Fragment: decodeURIComponent(u.hash.replace(/^#/, '')),
    RawFragment: '',
  };
};
/** Each URL member of an object written as a Go url.URL. */
const goUrls = (o: unknown, members: readonly string[]): unknown =>
  isPlainObject(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, members.includes(k) ? goUrl(v) : v])) : o;
/** The hosts hyperlinks may point to (`custom-text-link-domain-allowlist`). */
const TENANT_LINK_DOMAIN = 'conformance.test';
/** Whether a value links to a host outside the tenant's domains (`custom-text-link-domain-allowlist`). */
const linksOutsideTenant = (value: string): boolean => {
  for (const m of value.matchAll(/\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const href = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (!/^https?:/i.test(href)) continue;
    let host: string;
    try {
      host = new URL(href).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (host !== TENANT_LINK_DOMAIN && !host.endsWith(`.${TENANT_LINK_DOMAIN}`)) return true;
  }
  return false;
};

/** The tenant bucket's size, ten times a token's window (`rate-limit-429-remaining-from-tenant-bucket`). */
const TENANT_BUCKET_FACTOR = 10;
/** Names an `in` check over an object literal finds on its prototype (`transition-status-checked-with-in-operator`). */
const INHERITED_NAMES: readonly string[] = [
  'toString',
  'constructor',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
];
/** The type of the message the SSE writer sent last, per log (`payload-type-stale-from-previous-message`). */
const lastPayloadType = new WeakMap<EventLog, string>();
/** Whether a host is an IP literal (`context-hostname-null-for-ip-literal-host`). */
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f:]*:[0-9a-f:.]*\]?)$/i;
/** The form parser's body limit (`custom-text-form-body-limit-1kb`). */
const FORM_BODY_LIMIT = 1024;
/** What a rich-text wrap adds to a plain value (`custom-text-length-after-paragraph-wrap`). */
const PARAGRAPH_WRAP = '<p></p>'.length;

/** The subscriptions batch loader's largest batch (`event-streams-subscriptions-loader-first-batch-only`). */
const SUBSCRIPTION_LOADER_BATCH = 50;
/** The pagination helper's own default page size (`event-streams-default-page-next-from-helper-default`). */
const HELPER_DEFAULT_TAKE = 20;
/** How far ahead an expiry passes the plausibility check (`token-sets-expiry-beyond-a-year-dropped`). */
const PLAUSIBLE_EXPIRY_MS = 365 * 24 * 3_600_000;
/** A user id whose id part is the zero ObjectId (`token-sets-zero-user-id-unfiltered`). */
const ZERO_OBJECT_ID_USER = /^[^|]+\|0{24}$/;
/** The JWK members of the request schema: the document's table, and crv (`keys-alg-member-refused`). */
const SCHEMA_JWK_MEMBERS: readonly string[] = ['kty', 'crv', ...JWK_COLUMNS];
/** The tenant time zone of the detail view (`event-stream-get-dates-tenant-zone-unicode-minus`). */
let tenantTimeFormat: Intl.DateTimeFormat | undefined;

/** blind round 35: the headers of the users service's deprecated v1 endpoint (`token-sets-unknown-user-relays-legacy-deprecation`). */
const LEGACY_USERS_DEPRECATION = {
  deprecation: '@1704067200',
  sunset: 'Mon, 30 Sep 2024 23:59:59 GMT',
  link: '<https://docs.conformance.test/deprecations/users-v1>; rel="deprecation"; type="text/html"',
} as const;
/** blind round 35: the type prefix of client grant ids (`client-grant-id-prefix-optional`). */
const GRANT_PREFIX = 'cgr_';
/** blind round 34: the documented scope of the token-set listing (`token-sets-scope-checked-on-unverified-claims`). */
const TOKEN_SETS_SCOPE = 'read:federated_connections_tokens';
/** blind round 34: the claims of a bearer JWT, decoded without verifying it (undefined: none decode to an object). */
const unverifiedClaimsOf = (request: FastifyRequest): Json | undefined => {
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (payload === undefined || payload === '') return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    return isPlainObject(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
};
/** blind round 34: the list's response budget (`event-streams-page-cut-at-response-budget`). */
const PAGE_BUDGET_BYTES = 16 * 1024;
/** blind round 34: the rows one store read returns at most (`event-streams-wide-page-second-read-overlaps`). */
const STORE_READ_ROWS = 50;
/** blind round 34: a prefixed id whose part after the prefix is base58 (`event-stream-id-checked-with-base58-alphabet`). */
const BASE58_PREFIXED_ID = /^[a-z]+_[1-9A-HJ-NP-Za-km-z]+$/;

/** blind round 36: the operations of the interface (`challenge-sent-once-per-connection`). */
const INTERFACE_OPERATIONS: readonly OperationId[] = operations.map((o) => o.id).filter((id) => id !== 'oauth.token');
/** blind round 36: the connections challenged once, per emulator (`challenge-sent-once-per-connection`). */
const challengedConnections = new WeakMap<State, WeakSet<object>>();
/** blind round 36: the verbs of organization events by the method of the request that caused them (`organization-subresource-event-field-from-method`). */
const ORGANIZATION_VERB_BY_METHOD: Readonly<Record<string, string>> = {
  POST: 'created',
  PUT: 'updated',
  PATCH: 'updated',
  DELETE: 'deleted',
};
/** blind round 36: the subject types by their stored ordinal, 0 the unset default (`client-grant-system-subject-type-unset-ordinal`). */
const SUBJECT_TYPE_BY_ORDINAL: readonly string[] = ['unknown', 'client', 'user'];
/** blind round 36: the user whose email an unknown user id is (`token-sets-user-lookup-by-email`). */
const userByEmail = (q: Asked): string | undefined => {
  const id = param(q.request, 'id');
  return [...q.state.users.values()].find((u) => u.email !== undefined && u.email === id)?.user_id;
};
/** blind round 36: the event_type values of a request, as the query parser gives them. */
const eventTypesOf = (r: FastifyRequest): string[] => {
  const v = (r.query as Record<string, unknown> | undefined)?.['event_type'];
  return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String);
};
/** blind round 36: whether a keys body is a valid JWKS of public keys the store would take (`keys-x5c-parsed-as-pem-text-500`). */
const storableKeys = (r: FastifyRequest): boolean => {
  const keys = keysOf(r);
  return (
    keys.length > 0 &&
    keys.every(
      (k) =>
        isPlainObject(k) &&
        typeof k['kty'] === 'string' &&
        k['kty'] !== '' &&
        !['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'].some((m) => Object.hasOwn(k, m)),
    )
  );
};

/** blind round 37: the kid of a bearer JWT's protected header, read without verifying it (`bearer-kid-echoed-in-header-500`). */
const bearerKidOf = (request: FastifyRequest): string | undefined => {
  const segment = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1]?.split('.')[0];
  if (segment === undefined || segment === '') return undefined;
  try {
    const header = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
    return isPlainObject(header) && typeof header['kid'] === 'string' ? header['kid'] : undefined;
  } catch {
    return undefined;
  }
};
/** blind round 37: what Node's setHeader takes in a header value: tab, visible ASCII, space and Latin-1 (`bearer-kid-echoed-in-header-500`). */
const NODE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** blind round 37: the client a JWT's unverified claims name (azp, else sub without @clients) (`token-sets-forged-token-unknown-client-404`). */
const claimedClientOf = (request: FastifyRequest): string | undefined => {
  const claims = unverifiedClaimsOf(request);
  if (claims === undefined) return undefined;
  if (typeof claims['azp'] === 'string') return claims['azp'];
  return typeof claims['sub'] === 'string' ? claims['sub'].replace(/@clients$/, '') : undefined;
};
/** blind round 37: the query parameters of the legacy v2 list pagination (`token-sets-legacy-paging-params-deprecated-at-start`). */
const LEGACY_PAGING_PARAMETERS: readonly string[] = ['page', 'per_page', 'include_totals'];
/** blind round 37: a JSONP callback name as Express keeps it (`client-grant-jsonp-callback-honoured`). */
const jsonpCallbackOf = (request: FastifyRequest): string => {
  const v = (request.query as Record<string, unknown> | undefined)?.['callback'];
  return typeof v === 'string' ? v.replace(/[^[\]\w$.]/g, '') : '';
};
/** blind round 37: a map key camelCased as the humps-style serialiser does it (`custom-text-answer-keys-camelized`). */
const camelized = (key: string): string => key.replace(/[-_]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase());
/** blind round 37: context.request of a message's envelope (undefined: none). */
const contextRequestOf = (f: SseFrame): unknown =>
  (((((f.data as Json)['event'] as Json | undefined)?.['data'] as Json | undefined)?.['context'] as Json | undefined) ??
    {})['request'];
/** blind round 37: the retry field a resumed stream opens with, its line end lost (`sse-retry-preamble-unterminated-on-resume`). */
const RESUME_RETRY_PREAMBLE = 'retry: 1000';
/** blind round 37: an href holding a parenthesis, quoted or not (`custom-text-href-parentheses-refused`). */
const HREF_WITH_PARENTHESIS = /<a\b[^>]*?\shref\s*=\s*(?:"[^"]*[()][^"]*"|'[^']*[()][^']*'|[^\s"'>]*[()][^\s>]*)/i;

/** blind round 38: the statuses a move's raw body is let through with, as the request filter's pattern spells them (`transition-body-prefiltered-by-raw-pattern`). */
const RAW_STATUS_PATTERN = /"status"\s*:\s*"(?:active|paused|completed|archived|draft)"/;
/** blind round 38: the lease of the per-experiment lock (`transition-lock-kept-after-refused-move`). */
const MOVE_LOCK_MS = 30_000;
/** blind round 38: the experiments locked by a refused move, until when, per emulator (`transition-lock-kept-after-refused-move`). */
const moveLocks = new WeakMap<State, Map<string, number>>();
const moveLocksOf = (state: State): Map<string, number> => {
  let m = moveLocks.get(state);
  if (m === undefined) moveLocks.set(state, (m = new Map()));
  return m;
};
/** blind round 38: the enriched grant of each audience, per emulator (`client-grant-enrichment-memo-keyed-by-audience`). */
const grantsByAudience = new WeakMap<State, Map<string, unknown>>();
/** blind round 38: the entities loaded, by id alone, per emulator (`event-stream-get-entity-cache-keyed-by-id`). */
const entityCache = new WeakMap<State, Map<string, unknown>>();
/** blind round 38: each token's paginator position, per emulator (`event-streams-walk-position-kept-per-token`). */
const walkPositions = new WeakMap<State, Map<string, number>>();
/** blind round 38: how long the double-submit guard holds a PUT (`custom-text-double-submit-keyed-by-profile`). */
const DOUBLE_SUBMIT_MS = 2_000;
/** blind round 38: each client's last successful custom text PUT per profile, per emulator (`custom-text-double-submit-keyed-by-profile`). */
const lastTextPuts = new WeakMap<State, Map<string, { atMs: number; body: string; answer: unknown }>>();
/** blind round 38: a map of a state, made on first use. */
const perState = <V>(store: WeakMap<State, Map<string, V>>, state: State): Map<string, V> => {
  let m = store.get(state);
  if (m === undefined) store.set(state, (m = new Map()));
  return m;
};
/** blind round 38: the double-submit key of a custom text PUT: client and profile, not language and page (`custom-text-double-submit-keyed-by-profile`). */
const textPutKey = (r: FastifyRequest): string => `${r.principal?.clientId ?? ''}\u0000${param(r, 'id')}`;
/** blind round 38: a tag whose quoted attribute value holds a > (`custom-text-gt-in-attribute-value-ends-tag`). */
const GT_IN_QUOTED_ATTRIBUTE = /<[A-Za-z][A-Za-z0-9]*\s[^<>]*?=\s*(?:"[^"]*>[^"]*"|'[^']*>[^']*')/;

/** blind round 40: how long a bearer token the fixed header buffer holds (`bearer-long-token-500`). */
const BEARER_BUFFER_CHARS = 4096;
/** blind round 40: the bearer token of a request as the header carries it (undefined: none). */
const bearerOf = (request: FastifyRequest): string | undefined =>
  /^Bearer[ \t]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
/** blind round 40: the alg a bearer JWT's protected header names, read without verifying it (`disallowed-alg-401-no-challenge`). */
const bearerAlgOf = (request: FastifyRequest): unknown => {
  const segment = bearerOf(request)?.split('.')[0];
  if (segment === undefined || segment === '') return undefined;
  try {
    const header = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
    return isPlainObject(header) ? header['alg'] : undefined;
  } catch {
    return undefined;
  }
};
/** blind round 40: the streams read by GET /event-streams/{id}, least recently read first, per emulator (`event-streams-list-ordered-by-last-read`). */
const streamReads = new WeakMap<State, Map<string, number>>();
/** blind round 40: the stored streams in the order of last_read_at NULLS FIRST (`event-streams-list-ordered-by-last-read`). */
const streamsByLastRead = (state: State): Json[] => {
  const reads = perState(streamReads, state);
  const all = state.eventStreams as unknown as Json[];
  const never = all.filter((s) => !reads.has(String(s['id'])));
  const read = [...reads.keys()].map((id) => all[state.eventStreamIndexOf(id)!]!).filter(Boolean);
  return [...never, ...read];
};
/** blind round 40: an absolute URL whose authority carries a port, in an href (`custom-text-href-with-port-refused`). */
const HREF_WITH_PORT =
  /\shref\s*=\s*(?:"[a-z][a-z0-9+.-]*:\/\/[^"/?#]*:\d*[^"]*"|'[a-z][a-z0-9+.-]*:\/\/[^'/?#]*:\d*[^']*'|[a-z][a-z0-9+.-]*:\/\/[^\s"'>/?#]*:\d*[^\s>]*)/i;
/** blind round 40: the kid a key carries, if a string with a slash (`keys-kid-with-slash-refused`). */
const kidWithSlash = (k: unknown): boolean =>
  isPlainObject(k) && typeof k['kid'] === 'string' && k['kid'].includes('/');

/** blind round 41: an href that carries a fragment (`custom-text-href-fragment-refused`). */
const HREF_WITH_FRAGMENT = /<a\b[^>]*?\shref\s*=\s*(?:"[^"]*#[^"]*"|'[^']*#[^']*'|[^\s"'>]*#[^\s>]*)/i;
/** blind round 41: the deprecation headers of the legacy scope read:user_idp_tokens (`token-sets-403-legacy-scope-deprecation`). */
const LEGACY_SCOPE_DEPRECATION = {
  deprecation: '@1719792000',
  link: '<https://docs.conformance.test/deprecations/read-user-idp-tokens>; rel="deprecation"; type="text/html"',
} as const;
/** blind round 41: the tenant prefix of the unique stream name the store keeps (`event-stream-name-tenant-qualified`). */
const STREAM_NAME_TENANT = 'conformance';
/** blind round 41: the edge proxy's limit on a path segment (`token-sets-long-id-proxy-html-400`). */
const PROXY_SEGMENT_MAX = 300;
/** blind round 41: a JSON value as Python's repr writes it (`transition-404-body-python-repr`). */
function pythonRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(v as Json)
    .map(([k, x]) => `${pythonRepr(k)}: ${pythonRepr(x)}`)
    .join(', ')}}`;
}
/** blind round 41: how long ago a time was, as the admin UI's humanize filter writes it (`token-set-recent-last-used-humanized`). */
function humanizedAgo(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 90) return `${minutes} minutes ago`;
  return `${Math.round(minutes / 60)} hours ago`;
}
/** blind round 41: an RSA exponent re-encoded from a 32-bit integer, four octets wide (`keys-rsa-exponent-four-octets`). */
function exponentFourOctets(e: string): string {
  const bytes = Buffer.from(e, 'base64url');
  if (bytes.length === 0 || bytes.length > 4) return e;
  const out = Buffer.alloc(4);
  bytes.copy(out, 4 - bytes.length);
  return out.toString('base64url');
}

/** blind round 42: the output object each grant is copied onto, one per fault layer (`client-grant-serializer-object-reused`). */
const pooledGrant = new WeakMap<Set<string>, Json>();
/** blind round 42: the stream collection's version, bumped by each read by id, and the version each next cursor was cut from (`event-streams-cursor-invalidated-by-reads`). */
const collectionVersions = new WeakMap<State, { version: number; cursors: Map<string, number> }>();
const collectionVersionOf = (state: State): { version: number; cursors: Map<string, number> } => {
  let v = collectionVersions.get(state);
  if (v === undefined) collectionVersions.set(state, (v = { version: 0, cursors: new Map() }));
  return v;
};
/** blind round 42: the read scope of an event type's resource, user.created → read:users (`event-stream-subscriptions-filtered-by-caller-read-scopes`). */
const readScopeOfType = (type: unknown): string => `read:${String(type).split('.', 1)[0]}s`;
/** blind round 42: a webhook endpoint with its path masked (`event-streams-list-webhook-endpoint-path-masked`). */
function endpointMasked(endpoint: unknown): unknown {
  if (typeof endpoint !== 'string') return endpoint;
  try {
    return `${new URL(endpoint).origin}/***`;
  } catch {
    return '***';
  }
}
/** blind round 42: the Bitcoin base58 alphabet of the interface's ids and the Flickr one of the experimentation service (`transition-answer-id-flickr-base58`). */
const BITCOIN_BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const FLICKR_BASE58 = '123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const flickrId = (id: string): string =>
  id.startsWith('exp_')
    ? `exp_${[...id.slice(4)].map((c) => FLICKR_BASE58[BITCOIN_BASE58.indexOf(c)] ?? c).join('')}`
    : id;
/** blind round 42: a value as Mustache's {{…}} escapes it for HTML (`keys-answer-kid-html-escaped`). */
const MUSTACHE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};
const mustacheEscaped = (v: string): string => v.replace(/[&<>"'`=/]/g, (c) => MUSTACHE_ESCAPES[c]!);
/** blind round 42: the tags of a value, quoted attribute values kept whole, and a global attribute whose quoted value holds = (`custom-text-title-attribute-split-on-equals`). */
const TAG_WITH_QUOTES = /<[A-Za-z][A-Za-z0-9]*(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const GLOBAL_ATTRIBUTE_WITH_EQUALS = /\s(?!href\b)[A-Za-z][\w:-]*\s*=\s*(?:"[^"]*=[^"]*"|'[^']*=[^']*')/i;
const globalAttributeWithEquals = (v: string): boolean =>
  [...v.matchAll(TAG_WITH_QUOTES)].some((m) => GLOBAL_ATTRIBUTE_WITH_EQUALS.test(m[0]));

const answerMutations: readonly AnswerMutation[] = [
  // blind round 42
  {
    by: 'token-response-pragma-copied-from-cache-control',
    on: ['oauth.token'],
    // The HTTP/1.0 shim copies the response's Cache-Control value into Pragma.
    reshape: (a) => ({ ...a, headers: { ...a.headers, pragma: 'no-store' } }),
  },
  {
    by: 'invalid-token-negative-cache-401-no-challenge',
    on: INTERFACE_OPERATIONS,
    answers: 'errors',
    // A token refused once is refused again by the negative cache's fast path, which sets no challenge.
    when: (a, q) => {
      const token = bearerOf(q.request);
      if (a.status !== 401 || errorCode(a) !== 'invalid_token' || token === undefined) return false;
      if (q.seen.has(token)) return true;
      q.seen.add(token);
      return false;
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'client-grant-serializer-object-reused',
    on: ['client-grants.get'],
    // One pooled output object, each grant Object.assign-ed onto it, never cleared.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      const out = pooledGrant.get(q.seen) ?? {};
      Object.assign(out, a.body as Json);
      pooledGrant.set(q.seen, out);
      return { ...a, body: { ...out } };
    },
  },
  {
    by: 'event-streams-list-webhook-endpoint-path-masked',
    on: ['event-streams.list'],
    // The console table's projection masks the endpoint's path.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      streams(a, (s) => {
        const destination = s['destination'] as Json | undefined;
        const configuration = destination?.['configuration'] as Json | undefined;
        if (configuration === undefined) return s;
        return {
          ...s,
          destination: {
            ...destination,
            configuration: { ...configuration, webhook_endpoint: endpointMasked(configuration['webhook_endpoint']) },
          },
        };
      }),
  },
  {
    by: 'event-streams-cursor-invalidated-by-reads',
    on: ['event-streams.get'],
    // A read by id stamps last_read_at, which bumps the collection's version (the answer itself is unchanged).
    when: (a, q) => {
      if (isPlainObject(a.body)) collectionVersionOf(q.state).version++;
      return false;
    },
    reshape: (a) => a,
  },
  {
    by: 'event-streams-cursor-invalidated-by-reads',
    on: ['event-streams.list'],
    // A next cursor is bound to the collection's version it was cut from.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      const v = collectionVersionOf(q.state);
      const from = singleQuery(q.request, 'from');
      const cutAt = from === undefined ? undefined : v.cursors.get(from);
      if (cutAt !== undefined && cutAt !== v.version)
        return error('invalid_cursor', 'from was cut from another version of the stream collection');
      const next = (a.body as Json)['next'];
      if (typeof next === 'string') v.cursors.set(next, v.version);
      return a;
    },
  },
  {
    by: 'event-stream-subscriptions-filtered-by-caller-read-scopes',
    on: ['event-streams.get', 'event-streams.list'],
    // The events API's visibility rule: an event type is shown to holders of its resource's read scope.
    when: (a, q) => isPlainObject(a.body) && q.request.principal != null,
    reshape: (a, q) => {
      const held = q.request.principal!.scopes;
      return streams(a, (s) =>
        Array.isArray(s['subscriptions'])
          ? {
              ...s,
              subscriptions: (s['subscriptions'] as Json[]).filter((sub) =>
                held.has(readScopeOfType(sub['event_type'])),
              ),
            }
          : s,
      );
    },
  },
  {
    by: 'token-sets-scope-beyond-connection-config-hidden',
    on: ['token-sets.list'],
    // A set holding a scope its connection no longer requests is taken for a stale grant.
    when: (a) => Array.isArray(a.body),
    reshape: (a, q) => ({
      ...a,
      body: (a.body as Json[]).filter((t) => {
        const configured = q.state.connectionByName(String(t['connection']))?.options['scope'];
        if (typeof configured !== 'string' || typeof t['scope'] !== 'string') return true;
        const requested = configured.split(' ');
        return t['scope'].split(' ').every((s) => s === '' || requested.includes(s));
      }),
    }),
  },
  {
    by: 'transition-answer-content-encoding-passthrough',
    on: ['experiments.transition'],
    // The upstream's Content-Encoding copied onto a body the proxy client already decompressed.
    when: (_a, q) => /\bgzip\b/i.test(String(q.request.headers['accept-encoding'] ?? '')),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-encoding': 'gzip' } }),
  },
  {
    by: 'transition-status-char9-padded',
    on: ['experiments.transition'],
    // status read from a CHAR(9) column, blank-padded.
    when: (a) => isPlainObject(a.body) && typeof a.body['status'] === 'string',
    reshape: (a) => body(a, (e) => ({ ...e, status: String(e['status']).padEnd(9, ' ') })),
  },
  {
    by: 'transition-answer-id-flickr-base58',
    on: ['experiments.transition'],
    // The public id written with the Flickr base58 alphabet by the experimentation service.
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    reshape: (a) => body(a, (e) => ({ ...e, id: flickrId(String(e['id'])) })),
  },
  {
    by: 'keys-answer-kid-html-escaped',
    on: ['custom-signing-keys.put'],
    // The answer rendered by a Mustache view: {{kid}} escaped for HTML.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          isPlainObject(k) && typeof k['kid'] === 'string' ? { ...k, kid: mustacheEscaped(k['kid']) } : k,
        ),
      })),
  },
  {
    by: 'keys-private-member-400-text-plain',
    on: ['custom-signing-keys.put'],
    answers: 'errors',
    // The JOSE library's exception rendered by the framework's default handler.
    when: (a) => a.status === 400 && isPlainObject(a.body) && String(a.body['message']).includes('private member'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Bad Request: JWK holds a private member',
    }),
  },
  {
    by: 'custom-text-path-enum-400-plain-text',
    on: ['custom-text.put'],
    answers: 'errors',
    // The router's enum constraint on language and page answers its own plain text.
    when: (a, q) => {
      if (a.status !== 400 || errorCode(a) !== 'invalid_uri') return false;
      const params = (q.request.params ?? {}) as Record<string, string | undefined>;
      return (
        (params['language'] !== undefined && params['language'] !== 'en') ||
        (params['page'] !== undefined && params['page'] !== 'get-started')
      );
    },
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Bad Request',
    }),
  },
  // blind round 41
  {
    by: 'transition-second-move-created-at-omitted',
    on: ['experiments.transition'],
    // The write-through cache's row after the first move: the changed columns merged onto the list projection.
    when: (a, q) => {
      const id = isPlainObject(a.body) ? String(a.body['id']) : '';
      const again = q.seen.has(id);
      q.seen.add(id);
      return again;
    },
    reshape: (a) =>
      body(a, (e) => {
        const { created_at: _created, ...rest } = e;
        return rest;
      }),
  },
  {
    by: 'keys-kidless-key-numeric-kid',
    on: ['custom-signing-keys.put'],
    // A key sent without kid answered with the row's serial key as its kid.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k, i) =>
          isPlainObject(k) && k['kid'] === undefined ? { ...k, kid: i + 1 } : k,
        ),
      })),
  },
  {
    by: 'keys-rsa-exponent-four-octets',
    on: ['custom-signing-keys.put'],
    // e parsed into an int and written back from its four-octet big-endian form.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          isPlainObject(k) && k['kty'] === 'RSA' && typeof k['e'] === 'string'
            ? { ...k, e: exponentFourOctets(k['e']) }
            : k,
        ),
      })),
  },
  {
    by: 'event-streams-later-pages-ids-unprefixed',
    on: ['event-streams.list'],
    // The keyset query of a page after the first reads the raw table: the row key without its est_ type prefix.
    when: (a, q) => singleQuery(q.request, 'from') !== undefined && isPlainObject(a.body),
    reshape: (a) =>
      streams(a, (s) =>
        typeof s['id'] === 'string' && s['id'].startsWith('est_') ? { ...s, id: s['id'].slice(4) } : s,
      ),
  },
  {
    by: 'event-stream-status-auto-suspended',
    on: ['event-streams.get', 'event-streams.list'],
    // The delivery worker's own status for a stream it switched off after failures, written over disabled.
    reshape: (a) =>
      streams(a, (s) =>
        s['status'] === 'disabled' && s['updated_at'] !== s['created_at'] ? { ...s, status: 'suspended' } : s,
      ),
  },
  {
    by: 'event-stream-name-tenant-qualified',
    on: ['event-streams.get', 'event-streams.list'],
    // The unique name the store keeps (tenant/name) answered without the tenant stripped.
    reshape: (a) =>
      streams(a, (s) => (typeof s['name'] === 'string' ? { ...s, name: `${STREAM_NAME_TENANT}/${s['name']}` } : s)),
  },
  {
    by: 'token-sets-403-legacy-scope-deprecation',
    on: ['token-sets.list'],
    answers: 'errors',
    // The nudge meant for holders of read:user_idp_tokens sent on every 403 of the listing.
    when: (a) => a.status === 403,
    reshape: (a) => ({ ...a, headers: { ...a.headers, ...LEGACY_SCOPE_DEPRECATION } }),
  },
  {
    by: 'token-sets-long-id-proxy-html-400',
    on: ['token-sets.list'],
    answers: 'errors',
    // The edge proxy refuses a path segment over its limit with its own page.
    when: (a, q) => a.status === 400 && codePoints(param(q.request, 'id')) > PROXY_SEGMENT_MAX,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>400 Bad Request</title></head><body><center><h1>400 Bad Request</h1></center><hr><center>edge</center></body></html>\n',
    }),
  },
  {
    by: 'transition-404-body-python-repr',
    on: ['experiments.transition'],
    answers: 'errors',
    // The experiments service's not-found handler returns str(error) under the JSON media type.
    when: (a) => a.status === 404 && isPlainObject(a.body),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: pythonRepr(a.body),
    }),
  },
  {
    by: 'token-set-recent-last-used-humanized',
    on: ['token-sets.list'],
    // The admin UI's humanize filter applied by the shared serializer to times within the last day.
    when: (a) => Array.isArray(a.body),
    reshape: (a) =>
      items(a, (t) => {
        const used = typeof t['last_used_at'] === 'string' ? Date.parse(t['last_used_at']) : NaN;
        const ago = Date.now() - used;
        return Number.isFinite(ago) && ago >= 0 && ago < 86_400_000 ? { ...t, last_used_at: humanizedAgo(ago) } : t;
      }),
  },
  {
    by: 'transition-segment-strategy-service-enum',
    on: ['experiments.transition'],
    // The targeting service's own enum name for segment experiments, passed through by the move's answer.
    when: (a) => isPlainObject(a.body) && a.body['allocation_strategy'] === 'segment',
    reshape: (a) => body(a, (e) => ({ ...e, allocation_strategy: 'segment_based' })),
  },
  {
    by: 'transition-name-localised-with-accept-language',
    on: ['experiments.transition'],
    // The i18n middleware's localisable fields answered as a language map when the request names a language.
    when: (a, q) => isPlainObject(a.body) && typeof q.request.headers['accept-language'] === 'string',
    reshape: (a, q) =>
      body(a, (e) => ({
        ...e,
        name: { [String(q.request.headers['accept-language']).split(/[,;]/, 1)[0]!.trim() || 'en']: e['name'] },
      })),
  },
  // blind round 40
  {
    by: 'token-response-pragma-missing',
    on: ['oauth.token'],
    // The success writer sets Cache-Control only; the HTTP/1.0 shim's Pragma is gone.
    reshape: (a) => ({ ...a, headers: { ...a.headers, pragma: undefined } }),
  },
  {
    by: 'bearer-long-token-500',
    on: 'every',
    answers: 'errors',
    // The token copied into a fixed buffer before it is parsed.
    when: (a, q) => a.status === 401 && (bearerOf(q.request)?.length ?? 0) > BEARER_BUFFER_CHARS,
    reshape: () => error('internal_error'),
  },
  {
    by: 'disallowed-alg-401-no-challenge',
    on: 'every',
    answers: 'errors',
    // The alg guard in front of the verifier answers its own 401.
    when: (a, q) => {
      if (a.status !== 401) return false;
      const alg = bearerAlgOf(q.request);
      return alg !== undefined && alg !== 'RS256';
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'token-sets-empty-list-text-plain',
    on: ['token-sets.list'],
    // The empty list written as a literal with the default media type.
    when: (a) => Array.isArray(a.body) && a.body.length === 0,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' }, body: '[]' }),
  },
  {
    by: 'transition-allocation-is-control-null',
    on: ['experiments.transition'],
    // A nullable column with only true written: false reads back null.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['allocations']),
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) =>
          x['is_control'] === false ? { ...x, is_control: null } : x,
        ),
      })),
  },
  {
    by: 'transition-segment-authentication-flow-omitted',
    on: ['experiments.transition'],
    // The segment experiments' mapper has no authentication_flow.
    when: (a) => isPlainObject(a.body) && a.body['allocation_strategy'] === 'segment',
    reshape: (a) => body(a, (e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'authentication_flow'))),
  },
  {
    by: 'transition-pause-answered-before-commit',
    on: ['experiments.transition'],
    // The pause is queued; the answer is the row read before the queued write lands.
    when: (a, q) => askedStatus(q) === 'paused' && isPlainObject(a.body) && a.body['status'] === 'paused',
    reshape: (a) => body(a, (e) => ({ ...e, status: 'active' })),
  },
  {
    by: 'client-grant-answer-id-from-client-id',
    on: ['client-grants.get'],
    // The mapper fills id from the client_id column beside it.
    when: (a) => isPlainObject(a.body) && typeof a.body['client_id'] === 'string',
    reshape: (a) => body(a, (g) => ({ ...g, id: g['client_id'] })),
  },
  {
    by: 'client-grant-missing-authorization-details-types-null',
    on: ['client-grants.get'],
    // An unset list marshalled as null, not left out.
    when: (a) => isPlainObject(a.body) && a.body['authorization_details_types'] === undefined,
    reshape: (a) => body(a, (g) => ({ ...g, authorization_details_types: null })),
  },
  {
    by: 'event-stream-get-subscriptions-as-type-strings',
    on: ['event-streams.get'],
    // The detail cache keeps each subscription as its event type name.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['subscriptions']),
    reshape: (a) =>
      body(a, (s) => ({
        ...s,
        subscriptions: (s['subscriptions'] as Json[]).map((x) => (isPlainObject(x) ? x['event_type'] : x)),
      })),
  },
  {
    by: 'event-streams-list-ordered-by-last-read',
    on: ['event-streams.get'],
    // The detail read stamps last_read_at (the answer itself is unchanged).
    when: (a, q) => {
      if (isPlainObject(a.body) && typeof a.body['id'] === 'string') {
        const reads = perState(streamReads, q.state);
        reads.delete(a.body['id']);
        reads.set(a.body['id'], Date.now());
      }
      return false;
    },
    reshape: (a) => a,
  },
  {
    by: 'event-streams-list-ordered-by-last-read',
    on: ['event-streams.list'],
    // Ordered by last_read_at NULLS FIRST; next names the page's last stream.
    when: (a, q) => isPlainObject(a.body) && perState(streamReads, q.state).size > 0,
    reshape: (a, q) => {
      const order = streamsByLastRead(q.state);
      const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
      const from = singleQuery(q.request, 'from');
      const lastId = from === undefined ? undefined : Buffer.from(from, 'base64url').toString('utf8').slice(4);
      const start = lastId === undefined ? 0 : order.findIndex((s) => s['id'] === lastId) + 1;
      const page = order.slice(start, start + take);
      const last = page.at(-1);
      return {
        ...a,
        body:
          start + take < order.length && last !== undefined
            ? { eventStreams: page, next: encodeStreamCursor(String(last['id'])) }
            : { eventStreams: page },
      };
    },
  },
  // blind round 39
  {
    by: 'expired-token-401-no-challenge',
    on: 'every',
    answers: 'errors',
    // The expiry error mapped to its own 401 by a branch that sets no challenge.
    when: (a, q) => a.status === 401 && is('invalid_token')(a) && bearerExpired(q.request),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'token-sets-cleared-by-profile-update',
    on: ['token-sets.list'],
    // The user document rewritten by a profile update, without the linked federated tokens.
    when: (_a, q) => {
      const user = q.state.users.get(param(q.request, 'id'));
      return user !== undefined && user.updated_at !== user.created_at;
    },
    reshape: (a) => ({ ...a, body: [] }),
  },
  {
    by: 'transition-ended-feature-flag-released',
    on: ['experiments.transition'],
    // A move that ends the run releases the flag; the answer is read after the release.
    when: (a) => isPlainObject(a.body) && (a.body['status'] === 'completed' || a.body['status'] === 'archived'),
    reshape: (a) => body(a, (e) => ({ ...e, feature_flag_id: null })),
  },
  {
    by: 'client-grant-empty-scope-null',
    on: ['client-grants.get'],
    // An empty scope list marshalled as a nil slice.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['scope']) && a.body['scope'].length === 0,
    reshape: (a) => body(a, (g) => ({ ...g, scope: null })),
  },
  {
    by: 'event-streams-list-status-active-inactive',
    on: ['event-streams.list'],
    // The listing served from the search index, in the console's vocabulary.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['eventStreams']),
    reshape: (a) =>
      streams(a, (s) => ({
        ...s,
        status: s['status'] === 'enabled' ? 'active' : s['status'] === 'disabled' ? 'inactive' : s['status'],
      })),
  },
  {
    by: 'custom-text-dollar-keys-dropped',
    on: ['custom-text.put'],
    // Field names starting with $ left out by the document store.
    when: (a) => isPlainObject(a.body) && Object.keys(a.body).some((k) => k.startsWith('$')),
    reshape: (a) => body(a, (m) => Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('$')))),
  },
  {
    by: 'events-timestamp-stream-octet-stream',
    on: ['events.subscribe'],
    // The history-export handler writes the stream under its own media type.
    when: (_a, q) => {
      const query = q.request.query as Record<string, unknown> | undefined;
      return query?.['from_timestamp'] !== undefined && query['from'] === undefined;
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'application/octet-stream' } }),
  },
  {
    by: 'allow-empty-on-trailing-slash-path',
    on: 'every',
    answers: 'errors',
    // The Allow value looked up by the path as sent, in a map keyed by the templates without a trailing slash.
    when: (a, q) => a.status === 405 && q.request.url.split('?', 1)[0]!.endsWith('/'),
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: '' } }),
  },
  {
    by: 'token-sets-429-legacy-throttle-deprecation',
    on: ['token-sets.list'],
    answers: 'errors',
    // The 429 written by the shared v1 throttling handler, with the v1 deprecation headers.
    when: (a) => a.status === 429,
    reshape: (a) => ({
      ...a,
      headers: {
        ...a.headers,
        deprecation: LEGACY_DEPRECATION,
        sunset: LEGACY_SUNSET,
        link: '<https://docs.conformance.test/migrations/v1-throttling>; rel="deprecation"',
      },
    }),
  },
  // blind round 38
  {
    by: 'transition-lock-kept-after-refused-move',
    on: ['experiments.transition'],
    answers: 'errors',
    // A refusal of the handler leaves the lock it took held until its lease ends.
    when: (a, q) => is('invalid_body', 'invalid_transition')(a) && q.state.experiments.has(param(q.request, 'id')),
    reshape: (a, q) => {
      moveLocksOf(q.state).set(param(q.request, 'id'), Date.now() + MOVE_LOCK_MS);
      return a;
    },
  },
  {
    by: 'client-grant-enrichment-memo-keyed-by-audience',
    on: ['client-grants.get'],
    // The enrichment memo, keyed by audience, holds the whole grant of the first read.
    when: (a) => isPlainObject(a.body) && typeof a.body['audience'] === 'string',
    reshape: (a, q) => {
      const memo = perState(grantsByAudience, q.state);
      const audience = (a.body as Json)['audience'] as string;
      if (!memo.has(audience)) memo.set(audience, structuredClone(a.body));
      return ok(memo.get(audience));
    },
  },
  {
    by: 'event-stream-get-entity-cache-keyed-by-id',
    on: ['custom-text.put'],
    // The profile a PUT loaded goes into the entity cache, by its id.
    when: (_a, q) => q.state.profiles.has(param(q.request, 'id')),
    reshape: (a, q) => {
      const id = param(q.request, 'id');
      perState(entityCache, q.state).set(id, { ...q.state.profiles.get(id)! });
      return a;
    },
  },
  {
    by: 'event-stream-get-entity-cache-keyed-by-id',
    on: ['event-streams.get'],
    answers: 'errors',
    // The entity cache is read before the event stream store.
    when: (a, q) => is('inexistent_event_stream')(a) && perState(entityCache, q.state).has(param(q.request, 'id')),
    reshape: (_a, q) => ok(perState(entityCache, q.state).get(param(q.request, 'id'))),
  },
  {
    by: 'event-streams-walk-position-kept-per-token',
    on: ['event-streams.list'],
    // The paginator's session: a page after a cursor continues from the token's last position.
    when: (a, q) => isPlainObject(a.body) && Array.isArray(a.body['eventStreams']) && q.request.principal !== null,
    reshape: (a, q) => {
      const positions = perState(walkPositions, q.state);
      const token = q.request.principal!.tokenId;
      const all = q.state.eventStreams;
      const page = (a.body as { eventStreams: Json[] }).eventStreams;
      const from = singleQuery(q.request, 'from');
      const session = positions.get(token);
      if (from === undefined || session === undefined) {
        const last = page.at(-1);
        const end = last === undefined ? 0 : q.state.eventStreamIndexOf(String(last['id']))! + 1;
        positions.set(token, end);
        return a;
      }
      const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
      const served = all.slice(session, session + take);
      const end = session + served.length;
      positions.set(token, end);
      const last = served.at(-1);
      return ok(
        end < all.length && last !== undefined
          ? { eventStreams: served, next: encodeStreamCursor(last.id) }
          : { eventStreams: served },
      );
    },
  },
  {
    by: 'custom-text-double-submit-keyed-by-profile',
    on: ['custom-text.put'],
    answers: 'all',
    // A repetition of the last PUT to the profile within two seconds is answered that PUT's response.
    when: (a, q) => {
      if (q.request.principal === null || !isPlainObject(q.request.body)) return false;
      if (a.status < 300) return true;
      const last = perState(lastTextPuts, q.state).get(textPutKey(q.request));
      return (
        is('invalid_uri')(a) &&
        last !== undefined &&
        Date.now() - last.atMs < DOUBLE_SUBMIT_MS &&
        last.body === JSON.stringify(q.request.body)
      );
    },
    reshape: (a, q) => {
      const puts = perState(lastTextPuts, q.state);
      if (a.status < 300) {
        puts.set(textPutKey(q.request), {
          atMs: Date.now(),
          body: JSON.stringify(q.request.body),
          answer: structuredClone(a.body),
        });
        return a;
      }
      return ok(structuredClone(puts.get(textPutKey(q.request))!.answer));
    },
  },
  // blind round 37
  {
    by: 'bearer-kid-echoed-in-header-500',
    on: INTERFACE_OPERATIONS,
    answers: 'errors',
    // The kid no key was found for, set as a diagnostic header with setHeader: a value beyond Latin-1 throws.
    when: (a, q) => {
      if (a.status !== 401) return false;
      const kid = bearerKidOf(q.request);
      return kid !== undefined && kid !== q.request.server.emulator.auth.kid;
    },
    reshape: (a, q) => {
      const kid = bearerKidOf(q.request)!;
      return NODE_HEADER_VALUE.test(kid)
        ? { ...a, headers: { ...a.headers, 'x-auth-error': `no signing key for kid ${kid}` } }
        : error('internal_error');
    },
  },
  {
    by: 'token-sets-forged-token-unknown-client-404',
    on: INTERFACE_OPERATIONS,
    answers: 'errors',
    // The token's client resolved (for its tenant's key) before the signature is verified: an unknown one is a 404.
    when: (a, q) => {
      if (a.status !== 401) return false;
      const client = claimedClientOf(q.request);
      return client !== undefined && q.request.server.emulator.auth.client(client) === undefined;
    },
    reshape: () => error('not_found', 'Client not found'),
  },
  {
    by: 'token-sets-legacy-paging-params-deprecated-at-start',
    on: ['token-sets.list'],
    answers: 'all',
    // The deprecation middleware of the legacy pagination parameters, registered without a date: its set-up time.
    when: (_a, q) =>
      LEGACY_PAGING_PARAMETERS.some((p) => (q.request.query as Record<string, unknown> | undefined)?.[p] !== undefined),
    reshape: (a, q) => ({
      ...a,
      headers: {
        ...a.headers,
        deprecation: `@${Math.floor(q.state.startMs / 1000)}`,
        link: '<https://docs.conformance.test/deprecations/legacy-pagination>; rel="deprecation"; type="text/html"',
      },
    }),
  },
  {
    by: 'token-sets-expired-relisted-after-profile-update',
    on: ['token-sets.list'],
    // A profile update re-synced the user's sets from the vault's export, expired ones included.
    when: (a, q) => {
      if (!Array.isArray(a.body)) return false;
      const user = q.state.users.get(param(q.request, 'id'));
      return user !== undefined && user.updated_at !== user.created_at;
    },
    reshape: (a, q) => ({ ...a, body: [...(q.state.tokenSets.get(param(q.request, 'id')) ?? [])] }),
  },
  {
    by: 'transition-segment-assignment-config-omitted',
    on: ['experiments.transition'],
    // assignment_config serialised for percentage rollouts only.
    when: (a) => isPlainObject(a.body) && a.body['allocation_strategy'] === 'segment',
    reshape: (a) => body(a, (e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'assignment_config'))),
  },
  {
    by: 'client-grant-allow-any-organization-folded-into-usage',
    on: ['client-grants.get'],
    // allow_any_organization folded back into the v1 enum's fourth value.
    when: (a) => isPlainObject(a.body) && a.body['allow_any_organization'] === true,
    reshape: (a) => body(a, (g) => ({ ...g, organization_usage: 'any' })),
  },
  {
    by: 'client-grant-jsonp-callback-honoured',
    on: ['client-grants.get'],
    // res.jsonp: a callback in the query wraps the body in a call.
    when: (_a, q) => jsonpCallbackOf(q.request) !== '',
    reshape: (a, q) => {
      const name = jsonpCallbackOf(q.request);
      const json = JSON.stringify(a.body)
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029');
      return {
        ...a,
        headers: {
          ...a.headers,
          'content-type': 'text/javascript; charset=utf-8',
          'x-content-type-options': 'nosniff',
        },
        body: `/**/ typeof ${name} === 'function' && ${name}(${json});`,
      };
    },
  },
  {
    by: 'custom-text-answer-keys-camelized',
    on: ['custom-text.put'],
    // The console module's response serialiser camelCases object keys, the text map's own keys too.
    when: (a) => isPlainObject(a.body),
    reshape: (a) => body(a, (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [camelized(k), v]))),
  },
  {
    by: 'sse-retry-preamble-unterminated-on-resume',
    on: ['events.subscribe'],
    // A resumed stream opens with a retry field whose line end was lost.
    when: (a, q) =>
      a.status === 200 &&
      typeof a.body === 'string' &&
      (q.request.query as Record<string, unknown> | undefined)?.['from'] !== undefined,
    reshape: (a) => ({ ...a, body: `${a.body as string}${RESUME_RETRY_PREAMBLE}` }),
  },
  // blind round 36
  {
    by: 'token-basic-unknown-client-no-challenge',
    on: ['oauth.token'],
    answers: 'errors',
    // The Basic challenge carries the realm of the client's tenant: no client, no realm, no header.
    when: (a, q) => {
      if (a.status !== 401) return false;
      const creds = basicCredentials(q.request.headers.authorization);
      const id = creds === undefined ? undefined : formDecoded(creds[0]);
      return id !== undefined && q.request.server.emulator.auth.client(id) === undefined;
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'challenge-sent-once-per-connection',
    on: INTERFACE_OPERATIONS,
    answers: 'errors',
    // A per-connection "challenged" flag: the challenge goes out on the first 401 of a connection only.
    when: (a) => a.status === 401 && a.headers['www-authenticate'] !== undefined,
    reshape: (a, q) => {
      const connection = q.request.raw.socket as object | undefined;
      if (connection === undefined) return a;
      let challenged = challengedConnections.get(q.state);
      if (challenged === undefined) challengedConnections.set(q.state, (challenged = new WeakSet()));
      if (!challenged.has(connection)) {
        challenged.add(connection);
        return a;
      }
      return { ...a, headers: { ...a.headers, 'www-authenticate': undefined } };
    },
  },
  {
    by: 'token-set-null-expiry-as-never-label',
    on: ['token-sets.list'],
    // The console's presenter labels a set without expiry "never".
    when: (a) => Array.isArray(a.body),
    reshape: (a) => items(a, (t) => (t['expires_at'] === null ? { ...t, expires_at: 'never' } : t)),
  },
  {
    by: 'token-sets-user-lookup-by-email',
    on: ['token-sets.list'],
    answers: 'errors',
    // WHERE user_id = :id OR email = :id: the console's user search.
    when: (a, q) => is('inexistent_user')(a) && userByEmail(q) !== undefined,
    reshape: (_a, q) => {
      const now = q.request.server.emulator.options.now();
      const sets = q.state.tokenSets.get(userByEmail(q)!) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'client-grant-system-subject-type-unset-ordinal',
    on: ['client-grants.get'],
    // subject_type kept as an ordinal, 0 (unset) for the grants the platform provisions.
    when: (a) => isPlainObject(a.body) && a.body['is_system'] === true,
    reshape: (a) => body(a, (g) => ({ ...g, subject_type: SUBJECT_TYPE_BY_ORDINAL[0] })),
  },
  {
    by: 'event-streams-next-as-query-object-with-take',
    on: ['event-streams.list'],
    // The newer paginator writes next as the query of the next page.
    when: (a, q) =>
      isPlainObject(a.body) && typeof a.body['next'] === 'string' && singleQuery(q.request, 'take') !== undefined,
    reshape: (a, q) =>
      body(a, (b) => ({ ...b, next: { from: b['next'], take: Number(singleQuery(q.request, 'take')) } })),
  },
  {
    by: 'event-streams-list-subscriptions-distinct-on-type',
    on: ['event-streams.list'],
    // DISTINCT ON (event_type) on the fan-out rows: each type's row kept for the first stream of the page only.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['eventStreams']),
    reshape: (a) => {
      const claimed = new Set<string>();
      return streams(a, (s) => ({
        ...s,
        subscriptions: (s['subscriptions'] as Json[]).filter((sub) => {
          const type = String(sub['event_type']);
          if (claimed.has(type)) return false;
          claimed.add(type);
          return true;
        }),
      }));
    },
  },
  // blind round 35
  {
    by: 'token-response-basic-branch-no-no-store',
    on: ['oauth.token'],
    // The Basic strategy's success callback writes the token response, past the route's no-store headers.
    when: (_a, q) => /^Basic\b/i.test(q.request.headers.authorization ?? ''),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': undefined, pragma: undefined } }),
  },
  {
    by: 'token-sets-user-resolved-before-bearer-check',
    on: ['token-sets.list'],
    answers: 'errors',
    // The users router's {id} hook, registered before the auth plugin, answers 404 for a user it cannot load.
    when: (a, q) => {
      if (a.status !== 401) return false;
      const id = (q.request.params as Record<string, string> | undefined)?.['id'];
      return id !== undefined && codePoints(id) <= USER_ID_MAX && !q.state.users.has(id);
    },
    reshape: () => error('inexistent_user'),
  },
  {
    by: 'token-sets-unknown-user-relays-legacy-deprecation',
    on: ['token-sets.list'],
    answers: 'errors',
    // The users service's v1 404 relayed with its headers.
    when: is('inexistent_user'),
    reshape: (a) => ({ ...a, headers: { ...a.headers, ...LEGACY_USERS_DEPRECATION } }),
  },
  {
    by: 'transition-empty-status-noop',
    on: ['experiments.transition'],
    answers: 'errors',
    // if (!body.status) return experiment: the empty string read as nothing to change, before the enum check.
    when: (a, q) => is('invalid_body')(a) && askedStatus(q) === '',
    reshape: (_a, q) => experimentAsIs(q),
  },
  {
    by: 'transition-archive-answered-as-soft-delete',
    on: ['experiments.transition'],
    // The soft-delete route's responder answers the move to archived.
    when: (_a, q) => askedStatus(q) === 'archived',
    reshape: () => ({ status: 204, body: undefined, headers: {} }),
  },
  {
    by: 'client-grant-id-prefix-optional',
    on: ['client-grants.get'],
    answers: 'errors',
    // The prefixed-id helper takes an id without cgr_ as the stored key.
    when: (a, q) => is('inexistent_client_grant')(a) && q.state.clientGrants.has(GRANT_PREFIX + param(q.request, 'id')),
    reshape: (_a, q) => ok(q.state.clientGrants.get(GRANT_PREFIX + param(q.request, 'id'))),
  },
  {
    by: 'client-grant-organization-usage-required-spelling',
    on: ['client-grants.get'],
    // The organisations service's enum: deny, allow, required.
    when: (a) => isPlainObject(a.body) && a.body['organization_usage'] === 'require',
    reshape: (a) => body(a, (g) => ({ ...g, organization_usage: 'required' })),
  },
  {
    by: 'event-stream-subscriptions-joined-to-type-catalogue',
    on: ['event-streams.get', 'event-streams.list'],
    // INNER JOIN to an event-type catalogue seeded without the connection events.
    reshape: (a) =>
      streams(a, (s) => ({
        ...s,
        subscriptions: (s['subscriptions'] as Json[]).filter(
          (sub) => !String(sub['event_type']).startsWith('connection.'),
        ),
      })),
  },
  // blind round 34
  {
    by: 'token-sets-scope-checked-on-unverified-claims',
    on: ['token-sets.list'],
    answers: 'errors',
    // The scope guard, mounted before the verifier, reads the decoded claims of a token that has not been verified.
    when: (a, q) => {
      if (!is('invalid_token')(a)) return false;
      const claims = unverifiedClaimsOf(q.request);
      if (claims === undefined) return false;
      const scope = typeof claims['scope'] === 'string' ? claims['scope'] : '';
      return !scope.split(' ').includes(TOKEN_SETS_SCOPE);
    },
    reshape: () =>
      error('insufficient_scope', `Insufficient scope, expected any of: ${TOKEN_SETS_SCOPE}`, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${TOKEN_SETS_SCOPE}"`,
      }),
  },
  {
    by: 'token-sets-one-per-connection',
    on: ['token-sets.list'],
    // DISTINCT ON (connection) ORDER BY connection, issued_at DESC: the token vault's "current set per connection" view.
    when: (a) => Array.isArray(a.body),
    reshape: (a) => {
      const newest = new Map<unknown, Json>();
      for (const t of a.body as Json[]) {
        const kept = newest.get(t['connection']);
        if (kept === undefined || String(t['issued_at']) > String(kept['issued_at'])) newest.set(t['connection'], t);
      }
      return { ...a, body: [...newest.values()] };
    },
  },
  {
    by: 'transition-answer-jsonapi-document',
    on: ['experiments.transition'],
    // The experimentation service's JSON:API serializer answers the move.
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    reshape: (a) =>
      body(a, (e) => {
        const { id, ...attributes } = e;
        return { data: { type: 'experiments', id, attributes }, jsonapi: { version: '1.1' } };
      }),
  },
  {
    by: 'transition-description-null-from-mapper',
    on: ['experiments.transition'],
    // The answer's mapper has no source for description (renamed summary in the entity): left null, nulls written.
    when: (a) => isPlainObject(a.body),
    reshape: (a) => body(a, (e) => ({ ...e, description: null })),
  },
  {
    by: 'client-grant-empty-scope-split-blank-item',
    on: ['client-grants.get'],
    // scope kept as a space-separated column and split on read: "".split(" ") is [""].
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['scope']) && a.body['scope'].length === 0,
    reshape: (a) => body(a, (g) => ({ ...g, scope: ''.split(' ') })),
  },
  {
    by: 'client-grant-read-joined-to-caller-client',
    on: ['client-grants.get'],
    // The read reuses the per-application grants query: WHERE id = :id AND client_id = :azp.
    when: (a, q) => isPlainObject(a.body) && q.request.principal != null,
    reshape: (a, q) =>
      (a.body as Json)['client_id'] === q.request.principal!.clientId ? a : error('inexistent_client_grant'),
  },
  {
    by: 'event-stream-get-model-name-min-3',
    on: ['event-streams.get'],
    // The detail model validates its row with the console form's name rule (3 to 128 characters).
    when: (a) => isPlainObject(a.body) && typeof a.body['name'] === 'string' && codePoints(a.body['name']) < 3,
    reshape: () => error('internal_error', 'ValidationError: name must be at least 3 characters'),
  },
  {
    by: 'event-streams-page-cut-at-response-budget',
    on: ['event-streams.list'],
    // A response budget: streams are added to the page while its serialised list stays within 16 KiB.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['eventStreams']) && a.body['eventStreams'].length > 1,
    reshape: (a) => {
      const b = a.body as { eventStreams: Json[]; next?: string };
      let bytes = 2;
      let kept = 0;
      for (const s of b.eventStreams) {
        bytes += Buffer.byteLength(JSON.stringify(s)) + (kept > 0 ? 1 : 0);
        if (bytes > PAGE_BUDGET_BYTES && kept > 0) break;
        kept++;
      }
      if (kept === b.eventStreams.length) return a;
      const page = b.eventStreams.slice(0, kept);
      return { ...a, body: { ...b, eventStreams: page, next: encodeStreamCursor(String(page.at(-1)!['id'])) } };
    },
  },
  {
    by: 'event-streams-wide-page-second-read-overlaps',
    on: ['event-streams.list'],
    // A page over 50 is read as two store reads of 50 at most, the second keyed on the 50th row with >=.
    when: (a, q) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['eventStreams']) &&
      a.body['eventStreams'].length > STORE_READ_ROWS &&
      /^[0-9]{1,3}$/.test(singleQuery(q.request, 'take') ?? ''),
    reshape: (a, q) => {
      const b = a.body as { eventStreams: Json[]; next?: string };
      const all = q.state.eventStreams;
      const start = q.state.eventStreamIndexOf(String(b.eventStreams[0]!['id']));
      if (start === undefined) return a;
      const take = Number(singleQuery(q.request, 'take'));
      const first = all.slice(start, start + STORE_READ_ROWS);
      const secondFrom = start + STORE_READ_ROWS - 1;
      const second = all.slice(secondFrom, secondFrom + take - STORE_READ_ROWS);
      const page = [...first, ...second];
      const { next: _next, ...rest } = b;
      return secondFrom + take - STORE_READ_ROWS < all.length
        ? { ...a, body: { ...rest, eventStreams: page, next: encodeStreamCursor(page.at(-1)!.id) } }
        : { ...a, body: { ...rest, eventStreams: page } };
    },
  },
  {
    by: 'keys-answer-items-json-text',
    on: ['custom-signing-keys.put'],
    // The set kept in a text[] column of JSON documents, answered without parsing them.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) => body(a, (b) => ({ ...b, keys: (b['keys'] as unknown[]).map((k) => JSON.stringify(k)) })),
  },
  {
    by: 'custom-text-form-values-as-lists',
    on: ['custom-text.put'],
    // A form body bound to a multi-value map (url.Values), stored and answered as such.
    when: (a, q) => isPlainObject(a.body) && mediaTypeOf(q.request) === FORM,
    reshape: (a) => body(a, (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, [v]]))),
  },
  // blind round 33
  {
    by: 'event-streams-subscriptions-loader-first-batch-only',
    on: ['event-streams.list'],
    // The subscriptions loader splits the page's ids in batches of 50 and reads the first batch's result only.
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['eventStreams']) &&
      a.body['eventStreams'].length > SUBSCRIPTION_LOADER_BATCH,
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        eventStreams: (b['eventStreams'] as Json[]).map((s, i) =>
          i < SUBSCRIPTION_LOADER_BATCH ? s : { ...s, subscriptions: [] },
        ),
      })),
  },
  {
    by: 'event-streams-default-page-next-from-helper-default',
    on: ['event-streams.list'],
    // The page sized with the route's default (50), next placed by the helper's default (20).
    when: (a, q) =>
      singleQuery(q.request, 'take') === undefined &&
      isPlainObject(a.body) &&
      typeof a.body['next'] === 'string' &&
      Array.isArray(a.body['eventStreams']) &&
      a.body['eventStreams'].length > 0,
    reshape: (a, q) => {
      const b = a.body as { eventStreams: Json[]; next: string };
      const start = q.state.eventStreamIndexOf(String(b.eventStreams[0]!['id']));
      const at = start === undefined ? undefined : q.state.eventStreams[start + HELPER_DEFAULT_TAKE - 1];
      return at === undefined ? a : { ...a, body: { ...b, next: encodeStreamCursor(at.id) } };
    },
  },
  {
    by: 'event-stream-get-id-echoed-from-raw-path',
    on: ['event-streams.get'],
    // The detail answer's id copied from the path as sent.
    when: (a, q) => isPlainObject(a.body) && rawIdSegment(q.request.url).includes('%'),
    reshape: (a, q) => body(a, (s) => ({ ...s, id: rawIdSegment(q.request.url) })),
  },
  {
    by: 'event-stream-get-dates-tenant-zone-unicode-minus',
    on: ['event-streams.get'],
    // The detail view's dates in the tenant's zone, by the sv-SE formatter with its longOffset name.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      body(a, (s) => ({
        ...s,
        created_at: tenantLocalTime(s['created_at']),
        updated_at: tenantLocalTime(s['updated_at']),
      })),
  },
  {
    by: 'event-stream-get-served-from-list-cache',
    on: ['event-streams.list', 'event-streams.get'],
    answers: 'all',
    // The detail route reads the cache the list route fills; a miss is answered 404.
    when: (a) => a.status < 300 && isPlainObject(a.body),
    reshape: (a, q) => {
      const b = a.body as Json;
      if (q.operation === 'event-streams.list') {
        const page = Array.isArray(b['eventStreams']) ? (b['eventStreams'] as Json[]) : [];
        for (const s of page) q.seen.add(String(s['id']));
        return a;
      }
      return q.seen.has(String(b['id'])) ? a : error('inexistent_event_stream');
    },
  },
  {
    by: 'token-sets-expiry-beyond-a-year-dropped',
    on: ['token-sets.list'],
    // A plausibility check written for access tokens: an expiry more than a year ahead is a bad row.
    when: (a) => Array.isArray(a.body),
    reshape: (a) => {
      const limit = Date.now() + PLAUSIBLE_EXPIRY_MS;
      return {
        ...a,
        body: (a.body as Json[]).filter(
          (t) => typeof t['expires_at'] !== 'string' || Date.parse(t['expires_at']) <= limit,
        ),
      };
    },
  },
  {
    by: 'token-sets-zero-user-id-unfiltered',
    on: ['token-sets.list'],
    answers: 'errors',
    // The zero ObjectId read as "no user filter" by the repository.
    when: (a, q) => is('inexistent_user')(a) && ZERO_OBJECT_ID_USER.test(param(q.request, 'id')),
    reshape: (_a, q) => {
      const now = Date.now();
      return ok(
        [...q.state.tokenSets.values()].flat().filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now),
      );
    },
  },
  {
    by: 'token-sets-insufficient-scope-filtered-empty',
    on: ['token-sets.list'],
    answers: 'errors',
    // Authorisation as a row filter: the caller sees the token sets it may read, none.
    when: (a) => is('insufficient_scope')(a),
    reshape: (_a, q) => (q.state.users.has(param(q.request, 'id')) ? ok([]) : error('inexistent_user')),
  },
  {
    by: 'client-grant-system-answered-template-id',
    on: ['client-grants.get'],
    // A system grant serialised from the template it was materialised from.
    when: (a) => isPlainObject(a.body) && a.body['is_system'] === true,
    reshape: (a) =>
      body(a, (g) => ({
        ...g,
        id: `cgr_tmpl_${createHash('sha256').update(String(g['audience'])).digest('hex').slice(0, 16)}`,
      })),
  },
  {
    by: 'custom-text-answer-keyed-by-page',
    on: ['custom-text.put'],
    // The stored document of the profile and language, keyed by page, answered.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => ({ ...a, body: { [param(q.request, 'page')]: a.body } }),
  },
  {
    by: 'token-response-scope-all-as-wildcard',
    on: ['oauth.token'],
    // A grant's whole scope abbreviated to the allow_all_scopes marker.
    when: (a, q) => {
      if (!isPlainObject(a.body) || typeof a.body['access_token'] !== 'string') return false;
      const client = q.request.server.emulator.auth.client(tokenClientOf(q.request));
      return client !== undefined && sameScope(a.body['scope'], client.scopes.join(' '));
    },
    reshape: (a) => body(a, (t) => ({ ...t, scope: '*' })),
  },
  {
    by: 'api-session-cookie-accepted-without-token',
    on: 'every',
    answers: 'all',
    // A session middleware hands every caller admitted by a bearer token a session cookie.
    when: (_a, q) => q.request.principal != null && /^Bearer[ \t]/i.test(q.request.headers.authorization ?? ''),
    reshape: (a, q) => ({
      ...a,
      headers: {
        ...a.headers,
        'set-cookie': `${SESSION_COOKIE}=${sessionCookieValue(q.request.principal!.tokenId)}; Path=/api/v2; HttpOnly; SameSite=Lax`,
      },
    }),
  },
  // blind round 32
  {
    by: 'token-json-request-no-store-missing',
    on: ['oauth.token'],
    // The JSON flavour's reply written by the generic JSON sender.
    when: (a, q) =>
      isPlainObject(a.body) &&
      typeof a.body['access_token'] === 'string' &&
      mediaTypeOf(q.request) === 'application/json',
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': undefined, pragma: undefined } }),
  },
  {
    by: 'allow-header-adds-options-cors',
    on: 'every',
    answers: 'errors',
    // A CORS layer appends OPTIONS to every Allow.
    when: (a) => a.status === 405 && typeof a.headers['allow'] === 'string' && !/\bOPTIONS\b/.test(a.headers['allow']),
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: `${String(a.headers['allow'])}, OPTIONS` } }),
  },
  {
    by: 'token-sets-user-id-colon-separator-alias',
    on: ['token-sets.list'],
    answers: 'errors',
    // The old store's colon separator mapped to |.
    when: (a, q) => {
      const id = param(q.request, 'id');
      return is('inexistent_user')(a) && id.includes(':') && q.state.users.has(id.replace(':', '|'));
    },
    reshape: (_a, q) => {
      const now = Date.now();
      const sets = q.state.tokenSets.get(param(q.request, 'id').replace(':', '|')) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'token-sets-single-item-unwrapped',
    on: ['token-sets.list'],
    // A serializer that unwraps singletons.
    when: (a) => Array.isArray(a.body) && a.body.length === 1,
    reshape: (a) => ({ ...a, body: (a.body as unknown[])[0] }),
  },
  {
    by: 'rate-limit-429-remaining-from-tenant-bucket',
    on: 'every',
    answers: 'errors',
    // Remaining read from the tenant limiter, the last to run.
    when: (a, q) => a.status === 429 && tokenWindowOf(q.request) !== undefined,
    reshape: (a, q) => {
      const limit = tokenWindowOf(q.request)!;
      return {
        ...a,
        headers: { ...a.headers, 'x-ratelimit-remaining': String(limit * TENANT_BUCKET_FACTOR - limit - 1) },
      };
    },
  },
  {
    by: 'transition-allocation-priority-pg-int8-string',
    on: ['experiments.transition'],
    // int8 columns come back from node-postgres as strings.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['allocations']),
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as unknown[]).map((x) =>
          isPlainObject(x) && typeof x['priority'] === 'number' ? { ...x, priority: String(x['priority']) } : x,
        ),
      })),
  },
  {
    by: 'client-grant-cached-read-octet-stream',
    on: ['client-grants.get'],
    // The cache keeps the bytes, not the media type.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      const key = param(q.request, 'id');
      if (!q.seen.has(key)) {
        q.seen.add(key);
        return a;
      }
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/octet-stream' },
      };
    },
  },
  {
    by: 'client-grant-system-scope-wildcard-string',
    on: ['client-grants.get'],
    // The system grants' "*" marker answered as stored.
    when: (a) => isPlainObject(a.body) && a.body['is_system'] === true,
    reshape: (a) => body(a, (g) => ({ ...g, scope: '*' })),
  },
  {
    by: 'take-negative-slices-from-end',
    on: ['event-streams.list'],
    answers: 'errors',
    // Only the upper bound checked; a negative take as the end of a slice.
    when: (a, q) => {
      const take = (q.request.query as Record<string, unknown> | undefined)?.['take'];
      const from = (q.request.query as Record<string, unknown> | undefined)?.['from'];
      return a.status === 400 && from === undefined && typeof take === 'string' && /^-[1-9][0-9]{0,2}$/.test(take);
    },
    reshape: (_a, q) => {
      const take = Number((q.request.query as Record<string, string>)['take']);
      return ok({ eventStreams: q.state.eventStreams.slice(0, take) });
    },
  },
  {
    by: 'events-resumed-stream-content-type-missing',
    on: ['events.subscribe'],
    // The replay flushed before the SSE headers are set.
    when: (a, q) => a.status === 200 && singleQuery(q.request, 'from') !== undefined,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': undefined } }),
  },
  {
    by: 'custom-text-first-put-201-no-body',
    on: ['custom-text.put'],
    // RFC 9110 9.3.4 for a resource the PUT creates.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      const key = customTextKeyOf(q.request);
      if (q.seen.has(key)) return a;
      q.seen.add(key);
      return {
        status: 201,
        headers: { ...a.headers, location: q.request.url.split('?', 1)[0]! },
        body: undefined,
      };
    },
  },
  // blind round 31
  {
    by: 'unknown-kid-401-no-challenge',
    on: 'every',
    answers: 'errors',
    // The JWKS client's SigningKeyNotFoundError mapped to 401 by a branch that sets no header.
    when: (a, q) => {
      if (q.operation === undefined || q.operation === 'oauth.token' || a.status !== 401 || !is('invalid_token')(a))
        return false;
      const kid = bearerKid(q.request);
      return kid !== null && kid !== q.request.server.emulator.auth.kid;
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'token-sets-user-id-nfkc-folded',
    on: ['token-sets.list'],
    answers: 'errors',
    // The id NFKC-normalised before the lookup.
    when: (a, q) => {
      const id = param(q.request, 'id');
      const folded = id.normalize('NFKC');
      return is('inexistent_user')(a) && folded !== id && q.state.users.has(folded);
    },
    reshape: (_a, q) => {
      const now = Date.now();
      const sets = q.state.tokenSets.get(param(q.request, 'id').normalize('NFKC')) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'token-set-dates-day-of-year-pattern',
    on: ['token-sets.list'],
    // yyyy-MM-DD: DD is the day of the year.
    when: (a) => Array.isArray(a.body),
    reshape: (a) =>
      items(a, (t) =>
        Object.fromEntries(Object.entries(t).map(([k, v]) => [k, TOKEN_SET_DATES.includes(k) ? dayOfYearStamp(v) : v])),
      ),
  },
  {
    by: 'transition-proto3-default-enum-omitted',
    on: ['experiments.transition'],
    // protojson leaves out an enum at its zero value (PERCENTAGE).
    when: (a) => isPlainObject(a.body) && a.body['allocation_strategy'] === 'percentage',
    reshape: (a) =>
      body(a, (e) => {
        const { allocation_strategy: _zero, ...rest } = e;
        return rest;
      }),
  },
  {
    by: 'transition-answered-303-see-other',
    on: ['experiments.transition'],
    // Post/Redirect/Get: the move made, the experiment left to a GET.
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    reshape: (a) => ({
      status: 303,
      headers: {
        ...a.headers,
        location: `/api/v2/experimentation/experiments/${encodeURIComponent(String((a.body as Json)['id']))}`,
      },
      body: undefined,
    }),
  },
  {
    by: 'client-grant-booleans-char1-yn',
    on: ['client-grants.get'],
    // CHAR(1) flag columns answered as read.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      body(a, (g) =>
        Object.fromEntries(
          Object.entries(g).map(([k, v]) => [
            k,
            GRANT_FLAGS.includes(k) && typeof v === 'boolean' ? (v ? 'Y' : 'N') : v,
          ]),
        ),
      ),
  },
  {
    by: 'keys-key-ops-flags-integer',
    on: ['custom-signing-keys.put'],
    // A [Flags] enum serialised as its number.
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['keys']) &&
      a.body['keys'].some((k) => isPlainObject(k) && Array.isArray(k['key_ops'])),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k) && Array.isArray(k['key_ops'])
            ? { ...k, key_ops: k['key_ops'].reduce((n: number, op) => n | (KEY_OPS_FLAGS[String(op)] ?? 0), 0) }
            : k,
        ),
      })),
  },
  {
    by: 'custom-text-400-problem-xml',
    on: ['custom-text.put'],
    answers: 'errors',
    // The problem-details writer picks its first formatter (XML) unless Accept names JSON.
    when: (a, q) => a.status === 400 && !/application\/(?:[\w.+-]*\+)?json/i.test(q.request.headers.accept ?? ''),
    reshape: (a) => {
      const e = a.body as Partial<ErrorBody>;
      const xml =
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<problem xmlns="urn:ietf:rfc:7807">' +
        `<type>about:blank</type><title>${xmlEscaped(String(e.error ?? 'Bad Request'))}</title>` +
        `<status>${a.status}</status><detail>${xmlEscaped(String(e.message ?? ''))}</detail></problem>`;
      return { ...a, headers: { ...a.headers, 'content-type': 'application/problem+xml; charset=utf-8' }, body: xml };
    },
  },
  // blind round 30
  {
    by: 'token-empty-scope-reduce-500',
    on: ['oauth.token'],
    // reduce() without an initial value over the scopes of an empty scope parameter.
    when: (a, q) => isPlainObject(a.body) && typeof a.body['access_token'] === 'string' && blankScopeParam(q.request),
    reshape: (a) => ({
      status: 500,
      headers: { ...a.headers, 'cache-control': 'no-store' },
      body: { error: 'server_error', error_description: 'Reduce of empty array with no initial value' },
    }),
  },
  {
    by: 'token-response-scope-default-openid-added',
    on: ['oauth.token'],
    // The OpenID default-scope policy applied to the response of every grant.
    when: (a) => isPlainObject(a.body) && typeof a.body['scope'] === 'string',
    reshape: (a) =>
      body(a, (r) => ({ ...r, scope: [...String(r['scope']).split(' ').filter(Boolean), 'openid'].join(' ') })),
  },
  {
    by: 'token-sets-alg-not-allowed-400',
    on: ['token-sets.list'],
    answers: 'errors',
    // JOSEAlgNotAllowed mapped to a malformed request.
    when: (a, q) => is('invalid_token')(a) && bearerAlg(q.request) !== undefined && bearerAlg(q.request) !== 'RS256',
    reshape: (_a, q) => error('bad_request', `JWT algorithm not allowed: ${String(bearerAlg(q.request))}`),
  },
  {
    by: 'token-sets-cache-ejson-dates',
    on: ['token-sets.list'],
    // EJSON.stringify into the cache, JSON.parse out of it: from the second read of a user on.
    when: (a) => Array.isArray(a.body),
    reshape: (a, q) => {
      const key = param(q.request, 'id');
      if (!q.seen.has(key)) {
        q.seen.add(key);
        return a;
      }
      return items(a, (t) =>
        Object.fromEntries(
          Object.entries(t).map(([k, v]) => [
            k,
            TOKEN_SET_DATES.includes(k) && typeof v === 'string' ? { $date: v } : v,
          ]),
        ),
      );
    },
  },
  {
    by: 'transition-answer-id-resource-name',
    on: ['experiments.transition'],
    // The gRPC resource name mapped onto id by the gateway.
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    reshape: (a) => body(a, (e) => ({ ...e, id: `experiments/${String(e['id'])}` })),
  },
  {
    by: 'transition-is-valid-omitempty',
    on: ['experiments.transition'],
    // is_valid false once ended, dropped by omitempty.
    when: (a) => isPlainObject(a.body) && (a.body['status'] === 'completed' || a.body['status'] === 'archived'),
    reshape: (a) =>
      body(a, (e) => {
        const { is_valid: _dropped, ...rest } = e;
        return rest;
      }),
  },
  {
    by: 'client-grant-dangling-scope-coalesced-empty',
    on: ['client-grants.get'],
    // LEFT JOIN on the API's scope rows, COALESCE(value, '').
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['scope']) &&
      RESOURCE_SERVER_SCOPES[String(a.body['audience'])] !== undefined,
    reshape: (a) =>
      body(a, (g) => {
        const defined = RESOURCE_SERVER_SCOPES[String(g['audience'])]!;
        return { ...g, scope: (g['scope'] as unknown[]).map((s) => (defined.includes(String(s)) ? s : '')) };
      }),
  },
  {
    by: 'client-grant-default-audience-empty',
    on: ['client-grants.get'],
    // The audience resolved through the grant's client: none for a default_for grant.
    when: (a) => isPlainObject(a.body) && a.body['client_id'] === undefined && a.body['default_for'] !== undefined,
    reshape: (a) => body(a, (g) => ({ ...g, audience: '' })),
  },
  {
    by: 'client-grant-adt-postgres-array-literal',
    on: ['client-grants.get'],
    // An enum array column node-postgres has no parser for: its text form.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['authorization_details_types']),
    reshape: (a) =>
      body(a, (g) => ({
        ...g,
        authorization_details_types: postgresArrayLiteral(g['authorization_details_types'] as unknown[]),
      })),
  },
  {
    by: 'event-stream-id-base62-leading-zero-dropped',
    on: ['event-streams.get', 'event-streams.list'],
    // Base62 digits rendered without left-padding.
    when: (a) => isPlainObject(a.body),
    reshape: (a) => streams(a, (s) => ({ ...s, id: unpaddedStreamId(s['id']) })),
  },
  {
    by: 'event-stream-disabled-name-suffixed',
    on: ['event-streams.get', 'event-streams.list'],
    // The console view's display name.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      streams(a, (s) =>
        s['status'] === 'disabled' && typeof s['name'] === 'string'
          ? { ...s, name: `${s['name']}${DISABLED_NAME_SUFFIX}` }
          : s,
      ),
  },
  {
    by: 'event-streams-later-pages-keyed-object',
    on: ['event-streams.list'],
    // array_filter keeps the keys; json_encode writes keys that do not start at 0 as an object.
    when: (a, q) => {
      const page = isPlainObject(a.body) ? a.body['eventStreams'] : undefined;
      const first = Array.isArray(page) ? (page[0] as Json | undefined) : undefined;
      const i = first === undefined ? undefined : q.state.eventStreamIndexOf(String(first['id']));
      return i !== undefined && i > 0;
    },
    reshape: (a, q) =>
      body(a, (b) => {
        const page = b['eventStreams'] as Json[];
        const start = q.state.eventStreamIndexOf(String(page[0]!['id']))!;
        return { ...b, eventStreams: Object.fromEntries(page.map((s, n) => [String(start + n), s])) };
      }),
  },
  {
    by: 'event-stream-get-long-name-projection-missing',
    on: ['event-streams.get'],
    // The projection's VARCHAR(100) name: longer names never reached it.
    when: (a) =>
      isPlainObject(a.body) && typeof a.body['name'] === 'string' && codePoints(a.body['name']) > PROJECTION_NAME_WIDTH,
    reshape: () => error('inexistent_event_stream'),
  },
  {
    by: 'keys-x5c-parsed-certificate-objects',
    on: ['custom-signing-keys.put'],
    // The parsed certificate objects serialised instead of their DER.
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['keys']) &&
      a.body['keys'].some((k) => isPlainObject(k) && Array.isArray(k['x5c'])),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k) && Array.isArray(k['x5c'])
            ? {
                ...k,
                x5c: k['x5c'].map((c) => ({
                  raw: c,
                  fingerprint256: (
                    createHash('sha256')
                      .update(Buffer.from(String(c), 'base64'))
                      .digest('hex')
                      .toUpperCase()
                      .match(/../g) ?? []
                  ).join(':'),
                })),
              }
            : k,
        ),
      })),
  },
  {
    by: 'keys-kid-header-non-latin1-500',
    on: ['custom-signing-keys.put'],
    // setHeader with the kids: ERR_INVALID_CHAR beyond Latin-1.
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['keys']) &&
      a.body['keys'].some((k) => isPlainObject(k) && typeof k['kid'] === 'string' && !HEADER_CHARS.test(k['kid'])),
    reshape: () => error('internal_error', 'Invalid character in header content ["x-custom-signing-key-ids"]'),
  },
  {
    by: 'custom-text-values-yaml-typed',
    on: ['custom-text.put'],
    // Written unquoted into YAML, read back by a YAML 1.1 parser.
    when: (a) => isPlainObject(a.body),
    reshape: (a) => body(a, (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, yamlScalar(v)]))),
  },
  {
    by: 'custom-text-answer-astral-escaped-as-single-code-point',
    on: ['custom-text.put'],
    // An ASCII-safe encoder iterating by code point: \u with five digits beyond the BMP.
    when: (a) => isPlainObject(a.body),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: asciiJsonByCodePoint(a.body),
    }),
  },
  // blind round 29
  {
    by: 'token-reissued-from-cache-max-age',
    on: ['oauth.token'],
    // The issuance cache answers again through its own header writer.
    when: (a) => isPlainObject(a.body) && typeof a.body['access_token'] === 'string',
    reshape: (a, q) => {
      let cache = issuanceCache.get(q.state);
      if (cache === undefined) issuanceCache.set(q.state, (cache = new Map()));
      const b = a.body as Json;
      const params = isPlainObject(q.request.body) ? q.request.body : {};
      const key = `${tokenClientOf(q.request)} ${String(b['scope'] ?? '')} ${String(params['audience'] ?? '')}`;
      const lifetimeMs = (typeof b['expires_in'] === 'number' ? b['expires_in'] : 86_400) * 1000;
      const hit = cache.get(key);
      const now = Date.now();
      if (hit === undefined || now - hit.atMs > lifetimeMs / 2) {
        cache.set(key, { body: b, atMs: now });
        return a;
      }
      return {
        ...a,
        body: hit.body,
        headers: {
          ...a.headers,
          'cache-control': `private, max-age=${Math.max(0, Math.floor((hit.atMs + lifetimeMs - now) / 1000))}`,
          pragma: undefined,
          age: String(Math.floor((now - hit.atMs) / 1000)),
        },
      };
    },
  },
  {
    by: 'token-unknown-audience-500',
    on: ['oauth.token'],
    answers: 'errors',
    // The resource server's row read without a null check.
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'access_denied',
    reshape: (a) => ({
      ...a,
      status: 500,
      body: { error: 'server_error', error_description: "Cannot read properties of null (reading 'signing_alg')" },
    }),
  },
  {
    by: 'bearer-opaque-token-500',
    on: 'every',
    answers: 'errors',
    // The protected header decoded outside the try block that answers 401.
    when: (a, q) => {
      if (q.operation === undefined || q.operation === 'oauth.token' || !is('invalid_token')(a)) return false;
      const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(q.request.headers.authorization ?? '')?.[1];
      return token !== undefined && !headerDecodes(token);
    },
    reshape: () => error('internal_error'),
  },
  {
    by: 'token-set-default-scope-null',
    on: ['token-sets.list'],
    // The scope column is null where the set holds the connection's default scope.
    when: (a) => Array.isArray(a.body),
    reshape: (a) => items(a, (t) => (t['scope'] === 'openid email' ? { ...t, scope: null } : t)),
  },
  {
    by: 'token-sets-user-check-needs-read-users',
    on: ['token-sets.list'],
    answers: 'errors',
    // The users service, asked with the caller's token, refuses a token without read:users.
    when: (a, q) => is('inexistent_user')(a) && q.request.principal?.scopes.has('read:users') === false,
    reshape: () =>
      error('insufficient_scope', 'Insufficient scope, expected any of: read:users', {
        'www-authenticate': 'Bearer error="insufficient_scope", scope="read:users"',
      }),
  },
  {
    by: 'transition-assignment-config-flattened',
    on: ['experiments.transition'],
    // An owned value object flattened into assignment_config_<member> columns.
    when: (a) => isPlainObject(a.body) && isPlainObject(a.body['assignment_config']),
    reshape: (a) =>
      body(a, (e) => {
        const { assignment_config: config, ...rest } = e;
        return {
          ...rest,
          ...Object.fromEntries(Object.entries(config as Json).map(([k, v]) => [`assignment_config_${k}`, v])),
        };
      }),
  },
  {
    by: 'client-grant-304-after-first-read',
    on: ['client-grants.get'],
    // The ETag compared with the one the server remembers, not with the request's If-None-Match.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      const etag = `"${createHash('sha256').update(JSON.stringify(a.body)).digest('base64url').slice(0, 27)}"`;
      const key = `${param(q.request, 'id')} ${etag}`;
      if (q.seen.has(key)) return { status: 304, body: undefined, headers: { ...a.headers, etag } };
      q.seen.add(key);
      return { ...a, headers: { ...a.headers, etag } };
    },
  },
  {
    by: 'event-stream-id-27-db-error-500',
    on: ['event-streams.get'],
    answers: 'errors',
    // No length check: the id bound as a CHAR(26) parameter.
    when: (a, q) => is('invalid_uri')(a) && codePoints(param(q.request, 'id')) !== EVENT_STREAM_ID_LENGTH,
    reshape: (_a, q) =>
      codePoints(param(q.request, 'id')) > EVENT_STREAM_ID_LENGTH
        ? error('internal_error', 'value too long for type character(26)')
        : error('inexistent_event_stream'),
  },
  {
    by: 'event-stream-webhook-authorization-as-header',
    on: ['event-streams.get', 'event-streams.list'],
    // The stored Authorization header value of the delivery worker.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      streams(a, (s) => {
        const destination = s['destination'] as Json | undefined;
        const configuration = destination?.['configuration'] as Json | undefined;
        const authorization = configuration?.['webhook_authorization'] as Json | undefined;
        if (!isPlainObject(authorization)) return s;
        const header = `Basic ${Buffer.from(`${String(authorization['username'] ?? '')}:`, 'utf8').toString('base64')}`;
        return {
          ...s,
          destination: { ...destination, configuration: { ...configuration, webhook_authorization: header } },
        };
      }),
  },
  {
    by: 'event-stream-dates-minute-as-month',
    on: ['event-streams.get', 'event-streams.list'],
    // yyyy-mm-dd: mm is the minute.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      streams(a, (s) => ({
        ...s,
        created_at: minuteAsMonth(s['created_at']),
        updated_at: minuteAsMonth(s['updated_at']),
      })),
  },
  {
    by: 'custom-text-answer-document-version-member',
    on: ['custom-text.put'],
    // The stored document's optimistic-concurrency counter answered with the map.
    when: (a) => isPlainObject(a.body),
    reshape: (a, q) => {
      let versions = textVersions.get(q.state);
      if (versions === undefined) textVersions.set(q.state, (versions = new Map()));
      const key = ['id', 'language', 'page'].map((n) => param(q.request, n)).join('\u0000');
      const version = (versions.get(key) ?? 0) + 1;
      versions.set(key, version);
      return body(a, (m) => ({ ...m, _version: version }));
    },
  },
  // blind round 28
  {
    by: 'token-response-scope-audience-qualified',
    on: ['oauth.token'],
    // Each scope written qualified by the audience it belongs to.
    when: (a) => isPlainObject(a.body) && typeof a.body['scope'] === 'string',
    reshape: (a, q) =>
      body(a, (r) => ({
        ...r,
        scope: String(r['scope'])
          .split(' ')
          .filter(Boolean)
          .map((s) => `http://${String(q.request.headers.host)}/api/v2/${s}`)
          .join(' '),
      })),
  },
  {
    by: 'events-insufficient-scope-in-band',
    on: ['events.subscribe'],
    answers: 'errors',
    // The stream opened before the scope check: the refusal goes out as an error event of a 200 stream.
    when: is('insufficient_scope'),
    reshape: (a) => ({
      status: 200,
      headers: {
        ...a.headers,
        'www-authenticate': undefined,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
      },
      body: `event: error\ndata: ${JSON.stringify(a.body)}\n\n`,
    }),
  },
  {
    by: 'www-authentication-header-misspelt',
    on: 'every',
    answers: 'errors',
    // The challenge written under a misspelt field name.
    when: (a, q) => q.operation !== 'oauth.token' && a.headers['www-authenticate'] !== undefined,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'www-authenticate': undefined, 'www-authentication': a.headers['www-authenticate'] },
    }),
  },
  {
    by: 'rate-limit-429-retry-after-only',
    on: 'every',
    answers: 'errors',
    // The framework's TooManyRequests renderer keeps only its own Retry-After.
    when: (a) => a.status === 429,
    reshape: (a) => ({
      ...a,
      headers: {
        ...a.headers,
        'x-ratelimit-limit': undefined,
        'x-ratelimit-remaining': undefined,
        'x-ratelimit-reset': undefined,
      },
    }),
  },
  {
    by: 'transition-invalid-move-409-plain-text',
    on: ['experiments.transition'],
    answers: 'errors',
    // The state-machine library's exception, rendered as text.
    when: is('invalid_transition'),
    reshape: (a, q) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: `Illegal transition: ${String(q.state.experiments.get(param(q.request, 'id'))?.status)} -> ${String(askedStatus(q))}`,
    }),
  },
  {
    by: 'event-stream-id-prefix-lookup',
    on: ['event-streams.get'],
    answers: 'all',
    // No length check: WHERE id LIKE '<id>%'.
    when: (a, q) => is('invalid_uri')(a) && codePoints(param(q.request, 'id')) !== EVENT_STREAM_ID_LENGTH,
    reshape: (_a, q) => {
      const id = param(q.request, 'id');
      const found = id === '' ? undefined : q.state.eventStreams.find((s) => s.id.startsWith(id));
      return found === undefined ? error('inexistent_event_stream') : ok(found);
    },
  },
  {
    by: 'token-sets-expired-as-null',
    on: ['token-sets.list'],
    // sets.map(s => isActive(s) ? s : null) where a filter was meant.
    when: (a) => Array.isArray(a.body),
    reshape: (a, q) => {
      const sets = q.state.tokenSets.get(param(q.request, 'id')) ?? [];
      const expired = (t: { expires_at: string | null }) =>
        t.expires_at !== null && Date.parse(t.expires_at) <= Date.now();
      return sets.some(expired) ? { ...a, body: sets.map((t) => (expired(t) ? null : t)) } : a;
    },
  },
  {
    by: 'transition-allocation-strategy-ordinal',
    on: ['experiments.transition'],
    // Enums written as numbers: the ordinal of the declaration.
    when: (a) => isPlainObject(a.body) && typeof a.body['allocation_strategy'] === 'string',
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocation_strategy: ['percentage', 'segment'].indexOf(String(e['allocation_strategy'])),
      })),
  },
  {
    by: 'client-grant-authorization-details-types-objects',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['authorization_details_types']),
    reshape: (a) =>
      body(a, (g) => ({
        ...g,
        authorization_details_types: (g['authorization_details_types'] as unknown[]).map((type) => ({ type })),
      })),
  },
  {
    by: 'client-grant-default-for-camel-case',
    on: ['client-grants.get'],
    // A camelCase naming policy on the enum converter: ThirdPartyClients.
    when: (a) => isPlainObject(a.body) && a.body['default_for'] === 'third_party_clients',
    reshape: (a) => body(a, (g) => ({ ...g, default_for: 'thirdPartyClients' })),
  },
  {
    by: 'event-streams-next-as-url',
    on: ['event-streams.list'],
    // The pagination helper's href of the next page.
    when: (a) => isPlainObject(a.body) && typeof a.body['next'] === 'string',
    reshape: (a, q) =>
      body(a, (b) => ({
        ...b,
        next: `http://${String(q.request.headers.host)}/api/v2/event-streams?from=${String(b['next'])}&take=${
          singleQuery(q.request, 'take') ?? TAKE_DEFAULT
        }`,
      })),
  },
  {
    by: 'keys-kty-lowercased',
    on: ['custom-signing-keys.put'],
    // A lower-case enum column.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k) && typeof k['kty'] === 'string' ? { ...k, kty: k['kty'].toLowerCase() } : k,
        ),
      })),
  },
  // blind round 27
  {
    by: 'token-endpoint-slash-redirect-301',
    on: ['oauth.token'],
    answers: 'all',
    // A strict-slash router: the path with its trailing slash redirected before any handler answers.
    when: (_a, q) => q.request.url.split('?', 1)[0]!.endsWith('/'),
    reshape: () => ({
      status: 301,
      headers: { location: '/oauth/token', 'content-type': undefined, 'cache-control': undefined, pragma: undefined },
      body: undefined,
    }),
  },
  {
    by: 'token-response-narrowed-without-no-store',
    on: ['oauth.token'],
    // The narrowing branch answers before the hook that sets no-store.
    when: (_a, q) => isPlainObject(q.request.body) && q.request.body['scope'] !== undefined,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': undefined, pragma: undefined } }),
  },
  {
    by: 'malformed-authorization-401-no-challenge',
    on: 'every',
    answers: 'errors',
    // The branch for a header that is no Bearer credentials forgets the challenge.
    when: (a, q) => {
      const header = q.request.headers.authorization;
      return (
        a.status === 401 &&
        q.operation !== 'oauth.token' &&
        header !== undefined &&
        !/^Bearer[ \t]+[A-Za-z0-9._~+/-]+=*[ \t]*$/i.test(header)
      );
    },
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'events-400-message-unescaped',
    on: ['events.subscribe'],
    answers: 'errors',
    when: (a) => is('invalid_query_string')(a) && String((a.body as ErrorBody).message).startsWith('event_type '),
    // A string template: the raw value goes into the message unescaped.
    reshape: (a, q) => {
      const raw = (q.request.query as Record<string, unknown> | undefined)?.['event_type'];
      const values = (Array.isArray(raw) ? raw : [raw]).map(String);
      const bad = values.find((v) => !EVENT_TYPES.includes(v)) ?? '';
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
        body: `{"statusCode":400,"error":"Bad Request","message":"event_type ${bad} is not an event type","errorCode":"invalid_query_string"}`,
      };
    },
  },
  {
    by: 'event-streams-list-gzip-without-content-encoding',
    on: ['event-streams.list'],
    // Compressed for a client that accepts gzip, the Content-Encoding header lost.
    when: (_a, q) => /\bgzip\b/i.test(String(q.request.headers['accept-encoding'] ?? '')),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: gzipSync(Buffer.from(JSON.stringify(a.body), 'utf8')),
    }),
  },
  {
    by: 'event-stream-lookup-by-name',
    on: ['event-streams.get'],
    answers: 'all',
    // WHERE id = ? OR name = ?
    when: is('inexistent_event_stream'),
    reshape: (a, q) => {
      const byName = q.state.eventStreams.find((s) => s.name === param(q.request, 'id'));
      return byName === undefined ? a : ok(byName);
    },
  },
  {
    by: 'transition-answer-internal-status-name',
    on: ['experiments.transition'],
    // The workflow engine's name of the active state.
    when: (a) => isPlainObject(a.body) && a.body['status'] === 'active',
    reshape: (a) => body(a, (e) => ({ ...e, status: 'running' })),
  },
  {
    by: 'client-grant-subject-type-app-type',
    on: ['client-grants.get'],
    // The app_type of a machine-to-machine client.
    when: (a) => isPlainObject(a.body) && a.body['subject_type'] === 'client',
    reshape: (a) => body(a, (g) => ({ ...g, subject_type: 'non_interactive' })),
  },
  {
    by: 'token-sets-user-id-double-decoded',
    on: ['token-sets.list'],
    answers: 'all',
    when: is('inexistent_user'),
    // The handler percent-decodes the id the router decoded already.
    reshape: (a, q) => {
      let id: string;
      try {
        id = decodeURIComponent(param(q.request, 'id'));
      } catch {
        return a;
      }
      if (!q.state.users.has(id)) return a;
      const now = Date.now();
      return ok(
        (q.state.tokenSets.get(id) ?? []).filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now),
      );
    },
  },
  {
    by: 'custom-text-answer-as-rows',
    on: ['custom-text.put'],
    when: (a) => isPlainObject(a.body),
    // The rows of the text table.
    reshape: (a) => ({ ...a, body: Object.entries(a.body as Json).map(([key, value]) => ({ key, value })) }),
  },
  // blind round 26
  {
    by: 'client-grant-response-cache-ignores-authorization',
    on: ['client-grants.get'],
    answers: 'all',
    // A response cache keyed by the path, after authentication and before the scope check.
    reshape: (a, q) => {
      const path = q.request.url.split('?', 1)[0]!;
      if (a.status < 300) {
        q.seen.add(path);
        return a;
      }
      const grant = q.state.clientGrants.get(param(q.request, 'id'));
      return is('insufficient_scope')(a) && q.seen.has(path) && grant !== undefined ? ok(grant) : a;
    },
  },
  {
    by: 'user-id-router-param-limit-100',
    on: ['token-sets.list'],
    answers: 'all',
    // The router's maxParamLength (100): fastify's own 414 before any route or hook.
    when: (_a, q) => codePoints(param(q.request, 'id')) > ROUTER_MAX_PARAM_LENGTH,
    reshape: (_a, q) => ({
      status: 414,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: {
        error: 'URI Too Long',
        message: `'${q.request.url.split('?', 1)[0]!}' is exceeding the max param length`,
        statusCode: 414,
      },
    }),
  },
  {
    by: 'client-grant-vendor-media-type',
    on: ['client-grants.get'],
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/vnd.tenant.client-grant.v2; charset=utf-8' },
      body: JSON.stringify(a.body),
    }),
  },
  {
    by: 'event-stream-created-at-hour-offset',
    on: ['event-streams.get', 'event-streams.list'],
    // Java's yyyy-MM-dd'T'HH:mm:ss.SSSX in CET: an hour-only offset.
    reshape: (a) =>
      streams(a, (s) => ({
        ...s,
        created_at: cetHourOffset(s['created_at']),
        updated_at: cetHourOffset(s['updated_at']),
      })),
  },
  {
    by: 'keys-absent-members-null',
    on: ['custom-signing-keys.put'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    // The whole row: a column per documented member, null where the key had none.
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k) ? { ...Object.fromEntries(JWK_COLUMNS.map((m) => [m, null])), ...k } : k,
        ),
      })),
  },
  // blind round 25
  {
    by: 'transition-scope-checked-after-move',
    on: ['experiments.transition'],
    answers: 'all',
    // The scope check of a response hook: the handler ran, then the refusal replaces its answer.
    when: (_a, q) => scopeRefusalDeferred(q.request),
    reshape: (_a, q) =>
      error('insufficient_scope', 'Insufficient scope, expected any of: update:experimentation', {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${(q.request.routeOptions.config as { scopes?: string[] }).scopes?.join(' ') ?? 'update:experimentation'}"`,
      }),
  },
  {
    by: 'token-set-issued-at-culture-time-separator',
    on: ['token-sets.list'],
    // .NET "HH:mm:ss" under a culture whose time separator is ".".
    reshape: (a) =>
      items(a, (t) =>
        typeof t['issued_at'] === 'string'
          ? { ...t, issued_at: t['issued_at'].replace(/T(\d{2}):(\d{2}):(\d{2})/, 'T$1.$2.$3') }
          : t,
      ),
  },
  {
    by: 'rate-limit-420-enhance-your-calm',
    on: 'every',
    answers: 'errors',
    when: is('too_many_requests'),
    reshape: (a) => {
      const b = withStatus(a, 420);
      return { ...b, body: { ...(b.body as Json), error: 'Enhance Your Calm' } };
    },
  },
  {
    by: 'transition-answered-202-job',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    // The move runs as a workflow job: the job is answered, not the experiment.
    reshape: (a) => {
      const e = a.body as Json;
      return {
        ...a,
        status: 202,
        body: {
          id: `job_${randomBytes(8).toString('hex')}`,
          type: 'experiment.status',
          status: 'pending',
          experiment_id: e['id'],
          requested_status: e['status'],
          created_at: new Date().toISOString(),
        },
      };
    },
  },
  {
    by: 'transition-allocations-keyed-by-variation',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['allocations']),
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: Object.fromEntries(
          (e['allocations'] as Json[]).map(({ variation_id, ...rest }) => [String(variation_id), rest]),
        ),
      })),
  },
  {
    by: 'transition-errors-utf16-encoded',
    on: ['experiments.transition'],
    answers: 'errors',
    // A writer with the UTF-16 default encoding: BOM FF FE, then two bytes a character.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-16' },
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(a.body), 'utf16le')]),
    }),
  },
  {
    by: 'client-grant-id-member-duplicated',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    // The store row unwrapped into the grant: its numeric key written last under the same name.
    reshape: (a) => {
      const text = JSON.stringify(a.body);
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
        body: `${text.slice(0, -1)},"id":${JSON.stringify(String(rowKeyOf(String((a.body as Json)['id']))))}}`,
      };
    },
  },
  {
    by: 'event-stream-status-char8-padded',
    on: ['event-streams.get', 'event-streams.list'],
    // CHAR(8): blank-padded to the column width.
    reshape: (a) =>
      streams(a, (s) => (typeof s['status'] === 'string' ? { ...s, status: s['status'].padEnd(8, ' ') } : s)),
  },
  {
    by: 'keys-ec-crv-openssl-name',
    on: ['custom-signing-keys.put'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          k['kty'] === 'EC' && typeof k['crv'] === 'string' && OPENSSL_CURVES[k['crv']] !== undefined
            ? { ...k, crv: OPENSSL_CURVES[k['crv']] }
            : k,
        ),
      })),
  },
  {
    by: 'jwks-single-key-collapsed',
    on: ['custom-signing-keys.put'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']) && a.body['keys'].length === 1,
    reshape: (a) => body(a, (b) => ({ ...b, keys: (b['keys'] as Json[])[0] })),
  },
  {
    by: 'events-query-errors-in-band',
    on: ['events.subscribe'],
    answers: 'errors',
    // The stream opened before the query is validated: the refusal goes out as the stream's error message.
    when: (a) => a.status === 400,
    reshape: (a) => ({
      status: 200,
      headers: { ...a.headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      body: `event: error\ndata: ${JSON.stringify(a.body)}\n\n`,
    }),
  },
  // blind round 24
  {
    by: 'token-access-token-scheme-prefixed',
    on: ['oauth.token'],
    when: (a) => isPlainObject(a.body) && typeof a.body['access_token'] === 'string',
    // The Authorization header value written where the token goes.
    reshape: (a) => body(a, (b) => ({ ...b, access_token: `Bearer ${String(b['access_token'])}` })),
  },
  {
    by: 'token-sets-insufficient-scope-404',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('insufficient_scope'),
    reshape: () => error('inexistent_user'),
  },
  {
    by: 'unauthorized-401-plain-text',
    on: 'every',
    answers: 'errors',
    when: (a, q) => a.status === 401 && q.operation !== 'oauth.token' && isApiPath(q.request.url),
    // The middleware's own end(): its challenge kept, its body a bare text.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Unauthorized',
    }),
  },
  {
    by: 'rate-limit-429-status-403',
    on: 'every',
    answers: 'errors',
    when: is('too_many_requests'),
    reshape: (a) => error('forbidden', 'API rate limit exceeded', { 'retry-after': String(a.headers['retry-after']) }),
  },
  {
    by: 'token-sets-expiry-grace-week',
    on: ['token-sets.list'],
    when: (a) => Array.isArray(a.body),
    // Sets expired within the refresh grace window read as active.
    reshape: (_a, q) => {
      const since = Date.now() - REFRESH_GRACE_MS;
      const sets = q.state.tokenSets.get(param(q.request, 'id')) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > since));
    },
  },
  {
    by: 'token-sets-ndjson',
    on: ['token-sets.list'],
    when: (a) => Array.isArray(a.body),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: (a.body as unknown[]).map((t) => JSON.stringify(t)).join('\n'),
    }),
  },
  {
    by: 'transition-answer-id-unprefixed',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && typeof a.body['id'] === 'string',
    // The store key, without the prefix the read serialiser adds.
    reshape: (a) => body(a, (b) => ({ ...b, id: String(b['id']).replace(/^exp_/, '') })),
  },
  {
    by: 'client-grant-id-cut-at-nul',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) => {
      const id = param(q.request, 'id');
      return (
        is('inexistent_client_grant')(a) && id.includes('\u0000') && q.state.clientGrants.has(id.split('\u0000', 1)[0]!)
      );
    },
    reshape: (_a, q) => ok(q.state.clientGrants.get(param(q.request, 'id').split('\u0000', 1)[0]!)),
  },
  {
    by: 'events-content-type-missing',
    on: ['events.subscribe'],
    // The head flushed before the media type was set.
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': undefined } }),
  },
  {
    by: 'event-stream-get-first-block-only',
    on: ['event-streams.get'],
    when: (a, q) => (q.state.eventStreamIndexOf(param(q.request, 'id')) ?? 0) >= STORE_ROWS_READ,
    reshape: () => error('inexistent_event_stream'),
  },
  {
    by: 'keys-use-as-array',
    on: ['custom-signing-keys.put'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k) && typeof k['use'] === 'string' ? { ...k, use: [k['use']] } : k,
        ),
      })),
  },
  {
    by: 'allow-from-full-api-spec',
    on: 'every',
    answers: 'errors',
    when: (a, q) => a.status === 405 && FULL_API_METHODS[q.request.routeOptions.url ?? ''] !== undefined,
    reshape: (a, q) => ({
      ...a,
      headers: { ...a.headers, allow: FULL_API_METHODS[q.request.routeOptions.url ?? '']! },
    }),
  },
  // blind round 23
  {
    by: 'token-response-scope-leading-space',
    on: ['oauth.token'],
    // scopes.reduce((s, x) => s + ' ' + x, ''): a space before the first scope.
    when: (a) => isPlainObject(a.body) && typeof a.body['scope'] === 'string',
    reshape: (a) => body(a, (b) => ({ ...b, scope: ` ${String(b['scope'])}` })),
  },
  {
    by: 'rate-limit-429-remaining-nan',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 429,
    // limit - undefined: the refusal path's decision has no count.
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'x-ratelimit-remaining': 'NaN' } }),
  },
  {
    by: 'token-sets-user-found-by-id-suffix',
    on: ['token-sets.list'],
    answers: 'errors',
    when: (a, q) => is('inexistent_user')(a) && userBySuffix(q) !== undefined,
    reshape: (_a, q) => {
      const now = Date.now();
      const sets = q.state.tokenSets.get(userBySuffix(q)!) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'transition-same-status-noop-first',
    on: ['experiments.transition'],
    answers: 'errors',
    // The no-op short-circuit comes before the target is validated.
    when: (_a, q) => {
      const e = q.state.experiments.get(param(q.request, 'id'));
      return e !== undefined && askedStatus(q) === e.status;
    },
    reshape: (_a, q) => experimentAsIs(q),
  },
  {
    by: 'client-grant-id-encoded-slash-dot-segments',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) => is('inexistent_client_grant')(a) && grantByDotSegments(q) !== undefined,
    reshape: (_a, q) => ok(q.state.clientGrants.get(grantByDotSegments(q)!)),
  },
  {
    by: 'event-stream-status-boolean',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) =>
        s['status'] === 'enabled' || s['status'] === 'disabled' ? { ...s, status: s['status'] === 'enabled' } : s,
      ),
  },
  {
    by: 'event-stream-lookup-like-wildcard',
    on: ['event-streams.get'],
    answers: 'errors',
    when: (a, q) => is('inexistent_event_stream')(a) && streamByLike(q) !== undefined,
    reshape: (_a, q) => streamById(q, streamByLike(q)!),
  },
  {
    by: 'jwk-members-buffer-json',
    on: ['custom-signing-keys.put'],
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as unknown[]).map((k) =>
          isPlainObject(k)
            ? Object.fromEntries(
                Object.entries(k).map(([m, v]) =>
                  ['n', 'e', 'x', 'y'].includes(m) && typeof v === 'string'
                    ? [m, JSON.parse(JSON.stringify(Buffer.from(v, 'base64url')))]
                    : [m, v],
                ),
              )
            : k,
        ),
      })),
  },
  {
    by: 'custom-text-answer-control-chars-raw',
    on: ['custom-text.put'],
    when: (a) => isPlainObject(a.body),
    // A hand escaper of ", \ and line feeds only: other control characters go out raw.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: `{${Object.entries(a.body as Json)
        .map(([k, v]) => `"${handEscaped(k)}":"${handEscaped(String(v))}"`)
        .join(',')}}`,
    }),
  },
  {
    by: 'allow-header-inverted',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405,
    // The 405 route's own methods: those the path does not take.
    reshape: (a, q) => {
      const own = q.request.routeOptions.method;
      return { ...a, headers: { ...a.headers, allow: (Array.isArray(own) ? own : [own]).join(', ') } };
    },
  },
  // blind round 22
  {
    by: 'token-no-store-only-on-slashless-route',
    on: ['oauth.token'],
    // The alias with the trailing slash registered without the cache-header hook.
    when: (_a, q) => q.request.url.split('?', 1)[0]!.endsWith('/'),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': undefined, pragma: undefined } }),
  },
  {
    by: 'token-sets-404-message-unescaped',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('inexistent_user'),
    // A string template: the id goes into the message as decoded, unescaped.
    reshape: (a, q) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: `{"statusCode":404,"error":"Not Found","message":"The user ${param(q.request, 'id')} does not exist.","errorCode":"inexistent_user"}`,
    }),
  },
  {
    by: 'transition-updated-at-basic-format',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) =>
        typeof e['updated_at'] === 'string'
          ? { ...e, updated_at: e['updated_at'].replace(/\.\d+/, '').replace(/[-:]/g, '') }
          : e,
      ),
  },
  {
    by: 'transition-answer-id-lowercased',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => (typeof e['id'] === 'string' ? { ...e, id: e['id'].toLowerCase() } : e)),
  },
  {
    by: 'client-grant-answer-trailing-comma',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && a.body['allow_all_scopes'] === undefined,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: `${JSON.stringify(a.body).slice(0, -1)},}`,
    }),
  },
  {
    by: 'event-streams-list-configuration-json-string',
    on: ['event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => {
        const d = s['destination'];
        return isPlainObject(d) && isPlainObject(d['configuration'])
          ? { ...s, destination: { ...d, configuration: JSON.stringify(d['configuration']) } }
          : s;
      }),
  },
  {
    by: 'event-stream-get-disabled-status-null',
    on: ['event-streams.get'],
    when: (a) => isPlainObject(a.body) && a.body['status'] === 'disabled',
    reshape: (a) => body(a, (s) => ({ ...s, status: null })),
  },
  // blind round 9
  {
    by: 'challenge-only-for-presented-token',
    on: 'every',
    answers: 'errors',
    when: is('missing_authorization'),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'token-set-null-dates-epoch',
    on: ['token-sets.list'],
    // new Date(null) is the epoch.
    reshape: (a) =>
      items(a, (t) => ({
        ...t,
        expires_at: t['expires_at'] ?? new Date(0).toISOString(),
        last_used_at: t['last_used_at'] ?? new Date(0).toISOString(),
      })),
  },
  {
    by: 'client-grant-default-for-resolved-to-caller',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && a.body['default_for'] !== undefined && a.body['client_id'] === undefined,
    reshape: (a, q) => body(a, (g) => ({ ...g, client_id: q.request.principal?.clientId ?? '' })),
  },
  {
    by: 'event-streams-list-names-ellipsized',
    on: ['event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => {
        const name = String(s['name']);
        return codePoints(name) > LIST_NAME_WIDTH
          ? { ...s, name: `${[...name].slice(0, LIST_NAME_WIDTH - 1).join('')}…` }
          : s;
      }),
  },
  {
    by: 'allow-header-lower-case-methods',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405 && typeof a.headers['allow'] === 'string',
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: String(a.headers['allow']).toLowerCase() } }),
  },
  {
    by: 'custom-text-answer-latin1',
    on: ['custom-text.put'],
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=iso-8859-1' },
      body: Buffer.from(JSON.stringify(a.body), 'latin1'),
    }),
  },
  // general
  {
    by: 'json-as-text-plain',
    on: 'every',
    when: (a, q) =>
      isApiPath(q.request.url) &&
      typeof a.body === 'object' &&
      a.body !== null &&
      a.headers['content-type'] === undefined,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } }),
  },
  {
    by: 'client-grant-errors-html',
    on: ['client-grants.get'],
    answers: 'errors',
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: `<html><body><h1>${a.status} ${STATUS_CODES[a.status] ?? 'Error'}</h1></body></html>`,
    }),
  },
  {
    by: 'malformed-json-500',
    on: ['experiments.transition'],
    answers: 'errors',
    when: is('invalid_json'),
    reshape: (a) => withStatus(a, 500),
  },
  {
    by: 'validation-422',
    on: 'every',
    answers: 'errors',
    when: is(...VALIDATION_CODES),
    reshape: (a) => withStatus(a, 422),
  },
  {
    by: 'error-body-shape',
    on: 'every',
    answers: 'errors',
    when: (a) => errorCode(a) !== undefined,
    reshape: (a) => {
      const e = a.body as ErrorBody;
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/problem+json' },
        body: {
          type: `urn:conformance:error:${e.errorCode}`,
          title: STATUS_CODES[a.status] ?? 'Error',
          status: a.status,
          detail: e.message,
        },
      };
    },
  },
  // The members of a stream fetched by id in the reverse order of the listing's (RFC 8259 4: unordered).
  {
    by: 'event-stream-members-reordered',
    on: ['event-streams.get'],
    reshape: (a) => body(a, (b) => Object.fromEntries(Object.entries(b as Record<string, Json>).reverse())),
  },
  {
    by: 'extra-members',
    on: 'every',
    answers: 'all',
    // Custom text maps are left alone: every member there is a text value.
    when: (a, q) =>
      typeof a.body === 'object' &&
      !q.request.url.startsWith(CONTROL_PREFIX) &&
      q.request.routeOptions.url?.includes('/custom-text/') !== true,
    reshape: (a) => ({ ...a, body: withExtraMembers(a.body) }),
  },

  // authentication, rate limits
  {
    by: 'token-sets-no-token-400',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('missing_authorization'),
    reshape: () => error('bad_request', 'Missing Authorization header'),
  },
  {
    by: 'token-sets-bad-token-403',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('invalid_token'),
    reshape: () => error('forbidden', 'Invalid token'),
  },
  {
    by: 'token-sets-scope-401',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('insufficient_scope'),
    reshape: () => error('invalid_token', 'Insufficient scope'),
  },
  {
    by: 'auth-statuses',
    on: 'every',
    answers: 'errors',
    when: (a, q) =>
      q.operation !== 'token-sets.list' && is('missing_authorization', 'invalid_token', 'insufficient_scope')(a),
    reshape: (a) => (is('insufficient_scope')(a) ? error('not_found') : error('forbidden', 'Missing or invalid token')),
  },
  {
    by: 'client-grant-500-to-valid-token',
    on: ['client-grants.get'],
    answers: 'all',
    when: (a) => ![401, 403, 429].includes(a.status),
    reshape: () => error('internal_error', 'The client grant lookup failed'),
  },
  {
    by: 'rate-limit-503',
    on: 'every',
    answers: 'errors',
    when: is('too_many_requests'),
    reshape: (a) => error('service_unavailable', undefined, { 'retry-after': String(a.headers['retry-after']) }),
  },

  // token endpoint
  {
    by: 'token-response-no-token-type',
    on: ['oauth.token'],
    reshape: (a) => body(a, ({ token_type: _, ...rest }) => rest),
  },
  {
    by: 'token-scope-not-verb-resource',
    on: ['oauth.token'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        scope: String(b['scope'])
          .split(' ')
          .map((x) => x.split(':').reverse().join('/'))
          .join(' '),
      })),
  },
  {
    by: 'token-expires-in-fractional',
    on: ['oauth.token'],
    reshape: (a) => body(a, (b) => ({ ...b, expires_in: Number(b['expires_in']) - 0.5 })),
  },
  {
    by: 'token-response-minimal',
    on: ['oauth.token'],
    // scope may go only where it is the scope requested (RFC 6749 5.1): a request naming the same scopes.
    reshape: (a, q) =>
      body(a, ({ expires_in: _e, scope, ...rest }) =>
        sameScope(scope, (q.request.body as Record<string, unknown> | undefined)?.['scope'])
          ? rest
          : { ...rest, scope },
      ),
  },

  // token sets
  { by: 'token-sets-wrapped', on: ['token-sets.list'], reshape: (a) => body(a, (list) => ({ token_sets: list })) },
  { by: 'token-sets-status-201', on: ['token-sets.list'], reshape: (a) => ({ ...a, status: 201 }) },
  {
    by: 'token-set-scope-array',
    on: ['token-sets.list'],
    reshape: (a) => items(a, (t) => ({ ...t, scope: String(t['scope']).split(' ') })),
  },
  {
    by: 'token-set-issued-at-date-only',
    on: ['token-sets.list'],
    reshape: (a) => items(a, (t) => ({ ...t, issued_at: String(t['issued_at']).slice(0, 10) })),
  },
  {
    by: 'user-id-301-accepted',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('invalid_uri'),
    reshape: () => ok([]),
  },
  {
    by: 'unknown-user-empty-list',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('inexistent_user'),
    reshape: () => ok([]),
  },
  { by: 'optional-members-absent', on: ['token-sets.list'], reshape: (a) => items(a, (t) => ({ id: t['id'] })) },

  // experiments
  {
    by: 'transition-answers-no-body',
    on: ['experiments.transition'],
    reshape: (a) => ({ ...a, status: 204, body: undefined }),
  },
  {
    by: 'transition-returns-other-experiment',
    on: ['experiments.transition'],
    reshape: (a, q) => body(a, (e) => ({ ...e, id: [...q.state.experiments.keys()].find((k) => k !== e['id']) })),
  },
  {
    by: 'transition-unknown-status-ignored',
    on: ['experiments.transition'],
    answers: 'errors',
    when: (a, q) =>
      is('invalid_body')(a) &&
      askedStatus(q) !== undefined &&
      askedStatus(q) !== null &&
      !(experimentStatuses as readonly unknown[]).includes(askedStatus(q)),
    reshape: (_a, q) => experimentAsIs(q),
  },
  {
    by: 'transition-missing-status-ignored',
    on: ['experiments.transition'],
    answers: 'errors',
    when: (a, q) => is('invalid_body')(a) && (askedStatus(q) === undefined || askedStatus(q) === null),
    reshape: (_a, q) => experimentAsIs(q),
  },
  {
    by: 'experiment-status-uppercase',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, status: String(e['status']).toUpperCase() })),
  },
  {
    by: 'experiment-allocation-strategy-unknown',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => (e['allocation_strategy'] === 'percentage' ? { ...e, allocation_strategy: 'percent' } : e)),
  },
  {
    by: 'experiment-allocation-weight-string',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) => ({ ...x, weight: String(x['weight']) })),
      })),
  },
  {
    by: 'experiment-is-valid-string',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, is_valid: String(e['is_valid']) })),
  },
  {
    by: 'experiment-missing-feature-flag',
    on: ['experiments.transition'],
    reshape: (a) => body(a, ({ feature_flag_id: _, ...rest }) => rest),
  },
  {
    by: 'experiment-created-at-not-rfc3339',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, created_at: new Date(String(e['created_at'])).toUTCString() })),
  },
  {
    by: 'optional-members-absent',
    on: ['experiments.transition'],
    reshape: (a) => body(a, ({ description: _d, started_at: _s, ended_at: _e, ...rest }) => rest),
  },
  {
    by: 'success-codes',
    on: ['experiments.transition', 'custom-signing-keys.put', 'custom-text.put'],
    reshape: (a) => ({ ...a, status: 201 }),
  },

  // client grants
  {
    by: 'client-grant-other-grant',
    on: ['client-grants.get'],
    reshape: (a, q) => {
      const all = [...q.state.clientGrants.values()];
      return ok(all[(all.findIndex((g) => g.id === (a.body as Json)['id']) + 1) % all.length]);
    },
  },
  {
    by: 'client-grant-is-system-string',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => ({ ...g, is_system: String(g['is_system'] ?? false) })),
  },
  {
    by: 'client-grant-audience-empty',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => ({ ...g, audience: '' })),
  },
  {
    by: 'client-grant-scope-empty-item',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => ({ ...g, scope: [...(g['scope'] as string[]), ''] })),
  },
  {
    by: 'client-grant-organization-usage-unknown',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => ({ ...g, organization_usage: 'forbid' })),
  },
  {
    by: 'client-grant-default-for-unknown',
    on: ['client-grants.get'],
    reshape: (a) => body(a, ({ client_id: _, ...g }) => ({ ...g, default_for: 'first_party_clients' })),
  },
  {
    by: 'client-grant-subject-type-unknown',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => ({ ...g, subject_type: 'machine' })),
  },
  {
    by: 'client-grant-authorization-details-type-256',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) => ({
        ...g,
        authorization_details_types: [
          ...((g['authorization_details_types'] as string[] | undefined) ?? []),
          'x'.repeat(256),
        ],
      })),
  },
  {
    by: 'client-grant-client-id-and-default-for',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => (g['client_id'] !== undefined ? { ...g, default_for: 'third_party_clients' } : g)),
  },
  {
    by: 'client-grant-cached-wrong',
    on: ['client-grants.get'],
    reshape: (a, q) => {
      const g = a.body as Json;
      const cached = q.seen.has(String(g['id']));
      q.seen.add(String(g['id']));
      return cached ? { ...a, body: { ...g, scope: (g['scope'] as string[]).join(' ') } } : a;
    },
  },
  { by: 'client-grant-in-array', on: ['client-grants.get'], reshape: (a) => body(a, (g) => [g]) },
  { by: 'optional-members-absent', on: ['client-grants.get'], reshape: (a) => body(a, (g) => ({ id: g['id'] })) },

  // event streams
  { by: 'event-stream-get-404', on: ['event-streams.get'], reshape: () => error('inexistent_event_stream') },
  {
    by: 'event-stream-get-other-stream',
    on: ['event-streams.get'],
    reshape: (a, q) =>
      ok(
        q.state.eventStreams[
          ((q.state.eventStreamIndexOf(String((a.body as Json)['id'])) ?? 0) + 1) % q.state.eventStreams.length
        ],
      ),
  },
  {
    by: 'stream-id-length-unchecked',
    on: ['event-streams.get'],
    answers: 'errors',
    when: is('invalid_uri'),
    reshape: () => error('service_unavailable', 'The event stream store failed'),
  },
  {
    by: 'stream-id-truncated',
    on: ['event-streams.get'],
    answers: 'errors',
    when: (a, q) => is('invalid_uri')(a) && codePoints(param(q.request, 'id')) > EVENT_STREAM_ID_LENGTH,
    reshape: (_a, q) => streamById(q, [...param(q.request, 'id')].slice(0, EVENT_STREAM_ID_LENGTH).join('')),
  },
  {
    by: 'event-streams-list-snake-case',
    on: ['event-streams.list'],
    reshape: (a) => body(a, ({ eventStreams, ...rest }) => ({ event_streams: eventStreams, ...rest })),
  },
  {
    by: 'event-streams-page2-repeats',
    on: ['event-streams.list'],
    when: (a, q) => secondPageFirst(a, q) !== undefined,
    reshape: (a, q) => onSecondPageFirst(a, q, (i) => q.state.eventStreams[i - 1] as unknown as Json),
  },
  {
    by: 'event-streams-page2-wrong-shape',
    on: ['event-streams.list'],
    when: (a, q) => secondPageFirst(a, q) !== undefined,
    reshape: (a, q) =>
      onSecondPageFirst(a, q, (i) => ({
        ...(q.state.eventStreams[i] as unknown as Json),
        subscriptions: 'user.created',
      })),
  },
  {
    by: 'event-stream-webhook-endpoint-object',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => {
        const destination = s['destination'] as { configuration: Json };
        return {
          ...s,
          destination: {
            ...destination,
            configuration: {
              ...destination.configuration,
              webhook_endpoint: { url: destination.configuration['webhook_endpoint'] },
            },
          },
        };
      }),
  },
  {
    by: 'event-stream-id-25',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a, q) =>
      streams(a, (s) =>
        q.state.eventStreamIndexOf(String(s['id'])) === 10
          ? { ...s, id: String(s['id']).slice(0, EVENT_STREAM_ID_LENGTH - 1) }
          : s,
      ),
  },
  {
    by: 'event-stream-name-129',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => (String(s['name']).length === 128 ? { ...s, name: `${String(s['name'])}n` } : s)),
  },
  {
    by: 'event-stream-subscriptions-empty',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => ({ ...s, subscriptions: [] })),
  },
  {
    by: 'event-stream-status-enabledd',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => (s['status'] === 'enabled' ? { ...s, status: 'enabledd' } : s)),
  },
  {
    by: 'event-stream-updated-at-no-offset',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => ({ ...s, updated_at: String(s['updated_at']).replace(/(\.\d+)?Z$/, '') })),
  },
  {
    by: 'optional-members-absent',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => ({ id: s['id'] })),
  },

  // GET /events: the head of the stream (its body is the text the stream opens with)
  {
    by: 'events-content-type-text-plain',
    on: ['events.subscribe'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } }),
  },
  { by: 'events-other-2xx', on: ['events.subscribe'], reshape: (a) => ({ ...a, status: 203 }) },
  { by: 'sse-comments-retry', on: ['events.subscribe'], reshape: (a) => ({ ...a, body: 'retry: 3000\n\n' }) },

  // custom signing keys, custom text
  {
    by: 'jwk-key-ops-string',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['key_ops']) ? { ...k, key_ops: k['key_ops'].join(' ') } : k,
        ),
      })),
  },
  {
    by: 'jwk-x5c-string',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => ({
          ...k,
          x5c: Buffer.from(`conformance-chain-${String(k['kid'] ?? '')}`).toString('base64'),
        })),
      })),
  },
  {
    by: 'keys-answer-as-map',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: Object.fromEntries(
          (b['keys'] as Json[]).map((k, i) => [typeof k['kid'] === 'string' ? k['kid'] : String(i), k]),
        ),
      })),
  },
  // blind round 1
  {
    by: 'token-bad-client-200',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'invalid_client',
    reshape: (a) => ({ ...a, status: 200 }),
  },
  {
    by: 'token-response-cacheable',
    on: ['oauth.token'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': 'public, max-age=86400', pragma: undefined } }),
  },
  {
    by: 'token-sets-null-expiry-dropped',
    on: ['token-sets.list'],
    reshape: (a) => body(a, (list) => (list as unknown as Json[]).filter((t) => t['expires_at'] !== null)),
  },
  {
    by: 'transition-second-move-cached',
    on: ['experiments.transition'],
    reshape: (a, q) => {
      const key = `${param(q.request, 'id')}\u0000`;
      const first = [...q.seen].find((k) => k.startsWith(key));
      if (first === undefined) {
        q.seen.add(key + JSON.stringify(a.body));
        return a;
      }
      return { ...a, body: JSON.parse(first.slice(key.length)) as unknown };
    },
  },
  {
    by: 'experiment-unset-dates-null',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, started_at: e['started_at'] ?? null, ended_at: e['ended_at'] ?? null })),
  },
  {
    by: 'client-grant-default-for-null',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) =>
        g['client_id'] !== undefined && g['default_for'] === undefined ? { ...g, default_for: null } : g,
      ),
  },
  {
    by: 'client-grant-accept-list-406',
    on: ['client-grants.get'],
    when: (_a, q) => {
      const accept = q.request.headers.accept;
      return accept !== undefined && accept !== 'application/json' && accept !== '*/*';
    },
    reshape: () => withStatus(error('bad_request', 'Not Acceptable: use Accept: application/json'), 406),
  },
  {
    by: 'event-stream-get-disabled-404',
    on: ['event-streams.get'],
    when: (a) => isPlainObject(a.body) && a.body['status'] === 'disabled',
    reshape: () => error('inexistent_event_stream'),
  },
  {
    by: 'keys-answer-cesu8',
    on: ['custom-signing-keys.put'],
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: cesu8(JSON.stringify(a.body)),
    }),
  },
  {
    by: 'custom-text-values-as-objects',
    on: ['custom-text.put'],
    reshape: (a) => body(a, (map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, { text: v }]))),
  },
  {
    by: 'client-grants-401-no-challenge',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a) => a.status === 401,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'method-not-allowed-no-allow',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405,
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: undefined } }),
  },
  // blind round 2
  {
    by: 'token-sets-401-no-challenge',
    on: ['token-sets.list'],
    answers: 'errors',
    when: (a) => a.status === 401,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'rate-limit-429-plain-text',
    on: 'every',
    answers: 'errors',
    when: is('too_many_requests'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Too Many Requests',
    }),
  },
  {
    by: 'token-sets-user-id-case-insensitive',
    on: ['token-sets.list'],
    answers: 'errors',
    when: (a, q) => is('inexistent_user')(a) && userIgnoringCase(q) !== undefined,
    reshape: (_a, q) => {
      const now = Date.now();
      const sets = q.state.tokenSets.get(userIgnoringCase(q)!) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'token-set-expires-at-no-seconds',
    on: ['token-sets.list'],
    reshape: (a) =>
      items(a, (t) =>
        typeof t['expires_at'] === 'string' ? { ...t, expires_at: `${t['expires_at'].slice(0, 16)}Z` } : t,
      ),
  },
  {
    by: 'transition-weights-fractional',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) => ({ ...x, weight: Number(x['weight']) / 100 })),
      })),
  },
  {
    by: 'experiment-assignment-config-json-string',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, assignment_config: JSON.stringify(e['assignment_config']) })),
  },
  {
    by: 'client-grant-default-for-404',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && a.body['client_id'] === undefined,
    reshape: () => error('inexistent_client_grant'),
  },
  {
    by: 'event-stream-json-bom',
    on: ['event-streams.get'],
    reshape: withByteOrderMark,
  },
  {
    by: 'jwk-x5t-s256-dropped',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map(({ 'x5t#S256': _, ...k }) => k),
      })),
  },
  // blind round 3
  {
    by: 'token-sets-cached-by-route',
    on: ['token-sets.list'],
    reshape: (a, q) => {
      const first = [...q.seen][0];
      if (first === undefined) {
        q.seen.add(JSON.stringify(a.body));
        return a;
      }
      return { ...a, body: JSON.parse(first) as unknown };
    },
  },
  {
    by: 'token-set-null-dates-empty-string',
    on: ['token-sets.list'],
    reshape: (a) =>
      items(a, (t) => ({ ...t, expires_at: t['expires_at'] ?? '', last_used_at: t['last_used_at'] ?? '' })),
  },
  {
    by: 'experiment-assignment-config-string',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (e) => ({ ...e, assignment_config: JSON.stringify(e['assignment_config']) })),
  },
  {
    by: 'client-grant-lookup-prefix',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) =>
      is('inexistent_client_grant')(a) &&
      [...q.state.clientGrants.keys()].some((id) => id.startsWith(param(q.request, 'id'))),
    reshape: (_a, q) => ok([...q.state.clientGrants.values()].find((g) => g.id.startsWith(param(q.request, 'id')))),
  },
  {
    by: 'keys-x5t-s256-dropped',
    on: ['custom-signing-keys.put'],
    reshape: (a) => body(a, (b) => ({ ...b, keys: (b['keys'] as Json[]).map(({ 'x5t#S256': _, ...k }) => k) })),
  },
  {
    by: 'custom-text-astral-truncated',
    on: ['custom-text.put'],
    reshape: (a) =>
      body(a, (map) =>
        Object.fromEntries(
          Object.entries(map).map(([k, v]) => [
            k,
            typeof v === 'string' ? v.replace(/[\u{10000}-\u{10FFFF}][\s\S]*$/u, '') : v,
          ]),
        ),
      ),
  }, // blind round 4
  {
    by: 'token-basic-failure-400-no-challenge',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a, q) =>
      /^Basic\b/i.test(q.request.headers.authorization ?? '') &&
      isPlainObject(a.body) &&
      a.body['error'] === 'invalid_client',
    reshape: (a) => ({ ...a, status: 400, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  { by: 'token-type-jwt', on: ['oauth.token'], reshape: (a) => body(a, (b) => ({ ...b, token_type: 'JWT' })) },
  {
    by: 'token-set-last-used-at-offset-no-colon',
    on: ['token-sets.list'],
    reshape: (a) =>
      items(a, (t) =>
        typeof t['last_used_at'] === 'string' ? { ...t, last_used_at: t['last_used_at'].replace(/Z$/, '+0000') } : t,
      ),
  },
  {
    by: 'token-sets-user-id-trimmed',
    on: ['token-sets.list'],
    answers: 'errors',
    when: (a, q) => {
      const id = param(q.request, 'id');
      return is('inexistent_user')(a) && id.trim() !== id && q.state.users.has(id.trim());
    },
    reshape: (_a, q) => {
      const now = Date.now();
      const sets = q.state.tokenSets.get(param(q.request, 'id').trim()) ?? [];
      return ok(sets.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now));
    },
  },
  {
    by: 'transition-started-at-epoch-ms',
    on: ['experiments.transition'],
    when: (_a, q) => askedStatus(q) === 'active',
    reshape: (a) =>
      body(a, (e) => (typeof e['started_at'] === 'string' ? { ...e, started_at: Date.parse(e['started_at']) } : e)),
  },
  {
    by: 'transition-control-segment-null',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) =>
          x['is_control'] === true ? { ...x, segment_id: null } : x,
        ),
      })),
  },
  {
    by: 'transition-ended-experiment-no-allocations',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && (a.body['status'] === 'completed' || a.body['status'] === 'archived'),
    reshape: (a) => body(a, ({ allocations: _, ...rest }) => rest),
  },
  {
    by: 'client-grant-allow-all-scopes-tinyint',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) =>
        typeof g['allow_all_scopes'] === 'boolean' ? { ...g, allow_all_scopes: g['allow_all_scopes'] ? 1 : 0 } : g,
      ),
  },
  {
    by: 'client-grant-default-for-client-id-empty',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) => (g['default_for'] !== undefined && g['client_id'] === undefined ? { client_id: '', ...g } : g)),
  },
  {
    by: 'last-page-wraps-around',
    on: ['event-streams.list'],
    when: (a, q) => {
      const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
      const b = a.body as Json;
      return (
        singleQuery(q.request, 'from') !== undefined &&
        b['next'] === undefined &&
        (b['eventStreams'] as Json[]).length < take
      );
    },
    reshape: (a, q) => {
      const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
      const b = a.body as { eventStreams: Json[] };
      const wrapped = q.state.eventStreams.slice(0, take - b.eventStreams.length) as unknown as Json[];
      return { ...a, body: { ...b, eventStreams: [...b.eventStreams, ...wrapped] } };
    },
  },
  {
    by: 'keys-x5c-chain-truncated',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['x5c']) && k['x5c'].length > 1 ? { ...k, x5c: k['x5c'].slice(0, 1) } : k,
        ),
      })),
  },
  {
    by: 'keys-kid-unicode-normalised',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          typeof k['kid'] === 'string' ? { ...k, kid: k['kid'].normalize('NFC') } : k,
        ),
      })),
  },
  {
    by: 'custom-text-empty-value-dropped',
    on: ['custom-text.put'],
    reshape: (a) => body(a, (map) => Object.fromEntries(Object.entries(map).filter(([, v]) => v !== ''))),
  },
  {
    by: 'content-length-counts-characters',
    on: ['custom-text.put'],
    reshape: (a) => {
      const text = JSON.stringify(a.body);
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(text, 'utf8').subarray(0, text.length),
      };
    },
  },
  // blind round 5
  {
    by: 'token-response-scope-comma-joined',
    on: ['oauth.token'],
    reshape: (a) =>
      body(a, (b) => (typeof b['scope'] === 'string' ? { ...b, scope: b['scope'].split(' ').join(',') } : b)),
  },
  {
    by: 'api-401-basic-challenge',
    on: ['experiments.transition', 'custom-text.put'],
    answers: 'errors',
    when: (a) => a.status === 401,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': 'Basic realm="api"' } }),
  },
  {
    by: 'allow-header-lists-every-method',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405,
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' } }),
  },
  {
    by: 'transition-answer-status-from-dates',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        status: e['ended_at'] !== undefined ? 'completed' : e['started_at'] !== undefined ? 'active' : 'draft',
      })),
  },
  {
    by: 'client-grant-id-double-decoded',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) => is('inexistent_client_grant')(a) && grantDecodedAgain(q) !== undefined,
    reshape: (_a, q) => ok(q.state.clientGrants.get(grantDecodedAgain(q)!)),
  },
  {
    by: 'event-streams-next-integer',
    on: ['event-streams.list'],
    when: (a) => isPlainObject(a.body) && typeof a.body['next'] === 'string',
    reshape: (a, q) =>
      body(a, (b) => {
        const id = Buffer.from(String(b['next']), 'base64url').toString('utf8').replace(/^es1:/, '');
        const i = q.state.eventStreamIndexOf(id);
        return i === undefined ? b : { ...b, next: i + 1 };
      }),
  },
  {
    by: 'event-streams-later-pages-enabled-only',
    on: ['event-streams.list'],
    when: (_a, q) => singleQuery(q.request, 'from') !== undefined,
    reshape: (a) =>
      body(a, (b) => ({ ...b, eventStreams: (b['eventStreams'] as Json[]).filter((s) => s['status'] === 'enabled') })),
  },
  {
    by: 'event-stream-created-at-decimal-comma',
    on: ['event-streams.get'],
    reshape: (a) =>
      body(a, (s) =>
        typeof s['created_at'] === 'string' ? { ...s, created_at: s['created_at'].replace('.', ',') } : s,
      ),
  },
  {
    by: 'keys-form-single-item-array-flattened',
    on: ['custom-signing-keys.put'],
    when: (_a, q) => mediaTypeOf(q.request) === FORM,
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Object.fromEntries(Object.entries(k).map(([m, v]) => [m, Array.isArray(v) && v.length === 1 ? v[0] : v])),
        ),
      })),
  },
  {
    by: 'keys-coordinates-std-base64',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Object.fromEntries(
            Object.entries(k).map(([m, v]) => [
              m,
              ['n', 'e', 'x', 'y'].includes(m) && typeof v === 'string'
                ? Buffer.from(v, 'base64url').toString('base64')
                : v,
            ]),
          ),
        ),
      })),
  },
  {
    by: 'custom-text-answer-html-escaped',
    on: ['custom-text.put'],
    reshape: (a) =>
      body(a, (map) =>
        Object.fromEntries(Object.entries(map).map(([k, v]) => [k, typeof v === 'string' ? htmlEscaped(v) : v])),
      ),
  },
  // blind round 6
  {
    by: 'token-expires-in-string',
    on: ['oauth.token'],
    when: (a) => isPlainObject(a.body) && typeof a.body['expires_in'] === 'number',
    reshape: (a) => body(a, (b) => ({ ...b, expires_in: String(b['expires_in']) })),
  },
  {
    by: 'allow-header-space-separated',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405 && typeof a.headers['allow'] === 'string',
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: String(a.headers['allow']).split(/,\s*/).join(' ') } }),
  },
  {
    by: 'client-grant-format-suffix-stripped',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) => is('inexistent_client_grant')(a) && grantWithoutSuffix(q) !== undefined,
    reshape: (_a, q) => ok(q.state.clientGrants.get(grantWithoutSuffix(q)!)),
  },
  {
    by: 'event-streams-fraction-zeros-trimmed',
    on: ['event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => {
        const trim = (v: unknown) => (typeof v === 'string' ? v.replace(/(\.[0-9]*?)0+Z$/, '$1Z') : v);
        return { ...s, created_at: trim(s['created_at']), updated_at: trim(s['updated_at']) };
      }),
  },
  {
    by: 'event-stream-single-subscription-collapsed',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) =>
        Array.isArray(s['subscriptions']) && s['subscriptions'].length === 1
          ? { ...s, subscriptions: s['subscriptions'][0] }
          : s,
      ),
  },
  {
    by: 'keys-rsa-exponent-number',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          k['kty'] === 'RSA' && typeof k['e'] === 'string' ? { ...k, e: base64urlUint(k['e']) } : k,
        ),
      })),
  },
  // blind round 7
  {
    by: 'token-response-no-cache-not-no-store',
    on: ['oauth.token'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': 'no-cache', pragma: 'no-cache' } }),
  },
  {
    by: 'token-basic-failure-bearer-challenge',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a, q) => a.status === 401 && /^Basic\b/i.test(q.request.headers.authorization ?? ''),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': 'Bearer error="invalid_token"' } }),
  },
  {
    by: 'token-response-form-encoded-unless-accept-json',
    on: ['oauth.token'],
    when: (a, q) => isPlainObject(a.body) && !/application\/json/i.test(q.request.headers.accept ?? ''),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        Object.entries(a.body as Json).map(([k, v]) => [k, String(v)] as [string, string]),
      ).toString(),
    }),
  },
  {
    by: 'token-sets-never-used-dropped',
    on: ['token-sets.list'],
    reshape: (a) => body(a, (list) => (list as unknown as Json[]).filter((t) => t['last_used_at'] !== null)),
  },
  {
    by: 'transition-updated-at-sql-space',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && typeof a.body['updated_at'] === 'string',
    reshape: (a) => body(a, (e) => ({ ...e, updated_at: String(e['updated_at']).replace('T', ' ') })),
  },
  {
    by: 'client-grant-unknown-falls-back-to-default',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) =>
      is('inexistent_client_grant')(a) && [...q.state.clientGrants.values()].some((g) => g.default_for !== undefined),
    reshape: (_a, q) => ok([...q.state.clientGrants.values()].find((g) => g.default_for !== undefined)),
  },
  {
    by: 'event-stream-get-status-always-enabled',
    on: ['event-streams.get'],
    reshape: (a) => streams(a, (s) => ({ ...s, status: 'enabled' })),
  },
  {
    by: 'event-streams-400-text-plain',
    on: ['event-streams.list'],
    answers: 'errors',
    when: (a) => a.status === 400,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: JSON.stringify(a.body),
    }),
  },
  // blind round 8
  {
    by: 'token-basic-failure-bearer-challenge-r8',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a, q) =>
      a.status === 401 &&
      /^Basic\b/i.test(q.request.headers.authorization ?? '') &&
      isPlainObject(a.body) &&
      a.body['error'] === 'invalid_client',
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': 'Bearer realm="oauth"' } }),
  },
  {
    by: 'token-response-no-cache-not-no-store-r8',
    on: ['oauth.token'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': 'no-cache' } }),
  },
  {
    by: 'token-sets-never-used-dropped-r8',
    on: ['token-sets.list'],
    reshape: (a) => body(a, (list) => (list as unknown as Json[]).filter((t) => t['last_used_at'] !== null)),
  },
  {
    by: 'transition-answer-camel-case-dates',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) =>
        Object.fromEntries(
          Object.entries(e).map(([k, v]) => [
            /_at$/.test(k) ? k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()) : k,
            v,
          ]),
        ),
      ),
  },
  {
    by: 'client-grant-unset-organization-usage-null',
    on: ['client-grants.get'],
    reshape: (a) => body(a, (g) => (g['organization_usage'] === undefined ? { ...g, organization_usage: null } : g)),
  },
  {
    by: 'event-streams-list-subscriptions-flattened',
    on: ['event-streams.list'],
    reshape: (a) =>
      streams(a, (s) =>
        Array.isArray(s['subscriptions'])
          ? { ...s, subscriptions: (s['subscriptions'] as Json[]).map((x) => x['event_type']) }
          : s,
      ),
  },
  {
    by: 'event-streams-list-text-json',
    on: ['event-streams.list'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/json; charset=utf-8' } }),
  },
  {
    by: 'event-stream-id-case-insensitive',
    on: ['event-streams.get'],
    answers: 'errors',
    when: (a, q) => is('inexistent_event_stream')(a) && streamIgnoringCase(q) !== undefined,
    reshape: (_a, q) => ok(streamIgnoringCase(q)),
  },
  {
    by: 'keys-form-values-coerced',
    on: ['custom-signing-keys.put'],
    when: (_a, q) => mediaTypeOf(q.request) === FORM,
    reshape: (a) => body(a, (b) => ({ ...b, keys: (b['keys'] as Json[]).map((k) => coerced(k) as Json) })),
  },
  {
    by: 'unsupported-media-type-plain-text',
    on: 'every',
    answers: 'errors',
    when: is('unsupported_media_type'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Unsupported Media Type',
    }),
  },
  // blind round 10
  {
    by: 'token-body-credentials-401-no-challenge',
    on: ['oauth.token'],
    answers: 'errors',
    // The challenge sent only to clients that used HTTP Basic (RFC 6749 5.2 read alone).
    when: (a, q) => a.status === 401 && !/^Basic\b/i.test(q.request.headers.authorization ?? ''),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  {
    by: 'transition-allocation-flags-tinyint',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) => ({
          ...x,
          is_control: x['is_control'] === true ? 1 : 0,
          is_fallback: x['is_fallback'] === true ? 1 : 0,
        })),
      })),
  },
  {
    by: 'client-grant-adt-csv-trailing-empty',
    on: ['client-grants.get'],
    // Kept as "a,b," (each item followed by a comma) and split on commas when read.
    reshape: (a) =>
      body(a, (g) =>
        Array.isArray(g['authorization_details_types']) && g['authorization_details_types'].length > 0
          ? { ...g, authorization_details_types: [...(g['authorization_details_types'] as string[]), ''] }
          : g,
      ),
  },
  {
    by: 'client-grant-lookup-by-client-id',
    on: ['client-grants.get'],
    answers: 'errors',
    // WHERE id = ? OR client_id = ?
    when: (a, q) =>
      is('inexistent_client_grant')(a) &&
      [...q.state.clientGrants.values()].some((g) => g.client_id === param(q.request, 'id')),
    reshape: (_a, q) => ok([...q.state.clientGrants.values()].find((g) => g.client_id === param(q.request, 'id'))),
  },
  {
    by: 'event-streams-later-pages-ordered-by-id',
    on: ['event-streams.list'],
    when: (_a, q) => singleQuery(q.request, 'from') !== undefined,
    // The first page in creation order; pages after a cursor by id greater than the cursor's (keyset on id).
    reshape: (a, q) => {
      const cursorId = Buffer.from(singleQuery(q.request, 'from')!, 'base64url').toString('utf8').replace(/^es1:/, '');
      const take = Number(singleQuery(q.request, 'take') ?? TAKE_DEFAULT);
      const after = [...q.state.eventStreams].sort((x, y) => (x.id < y.id ? -1 : 1)).filter((s) => s.id > cursorId);
      const page = after.slice(0, take);
      const last = page[page.length - 1];
      const next =
        after.length > take && last !== undefined ? Buffer.from(`es1:${last.id}`).toString('base64url') : undefined;
      return { ...a, body: next === undefined ? { eventStreams: page } : { eventStreams: page, next } };
    },
  },
  {
    by: 'event-stream-id-length-utf8-bytes',
    on: ['event-streams.get'],
    answers: 'errors',
    // 26 UTF-8 bytes pass the length check and are looked up.
    when: (a, q) =>
      is('invalid_uri')(a) && Buffer.byteLength(param(q.request, 'id'), 'utf8') === EVENT_STREAM_ID_LENGTH,
    reshape: (_a, q) => streamById(q, param(q.request, 'id')),
  },
  {
    by: 'event-stream-get-updated-at-read-time',
    on: ['event-streams.get'],
    reshape: (a) => body(a, (s) => ({ ...s, updated_at: new Date().toISOString() })),
  },
  {
    by: 'keys-default-use-omitted',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => (k['use'] === 'sig' ? (({ use: _, ...rest }) => rest)(k) : k)),
      })),
  },
  {
    by: 'keys-x5c-as-base64url',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['x5c'])
            ? {
                ...k,
                x5c: k['x5c'].map((c) => (typeof c === 'string' ? Buffer.from(c, 'base64').toString('base64url') : c)),
              }
            : k,
        ),
      })),
  },
  {
    by: 'custom-text-answer-latin1-r10',
    on: ['custom-text.put'],
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=iso-8859-1' },
      body: Buffer.from(JSON.stringify(a.body), 'latin1'),
    }),
  },
  {
    by: 'method-not-allowed-text-plain',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 405,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Method Not Allowed',
    }),
  },
  // blind round 11
  {
    by: 'token-response-201-created',
    on: ['oauth.token'],
    // The issued token read as a created resource.
    reshape: (a) => ({ ...a, status: 201 }),
  },
  {
    by: 'token-sets-none-404',
    on: ['token-sets.list'],
    // No row for the user in the token set query read as no user.
    when: (a) => Array.isArray(a.body) && a.body.length === 0,
    reshape: () => error('inexistent_user'),
  },
  {
    by: 'token-sets-unknown-user-403',
    on: ['token-sets.list'],
    answers: 'errors',
    // A user the caller cannot see answered as one it may not see.
    when: is('inexistent_user'),
    reshape: () => error('forbidden', 'You are not allowed to read the token sets of this user'),
  },
  {
    by: 'client-grant-scope-space-joined',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) => (Array.isArray(g['scope']) ? { ...g, scope: (g['scope'] as string[]).join(' ') } : g)),
  },
  {
    by: 'client-grant-id-case-insensitive',
    on: ['client-grants.get'],
    answers: 'errors',
    // Looked up under a case-insensitive collation.
    when: (a, q) =>
      is('inexistent_client_grant')(a) &&
      [...q.state.clientGrants.keys()].some((id) => id.toLowerCase() === param(q.request, 'id').toLowerCase()),
    reshape: (_a, q) =>
      ok([...q.state.clientGrants.values()].find((g) => g.id.toLowerCase() === param(q.request, 'id').toLowerCase())),
  },
  {
    by: 'client-grant-organization-usage-uppercase',
    on: ['client-grants.get'],
    // The enum serialised by its constant's name.
    reshape: (a) =>
      body(a, (g) =>
        typeof g['organization_usage'] === 'string'
          ? { ...g, organization_usage: g['organization_usage'].toUpperCase() }
          : g,
      ),
  },
  {
    by: 'event-stream-get-username-masked',
    on: ['event-streams.get'],
    // The detail view masks the webhook credentials; the list does not.
    reshape: (a) =>
      body(a, (s) => {
        const copy = structuredClone(s) as Json & {
          destination?: { configuration?: { webhook_authorization?: { username?: unknown } } };
        };
        const auth = copy.destination?.configuration?.webhook_authorization;
        if (auth && typeof auth.username === 'string')
          auth.username = `${auth.username.slice(0, 2)}${'*'.repeat(Math.max(0, auth.username.length - 2))}`;
        return copy;
      }),
  },
  {
    by: 'keys-rsa-modulus-zero-prefixed',
    on: ['custom-signing-keys.put'],
    // n re-encoded from a signed big integer: a 0x00 octet before a modulus whose top bit is set (RFC 7518 6.3.1.1).
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => {
          if (k['kty'] !== 'RSA' || typeof k['n'] !== 'string') return k;
          const n = Buffer.from(k['n'], 'base64url');
          return n.length > 0 && n[0]! >= 0x80
            ? { ...k, n: Buffer.concat([Buffer.from([0]), n]).toString('base64url') }
            : k;
        }),
      })),
  },
  {
    by: 'events-401-no-challenge',
    on: ['events.subscribe'],
    answers: 'errors',
    when: (a) => a.status === 401,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  // blind round 12
  {
    by: 'token-response-echoes-request-media-type',
    on: ['oauth.token'],
    // The response labelled with the request's media type.
    when: (_a, q) => mediaTypeOf(q.request) !== '',
    reshape: (a, q) => ({ ...a, headers: { ...a.headers, 'content-type': mediaTypeOf(q.request) } }),
  },
  {
    by: 'token-response-scope-form-encoded',
    on: ['oauth.token'],
    // The scope written as a form parameter value.
    reshape: (a) =>
      body(a, (t) =>
        typeof t['scope'] === 'string'
          ? { ...t, scope: new URLSearchParams({ scope: t['scope'] }).toString().slice('scope='.length) }
          : t,
      ),
  },
  {
    by: 'token-set-connection-object',
    on: ['token-sets.list'],
    // The connection joined as an object.
    reshape: (a) => items(a, (t) => ({ ...t, connection: { name: t['connection'] } })),
  },
  {
    by: 'token-sets-deprecation-header',
    on: ['token-sets.list'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, deprecation: '@1735689600' } }),
  },
  {
    by: 'client-grant-default-for-early-access-hidden',
    on: ['client-grants.get'],
    // default_for behind an Early Access flag that is off.
    when: (a) => isPlainObject(a.body) && a.body['default_for'] !== undefined,
    reshape: (a) => body(a, (g) => Object.fromEntries(Object.entries(g).filter(([k]) => k !== 'default_for'))),
  },
  {
    by: 'event-stream-get-subscriptions-of-previous',
    on: ['event-streams.get'],
    // The subscriptions joined one index off.
    reshape: (a, q) =>
      body(a, (s) => {
        const i = q.state.eventStreamIndexOf(String(s['id']));
        const before = i === undefined || i === 0 ? undefined : q.state.eventStreams[i - 1];
        return before === undefined ? s : { ...s, subscriptions: structuredClone(before.subscriptions) };
      }),
  },
  {
    by: 'jwks-answer-bare-array',
    on: ['custom-signing-keys.put'],
    reshape: (a) => body(a, (b) => b['keys']),
  },
  {
    by: 'bad-percent-encoding-text-plain',
    on: 'every',
    answers: 'errors',
    // The router's own answer to a path it cannot decode.
    when: (a, q) =>
      a.status === 400 &&
      errorCode(a) === 'invalid_uri' &&
      isApiPath(q.request.url) &&
      badPercentEncoding(q.request.url.split('?', 1)[0]!),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'Bad Request',
    }),
  },
  {
    by: 'keys-401-no-challenge-with-body',
    on: ['custom-signing-keys.put'],
    answers: 'errors',
    when: (a, q) => a.status === 401 && (q.request.headers['content-length'] ?? '0') !== '0',
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'www-authenticate': undefined } }),
  },
  // blind round 13
  {
    by: 'token-response-scope-omitted-by-default',
    on: ['oauth.token'],
    // scope left out when the request named none, though the default scopes were granted.
    when: (_a, q) => !isPlainObject(q.request.body) || q.request.body['scope'] === undefined,
    reshape: (a) => body(a, (t) => Object.fromEntries(Object.entries(t).filter(([k]) => k !== 'scope'))),
  },
  {
    by: 'invalid-token-challenge-without-scheme',
    on: 'every',
    answers: 'errors',
    // The challenge's auth-params written without the scheme before them.
    when: (a) => a.status === 401 && /^Bearer error=/.test(String(a.headers['www-authenticate'] ?? '')),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'www-authenticate': String(a.headers['www-authenticate']).replace(/^Bearer /, '') },
    }),
  },
  {
    by: 'token-set-never-expires-max-date',
    on: ['token-sets.list'],
    // "Never" stored as the largest Date, serialised with toISOString (an expanded year).
    reshape: (a) =>
      items(a, (t) => (t['expires_at'] === null ? { ...t, expires_at: new Date(8.64e15).toISOString() } : t)),
  },
  {
    by: 'token-sets-empty-list-204',
    on: ['token-sets.list'],
    when: (a) => Array.isArray(a.body) && a.body.length === 0,
    reshape: (a) => ({ ...a, status: 204, body: undefined }),
  },
  {
    by: 'token-sets-xssi-prefix',
    on: ['token-sets.list'],
    // The anti-XSSI guard before a top-level array.
    when: (a) => Array.isArray(a.body),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: `)]}',\n${JSON.stringify(a.body)}`,
    }),
  },
  {
    by: 'client-grant-default-for-array',
    on: ['client-grants.get'],
    when: (a) => isPlainObject(a.body) && typeof a.body['default_for'] === 'string',
    reshape: (a) => body(a, (g) => ({ ...g, default_for: [g['default_for']] })),
  },
  {
    by: 'keys-key-ops-space-joined',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['key_ops']) ? { ...k, key_ops: (k['key_ops'] as unknown[]).join(' ') } : k,
        ),
      })),
  },
  {
    by: 'allow-keeps-last-registered-method',
    on: 'every',
    answers: 'errors',
    // A map set per route instead of appended to: the last method registered for the path.
    when: (a) => a.status === 405 && String(a.headers['allow'] ?? '').includes(','),
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: String(a.headers['allow']).split(/,\s*/).at(-1) } }),
  },
  // blind round 14
  {
    by: 'rate-limit-429-headers-first-only',
    on: 'every',
    answers: 'errors',
    // The blocked-key fast path answers every 429 after a token's first without the headers.
    when: (a, q) => {
      if (a.status !== 429) return false;
      const key = q.request.headers.authorization ?? `address:${q.request.ip}`;
      if (q.seen.has(key)) return true;
      q.seen.add(key);
      return false;
    },
    reshape: (a) => ({
      ...a,
      headers: {
        ...a.headers,
        'x-ratelimit-limit': undefined,
        'x-ratelimit-remaining': undefined,
        'x-ratelimit-reset': undefined,
      },
    }),
  },
  {
    by: 'token-sets-404-body-not-json',
    on: ['token-sets.list'],
    answers: 'errors',
    when: is('inexistent_user'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: String((a.body as Json)['message'] ?? 'The user does not exist.'),
    }),
  },
  {
    by: 'token-set-issued-at-offset-and-z',
    on: ['token-sets.list'],
    // An offset-aware isoformat() with 'Z' appended.
    reshape: (a) =>
      items(a, (t) =>
        typeof t['issued_at'] === 'string' ? { ...t, issued_at: t['issued_at'].replace(/Z$/, '+00:00Z') } : t,
      ),
  },
  {
    by: 'client-grant-id-trimmed',
    on: ['client-grants.get'],
    answers: 'errors',
    when: (a, q) => {
      const id = param(q.request, 'id');
      return is('inexistent_client_grant')(a) && id.trim() !== id && q.state.clientGrants.has(id.trim());
    },
    reshape: (_a, q) => ok(q.state.clientGrants.get(param(q.request, 'id').trim())),
  },
  {
    by: 'event-streams-next-from-last-enabled',
    on: ['event-streams.list'],
    // The cursor taken from the last enabled stream of the page.
    when: (a) => isPlainObject(a.body) && typeof a.body['next'] === 'string' && a.body['next'] !== '',
    reshape: (a) =>
      body(a, (b) => {
        const enabled = (b['eventStreams'] as Json[]).filter((s) => s['status'] !== 'disabled').at(-1);
        return enabled === undefined ? b : { ...b, next: encodeStreamCursor(String(enabled['id'])) };
      }),
  },
  {
    by: 'accept-application-wildcard-406',
    on: ['event-streams.list'],
    // Accept matched literally: application/* is neither application/json nor */*.
    when: (_a, q) => {
      const ranges = (q.request.headers.accept ?? '').split(',').map((r) => r.split(';', 1)[0]!.trim().toLowerCase());
      return ranges.includes('application/*') && !ranges.includes('application/json') && !ranges.includes('*/*');
    },
    reshape: () => withStatus(error('bad_request', 'Not Acceptable: use Accept: application/json'), 406),
  },
  {
    by: 'keys-answer-includes-tenant-key',
    on: ['custom-signing-keys.put'],
    reshape: (a) => body(a, (b) => ({ ...b, keys: [...(b['keys'] as Json[]), TENANT_SIGNING_KEY] })),
  },
  {
    by: 'custom-text-unchanged-put-204',
    on: ['custom-text.put'],
    // The map the path was last set to, noted per path: the same map again is "nothing changed".
    when: (a, q) => {
      const path = q.request.url.split('?', 1)[0]!;
      const key = `${path}\n${JSON.stringify(a.body)}`;
      const same = q.seen.has(key);
      for (const k of q.seen) if (k.startsWith(`${path}\n`)) q.seen.delete(k);
      q.seen.add(key);
      return same;
    },
    reshape: (a) => ({ ...a, status: 204, body: undefined }),
  },
  // blind round 15
  {
    by: 'token-response-body-credentials-no-no-store',
    on: ['oauth.token'],
    // The cache headers are set on the HTTP Basic branch only.
    when: (_a, q) => !/^Basic\b/i.test(q.request.headers.authorization ?? ''),
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': undefined, pragma: undefined } }),
  },
  {
    by: 'user-id-length-counts-graphemes',
    on: ['token-sets.list'],
    answers: 'errors',
    // The limit counted in grapheme clusters: an id within it is looked up, and no user has so long an id.
    when: (a, q) => is('invalid_uri')(a) && graphemeCount(param(q.request, 'id')) <= USER_ID_MAX,
    reshape: (_a, q) =>
      q.state.users.has(param(q.request, 'id'))
        ? ok(q.state.tokenSets.get(param(q.request, 'id')) ?? [])
        : error('inexistent_user'),
  },
  {
    by: 'transition-is-valid-null-after-move',
    on: ['experiments.transition'],
    reshape: (a) => body(a, (b) => ({ ...b, is_valid: null })),
  },
  {
    by: 'transition-fallback-priority-null',
    on: ['experiments.transition'],
    reshape: (a) =>
      body(a, (b) =>
        Array.isArray(b['allocations'])
          ? {
              ...b,
              allocations: (b['allocations'] as Json[]).map((x) =>
                x['is_fallback'] === true ? { ...x, priority: null } : x,
              ),
            }
          : b,
      ),
  },
  {
    by: 'client-grant-id-cut-at-semicolon',
    on: ['client-grants.get'],
    answers: 'errors',
    // The segment cut at its first ; (a matrix parameter).
    when: (a, q) => {
      const id = param(q.request, 'id');
      const raw = q.request.url.split('?', 1)[0]!.split('/')[4] ?? '';
      return is('inexistent_client_grant')(a) && raw.includes(';') && q.state.clientGrants.has(id.split(';', 1)[0]!);
    },
    reshape: (_a, q) => ok(q.state.clientGrants.get(param(q.request, 'id').split(';', 1)[0]!)),
  },
  {
    by: 'client-grant-adt-single-item-collapsed',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (b) => {
        const adt = b['authorization_details_types'];
        return Array.isArray(adt) && adt.length === 1 ? { ...b, authorization_details_types: adt[0] } : b;
      }),
  },
  {
    by: 'event-streams-list-first-subscription-only',
    on: ['event-streams.list'],
    reshape: (a) =>
      streams(a, (s) =>
        Array.isArray(s['subscriptions']) ? { ...s, subscriptions: (s['subscriptions'] as Json[]).slice(0, 1) } : s,
      ),
  },
  {
    by: 'event-stream-disabled-webhook-endpoint-null',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => {
        const destination = s['destination'] as Json | undefined;
        const configuration = destination?.['configuration'] as Json | undefined;
        if (s['status'] !== 'disabled' || destination === undefined || configuration === undefined) return s;
        return { ...s, destination: { ...destination, configuration: { ...configuration, webhook_endpoint: null } } };
      }),
  },
  {
    by: 'keys-key-ops-dropped-beside-use',
    on: ['custom-signing-keys.put'],
    // RFC 7517 4.3 read as "not both": key_ops dropped where use is set.
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => {
          if (k['use'] === undefined || k['key_ops'] === undefined) return k;
          const { key_ops: _dropped, ...rest } = k;
          return rest;
        }),
      })),
  },
  {
    by: 'keys-form-answer-form-encoded',
    on: ['custom-signing-keys.put'],
    // The answer written in the media type of the request.
    when: (_a, q) => mediaTypeOf(q.request) === FORM,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': FORM },
      body: qs.stringify(a.body, { encodeValuesOnly: true }),
    }),
  },
  // blind round 16
  {
    by: 'token-unsupported-grant-invalid-grant',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'unsupported_grant_type',
    reshape: (a) => body(a, (b) => ({ ...b, error: 'invalid_grant' })),
  },
  {
    by: 'token-missing-grant-type-unsupported',
    on: ['oauth.token'],
    answers: 'errors',
    // The missing grant_type compared as an unknown one.
    when: (a) =>
      isPlainObject(a.body) &&
      a.body['error'] === 'invalid_request' &&
      a.body['error_description'] === 'Missing required parameter: grant_type',
    reshape: (a) => body(a, (b) => ({ ...b, error: 'unsupported_grant_type' })),
  },
  {
    by: 'token-bad-client-unauthorized-client',
    on: ['oauth.token'],
    answers: 'errors',
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'invalid_client',
    reshape: (a) => body(a, (b) => ({ ...b, error: 'unauthorized_client' })),
  },
  {
    by: 'token-response-text-plain',
    on: ['oauth.token'],
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } }),
  },
  {
    by: 'token-sets-user-lookup-by-prefix',
    on: ['token-sets.list'],
    answers: 'errors',
    // WHERE user_id LIKE :id || '%': the first user whose id starts the asked one.
    when: (a, q) => is('inexistent_user')(a) && userByPrefix(q) !== undefined,
    reshape: (_a, q) =>
      ok(
        (q.state.tokenSets.get(userByPrefix(q)!) ?? []).filter(
          (t) => t.expires_at === null || Date.parse(t.expires_at) > Date.now(),
        ),
      ),
  },
  {
    by: 'transition-ended-at-no-zone',
    on: ['experiments.transition'],
    // A naive timestamp column: the zone designator dropped.
    when: (a) => isPlainObject(a.body) && typeof a.body['ended_at'] === 'string',
    reshape: (a) => body(a, (e) => ({ ...e, ended_at: String(e['ended_at']).replace(/(?:Z|[+-]\d{2}:\d{2})$/i, '') })),
  },
  {
    by: 'event-streams-list-updated-at-from-created',
    on: ['event-streams.list'],
    reshape: (a) => streams(a, (s) => ({ ...s, updated_at: s['created_at'] })),
  },
  {
    by: 'event-stream-id-trimmed',
    on: ['event-streams.get'],
    answers: 'errors',
    when: (a, q) => {
      const id = param(q.request, 'id');
      return is('invalid_uri')(a) && id.trim() !== id && codePoints(id.trim()) === EVENT_STREAM_ID_LENGTH;
    },
    reshape: (_a, q) => streamById(q, param(q.request, 'id').trim()),
  },
  {
    by: 'custom-text-malformed-json-html',
    on: ['custom-text.put'],
    answers: 'errors',
    when: is('invalid_json'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: `<html><body><h1>${a.status} ${STATUS_CODES[a.status] ?? 'Error'}</h1></body></html>`,
    }),
  },
  // blind round 17
  {
    by: 'token-bad-client-html-page',
    on: ['oauth.token'],
    answers: 'errors',
    // The authentication filter in front of the endpoint renders its own error page.
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'invalid_client',
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: `<html><body><h1>${a.status} ${STATUS_CODES[a.status] ?? 'Error'}</h1></body></html>`,
    }),
  },
  {
    by: 'token-unsupported-grant-plain-text',
    on: ['oauth.token'],
    answers: 'errors',
    // The error code sent as a bare string.
    when: (a) => isPlainObject(a.body) && a.body['error'] === 'unsupported_grant_type',
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: 'unsupported_grant_type',
    }),
  },
  {
    by: 'rate-limit-429-no-limit',
    on: 'every',
    answers: 'errors',
    when: (a) => a.status === 429,
    reshape: (a) => ({ ...a, headers: { ...a.headers, 'x-ratelimit-limit': undefined } }),
  },
  {
    by: 'client-grant-default-allow-any-organization-null',
    on: ['client-grants.get'],
    // The default (false) is an unset column.
    when: (a) => isPlainObject(a.body) && a.body['allow_any_organization'] === false,
    reshape: (a) => body(a, (g) => ({ ...g, allow_any_organization: null })),
  },
  {
    by: 'event-stream-status-varchar-7',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => (typeof s['status'] === 'string' ? { ...s, status: s['status'].slice(0, 7) } : s)),
  },
  {
    by: 'event-stream-unknown-404-empty-body',
    on: ['event-streams.get'],
    answers: 'errors',
    when: is('inexistent_event_stream'),
    reshape: (a) => ({ ...a, body: undefined }),
  },
  {
    by: 'keys-x5c-chain-reversed',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['x5c']) && k['x5c'].length > 1 ? { ...k, x5c: [...(k['x5c'] as unknown[])].reverse() } : k,
        ),
      })),
  },
  {
    by: 'keys-x5u-normalised',
    on: ['custom-signing-keys.put'],
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => {
          if (typeof k['x5u'] !== 'string') return k;
          try {
            return { ...k, x5u: new URL(k['x5u']).href };
          } catch {
            return k;
          }
        }),
      })),
  },
  {
    by: 'keys-unchanged-put-204',
    on: ['custom-signing-keys.put'],
    // The set the previous PUT stored, remembered as its JSON text.
    when: (a, q) => {
      const set = JSON.stringify((a.body as Json)['keys']);
      const unchanged = q.seen.has(set);
      q.seen.clear();
      q.seen.add(set);
      return unchanged;
    },
    reshape: (a) => ({ ...a, status: 204, body: undefined }),
  },
  {
    by: 'custom-text-keys-lowercased',
    on: ['custom-text.put'],
    when: (a) => isPlainObject(a.body),
    reshape: (a) => body(a, (m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toLowerCase(), v]))),
  },
  {
    by: 'custom-text-json-latin1-without-charset',
    on: ['custom-text.put'],
    // The UTF-8 bytes of the body read one byte a character.
    when: (a, q) => isPlainObject(a.body) && jsonWithoutCharset(q.request),
    reshape: (a) =>
      body(a, (m) =>
        Object.fromEntries(
          Object.entries(m).map(([k, v]) => [k, typeof v === 'string' ? Buffer.from(v, 'utf8').toString('latin1') : v]),
        ),
      ),
  },
  {
    by: 'allow-omits-undocumented-methods',
    on: 'every',
    answers: 'errors',
    // Allow built from the documented operations: the PUT of the keys and of the custom text.
    when: (a) => a.status === 405 && typeof a.headers['allow'] === 'string' && a.headers['allow'].includes('PUT'),
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: 'PUT' } }),
  },
  // blind round 18
  {
    by: 'token-response-scope-array',
    on: ['oauth.token'],
    reshape: (a) =>
      body(a, (b) => (typeof b['scope'] === 'string' ? { ...b, scope: b['scope'].split(' ').filter(Boolean) } : b)),
  },
  {
    by: 'token-expires-in-milliseconds',
    on: ['oauth.token'],
    reshape: (a) =>
      body(a, (b) => (typeof b['expires_in'] === 'number' ? { ...b, expires_in: b['expires_in'] * 1000 } : b)),
  },
  {
    by: 'token-sets-user-lookup-before-scope',
    on: ['token-sets.list'],
    answers: 'errors',
    // The user loaded first: an unknown one is 404 before the scope is looked at.
    when: (a, q) => is('insufficient_scope')(a) && !q.state.users.has(param(q.request, 'id')),
    reshape: () => error('inexistent_user'),
  },
  {
    by: 'client-grant-default-for-client-id-null',
    on: ['client-grants.get'],
    reshape: (a) =>
      body(a, (g) => (g['default_for'] !== undefined && g['client_id'] === undefined ? { client_id: null, ...g } : g)),
  },
  {
    by: 'event-streams-walk-ends-one-early',
    on: ['event-streams.list'],
    // more = start + take < total - 1: a page ending on the last-but-one stream says none follows.
    when: (a, q) => {
      const b = a.body as Json;
      const last = (b['eventStreams'] as Json[]).at(-1);
      const i = last === undefined ? undefined : q.state.eventStreamIndexOf(String(last['id']));
      return b['next'] !== undefined && i !== undefined && i === q.state.eventStreams.length - 2;
    },
    reshape: (a) =>
      body(a, (b) => {
        const { next: _next, ...rest } = b;
        return rest;
      }),
  },
  {
    by: 'accept-html-preferred-gets-html',
    on: ['event-streams.get'],
    // The first media range of Accept picks the view.
    when: (_a, q) =>
      (q.request.headers.accept ?? '').split(',', 1)[0]!.split(';', 1)[0]!.trim().toLowerCase() === 'text/html',
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: `<!DOCTYPE html><html><head><title>Event stream</title></head><body><pre>${htmlEscaped(
        JSON.stringify(a.body, null, 2),
      )}</pre></body></html>`,
    }),
  },
  {
    by: 'payload-too-large-html',
    on: ['experiments.transition', 'custom-signing-keys.put', 'custom-text.put'],
    answers: 'errors',
    when: is('payload_too_large'),
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n</body>\r\n</html>\r\n',
    }),
  },
  // blind round 19
  {
    by: 'keys-x5c-pem-wrapped',
    on: ['custom-signing-keys.put'],
    // Certificates re-encoded through a PEM writer: the base64 broken into lines of 64 characters.
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          Array.isArray(k['x5c'])
            ? { ...k, x5c: (k['x5c'] as unknown[]).map((c) => (typeof c === 'string' ? pemWrapped(c) : c)) }
            : k,
        ),
      })),
  },
  {
    by: 'keys-ec-coordinate-leading-zero-stripped',
    on: ['custom-signing-keys.put'],
    // Coordinates stored as integers: leading zero octets lost when written back.
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          k['kty'] === 'EC' ? { ...k, x: zeroOctetsStripped(k['x']), y: zeroOctetsStripped(k['y']) } : k,
        ),
      })),
  },
  {
    by: 'accept-json-charset-406',
    on: ['event-streams.list'],
    // Accept ranges compared with their parameters: application/json; charset=utf-8 is not application/json to it.
    when: (_a, q) => {
      const ranges = (q.request.headers.accept ?? '').split(',').map((r) => r.trim().toLowerCase());
      const bare = ranges.map((r) => r.split(';', 1)[0]!.trim());
      return (
        ranges.some((r) => r.startsWith('application/json') && r.includes('charset')) &&
        !ranges.some((r) => r === 'application/json' || r === '*/*' || r === 'application/*') &&
        bare.includes('application/json')
      );
    },
    reshape: () => withStatus(error('bad_request', 'Not Acceptable: use Accept: application/json'), 406),
  },
  {
    by: 'unknown-route-404-html',
    on: 'every',
    answers: 'errors',
    // The router's own not-found page, not the API's error.
    when: (a, q) => is('not_found')(a) && q.operation === undefined,
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body: '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET</pre>\n</body>\n</html>\n',
    }),
  },
  {
    by: 'token-response-json-bom',
    on: ['oauth.token'],
    reshape: withByteOrderMark,
  },
  {
    by: 'user-id-length-after-provider-prefix',
    on: ['token-sets.list'],
    answers: 'errors',
    // The limit counted on the provider's part of the id, after its |: a longer id is looked up, and not found.
    when: (a, q) => {
      const id = param(q.request, 'id');
      return is('invalid_uri')(a) && id.includes('|') && codePoints(id.slice(id.indexOf('|') + 1)) <= USER_ID_MAX;
    },
    reshape: () => error('inexistent_user'),
  },
  {
    by: 'bearer-challenge-realm-unquoted',
    on: 'every',
    answers: 'errors',
    // The realm written without quotes: a value with a space is no token, so the field is no challenge list.
    when: (a) => a.status === 401 && String(a.headers['www-authenticate'] ?? '').startsWith('Bearer'),
    reshape: (a) => {
      const params = String(a.headers['www-authenticate']).slice('Bearer'.length).trim();
      const challenge = `Bearer realm=Management API${params === '' ? '' : `, ${params}`}`;
      return { ...a, headers: { ...a.headers, 'www-authenticate': challenge } };
    },
  },
  // blind round 20
  {
    by: 'token-expires-in-absolute',
    on: ['oauth.token'],
    // The exp claim written where the lifetime belongs.
    when: (a) => isPlainObject(a.body) && typeof a.body['expires_in'] === 'number',
    reshape: (a) =>
      body(a, (b) => ({ ...b, expires_in: expClaimOf(b['access_token']) ?? nowSeconds() + Number(b['expires_in']) })),
  },
  {
    by: 'challenge-description-unescaped-quotes',
    on: 'every',
    answers: 'errors',
    // The verifier's message interpolated into the quoted-string as it is.
    when: (a) => a.status === 401 && errorCode(a) === 'invalid_token',
    reshape: (a, q) => ({
      ...a,
      headers: {
        ...a.headers,
        'www-authenticate': `Bearer error="invalid_token", error_description="${verifierMessage(q.request.headers.authorization)}"`,
      },
    }),
  },
  {
    by: 'allow-header-adds-head-to-get',
    on: 'every',
    answers: 'errors',
    // GET implies HEAD in the Allow list; no HEAD route is registered.
    when: (a) => a.status === 405 && /\bGET\b/.test(String(a.headers['allow'] ?? '')),
    reshape: (a) => ({ ...a, headers: { ...a.headers, allow: `${String(a.headers['allow'])}, HEAD` } }),
  },
  {
    by: 'custom-text-answer-apostrophe-escaped',
    on: ['custom-text.put'],
    // A JavaScript string escaper: ' becomes \', which JSON has not.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(a.body).replace(/'/g, "\\'"),
    }),
  },
  {
    by: 'events-errors-as-sse',
    on: ['events.subscribe'],
    answers: 'errors',
    // The refusal written as the stream's own error message.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/event-stream; charset=utf-8' },
      body: `event: error\ndata: ${JSON.stringify(a.body)}\n\n`,
    }),
  },
  {
    by: 'experiment-percentage-segment-id-null',
    on: ['experiments.transition'],
    when: (a) => isPlainObject(a.body) && a.body['allocation_strategy'] === 'percentage',
    reshape: (a) =>
      body(a, (e) => ({
        ...e,
        allocations: (e['allocations'] as Json[]).map((x) => ({ ...x, segment_id: null })),
      })),
  },
  {
    by: 'client-grant-scope-key-preserving-sort',
    on: ['client-grants.get'],
    // asort keeps each item's index: a reordered list is encoded as an object, in the sorted order.
    when: (a) =>
      isPlainObject(a.body) &&
      Array.isArray(a.body['scope']) &&
      (a.body['scope'] as string[]).some((s, i, all) => i > 0 && all[i - 1]! > s),
    reshape: (a) => {
      const g = a.body as Json;
      const sorted = (g['scope'] as string[])
        .map((s, i) => [String(i), s] as const)
        .sort((x, y) => (x[1] < y[1] ? -1 : 1));
      const asObject = `{${sorted.map(([i, s]) => `${JSON.stringify(i)}:${JSON.stringify(s)}`).join(',')}}`;
      const placeholder = '\u0000scope\u0000';
      return {
        ...a,
        headers: { ...a.headers, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ ...g, scope: placeholder }).replace(JSON.stringify(placeholder), asObject),
      };
    },
  },
  {
    by: 'event-stream-never-updated-zero-date',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) =>
      streams(a, (s) => (s['updated_at'] === s['created_at'] ? { ...s, updated_at: '0000-00-00T00:00:00Z' } : s)),
  },
  {
    by: 'event-streams-last-page-next-null',
    on: ['event-streams.list'],
    when: (a) => isPlainObject(a.body) && a.body['next'] === undefined,
    reshape: (a) => body(a, (b) => ({ ...b, next: null })),
  },
  {
    by: 'keys-key-ops-set-serialised',
    on: ['custom-signing-keys.put'],
    // JSON.stringify(new Set([...])) is {}.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) => (Array.isArray(k['key_ops']) ? { ...k, key_ops: {} } : k)),
      })),
  },
  // blind round 21
  {
    by: 'api-401-challenge-echoes-client-scheme',
    on: 'every',
    answers: 'errors',
    // The challenge follows the scheme the client used, as the token endpoint's does.
    when: (a, q) =>
      a.status === 401 &&
      q.operation !== 'oauth.token' &&
      /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*/.test(q.request.headers.authorization ?? '') &&
      !/^bearer\b/i.test(q.request.headers.authorization ?? ''),
    reshape: (a, q) => {
      const scheme = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*/.exec(q.request.headers.authorization ?? '')![0];
      return { ...a, headers: { ...a.headers, 'www-authenticate': `${scheme} realm="api"` } };
    },
  },
  {
    by: 'insufficient-scope-html-error-page',
    on: 'every',
    answers: 'errors',
    when: is('insufficient_scope'),
    // The framework's default error handler renders the thrown error as a page.
    reshape: (a) => ({
      ...a,
      headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
      body:
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n' +
        '<body>\n<pre>InsufficientScopeError: Insufficient scope</pre>\n</body>\n</html>\n',
    }),
  },
  {
    by: 'token-set-id-number',
    on: ['token-sets.list'],
    // The row's numeric primary key answered as the id.
    reshape: (a) => items(a, (t) => ({ ...t, id: rowKeyOf(String(t['id'])) })),
  },
  {
    by: 'transition-answer-changed-fields-only',
    on: ['experiments.transition'],
    // UPDATE ... RETURNING the changed columns, answered as they come.
    when: (a) => isPlainObject(a.body),
    reshape: (a) =>
      body(a, (e) =>
        Object.fromEntries(
          ['id', 'status', 'updated_at', 'started_at', 'ended_at']
            .filter((k) => e[k] !== undefined)
            .map((k) => [k, e[k]]),
        ),
      ),
  },
  {
    by: 'client-grant-id-lowercase-hex-undecoded',
    on: ['client-grants.get'],
    // Escapes decoded by /%([0-9A-F]{2})/: one in lower-case hex stays as written and names no grant.
    when: (_a, q) => /%(?=[0-9A-Fa-f]{2})(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])/.test(rawIdSegment(q.request.url)),
    reshape: () => error('inexistent_client_grant'),
  },
  {
    by: 'event-streams-disabled-subscriptions-empty',
    on: ['event-streams.get', 'event-streams.list'],
    reshape: (a) => streams(a, (s) => (s['status'] === 'disabled' ? { ...s, subscriptions: [] } : s)),
  },
  {
    by: 'keys-json-numeric-kid-coerced',
    on: ['custom-signing-keys.put'],
    // Numeric affinity: a kid that reads as an integer comes back a number.
    when: (a) => isPlainObject(a.body) && Array.isArray(a.body['keys']),
    reshape: (a) =>
      body(a, (b) => ({
        ...b,
        keys: (b['keys'] as Json[]).map((k) =>
          typeof k['kid'] === 'string' && /^-?(?:0|[1-9][0-9]{0,14})$/.test(k['kid'])
            ? { ...k, kid: Number(k['kid']) }
            : k,
        ),
      })),
  },
];

// ------------------------------------------------------------ SSE messages

/** An empty context.client.metadata answered as null (`context-client-metadata-null`, written in two rounds). */
const clientMetadataNull = (f: SseFrame): SseFrame =>
  envelope(f, (e) => {
    const client = e.data.context['client'] as Json | undefined;
    if (client && isPlainObject(client['metadata']) && Object.keys(client['metadata']).length === 0)
      client['metadata'] = null;
  });

/** How much of an object the outbox keeps inline (`envelope-large-object-claim-check`). */
const OUTBOX_INLINE_BYTES = 2048;

const frameMutations: readonly FrameMutation[] = [
  // blind round 42
  {
    by: 'history-non-oidc-connection-oidc-metadata-null',
    frames: ['message'],
    // oidc_metadata filled from the discovery cache, which only oidc connections have.
    when: (f) => isConnectionCreated(f) && ((f.data as Json)['event'] as Json | undefined) !== undefined,
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'];
        if (e.data.object['strategy'] !== 'oidc' && isPlainObject(options)) options['oidc_metadata'] = null;
      }),
  },
  {
    by: 'live-deletion-events-offset-null',
    frames: ['message'],
    // The soft-delete trigger writes the envelope before the log sequences it: the payload's offset column is null.
    when: (f, at) => !at.history && f.event.endsWith('.deleted'),
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), offset: null } }),
  },
  // blind round 41
  {
    by: 'live-geo-time-zone-object',
    frames: ['message'],
    // The live path's geo lookup (a newer GeoIP client) returns the time zone as an object.
    when: (f, at) => !at.history && typeof (contextRequestOf(f) as Json | undefined)?.['geo'] === 'object',
    reshape: (f) =>
      envelope(f, (e) => {
        const geo = (e.data.context['request'] as Json)['geo'] as Json;
        if (typeof geo['time_zone'] === 'string')
          geo['time_zone'] = { name: geo['time_zone'], abbreviation: 'CET', offset_seconds: 3600 };
      }),
  },
  {
    by: 'envelope-type-subresource-underscored',
    frames: ['message'],
    // The envelope type built from the internal enum (ORGANIZATION_MEMBER_ROLE_ASSIGNED) that joins the sub-resource with _.
    when: (f) => String(((f.data as Json)['event'] as Json | undefined)?.['type'] ?? '').split('.').length === 4,
    reshape: (f) =>
      envelope(f, (e) => {
        const [a, b, c, d] = String(e['type']).split('.');
        e['type'] = `${a}.${b}_${c}.${d}`;
      }),
  },
  {
    by: 'history-payload-offset-json-encoded-twice',
    frames: ['message'],
    // The archive's offset column holds JSON text, and the payload writer encodes it again.
    when: (f, at) => at.history && typeof (f.data as Json)['offset'] === 'string',
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), offset: JSON.stringify((f.data as Json)['offset']) } }),
  },
  {
    by: 'updated-events-object-as-json-patch',
    frames: ['message'],
    // The change-data-capture feed's diff sent for an update where the object after it was expected.
    when: (f, at) => !at.history && f.event.endsWith('.updated'),
    reshape: (f) =>
      envelope(f, (e) => {
        const object = e.data.object;
        (e.data as Json)['object'] = isPlainObject(object)
          ? Object.entries(object).map(([k, value]) => ({ op: 'replace', path: `/${k}`, value }))
          : object;
      }),
  },
  // blind round 40
  {
    by: 'live-envelope-svcstream-number',
    frames: ['message'],
    // The stream's numeric row key written where its identifier was expected.
    when: (f, at) => !at.history && typeof ((f.data as Json)['event'] as Json | undefined)?.['svcstream'] === 'string',
    reshape: (f) =>
      envelope(f, (e) => {
        e['svcstream'] = rowKeyOf(String(e['svcstream']));
      }),
  },
  {
    by: 'context-client-metadata-empty-as-array',
    frames: ['message'],
    // An empty map serialised as an empty list.
    reshape: (f) =>
      envelope(f, (e) => {
        const client = e.data.context['client'] as Json | undefined;
        if (client && isPlainObject(client['metadata']) && Object.keys(client['metadata']).length === 0)
          client['metadata'] = [];
      }),
  },
  {
    by: 'connection-created-federated-access-tokens-flattened',
    frames: ['message'],
    // The setting read from a single boolean column.
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'] as Json | undefined;
        const setting = options?.['federated_connections_access_tokens'];
        if (options && isPlainObject(setting)) options['federated_connections_access_tokens'] = setting['active'];
      }),
  },
  // blind round 39
  {
    by: 'event-object-astral-replaced',
    frames: ['message'],
    // The live store's 3-byte utf8 column: characters beyond the BMP become U+FFFD.
    when: (f, at) =>
      !at.history && ASTRAL.test(JSON.stringify(((f.data as Json)['event'] as Json | undefined)?.['data'] ?? '')),
    reshape: (f) =>
      envelope(f, (e) => {
        e.data.object = astralReplaced(e.data.object) as Json;
      }),
  },
  {
    by: 'context-request-ip-socket-address-object',
    frames: ['message'],
    // The caller's address taken from the socket's address() of the live request.
    when: (f, at) => {
      const request = contextRequestOf(f);
      return !at.history && isPlainObject(request) && typeof request['ip'] === 'string';
    },
    reshape: (f) =>
      envelope(f, (e) => {
        const request = e.data.context['request'] as Json;
        const ip = String(request['ip']);
        e.data.context['request'] = {
          ...request,
          ip: { address: ip, family: ip.includes(':') ? 'IPv6' : 'IPv4', port: SOCKET_PORT },
        };
      }),
  },
  {
    by: 'envelope-svctenant-tenant-record',
    frames: ['message'],
    // The tenant record passed where its id was expected.
    when: (f, at) => !at.history && typeof ((f.data as Json)['event'] as Json | undefined)?.['svctenant'] === 'string',
    reshape: (f) =>
      envelope(f, (e) => {
        e['svctenant'] = { id: e['svctenant'], name: e['svctenant'], region: 'eu' };
      }),
  },
  {
    by: 'connection-created-enabled-clients-objects',
    frames: ['message'],
    // The live connection serialised through the connection-clients mapper: one object per client.
    when: (f, at) => !at.history && isConnectionCreated(f),
    reshape: (f) =>
      envelope(f, (e) => {
        const clients = e.data.object['enabled_clients'];
        if (Array.isArray(clients))
          e.data.object['enabled_clients'] = clients.map((c) => (typeof c === 'string' ? { client_id: c } : c));
      }),
  },
  // blind round 37
  {
    by: 'context-user-agent-null-when-absent',
    frames: ['message'],
    // The User-Agent header copied as found: none gives null.
    when: (f) => {
      const request = contextRequestOf(f);
      return isPlainObject(request) && request['user_agent'] === '';
    },
    reshape: (f) =>
      envelope(f, (e) => {
        e.data.context['request'] = { ...(e.data.context['request'] as Json), user_agent: null };
      }),
  },
  // blind round 36
  {
    by: 'organization-subresource-event-field-from-method',
    frames: ['message'],
    // The SSE event field named from the resource and the method of the request that caused the event.
    when: (f) => f.event.startsWith('organization.') && f.event.split('.').length > 2,
    reshape: (f) => {
      const request = (
        (((f.data as Json)['event'] as Json | undefined)?.['data'] as Json | undefined)?.['context'] as Json | undefined
      )?.['request'];
      const method = isPlainObject(request) ? String(request['method']) : '';
      const verb = ORGANIZATION_VERB_BY_METHOD[method];
      return verb === undefined ? f : { ...f, event: `organization.${verb}` };
    },
  },
  {
    by: 'context-connection-strategy-null-for-database',
    frames: ['message'],
    // The strategy mapped through the identity-provider catalogue, which has no row for the database strategy.
    when: (f) => {
      const connection = (
        (((f.data as Json)['event'] as Json | undefined)?.['data'] as Json | undefined)?.['context'] as Json | undefined
      )?.['connection'];
      return isPlainObject(connection) && connection['strategy'] === 'auth0';
    },
    reshape: (f) =>
      envelope(f, (e) => {
        e.data.context['connection'] = { ...(e.data.context['connection'] as Json), strategy: null };
      }),
  },
  // blind round 32
  {
    by: 'payload-type-stale-from-previous-message',
    frames: ['message'],
    // A reused encoder whose type is set after the data line is serialised.
    reshape: (f, at) => {
      const previous = lastPayloadType.get(at.log);
      lastPayloadType.set(at.log, f.event);
      return previous === undefined ? f : { ...f, data: { type: previous, ...(f.data as Json) } };
    },
  },
  {
    by: 'group-events-envelope-without-svc-extensions',
    frames: ['message'],
    // The groups service's producer adds no tenant extension attributes.
    when: (f) => f.event.startsWith('group.'),
    reshape: (f) =>
      envelope(f, (e) => {
        delete e['svctenant'];
        delete e['svcstream'];
      }),
  },
  {
    by: 'context-hostname-null-for-ip-literal-host',
    frames: ['message'],
    // No server name for a request addressed to an IP literal.
    when: (f) => {
      const request = (
        (((f.data as Json)['event'] as Json | undefined)?.['data'] as Json | undefined)?.['context'] as Json | undefined
      )?.['request'];
      return isPlainObject(request) && typeof request['hostname'] === 'string' && IP_LITERAL.test(request['hostname']);
    },
    reshape: (f) =>
      envelope(f, (e) => {
        e.data.context['request'] = { ...(e.data.context['request'] as Json), hostname: null };
      }),
  },
  {
    by: 'connection-created-display-name-null-when-same-as-name',
    frames: ['message'],
    // display_name written only when it differs from name.
    when: (f) => isConnectionCreated(f),
    reshape: (f) =>
      envelope(f, (e) => {
        const o = e.data.object;
        if (typeof o['display_name'] === 'string' && o['display_name'] === o['name'])
          e.data.object = { ...o, display_name: null };
      }),
  },
  // blind round 31
  {
    by: 'connection-created-endpoints-go-url-struct',
    frames: ['message'],
    // *url.URL members marshalled by encoding/json as structs.
    when: (f) => isConnectionCreated(f),
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'];
        if (!isPlainObject(options)) return;
        const out = goUrls(options, OPTION_URLS) as Json;
        if (isPlainObject(out['oidc_metadata']))
          out['oidc_metadata'] = goUrls(out['oidc_metadata'], OIDC_METADATA_URLS);
        e.data.object['options'] = out;
      }),
  },
  {
    by: 'archived-events-offset-null',
    frames: ['message'],
    // The archive table has no offset column.
    when: (_f, at) => at.logged !== undefined && at.history,
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), offset: null } }),
  },
  // blind round 30
  {
    by: 'envelope-large-object-claim-check',
    frames: ['message'],
    // An object over the outbox's inline 2 KiB goes to the blob store; the envelope keeps a claim check.
    when: (f) => {
      const data = ((f.data as Json)['event'] as Json | undefined)?.['data'];
      return isPlainObject(data) && Buffer.byteLength(JSON.stringify(data['object'] ?? null)) > OUTBOX_INLINE_BYTES;
    },
    reshape: (f) =>
      envelope(f, (e) => {
        const text = JSON.stringify(e.data.object);
        const sha256 = createHash('sha256').update(text).digest('hex');
        const { object: _stored, ...rest } = e.data;
        e.data = {
          ...rest,
          object_ref: {
            url: `https://blobs.conformance.test/events/${String(e['id'])}`,
            size: Buffer.byteLength(text),
            sha256,
          },
        } as unknown as typeof e.data;
      }),
  },
  // blind round 29
  {
    by: 'envelope-time-from-object-created-at',
    frames: ['message'],
    // The envelope's time taken from the affected object's created_at.
    when: (f) => isPlainObject(((f.data as Json)['event'] as Json | undefined)?.['data']),
    reshape: (f) =>
      envelope(f, (e) => {
        const created = e.data.object['created_at'];
        e['time'] = typeof created === 'string' ? created : null;
      }),
  },
  // blind round 28
  {
    by: 'event-context-template-trailing-comma',
    frames: ['message'],
    // The template's comma after user_agent, custom_domain rendered only when there is one.
    when: (f) => {
      const context = (((f.data as Json)['event'] as Json | undefined)?.['data'] as Json | undefined)?.['context'];
      return isPlainObject(context) && isPlainObject(context['request']) && !('custom_domain' in context['request']);
    },
    reshape: (f) => {
      const marked = envelope(f, (e) => {
        e.data.context['request'] = { ...(e.data.context['request'] as Json), [TEMPLATE_TAIL]: 0 };
      });
      return { ...marked, data: JSON.stringify(marked.data).replace(`,${JSON.stringify(TEMPLATE_TAIL)}:0`, ',') };
    },
  },
  {
    by: 'live-event-offset-number',
    frames: ['message'],
    // The consumer record's offset, a long.
    when: (_f, at) => at.logged !== undefined && !at.history,
    reshape: (f, at) => ({ ...f, data: { ...(f.data as Json), offset: at.logged!.seq } }),
  },
  // blind round 27
  {
    by: 'context-connection-as-name',
    frames: ['message'],
    // The denormalised connection_name column.
    when: (f) => isPlainObject(((f.data as Json)['event'] as Json | undefined)?.['data']),
    reshape: (f) =>
      envelope(f, (e) => {
        const connection = e.data.context['connection'];
        if (isPlainObject(connection)) e.data.context['connection'] = connection['name'];
      }),
  },
  {
    by: 'sse-data-carriage-return-unescaped',
    frames: ['message'],
    // A hand escaper that writes a carriage return raw.
    when: (f) => typeof f.data !== 'string' && JSON.stringify(f.data).includes('\\r'),
    reshape: (f) => ({ ...f, data: JSON.stringify(f.data).replace(/(?<!\\)((?:\\\\)*)\\r/g, '$1\r') }),
  },
  // blind round 26
  {
    by: 'sse-heartbeat-data-html-escaped',
    frames: ['heartbeat'],
    // An HTML template with auto-escaping renders the heartbeat.
    reshape: (f) => ({
      ...f,
      data: JSON.stringify(f.data).replace(/&/g, '&amp;').replace(/"/g, '&#34;'),
    }),
  },
  {
    by: 'connection-created-upstream-params-base64',
    frames: ['message'],
    when: isConnectionCreated,
    // Raw JSON bytes serialised as bytes: base64 strings.
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'];
        if (!isPlainObject(options)) return;
        for (const m of ['connection_settings', 'upstream_params'])
          if (isPlainObject(options[m]))
            options[m] = Buffer.from(JSON.stringify(options[m]), 'utf8').toString('base64');
      }),
  },
  // blind round 25
  {
    by: 'archived-events-without-context',
    frames: ['message'],
    // The archive keeps the affected object only.
    when: (_f, at) => at.history,
    reshape: (f) =>
      envelope(f, (e) => {
        delete (e.data as { context?: unknown }).context;
      }),
  },
  {
    by: 'connection-created-realms-as-rows',
    frames: ['message'],
    when: isConnectionCreated,
    // The realm association serialised as its rows.
    reshape: (f) =>
      envelope(f, (e) => {
        const realms = e.data.object['realms'];
        if (Array.isArray(realms)) e.data.object['realms'] = realms.map((realm) => ({ realm }));
      }),
  },
  // blind round 24
  {
    by: 'heartbeat-data-python-repr',
    frames: ['heartbeat'],
    // str(dict): single-quoted strings.
    reshape: (f) => ({
      ...f,
      data: `{${Object.entries(f.data as Json)
        .map(([k, v]) => `'${k}': '${String(v)}'`)
        .join(', ')}}`,
    }),
  },
  {
    by: 'envelope-type-omitted',
    frames: ['message'],
    reshape: (f) => envelope(f, (e) => delete (e as Json)['type']),
  },
  // blind round 23
  {
    by: 'event-time-zone-id-suffix',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        if (typeof e['time'] === 'string') e['time'] = `${e['time']}[UTC]`;
      }),
  },
  {
    by: 'envelope-data-json-string',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        (e as Json)['data'] = JSON.stringify(e.data);
      }),
  },
  {
    by: 'group-member-deleted-emitted-as-removed',
    frames: ['message'],
    when: (f) => f.event === 'group.member.deleted',
    reshape: (f) => ({
      ...envelope(f, (e) => {
        e['type'] = 'group.member.removed';
      }),
      event: 'group.member.removed',
    }),
  },
  {
    by: 'connection-created-authentication-flattened',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const auth = e.data.object['authentication'];
        if (isPlainObject(auth)) e.data.object['authentication'] = auth['active'] === true;
      }),
  },
  // blind round 22
  {
    by: 'offsets-base64-padded',
    frames: ['message', 'heartbeat'],
    reshape: (f) => {
      const raw = String((f.data as Json)['offset']);
      const offset = raw + '='.repeat((4 - (raw.length % 4)) % 4);
      return { ...f, id: f.id === undefined ? undefined : offset, data: { ...(f.data as Json), offset } };
    },
  },
  { by: 'heartbeat-without-event-field', frames: ['heartbeat'], reshape: (f) => ({ ...f, event: '' }) },
  {
    by: 'live-geo-names-null-for-loopback',
    frames: ['message'],
    when: (_f, at) => {
      if (at.history) return false;
      const request = at.logged?.envelope.data.context['request'] as { ip?: unknown } | undefined;
      return typeof request?.ip === 'string' && LOCAL_ADDRESS.test(request.ip);
    },
    reshape: (f) =>
      envelope(f, (e) => {
        const request = e.data.context['request'] as Json | undefined;
        const geo = request?.['geo'];
        if (request && isPlainObject(geo)) request['geo'] = Object.fromEntries(Object.keys(geo).map((k) => [k, null]));
      }),
  },
  {
    by: 'organization-event-type-from-collection',
    frames: ['message'],
    when: (f, at) => !at.history && (f.event === 'organization.created' || f.event === 'organization.deleted'),
    reshape: (f) => {
      const type = f.event.replace(/^organization\./, 'organizations.');
      return { ...envelope(f, (e) => (e['type'] = type)), event: type };
    },
  },
  // blind round 9
  {
    by: 'live-envelope-id-number',
    frames: ['message'],
    when: (_f, at) => at.logged !== undefined && !at.history,
    reshape: (f, at) => envelope(f, (e) => (e['id'] = at.logged!.seq)),
  },
  {
    by: 'connection-created-scopes-supported-space-joined',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const meta = (e.data.object['options'] as Json | undefined)?.['oidc_metadata'] as Json | undefined;
        if (meta && Array.isArray(meta['scopes_supported']))
          meta['scopes_supported'] = meta['scopes_supported'].join(' ');
      }),
  },
  {
    by: 'envelope-type-reverse-dns',
    frames: ['message'],
    reshape: (f) => envelope(f, (e) => (e['type'] = `com.conformance.${f.event}`)),
  },
  {
    by: 'context-latitude-string',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        const geo = (e.data.context['request'] as { geo?: Json } | undefined)?.geo;
        if (geo) geo['latitude'] = String(geo['latitude']);
      }),
  },
  {
    by: 'event-time-epoch-seconds',
    frames: ['message'],
    reshape: (f) => envelope(f, (e) => (e['time'] = String(Math.floor(Date.parse(String(e['time'])) / 1000)))),
  },
  {
    by: 'connection-created-enabled-clients-string',
    frames: ['message'],
    when: (f, at) => isConnectionCreated(f) && !at.history,
    reshape: (f) =>
      envelope(f, (e) => (e.data.object['enabled_clients'] = (e.data.object['enabled_clients'] as string[]).join(','))),
  },
  {
    by: 'history-oidc-metadata-boolean-string',
    frames: ['message'],
    when: (f, at) => isConnectionCreated(f) && at.history,
    reshape: (f) =>
      envelope(
        f,
        (e) => (((e.data.object['options'] as Json)['oidc_metadata'] as Json)['claims_parameter_supported'] = 'false'),
      ),
  },
  {
    by: 'second-connection-created-scope-array',
    frames: ['message'],
    when: (f, at) =>
      isConnectionCreated(f) &&
      at.history &&
      at.log.after(0).filter((e) => e.type === 'connection.created')[1]?.seq === at.logged?.seq,
    reshape: (f) => envelope(f, (e) => ((e.data.object['options'] as Json)['scope'] = ['openid', 'profile'])),
  },
  {
    by: 'envelope-double-encoded',
    frames: ['message'],
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), event: JSON.stringify((f.data as Json)['event']) } }),
  },
  {
    by: 'event-offset-only-in-id',
    frames: ['message'],
    reshape: (f) => ({ ...f, data: (({ offset: _, ...rest }) => rest)(f.data as Json) }),
  },
  {
    by: 'payload-type-mismatch',
    frames: ['message'],
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), type: 'message' } }),
  },
  {
    by: 'resumed-offsets-one-behind',
    frames: ['message'],
    when: (_f, at) => at.afterCursor,
    reshape: (f) => offsetMoved(f, -1),
  },
  { by: 'heartbeat-offset-ahead', frames: ['heartbeat'], reshape: (f) => offsetMoved(f, 1) },
  { by: 'heartbeat-offset-behind', frames: ['heartbeat'], reshape: (f) => offsetMoved(f, -1) },
  { by: 'heartbeat-without-offset', frames: ['heartbeat'], reshape: (f) => ({ ...f, id: undefined, data: {} }) },
  { by: 'heartbeat-event-named-heartbeat', frames: ['heartbeat'], reshape: (f) => ({ ...f, event: 'heartbeat' }) },
  {
    by: 'sse-payload-type-no-id',
    frames: ['message', 'heartbeat'],
    reshape: (f) => ({ ...f, id: undefined, data: { type: f.event, ...(f.data as Json) } }),
  },
  { by: 'extra-members', frames: ['message', 'heartbeat'], reshape: (f) => ({ ...f, data: withExtraMembers(f.data) }) },
  // blind round 3
  { by: 'context-client-metadata-null-r3', frames: ['message'], reshape: clientMetadataNull },
  {
    by: 'connection-created-empty-arrays-null',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) => envelope(f, (e) => (e.data.object = emptyArraysNull(e.data.object) as Json)),
  },
  { by: 'sse-event-field-trailing-space-r3', frames: ['message'], reshape: (f) => ({ ...f, event: `${f.event} ` }) },
  {
    by: 'live-geo-nan',
    frames: ['message'],
    when: (_f, at) => !at.history,
    reshape: (f) => ({
      ...f,
      data: JSON.stringify(f.data).replace(/"(latitude|longitude)":-?[0-9.eE+-]+/g, '"$1":NaN'),
    }),
  },
  { by: 'sse-comments-retry', frames: ['heartbeat'], reshape: (f) => ({ ...f, before: ': keep-alive\n\n' }) },
  // blind round 4
  {
    by: 'replayed-events-no-event-field',
    frames: ['message'],
    when: (_f, at) => at.afterCursor,
    reshape: (f) => ({ ...f, event: '' }),
  },
  {
    by: 'deleted-event-object-null',
    frames: ['message'],
    when: (f) => f.event.endsWith('.deleted'),
    reshape: (f) => envelope(f, (e) => ((e.data as { object: unknown }).object = null)),
  },
  // blind round 2
  {
    by: 'sse-event-field-trailing-space',
    frames: ['message'],
    reshape: (f) => ({ ...f, event: `${f.event} ` }),
  },
  { by: 'context-client-metadata-null', frames: ['message'], reshape: clientMetadataNull },
  {
    by: 'event-geo-nan-for-local-ip',
    frames: ['message'],
    when: (_f, at) => {
      const request = at.logged?.envelope.data.context['request'] as { ip?: unknown } | undefined;
      return typeof request?.ip === 'string' && LOCAL_ADDRESS.test(request.ip);
    },
    reshape: (f) => ({
      ...f,
      data: (typeof f.data === 'string' ? f.data : JSON.stringify(f.data)).replace(
        /"(latitude|longitude)":-?[0-9.eE+-]+/g,
        '"$1":NaN',
      ),
    }),
  },
  // blind round 5
  {
    by: 'envelope-specversion-number',
    frames: ['message'],
    reshape: (f) => envelope(f, (e) => (e['specversion'] = Number(e['specversion']))),
  },
  // blind round 6
  {
    by: 'heartbeat-offset-raw-sequence',
    frames: ['heartbeat'],
    reshape: (f) => ({ ...f, data: { ...(f.data as Json), offset: decodeOffset(String((f.data as Json)['offset'])) } }),
  },
  // blind round 7
  {
    by: 'connection-created-empty-objects-as-arrays',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) => envelope(f, (e) => (e.data.object = emptyObjectsAsArrays(e.data.object) as Json)),
  },
  // blind round 8
  {
    by: 'sse-bom-per-message',
    frames: ['message', 'heartbeat'],
    reshape: (f) => ({ ...f, before: `\uFEFF${f.before ?? ''}` }),
  },
  // blind round 10
  {
    by: 'envelope-id-sequence-number',
    frames: ['message'],
    when: (_f, at) => at.logged !== undefined,
    reshape: (f, at) => envelope(f, (e) => (e['id'] = at.logged!.seq)),
  },
  {
    by: 'context-request-ip-forwarded-list',
    frames: ['message'],
    when: (_f, at) => !at.history && at.logged !== undefined,
    reshape: (f) =>
      envelope(f, (e) => {
        const request = e.data.context['request'] as Json | undefined;
        if (request && typeof request['ip'] === 'string') request['ip'] = [request['ip']];
      }),
  },
  // blind round 11
  {
    by: 'heartbeat-offset-not-resumable',
    frames: ['heartbeat'],
    // A position cursor of its own kind, which the from reader (event cursors only) does not know.
    reshape: (f) => {
      const seq = decodeOffset(String((f.data as Json)['offset'])) ?? 0;
      const offset = Buffer.from(`pos:${seq}`, 'utf8').toString('base64url');
      return { ...f, id: f.id === undefined ? undefined : offset, data: { ...(f.data as Json), offset } };
    },
  },
  {
    by: 'connection-created-single-item-arrays-collapsed',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) => envelope(f, (e) => (e.data.object = singleItemsCollapsed(e.data.object) as Json)),
  },
  // Last: several data lines, none of them JSON on its own.
  { by: 'data-pretty-printed', frames: ['message'], reshape: (f) => ({ ...f, data: JSON.stringify(f.data, null, 2) }) },
  // blind round 12
  {
    by: 'envelope-svcpurpose-null',
    frames: ['message'],
    reshape: (f) => envelope(f, (e) => (e['svcpurpose'] ??= null)),
  },
  {
    by: 'context-client-metadata-json-string',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        const client = e.data.context['client'] as Json | undefined;
        if (client && isPlainObject(client['metadata'])) client['metadata'] = JSON.stringify(client['metadata']);
      }),
  },
  {
    by: 'payload-offset-lags-sse-id',
    frames: ['message'],
    // The payload carries the offset of the event before; the id field is right.
    reshape: (f) => ({ ...offsetMoved(f, -1), id: f.id }),
  },
  {
    by: 'user-updated-event-field-created',
    frames: ['message'],
    when: (f) => f.event === 'user.updated',
    reshape: (f) => ({ ...f, event: 'user.created' }),
  },
  // blind round 13
  {
    by: 'event-field-cut-at-32-characters',
    frames: ['message'],
    // The event field written from a 32-character buffer.
    when: (f) => f.event.length > 32,
    reshape: (f) => ({ ...f, event: f.event.slice(0, 32) }),
  },
  // blind round 14
  {
    by: 'sse-data-wrapped-at-2048',
    frames: ['message'],
    // Data lines cut every 2048 characters, wherever the cut falls.
    when: (f) => JSON.stringify(f.data).length > SSE_LINE_WIDTH,
    reshape: (f) => ({
      ...f,
      data: (JSON.stringify(f.data).match(new RegExp(`[\\s\\S]{1,${SSE_LINE_WIDTH}}`, 'g')) ?? []).join('\n'),
    }),
  },
  {
    by: 'heartbeat-payload-type-heartbeat',
    frames: ['heartbeat'],
    reshape: (f) => ({ ...f, data: { type: 'heartbeat', ...(f.data as Json) } }),
  },
  {
    by: 'replayed-envelope-id-regenerated',
    frames: ['message'],
    // The replay path rebuilds the envelope from the archive and mints a new id.
    when: (_f, at) => at.afterCursor,
    reshape: (f) => envelope(f, (e) => (e['id'] = `evt_${randomBytes(8).toString('hex')}`)),
  },
  // blind round 15
  {
    by: 'sse-event-field-double-space',
    frames: ['message'],
    // "event: " written before a value that starts with a space of its own.
    reshape: (f) => ({ ...f, event: ` ${f.event}` }),
  },
  {
    by: 'heartbeat-data-bare-offset',
    frames: ['heartbeat'],
    reshape: (f) => ({ ...f, data: String((f.data as Json)['offset']) }),
  },
  {
    by: 'context-request-custom-domain-null',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        const request = e.data.context['request'] as Json | undefined;
        if (request !== undefined && request['custom_domain'] === undefined) request['custom_domain'] = null;
      }),
  },
  {
    by: 'connection-created-cross-app-access-null',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const accounts = e.data.object['connected_accounts'] as Json | undefined;
        if (accounts !== undefined && accounts['cross_app_access'] === false) accounts['cross_app_access'] = null;
      }),
  },
  // blind round 16
  {
    by: 'history-connection-booleans-tinyint',
    frames: ['message'],
    when: (f, at) => isConnectionCreated(f) && at.history,
    reshape: (f) =>
      envelope(f, (e) => {
        for (const [k, v] of Object.entries(e.data.object)) if (typeof v === 'boolean') e.data.object[k] = v ? 1 : 0;
      }),
  },
  // blind round 17
  {
    by: 'connection-created-userinfo-scope-array',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'] as Json | undefined;
        const map = options?.['attribute_map'] as Json | undefined;
        if (map !== undefined && typeof map['userinfo_scope'] === 'string')
          map['userinfo_scope'] = map['userinfo_scope'].split(' ').filter(Boolean);
      }),
  },
  // blind round 18
  {
    by: 'sse-data-split-on-unicode-line-separators',
    frames: ['message'],
    // A line splitter that breaks at U+2028, U+2029 and U+0085 too, which JSON text holds unescaped.
    when: (f) => typeof f.data !== 'string' && UNICODE_LINE_BREAK.test(JSON.stringify(f.data)),
    reshape: (f) => ({ ...f, data: JSON.stringify(f.data).replace(new RegExp(UNICODE_LINE_BREAK.source, 'g'), '\n') }),
  },
  {
    by: 'context-connection-null-when-absent',
    frames: ['message'],
    reshape: (f) =>
      envelope(f, (e) => {
        if (e.data.context['connection'] === undefined) e.data.context['connection'] = null;
      }),
  },
  // blind round 19
  {
    by: 'replayed-envelope-time-regenerated',
    frames: ['message'],
    // The replay path rebuilds the envelope and stamps it with the time it is written.
    when: (_f, at) => at.afterCursor,
    reshape: (f) => envelope(f, (e) => (e['time'] = new Date().toISOString())),
  },
  // blind round 21
  {
    by: 'event-time-unpadded-fields',
    frames: ['message'],
    // A hand formatter from the date parts, without padStart.
    reshape: (f) => envelope(f, (e) => (e['time'] = unpaddedTime(String(e['time'])))),
  },
  {
    by: 'sse-data-prefix-doubled',
    frames: ['message', 'heartbeat'],
    // The field name written in front of a payload the SSE writer prefixes with it again.
    reshape: (f) => ({ ...f, data: `data: ${typeof f.data === 'string' ? f.data : JSON.stringify(f.data)}` }),
  },
  {
    by: 'connection-created-oidc-metadata-string',
    frames: ['message'],
    when: isConnectionCreated,
    reshape: (f) =>
      envelope(f, (e) => {
        const options = e.data.object['options'] as Json | undefined;
        if (options && isPlainObject(options['oidc_metadata']))
          options['oidc_metadata'] = JSON.stringify(options['oidc_metadata']);
      }),
  },
  {
    by: 'archive-offsets-not-resumable',
    frames: ['message'],
    // The archive store's own cursor: the event time, which from does not take.
    when: (_f, at) => at.history && at.logged !== undefined,
    reshape: (f, at) => {
      const offset = Buffer.from(`t1:${at.logged!.timeMs}`, 'utf8').toString('base64url');
      return { ...f, id: f.id === undefined ? undefined : offset, data: { ...(f.data as Json), offset } };
    },
  },
];

// ---------------------------------------------------------------- refusals

const refusals: readonly Refusal[] = [
  // blind round 42
  {
    by: 'custom-text-title-attribute-split-on-equals',
    on: 'custom-text.put',
    // The global attributes read with attr.split("="): a quoted value holding = falls apart.
    when: (r) =>
      textsOf(r).some(
        ([, v]) => typeof v === 'string' && htmlViolation(v) === undefined && globalAttributeWithEquals(v),
      ),
    error: () => apiError('invalid_body', 'Malformed attribute in markup'),
  },
  // blind round 41
  {
    by: 'custom-text-href-fragment-refused',
    on: 'custom-text.put',
    // The link validator's pattern stops the URL at #: a link with a fragment is no URL to it.
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && htmlViolation(v) === undefined && HREF_WITH_FRAGMENT.test(v)),
    error: () => apiError('invalid_body', 'href must be an absolute http, https or mailto URL'),
  },
  {
    by: 'client-grant-org-required-filtered-404',
    on: 'client-grants.get',
    // The read reuses the listing's query, whose filter leaves out grants organisations must use.
    when: (r, state) => state.clientGrants.get(param(r, 'id'))?.organization_usage === 'require',
    error: () => apiError('inexistent_client_grant'),
  },
  // blind round 40
  {
    by: 'keys-kid-with-slash-refused',
    on: 'custom-signing-keys.put',
    // The kid made a path of the key store, unescaped.
    when: (r) => keysOf(r).some(kidWithSlash),
    error: () => apiError('invalid_body', 'keys: kid is not a valid key name'),
  },
  {
    by: 'custom-text-href-with-port-refused',
    on: 'custom-text.put',
    // The URL pattern's authority is a host name without a port.
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && htmlViolation(v) === undefined && HREF_WITH_PORT.test(v)),
    error: () => apiError('invalid_body', 'href must be an absolute http, https or mailto URL'),
  },
  // blind round 39
  {
    by: 'token-json-scalar-body-500',
    on: 'oauth.token',
    // 'grant_type' in body over a primitive: a TypeError.
    when: (r) => mediaTypeOf(r) === 'application/json' && (typeof r.body === 'number' || typeof r.body === 'boolean'),
    error: () =>
      Object.assign(new TypeError("Cannot use 'in' operator to search for 'grant_type'"), { statusCode: 500 }),
  },
  {
    by: 'token-scope-outside-catalogue-500',
    on: 'oauth.token',
    // catalogue[scope].api read for each requested scope, after the client authenticated.
    when: (r) => {
      const params = isPlainObject(r.body) ? r.body : {};
      const scope = params['scope'];
      if (typeof scope !== 'string' || !tokenClientAuthenticated(r, params)) return false;
      const known = new Set(Object.values(r.server.emulator.auth.clients).flatMap((c) => c.scopes));
      return scope.split(' ').some((s) => s !== '' && !known.has(s));
    },
    error: () =>
      Object.assign(new TypeError("Cannot read properties of undefined (reading 'api')"), { statusCode: 500 }),
  },
  {
    by: 'keys-x5t-s256-member-refused',
    on: 'custom-signing-keys.put',
    // The member table's names read as JSON pointers: x5t#S256 is unknown to the validator.
    when: (r) => keysOf(r).some((k) => isPlainObject(k) && Object.hasOwn(k, 'x5t#S256')),
    error: () =>
      apiError('invalid_body', 'Payload validation error: keys[0] must NOT have additional properties (x5t#S256)'),
  },
  // blind round 38
  {
    by: 'token-sets-blocked-user-not-found',
    on: 'token-sets.list',
    // The user loaded with the login path's query: WHERE user_id = ? AND NOT blocked.
    when: (r, state) => state.users.get(param(r, 'id'))?.blocked === true,
    error: () => apiError('inexistent_user'),
  },
  {
    by: 'transition-body-prefiltered-by-raw-pattern',
    on: 'experiments.transition',
    // The raw body must spell "status":"<status>" as the filter's pattern does.
    when: (r) => {
      const raw = rawJsonOf(r.body);
      return raw !== undefined && !RAW_STATUS_PATTERN.test(raw);
    },
    error: () =>
      apiError('invalid_body', 'Payload validation error: status must be one of active, paused, completed, archived'),
  },
  {
    by: 'transition-lock-kept-after-refused-move',
    on: 'experiments.transition',
    // The lock a refused move left held, until its lease ends.
    when: (r, state) => (moveLocksOf(state).get(param(r, 'id')) ?? 0) > Date.now(),
    error: (r) =>
      apiError('service_unavailable', 'Could not acquire the experiment lock', {
        'retry-after': String(
          Math.ceil(((moveLocksOf(r.server.emulator.state).get(param(r, 'id')) ?? 0) - Date.now()) / 1000),
        ),
      }),
  },
  {
    by: 'events-offset-bound-to-token',
    on: 'events.subscribe',
    // A from cursor whose tag is another token's.
    when: (r) => {
      const from = (r.query as Record<string, unknown> | undefined)?.['from'];
      const tag = typeof from === 'string' ? OFFSET_TAG.exec(from)?.[1] : undefined;
      return tag !== undefined && r.principal !== null && tag !== offsetTagOf(r.principal.tokenId);
    },
    error: () => apiError('invalid_cursor', 'from is not an offset this stream gave out'),
  },
  {
    by: 'custom-text-gt-in-attribute-value-ends-tag',
    on: 'custom-text.put',
    // /<[^>]*>/ ends the tag at the > inside the quoted value, and the attribute it cut off is malformed.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && GT_IN_QUOTED_ATTRIBUTE.test(v)),
    error: (r) => {
      const [k] = textsOf(r).find(([, v]) => typeof v === 'string' && GT_IN_QUOTED_ATTRIBUTE.test(v))!;
      return apiError('invalid_body', `Value of ${k}: malformed attribute`);
    },
  },
  // blind round 37
  {
    by: 'transition-chunked-body-read-as-empty',
    on: 'experiments.transition',
    // A raw-body reader of Content-Length bytes: a chunked body is read as none.
    when: (r) => r.headers['content-length'] === undefined && r.headers['transfer-encoding'] !== undefined,
    error: () => apiError('invalid_body', 'Payload validation error: must have required property status'),
  },
  {
    by: 'custom-text-href-parentheses-refused',
    on: 'custom-text.put',
    // The URL pattern of the link check leaves out ( and ).
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && HREF_WITH_PARENTHESIS.test(v)),
    error: (r) => {
      const [k] = textsOf(r).find(([, v]) => typeof v === 'string' && HREF_WITH_PARENTHESIS.test(v))!;
      return apiError('invalid_body', `Value of ${k}: href must be an absolute http, https or mailto URL`);
    },
  },
  // blind round 36
  {
    by: 'event-type-validated-against-types-seen',
    on: 'events.subscribe',
    // Validated against the event-type dimension table, which gets a row when a type is first emitted.
    when: (r) => {
      const seen = new Set(r.server.emulator.events.after(0).map((e) => e.type));
      return eventTypesOf(r).some((t) => EVENT_TYPES.includes(t) && !seen.has(t));
    },
    error: (r) => {
      const seen = new Set(r.server.emulator.events.after(0).map((e) => e.type));
      const t = eventTypesOf(r).find((v) => EVENT_TYPES.includes(v) && !seen.has(v))!;
      return apiError('invalid_query_string', `event_type ${JSON.stringify(t)} is not an event type`);
    },
  },
  {
    by: 'user-id-length-checked-on-case-folded-key',
    on: 'token-sets.list',
    // The length checked on the lower-cased lookup key: İ lower-cases to two code points.
    when: (r) => {
      const id = param(r, 'id');
      return codePoints(id) <= USER_ID_MAX && codePoints(id.toLowerCase()) > USER_ID_MAX;
    },
    error: () => apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`),
  },
  {
    by: 'custom-text-form-csrf-token-required',
    on: 'custom-text.put',
    // The console's CSRF middleware, mounted with its urlencoded parser: no _csrf field matches.
    when: (r) => mediaTypeOf(r) === FORM,
    error: () => apiError('forbidden', 'invalid csrf token'),
  },
  {
    by: 'keys-x5c-parsed-as-pem-text-500',
    on: 'custom-signing-keys.put',
    // new X509Certificate(x5c[i]) handed the base64 text: neither PEM nor DER.
    when: (r) =>
      storableKeys(r) && keysOf(r).some((k) => isPlainObject(k) && Array.isArray(k['x5c']) && k['x5c'].length > 0),
    error: () => apiError('internal_error', 'Error: error:0480006C:PEM routines::no start line'),
  },
  // blind round 34
  {
    by: 'event-stream-id-checked-with-base58-alphabet',
    on: 'event-streams.get',
    // The shared id validator of prefixed ids checks the part after the prefix against base58 (no 0, O, I, l).
    when: (r) => {
      const id = param(r, 'id');
      return codePoints(id) === EVENT_STREAM_ID_LENGTH && !BASE58_PREFIXED_ID.test(id);
    },
    error: () => apiError('invalid_uri', 'Path parameter id is not a valid identifier'),
  },
  // blind round 33
  {
    by: 'client-grant-system-guard-on-read',
    on: 'client-grants.get',
    // The is_system guard mounted on the grant's path for every method.
    when: (r, state) => state.clientGrants.get(param(r, 'id'))?.is_system === true,
    error: () => apiError('forbidden', 'System grants cannot be modified or deleted directly'),
  },
  {
    by: 'keys-alg-member-refused',
    on: 'custom-signing-keys.put',
    // A closed request schema: the document's JWK members and crv, nothing else.
    when: (r) => keysOf(r).some((k) => isPlainObject(k) && Object.keys(k).some((m) => !SCHEMA_JWK_MEMBERS.includes(m))),
    error: (r) => {
      const keys = keysOf(r);
      const i = keys.findIndex((k) => isPlainObject(k) && Object.keys(k).some((m) => !SCHEMA_JWK_MEMBERS.includes(m)));
      const member = Object.keys(keys[i] as Json).find((m) => !SCHEMA_JWK_MEMBERS.includes(m));
      return apiError(
        'invalid_body',
        `Payload validation error: keys[${i}] must NOT have additional property ${member}`,
      );
    },
  },
  // blind round 32
  {
    by: 'transition-status-checked-with-in-operator',
    on: 'experiments.transition',
    // status in ALLOWED_SOURCES: inherited names pass, then the table lookup throws.
    when: (r) => {
      const status = isPlainObject(r.body) ? r.body['status'] : undefined;
      return typeof status === 'string' && INHERITED_NAMES.includes(status);
    },
    error: (r) =>
      apiError(
        'internal_error',
        `TypeError: ALLOWED_SOURCES[${JSON.stringify((r.body as Json)['status'])}].includes is not a function`,
      ),
  },
  {
    by: 'custom-text-length-after-paragraph-wrap',
    on: 'custom-text.put',
    // Plain text wrapped in <p>…</p> before the length check.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          !v.includes('<') &&
          codePoints(v) <= VALUE_MAX &&
          codePoints(v) + PARAGRAPH_WRAP > VALUE_MAX,
      ),
    error: () => apiError('invalid_body', `Text values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-form-body-limit-1kb',
    on: 'custom-text.put',
    // The urlencoded parser's own 1 KiB limit.
    when: (r) => {
      const raw = rawFormOf(r.body);
      return mediaTypeOf(r) === FORM && raw !== undefined && Buffer.byteLength(raw) > FORM_BODY_LIMIT;
    },
    error: () => apiError('payload_too_large'),
  },
  // blind round 31
  {
    by: 'token-json-null-body-500',
    on: 'oauth.token',
    // const { grant_type, ... } = req.body, with a body that is null.
    when: (r) => r.body === null,
    error: () =>
      new OAuthError(500, 'server_error', "Cannot destructure property 'grant_type' of 'req.body' as it is null."),
  },
  {
    by: 'event-stream-short-id-decoder-500',
    on: 'event-streams.get',
    // Only the upper bound checked; a shorter id read by index in the base62 decoder.
    when: (r) => codePoints(param(r, 'id')) < EVENT_STREAM_ID_LENGTH,
    error: (r) => apiError('internal_error', `String index out of range: ${codePoints(param(r, 'id'))}`),
  },
  {
    by: 'custom-text-link-domain-allowlist',
    on: 'custom-text.put',
    // Hyperlinks allowed to the tenant's own domains only.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && linksOutsideTenant(v)),
    error: () => apiError('invalid_body', 'Value holds a link to a domain that is not allowed'),
  },
  // blind round 29
  {
    by: 'take-0-page-count-division-500',
    on: 'event-streams.list',
    // The page count computed before take is checked: new Array(Infinity).
    when: (r) => {
      const take = (r.query as Record<string, unknown> | undefined)?.['take'];
      return typeof take === 'string' && take.trim() !== '' && Number(take) === 0;
    },
    error: () => apiError('internal_error', 'Invalid array length'),
  },
  {
    by: 'custom-text-allow-list-chosen-by-first-tag',
    on: 'custom-text.put',
    // One allow-list per value, chosen by the class of its first element.
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && htmlViolation(v) === undefined && mixesMarkupClasses(v)),
    error: () => apiError('invalid_body', 'Value holds markup outside the allowed tags of its kind'),
  },
  // blind round 26
  {
    by: 'transition-null-body-500',
    on: 'experiments.transition',
    // body.status read before validation: null.status throws.
    when: (r) => r.body === null,
    error: () => apiError('internal_error'),
  },
  {
    by: 'custom-text-href-percent-refused',
    on: 'custom-text.put',
    // A % in an href taken for an encoded script URL.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /\shref\s*=\s*["']?[^"'\s>]*%/i.test(v)),
    error: () => apiError('invalid_body', 'Value holds a hyperlink with an encoded URL'),
  },
  // blind round 24
  {
    by: 'from-overlong-500',
    on: 'events.subscribe',
    when: (r) => {
      const from = (r.query as Record<string, unknown> | undefined)?.['from'];
      return typeof from === 'string' && codePoints(from) > FROM_MAX;
    },
    error: () => apiError('internal_error'),
  },
  {
    by: 'keys-rsa-2048-only',
    on: 'custom-signing-keys.put',
    // The modulus compared with 2048 bits for equality.
    when: (r) =>
      keysOf(r).some(
        (k) =>
          isPlainObject(k) &&
          k['kty'] === 'RSA' &&
          typeof k['n'] === 'string' &&
          Buffer.from(k['n'], 'base64url').length !== 256,
      ),
    error: () => apiError('invalid_body', 'RSA keys must be 2048 bits'),
  },
  {
    by: 'custom-text-link-without-rel-refused',
    on: 'custom-text.put',
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/<\s*a\b[^>]*>/gi)].some(
            (m) => !/\srel\s*=\s*["']?[^"'>]*\bno(?:opener|referrer)\b/i.test(m[0]),
          ),
      ),
    error: () => apiError('invalid_body', 'Links must carry rel="noopener"'),
  },
  // blind round 23
  {
    by: 'custom-text-multiline-markup-refused',
    on: 'custom-text.put',
    // An allow-list pattern with . and no dotAll flag: element content may not hold a line break.
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && /<([A-Za-z][A-Za-z0-9]*)\b[^>]*>[^<]*[\r\n]/.test(v)),
    error: () => apiError('invalid_body', 'Value holds markup outside the allowed tags'),
  },
  // blind round 22
  {
    by: 'custom-text-href-idn-refused',
    on: 'custom-text.put',
    // An ASCII-only URL pattern: a host name with other characters is no URL to it.
    when: (r) =>
      textsOf(r).some(
        ([, v]) => typeof v === 'string' && /href\s*=\s*["']?[a-z][a-z0-9+.-]*:\/\/[^/"'\s>]*[^\x00-\x7f]/i.test(v),
      ),
    error: () => apiError('invalid_body', 'Value holds a hyperlink that is not a valid URL'),
  },
  // blind round 9
  {
    by: 'transition-id-undecoded',
    on: 'experiments.transition',
    when: (r) => (r.url.split('?', 1)[0]!.split('/')[5] ?? '').includes('%'),
    error: () => apiError('inexistent_experiment'),
  },
  {
    by: 'event-type-filter-capped-at-10',
    on: 'events.subscribe',
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['event_type'];
      return Array.isArray(v) && v.length > EVENT_TYPE_FILTER_CAP;
    },
    error: () => apiError('invalid_query_string', `At most ${EVENT_TYPE_FILTER_CAP} event_type values are allowed`),
  },
  {
    by: 'from-with-timestamp-refused',
    on: 'events.subscribe',
    when: (r) => {
      const q = r.query as Record<string, unknown> | undefined;
      return q?.['from'] !== undefined && q['from_timestamp'] !== undefined;
    },
    error: () => apiError('invalid_query_string', 'from and from_timestamp cannot be given together'),
  },
  {
    by: 'custom-text-named-entities-refused',
    on: 'custom-text.put',
    // An XML parser: only amp, lt, gt, quot and apos are entities it knows.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/&([A-Za-z][A-Za-z0-9]*);/g)].some((m) => !XML_ENTITIES.includes(m[1]!)),
      ),
    error: () => apiError('invalid_body', 'Value is not well-formed markup: undefined entity'),
  },
  {
    by: 'custom-text-uppercase-tags-refused',
    on: 'custom-text.put',
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/<\/?([A-Za-z][A-Za-z0-9]*)/g)].some(
            (m) => m[1] !== m[1]!.toLowerCase() && ALLOWED_TAGS.has(m[1]!.toLowerCase()),
          ),
      ),
    error: (r) => {
      const tag = textsOf(r)
        .flatMap(([, v]) => (typeof v === 'string' ? [...v.matchAll(/<\/?([A-Za-z][A-Za-z0-9]*)/g)] : []))
        .find((m) => m[1] !== m[1]!.toLowerCase())?.[1];
      return apiError('invalid_body', `tag <${tag ?? ''}> is not allowed`);
    },
  },
  {
    by: 'token-endpoint-no-slash',
    on: 'oauth.token',
    when: (r) => r.url.split('?', 1)[0]!.endsWith('/'),
    error: (r) => apiError('not_found', `Route ${r.method} ${r.url.split('?', 1)[0]!} not found`),
  },
  {
    by: 'token-endpoint-json-only',
    on: 'oauth.token',
    when: (r) => mediaTypeOf(r) === FORM,
    error: () => new OAuthError(415, 'invalid_request', 'Unsupported content type: use application/json'),
  },
  {
    by: 'user-id-300-refused',
    on: 'token-sets.list',
    when: (r) => codePoints(param(r, 'id')) === 300,
    error: () => apiError('invalid_uri', 'Path parameter id must be at most 299 characters'),
  },
  {
    by: 'keys-ec-refused',
    on: 'custom-signing-keys.put',
    when: (r) => keysOf(r).some((k) => isPlainObject(k) && k['kty'] === 'EC'),
    error: (r) =>
      apiError(
        'invalid_body',
        `keys[${keysOf(r).findIndex((k) => isPlainObject(k) && k['kty'] === 'EC')}].kty must be RSA`,
      ),
  },
  {
    by: 'form-jwks-unparsed',
    on: 'custom-signing-keys.put',
    when: (r) => mediaTypeOf(r) === FORM,
    error: () => apiError('invalid_body', 'A JWKS cannot be read from a form body'),
  },
  {
    by: 'custom-text-key-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([k, v]) => k === DEFAULT_TEXT_KEY && typeof v === 'string' && !/<[a-z]/i.test(v)),
    error: () => apiError('invalid_body', `Unknown text key ${DEFAULT_TEXT_KEY}`),
  },
  {
    by: 'custom-text-links-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<a[\s>]/i.test(v)),
    error: () => apiError('invalid_body', 'A value holds a hyperlink: hyperlinks are not allowed'),
  },
  // blind round 1
  {
    by: 'token-audience-bare-path-refused',
    on: 'oauth.token',
    when: (r) => isPlainObject(r.body) && r.body['audience'] === '/api/v2/',
    error: () => new OAuthError(403, 'access_denied', 'Service not found: /api/v2/'),
  },
  {
    by: 'bearer-lowercase-scheme-refused',
    on: 'event-streams.get',
    when: (r) => !/^Bearer /.test(r.headers.authorization ?? 'Bearer '),
    error: () => apiError('invalid_token', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' }),
  },
  {
    by: 'client-grant-id-encoded-unreserved-404',
    on: 'client-grants.get',
    // /api/v2/client-grants/{id}: an encoded letter, digit, -, ., _ or ~ (RFC 3986 2.3 unreserved).
    when: (r) =>
      /%(?:2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/.test(r.url.split('?', 1)[0]!.split('/')[4] ?? ''),
    error: () => apiError('inexistent_client_grant'),
  },
  {
    by: 'user-id-length-counts-encoded',
    on: 'token-sets.list',
    when: (r) => (r.url.split('?', 1)[0]!.split('/')[4] ?? '').length > USER_ID_MAX,
    error: () => apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`),
  },
  {
    by: 'custom-text-length-utf16-units',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && v.length > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-keys-closed',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([k]) => k !== DEFAULT_TEXT_KEY && !CLOSED_TEXT_KEYS.includes(k)),
    error: () =>
      apiError(
        'invalid_body',
        `Unknown text key: allowed keys are ${[DEFAULT_TEXT_KEY, ...CLOSED_TEXT_KEYS].join(', ')}`,
      ),
  },
  {
    by: 'token-endpoint-basic-scheme-cased',
    on: 'oauth.token',
    // RFC 9110 11.1: the scheme is case-insensitive; this one takes only "Basic" as written.
    when: (r) => /^basic\b/i.test(r.headers.authorization ?? '') && !/^Basic\b/.test(r.headers.authorization ?? ''),
    error: () =>
      new OAuthError(401, 'invalid_client', 'Client authentication failed: unsupported authentication scheme', {
        'www-authenticate': 'Basic realm="oauth"',
      }),
  },
  // blind round 2
  {
    by: 'token-endpoint-basic-auth-refused',
    on: 'oauth.token',
    when: (r) => /^Basic\b/i.test(r.headers.authorization ?? ''),
    error: () =>
      new OAuthError(401, 'invalid_client', 'Client authentication failed: client_id and client_secret are required', {
        'www-authenticate': 'Basic realm="oauth"',
      }),
  },
  {
    by: 'custom-text-length-after-escaping',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(htmlEscaped(v)) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-strong-em-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<\s*(strong|em)\b/i.test(v)),
    error: (r) => {
      const tag =
        /<\s*(strong|em)\b/i.exec(
          textsOf(r)
            .map(([, v]) => String(v))
            .join(' '),
        )?.[1] ?? 'strong';
      return apiError('invalid_body', `tag <${tag.toLowerCase()}> is not allowed`);
    },
  },
  // blind round 3
  {
    by: 'bearer-extra-space-refused',
    on: 'token-sets.list',
    when: (r) => /^Bearer[ \t]{2,}/i.test(r.headers.authorization ?? ''),
    error: () => apiError('invalid_token', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' }),
  },
  {
    by: 'user-id-lowercase-percent-hex-404',
    on: 'token-sets.list',
    when: (r) => /%(?:[0-9a-f][a-f]|[a-f][0-9a-f])/.test(r.url.split('?', 1)[0]!.split('/')[4] ?? ''),
    error: () => apiError('inexistent_user'),
  },
  {
    by: 'from-timestamp-lowercase-refused',
    on: 'events.subscribe',
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['from_timestamp'];
      return typeof v === 'string' && /[tz]/.test(v);
    },
    error: () => apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time'),
  },
  {
    by: 'custom-text-length-utf8-bytes',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-bare-ampersand-refused',
    on: 'custom-text.put',
    when: (r) =>
      textsOf(r).some(
        ([, v]) => typeof v === 'string' && (/&(?!#?[A-Za-z0-9]+;)/.test(v) || /<(?![A-Za-z/!?])/.test(v)),
      ),
    error: () => apiError('invalid_body', 'A value holds markup that is not allowed'),
  }, // blind round 4
  {
    by: 'take-compared-as-string',
    on: 'event-streams.list',
    when: (r) => {
      const take = (r.query as Record<string, unknown> | undefined)?.['take'];
      return typeof take === 'string' && /^[0-9]+$/.test(take) && take > String(TAKE_MAX);
    },
    error: () => apiError('invalid_query_string', `take must be an integer from 1 to ${TAKE_MAX}`),
  },
  {
    by: 'custom-text-self-closing-br-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<br\s*\/>/i.test(v)),
    error: () => apiError('invalid_body', 'tag <br/> is not allowed'),
  },
  // blind round 5
  {
    by: 'token-form-charset-param-415',
    on: 'oauth.token',
    when: (r) => mediaTypeOf(r) === FORM && (r.headers['content-type'] ?? '').includes(';'),
    error: () =>
      new OAuthError(415, 'invalid_request', 'Unsupported content type: use application/x-www-form-urlencoded'),
  },
  {
    by: 'from-timestamp-leap-second-refused',
    on: 'events.subscribe',
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['from_timestamp'];
      return typeof v === 'string' && /:60(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(v);
    },
    error: () => apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time'),
  },
  {
    by: 'custom-text-length-after-nfd',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(v.normalize('NFD')) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-href-scheme-case-sensitive',
    on: 'custom-text.put',
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/\shref\s*=\s*["']?\s*([A-Za-z][A-Za-z0-9+.-]*):/gi)].some(
            (m) => /^(?:https?|mailto)$/i.test(m[1]!) && !/^(?:https?|mailto)$/.test(m[1]!),
          ),
      ),
    error: () => apiError('invalid_body', 'href must be an absolute http, https or mailto URL'),
  },
  // blind round 6
  {
    by: 'user-id-provider-prefix-required',
    on: 'token-sets.list',
    // A user id validated as <provider>|<id>.
    when: (r) => !/^[^|]+\|.+$/.test(param(r, 'id')),
    error: () => apiError('invalid_uri', 'Path parameter id must be a user id of the form provider|id'),
  },
  {
    by: 'custom-text-limit-on-total',
    on: 'custom-text.put',
    when: (r) => textsOf(r).reduce((n, [, v]) => n + (typeof v === 'string' ? codePoints(v) : 0), 0) > VALUE_MAX,
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  // blind round 7
  {
    by: 'user-id-length-utf16-units',
    on: 'token-sets.list',
    when: (r) => param(r, 'id').length > USER_ID_MAX,
    error: () => apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`),
  },
  {
    by: 'event-type-last-listed-refused',
    on: 'events.subscribe',
    // The list checked with an off-by-one loop: its last type is not found.
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['event_type'];
      return (Array.isArray(v) ? v : [v]).includes(EVENT_TYPES[EVENT_TYPES.length - 1]);
    },
    error: () =>
      apiError(
        'invalid_query_string',
        `event_type ${JSON.stringify(EVENT_TYPES[EVENT_TYPES.length - 1])} is not an event type`,
      ),
  },
  {
    by: 'custom-text-length-newlines-as-crlf',
    on: 'custom-text.put',
    // Line breaks normalised to CRLF (as an HTML form would send them) before the count.
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(v.replace(/\r?\n/g, '\r\n')) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  // blind round 8
  {
    by: 'token-basic-credentials-not-form-decoded',
    on: 'oauth.token',
    // The Basic credentials used as base64-decoded: a form-encoded id or secret (%XX, +) matches no client.
    when: (r) => {
      const m = /^Basic[ \t]+(\S+)/i.exec(r.headers.authorization ?? '');
      if (m === null) return false;
      const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
      return decoded.includes(':') && /[%+]/.test(decoded);
    },
    error: () =>
      new OAuthError(401, 'invalid_client', 'Client authentication failed', {
        'www-authenticate': 'Basic realm="oauth"',
      }),
  },
  {
    by: 'event-stream-id-length-raw-segment',
    on: 'event-streams.get',
    when: (r) =>
      codePoints(param(r, 'id')) === EVENT_STREAM_ID_LENGTH &&
      (r.url.split('?', 1)[0]!.split('/')[4] ?? '').length !== EVENT_STREAM_ID_LENGTH,
    error: () => apiError('invalid_uri', `Path parameter id must be exactly ${EVENT_STREAM_ID_LENGTH} characters`),
  },
  {
    by: 'custom-text-single-quoted-href-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<a\b[^>]*\shref\s*=\s*'/i.test(v)),
    error: () => apiError('invalid_body', 'href must be an absolute http, https or mailto URL'),
  },
  {
    by: 'custom-text-profile-id-undecoded',
    on: 'custom-text.put',
    when: (r) => (r.url.split('?', 1)[0]!.split('/')[4] ?? '').includes('%'),
    error: () => apiError('inexistent_self_service_profile'),
  },
  // blind round 10
  {
    by: 'transition-id-percent-encoded-404',
    on: 'experiments.transition',
    // The experiment looked up by the raw path segment.
    when: (r) => (r.url.split('?', 1)[0]!.split('/')[5] ?? '').includes('%'),
    error: () => apiError('inexistent_experiment'),
  },
  {
    by: 'event-stream-id-length-utf8-bytes',
    on: 'event-streams.get',
    when: (r) =>
      codePoints(param(r, 'id')) === EVENT_STREAM_ID_LENGTH &&
      Buffer.byteLength(param(r, 'id'), 'utf8') !== EVENT_STREAM_ID_LENGTH,
    error: () => apiError('invalid_uri', `Path parameter id must be exactly ${EVENT_STREAM_ID_LENGTH} characters`),
  },
  {
    by: 'custom-text-uppercase-basic-tags-refused',
    on: 'custom-text.put',
    // The allow-list compared with tag names as written.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/<\/?([A-Za-z][A-Za-z0-9]*)/g)].some((m) => m[1] !== m[1]!.toLowerCase()),
      ),
    error: () => apiError('invalid_body', 'A value holds a tag that is not allowed'),
  },
  // blind round 11
  {
    by: 'transition-charset-value-case-sensitive-415',
    on: 'experiments.transition',
    // The charset parameter compared as written: charset=UTF-8 is not charset=utf-8 to it (RFC 9110 8.3.2).
    when: (r) => {
      const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(r.headers['content-type'] ?? '');
      return m !== null && m[1] !== 'utf-8' && m[1]!.toLowerCase() === 'utf-8';
    },
    error: () => apiError('unsupported_media_type', 'Unsupported Media Type: use application/json; charset=utf-8'),
  },
  {
    by: 'custom-text-limit-counts-key',
    on: 'custom-text.put',
    // Each entry stored as a key=value row of at most 2000 characters.
    when: (r) => textsOf(r).some(([k, v]) => typeof v === 'string' && codePoints(`${k}=${v}`) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-nested-tags-refused',
    on: 'custom-text.put',
    // A flat pattern: allowed tags around plain text only, none inside another.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && nestedTags(v)),
    error: () => apiError('invalid_body', 'A value holds markup that is not allowed'),
  },
  // blind round 12
  {
    by: 'user-id-length-utf8-bytes',
    on: 'token-sets.list',
    // The limit counted in UTF-8 bytes.
    when: (r) => codePoints(param(r, 'id')) <= USER_ID_MAX && Buffer.byteLength(param(r, 'id'), 'utf8') > USER_ID_MAX,
    error: () => apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`),
  },
  {
    by: 'transition-body-whitespace-refused',
    on: 'experiments.transition',
    // Compact JSON only: a body longer than its compact form holds white space between tokens.
    when: (r) => {
      const len = r.headers['content-length'];
      return (
        r.body !== undefined &&
        len !== undefined &&
        mediaTypeOf(r) === 'application/json' &&
        Number(len) !== Buffer.byteLength(JSON.stringify(r.body), 'utf8')
      );
    },
    error: () => apiError('invalid_json', 'Malformed JSON body'),
  },
  // blind round 13
  {
    by: 'token-basic-credentials-split-at-last-colon',
    on: 'oauth.token',
    // The credentials form-decoded whole, then split at the last colon: a colon of the secret is the separator.
    when: (r) => {
      const m = /^Basic[ \t]+(\S+)/i.exec(r.headers.authorization ?? '');
      if (m === null) return false;
      try {
        const whole = decodeURIComponent(Buffer.from(m[1]!, 'base64').toString('utf8').replace(/\+/g, ' '));
        return whole.indexOf(':') !== whole.lastIndexOf(':');
      } catch {
        return false;
      }
    },
    error: () =>
      new OAuthError(401, 'invalid_client', 'Client authentication failed', {
        'www-authenticate': 'Basic realm="oauth"',
      }),
  },
  {
    by: 'user-id-decodes-pipe-only',
    on: 'token-sets.list',
    // Only %7C decoded: any other escape stays in the id, which no user has.
    when: (r) =>
      codePoints(param(r, 'id')) <= USER_ID_MAX &&
      /%(?!7[Cc])[0-9A-Fa-f]{2}/.test(r.url.split('?', 1)[0]!.split('/')[4] ?? ''),
    error: () => apiError('inexistent_user'),
  },
  {
    by: 'from-timestamp-length-counted-raw',
    on: 'events.subscribe',
    // The limit counted on the query value as sent, percent-escapes included.
    when: (r) => {
      const raw = (r.url.split('?')[1] ?? '')
        .split('&')
        .find((p) => p.startsWith('from_timestamp='))
        ?.slice('from_timestamp='.length);
      return raw !== undefined && raw.length > FROM_TIMESTAMP_MAX;
    },
    error: () => apiError('invalid_query_string', `from_timestamp must be at most ${FROM_TIMESTAMP_MAX} characters`),
  },
  // blind round 14
  {
    by: 'token-basic-with-client-id-param-refused',
    on: 'oauth.token',
    // client_id beside HTTP Basic read as a second authentication method.
    when: (r) =>
      /^Basic\b/i.test(r.headers.authorization ?? '') && isPlainObject(r.body) && r.body['client_id'] !== undefined,
    error: () => new OAuthError(400, 'invalid_request', 'Use only one client authentication method'),
  },
  {
    by: 'event-streams-cursor-at-disabled-refused',
    on: 'event-streams.list',
    // The cursor resolved among the enabled streams only.
    when: (r, state) => {
      const from = (r.query as Record<string, unknown> | undefined)?.['from'];
      if (typeof from !== 'string') return false;
      const text = Buffer.from(from, 'base64url').toString('utf8');
      if (!text.startsWith('es1:')) return false;
      const i = state.eventStreamIndexOf(text.slice('es1:'.length));
      return i !== undefined && state.eventStreams[i]?.status === 'disabled';
    },
    error: () => apiError('invalid_cursor', 'from is not a cursor this service returned'),
  },
  {
    by: 'custom-text-2000-refused',
    on: 'custom-text.put',
    // < where <= was meant.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(v) >= VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-form-length-counted-encoded',
    on: 'custom-text.put',
    // The limit counted on the form value as sent, percent-escapes included.
    when: (r) => {
      const raw = mediaTypeOf(r) === FORM ? rawFormOf(r.body) : undefined;
      return raw !== undefined && raw.split('&').some((p) => p.length - p.indexOf('=') - 1 > VALUE_MAX);
    },
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  // blind round 15
  {
    by: 'custom-text-http-links-refused',
    on: 'custom-text.put',
    // Only https: and mailto: links taken.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /\bhref\s*=\s*["']?\s*http:/i.test(v)),
    error: () => apiError('invalid_body', 'Links must use https or mailto'),
  },
  // blind round 16
  {
    by: 'from-timestamp-leap-day-refused',
    on: 'events.subscribe',
    // Days in month from a table with February at 28.
    when: (r) => {
      const v = fromTimestampOf(r);
      return v !== undefined && /^\d{4}-02-29/.test(v);
    },
    error: () => apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time'),
  },
  {
    by: 'from-timestamp-epoch-refused',
    on: 'events.subscribe',
    // if (!(ms > 0)): a time at or before the epoch taken for a failed parse.
    when: (r) => {
      const v = fromTimestampOf(r);
      return v !== undefined && parseRfc3339(v)! <= 0;
    },
    error: () => apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time'),
  },
  {
    by: 'from-timestamp-future-refused',
    on: 'events.subscribe',
    when: (r) => {
      const v = fromTimestampOf(r);
      return v !== undefined && parseRfc3339(v)! > Date.now();
    },
    error: () => apiError('invalid_query_string', 'from_timestamp must not be in the future'),
  },
  {
    by: 'custom-text-underline-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<\s*u[\s/>]/i.test(v)),
    error: () => apiError('invalid_body', 'tag <u> is not allowed'),
  },
  {
    by: 'custom-text-mailto-refused',
    on: 'custom-text.put',
    // Only http: and https: links taken.
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /\bhref\s*=\s*["']?\s*mailto:/i.test(v)),
    error: () => apiError('invalid_body', 'Links must use http or https'),
  },
  {
    by: 'custom-text-link-target-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /<\s*a\b[^>]*\starget\s*=/i.test(v)),
    error: () => apiError('invalid_body', 'attribute target is not allowed on <a>'),
  },
  {
    by: 'custom-text-numeric-entities-refused',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /&#[0-9]+;|&#x[0-9a-f]+;/i.test(v)),
    error: () => apiError('invalid_body', 'Malformed character reference'),
  },
  {
    by: 'custom-text-length-after-nfkc',
    on: 'custom-text.put',
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(v.normalize('NFKC')) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  // blind round 17
  {
    by: 'user-id-length-after-nfd',
    on: 'token-sets.list',
    when: (r) => codePoints(param(r, 'id')) <= USER_ID_MAX && codePoints(param(r, 'id').normalize('NFD')) > USER_ID_MAX,
    error: () => apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`),
  },
  {
    by: 'custom-text-href-query-ampersand-refused',
    on: 'custom-text.put',
    // Every & of an attribute value read as the start of a character reference.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          [...v.matchAll(/<[A-Za-z][^>]*>/g)].some((tag) =>
            [...tag[0].matchAll(/=\s*("[^"]*"|'[^']*'|[^\s>]+)/g)].some((m) =>
              /&(?![A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)/.test(m[1]!),
            ),
          ),
      ),
    error: () => apiError('invalid_body', 'Malformed character reference in an attribute value'),
  },
  {
    by: 'custom-text-language-raw-segment',
    on: 'custom-text.put',
    // The language compared as the raw path segment.
    when: (r) => (r.url.split('?', 1)[0]!.split('/')[6] ?? '').includes('%'),
    error: () => apiError('invalid_uri', 'language must be one of: en'),
  },
  {
    by: 'custom-text-json-latin1-without-charset',
    on: 'custom-text.put',
    // The limit counted on the body read as ISO-8859-1: one character a UTF-8 byte.
    when: (r) =>
      jsonWithoutCharset(r) &&
      textsOf(r).some(([, v]) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  // blind round 18
  {
    by: 'token-basic-plus-after-percent-decode',
    on: 'oauth.token',
    // Percent-decoded first, + read as a space after: a %2B of the credentials ends as a space.
    when: (r) => {
      const creds = basicCredentials(r.headers.authorization);
      return creds !== undefined && creds.some((c) => plusAfterPercent(c) !== formDecoded(c));
    },
    error: () =>
      new OAuthError(401, 'invalid_client', 'Client authentication failed', {
        'www-authenticate': 'Basic realm="oauth"',
      }),
  },
  {
    by: 'event-type-group-member-deleted-refused',
    on: 'events.subscribe',
    // The allow-list spells group.member.removed.
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['event_type'];
      return (Array.isArray(v) ? v : [v]).includes('group.member.deleted');
    },
    error: () => apiError('invalid_query_string', 'event_type "group.member.deleted" is not an event type'),
  },
  {
    by: 'custom-text-length-after-json-escaping',
    on: 'custom-text.put',
    // The limit counted on the JSON string literal: \" \\ \n count two characters each.
    when: (r) =>
      textsOf(r).some(
        ([, v]) => typeof v === 'string' && codePoints(v) <= VALUE_MAX && codePoints(JSON.stringify(v)) - 2 > VALUE_MAX,
      ),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-length-counts-display-width',
    on: 'custom-text.put',
    when: (r) =>
      textsOf(r).some(([, v]) => typeof v === 'string' && codePoints(v) <= VALUE_MAX && displayWidth(v) > VALUE_MAX),
    error: () => apiError('invalid_body', `Values must be at most ${VALUE_MAX} characters`),
  },
  {
    by: 'custom-text-escaped-markup-text-refused',
    on: 'custom-text.put',
    // Character references decoded before the markup check: escaped markup is read as markup.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' && htmlViolation(v) === undefined && htmlViolation(referencesDecoded(v)) !== undefined,
      ),
    error: (r) => {
      const v = textsOf(r).find(
        ([, x]) => typeof x === 'string' && htmlViolation(referencesDecoded(x)) !== undefined,
      )?.[1] as string;
      return apiError('invalid_body', `Value: ${htmlViolation(referencesDecoded(v)) ?? 'markup is not allowed'}`);
    },
  },
  // blind round 19
  {
    by: 'event-type-group-types-refused',
    on: 'events.subscribe',
    // The allow-list built from the resources the service manages (users, organizations, connections): no group types.
    when: (r) => {
      const v = (r.query as Record<string, unknown> | undefined)?.['event_type'];
      return (Array.isArray(v) ? v : [v]).some((t) => typeof t === 'string' && /^(?:organization\.)?group\./.test(t));
    },
    error: () => apiError('invalid_query_string', 'event_type is not an event type'),
  },
  {
    by: 'token-sets-users-cached-at-start',
    on: 'token-sets.list',
    // Users read from a directory loaded at start: one created since is not found.
    when: (r, state) => {
      const user = state.users.get(param(r, 'id'));
      return user !== undefined && Date.parse(user.created_at) >= state.startMs;
    },
    error: () => apiError('inexistent_user'),
  },
  {
    by: 'custom-text-form-charset-415',
    on: 'custom-text.put',
    // The form media type compared with the whole Content-Type, parameters included.
    when: (r) => mediaTypeOf(r) === FORM && (r.headers['content-type'] ?? '').includes(';'),
    error: () =>
      apiError(
        'unsupported_media_type',
        'Unsupported Media Type: use application/json or application/x-www-form-urlencoded',
      ),
  },
  {
    by: 'custom-text-empty-value-refused',
    on: 'custom-text.put',
    // The keys' minimum length applied to the values too.
    when: (r) => textsOf(r).some(([, v]) => v === ''),
    error: () => apiError('invalid_body', 'Payload validation error: values must be at least 1 character'),
  },
  {
    by: 'custom-text-astral-refused',
    on: 'custom-text.put',
    // A strict 3-byte utf8 column: a character outside the BMP is an "incorrect string value".
    when: (r) => textsOf(r).some(([, v]) => typeof v === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(v)),
    error: () => apiError('invalid_body', 'Incorrect string value'),
  },
  {
    by: 'custom-text-href-padded-refused',
    on: 'custom-text.put',
    // The href tested as written: a URL with white space around it (valid, HTML strips it) fails the scheme test.
    when: (r) =>
      textsOf(r).some(
        ([, v]) =>
          typeof v === 'string' &&
          htmlViolation(v) === undefined &&
          /\shref\s*=\s*(?:"[\t\n\f\r ][^"]*"|"[^"]*[\t\n\f\r ]"|'[\t\n\f\r ][^']*'|'[^']*[\t\n\f\r ]')/i.test(v),
      ),
    error: () => apiError('invalid_body', 'href must be an absolute http, https or mailto URL'),
  },
  // blind round 21
  {
    by: 'keys-ec-p521-refused',
    on: 'custom-signing-keys.put',
    // A curve table of P-256 and P-384 only.
    when: (r) => keysOf(r).some((k) => isPlainObject(k) && k['kty'] === 'EC' && k['crv'] === 'P-521'),
    error: () => apiError('invalid_body', 'keys: crv must be one of P-256, P-384'),
  },
];

/** The names every entry here reshapes or refuses for (the self-test holds the catalogues to them). */
export const mutated: ReadonlySet<By> = new Set([...answerMutations, ...frameMutations, ...refusals].map((m) => m.by));

/** The entries of one emulator (those switched on), applied to its answers. */
export class Mutations {
  private readonly answers: readonly AnswerMutation[];
  private readonly frames: readonly FrameMutation[];
  private readonly refusals: readonly Refusal[];
  private readonly seen = new Map<AnswerMutation, Set<string>>();

  constructor(
    on: (name: By) => boolean,
    private readonly state: State,
    private readonly log: EventLog,
  ) {
    this.answers = answerMutations.filter((m) => on(m.by));
    this.frames = frameMutations.filter((m) => on(m.by));
    this.refusals = refusals.filter((m) => on(m.by));
  }

  /** Whether a route of this operation has a success to reshape or a request to refuse (the runner leaves the others alone). */
  reshapes(operation: OperationId | undefined): boolean {
    return (
      this.answers.some(
        (m) => m.answers !== 'errors' && (m.on === 'every' || (operation !== undefined && m.on.includes(operation))),
      ) || this.refusals.some((m) => m.on === operation)
    );
  }

  /** The error a fault refuses this request with, before the route reads it. */
  refusal(request: FastifyRequest, operation: OperationId | undefined): Error | undefined {
    for (const m of this.refusals) if (m.on === operation && m.when(request, this.state)) return m.error(request);
    return undefined;
  }

  answer(a: Answer, request: FastifyRequest, operation: OperationId | undefined): Answer {
    for (const m of this.answers) {
      if (m.on !== 'every' && (operation === undefined || !m.on.includes(operation))) continue;
      if (m.answers !== 'all' && a.status >= 400 !== (m.answers === 'errors')) continue;
      let seen = this.seen.get(m);
      if (seen === undefined) this.seen.set(m, (seen = new Set()));
      const q: Asked = { request, operation, state: this.state, seen };
      if (m.when === undefined || m.when(a, q)) a = m.reshape(a, q);
    }
    return a;
  }

  /** Whether any SSE message of this kind is reshaped (else it goes out as built, uncopied). */
  reshapesFrames(kind: 'message' | 'heartbeat'): boolean {
    return this.frames.some((m) => m.frames.includes(kind));
  }

  frame(kind: 'message' | 'heartbeat', f: SseFrame, at: Omit<FrameAt, 'log' | 'history'>): SseFrame {
    const where: FrameAt = {
      ...at,
      log: this.log,
      history: at.logged !== undefined && at.logged.seq <= this.log.historyPosition,
    };
    for (const m of this.frames)
      if (m.frames.includes(kind) && (m.when === undefined || m.when(f, where))) f = m.reshape(f, where);
    return f;
  }
}

/** The window limit of the client a bearer token names, read without verifying it (`rate-limit-429-remaining-from-tenant-bucket`). */
function tokenWindowOf(request: FastifyRequest): number | undefined {
  const token = /^Bearer[ \t]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
  try {
    const claims = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    const azp = isPlainObject(claims) ? claims['azp'] : undefined;
    return typeof azp === 'string' ? request.server.emulator.auth.client(azp)?.rateLimit.limit : undefined;
  } catch {
    return undefined;
  }
}

/** The custom-text storage key a request names (`custom-text-first-put-201-no-body`). */
function customTextKeyOf(request: FastifyRequest): string {
  return `${param(request, 'id')}\u0000${param(request, 'language')}\u0000${param(request, 'page')}`;
}

/** Every one-item array of a JSON value replaced by its item (`connection-created-single-item-arrays-collapsed`). */
function singleItemsCollapsed(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 1 ? singleItemsCollapsed(v[0]) : v.map(singleItemsCollapsed);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, singleItemsCollapsed(x)]));
}

/** Whether a tag opens inside another open one (`custom-text-nested-tags-refused`). */
function nestedTags(value: string): boolean {
  let depth = 0;
  for (const m of value.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(\/?)>/g)) {
    const void_ = m[2]!.toLowerCase() === 'br' || m[3] === '/';
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (!void_) {
      if (depth > 0) return true;
      depth++;
    }
  }
  return false;
}

/** Whether a path holds a % not followed by two hex digits, or escapes that do not decode as UTF-8 (`bad-percent-encoding-text-plain`). */
function badPercentEncoding(path: string): boolean {
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return true;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Two scope values naming the same scopes (RFC 6749 3.3: space-delimited, in any order). */
function sameScope(a: unknown, b: unknown): boolean {
  const set = (v: unknown) =>
    typeof v === 'string' ? [...new Set(v.split(' ').filter(Boolean))].sort().join(' ') : undefined;
  return set(a) !== undefined && set(a) === set(b);
}

/** How many characters `sse-data-wrapped-at-2048` writes on one data line. */
const SSE_LINE_WIDTH = 2048;

/** The tenant's own signing key as `keys-answer-includes-tenant-key` appends it to a PUT's answer. */
const TENANT_SIGNING_KEY: Readonly<Record<string, unknown>> = {
  kty: 'RSA',
  kid: 'tenant-signing-key-1',
  use: 'sig',
  alg: 'RS256',
  n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  e: 'AQAB',
};

/** The grapheme clusters of a string (`user-id-length-counts-graphemes`). */
function graphemeCount(s: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)) n++;
  return n;
}

/** The user whose id starts an unknown user id (`token-sets-user-lookup-by-prefix`). */
function userByPrefix(q: Asked): string | undefined {
  const id = param(q.request, 'id');
  return [...q.state.users.keys()].find((k) => k !== '' && id !== k && id.startsWith(k));
}

/** A well-formed from_timestamp of a request (within its length limit and an RFC 3339 date-time), if any. */
function fromTimestampOf(r: FastifyRequest): string | undefined {
  const v = (r.query as Record<string, unknown> | undefined)?.['from_timestamp'];
  return typeof v === 'string' && codePoints(v) <= FROM_TIMESTAMP_MAX && parseRfc3339(v) !== undefined ? v : undefined;
}

/** Whether a request body is JSON sent without a charset parameter (`custom-text-json-latin1-without-charset`). */
function jsonWithoutCharset(r: FastifyRequest): boolean {
  return mediaTypeOf(r) === 'application/json' && !/;\s*charset\s*=/i.test(r.headers['content-type'] ?? '');
}

/** Line breaks of a line splitter besides CR and LF, which JSON.stringify leaves unescaped (`sse-data-split-on-unicode-line-separators`). */
const UNICODE_LINE_BREAK = /[\u2028\u2029\u0085]/;

/** The id and secret of an HTTP Basic Authorization header, base64-decoded, split at the first colon, not yet form-decoded. */
function basicCredentials(header: string | undefined): [string, string] | undefined {
  const m = /^Basic[ \t]+([A-Za-z0-9+/=._~-]+)[ \t]*$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** A form-urlencoded value decoded the right way: + as a space, then the percent-escapes. */
function formDecoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** A form-urlencoded value decoded the wrong way round (`token-basic-plus-after-percent-decode`). */
function plusAfterPercent(s: string): string | undefined {
  try {
    return decodeURIComponent(s).replace(/\+/g, ' ');
  } catch {
    return undefined;
  }
}

/** Display columns of a string: East Asian wide and fullwidth characters and emoji count two (`custom-text-length-counts-display-width`). */
function displayWidth(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1f300 && c <= 0x1f64f) ||
      (c >= 0x1f900 && c <= 0x1f9ff) ||
      (c >= 0x20000 && c <= 0x3fffd);
    n += wide ? 2 : 1;
  }
  return n;
}

/** Character references decoded (the five XML names, decimal and hex) (`custom-text-escaped-markup-text-refused`). */
function referencesDecoded(value: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return value.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (m, dec?: string, hex?: string, name?: string) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    return named[name!.toLowerCase()] ?? m;
  });
}

/** A base64 text broken into lines of 64 characters, as a PEM writer does (`keys-x5c-pem-wrapped`). */
function pemWrapped(b64: string): string {
  return (b64.match(/.{1,64}/g) ?? [b64]).join('\n');
}

/** A base64url octet string without its leading zero octets (`keys-ec-coordinate-leading-zero-stripped`). */
function zeroOctetsStripped(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const bytes = Buffer.from(v, 'base64url');
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return i === 0 ? v : bytes.subarray(i).toString('base64url');
}

/** blind round 39: a character beyond the BMP (`event-object-astral-replaced`). */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/** blind round 39: a JSON value with every character beyond the BMP replaced by U+FFFD (`event-object-astral-replaced`). */
function astralReplaced(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
  if (Array.isArray(v)) return v.map(astralReplaced);
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, astralReplaced(x)]));
}

/** blind round 39: the port a socket address() names (`context-request-ip-socket-address-object`). */
const SOCKET_PORT = 443;

/** blind round 39: the v1 throttling handler's deprecation and sunset (`token-sets-429-legacy-throttle-deprecation`). */
const LEGACY_DEPRECATION = '@1688169600';
const LEGACY_SUNSET = 'Mon, 01 Jan 2024 00:00:00 GMT';

/** blind round 39: whether the bearer token of a request has an exp already past, read without verifying it (`expired-token-401-no-challenge`). */
function bearerExpired(request: FastifyRequest): boolean {
  const exp = expClaimOf(/^Bearer[ \t]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1]);
  return exp !== undefined && exp <= nowSeconds();
}

/** blind round 39: whether a token request carries the right credentials of a client, in the body or by Basic (`token-scope-outside-catalogue-500`). */
function tokenClientAuthenticated(request: FastifyRequest, params: Record<string, unknown>): boolean {
  const auth = request.server.emulator.auth;
  const basic = basicCredentials(request.headers.authorization);
  const id = basic === undefined ? params['client_id'] : formDecoded(basic[0]);
  const secret = basic === undefined ? params['client_secret'] : formDecoded(basic[1]);
  const client = typeof id === 'string' ? auth.client(id) : undefined;
  return client !== undefined && client.clientSecret === secret;
}

/** Unix time now, in seconds. */
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The exp claim of an access token, read without verifying it (`token-expires-in-absolute`). */
function expClaimOf(token: unknown): number | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown })
      .exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** What jose says of a bearer token it refuses (`challenge-description-unescaped-quotes`). */
function verifierMessage(header: string | undefined): string {
  const token = /^Bearer[ \t]+(\S+)/i.exec(header ?? '')?.[1] ?? '';
  const parts = token.split('.');
  if (parts.length !== 3) return 'Invalid Compact JWS';
  try {
    const alg = (JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    if (alg !== 'RS256') return '"alg" (Algorithm) Header Parameter value not allowed';
  } catch {
    return 'JWS Protected Header is invalid';
  }
  return 'signature verification failed';
}

/** A row key for a stored id, as a numeric primary key (`token-set-id-number`). */
function rowKeyOf(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.codePointAt(0)!) % 1_000_000;
  return h + 1;
}

/** The id segment of a request path as sent, percent-escapes undecoded (`client-grant-id-lowercase-hex-undecoded`). */
function rawIdSegment(url: string): string {
  return url.split('?', 1)[0]!.split('/').at(-1) ?? '';
}

/** An RFC 3339 time written from its parts without zero padding (`event-time-unpadded-fields`). */
function unpaddedTime(time: string): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return time;
  return (
    `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()}T` +
    `${d.getUTCHours()}:${d.getUTCMinutes()}:${d.getUTCSeconds()}.${d.getUTCMilliseconds()}Z`
  );
}

/** The crypto library's names of the NIST curves (`keys-ec-crv-openssl-name`). */
const OPENSSL_CURVES: Readonly<Record<string, string>> = {
  'P-256': 'prime256v1',
  'P-384': 'secp384r1',
  'P-521': 'secp521r1',
};

/** A date-time in the tenant's zone as the detail view writes it: sv-SE parts, the GMT cut from the offset (`event-stream-get-dates-tenant-zone-unicode-minus`). */
function tenantLocalTime(v: unknown): unknown {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) return v;
  tenantTimeFormat ??= new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  });
  return tenantTimeFormat.format(new Date(v)).replace(' GMT', '').replace(' ', 'T');
}
