/**
 * The seed: everything the state holds at start (and after a reset), built
 * from a seed number so that two emulators started with the same seed hold
 * the same resources, ids included. Each area seeds in its own file; the
 * order below is the order the PRNG is drawn in, so keep it.
 */
import type { Data, SeedInput } from '../state.js';
import { seedClientGrants } from './client-grants.js';
import { seedConnections } from './connections.js';
import { seedProfiles } from './custom-text.js';
import { seedEventStreams } from './event-streams.js';
import { seedExperiments } from './experiments.js';
import { Rng, USER_CONNECTION } from './shared.js';
import { seedUsers } from './users.js';

export function seedData(seed: number, input: SeedInput, startMs: number): Data {
  const rng = new Rng(seed);
  const { db, social } = seedConnections(rng, input.fullClientId);
  const { users, tokenSets, many, one, none, unknownUserId } = seedUsers(rng, social.name, startMs);
  const { experiments, experimentIds } = seedExperiments(rng, input.deviations);
  const { clientGrants, fixtureGrant, otherGrants } = seedClientGrants(rng, input.fullClientId);
  const eventStreams = seedEventStreams(rng);
  const { profiles, customText, fixtureProfile } = seedProfiles(rng, input.deviations);
  return {
    users,
    tokenSets,
    connections: new Map([db, social].map((c) => [c.id, c])),
    organizations: new Map(),
    experiments,
    clientGrants,
    eventStreams,
    eventStreamIndex: new Map(eventStreams.map((s, i) => [s.id, i])),
    profiles,
    customText,
    customSigningKeys: null,
    fixtures: {
      userId: many.user_id,
      // The sets the listing must answer: every one not yet expired at start (the seed dates them from it).
      userTokenSetIds: (tokenSets.get(many.user_id) ?? [])
        .filter((t) => t.expires_at === null || Date.parse(t.expires_at) > startMs)
        .map((t) => t.id),
      unknownUserId,
      userWithOneTokenSetId: one.user_id,
      userWithoutTokenSetsId: none.user_id,
      clientGrantId: fixtureGrant.id,
      otherClientGrantIds: otherGrants.map((g) => g.id),
      selfServiceProfileId: fixtureProfile.id,
      experimentIds,
      userConnection: USER_CONNECTION,
      eventStreamIds: eventStreams.map((s) => s.id),
    },
    rng,
  };
}
