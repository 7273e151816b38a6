/**
 * The emulator's in-memory state: the stored objects' types and the State
 * that holds them, built from the seed (seed/) so that two emulators
 * started with the same seed hold the same users, token sets, experiments,
 * client grants, event streams, profiles and custom text (ids included).
 * `reset()` rebuilds the seeded state (the control endpoint uses it).
 */
import type * as Schema from '../schemas/types.js';
import type { Deviations } from './faults/seams.js';
import { seedData } from './seed/index.js';
import { ALNUM, HEX, type Rng } from './seed/shared.js';

export { fullConnection } from './seed/connections.js';
export { DRAFT_EXPERIMENT_FIXTURES } from './seed/experiments.js';
export { EVENT_STREAM_COUNT } from './seed/event-streams.js';
export { HISTORY_EVENTS } from './seed/history.js';
export { BASE58, customTextKey, iso, Rng, USER_CONNECTION } from './seed/shared.js';

// ---------------------------------------------------------------------------
// Bodies the schemas type (schemas/types.ts, generated): the stored objects
// are those types, with the members the emulator always sets made required.

/** A body type of the schemas whose members `K` the emulator always sets. */
export type Stored<T, K extends keyof T> = T & Required<Pick<T, K>>;

/** A token set: every documented member set (expires_at and last_used_at may be null). */
export type TokenSet = Stored<
  Schema.FederatedConnectionTokenSet,
  'id' | 'connection' | 'scope' | 'expires_at' | 'issued_at' | 'last_used_at'
>;

export type ExperimentStatus = Schema.ExperimentStatus;
/** Every experiment status, in lifecycle order. */
export const experimentStatuses = [
  'draft',
  'active',
  'paused',
  'completed',
  'archived',
] as const satisfies readonly ExperimentStatus[];
// The list holds every status of the schema's enum: a status missing here is a compile error.
const everyStatusListed: Record<Exclude<ExperimentStatus, (typeof experimentStatuses)[number]>, never> = {};

/** An allocation: every documented member set. */
export type Allocation = Stored<
  Schema.Allocation,
  'variation_id' | 'segment_id' | 'weight' | 'priority' | 'is_control' | 'is_fallback'
>;

/** An experiment: the schema's required members, a subject in assignment_config, and allocations as stored. */
export type Experiment = Schema.Experiment & {
  assignment_config: Stored<Schema.Experiment['assignment_config'], 'subject'>;
  allocations: Allocation[];
};

/** A client grant: always an id, an audience and a scope. */
export type ClientGrant = Stored<Schema.ClientGrant, 'id' | 'audience' | 'scope'>;

type EventStreamDestination = NonNullable<Schema.EventStream['destination']>;
type WebhookConfiguration = NonNullable<EventStreamDestination['configuration']>;
type WebhookAuthorization = NonNullable<WebhookConfiguration['webhook_authorization']>;
/** An event stream: every documented member set, down to the webhook's endpoint and authorization. */
export type EventStream = Stored<
  Schema.EventStream,
  'id' | 'name' | 'subscriptions' | 'destination' | 'status' | 'created_at' | 'updated_at'
> & {
  destination: Stored<EventStreamDestination, 'type' | 'configuration'> & {
    configuration: Stored<WebhookConfiguration, 'webhook_endpoint' | 'webhook_authorization'> & {
      webhook_authorization: Stored<WebhookAuthorization, 'method' | 'username'>;
    };
  };
};

/** A custom signing key: the emulator accepts none without a kty. */
export type Jwk = Stored<Schema.Jwk, 'kty'>;

// ---------------------------------------------------------------------------
// Emulator-only resources (no schema: the document does not give their bodies)

export interface Identity {
  connection: string;
  provider: string;
  user_id: string;
  isSocial: boolean;
}

export interface User {
  user_id: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  nickname?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  blocked?: boolean;
  username?: string;
  phone_number?: string;
  phone_verified?: boolean;
  user_metadata?: Record<string, unknown>;
  app_metadata?: Record<string, unknown>;
  identities: Identity[];
  created_at: string;
  updated_at: string;
}

export interface Organization {
  id: string;
  name: string;
  display_name?: string;
  metadata?: Record<string, string>;
}

