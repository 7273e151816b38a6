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
 * `invalid_transition` and changes nothing. `draft` as a target, a missing
 * body or an unknown status is 400 `invalid_body`; an unknown id is 404.
 * started_at is set on the first move to active; ended_at on the move that
 * ends the run (to completed, or to archived from active or paused);
 * updated_at on every successful move.
 */
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { experimentStatuses, type ExperimentStatus } from '../state.js';
import { isPlainObject, JSON_ONLY, nowIso, param, validateBody, type RouteDef, operationRoute } from './shared.js';

export const TRANSITIONS: Readonly<Record<ExperimentStatus, readonly ExperimentStatus[]>> = {
  draft: ['active'],
  active: ['paused', 'completed', 'archived'],
  paused: ['active', 'completed', 'archived'],
  completed: ['archived'],
  archived: [],
};

export function experimentRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      ...operationRoute('experiments.transition'),
      contentTypes: JSON_ONLY,
      handler: (request) => {
        // The body as read (the fault layer alone reads it otherwise: other members, the query, the status before).
        const body: unknown = ctx.deviations.transitionBody(request, ctx.state.experiments);
        const asked = isPlainObject(body) ? body['status'] : undefined;
        const id = ctx.deviations.experimentKey(param(request, 'id'), ctx.state.experiments);
        if (!ctx.deviations.draftIsATarget(asked, request.body, ctx.state.experiments.get(id)))
          validateBody('experiment-transition-request', body);
        const target = asked as ExperimentStatus;
        const experiment = ctx.state.experiments.get(id);
        if (experiment === undefined) throw apiError('inexistent_experiment');
        const from = experiment.status;
        if (!ctx.deviations.allowedTargets(from, TRANSITIONS[from], experimentStatuses).includes(target)) {
          throw apiError('invalid_transition', `The experiment cannot move from ${from} to ${target}`);
        }
        const previous = ctx.deviations.stateBeforeWrite(experiment);
        const now = nowIso();
        // blind round 35: the status the move starts from, for a resume that keeps it (`transition-resume-clears-pause-flag-only`).
        experiment.status = ctx.deviations.storedStatus(target, request.body, from);
        experiment.updated_at = now;
        if (target === 'active') experiment.started_at ??= now;
        if (target === 'completed' || (target === 'archived' && (from === 'active' || from === 'paused')))
          experiment.ended_at ??= now;
        return ctx.deviations.moveAnswer(request.body, ctx.deviations.answerOfWrite(request, experiment, previous));
      },
    },
  ];
}
