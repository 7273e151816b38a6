/**
 * What every part of the emulator shares: options, faults, state, the token
 * issuer/verifier, the event log, the rate limiter and the open SSE streams.
 * One context per emulator instance; nothing lives in module globals.
 */
import type { OperationId } from '../spec/operations.js';
import type { Principal, TokenAuthority } from './auth.js';
import type { EventLog } from './events.js';
import type { FaultName } from './faults/catalogue.js';
import type { Mutations } from './faults/mutations.js';
import type { Deviations } from './faults/seams.js';
import type { VariantName } from './faults/variants.js';
import type { ResolvedOptions } from './options.js';
import type { FixedWindowLimiter } from './rate-limit.js';
import type { State } from './state.js';

/** Path prefix of the interface: every operation lives under it (Versioning 1). */
export const API_PREFIX = '/api/v2';

/** An open SSE response, closable when the emulator shuts down. */
export interface OpenStream {
  close(): void;
}

export interface EmulatorContext {
  readonly options: ResolvedOptions;
  /** Faults switched on (the catalogue: faults/catalogue.ts); the control surface may switch them (faults/switch.ts). */
  faults: ReadonlySet<FaultName>;
  /** The false-positive variant, if any (faults/variants.ts). */
  readonly variant: VariantName | undefined;
  /** The behavioural seams the routes call (faults/seams.ts), asked per request. */
  deviations: Deviations;
  /** The answer reshapes switched on (faults/mutations.ts), asked per request. */
  mutations: Mutations;
  /** `http://host:port` the emulator is reached at; set by startEmulator() after listen. */
  origin: string;
  readonly state: State;
  readonly auth: TokenAuthority;
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
    /** The operation of the interface the route serves (none for the emulator's own routes). */
    operation?: OperationId;
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
