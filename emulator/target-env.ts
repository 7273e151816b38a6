/**
 * What the suite is told about the embedded emulator as its target: the
 * dotenv variables of a run (URLs, the four clients' credentials, the seeded
 * fixtures' ids, the profile to run). Like the CLI, this configures the
 * suite, not the interface: mutation/stryker.config.mjs does not mutate it.
 */
import type { SeedFixtures } from './state.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TargetDescription {
  baseUrl: string;
  authUrl: string;
  audience: string;
  clients: Record<'full' | 'limited' | 'rateLimited' | 'expiring', ClientCredentials>;
  fixtures: SeedFixtures;
  /** The control surface's URL, when it is on. */
  controlUrl: string | undefined;
  /** The limit of the rate-limited client on every operation: the one its probe meets. */
  rateLimit: { limit: number; windowSeconds: number };
}

/**
 * The dotenv variables the suite reads. Each is given: a target the suite
 * starts itself has every client and fixture, so one missing is a defect of
 * the emulator, told here, not a check the suite skips for want of it.
 */
export function targetEnv(t: TargetDescription): Record<string, string> {
  const env = variablesOf(t);
  const missing = Object.entries(env).filter(([, v]) => typeof v !== 'string' || v === '');
  if (missing.length)
    throw new Error(`the embedded emulator gives no ${missing.map(([k]) => k).join(', ')}: a defect of the emulator`);
  return env;
}

function variablesOf(t: TargetDescription): Record<string, string> {
  const { clients, fixtures } = t;
  return {
    CONFORMANCE_BASE_URL: t.baseUrl,
    CONFORMANCE_AUTH_URL: t.authUrl,
    CONFORMANCE_AUDIENCE: t.audience,
    CONFORMANCE_CLIENT_ID: clients.full.clientId,
    CONFORMANCE_CLIENT_SECRET: clients.full.clientSecret,
    CONFORMANCE_LIMITED_CLIENT_ID: clients.limited.clientId,
    CONFORMANCE_LIMITED_CLIENT_SECRET: clients.limited.clientSecret,
    CONFORMANCE_RATE_LIMIT_CLIENT_ID: clients.rateLimited.clientId,
    CONFORMANCE_RATE_LIMIT_CLIENT_SECRET: clients.rateLimited.clientSecret,
    CONFORMANCE_EXPIRING_CLIENT_ID: clients.expiring.clientId,
    CONFORMANCE_EXPIRING_CLIENT_SECRET: clients.expiring.clientSecret,
    // The emulator refuses a token from its exp on (jose's jwtVerify, no clock tolerance).
    CONFORMANCE_TOKEN_EXPIRY_LEEWAY: '0',
    CONFORMANCE_USER_ID: fixtures.userId,
    CONFORMANCE_USER_TOKEN_SET_IDS: fixtures.userTokenSetIds.join(','),
    CONFORMANCE_USER_IDS: [fixtures.userWithOneTokenSetId, fixtures.userWithoutTokenSetsId].join(','),
    CONFORMANCE_CLIENT_GRANT_ID: fixtures.clientGrantId,
    CONFORMANCE_CLIENT_GRANT_IDS: fixtures.otherClientGrantIds.join(','),
    CONFORMANCE_SELF_SERVICE_PROFILE_ID: fixtures.selfServiceProfileId,
    CONFORMANCE_EXPERIMENT_IDS: fixtures.experimentIds.join(','),
    CONFORMANCE_EVENT_STREAM_IDS: fixtures.eventStreamIds.join(','),
    CONFORMANCE_USER_CONNECTION: fixtures.userConnection,
    CONFORMANCE_WRITES: 'disposable',
    CONFORMANCE_RATE_LIMIT_PROBE: 'on',
    CONFORMANCE_RATE_LIMIT_EXPECTED: `${t.rateLimit.limit}/${t.rateLimit.windowSeconds}s`,
    CONFORMANCE_EVENTS_TRIGGER: 'management-api',
    ...(t.controlUrl ? { CONFORMANCE_CONTROL_URL: t.controlUrl } : {}),
  };
}
