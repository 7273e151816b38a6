/**
 * Verdicts are data. A check records, as test annotations:
 *
 * - `rule` (from `rules(...)` in its details): the rules it declares;
 * - `rule-checked`: each declared rule it actually evaluated (a `must*`
 *   helper was called for it, or a schema node naming it met a value);
 * - `violation`: a broken rule, as a structured record (rule, level,
 *   requirement, expected, actual, request, curl line), pushed before the
 *   check throws;
 * - `suite-defect`: the check broke a rule it did not declare (a defect of
 *   the suite, never a verdict on the target);
 * - `observation`, `used-up-fixture`, `requests`: see harness/vocabulary/must.ts.
 *
 * `decide()` turns the checks' outcomes into one verdict per rule. The
 * conformance reporter and `npm run verify` both use it, so the report and
 * the suite's own proof can never read a run differently. Neither reads
 * message text.
 */
import { rules, type Level, type Rule } from '../../spec/rules.ts';

export const ANNOTATION = {
  rule: 'rule',
  checked: 'rule-checked',
  violation: 'violation',
  defect: 'suite-defect',
  observation: 'observation',
  usedUp: 'used-up-fixture',
  requests: 'requests',
  skip: 'skip',
} as const;

/**
 * The rules every check is held to on each answer it gets (harness/fixtures/fixtures.ts, `jsonBodies`),
 * declared at run time: the checks that decide them are more than those whose titles name them.
 */
export const HELD_ON_EVERY_ANSWER = ['http.json-bodies', 'http.json-error-bodies'] as const;

/** A broken rule, as evidence. Holds no token. */
export interface Violation {
  rule: string;
  level: Level;
  requirement: string;
  expected: string;
  actual: string;
  detail?: string;
  /** `GET /path?query → status` */
  request?: string;
  /** An excerpt of the answer's body. */
  body?: string;
  /** A curl line replaying the request, the token as `$CONFORMANCE_TOKEN`. */
  curl?: string;
  /** Set when a profile (--profile) turned an observation into an expectation. */
  profile?: { aspect: string };
  /** How many times the check met this violation (property checks shrink). */
  count?: number;
}

export interface Annotation {
  type: string;
  description?: string;
}

/** One check's outcome, as any reporter sees it. */
export interface CheckOutcome {
  title: string;
  /** Playwright's result status: passed, failed, timedOut, skipped, interrupted. */
  status: string;
  annotations: readonly Annotation[];
  /** The first lines of the error, when the check failed. */
  error?: string;
}

export type Verdict = 'pass' | 'fail' | 'observed' | 'skipped' | 'not run';

export interface RuleDecision {
  verdict: Verdict;
  /** Checks that evaluated the rule and passed it. */
  decidedBy: string[];
  /** Checks that failed the rule, each with its evidence. */
  failedBy: Array<{ title: string; violation?: Violation; error?: string }>;
  skippedBy: Array<{ title: string; reason: string }>;
  /** Checks that declared the rule and ran, but never reached it (no value to check it on). */
  notReachedBy: string[];
  observations: string[];
}

const parse = <T>(a: Annotation): T | undefined => {
  try {
    return a.description ? (JSON.parse(a.description) as T) : undefined;
  } catch {
    return undefined;
  }
};

export const declaredRules = (o: CheckOutcome) => [
  ...new Set(o.annotations.filter((a) => a.type === ANNOTATION.rule).map((a) => a.description!)),
];
export const violationsOf = (o: CheckOutcome) =>
  o.annotations
    .filter((a) => a.type === ANNOTATION.violation)
    .map((a) => parse<Violation>(a))
    .filter((v): v is Violation => !!v);
export const defectsOf = (o: CheckOutcome) =>
  o.annotations.filter((a) => a.type === ANNOTATION.defect).map((a) => a.description ?? '');
export const checkedRules = (o: CheckOutcome) =>
  new Set(o.annotations.filter((a) => a.type === ANNOTATION.checked).map((a) => a.description!));
export const skipReason = (o: CheckOutcome) =>
  o.annotations.find((a) => a.type === ANNOTATION.skip)?.description ?? 'skipped';

const failedStatus = (s: string) => s === 'failed' || s === 'timedOut' || s === 'interrupted';

