/**
 * Small named checks, each tied to a rule id at the place it is called
 * (the OpenID conformance suite's habit): one condition can serve several
 * rules, and every failure says which rule broke.
 *
 * A failure reads like h2spec's:
 *
 *   ✗ token-sets.list.unknown-user (must)
 *     Requirement: 404: The user does not exist.
 *     Expected:    status 404
 *     Actual:      status 200
 *     Request:     GET /users/nobody/federated-connections-tokensets → 200
 *     Reproduce:   curl -sS -X GET 'https://…/api/v2/users/nobody/…' -H 'Authorization: Bearer $CONFORMANCE_TOKEN'
 *
 * Observations (rules at level `observe`) never fail: they are recorded as
 * test annotations of type `observation` and gathered by the report.
 */
import { test, type TestInfo } from '@playwright/test';
import {
  formatErrors,
  rulesExercised,
  schemaOf,
  validate,
  type SchemaError,
  type SchemaName,
} from '../../schemas/index.ts';
import { rule, type RuleId } from '../../spec/rules.ts';
import { operation, pathPattern } from '../../spec/operations.ts';
import { isJsonMediaType, type Exchange } from '../requests/client.ts';
import { expectedProfile, profileKey } from '../run/profile.ts';
import { ANNOTATION, formatViolationRecord, type Violation } from '../verdicts/decide.ts';
import { idOf, type Declared, type RuleRef } from './declare.ts';

export const RULE_MARK = '✗';

export interface Evidence {
  expected: string;
  actual: string;
  exchange?: Exchange;
  /** More lines, e.g. schema errors or the offsets involved. */
  detail?: string;
}

export class RuleViolation extends Error {
  override name = 'RuleViolation';
  constructor(
    readonly ruleIds: readonly RuleId[],
    message: string,
  ) {
    super(message);
  }
}

/** A check broke a rule it does not declare: a defect of the suite, never a verdict on the target. */
export class SuiteDefect extends Error {
  override name = 'SuiteDefect';
}

