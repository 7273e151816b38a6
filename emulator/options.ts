/**
 * Options of the reference emulator, their defaults, and their validation.
 * The CLI (cli.ts) and startEmulator()/buildEmulator() (index.ts) both go
 * through resolveOptions(), so a bad value fails the same way everywhere.
 */
import { faultNames, type FaultName } from './faults/catalogue.js';
import { Deviations } from './faults/seams.js';
import { variantNames, type VariantName } from './faults/variants.js';

/** A fixed-window rate limit: `limit` requests per `windowSeconds`. */
export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
}

export interface EmulatorOptions {
  /** TCP port; 0 (default) picks a free port. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Rate limit of the `full` and `limited` clients' tokens (default 100000 per 10 s). */
  rateLimit?: RateLimitOptions;
  /** Rate limit of the `rateLimited` client's tokens (default 10 per 60 s). */
  rateLimitedClient?: RateLimitOptions;
  /** Lifetime in seconds of the `expiring` client's tokens, its expires_in (default 5). */
  expiringTokenSeconds?: number;
  /** Interval of `offset-only` heartbeats on GET /events (default 1000 ms). */
  heartbeatMs?: number;
  /** Mount the unauthenticated /__control endpoints (default false). */
  control?: boolean;
  /** Seed of the deterministic initial state (default 20250101). */
  seed?: number;
  /**
   * Faults to switch on: comma-separated names of the catalogue
   * (emulator/faults/catalogue.ts). Absent: EMULATOR_FAULT from the environment.
   */
  fault?: string;
  /**
   * A false-positive variant of the catalogue (emulator/faults/variants.ts).
   * Absent: EMULATOR_VARIANT from the environment.
   */
  variant?: string;
  /**
   * Origin the app believes it is served at, for buildEmulator() used with
   * inject(). startEmulator() sets it from the listening address.
   */
  origin?: string;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * The clock (epoch ms) read once at start, which the seeded token sets'
   * dates count from (default Date.now); self-tests move the calendar with it.
   */
  now?: () => number;
  /**
   * Sign tokens with the key pair every emulator of this process shares
   * (made once) rather than one made for this start (default false). Each
   * still has its own kid, audience and issuer, so a token of one is
   * refused by another. For a process starting hundreds (npm run verify):
   * an RSA key pair costs about 130 ms to make.
   */
  sharedSigningKey?: boolean;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  rateLimit: RateLimitOptions;
  rateLimitedClient: RateLimitOptions;
  expiringTokenSeconds: number;
  heartbeatMs: number;
  control: boolean;
  seed: number;
  faults: ReadonlySet<FaultName>;
  variant: VariantName | undefined;
  /** The seams of these faults and this variant (one per emulator: some remember what they saw). */
  deviations: Deviations;
  origin: string;
  bodyLimit: number;
  now: () => number;
  sharedSigningKey: boolean;
}

/**
 * The emulator as the suite's embedded target (the global setup's, verify's):
 * heartbeats and the rate-limited client's window short, so that the checks
 * that wait for real behaviour (the next heartbeat, the reset of a window)
 * wait a fraction of a second rather than the defaults' seconds.
 */
export const AS_EMBEDDED_TARGET = {
  heartbeatMs: 250,
  rateLimitedClient: { limit: 10, windowSeconds: 2 },
  expiringTokenSeconds: 2,
} as const satisfies EmulatorOptions;

export const DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  rateLimit: { limit: 100_000, windowSeconds: 10 },
  rateLimitedClient: { limit: 10, windowSeconds: 60 },
  expiringTokenSeconds: 5,
  heartbeatMs: 1000,
  control: false,
  seed: 20250101,
  origin: 'http://localhost',
  bodyLimit: 1024 * 1024,
} as const;

function positiveInt(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`emulator option ${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return value;
}

function rate(name: string, value: RateLimitOptions): RateLimitOptions {
  return {
    limit: positiveInt(`${name}.limit`, value.limit),
    windowSeconds: positiveInt(`${name}.windowSeconds`, value.windowSeconds, 86_400),
  };
}

/** Parses `100/10` (limit per window seconds), as the CLI's --rate-limit takes it. */
export function parseRate(text: string): RateLimitOptions {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new RangeError(`rate limit must look like LIMIT/WINDOW_SECONDS (e.g. 100/10), got ${text}`);
  return rate('rate', { limit: Number(m[1]), windowSeconds: Number(m[2]) });
}

const isFaultName = (name: string): name is FaultName => (faultNames as readonly string[]).includes(name);
const isVariantName = (name: string): name is VariantName => (variantNames as readonly string[]).includes(name);

/** Comma-separated fault names; an unknown name is refused with the catalogue listed. */
export function parseFaults(text: string): ReadonlySet<FaultName> {
  const names = text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f.length > 0);
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) {
    throw new RangeError(
      `unknown fault ${unknown.join(', ')}; the catalogue (emulator/faults/catalogue.ts): ${faultNames.join(', ')}`,
    );
  }
  return new Set(names.filter(isFaultName));
}

/** A variant name, or undefined for none; an unknown name is refused with the catalogue listed. */
export function parseVariant(text: string | undefined): VariantName | undefined {
  const name = text?.trim();
  if (!name) return undefined;
  if (!isVariantName(name))
    throw new RangeError(
      `unknown variant ${name}; the catalogue (emulator/faults/variants.ts): ${variantNames.join(', ')}`,
    );
  return name;
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const port = options.port ?? DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RangeError(`emulator option port must be 0..65535, got ${port}`);
  const seed = options.seed ?? DEFAULTS.seed;
  if (!Number.isInteger(seed)) throw new RangeError(`emulator option seed must be an integer, got ${seed}`);
  const faults = parseFaults(options.fault ?? process.env['EMULATOR_FAULT'] ?? '');
  const variant = parseVariant(options.variant ?? process.env['EMULATOR_VARIANT']);
  const deviations = new Deviations(faults, variant);
  return {
    port,
    host: options.host ?? DEFAULTS.host,
    rateLimit: rate('rateLimit', options.rateLimit ?? DEFAULTS.rateLimit),
    rateLimitedClient: rate(
      'rateLimitedClient',
      deviations.rateLimitedClientWindow(options.rateLimitedClient ?? DEFAULTS.rateLimitedClient),
    ),
    expiringTokenSeconds: positiveInt(
      'expiringTokenSeconds',
      options.expiringTokenSeconds ?? DEFAULTS.expiringTokenSeconds,
      86_400,
    ),
    heartbeatMs: positiveInt('heartbeatMs', options.heartbeatMs ?? DEFAULTS.heartbeatMs, 3_600_000),
    control: options.control ?? DEFAULTS.control,
    seed,
    faults,
    variant,
    deviations,
    origin: (options.origin ?? DEFAULTS.origin).replace(/\/+$/, ''),
    bodyLimit: positiveInt('bodyLimit', options.bodyLimit ?? DEFAULTS.bodyLimit),
    now: options.now ?? Date.now,
    sharedSigningKey: options.sharedSigningKey ?? false,
  };
}
