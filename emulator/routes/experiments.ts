/**
 * Endpoints 2: POST /experimentation/experiments/{id}/status — move an
 * experiment to a new lifecycle status.
 *
 * The document leaves the allowed source states open; the emulator's table:
 *
 *   draft     → active
 *   active    → paused | completed | archived
 *   paused    → active | completed | archived
 *   completed → archived
 *   archived  → (none)
 *
 * A move outside the table, including to the current status, is 409
 * `invalid_transition` and changes nothing. (The `transition-table` variant
 * allows any move but to draft or to the current status; the
 * `transition-table-terminal` variant makes completed final too.) `draft` as a target, a missing
 * body or an unknown status is 400 `invalid_body`; an unknown id is 404.
 * started_at is set on the first move to active; ended_at on the move that
 * ends the run (to completed, or to archived from active or paused);
 * updated_at on every successful move.
 */
import { operation } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { experimentStatuses, type Experiment, type ExperimentStatus } from '../state.js';
import { isPlainObject, JSON_ONLY, nowIso, param, validateBody, type RouteDef } from './shared.js';

export const TRANSITIONS: Readonly<Record<ExperimentStatus, readonly ExperimentStatus[]>> = {
  draft: ['active'],
  active: ['paused', 'completed', 'archived'],
  paused: ['active', 'completed', 'archived'],
  completed: ['archived'],
  archived: [],
};

/** Targets of the `transition-table` variant: any status but draft and the current one. */
function anyOtherTarget(from: ExperimentStatus): readonly ExperimentStatus[] {
  return experimentStatuses.filter((s) => s !== 'draft' && s !== from);
}

/** An experiment as answered (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, e: Experiment): Record<string, unknown> {
  const out = structuredClone(e) as unknown as Record<string, unknown>;
  // Variant optional-members-absent: description, started_at and ended_at are not required.
  if (ctx.variant === 'optional-members-absent') for (const k of ['description', 'started_at', 'ended_at']) delete out[k];
  // Fault experiment-status-uppercase: outside the status enum.
  if (ctx.faults.has('experiment-status-uppercase')) out['status'] = e.status.toUpperCase();
  // Fault experiment-allocation-strategy-unknown: outside the enum.
  if (ctx.faults.has('experiment-allocation-strategy-unknown') && e.allocation_strategy === 'percentage') out['allocation_strategy'] = 'percent';
  // Fault experiment-allocation-weight-string: weight is an integer.
  if (ctx.faults.has('experiment-allocation-weight-string')) out['allocations'] = e.allocations.map((a) => ({ ...a, weight: String(a.weight) }));
  // Fault experiment-is-valid-string: is_valid is a boolean.
  if (ctx.faults.has('experiment-is-valid-string')) out['is_valid'] = String(e.is_valid);
  // Fault experiment-missing-feature-flag: a required member left out.
  if (ctx.faults.has('experiment-missing-feature-flag')) delete out['feature_flag_id'];
  // Fault experiment-created-at-not-rfc3339: an HTTP date.
  if (ctx.faults.has('experiment-created-at-not-rfc3339')) out['created_at'] = new Date(e.created_at).toUTCString();
  return out;
}

export function experimentRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/api/v2/experimentation/experiments/:id/status',
      scopes: operation('experiments.transition').scopes,
      contentTypes: JSON_ONLY,
      handler: (request, reply) => {
        const body: unknown = request.body;
        const asked = isPlainObject(body) ? body['status'] : undefined;
        const lenient = (ctx.faults.has('transition-missing-status-ignored') && (asked === undefined || asked === null)) ||
          (ctx.faults.has('transition-unknown-status-ignored') && asked !== undefined && asked !== null && !(experimentStatuses as readonly unknown[]).includes(asked));
        // Faults transition-missing-status-ignored, transition-unknown-status-ignored: 200 with the experiment unchanged.
        if (lenient) {
          const unchanged = ctx.state.experiments.get(param(request, 'id'));
          if (unchanged === undefined) throw apiError('inexistent_experiment');
          return render(ctx, unchanged);
        }
        // Fault transition-to-draft-accepted: draft passes as a target.
        const draftLetIn = ctx.faults.has('transition-to-draft-accepted') && asked === 'draft';
        if (!draftLetIn) validateBody('experiment-transition-request', body);
        const target = asked as ExperimentStatus;
        const experiment = ctx.state.experiments.get(param(request, 'id'));
        if (experiment === undefined) throw apiError('inexistent_experiment');
        const from = experiment.status;
        // Allowed source states are not shown: the variant allows any move but to the current status.
        let allowed = ctx.variant === 'transition-table' ? anyOtherTarget(from) : TRANSITIONS[from];
        // Variant transition-table-terminal: completed and archived accept no move.
        if (ctx.variant === 'transition-table-terminal' && (from === 'completed' || from === 'archived')) allowed = [];
        // Fault transition-refuses-every-move.
        if ((!allowed.includes(target) && !draftLetIn) || ctx.faults.has('transition-refuses-every-move')) {
          throw apiError('invalid_transition', `The experiment cannot move from ${from} to ${target}`);
        }
        const before = render(ctx, experiment);
        const now = nowIso();
        experiment.status = target;
        experiment.updated_at = now;
        if (target === 'active') experiment.started_at ??= now;
        if (target === 'completed' || (target === 'archived' && (from === 'active' || from === 'paused'))) experiment.ended_at ??= now;
        // Variant success-codes: the success status code is not shown.
        if (ctx.variant === 'success-codes') void reply.code(201);
        // Fault transition-status-unchanged: the experiment as it was.
        if (ctx.faults.has('transition-status-unchanged')) return before;
        // Fault transition-answers-no-body: the move is made, the experiment is not returned.
        if (ctx.faults.has('transition-answers-no-body')) return reply.code(204).send();
        const answer = render(ctx, experiment);
        // Fault transition-returns-other-experiment: another experiment's id.
        if (ctx.faults.has('transition-returns-other-experiment')) {
          answer['id'] = [...ctx.state.experiments.keys()].find((k) => k !== experiment.id);
        }
        return answer;
      },
    },
  ];
}
