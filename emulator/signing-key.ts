/**
 * The emulator's signing key beyond signing and verifying its tokens (auth.ts
 * does both), which is no part of the interface:
 *  - the key pair emulators started in one process share (sharedSigningKey:
 *    the self-tests, verify), made by the first of them;
 *  - the public key as a JWKS: published at /.well-known/jwks.json, which the
 *    self-tests read to check a token's signature and kid, and read by the
 *    faults that misuse it. The document's JWKS is the custom signing keys
 *    body, not this.
 */
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { TokenAuthority } from './auth.js';
import type { EmulatorContext } from './context.js';
import { runner } from './faults/answers.js';
import type { ResolvedOptions } from './options.js';

export const JWKS_PATH = '/.well-known/jwks.json';

let sharedKeyPair: ReturnType<typeof generateKeyPair> | undefined;

/** The shared key pair with sharedSigningKey; undefined without it (the emulator makes its own). */
export function sharedSigningKeyPair(options: ResolvedOptions): ReturnType<typeof generateKeyPair> | undefined {
  return options.sharedSigningKey ? (sharedKeyPair ??= generateKeyPair('RS256')) : undefined;
}

/** The public key of `auth` as a JWKS (RFC 7517 5): one RS256 signing key, with the kid the tokens name. */
export async function publicJwks(auth: TokenAuthority): Promise<{ keys: JWK[] }> {
  return { keys: [{ ...(await exportJWK(auth.publicKey)), kid: auth.kid, alg: 'RS256', use: 'sig' }] };
}

export function registerJwks(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(JWKS_PATH, { handler: runner(ctx, undefined, () => publicJwks(ctx.auth)) });
}
