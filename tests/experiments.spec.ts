/**
 * Endpoints 2. Transition an experiment: POST /experimentation/experiments/{id}/status
 * The transition table, the success code and the failure of an invalid move are
 * not shown: the suite records them and fails only on what the document states.
 * Experiments come from CONFORMANCE_EXPERIMENT_IDS and are used up; each test
 * takes its own so that tests running in parallel never share one.
 */
import type { Api } from '../harness/client.ts';
import { must, mustMatchSchema, mustRefuse, observe } from '../harness/checks.ts';
import { requireFixture, requireWrites, rules, test } from '../harness/fixtures.ts';
import { authChecks } from '../harness/auth-checks.ts';
import { fc, fcParams } from '../harness/properties.ts';
import { rulesOf } from '../schemas/index.ts';
import type { Config } from '../harness/config.ts';
import type { RuleId } from '../spec/rules.ts';

const path = (id: string) => `/experimentation/experiments/${encodeURIComponent(id)}/status`;
const TARGETS = ['active', 'paused', 'completed', 'archived'] as const;

/** The experiment reserved for one test: the n-th of CONFORMANCE_EXPERIMENT_IDS. */
function experiment(config: Config, n: number): string {
  requireWrites(config);
  return requireFixture(config.experimentIds[n], `CONFORMANCE_EXPERIMENT_IDS (needs at least ${n + 1} ids)`);
}

const move = (api: Api, id: string, status: unknown) => api.post(path(id), { json: { status } });

test.describe('experiment transitions @experiments @writes', () => {
  test('should return the experiment in the requested status after each accepted move', rules('experiments.transition.returns-experiment', 'experiments.transition.requested-status', 'experiments.transition.same-experiment', ...(rulesOf('experiment') as RuleId[])), async ({ api, config }) => {
    const id = experiment(config, 0);
    const table: string[] = [];
    let accepted = 0;
    let from = 'the initial status';
    for (const status of ['active', 'paused', 'active', 'completed', 'archived'] as const) {
      const ex = await move(api, id, status);
      table.push(`${from} → ${status}: ${ex.status}`);
      if (ex.status < 200 || ex.status >= 300) continue;
      accepted++;
      observe('experiments.transition.success-status', 'accepted move answered', String(ex.status));
      mustMatchSchema('experiment', ex.json, ex);
      const body = ex.json as { id: string; status: string; started_at?: string; ended_at?: string };
      must('experiments.transition.requested-status', body.status === status, { expected: `status ${status}`, actual: `status ${body.status}`, exchange: ex });
      must('experiments.transition.same-experiment', body.id === id, { expected: `experiment ${id}`, actual: `experiment ${body.id}`, exchange: ex });
      observe('experiments.transition.timestamps', `after → ${status}`, `started_at ${body.started_at ? 'set' : 'absent'}, ended_at ${body.ended_at ? 'set' : 'absent'}`);
      from = status;
    }
    observe('experiments.transition.table', 'draft → active → paused → active → completed → archived', table.join('; '));
    must('experiments.transition.returns-experiment', accepted > 0, { expected: 'at least one of the moves active, paused, active, completed, archived accepted with the experiment', actual: table.join('; ') });
  });

  test('should refuse draft as a target', rules('experiments.transition.draft-rejected'), async ({ api, config }) => {
    const id = experiment(config, 1);
    const ex = await move(api, id, 'draft');
    mustRefuse('experiments.transition.draft-rejected', ex, '`draft` is not an allowed target');
    // A refused move must not have moved it: a later accepted move still answers as documented.
    const later = await move(api, id, 'active');
    observe('experiments.transition.table', 'after a refused move to draft, → active answered', String(later.status));
  });

  for (const [title, body] of [
    ['no body', undefined],
    ['an empty object', {}],
    ['status null', { status: null }],
  ] as const) {
    test(`should refuse a move with ${title}`, rules('experiments.transition.status-required'), async ({ api, config }) => {
      const id = experiment(config, 1);
      const ex = body === undefined ? await api.post(path(id)) : await api.post(path(id), { json: body });
      mustRefuse('experiments.transition.status-required', ex, 'status is required');
    });
  }

  for (const status of ['ACTIVE', 'running', '', 'draft ', 42]) {
    test(`should refuse the status ${JSON.stringify(status)}`, rules('experiments.transition.status-enum'), async ({ api, config }) => {
      const ex = await move(api, experiment(config, 1), status);
      mustRefuse('experiments.transition.status-enum', ex, 'status is one of active, paused, completed, archived');
    });
  }

  test('should refuse any status outside the enum (property)', rules('experiments.transition.status-enum'), async ({ api, config }) => {
    const id = experiment(config, 2);
    const outsider = fc.oneof(
      fc.string().filter((s) => !(TARGETS as readonly string[]).includes(s) && s !== 'draft'),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.constantFrom(...TARGETS), { maxLength: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(outsider, async (status) => {
        mustRefuse('experiments.transition.status-enum', await move(api, id, status), `status ${JSON.stringify(status)}`);
      }),
      fcParams(15),
    );
  });
});

// The last experiment id is reserved for the authentication checks.
authChecks('experiments.transition', (api, c, auth) => api.post(path(c.experimentIds.at(-1) ?? 'exp_conformance'), { auth, json: { status: 'paused' } }));
