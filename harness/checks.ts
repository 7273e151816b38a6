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
import { test } from '@playwright/test';
import { formatErrors, schemaOf, validate, type SchemaError, type SchemaName } from '../schemas/index.ts';
import { rule, type RuleId } from '../spec/rules.ts';
import { isJsonMediaType, type Exchange } from './client.ts';
import { expectedProfile, profileKey } from './profile.ts';

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
  if (ex.requestContentType) parts.push('-H', shellQuote(`Content-Type: ${ex.requestContentType}`));
  if (ex.requestBody !== undefined) {
    const body = ex.requestBody.length > 600 ? `${ex.requestBody.slice(0, 600)}…(${ex.requestBody.length} chars)` : ex.requestBody;
    parts.push('--data-binary', shellQuote(body));
  }
  return parts.join(' ');
}

function excerpt(text: string, max = 400): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

export function formatViolation(ids: readonly RuleId[], ev: Evidence): string {
  const lines: string[] = [];
  for (const id of ids) {
    const r = rule(id);
    lines.push(`${RULE_MARK} ${id} (${r.level})`, `  Requirement: ${r.requirement}`);
  }
  lines.push(`  Expected:    ${ev.expected}`, `  Actual:      ${ev.actual}`);
  if (ev.detail) lines.push(...ev.detail.split('\n').map((l) => `               ${l}`));
  if (ev.exchange) {
    lines.push(`  Request:     ${requestLine(ev.exchange)}`);
    if (ev.exchange.text) lines.push(`  Body:        ${excerpt(ev.exchange.text)}`);
    lines.push(`  Reproduce:   ${curlLine(ev.exchange)}`);
  }
  return lines.join('\n');
}

/** Fails the rule unless `ok`. */
export function must(id: RuleId, ok: boolean, ev: Evidence): void {
  if (ok) return;
  throw new RuleViolation([id], formatViolation([id], ev));
}

export function mustStatus(id: RuleId, ex: Exchange, expected: number): void {
  must(id, ex.status === expected, { expected: `status ${expected}`, actual: `status ${ex.status}`, exchange: ex });
}

/** A request the document forbids: a 4xx, never a 2xx, 3xx or 5xx. */
export function mustRefuse(id: RuleId, ex: Exchange, why: string): void {
  must(id, ex.status >= 400 && ex.status < 500, { expected: `a 4xx refusal (${why})`, actual: `status ${ex.status}`, exchange: ex });
}

/** A success: a 2xx answer. */
export function mustSucceed(id: RuleId, ex: Exchange): void {
  must(id, ex.status >= 200 && ex.status < 300, { expected: 'a 2xx success', actual: `status ${ex.status}`, exchange: ex });
}

/** A JSON body with a JSON media type. */
export function mustBeJson(id: RuleId, ex: Exchange): void {
  must(id, isJsonMediaType(ex.contentType) && ex.json !== undefined, {
    expected: 'a JSON body with Content-Type application/json',
    actual: `Content-Type ${ex.contentType || '(none)'}, body ${ex.json === undefined ? 'not JSON' : 'JSON'}`,
    exchange: ex,
  });
}

/**
 * The value validates against a schema. Each schema error names its rule
 * (x-rule); the violation lists every rule broken, with the errors under it.
 */
export function mustMatchSchema(schema: SchemaName, value: unknown, ex?: Exchange, where = 'body'): void {
  const r = validate(schema, value);
  if (r.valid) {
    observeUnknownMembers(schema, value);
    return;
  }
  const byRule = new Map<RuleId, SchemaError[]>();
  for (const e of r.errors) {
    const id = (e.rule ?? 'http.json-bodies') as RuleId;
    byRule.set(id, [...(byRule.get(id) ?? []), e]);
  }
  const ids = [...byRule.keys()];
  const detail = ids.map((id) => `[${id}]\n${formatErrors(byRule.get(id)!)}`).join('\n');
  throw new RuleViolation(
    ids,
    formatViolation(ids, { expected: `the ${where} validates against schemas/${schema}.schema.json`, actual: `${r.errors.length} schema error(s)`, detail, exchange: ex }),
  );
}

/**
 * Records what a target does where the document is silent: an aspect
 * (what was looked at; stable across runs) and its value. Never fails,
 * unless a profile is expected (--profile) and holds other values for the
 * same rule and aspect: then it fails under the rule, marked (profile).
 * Volatile detail (timings, counts) goes in `data`, which is never compared.
 */
export function observe(id: RuleId, aspect: string, value: string, data?: unknown): void {
  const r = rule(id);
  if (r.level !== 'observe') throw new Error(`observe() called with ${id}, a ${r.level} rule`);
  test.info().annotations.push({ type: 'observation', description: JSON.stringify({ rule: id, aspect, value, data }) });
  const expected = expectedProfile()?.observations[profileKey(id, aspect)];
  if (expected && !expected.includes(value)) {
    throw new RuleViolation(
      [id],
      [`${RULE_MARK} ${id} (profile)`, `  Requirement: ${r.requirement} (unspecified; expected as recorded in the profile)`, `  Aspect:      ${aspect}`, `  Expected:    ${expected.join(' or ')}`, `  Actual:      ${value}`].join('\n'),
    );
  }
}

type Node = { properties?: Record<string, unknown>; items?: { $ref?: string }; $ref?: string };

/** Records members the document does not list (allowed for token sets; elsewhere not shown). */
function observeUnknownMembers(schema: SchemaName, value: unknown): void {
  const node = schemaOf(schema) as Node;
  const ref = node.items?.$ref;
  const [target, values] = ref ? [schemaOf(ref.replace(/\.schema\.json$/, '') as SchemaName) as Node, Array.isArray(value) ? value : []] : [node, [value]];
  if (!target.properties) return;
  const known = new Set(Object.keys(target.properties));
  const extra = new Set<string>();
  for (const v of values) if (v && typeof v === 'object' && !Array.isArray(v)) Object.keys(v).filter((k) => !known.has(k)).forEach((k) => extra.add(k));
  if (extra.size) observe('bodies.unknown-members', `${schema}: members not in the document`, [...extra].sort().slice(0, 10).join(', '));
}