export interface Connection {
  id: string;
  name: string;
  strategy: string;
  display_name: string;
  authentication: { active: boolean };
  enabled_clients: string[];
  is_domain_connection: boolean;
  metadata: Record<string, string>;
  realms: string[];
  connected_accounts: { active: boolean; cross_app_access: boolean };
  show_as_button: boolean;
  options: Record<string, unknown>;
}

export interface SelfServiceProfile {
  id: string;
  name: string;
}

/** The ids of the seeded fixtures (the harness's own Fixtures are what the suite reads from its config). */
export interface SeedFixtures {
  /** A user holding several token sets. */
  userId: string;
  /** The ids of that user's token sets that the listing answers (the active ones). */
  userTokenSetIds: string[];
  /** A well-formed user id that no user has. */
  unknownUserId: string;
  /** Users holding exactly one and no token set. */
  userWithOneTokenSetId: string;
  userWithoutTokenSetsId: string;
  clientGrantId: string;
  /** Further grants for the suite to read (the default_for one). */
  otherClientGrantIds: string[];
  selfServiceProfileId: string;
  /** Experiments in `draft`, one per write test. */
  experimentIds: string[];
  /** Name of the database connection users are created in. */
  userConnection: string;
  /** Every event stream id, in list order. */
  eventStreamIds: string[];
}

/** Everything the seed builds; `State` holds one of these and swaps it on reset. */
export interface Data {
  users: Map<string, User>;
  tokenSets: Map<string, TokenSet[]>;
  connections: Map<string, Connection>;
  organizations: Map<string, Organization>;
  experiments: Map<string, Experiment>;
  clientGrants: Map<string, ClientGrant>;
  eventStreams: EventStream[];
  eventStreamIndex: Map<string, number>;
  profiles: Map<string, SelfServiceProfile>;
  customText: Map<string, Record<string, string>>;
  customSigningKeys: Jwk[] | null;
  fixtures: SeedFixtures;
  /** The PRNG after seeding, for ids of resources created later. */
  rng: Rng;
}

/** What the seed needs from the emulator: the full client (grants name it) and the seams of its faults and variant. */
export interface SeedInput {
  fullClientId: string;
  deviations?: Deviations | undefined;
  /**
   * The clock (epoch ms) read once at start: token sets' dates count from it,
   * so the seeded sets are active whatever the calendar says. Default Date.now.
   */
  now?: (() => number) | undefined;
}

/** The seeded state; routes read and change it through these members. */
export class State {
  private data: Data;
  /** The clock at start: the seed's relative dates count from it, on reset too. */
  readonly startMs: number;
  constructor(
    readonly seed: number,
    readonly ids: SeedInput,
  ) {
    this.startMs = (ids.now ?? Date.now)();
    this.data = seedData(seed, ids, this.startMs);
  }
  /** Back to the seeded state. */
  reset(): void {
    this.data = seedData(this.seed, this.ids, this.startMs);
  }
  get users() {
    return this.data.users;
  }
  get tokenSets() {
    return this.data.tokenSets;
  }
  get connections() {
    return this.data.connections;
  }
  get organizations() {
    return this.data.organizations;
  }
  get experiments() {
    return this.data.experiments;
  }
  get clientGrants() {
    return this.data.clientGrants;
  }
  get eventStreams(): readonly EventStream[] {
    return this.data.eventStreams;
  }
  eventStreamIndexOf(id: string): number | undefined {
    return this.data.eventStreamIndex.get(id);
  }
  get profiles() {
    return this.data.profiles;
  }
  get customText() {
    return this.data.customText;
  }
  get customSigningKeys(): Jwk[] | null {
    return this.data.customSigningKeys;
  }
  set customSigningKeys(keys: Jwk[] | null) {
    this.data.customSigningKeys = keys;
  }
  get fixtures(): SeedFixtures {
    return this.data.fixtures;
  }
  /** Ids for resources created after seeding (users, organizations, connections, events). */
  newId(prefix: string, alphabet: 'hex' | 'alnum', length: number): string {
    return prefix + this.data.rng.chars(alphabet === 'hex' ? HEX : ALNUM, length);
  }
  connectionByName(name: string): Connection | undefined {
    for (const c of this.data.connections.values()) if (c.name === name) return c;
    return undefined;
  }
}