/** The request of an exchange as one line, e.g. `GET /event-streams?take=0 → 400`. */
export function requestLine(ex: Exchange): string {
  return `${ex.method} ${ex.target} → ${ex.status}`;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl line that replays an exchange, with the token as a placeholder. */
export function curlLine(ex: Exchange): string {
  const parts = ['curl -sS -i', '-X', ex.method, shellQuote(ex.url)];
  if (ex.authorization === 'token') parts.push('-H', shellQuote('Authorization: Bearer ') + '"$CONFORMANCE_TOKEN"');
  else if (ex.authorization === 'custom') parts.push('-H', shellQuote('Authorization: <as described in the check>'));
  for (const [name, value] of Object.entries(ex.requestHeaders ?? {}))
    if (name.toLowerCase() !== 'content-type') parts.push('-H', shellQuote(`${name}: ${value}`));
  // curl drops a field given with no value: the request without a User-Agent.
  if (ex.withoutUserAgent) parts.push('-H', shellQuote('User-Agent:'));
  if (ex.requestContentType) parts.push('-H', shellQuote(`Content-Type: ${ex.requestContentType}`));
  if (ex.requestBytes !== undefined) {
    // Bytes no UTF-8: in bash's $'...' quoting, every byte outside printable ASCII as \xHH.
    const bytes = [...ex.requestBytes.slice(0, 600)].map((c) =>
      c >= 0x20 && c < 0x7f && c !== 0x27 && c !== 0x5c
        ? String.fromCharCode(c)
        : `\\x${c.toString(16).padStart(2, '0')}`,
    );
    parts.push('--data-binary', `$'${bytes.join('')}'${ex.requestBytes.length > 600 ? '…' : ''}`);
  } else if (ex.requestBody !== undefined) {
    const body =
      ex.requestBody.length > 600 ? `${ex.requestBody.slice(0, 600)}…(${ex.requestBody.length} chars)` : ex.requestBody;
    parts.push('--data-binary', shellQuote(body));
  }
  return parts.join(' ');
}

function excerpt(text: string, max = 400): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** A violation as data: what the report, the profile and verify read. */
export function violationOf(id: RuleId, ev: Evidence): Violation {
  const r = rule(id);
  const v: Violation = {
    rule: id,
    level: r.level,
    requirement: r.requirement,
    expected: ev.expected,
    actual: ev.actual,
  };
  if (ev.detail) v.detail = ev.detail;
  if (ev.exchange) {
    v.request = requestLine(ev.exchange);
    if (ev.exchange.text) v.body = excerpt(ev.exchange.text);
    v.curl = curlLine(ev.exchange);
  }
  return v;
}

export function formatViolation(ids: readonly RuleId[], ev: Evidence): string {
  return ids.map((id) => formatViolationRecord(violationOf(id, ev))).join('\n');
}

// ------------------------------------------------------------ recording

interface Ledger {
  declared: Set<string>;
  checked: Set<string>;
  violations: Map<string, { annotation: { type: string; description?: string }; v: Violation }>;
}
const ledgers = new WeakMap<TestInfo, Ledger>();

/** The current test's record, or undefined outside a test (unit use of the helpers). */
function ledger(): Ledger | undefined {
  let info: TestInfo;
  try {
    info = test.info();
  } catch {
    return undefined;
  }
  let l = ledgers.get(info);
  if (!l) {
    l = {
      declared: new Set(info.annotations.filter((a) => a.type === ANNOTATION.rule).map((a) => a.description!)),
      checked: new Set(),
      violations: new Map(),
    };
    ledgers.set(info, l);
  }
  return l;
}

/** Throws a SuiteDefect (recorded as such) when the running check evaluates a rule it did not declare. */
function requireDeclared(l: Ledger | undefined, id: string): void {
  if (!l || l.declared.has(id)) return;
  const message = `suite defect: this check evaluates rule ${id} but does not declare it in declareRules(...); declare it, or leave the rule to a check that does`;
  test.info().annotations.push({ type: ANNOTATION.defect, description: message });
  throw new SuiteDefect(message);
}

/** Records that the running check evaluated a rule (the report counts a rule as decided only then). */
export function recordChecked(r: RuleRef | RuleId): void {
  const id = idOf(r);
  const l = ledger();
  requireDeclared(l, id);
  if (!l || l.checked.has(id)) return;
  l.checked.add(id);
  test.info().annotations.push({ type: ANNOTATION.checked, description: id });
}

/** Records a violation (the latest of a rule replaces the earlier: a property check's shrunk case wins). */
function recordViolation(v: Violation): void {
  const l = ledger();
  if (!v.profile) requireDeclared(l, v.rule);
  if (!l) return;
  const key = `${v.rule}${v.profile ? ' (profile)' : ''}`;
  const seen = l.violations.get(key);
  if (seen) {
    v.count = (seen.v.count ?? 1) + 1;
    seen.v = v;
    seen.annotation.description = JSON.stringify(v);
    return;
  }
  const annotation = { type: ANNOTATION.violation, description: JSON.stringify(v) };
  l.violations.set(key, { annotation, v });
  test.info().annotations.push(annotation);
}

/** Names a fixture the target has used up (e.g. an experiment a previous run left in a final status), for the report's header. */
export function recordUsedUpFixture(description: string): void {
  test.info().annotations.push({ type: ANNOTATION.usedUp, description });
}

/**
 * Fails the rule unless `ok`. The evaluation is recorded either way. A check
 * whose evidence is a server error (5xx) never passes: whatever else it
 * looked at, the target did not answer the request.
 */
export function must(r: RuleRef | RuleId, ok: boolean, ev: Evidence): void {
  const id = idOf(r);
  recordChecked(id);
  const serverError = ev.exchange !== undefined && ev.exchange.status >= 500;
  if (ok && !serverError) return;
  const evidence = ok
    ? {
        ...ev,
        actual: `status ${ev.exchange!.status} (a server error is never a pass; the check looked for: ${ev.expected})`,
      }
    : ev;
  const v = violationOf(id, evidence);
  recordViolation(v);
  throw new RuleViolation([id], formatViolationRecord(v));
}

export function mustStatus(id: RuleRef | RuleId, ex: Exchange, expected: number): void {
  must(id, ex.status === expected, { expected: `status ${expected}`, actual: `status ${ex.status}`, exchange: ex });
}

/** A request the document forbids: a 4xx, never a 2xx, 3xx or 5xx. */
export function mustRefuse(id: RuleRef | RuleId, ex: Exchange, why: string): void {
  must(id, ex.status >= 400 && ex.status < 500, {
    expected: `a 4xx refusal (${why})`,
    actual: `status ${ex.status}`,
    exchange: ex,
  });
}

/** A success: a 2xx answer. */
export function mustSucceed(id: RuleRef | RuleId, ex: Exchange): void {
  must(id, ex.status >= 200 && ex.status < 300, {
    expected: 'a 2xx success',
    actual: `status ${ex.status}`,
    exchange: ex,
  });
}

/** A JSON body with a JSON media type. */
export function mustBeJson(id: RuleRef | RuleId, ex: Exchange): void {
  must(id, isJsonMediaType(ex.contentType) && ex.json !== undefined, {
    expected: 'a JSON body with Content-Type application/json',
    actual: `Content-Type ${ex.contentType || '(none)'}, body ${ex.json === undefined ? 'not JSON' : 'JSON'}`,
    exchange: ex,
  });
}

/**
 * "All request and response bodies are JSON unless stated" (Endpoints),
 * error answers included: a refused request's body is JSON with a JSON media
 * type (the shape of error bodies is not shown); an empty body is none. A
 * no-op on any answer but a 4xx (and on HEAD, which has no content).
 */
export function mustBeJsonErrorBody(declared: Declared<'http.json-error-bodies'>, ex: Exchange): void {
  jsonErrorBody(declared.httpJsonErrorBodies, ex);
}

function jsonErrorBody(r: RuleRef | RuleId, ex: Exchange): void {
  if (ex.status < 400 || ex.status >= 500 || ex.method === 'HEAD') return;
  // An empty body is no JSON text (RFC 8259 2), and RFC 9110 15.5: a 4xx SHOULD explain the error in its content.
  must(r, isJsonMediaType(ex.contentType) && parsesAsJson(ex), {
    expected: "a refused request's body in JSON, with a JSON media type",
    actual: `Content-Type ${ex.contentType || '(none)'}, body ${ex.undecodable ?? (ex.text.trim() === '' ? 'empty' : ex.json === undefined ? 'not JSON' : 'JSON')}`,
    exchange: ex,
  });
}

/** The paths of the operations whose bodies are JSON (http.json-bodies: every one but the event stream's). */
const JSON_PATHS = (rule('http.json-bodies').operations ?? []).map((o) => pathPattern(operation(o)));

/**
 * Holds every answer a check got from an operation whose bodies are JSON to "All request and response
 * bodies are JSON unless stated", whichever rule the check was about: a success with content to
 * http.json-bodies, a refusal (4xx) to http.json-error-bodies. Each rule is declared for the check here,
 * after its body, where such an answer came.
 */
export function mustBeJsonBodies(answers: readonly Exchange[]): void {
  const l = ledger();
  if (!l) return;
  const held = (id: RuleId): void => {
    if (l.declared.has(id)) return;
    l.declared.add(id);
    test.info().annotations.push({ type: ANNOTATION.rule, description: id });
  };
  for (const ex of answers.filter((x) => JSON_PATHS.some((p) => p.test(x.target.split('?', 1)[0]!)))) {
    if (ex.status >= 400 && ex.status < 500) {
      held('http.json-error-bodies');
      jsonErrorBody('http.json-error-bodies', ex);
    } else if (ex.status >= 200 && ex.status < 300 && ex.method !== 'HEAD' && ex.text.trim() !== '') {
      held('http.json-bodies');
      must('http.json-bodies', isJsonMediaType(ex.contentType) && ex.json !== undefined, {
        expected: 'a success whose body is JSON, with a JSON media type',
        actual: `Content-Type ${ex.contentType || '(none)'}, body ${ex.undecodable ?? (ex.json === undefined ? 'not JSON' : 'JSON')}`,
        exchange: ex,
      });
    }
  }
}

/** Whether an answer's body is JSON (the SSE client keeps a refusal's text without parsing it). */
function parsesAsJson(ex: Exchange): boolean {
  if (ex.json !== undefined) return true;
  // A body its client cannot decode as its Content-Encoding says is read by none, whatever its bytes look like.
  if (ex.undecodable !== undefined) return false;
  try {
    JSON.parse(ex.text);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON texts that are not an object (RFC 8259 2: any JSON value may be a
 * text's top level), for operations whose body is an object: each wraps or
 * replaces a valid body, so that a server reading the first element or a
 * bare value lets it through. Among them each member of the valid body
 * unwrapped, its value alone as the body (`"paused"` for `{"status":
 * "paused"}`, the array of keys for a JWKS): the value a server taking a bare
 * value would read as the member, which it then finds valid.
 */
export const notAnObject = (valid: Record<string, unknown>): ReadonlyArray<readonly [string, unknown]> => [
  ['the valid body inside an array', [valid]],
  ...Object.entries(valid).map(
    ([name, value]) =>
      [`the value of ${name} alone, unwrapped (${JSON.stringify(value).slice(0, 40)})`, value] as const,
  ),
  ['a string', 'conformance'],
  ['a number', 1],
  ['null', null],
  ['true', true],
];

/**
 * Bodies sent as application/json that are not JSON: a cut one, one with a bare name, words, and the
 * bodies that hold no value at all, empty or only white space (RFC 8259 2: JSON-text = ws value ws, the
 * value required), which a body reader defaulting to {} for "no content" takes as an empty object.
 */
export const MALFORMED_JSON_BODIES: readonly string[] = ['{"status": ', '{keys: []}', 'not json', '', ' \r\n'];

/**
 * Bodies that hold a valid body (`valid`, serialised) and are still no JSON
 * text (RFC 8259 2: JSON-text = ws value ws, nothing else before or after it;
 * ws is space, tab, line feed and carriage return only): a stray character
 * or a second value after it, a trailing comma inside it, comments, single
 * quotes, white space JSON does not know around it. A parser that stops
 * after the first value (a streaming decoder), or reads JSON5 or JavaScript,
 * takes them and acts on the valid body.
 */
export function notJsonTexts(valid: string): Array<{ what: string; body: string }> {
  return [
    { what: 'a closing brace after it', body: `${valid}}` },
    { what: 'a letter after it', body: `${valid}x` },
    { what: 'the same value again after it', body: `${valid}${valid}` },
    { what: 'a second value after it, white space between', body: `${valid}\n${valid}` },
    { what: 'a comma after it', body: `${valid},` },
    { what: 'a NUL after it', body: `${valid}\u0000` },
    { what: 'a trailing comma before its last brace', body: valid.replace(/\}$/, ',}') },
    { what: 'a block comment before it', body: `/* c */${valid}` },
    { what: 'a line comment after it', body: `${valid} // c` },
    { what: 'its strings in single quotes', body: valid.replaceAll('"', "'") },
    { what: 'a no-break space after it (no JSON white space)', body: `${valid}\u00a0` },
    { what: 'a vertical tab before it', body: `\u000b${valid}` },
    { what: 'a form feed after it', body: `${valid}\u000c` },
    // A member before its first one whose value or name no JSON grammar has (RFC 8259 4, 6, 7): literals of
    // JavaScript and Python decoders, numbers JSON does not spell, escapes it does not define, a raw control
    // character in a string, a name without quotes. A lenient decoder takes them and the valid body with them.
    ...(valid.startsWith('{')
      ? NOT_JSON_MEMBERS.map(([what, member]) => ({
          what: `a member before its first whose ${what}`,
          body: `{${member},${valid.slice(1)}`,
        }))
      : []),
  ];
}

const NOT_JSON_MEMBERS: ReadonlyArray<readonly [string, string]> = [
  ['value is NaN', '"conformance":NaN'],
  ['value is Infinity', '"conformance":Infinity'],
  ['value is -Infinity', '"conformance":-Infinity'],
  ['value is undefined', '"conformance":undefined'],
  ['number has a plus sign (+1)', '"conformance":+1'],
  ['number has a leading zero (01)', '"conformance":01'],
  ['number starts with its point (.5)', '"conformance":.5'],
  ['number ends with its point (1.)', '"conformance":1.'],
  ['number is hexadecimal (0x1F)', '"conformance":0x1F'],
  ['string holds an escape JSON does not define (\\x41)', '"conformance":"\\x41"'],
  ['string holds a raw control character (U+0001)', '"conformance":"a\u0001b"'],
  ['name has no quotes', 'conformance:1'],
];

/**
 * RFC 8259 8.1: JSON text exchanged between systems MUST be UTF-8 (and application/json defines no charset,
 * 11). Byte sequences that are no UTF-8 (RFC 3629 3, 4; Unicode 3.9 D92), each put inside the last string of
 * a valid body: a Latin-1 letter, a lone continuation byte, a sequence cut short, an overlong form, an encoded
 * surrogate, a byte UTF-8 never has. A lenient decoder reads each as U+FFFD (or the Latin-1 letter) and takes
 * the body. The UTF-8 byte order mark is left out: a parser MAY ignore it (RFC 8259 8.1).
 */
export const NOT_UTF8: ReadonlyArray<{ what: string; bytes: readonly number[] }> = [
  { what: 'a Latin-1 é (E9)', bytes: [0xe9] },
  { what: 'a lone continuation byte (80)', bytes: [0x80] },
  { what: 'a sequence cut short (E2 82)', bytes: [0xe2, 0x82] },
  { what: 'an overlong form of / (C0 AF)', bytes: [0xc0, 0xaf] },
  { what: 'an encoded surrogate (ED A0 80)', bytes: [0xed, 0xa0, 0x80] },
  { what: 'a byte UTF-8 never has (FF)', bytes: [0xff] },
];

/** The valid body's UTF-8 with `bytes` inside its last string (before its closing quotation mark). */
function withBytes(valid: string, bytes: readonly number[]): Uint8Array | undefined {
  const at = valid.lastIndexOf('"');
  if (at <= 0) return undefined;
  return Buffer.concat([
    Buffer.from(valid.slice(0, at), 'utf8'),
    Buffer.from(bytes),
    Buffer.from(valid.slice(at), 'utf8'),
  ]);
}

/** A JSON object's members as a form body (a member that is no string, number or boolean as its JSON text). */
function asForm(text: string): string | undefined {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return new URLSearchParams(
    Object.entries(value).map(([k, v]): [string, string] => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
  ).toString();
}

/**
 * A body sent as application/json that is not JSON is refused, with a JSON
 * error body: each of MALFORMED_JSON_BODIES, each of notJsonTexts around
 * every valid body given (`what` names the valid body in the evidence), and
 * every valid body with bytes that are no UTF-8 in a string (NOT_UTF8), and
 * every valid body's members written as a form.
 */
export async function mustRefuseNotJson(
  declared: Declared<'http.json-request-bodies' | 'http.json-error-bodies'>,
  send: (body: string | Uint8Array) => Promise<Exchange>,
  valid: ReadonlyArray<{ what: string; text: string }>,
): Promise<void> {
  const bodies: Array<{ what: string; body: string | Uint8Array }> = [
    ...MALFORMED_JSON_BODIES.map((body) => ({ what: 'no JSON text', body })),
    ...valid.flatMap((v) => notJsonTexts(v.text).map((n) => ({ what: `${v.what} with ${n.what}`, body: n.body }))),
    // The same members written as a form (application/x-www-form-urlencoded): a reader that sniffs the body
    // instead of trusting its Content-Type takes it.
    ...valid.flatMap((v) => {
      const form = asForm(v.text);
      return form === undefined ? [] : [{ what: `${v.what} written as a form, no JSON text`, body: form }];
    }),
    ...valid.flatMap((v) =>
      NOT_UTF8.flatMap((n) => {
        const body = withBytes(v.text, n.bytes);
        return body ? [{ what: `${v.what} with ${n.what} in a string: no UTF-8 (RFC 8259 8.1)`, body }] : [];
      }),
    ),
  ];
  for (const { what, body } of bodies) {
    const ex = await send(body);
    const shown = typeof body === 'string' ? JSON.stringify(body) : `of ${body.length} bytes`;
    mustRefuse(declared.httpJsonRequestBodies, ex, `the body ${shown} is not JSON (${what})`);
    mustBeJsonErrorBody(declared, ex);
  }
}

/**
 * The value validates against a schema. Each schema error names its rule
 * (x-rule); the violation lists every rule broken, with the errors under it.
 */
export function mustMatchSchema(schema: SchemaName, value: unknown, ex?: Exchange, where = 'body'): void {
  const l = ledger();
  // The rules whose schema nodes met a value: only those are exercised (an empty list exercises no item rule).
  for (const id of rulesExercised(schema, value)) if (!l || l.declared.has(id)) recordChecked(id as RuleId);
  const r = validate(schema, value);
  const serverError = ex !== undefined && ex.status >= 500;
  if (r.valid && !serverError) {
    observeUnknownMembers(schema, value);
    return;
  }
  const byRule = new Map<RuleId, SchemaError[]>();
  for (const e of r.errors) {
    const id = (e.rule ?? 'http.json-bodies') as RuleId;
    byRule.set(id, [...(byRule.get(id) ?? []), e]);
  }
  if (serverError && byRule.size === 0) byRule.set('http.json-bodies', []);
  const ids = [...byRule.keys()];
  const records = ids.map((id) => {
    const errors = byRule.get(id)!;
    return violationOf(id, {
      expected: `the ${where} validates against schemas/${schema}.schema.json`,
      actual: errors.length
        ? `${errors.length} schema error(s)`
        : `status ${ex!.status} (a server error is never a pass)`,
      detail: errors.length ? formatErrors(errors) : undefined,
      exchange: ex,
    });
  });
  records.forEach(recordViolation);
  throw new RuleViolation(ids, records.map(formatViolationRecord).join('\n'));
}

/**
 * Records what a target does where the document is silent: an aspect
 * (what was looked at; stable across runs) and its value. Never fails,
 * unless a profile is expected (--profile) and holds other values for the
 * same rule and aspect: then it fails under the rule, marked (profile).
 * Volatile detail (timings, counts) goes in `data`, which is never compared.
 */
export function observe(ref: RuleRef | RuleId, aspect: string, value: string, data?: unknown): void {
  const id = idOf(ref);
  const r = rule(id);
  if (r.level !== 'observe') throw new SuiteDefect(`observe() called with ${id}, a ${r.level} rule`);
  // Observations are gathered from any check; a check declaring the rule has exercised it.
  if (ledger()?.declared.has(id)) recordChecked(id);
  test
    .info()
    .annotations.push({ type: ANNOTATION.observation, description: JSON.stringify({ rule: id, aspect, value, data }) });
  const expected = expectedProfile()?.observations[profileKey(id, aspect)];
  if (expected && !expected.includes(value)) {
    const v: Violation = {
      rule: id,
      level: r.level,
      requirement: r.requirement,
      expected: expected.join(' or '),
      actual: value,
      profile: { aspect },
    };
    recordViolation(v);
    throw new RuleViolation([id], formatViolationRecord(v));
  }
}

type Node = { properties?: Record<string, unknown>; items?: { $ref?: string }; $ref?: string };

/** Records members the document does not list (allowed for token sets; elsewhere not shown). */
function observeUnknownMembers(schema: SchemaName, value: unknown): void {
  const node = schemaOf(schema) as Node;
  const ref = node.items?.$ref;
  const [target, values] = ref
    ? [schemaOf(ref.replace(/\.schema\.json$/, '') as SchemaName) as Node, Array.isArray(value) ? value : []]
    : [node, [value]];
  if (!target.properties) return;
  const known = new Set(Object.keys(target.properties));
  const extra = new Set<string>();
  for (const v of values)
    if (v && typeof v === 'object' && !Array.isArray(v))
      Object.keys(v)
        .filter((k) => !known.has(k))
        .forEach((k) => extra.add(k));
  if (extra.size)
    observe(
      'bodies.unknown-members',
      `${schema}: members not in the document`,
      [...extra].sort().slice(0, 10).join(', '),
    );
}

/**
 * Generally Available (Versioning 2): no answer of the operation, a success or an error (the token-set listing's
 * 200, 401, 403, 404 and 429), carries a Deprecation header (RFC 9745 2.1: an @-date, a past one meaning deprecated
 * now; the drafts' "true" meant the same) saying the operation is deprecated when it answered. A time to come is
 * left open.
 */
export function mustNotBeDeprecated(rule: RuleRef, ex: Exchange, sentAt: number): void {
  const deprecation = ex.headers['deprecation'];
  const at = /^\s*@(-?\d+)\s*$/.exec(deprecation ?? '');
  const deprecatedNow =
    deprecation !== undefined && (/^\s*true\s*$/i.test(deprecation) || (at !== null && Number(at[1]) * 1000 <= sentAt));
  must(rule, !deprecatedNow, {
    expected: `a Generally Available operation: no Deprecation header naming a time already past (RFC 9745), on its ${ex.status} answer`,
    actual: `Deprecation: ${deprecation}`,
    exchange: ex,
  });
}