/**
 * One verdict per rule of the catalogue:
 * - fail: a check recorded a violation of it, or a check declaring it failed
 *   without recording any violation or defect (a timeout, a broken answer the
 *   check could not read) — with that error as evidence;
 * - pass (must): no failure, and at least one check evaluated it and passed;
 * - observed (observe): a check ran for it; never a failure, unless a profile is expected;
 * - skipped: every check of it skipped (with their reasons), or the checks
 *   that ran never reached it: a rule no check exercised never passes;
 * - not run: no check declares it in this run.
 */
export function decide(outcomes: readonly CheckOutcome[]): Map<string, RuleDecision> {
  const out = new Map<string, RuleDecision>();
  for (const r of rules as readonly Rule[])
    out.set(r.id, {
      verdict: 'not run',
      decidedBy: [],
      failedBy: [],
      skippedBy: [],
      notReachedBy: [],
      observations: [],
    });
  for (const o of outcomes) {
    const violations = violationsOf(o);
    const defects = defectsOf(o);
    const checked = checkedRules(o);
    for (const a of o.annotations) {
      if (a.type !== ANNOTATION.observation) continue;
      const obs = parse<{ rule: string; aspect: string; value: string }>(a);
      if (obs) out.get(obs.rule)?.observations.push(`${obs.aspect}: ${obs.value}`);
    }
    // A violation counts wherever it was recorded: a profile can fail an observe rule the check does not declare.
    for (const v of violations) out.get(v.rule)?.failedBy.push({ title: o.title, violation: v });
    for (const id of declaredRules(o)) {
      const d = out.get(id);
      if (!d || violations.some((v) => v.rule === id)) continue;
      if (o.status === 'skipped') d.skippedBy.push({ title: o.title, reason: skipReason(o) });
      else if (failedStatus(o.status) && violations.length === 0 && defects.length === 0)
        d.failedBy.push({ title: o.title, error: o.error ?? o.status });
      else if (checked.has(id)) d.decidedBy.push(o.title);
      else d.notReachedBy.push(o.title);
    }
  }
  for (const r of rules as readonly Rule[]) {
    const d = out.get(r.id)!;
    if (r.observable === false)
      d.skippedBy.push({ title: '(none)', reason: `not observable from outside: ${r.note ?? ''}` });
    d.verdict = verdictOf(r.level, d);
  }
  return out;
}

function verdictOf(level: Level, d: RuleDecision): Verdict {
  if (d.failedBy.length) return 'fail';
  if (level === 'observe') {
    if (d.observations.length || d.decidedBy.length || d.notReachedBy.length) return 'observed';
    return d.skippedBy.length ? 'skipped' : 'not run';
  }
  if (d.decidedBy.length) return 'pass';
  if (d.skippedBy.length || d.notReachedBy.length) return 'skipped';
  return 'not run';
}

/** Why a rule is skipped, in one line: the skip reasons, or the checks that never reached it. */
export function skipReasons(d: RuleDecision): string[] {
  const reasons = [...new Set(d.skippedBy.map((s) => s.reason))];
  if (d.notReachedBy.length)
    reasons.push(
      `not exercised: ${d.notReachedBy.length} check(s) ran but the target gave nothing to check it on (${d.notReachedBy.slice(0, 2).join('; ')})`,
    );
  return reasons;
}

/** A violation as h2spec prints a failure: rule, requirement, expected, actual, request, reproduction. */
export function formatViolationRecord(v: Violation): string {
  const lines = [
    `✗ ${v.rule} (${v.profile ? 'profile' : v.level})`,
    `  Requirement: ${v.requirement}${v.profile ? ' (unspecified; expected as recorded in the profile)' : ''}`,
  ];
  if (v.profile) lines.push(`  Aspect:      ${v.profile.aspect}`);
  lines.push(`  Expected:    ${v.expected}`, `  Actual:      ${v.actual}`);
  if (v.detail) lines.push(...v.detail.split('\n').map((l) => `               ${l}`));
  if (v.request) lines.push(`  Request:     ${v.request}`);
  if (v.body) lines.push(`  Body:        ${v.body}`);
  if (v.curl) lines.push(`  Reproduce:   ${v.curl}`);
  return lines.join('\n');
}
