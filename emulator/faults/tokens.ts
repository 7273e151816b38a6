/**
 * Token handling that only faults and variants use, kept out of the
 * product's TokenAuthority (auth.ts): reading claims without verifying them,
 * remembering signatures, and access tokens that stand for a JWT (an opaque
 * reference, or the JWT encrypted as a JWE).
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { CompactEncrypt, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { makePrincipal, type Principal, type TokenAuthority } from '../auth.js';
import { audienceOf } from '../context.js';
import { publicJwks } from '../signing-key.js';

/** The principal a JWT claims, read without verifying it. */
export function claimedPrincipal(auth: TokenAuthority, token: string): Principal | undefined {
  try {
    const payload = decodeJwt(token);
    const sub = payload.sub ?? '';
    const client = sub.endsWith('@clients') ? auth.client(sub.slice(0, -'@clients'.length)) : undefined;
    if (client === undefined || typeof payload.scope !== 'string') return undefined;
    return makePrincipal(client, new Set(payload.scope.split(' ').filter(Boolean)), String(payload.jti));
  } catch {
    return undefined;
  }
}

/** The claims of an unsigned JWT (`alg: none`), read as if verified. */
export function unsignedPrincipal(auth: TokenAuthority, token: string): Principal | undefined {
  try {
    if (String(decodeProtectedHeader(token).alg).toLowerCase() !== 'none') return undefined;
  } catch {
    return undefined;
  }
  return claimedPrincipal(auth, token);
}

/** The claims of a JWT verified with the key its own header embeds (`jwk`): any key at all. */
export async function embeddedKeyPrincipal(
  auth: TokenAuthority,
  token: string,
  origin: string,
): Promise<Principal | undefined> {
  try {
    const { jwk, alg } = decodeProtectedHeader(token);
    if (jwk === undefined || alg === undefined) return undefined;
    await jwtVerify(token, await importJWK(jwk, alg), { issuer: `${origin}/`, audience: audienceOf(origin) });
    return claimedPrincipal(auth, token);
  } catch {
    return undefined;
  }
}

/**
 * The claims of an HS256 JWT verified with the tenant's published public key
 * as the HMAC secret (its SPKI PEM): a verifier that takes the algorithm from
 * the token and hands it whatever key material it holds.
 */
export async function publicKeyHmacPrincipal(
  auth: TokenAuthority,
  token: string,
  origin: string,
): Promise<Principal | undefined> {
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return undefined;
    const jwk = (await publicJwks(auth)).keys[0]!;
    const pem = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    await jwtVerify(token, new TextEncoder().encode(pem), {
      algorithms: ['HS256'],
      issuer: `${origin}/`,
      audience: audienceOf(origin),
    });
    return claimedPrincipal(auth, token);
  } catch {
    return undefined;
  }
}

const signatureOf = (token: string): string => token.slice(token.lastIndexOf('.') + 1);

/** Access tokens that stand for a JWT, and the signatures of tokens verified once. */
export class TokenStandIns {
  private readonly jwtOf = new Map<string, string>();
  private readonly encryptionKey = randomBytes(32);
  private readonly signatures = new Set<string>();

  /** An opaque reference standing for `jwt`. */
  opaque(jwt: string): string {
    const ref = `opq_${randomBytes(24).toString('hex')}`;
    this.jwtOf.set(ref, jwt);
    return ref;
  }

  /** `jwt` encrypted for the emulator itself (nested JWT, JWE compact, dir + A256GCM); a changed JWE resolves to nothing. */
  async encrypted(jwt: string): Promise<string> {
    const jwe = await new CompactEncrypt(new TextEncoder().encode(jwt))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' })
      .encrypt(this.encryptionKey);
    this.jwtOf.set(jwe, jwt);
    return jwe;
  }

  /** The JWT a stand-in stands for; any other token as it is. */
  resolve(token: string): string {
    return this.jwtOf.get(token) ?? token;
  }

  rememberSignature(token: string): void {
    this.signatures.add(signatureOf(token));
  }

  seenSignature(token: string): boolean {
    return this.signatures.has(signatureOf(token));
  }
}

/**
 * The claims of a JWT verified with the tenant's custom signing key its
 * header's kid names (`jwt-custom-signing-key-trusted`): keys a caller set
 * itself, so any caller signs a token it admits.
 */
export async function customKeyPrincipal(
  auth: TokenAuthority,
  token: string,
  origin: string,
  keys: readonly object[],
): Promise<Principal | undefined> {
  try {
    const { kid, alg } = decodeProtectedHeader(token);
    if (kid === undefined || alg === undefined) return undefined;
    const jwk = keys.find((k) => (k as { kid?: unknown }).kid === kid);
    if (jwk === undefined) return undefined;
    await jwtVerify(token, await importJWK(jwk as import('jose').JWK, alg), {
      issuer: `${origin}/`,
      audience: audienceOf(origin),
    });
    return claimedPrincipal(auth, token);
  } catch {
    return undefined;
  }
}
