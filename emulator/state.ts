/**
 * The emulator's in-memory state, built from a seed so that two emulators
 * started with the same seed hold the same users, token sets, experiments,
 * client grants, event streams, profiles and custom text (ids included).
 * `reset()` rebuilds the seeded state (the control endpoint uses it).
 */
import type * as Schema from '../schemas/types.js';
import type { EventContextInput, EventLog } from './events.js';

/** Base58 without 0, O, I, l: the alphabet of experiment ids (`^exp_[A-HJ-NP-Za-km-z1-9]+$`). */
export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The seed state's clock: fixture timestamps count from here. */
const SEED_EPOCH = Date.UTC(2025, 0, 1, 0, 0, 0);
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Deterministic PRNG (mulberry32): enough for ids, not for secrets. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

// ---------------------------------------------------------------------------
// Bodies the schemas type (schemas/types.ts, generated): the stored objects
// are those types, with the members the emulator always sets made required.

/** A body type of the schemas whose members `K` the emulator always sets. */
export type Stored<T, K extends keyof T> = T & Required<Pick<T, K>>;

/** A token set: every documented member set (expires_at and last_used_at may be null). */
export type TokenSet = Stored<Schema.FederatedConnectionTokenSet, 'id' | 'connection' | 'scope' | 'expires_at' | 'issued_at' | 'last_used_at'>;

export type ExperimentStatus = Schema.ExperimentStatus;
/** Every experiment status, in lifecycle order. */
export const experimentStatuses = ['draft', 'active', 'paused', 'completed', 'archived'] as const satisfies readonly ExperimentStatus[];
// The list holds every status of the schema's enum: a status missing here is a compile error.
const everyStatusListed: Record<Exclude<ExperimentStatus, (typeof experimentStatuses)[number]>, never> = {};

