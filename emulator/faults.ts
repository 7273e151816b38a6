/**
 * The fault catalogue: each fault breaks exactly one documented rule and
 * leaves the emulator conformant in everything else. Switched on with
 * `--fault NAME` (or EMULATOR_FAULT=NAME, or startEmulator({ fault })).
 * `npm run verify` runs the checks of each fault's rule against an emulator
 * with that fault, and fails unless a check catches it.
 */
import type { RuleId } from '../spec/rules.ts';

export interface Fault {
  /** Stable kebab-case name. */
  name: string;
  /** The rule it breaks. */
  rule: RuleId;
  /** One line on how. */
  how: string;
}

export const faults: readonly Fault[] = [];

/**
 * Must rules that no fault breaks, each with the reason. `npm run verify`
 * fails on a must rule that has neither a fault nor a reason here.
 */
export const unfaulted: Partial<Record<RuleId, string>> = {};
