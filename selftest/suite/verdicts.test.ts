/**
 * Verdicts are data (harness/verdicts/decide.ts, harness/vocabulary/must.ts): what a check
 * records, and how the report and verify decide a rule from it.
 *
 * - A violation is recorded as a structured annotation before the check throws.
 * - A check that evaluates a rule it does not declare is a suite defect.
 * - A 5xx is never a pass, whatever the check looked at.
 * - A rule passes only where a check evaluated it; a rule all of whose checks
 *   skipped is skipped; the decision names the checks that decided it.
 */
import { expect, test } from '@playwright/test';
import type { Exchange } from '../../harness/requests/client.ts';
import { must, mustMatchSchema, mustRefuse, RuleViolation, SuiteDefect } from '../../harness/vocabulary/must.ts';
import {
  ANNOTATION,
  decide,
  type Annotation,
  type CheckOutcome,
  type Violation,
} from '../../harness/verdicts/decide.ts';
import { rulesExercised } from '../../schemas/index.ts';

const declare = (...ids: string[]) => ({
  annotation: ids.map((description) => ({ type: ANNOTATION.rule, description })),
});
const annotationsOf = (type: string) => test.info().annotations.filter((a) => a.type === type);

function exchange(status: number, json: unknown = {}): Exchange {
  const text = JSON.stringify(json);
  return {
    method: 'GET',
    target: '/client-grants/cg_1',
    url: 'http://127.0.0.1:1/api/v2/client-grants/cg_1',
    authorization: 'token',
    status,
    headers: {},
    contentType: 'application/json',
    text,
    json,
    waitedMs: 0,
  };
}

test.describe('recording in a check', () => {
  test('should record a violation as data before throwing', declare('token-sets.list.unknown-user'), () => {
    expect(() =>
      must('token-sets.list.unknown-user', false, {
        expected: 'status 404',
        actual: 'status 200',
        exchange: exchange(200),
      }),
    ).toThrow(RuleViolation);
    const [v] = annotationsOf(ANNOTATION.violation).map((a) => JSON.parse(a.description!) as Violation);
    expect(v).toMatchObject({
      rule: 'token-sets.list.unknown-user',
      level: 'must',
      expected: 'status 404',
      actual: 'status 200',
      request: 'GET /client-grants/cg_1 → 200',
    });
    expect(v!.curl).toContain('"$CONFORMANCE_TOKEN"');
    expect(annotationsOf(ANNOTATION.checked).map((a) => a.description)).toEqual(['token-sets.list.unknown-user']);
  });

  test('should record each rule a check evaluated once, pass or fail', declare('token-sets.list.unknown-user'), () => {
    for (let i = 0; i < 5; i++) must('token-sets.list.unknown-user', true, { expected: 'x', actual: 'x' });
    expect(annotationsOf(ANNOTATION.checked)).toHaveLength(1);
    expect(annotationsOf(ANNOTATION.violation)).toHaveLength(0);
  });

  test(
    'should keep one violation per rule, the latest (a shrunk property case), with a count',
    declare('experiments.transition.status-enum'),
    () => {
      for (const status of [42, 7])
        expect(() =>
          mustRefuse('experiments.transition.status-enum', exchange(200, { status }), `status ${status}`),
        ).toThrow(RuleViolation);
      const vs = annotationsOf(ANNOTATION.violation).map((a) => JSON.parse(a.description!) as Violation);
      expect(vs).toHaveLength(1);
      expect(vs[0]!.count).toBe(2);
      expect(vs[0]!.body).toContain('7');
    },
  );

  test(
    'should treat a rule the check does not declare as a defect of the suite',
    declare('token-sets.list.success'),
    () => {
      expect(() => must('token-sets.list.unknown-user', true, { expected: 'x', actual: 'x' })).toThrow(SuiteDefect);
      expect(annotationsOf(ANNOTATION.defect)[0]!.description).toContain('token-sets.list.unknown-user');
      expect(annotationsOf(ANNOTATION.violation)).toHaveLength(0);
    },
  );

  test('should never pass a check whose evidence is a server error', declare('custom-signing-keys.put.form'), () => {
    expect(() =>
      must('custom-signing-keys.put.form', true, {
        expected: 'not 415',
        actual: 'status 500',
        exchange: exchange(503),
      }),
    ).toThrow(RuleViolation);
    const [v] = annotationsOf(ANNOTATION.violation).map((a) => JSON.parse(a.description!) as Violation);
    expect(v!.actual).toContain('server error');
  });

  test('should never pass a valid body answered with a 5xx', declare('client-grant.types', 'http.json-bodies'), () => {
    expect(() => mustMatchSchema('client-grant', { id: 'cg_1' }, exchange(500, { id: 'cg_1' }))).toThrow(RuleViolation);
  });
});

