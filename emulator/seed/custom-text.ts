/**
 * Self-service profiles and their custom text: two profiles, the first
 * with a text under the suite's default key.
 */
import type { Deviations } from '../faults/seams.js';
import type { SelfServiceProfile } from '../state.js';
import { ALNUM, customTextKey, type Rng } from './shared.js';

export function seedProfiles(
  rng: Rng,
  deviations: Deviations | undefined,
): {
  profiles: Map<string, SelfServiceProfile>;
  customText: Map<string, Record<string, string>>;
  fixtureProfile: SelfServiceProfile;
} {
  const profiles = new Map<string, SelfServiceProfile>();
  const p1: SelfServiceProfile = { id: `ssp_${rng.chars(ALNUM, 22)}`, name: 'Conformance onboarding' };
  const p2: SelfServiceProfile = { id: `ssp_${rng.chars(ALNUM, 22)}`, name: 'Second profile' };
  profiles.set(p1.id, p1);
  profiles.set(p2.id, p2);
  const customText = new Map<string, Record<string, string>>();
  const key = deviations?.seededTextKey('introduction') ?? 'introduction';
  customText.set(customTextKey(p1.id, 'en', 'get-started'), { [key]: 'Welcome to <b>Conformance</b> onboarding.' });
  return { profiles, customText, fixtureProfile: p1 };
}