/** An allocation: every documented member set. */
export type Allocation = Stored<Schema.Allocation, 'variation_id' | 'segment_id' | 'weight' | 'priority' | 'is_control' | 'is_fallback'>;

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
export type EventStream = Stored<Schema.EventStream, 'id' | 'name' | 'subscriptions' | 'destination' | 'status' | 'created_at' | 'updated_at'> & {
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

export interface Fixtures {
  /** A user holding several token sets. */
  userId: string;
  /** A well-formed user id that no user has. */
  unknownUserId: string;
  /** Users holding exactly one and no token set. */
  userWithOneTokenSetId: string;
  userWithoutTokenSetsId: string;
  clientGrantId: string;
  selfServiceProfileId: string;
  /** Experiments in `draft`, one per write test. */
  experimentIds: string[];
  /** Name of the database connection users are created in. */
  userConnection: string;
  /** Every event stream id, in list order. */
  eventStreamIds: string[];
}

/** The seed's event types for event stream subscriptions (a subset of the documented types). */
const SUBSCRIBABLE = ['user.created', 'user.updated', 'user.deleted', 'organization.created', 'organization.deleted', 'connection.created', 'connection.deleted'];

export const EVENT_STREAM_COUNT = 137;
export const DRAFT_EXPERIMENT_FIXTURES = 16;

/** Everything the seed builds; `State` holds one of these and swaps it on reset. */
interface Data {
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
  fixtures: Fixtures;
  /** The PRNG after seeding, for ids of resources created later. */
  rng: Rng;
}

export const USER_CONNECTION = 'Username-Password-Authentication';

/** A connection object as `connection.created` carries it: every documented member filled. */
export function fullConnection(id: string, name: string, strategy: string, extra: Partial<Connection> = {}): Connection {
  const issuer = `https://idp.conformance.test/${encodeURIComponent(name)}/`;
  const oidc_metadata = {
    authorization_endpoint: `${issuer}authorize`,
    issuer,
    jwks_uri: `${issuer}.well-known/jwks.json`,
    end_session_endpoint: `${issuer}logout`,
    op_policy_uri: `${issuer}policy`,
    op_tos_uri: `${issuer}tos`,
    registration_endpoint: `${issuer}register`,
    service_documentation: `${issuer}docs`,
    token_endpoint: `${issuer}token`,
    userinfo_endpoint: `${issuer}userinfo`,
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    acr_values_supported: [],
    claim_types_supported: ['normal'],
    claims_locales_supported: ['en'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'email', 'name'],
    display_values_supported: ['page', 'popup'],
    dpop_signing_alg_values_supported: ['ES256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    id_token_encryption_alg_values_supported: [],
    id_token_encryption_enc_values_supported: [],
    request_object_encryption_alg_values_supported: [],
    request_object_encryption_enc_values_supported: [],
    request_object_signing_alg_values_supported: ['RS256'],
    response_modes_supported: ['query', 'fragment', 'form_post'],
    response_types_supported: ['code'],
    scopes_supported: ['openid', 'profile', 'email'],
    subject_types_supported: ['public'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    ui_locales_supported: ['en'],
    userinfo_encryption_alg_values_supported: [],
    userinfo_encryption_enc_values_supported: [],
    userinfo_signing_alg_values_supported: [],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_request_uri_registration: false,
  };
  const options = {
    client_id: `oidc-client-${name}`,
    authorization_endpoint: oidc_metadata.authorization_endpoint,
    icon_url: `${issuer}icon.png`,
    issuer,
    jwks_uri: oidc_metadata.jwks_uri,
    scope: 'openid profile email',
    tenant_domain: 'conformance.test',
    token_endpoint: oidc_metadata.token_endpoint,
    userinfo_endpoint: oidc_metadata.userinfo_endpoint,
    discovery_url: `${issuer}.well-known/openid-configuration`,
    connection_settings: { pkce: 'auto' },
    upstream_params: {},
    domain_aliases: [],
    non_persistent_attrs: [],
    federated_connections_access_tokens: { active: false },
    id_token_session_expiry_supported: false,
    send_back_channel_nonce: false,
    id_token_signed_response_algs: ['RS256'],
    attribute_map: { attributes: {}, userinfo_scope: 'openid profile email' },
    oidc_metadata,
  };
  return {
    id,
    name,
    strategy,
    display_name: name,
    authentication: { active: true },
    enabled_clients: [],
    is_domain_connection: false,
    metadata: {},
    realms: [name],
    connected_accounts: { active: false, cross_app_access: false },
    show_as_button: false,
    ...extra,
    options: { ...options, ...(extra.options ?? {}) },
  };
}

/** Event stream names: lengths spread over 1..128, one of exactly 128 and one of exactly 1. */
function streamName(i: number): string {
  if (i === 0) return 'S';
  if (i === 1) return 'n'.repeat(128);
  const base = `stream-${String(i + 1).padStart(3, '0')}`;
  const len = Math.min(128, base.length + ((i * 37) % 120));
  return (base + '-' + 'abcdefghij'.repeat(13)).slice(0, len);
}

/** What the seed needs from the emulator: the full client (grants name it) and the faults switched on. */
export interface SeedInput {
  fullClientId: string;
  faults: ReadonlySet<string>;
  variant?: string | undefined;
  /**
   * The clock (epoch ms) read once at start: token sets' dates count from it,
   * so the seeded sets are active whatever the calendar says. Default Date.now.
   */
  now?: (() => number) | undefined;
}

/** The text keys of the `custom-text-keys-closed` variant (the set of allowed keys is not shown). */
export const CLOSED_TEXT_KEYS: readonly string[] = ['heading', 'description'];

function seedData(seed: number, ids: SeedInput, startMs: number): Data {
  const rng = new Rng(seed);
  const at = (minutes: number) => iso(SEED_EPOCH + minutes * MINUTE);
  // Token sets are "active ones": issued and used before the start, expiring a year after it.
  const sinceStart = (minutes: number) => iso(startMs + minutes * MINUTE);

  // Connections: the database connection users are created in, and a social one token sets come from.
  const connections = new Map<string, Connection>();
  const dbConnection = fullConnection(`con_${rng.chars(ALNUM, 16)}`, USER_CONNECTION, 'auth0', { enabled_clients: [ids.fullClientId] });
  const socialConnection = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'google-oauth2', 'google-oauth2', {
    options: { federated_connections_access_tokens: { active: true } },
  });
  connections.set(dbConnection.id, dbConnection);
  connections.set(socialConnection.id, socialConnection);

  // Users and their token sets: one with several (nulls included), one with one, one with none.
  const users = new Map<string, User>();
  const tokenSets = new Map<string, TokenSet[]>();
  const mkUser = (n: number): User => {
    const user_id = `auth0|${rng.chars(HEX, 24)}`;
    return {
      user_id,
      email: `user${n}@conformance.test`,
      email_verified: true,
      name: `Conformance User ${n}`,
      nickname: `user${n}`,
      identities: [{ connection: USER_CONNECTION, provider: 'auth0', user_id: user_id.slice(6), isSocial: false }],
      created_at: at(n),
      updated_at: at(n),
    };
  };
  const mkTokenSet = (k: number, nulls: boolean): TokenSet => ({
    id: `tset_${rng.chars(ALNUM, 16)}`,
    connection: socialConnection.name,
    scope: k % 2 === 0 ? 'openid profile email https://www.googleapis.com/auth/calendar.readonly' : 'openid email',
    expires_at: nulls ? null : iso(startMs + 365 * DAY + k * DAY),
    issued_at: sinceStart(-30 * 24 * 60 + k),
    last_used_at: nulls ? null : sinceStart(-60 + k),
  });
  const many = mkUser(1);
  const one = mkUser(2);
  const none = mkUser(3);
  for (const u of [many, one, none]) users.set(u.user_id, u);
  // One set of `many` expired a day before start: the listing returns the "active ones" only, so a target must leave it out.
  // Its id takes nothing from the seeded generator, so every other id of the seed stays as it was.
  const expired: TokenSet = { id: 'tset_expiredSeedSet0', connection: socialConnection.name, scope: 'openid email', expires_at: iso(startMs - DAY), issued_at: sinceStart(-40 * 24 * 60), last_used_at: sinceStart(-2 * 24 * 60) };
  tokenSets.set(many.user_id, [mkTokenSet(0, false), mkTokenSet(1, true), mkTokenSet(2, false), { ...mkTokenSet(3, false), last_used_at: null }, expired]);
  tokenSets.set(one.user_id, [mkTokenSet(4, false)]);
  tokenSets.set(none.user_id, []);
  const unknownUserId = `auth0|${'0'.repeat(24)}`;

  // Experiments: the draft fixtures, then one in each other state.
  const experiments = new Map<string, Experiment>();
  const mkExperiment = (n: number, status: ExperimentStatus): Experiment => {
    let id = `exp_${rng.chars(BASE58, 16)}`;
    // A 0 is outside the base58 alphabet of the documented pattern.
    if (ids.faults.has('experiment-id-with-zero')) id = `exp_0${id.slice(5)}`;
    const e: Experiment = {
      id,
      name: `Conformance experiment ${n}`,
      description: `Seeded experiment number ${n}`,
      feature_flag_id: `ff_${rng.chars(ALNUM, 12)}`,
      authentication_flow: n % 2 === 0 ? 'login' : 'signup',
      allocation_strategy: n % 3 === 0 ? 'segment' : 'percentage',
      assignment_config: { subject: 'device' },
      status,
      is_valid: true,
      allocations: [
        { variation_id: `var_${rng.chars(ALNUM, 8)}`, segment_id: `seg_${rng.chars(ALNUM, 8)}`, weight: 50, priority: 1, is_control: true, is_fallback: true },
        { variation_id: `var_${rng.chars(ALNUM, 8)}`, segment_id: `seg_${rng.chars(ALNUM, 8)}`, weight: 50, priority: 2, is_control: false, is_fallback: false },
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

  // Client grants.
  const clientGrants = new Map<string, ClientGrant>();
  const grant = (g: Stored<Schema.ClientGrant, 'audience' | 'scope'>): ClientGrant => {
    const full = { id: `cgr_${rng.chars(ALNUM, 16)}`, ...g };
    clientGrants.set(full.id, full);
    return full;
  };
  const fixtureGrant = grant({
    client_id: ids.fullClientId,
    audience: 'https://api.conformance.test/orders',
    scope: ['read:orders', 'create:orders'],
    organization_usage: 'deny',
    allow_any_organization: false,
    is_system: false,
    subject_type: 'client',
    // Every documented member the exclusive pair allows, so a read decides each of their rules (default_for is on the grant below).
    authorization_details_types: ['order_details'],
  });
  grant({
    audience: 'https://api.conformance.test/payments',
    scope: ['read:payments'],
    default_for: 'third_party_clients',
    is_system: false,
    subject_type: 'user',
    authorization_details_types: ['payment_initiation', 'account_information'],
    allow_all_scopes: false,
  });
  grant({ client_id: `client_${rng.chars(ALNUM, 20)}`, audience: 'https://api.conformance.test/system', scope: [], is_system: true, subject_type: 'client', allow_all_scopes: true });
  grant({
    client_id: `client_${rng.chars(ALNUM, 20)}`,
    audience: 'https://api.conformance.test/orders',
    scope: ['read:orders'],
    organization_usage: 'require',
    allow_any_organization: true,
    subject_type: 'user',
  });

  // Event streams: 137 with 26-character ids, in creation order.
  const eventStreams: EventStream[] = [];
  for (let i = 0; i < EVENT_STREAM_COUNT; i++) {
    // At least one subscription (the schema's minItems 1): user.created if the slice were empty.
    const [firstSub = { event_type: 'user.created' }, ...moreSubs] = SUBSCRIBABLE.slice(i % SUBSCRIBABLE.length, (i % SUBSCRIBABLE.length) + 1 + (i % 3)).map((event_type) => ({ event_type }));
    eventStreams.push({
      id: `est_${rng.chars(ALNUM, 22)}`,
      name: streamName(i),
      subscriptions: [firstSub, ...moreSubs],
      destination: {
        type: 'webhook',
        configuration: {
          webhook_endpoint: `https://hooks.conformance.test/streams/${i + 1}`,
          webhook_authorization: { method: 'basic', username: `hook-user-${i + 1}` },
        },
      },
      status: i % 3 === 2 ? 'disabled' : 'enabled',
      created_at: at(5000 + i),
      updated_at: at(5000 + i + (i % 5)),
    });
  }
  const eventStreamIndex = new Map(eventStreams.map((s, i) => [s.id, i]));

  // Self-service profiles and their custom text.
  const profiles = new Map<string, SelfServiceProfile>();
  const p1: SelfServiceProfile = { id: `ssp_${rng.chars(ALNUM, 22)}`, name: 'Conformance onboarding' };
  const p2: SelfServiceProfile = { id: `ssp_${rng.chars(ALNUM, 22)}`, name: 'Second profile' };
  profiles.set(p1.id, p1);
  profiles.set(p2.id, p2);
  const customText = new Map<string, Record<string, string>>();
  // Variant custom-text-keys-closed: the seeded text uses one of its keys.
  const textKey = ids.variant === 'custom-text-keys-closed' ? CLOSED_TEXT_KEYS[1]! : 'introduction';
  customText.set(customTextKey(p1.id, 'en', 'get-started'), { [textKey]: 'Welcome to <b>Conformance</b> onboarding.' });

  return {
    users,
    tokenSets,
    connections,
    organizations: new Map(),
    experiments,
    clientGrants,
    eventStreams,
    eventStreamIndex,
    profiles,
    customText,
    customSigningKeys: null,
    fixtures: {
      userId: many.user_id,
      unknownUserId,
      userWithOneTokenSetId: one.user_id,
      userWithoutTokenSetsId: none.user_id,
      clientGrantId: fixtureGrant.id,
      selfServiceProfileId: p1.id,
      experimentIds,
      userConnection: USER_CONNECTION,
      eventStreamIds: eventStreams.map((s) => s.id),
    },
    rng,
  };
}

export function customTextKey(profileId: string, language: string, page: string): string {
  return `${profileId}\u0000${language}\u0000${page}`;
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
  get fixtures(): Fixtures {
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
  /** A debugging summary (GET /__control/state). */
  summary(): Record<string, unknown> {
    return {
      seed: this.seed,
      fixtures: this.data.fixtures,
      counts: {
        users: this.data.users.size,
        connections: this.data.connections.size,
        organizations: this.data.organizations.size,
        experiments: this.data.experiments.size,
        clientGrants: this.data.clientGrants.size,
        eventStreams: this.data.eventStreams.length,
        selfServiceProfiles: this.data.profiles.size,
      },
      experiments: [...this.data.experiments.values()].map((e) => ({ id: e.id, status: e.status })),
      customSigningKeys: this.data.customSigningKeys?.length ?? 0,
    };
  }
}

// ---------------------------------------------------------------------------
// Event history: a tenant's recent events, so that a subscription with a
// from_timestamp in the past (and every read-only check) has real events,
// offsets and times to work on.

/** How many events the history holds, and how far apart (each within the first half of its slot). */
export const HISTORY_EVENTS = 36;
const HISTORY_SLOT = 10 * MINUTE;

/**
 * Appends the seeded history to an empty log: HISTORY_EVENTS events of
 * several documented types over the last six hours before `nowMs` (the
 * newest at least five minutes old), three of them connection.created with
 * the full documented object. Ids come from their own PRNG, so the state's
 * ids do not depend on the history.
 */
export function seedEventHistory(log: EventLog, state: State, nowMs: number, faults: ReadonlySet<string>): void {
  const rng = new Rng(state.seed ^ 0x5eed);
  const first = nowMs - HISTORY_EVENTS * HISTORY_SLOT;
  let i = 0;
  const client = { id: state.ids.fullClientId, name: 'Tenant administration' };
  const request = (method: string) => ({ hostname: 'manage.conformance.test', ip: `203.0.113.${10 + rng.int(200)}`, method, user_agent: 'node-fetch/1.0' });
  const push = (type: string, object: object, method: string, resource: string, connection?: EventContextInput['connection']) => {
    const timeMs = first + i * HISTORY_SLOT + rng.int(HISTORY_SLOT / 2);
    i++;
    log.append(type, structuredClone(object) as Record<string, unknown>, { client, request: request(method), ...(connection ? { connection } : {}) }, resource, timeMs);
  };
  const connRef = (c: Connection) => ({ id: c.id, name: c.name, strategy: c.strategy });
  let createdConnections = 0;
  const connectionCreated = (c: Connection) => {
    const object = structuredClone(c) as unknown as { options: Record<string, unknown> & { oidc_metadata: Record<string, unknown> } };
    createdConnections++;
    // Fault history-oidc-metadata-boolean-string: a boolean of oidc_metadata is a string, in the history only.
    if (faults.has('history-oidc-metadata-boolean-string')) object.options.oidc_metadata['claims_parameter_supported'] = 'false';
    // Fault second-connection-created-scope-array: options.scope is an array of string in the second connection.created only.
    if (faults.has('second-connection-created-scope-array') && createdConnections === 2) object.options['scope'] = ['openid', 'profile'];
    push('connection.created', object, 'POST', 'connections', connRef(c));
  };
  const [db, social] = [...state.connections.values()] as [Connection, Connection];
  const partner = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'partner-idp', 'oidc', { display_name: 'Partner IdP', show_as_button: true });
  const mkUser = (n: number) => {
    const user_id = `auth0|${rng.chars(HEX, 24)}`;
    return { user_id, email: `history${n}@conformance.test`, name: `History User ${n}`, connection: db.name };
  };
  const mkOrg = (name: string) => ({ id: `org_${rng.chars(ALNUM, 16)}`, name, display_name: name.replace(/-/g, ' ') });
  const mkGroup = (name: string) => ({ id: `grp_${rng.chars(ALNUM, 16)}`, name });
  const role = { id: `rol_${rng.chars(ALNUM, 16)}`, name: 'Support' };

  connectionCreated(db);
  connectionCreated(social);
  const [u1, u2, u3, u4, u5] = [1, 2, 3, 4, 5].map(mkUser) as [ReturnType<typeof mkUser>, ReturnType<typeof mkUser>, ReturnType<typeof mkUser>, ReturnType<typeof mkUser>, ReturnType<typeof mkUser>];
  push('user.created', u1, 'POST', 'users', connRef(db));
  push('user.created', u2, 'POST', 'users', connRef(db));
  const acme = mkOrg('acme-corp');
  push('organization.created', acme, 'POST', 'organizations');
  push('organization.member.added', { organization_id: acme.id, user_id: u1.user_id }, 'POST', 'organizations');
  const support = mkGroup('support');
  push('group.created', support, 'POST', 'groups');
  push('group.member.added', { group_id: support.id, user_id: u2.user_id }, 'POST', 'groups');
  push('user.updated', { ...u1, name: 'History User 1 (renamed)' }, 'PATCH', 'users', connRef(db));
  connectionCreated(partner);
  push('connection.updated', { ...partner, display_name: 'Partner IdP (EU)' }, 'PATCH', 'connections', connRef(partner));
  push('organization.connection.added', { organization_id: acme.id, connection_id: partner.id, assign_membership_on_login: false }, 'POST', 'organizations');
  push('organization.updated', { ...acme, display_name: 'Acme Corporation' }, 'PATCH', 'organizations');
  push('user.created', u3, 'POST', 'users', connRef(db));
  push('user.updated', { ...u3, email_verified: true }, 'PATCH', 'users', connRef(db));
  push('group.role.assigned', { group_id: support.id, role_id: role.id }, 'POST', 'groups');
  push('organization.member.role.assigned', { organization_id: acme.id, user_id: u1.user_id, role_id: role.id }, 'POST', 'organizations');
  const beta = mkOrg('beta-trial');
  push('organization.created', beta, 'POST', 'organizations');
  push('organization.member.added', { organization_id: beta.id, user_id: u3.user_id }, 'POST', 'organizations');
  push('organization.member.deleted', { organization_id: beta.id, user_id: u3.user_id }, 'DELETE', 'organizations');
  push('organization.deleted', beta, 'DELETE', 'organizations');
  push('group.updated', { ...support, name: 'support-tier-1' }, 'PATCH', 'groups');
  push('group.member.deleted', { group_id: support.id, user_id: u2.user_id }, 'DELETE', 'groups');
  push('user.deleted', u3, 'DELETE', 'users', connRef(db));
  push('user.created', u4, 'POST', 'users', connRef(db));
  push('organization.member.added', { organization_id: acme.id, user_id: u4.user_id }, 'POST', 'organizations');
  push('organization.connection.updated', { organization_id: acme.id, connection_id: partner.id, assign_membership_on_login: true }, 'PATCH', 'organizations');
  push('group.role.deleted', { group_id: support.id, role_id: role.id }, 'DELETE', 'groups');
  push('organization.connection.removed', { organization_id: acme.id, connection_id: partner.id }, 'DELETE', 'organizations');
  push('connection.deleted', partner, 'DELETE', 'connections', connRef(partner));
  push('user.updated', { ...u2, name: 'History User 2 (renamed)' }, 'PATCH', 'users', connRef(db));
  push('user.created', u5, 'POST', 'users', connRef(db));
  push('group.deleted', support, 'DELETE', 'groups');
  push('organization.member.role.deleted', { organization_id: acme.id, user_id: u1.user_id, role_id: role.id }, 'DELETE', 'organizations');
  push('user.updated', { ...u4, name: 'History User 4 (renamed)' }, 'PATCH', 'users', connRef(db));
  push('user.deleted', u5, 'DELETE', 'users', connRef(db));
  if (i !== HISTORY_EVENTS) throw new Error(`the seeded history holds ${i} events, not ${HISTORY_EVENTS}`);
  log.historyPosition = log.position;
}
