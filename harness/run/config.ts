/**
 * The suite's configuration: `CONFORMANCE_*` variables from the environment
 * and `.env` (dotenv). With no `CONFORMANCE_BASE_URL`, the global setup
 * starts the embedded emulator and fills every variable before the workers
 * read them (see harness/run/global-setup.ts).
 *
 * Secrets (tokens, client secrets) are read here and nowhere else, and are
 * never printed: `describeConfig()` shows which are set, not their values.
 */
import { config as loadDotenv } from 'dotenv';

// CONFORMANCE_ENV_FILE (the command's --env-file) names the file to read instead of ./.env.
loadDotenv({ quiet: true, ...(process.env.CONFORMANCE_ENV_FILE ? { path: process.env.CONFORMANCE_ENV_FILE } : {}) });

export type WritesMode = 'none' | 'restore';
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
  userId?: string;
  clientGrantId?: string;
  selfServiceProfileId?: string;
  experimentIds: string[];
  userConnection?: string;
  /** Text key used for custom-text writes (the allowed keys are not shown). */
  customTextKey: string;
  writes: WritesMode;
  rateLimitProbe: boolean;
  /** Upper bound of requests the rate-limit probe may send. */
  rateLimitProbeMax: number;
  eventsTrigger: EventsTrigger;
  /** How long the passive event checks wait for events (CONFORMANCE_EVENTS_WAIT_MS). */
  eventsWaitMs: number;
  maxRps?: number;
  /** Emulator control endpoint (embedded runs only). */
  controlUrl?: string;
  /** How long the setup waits for the token endpoint and the target before giving up (a hanging target). */
  timeoutMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

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
export function readConfig(env: Env = process.env): Config {
  const rawBase = opt(env, 'CONFORMANCE_BASE_URL');
  if (!rawBase) throw new ConfigError('CONFORMANCE_BASE_URL is not set (the global setup sets it for the embedded emulator)');
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
  if (maxRps !== undefined && !(Number(maxRps) > 0)) throw new ConfigError(`CONFORMANCE_MAX_RPS must be a positive number: ${maxRps}`);
  const probeMax = Number(opt(env, 'CONFORMANCE_RATE_LIMIT_PROBE_MAX') ?? 200);
  if (!Number.isInteger(probeMax) || probeMax < 1) throw new ConfigError('CONFORMANCE_RATE_LIMIT_PROBE_MAX must be a positive integer');

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
    userId: opt(env, 'CONFORMANCE_USER_ID'),
    clientGrantId: opt(env, 'CONFORMANCE_CLIENT_GRANT_ID'),
    selfServiceProfileId: opt(env, 'CONFORMANCE_SELF_SERVICE_PROFILE_ID'),
    experimentIds: (opt(env, 'CONFORMANCE_EXPERIMENT_IDS') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    userConnection: opt(env, 'CONFORMANCE_USER_CONNECTION'),
    customTextKey: opt(env, 'CONFORMANCE_CUSTOM_TEXT_KEY') ?? 'introduction',
    writes: oneOf(env, 'CONFORMANCE_WRITES', ['none', 'restore'], 'none'),
    rateLimitProbe: oneOf(env, 'CONFORMANCE_RATE_LIMIT_PROBE', ['off', 'on'], 'off') === 'on',
    rateLimitProbeMax: probeMax,
    eventsTrigger: oneOf(env, 'CONFORMANCE_EVENTS_TRIGGER', ['management-api', 'none'], 'none'),
    eventsWaitMs: Number(opt(env, 'CONFORMANCE_EVENTS_WAIT_MS') ?? 30_000),
    maxRps: maxRps === undefined ? undefined : Number(maxRps),
    controlUrl: opt(env, 'CONFORMANCE_CONTROL_URL'),
  };
}

/** A one-screen summary for the start of a run: no secret, only whether each is set. */
export function describeConfig(c: Config): string {
  const set = (v: unknown) => (v ? 'set' : 'not set');
  return [
    `target      ${c.baseUrl}${c.embedded ? ' (embedded emulator)' : ''}`,
    `auth        ${c.authUrl}/oauth/token/  audience ${c.audience}`,
    `credentials token ${set(c.token)}, client ${set(c.credentials)}, limited ${set(c.limitedToken || c.limitedCredentials)}`,
    `fixtures    user ${set(c.userId)}, client grant ${set(c.clientGrantId)}, profile ${set(c.selfServiceProfileId)}, experiments ${c.experimentIds.length}`,
    `writes      ${c.writes}   rate-limit probe ${c.rateLimitProbe ? 'on' : 'off'}   events trigger ${c.eventsTrigger}${c.maxRps ? `   max ${c.maxRps} req/s` : ''}`,
  ].join('\n');
}
