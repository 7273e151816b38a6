/**
 * Several targets checked in shared workers (harness/fixtures/targets.ts):
 * every check is registered once per target whose grep takes it, matched as
 * Playwright matches a project's grep (describe titles, the check's title,
 * its tags), its copy titled and annotated with the target; describe blocks
 * are followed through their bodies and left behind after them; the targets
 * go through the environment and come back whole; the reporter's title of a
 * copy is the check's own.
 */
import { expect, test, type TestType } from '@playwright/test';
import {
  checkTitle,
  copiedPerTarget,
  copyTitle,
  sharedTargetsFromEnv,
  sharedTargetsToEnv,
  TARGET_ANNOTATION,
  type SharedTarget,
} from '../../harness/fixtures/targets.ts';
import { grepForRule } from '../../spec/rules.ts';

interface Registered {
  title: string;
  details: { tag?: string | string[]; annotation?: Array<{ type: string; description: string }> };
  body: unknown;
}

/** A stand-in for Playwright's `test` that records what is registered (describe runs its body at once). */
function recorder(): { fake: TestType<object, object>; registered: Registered[] } {
  const registered: Registered[] = [];
  const fake = ((title: string, ...rest: unknown[]) =>
    registered.push({
      title,
      details: (rest.length === 2 ? rest[0] : {}) as Registered['details'],
      body: rest.at(-1),
    })) as unknown as TestType<object, object> & Record<string, unknown>;
  const describe = (...args: unknown[]) => (args.at(-1) as () => void)();
  describe.configure = () => undefined;
  describe.serial = describe;
  Object.assign(fake, { describe, skip: () => 'skip' });
  return { fake, registered };
}

const targets: SharedTarget[] = [
  {
    name: 'fault:a',
    grep: grepForRule('token-sets.list.shape'),
    env: { CONFORMANCE_BASE_URL: 'http://127.0.0.1:1/api/v2' },
  },
  { name: 'fault:b', grep: 'keys @writes.*refuses', env: {} },
  { name: 'fault:c', env: {} },
];

test('a check is copied once per target whose grep takes it, titled and annotated with the target', () => {
  const { fake, registered } = recorder();
  const t = copiedPerTarget(fake, targets);
  const body = () => undefined;
  t(
    'lists the shape',
    { tag: ['@rule:token-sets.list.shape'], annotation: [{ type: 'rule', description: 'x' }] },
    body,
  );
  t.describe('keys @writes', () => {
    t('refuses a key', body);
    t.describe.serial('inner', { tag: '@rule:token-sets.list.shape' }, () => t('refuses another', body));
  });
  // Left behind after its body: a later check is not under the describe.
  t('refuses outside', body);

  expect(registered.map((r) => r.title)).toEqual([
    copyTitle('lists the shape', 'fault:a'),
    copyTitle('lists the shape', 'fault:c'),
    copyTitle('refuses a key', 'fault:b'),
    copyTitle('refuses a key', 'fault:c'),
    copyTitle('refuses another', 'fault:a'),
    copyTitle('refuses another', 'fault:b'),
    copyTitle('refuses another', 'fault:c'),
    copyTitle('refuses outside', 'fault:c'),
  ]);
  expect(registered[0]!.details).toEqual({
    tag: ['@rule:token-sets.list.shape'],
    annotation: [
      { type: 'rule', description: 'x' },
      { type: TARGET_ANNOTATION, description: 'fault:a' },
    ],
  });
  expect(registered.every((r) => r.body === body)).toBe(true);
  // What is not a registration passes through.
  expect((t as unknown as { skip: () => string }).skip()).toBe('skip');
});

test('a rule grep does not take a rule whose id it begins', () => {
  const { fake, registered } = recorder();
  copiedPerTarget(fake, [targets[0]!])('another rule', { tag: '@rule:token-sets.list.shape-more' }, () => undefined);
  expect(registered).toEqual([]);
});

test('the targets go through the environment whole, a variable each', () => {
  const env = sharedTargetsToEnv(targets);
  expect(Object.keys(env)).toHaveLength(targets.length + 1);
  expect(sharedTargetsFromEnv(env)).toEqual(targets);
  expect(sharedTargetsFromEnv({})).toEqual([]);
});

test("a copy's title gives back the check's own; any other title is left as it is", () => {
  expect(checkTitle(copyTitle('should refuse [x]', 'fault:a'), 'fault:a')).toBe('should refuse [x]');
  expect(checkTitle('should refuse', 'baseline')).toBe('should refuse');
});
