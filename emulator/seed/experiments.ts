/**
 * Experiments: the draft fixtures (one per write test), then one in each
 * other status, with the dates their status implies.
 */
import type { Deviations } from '../faults/seams.js';
import type { Experiment, ExperimentStatus } from '../state.js';
import { ALNUM, at, BASE58, type Rng } from './shared.js';

export const DRAFT_EXPERIMENT_FIXTURES = 16;

export function seedExperiments(
  rng: Rng,
  deviations: Deviations | undefined,
): { experiments: Map<string, Experiment>; experimentIds: string[] } {
  const experiments = new Map<string, Experiment>();
  const mkExperiment = (n: number, status: ExperimentStatus): Experiment => {
    const id = `exp_${rng.chars(BASE58, 16)}`;
    const e: Experiment = {
      id: deviations?.experimentId(id) ?? id,
      name: `Conformance experiment ${n}`,
      description: `Seeded experiment number ${n}`,
      feature_flag_id: `ff_${rng.chars(ALNUM, 12)}`,
      authentication_flow: n % 2 === 0 ? 'login' : 'signup',
      allocation_strategy: n % 3 === 0 ? 'segment' : 'percentage',
      assignment_config: { subject: 'device' },
      status,
      is_valid: true,
      allocations: [
        {
          variation_id: `var_${rng.chars(ALNUM, 8)}`,
          segment_id: `seg_${rng.chars(ALNUM, 8)}`,
          weight: 50,
          priority: 1,
          is_control: true,
          is_fallback: true,
        },
        {
          variation_id: `var_${rng.chars(ALNUM, 8)}`,
          segment_id: `seg_${rng.chars(ALNUM, 8)}`,
          weight: 50,
          priority: 2,
          is_control: false,
          is_fallback: false,
        },
      ],
      created_at: at(1000 + n),
      updated_at: at(1000 + n),
    };
    if (status !== 'draft') e.started_at = at(2000 + n);
    if (status === 'completed' || status === 'archived') e.ended_at = at(3000 + n);
    if (status !== 'draft') e.updated_at = e.ended_at ?? e.started_at!;
    return e;
  };
  const experimentIds: string[] = [];
  for (let n = 1; n <= DRAFT_EXPERIMENT_FIXTURES; n++) {
    const e = mkExperiment(n, 'draft');
    experiments.set(e.id, e);
    experimentIds.push(e.id);
  }
  for (const [k, status] of (['active', 'paused', 'completed', 'archived'] as const).entries()) {
    const e = mkExperiment(DRAFT_EXPERIMENT_FIXTURES + 1 + k, status);
    experiments.set(e.id, e);
  }
  return { experiments, experimentIds };
}
