/**
 * The suite's configuration, and the only module that reads (or writes) the
 * environment: `CONFORMANCE_*` variables from the environment and `.env`
 * (dotenv). With no `CONFORMANCE_BASE_URL`, the global setup starts the
 * embedded emulator and fills every variable before the workers read them
 * (harness/run/global-setup.ts); what the setup prepares for the workers (the
 * run's tokens) is handed over here too (`handOver`, `HANDOVER`).
 *
 * A worker reads its configuration from `{ ...process.env, ...targetEnv }`
 * (the `config` fixture), so that each Playwright project may test its own target.
 *
 * Secrets (tokens, client secrets) are read here and nowhere else, and are
 * never printed: `describeConfig()` shows which are set, not their values.
 */
import { config as loadDotenv } from 'dotenv';

/** What the global setup hands to the workers (harness/run/prepare-target.ts), by environment name. */
export const HANDOVER = {
  /** The run's main token, fetched once. */
  runToken: 'CONFORMANCE_RUN_TOKEN',
  /** The run's token without the in-scope scopes, if any. */
  limitedRunToken: 'CONFORMANCE_RUN_LIMITED_TOKEN',
  /** Set when the run's tokens needed an undocumented token request (harness/requests/tokens.ts). */
  tokenFallback: 'CONFORMANCE_TOKEN_FALLBACK',
  /** Requests the setup sent itself (token requests, preflight), for the report's request count. */
  setupRequests: 'CONFORMANCE_SETUP_REQUESTS',
} as const;

/** Names the command hands to playwright's processes. */
export const ENV_FILE = 'CONFORMANCE_ENV_FILE';
export const REPORTS_DIR = 'CONFORMANCE_REPORTS_DIR';
export const PROFILE = 'CONFORMANCE_PROFILE';
export const RECORD_PROFILE = 'CONFORMANCE_RECORD_PROFILE';
export const BASELINE = 'CONFORMANCE_BASELINE';

let dotenvLoaded = false;

/**
 * The environment a run reads: the process's, with `.env` under it (a
 * variable set in the environment wins). CONFORMANCE_ENV_FILE (the command's
 * --env-file) names the file to read instead of ./.env.
 */
export function processEnv(): Env {
  if (!dotenvLoaded) {
    loadDotenv({ quiet: true, ...(process.env[ENV_FILE] ? { path: process.env[ENV_FILE] } : {}) });
    dotenvLoaded = true;
  }
  return { ...process.env };
}

/** The command's own environment, without `.env`: playwright's processes read the file themselves (--env-file). */
export function commandEnv(): Env {
  return { ...process.env };
}

/**
 * none: not one write is sent. restore: writes allowed, and a write is sent only where what it changes can be put
 * back (the reads a snapshot needs are not shown by the document). disposable: writes allowed on a target whose state
 * may be lost (the embedded emulator, an emulator under test, a scratch tenant): put back where a snapshot can be
 * taken, and sent all the same where it cannot, so no check is skipped for a read the document does not show.
 */
