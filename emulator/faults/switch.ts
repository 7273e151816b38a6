/**
 * Switching faults while the emulator runs (the control surface's
 * `PUT /__control/faults`): the seams and the answer reshapes are rebuilt
 * for the new set, the seeded state is restored (seeded with the new seams)
 * and the rate-limit windows forgotten; the event log is kept, so cursors
 * stay valid. Faults that act only while the emulator starts need a start
 * with `--fault`: switching one of them on is refused, with why.
 */
import type { EmulatorContext } from '../context.js';
import { parseFaults } from '../options.js';
import type { FaultName } from './catalogue.js';
import { Mutations } from './mutations.js';
import { Deviations, switchedOn } from './seams.js';

/** The faults that act at start only, and why. */
export const START_ONLY: Partial<Record<FaultName, string>> = {
  'experiment-id-with-zero': 'it changes the seeded experiment ids, which the suite is given at start',
};

/** Switches exactly these faults on (none: the conforming emulator); throws a RangeError for a name it cannot switch. */
export function switchFaults(ctx: EmulatorContext, names: readonly string[]): ReadonlySet<FaultName> {
  const faults = parseFaults(names.join(','));
  const fixed = [...faults].filter((f) => START_ONLY[f] !== undefined);
  if (fixed.length)
    throw new RangeError(
      `${fixed.map((f) => `${f} acts at start only (${START_ONLY[f]})`).join('; ')}: start the emulator with --fault`,
    );
  ctx.faults = faults;
  ctx.deviations = new Deviations(faults, ctx.variant);
  ctx.mutations = new Mutations(switchedOn(faults, ctx.variant), ctx.state, ctx.events);
  ctx.state.ids.deviations = ctx.deviations;
  ctx.state.reset();
  ctx.limiter.clear();
  return faults;
}
