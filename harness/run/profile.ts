/**
 * Profiles: the observations of one run (say, against a real tenant), kept
 * to be expected of another (say, an emulator release). An observation is a
 * rule, an aspect (what was looked at, stable across runs) and a value.
 *
 * Recording: `--record-profile FILE` (CONFORMANCE_RECORD_PROFILE); the
 * reporter writes the file at the end of the run.
 * Expecting: `--profile FILE` (CONFORMANCE_PROFILE, read by the `config`
 * fixture in each worker); `observe()` fails,
 * under the rule's id marked (profile), when a value is not among those
 * the profile recorded for the same rule and aspect. Aspects the profile
 * does not hold are only observed.
 */
import { readFileSync } from 'node:fs';

export interface Profile {
  version: 1;
  recordedAt: string;
  target: string;
  /** `<rule> | <aspect>` → the values observed, sorted. */
  observations: Record<string, string[]>;
}

export const profileKey = (rule: string, aspect: string) => `${rule} | ${aspect}`;

let loaded: Profile | undefined;

/** Loads the profile a worker expects (the `config` fixture calls it with the configuration's `profile`). */
export function expectProfile(file: string | undefined): void {
  loaded = file ? (JSON.parse(readFileSync(file, 'utf8')) as Profile) : undefined;
  if (loaded && loaded.version !== 1) throw new Error(`${file}: unknown profile version ${String(loaded.version)}`);
}

/** The profile to expect, if one was given. */
export function expectedProfile(): Profile | undefined {
  return loaded;
}

/** Builds a profile from a run's observations. */
export function buildProfile(
  target: string,
  observations: Array<{ rule: string; aspect: string; value: string }>,
): Profile {
  const map = new Map<string, Set<string>>();
  for (const o of observations) {
    const k = profileKey(o.rule, o.aspect);
    map.set(k, (map.get(k) ?? new Set()).add(o.value));
  }
  const sorted = [...map.keys()].sort();
  return {
    version: 1,
    recordedAt: new Date().toISOString(),
    target,
    observations: Object.fromEntries(sorted.map((k) => [k, [...map.get(k)!].sort()])),
  };
}
