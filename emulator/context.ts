/**
 * What every part of the emulator shares: options, faults, state, the token
 * issuer/verifier, the event log, the rate limiter and the open SSE streams.
 * One context per emulator instance; nothing lives in module globals.
 */
import type { Auth, Principal } from './auth.js';
import type { EventLog } from './events.js';
import type { ResolvedOptions } from './options.js';
import type { FixedWindowLimiter } from './rate-limit.js';
import type { State } from './state.js';

/** Path prefix of the interface: every operation lives under it (Versioning 1). */
export const API_PREFIX = '/api/v2';
/** Path prefix of the unauthenticated control endpoints (only with `control: true`). */
export const CONTROL_PREFIX = '/__control';
/** Token endpoint path on {auth_url} (Authentication 2); the form without the slash is served too. */
export const TOKEN_PATH = '/oauth/token';
export const JWKS_PATH = '/.well-known/jwks.json';

/** An open SSE response, closable when the emulator shuts down. */
export interface OpenStream {
  close(): void;
}

export interface EmulatorContext {
  readonly options: ResolvedOptions;
  /**
   * Faults switched on (the catalogue is emulator/faults.ts). A fault is one
   * `if (ctx.faults.has('name'))` at the place where it breaks a rule.
   */
  readonly faults: ReadonlySet<string>;
  /**
   * The false-positive variant, if any (emulator/variants.ts): one
   * `if (ctx.variant === 'name')` where it differs from the default.
   */
  readonly variant: string | undefined;
  /** `http://host:port` the emulator is reached at; set by startEmulator() after listen. */
  origin: string;
  readonly state: State;
  readonly auth: Auth;
  readonly events: EventLog;
  readonly limiter: FixedWindowLimiter;
  readonly streams: Set<OpenStream>;
}

/** The audience of the interface for an origin: `{origin}/api/v2/`. */
export function audienceOf(origin: string): string {
  return `${origin}${API_PREFIX}/`;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Any one of these scopes admits the caller (checked in the auth hook). */
    scopes?: readonly string[];
    /** Request media types the route accepts when a body is present. */
    contentTypes?: readonly string[];
  }
  interface FastifyRequest {
    /** The authenticated caller of an /api/v2 route. */
    principal: Principal | null;
  }
  interface FastifyInstance {
    emulator: EmulatorContext;
  }
}