export type WritesMode = 'none' | 'restore' | 'disposable';
export type EventsTrigger = 'management-api' | 'none';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface Config {
  /** The target's {base_url}: tenant host + /api/v2, without a trailing slash. */
  baseUrl: string;
  /** The host that serves /oauth/token/. */
  authUrl: string;
  audience: string;
  /** Whether the target is the embedded emulator started by this run. */
  embedded: boolean;
  token?: string;
  credentials?: ClientCredentials;
  limitedToken?: string;
  limitedCredentials?: ClientCredentials;
  /** Credentials for the rate-limit probe; the main ones when not given. */
  rateLimitCredentials?: ClientCredentials;
  /** A client whose tokens live briefly (CONFORMANCE_EXPIRING_CLIENT_ID/SECRET): the expiry check waits one out. */
  expiringCredentials?: ClientCredentials;
  /**
   * Seconds past a token's lifetime a target may still take it (CONFORMANCE_TOKEN_EXPIRY_LEEWAY, default 300:
   * RFC 7519 4.1.4 allows "some small leeway, usually no more than a few minutes").
   */
  tokenExpiryLeewaySeconds: number;
  userId?: string;
  /** The ids of that user's active token sets, where the tenant's owner knows them (CONFORMANCE_USER_TOKEN_SET_IDS). */
  userTokenSetIds?: string[];
  clientGrantId?: string;
  /** Further client grants to read (CONFORMANCE_CLIENT_GRANT_IDS): say a default_for grant, whose enum a read decides. */
  otherClientGrantIds: string[];
  /** Further users whose token sets to list (CONFORMANCE_USER_IDS): say one with exactly one token set, one with none. */
  otherUserIds: string[];
  selfServiceProfileId?: string;
  experimentIds: string[];
  /** Event streams the tenant holds (CONFORMANCE_EVENT_STREAM_IDS): the listing must show each, as its GET answers it. */
  eventStreamIds: string[];
  userConnection?: string;
  /** Text key used for custom-text writes (the allowed keys are not shown). */
  customTextKey: string;
  writes: WritesMode;
  rateLimitProbe: boolean;
  /** Upper bound of requests the rate-limit probe may send. */
  rateLimitProbeMax: number;
  /**
   * The limit the probe's client has on the token-set listing, where the target's owner knows it
   * (CONFORMANCE_RATE_LIMIT_EXPECTED, `N/Ws`: N requests in W seconds): the document shows no number, so only a
   * known limit turns a probe that passed it without a 429 into a failure.
   */
  rateLimitExpected?: { limit: number; windowMs: number };
  eventsTrigger: EventsTrigger;
  /** How long the passive event checks wait for events (CONFORMANCE_EVENTS_WAIT_MS). */
  eventsWaitMs: number;
  maxRps?: number;
  /** Emulator control endpoint (embedded runs only). */
  controlUrl?: string;
  /** How long the setup waits for the token endpoint and the target before giving up (a hanging target). */
  timeoutMs: number;
  /** The run's tokens and notes, as the global setup handed them over (HANDOVER). */
  runToken?: string;
  limitedRunToken?: string;
  tokenFallback?: string;
  /**
   * Replay or scale the property checks (CONFORMANCE_FC_SEED, _PATH, _RUNS); CONFORMANCE_FC_SHRINK=off
   * reports a failing property's first failing case unshrunk (where only failing matters: a fault's
   * sweep, a mutant).
   */
  fc: { seed?: number; path?: string; runs?: number; shrink: boolean };
  /** A profile to expect (--profile). */
  profile?: string;
  /** Where the fixture ledger is kept (CONFORMANCE_STATE_DIR, else the reports folder). */
  stateDir: string;
  /**
   * A fault's sweep of `npm run verify` (CONFORMANCE_VERIFY_SWEEP=1, set by verify on a fault's project
   * only), where a failing check is the expected result: its worker goes on to the next check. Never
   * set for a conformance run.
   */
  sweep: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

function opt(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const v = opt(env, name);
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(`${name}=${v} is not one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function credentials(env: Env, idVar: string, secretVar: string): ClientCredentials | undefined {
  const clientId = opt(env, idVar);
  const clientSecret = opt(env, secretVar);
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) throw new ConfigError(`${idVar} and ${secretVar} go together: set both or neither`);
  return { clientId, clientSecret };
}

function url(env: Env, name: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not an absolute URL: ${value}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be http(s): ${value}`);
  return value.replace(/\/+$/, '');
}

/** Reads the configuration from an environment (process.env by default). */
export function readConfig(env: Env = processEnv()): Config {
  const rawBase = opt(env, 'CONFORMANCE_BASE_URL');
  if (!rawBase)
    throw new ConfigError('CONFORMANCE_BASE_URL is not set (the global setup sets it for the embedded emulator)');
  const baseUrl = url(env, 'CONFORMANCE_BASE_URL', rawBase);
  const origin = new URL(baseUrl).origin;
  const authUrl = url(env, 'CONFORMANCE_AUTH_URL', opt(env, 'CONFORMANCE_AUTH_URL') ?? origin);
  const embedded = opt(env, 'CONFORMANCE_EMBEDDED') === '1';
  const token = opt(env, 'CONFORMANCE_TOKEN');
  const creds = credentials(env, 'CONFORMANCE_CLIENT_ID', 'CONFORMANCE_CLIENT_SECRET');
  if (!token && !creds) {
    throw new ConfigError('Set CONFORMANCE_TOKEN, or CONFORMANCE_CLIENT_ID and CONFORMANCE_CLIENT_SECRET');
  }
  const maxRps = opt(env, 'CONFORMANCE_MAX_RPS');
  if (maxRps !== undefined && !(Number(maxRps) > 0))
    throw new ConfigError(`CONFORMANCE_MAX_RPS must be a positive number: ${maxRps}`);
  const probeMax = Number(opt(env, 'CONFORMANCE_RATE_LIMIT_PROBE_MAX') ?? 200);
  if (!Number.isInteger(probeMax) || probeMax < 1)
    throw new ConfigError('CONFORMANCE_RATE_LIMIT_PROBE_MAX must be a positive integer');

  const expected = opt(env, 'CONFORMANCE_RATE_LIMIT_EXPECTED');
  const expectedParts = expected === undefined ? undefined : /^(\d+)\/(\d+(?:\.\d+)?)s$/.exec(expected.trim());
  if (expected !== undefined && (expectedParts == null || !(Number(expectedParts[1]) > 0)))
    throw new ConfigError(
      `CONFORMANCE_RATE_LIMIT_EXPECTED must be N/Ws, N requests in W seconds (say 10/2s): ${expected}`,
    );

  const leeway = Number(opt(env, 'CONFORMANCE_TOKEN_EXPIRY_LEEWAY') ?? 300);
  if (!Number.isInteger(leeway) || leeway < 0)
    throw new ConfigError('CONFORMANCE_TOKEN_EXPIRY_LEEWAY must be a whole number of seconds, 0 or more');

  const timeoutMs = Number(opt(env, 'CONFORMANCE_TIMEOUT_MS') ?? 15_000);
  if (!(timeoutMs > 0)) throw new ConfigError('CONFORMANCE_TIMEOUT_MS must be a positive number of milliseconds');
  return {
    timeoutMs,
    baseUrl,
    authUrl,
    audience: opt(env, 'CONFORMANCE_AUDIENCE') ?? `${origin}/api/v2/`,
    embedded,
    token,
    credentials: creds,
    limitedToken: opt(env, 'CONFORMANCE_LIMITED_TOKEN'),
    limitedCredentials: credentials(env, 'CONFORMANCE_LIMITED_CLIENT_ID', 'CONFORMANCE_LIMITED_CLIENT_SECRET'),
    rateLimitCredentials: credentials(env, 'CONFORMANCE_RATE_LIMIT_CLIENT_ID', 'CONFORMANCE_RATE_LIMIT_CLIENT_SECRET'),
    expiringCredentials: credentials(env, 'CONFORMANCE_EXPIRING_CLIENT_ID', 'CONFORMANCE_EXPIRING_CLIENT_SECRET'),
    tokenExpiryLeewaySeconds: leeway,
    userId: opt(env, 'CONFORMANCE_USER_ID'),
    userTokenSetIds: opt(env, 'CONFORMANCE_USER_TOKEN_SET_IDS')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    otherUserIds: (opt(env, 'CONFORMANCE_USER_IDS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    clientGrantId: opt(env, 'CONFORMANCE_CLIENT_GRANT_ID'),
    otherClientGrantIds: (opt(env, 'CONFORMANCE_CLIENT_GRANT_IDS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    selfServiceProfileId: opt(env, 'CONFORMANCE_SELF_SERVICE_PROFILE_ID'),
    experimentIds: (opt(env, 'CONFORMANCE_EXPERIMENT_IDS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    eventStreamIds: (opt(env, 'CONFORMANCE_EVENT_STREAM_IDS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    userConnection: opt(env, 'CONFORMANCE_USER_CONNECTION'),
    customTextKey: opt(env, 'CONFORMANCE_CUSTOM_TEXT_KEY') ?? 'introduction',
    writes: oneOf(env, 'CONFORMANCE_WRITES', ['none', 'restore', 'disposable'], 'none'),
    rateLimitProbe: oneOf(env, 'CONFORMANCE_RATE_LIMIT_PROBE', ['off', 'on'], 'off') === 'on',
    rateLimitProbeMax: probeMax,
    ...(expectedParts
      ? { rateLimitExpected: { limit: Number(expectedParts[1]), windowMs: Number(expectedParts[2]) * 1000 } }
      : {}),
    eventsTrigger: oneOf(env, 'CONFORMANCE_EVENTS_TRIGGER', ['management-api', 'none'], 'none'),
    eventsWaitMs: Number(opt(env, 'CONFORMANCE_EVENTS_WAIT_MS') ?? 30_000),
    maxRps: maxRps === undefined ? undefined : Number(maxRps),
    controlUrl: opt(env, 'CONFORMANCE_CONTROL_URL'),
    runToken: opt(env, HANDOVER.runToken),
    limitedRunToken: opt(env, HANDOVER.limitedRunToken),
    tokenFallback: opt(env, HANDOVER.tokenFallback),
    fc: {
      seed: opt(env, 'CONFORMANCE_FC_SEED') === undefined ? undefined : Number(opt(env, 'CONFORMANCE_FC_SEED')),
      path: opt(env, 'CONFORMANCE_FC_PATH'),
      runs: Number(opt(env, 'CONFORMANCE_FC_RUNS')) || undefined,
      shrink: oneOf(env, 'CONFORMANCE_FC_SHRINK', ['on', 'off'], 'on') === 'on',
    },
    profile: opt(env, PROFILE),
    stateDir: opt(env, 'CONFORMANCE_STATE_DIR') ?? reportsDir(env),
    sweep: opt(env, 'CONFORMANCE_VERIFY_SWEEP') === '1',
  };
}

/** Hands values to the workers (and to the reporter), from the global setup: through the environment playwright's workers inherit. */
export function handOver(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
}

/** Where every report goes (default `reports`). */
export function reportsDir(env: Env = process.env): string {
  return opt(env, REPORTS_DIR) ?? 'reports';
}

/** Whether the run is on CI (playwright's forbidOnly). */
export const onCI = (env: Env = process.env) => !!opt(env, 'CI');

/**
 * What the reporter needs, in the main process after the global setup: read
 * leniently, since a run that did not start still writes its report.
 */
export function reportSettings(env: Env = process.env): {
  target: string;
  embedded: boolean;
  setupRequests: number;
  recordProfile?: string;
  /** Where runs are kept for the next run's difference (and the fixture ledger). */
  stateDir: string;
  /** The baseline given with --baseline, if any. */
  baseline?: string;
} {
  return {
    target: opt(env, 'CONFORMANCE_BASE_URL') ?? '(not set)',
    embedded: opt(env, 'CONFORMANCE_EMBEDDED') === '1',
    setupRequests: Number(opt(env, HANDOVER.setupRequests) ?? 0),
    recordProfile: opt(env, RECORD_PROFILE),
    stateDir: opt(env, 'CONFORMANCE_STATE_DIR') ?? reportsDir(env),
    baseline: opt(env, BASELINE),
  };
}

/** A one-screen summary for the start of a run: no secret, only whether each is set. */
export function describeConfig(c: Config): string {
  const set = (v: unknown) => (v ? 'set' : 'not set');
  return [
    `target      ${c.baseUrl}${c.embedded ? ' (embedded emulator)' : ''}`,
    `auth        ${c.authUrl}/oauth/token/  audience ${c.audience}`,
    `credentials token ${set(c.token)}, client ${set(c.credentials)}, limited ${set(c.limitedToken || c.limitedCredentials)}`,
    `fixtures    user ${set(c.userId)}, client grant ${set(c.clientGrantId)}${c.otherClientGrantIds.length ? ` (+${c.otherClientGrantIds.length})` : ''}, profile ${set(c.selfServiceProfileId)}, experiments ${c.experimentIds.length}`,
    `writes      ${c.writes}   rate-limit probe ${c.rateLimitProbe ? 'on' : 'off'}   events trigger ${c.eventsTrigger}${c.maxRps ? `   max ${c.maxRps} req/s` : ''}`,
  ].join('\n');
}
