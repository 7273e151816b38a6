/**
 * JWTs as the checks read and forge them. Reading: what a token is (RFC 7519
 * 1: a JWS or JWE compact serialisation) and its claims, never verified (the
 * suite is a client). Forging, for the authentication checks (Errors: "401:
 * Invalid token; the JWT signature is invalid"): a tampered signature,
 * unsigned, signed by a key of the run's own, and the run's token with its
 * payload changed after signing.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** A JWS compact serialisation (RFC 7515 7.1): three base64url segments, the signature possibly empty (alg none). */
export const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** A JWE compact serialisation (RFC 7516 7.1): five segments; the encrypted key, IV and tag may be empty. */
export const JWE_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const decodeSegment = (s: string): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * What a token is as a JWT (RFC 7519 1: "JWTs are always represented using
 * the JWS Compact Serialization or the JWE Compact Serialization"): a JWS
 * whose header (with alg) and payload are JSON objects, a JWE whose header
 * (with alg and enc) is one, or neither.
 */
export function jwtKind(token: string): 'jws' | 'jwe' | undefined {
  if (JWS_COMPACT.test(token)) {
    const jwt = decodeJwt(token);
    return jwt && typeof jwt.header.alg === 'string' ? 'jws' : undefined;
  }
  if (JWE_COMPACT.test(token)) {
    const header = decodeSegment(token.split('.')[0]!);
    return header && typeof header.alg === 'string' && typeof header.enc === 'string' ? 'jwe' : undefined;
  }
  return undefined;
}

/** Decodes a JWS-form JWT's header and payload (no verification: the suite is a client). */
export function decodeJwt(
  token: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = decodeSegment(parts[0]!);
  const payload = decodeSegment(parts[1]!);
  return header && payload ? { header, payload } : undefined;
}

/** The same JWT with one character of its signature changed. */
export function tamperSignature(token: string): string {
  const dot = token.lastIndexOf('.');
  const sig = token.slice(dot + 1);
  if (!sig) return `${token}AAAA`;
  const i = Math.floor(sig.length / 2);
  const c = sig[i] === 'A' ? 'B' : 'A';
  return `${token.slice(0, dot + 1)}${sig.slice(0, i)}${c}${sig.slice(i + 1)}`;
}

// ---------------------------------------------------------------------------
// Forged tokens

const segment = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The token's claims under `alg: none` with an empty signature (RFC 7519 6.1, an unsecured JWT). */
export function unsignedToken(token: string): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  return `${segment({ alg: 'none', typ: 'JWT' })}.${segment(jwt.payload)}.`;
}

/** The token with its payload changed by `change` and its original header and signature kept. */
export function changedPayloadToken(
  token: string,
  change: (payload: Record<string, unknown>) => Record<string, unknown>,
): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const [header, , signature] = token.split('.');
  return `${header}.${segment(change({ ...jwt.payload }))}.${signature}`;
}

/** Algorithms of which the suite can make a key pair of its own (the run token's, where it is one of them). */
const OWN_KEY_ALGS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]);
const ownKeys = new Map<string, Promise<{ privateKey: CryptoKey; jwk: JWK }>>();

/** A key pair made for this run, never the tenant's (one per algorithm and worker). */
function ownKey(alg: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  let k = ownKeys.get(alg);
  if (!k) {
    k = generateKeyPair(alg, { extractable: true }).then(async ({ privateKey, publicKey }) => ({
      privateKey,
      jwk: await exportJWK(publicKey),
    }));
    ownKeys.set(alg, k);
  }
  return k;
}

/**
 * The token's claims signed by a key that is not the tenant's, under the
 * tenant's `kid` (so a verifier that picks its key by kid finds the tenant's
 * and must fail), and with `embedJwk` the key's public half in the header
 * (`jwk`, RFC 7515 4.1.3), which a verifier must not trust.
 */
export async function foreignKeyToken(token: string, embedJwk: boolean): Promise<string | undefined> {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const alg = typeof jwt.header.alg === 'string' && OWN_KEY_ALGS.has(jwt.header.alg) ? jwt.header.alg : 'RS256';
  const { privateKey, jwk } = await ownKey(alg);
  const header: Record<string, unknown> = { alg, typ: 'JWT' };
  if (typeof jwt.header.kid === 'string') header.kid = jwt.header.kid;
  if (embedJwk) header.jwk = jwk;
  return new SignJWT(jwt.payload).setProtectedHeader(header as { alg: string }).sign(privateKey);
}