test.describe('rules a value exercises', () => {
  test('should exercise no item rule on an empty list', () => {
    expect(rulesExercised('token-set-list', [])).not.toContain('token-set.types');
    expect(rulesExercised('token-set-list', [{ id: 'a' }])).toContain('token-set.types');
  });

  test("should exercise a member's rule only when the member is present", () => {
    expect(rulesExercised('token-set', { id: 'a' })).not.toContain('timestamps.date-time');
    expect(rulesExercised('token-set', { id: 'a', issued_at: '2025-01-01T00:00:00Z' })).toContain(
      'timestamps.date-time',
    );
  });
});

test.describe('deciding a rule', () => {
  const outcome = (title: string, status: string, ...annotations: Annotation[]): CheckOutcome => ({
    title,
    status,
    annotations,
  });
  const rule = (id: string) => ({ type: ANNOTATION.rule, description: id });
  const checked = (id: string) => ({ type: ANNOTATION.checked, description: id });
  const violation = (id: string) => ({
    type: ANNOTATION.violation,
    description: JSON.stringify({ rule: id, level: 'must', requirement: '', expected: 'a', actual: 'b' }),
  });
  const id = 'token-sets.list.unknown-user';

  test('should pass a rule a check evaluated, and name that check', () => {
    const d = decide([
      outcome('A', 'passed', rule(id), checked(id)),
      outcome('B', 'skipped', rule(id), { type: 'skip', description: 'no fixture' }),
    ]).get(id)!;
    expect(d.verdict).toBe('pass');
    expect(d.decidedBy).toEqual(['A']);
    expect(d.skippedBy).toEqual([{ title: 'B', reason: 'no fixture' }]);
  });

  test('should skip a rule all of whose checks skipped', () => {
    expect(decide([outcome('A', 'skipped', rule(id))]).get(id)!.verdict).toBe('skipped');
  });

  test('should never pass a rule no check evaluated, even when its checks passed', () => {
    const d = decide([outcome('A', 'passed', rule(id))]).get(id)!;
    expect(d.verdict).toBe('skipped');
    expect(d.notReachedBy).toEqual(['A']);
  });

  test('should fail a rule on a recorded violation, whatever the message says', () => {
    const d = decide([
      outcome('A', 'failed', rule(id), checked(id), violation(id)),
      outcome('B', 'passed', rule(id), checked(id)),
    ]).get(id)!;
    expect(d.verdict).toBe('fail');
    expect(d.failedBy[0]!.violation!.rule).toBe(id);
  });

  test('should fail the declared rules of a check that failed without any violation (a timeout)', () => {
    expect(decide([outcome('A', 'timedOut', rule(id))]).get(id)!.verdict).toBe('fail');
  });

  test('should give no verdict on the target from a check that stopped on a suite defect', () => {
    const d = decide([outcome('A', 'failed', rule(id), { type: ANNOTATION.defect, description: 'defect' })]).get(id)!;
    expect(d.verdict).not.toBe('fail');
    expect(d.verdict).not.toBe('pass');
  });

  test('should fail an observe rule on a profile violation, declared or not', () => {
    const obs = 'custom-signing-keys.put.status';
    const profiled = {
      type: ANNOTATION.violation,
      description: JSON.stringify({
        rule: obs,
        level: 'observe',
        requirement: '',
        expected: '200',
        actual: '201',
        profile: { aspect: 'x' },
      }),
    };
    expect(decide([outcome('A', 'failed', rule(id), checked(id), profiled)]).get(obs)!.verdict).toBe('fail');
  });
});
