/**
 * Client-credentials token requests (Authentication 2): a form-encoded POST
 * to {auth_url}/oauth/token/ with grant_type, client_id, client_secret and
 * audience. Errors say what went wrong without printing any secret.
 *
 * Also the forged tokens of the authentication checks (Errors: "401: Invalid
 * token; the JWT signature is invalid"): unsigned, signed by a key of the
 * run's own, and the run's token with its payload changed after signing.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { ClientCredentials, Config } from './config.ts';

export const TOKEN_PATH = '/oauth/token/';

export class TargetError extends Error {
  override name = 'TargetError';
}

export interface TokenAnswer {
  status: number;
  contentType: string;
  json: unknown;
  text: string;
}

/** How a token request is sent: the documented way is a form body to /oauth/token/ (with the slash). */
export interface TokenRequestForm {
  path: string;
  body: 'form' | 'json';
}

export const DOCUMENTED: TokenRequestForm = { path: TOKEN_PATH, body: 'form' };

/**
 * Undocumented forms the setup falls back to, only to get the run's own
 * tokens when the documented request fails (the token endpoint check still
 * fails on the documented one): a JSON body, the path without the slash.
 */
export const FALLBACKS: readonly TokenRequestForm[] = [
  { path: TOKEN_PATH, body: 'json' },
  { path: '/oauth/token', body: 'form' },
  { path: '/oauth/token', body: 'json' },
];

/** Environment name under which the setup records that the run's tokens needed an undocumented request. */
export const TOKEN_FALLBACK = 'CONFORMANCE_TOKEN_FALLBACK';

export const fallbackWarning = (which: string, note: string) =>
  `oauth.token.endpoint: the ${which} token was had only by an undocumented request: ${note}. The run goes on with it; the token endpoint check fails.`;

export const describeForm = (f: TokenRequestForm) => `${f.body === 'form' ? 'a form body' : 'a JSON body'} to ${f.path}`;

/** Sends one token request; answers whatever the endpoint says (no throw on 4xx). */
export async function requestToken(
  config: Pick<Config, 'authUrl' | 'audience'>,
  creds: ClientCredentials,
  extra: Record<string, string> = {},
  timeoutMs = 15_000,
  form: TokenRequestForm = DOCUMENTED,
): Promise<TokenAnswer> {
  const params = {
    grant_type: 'client_credentials',
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
    audience: config.audience,
    ...extra,
  };
  const url = `${config.authUrl}${form.path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': form.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json', accept: 'application/json' },
      body: form.body === 'form' ? new URLSearchParams(params) : JSON.stringify(params),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new TargetError(describeNetworkError(url, e));
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', json, text };
}

const tokenOf = (a: TokenAnswer): string | undefined => {
  const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
  return a.status >= 200 && a.status < 300 && typeof token === 'string' && token ? token : undefined;
};

/**
 * A token, or a TargetError that says why none could be had. The documented
 * request first; when it fails, the undocumented forms (FALLBACKS), so that a
 * token endpoint that breaks only its documented form still lets the run go
 * on and the token endpoint check name the broken rule. The fallback is
 * recorded (TOKEN_FALLBACK) and said on the console; given `fallbacks`, it
 * is added there instead, for the caller to record and say.
 */
export async function fetchToken(config: Config, creds: ClientCredentials, which: string, fallbacks?: Array<{ which: string; note: string }>): Promise<string> {
  const a = await requestToken(config, creds, {}, config.timeoutMs);
  const token = tokenOf(a);
  if (token) return token;
  for (const form of FALLBACKS) {
    const b = await requestToken(config, creds, {}, config.timeoutMs, form).catch(() => undefined);
    const t = b && tokenOf(b);
    if (!t) continue;
    const note = `the documented request (a form body to ${TOKEN_PATH}) answered ${a.status}; ${describeForm(form)} was answered ${b.status}`;
    if (fallbacks) {
      // Handed back rather than written to process.env: verify prepares many targets in one process.
      fallbacks.push({ which, note });
      return t;
    }
    process.env[TOKEN_FALLBACK] = [process.env[TOKEN_FALLBACK], `${which}: ${note}`].filter(Boolean).join('; ');
    console.warn(fallbackWarning(which, note));
    return t;
  }
  const err = (a.json as { error?: unknown; error_description?: unknown } | undefined) ?? {};
  const why = [err.error, err.error_description].filter((x) => typeof x === 'string').join(': ');
  throw new TargetError(
    `The token endpoint ${config.authUrl}${TOKEN_PATH} refused the ${which} client credentials ` +
      `(status ${a.status}${why ? `, ${why}` : ''}). Check the client id and secret, and that the client is authorised for audience ${config.audience}.`,
  );
}

export function describeNetworkError(url: string, e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (e as { name?: string }).name ?? 'error';
  const host = new URL(url).host;
  if (code === 'TimeoutError' || code === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return `The target ${host} did not answer in time (${url}). Is the address right, and is the server up?`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The host ${host} cannot be resolved (${code}). Check CONFORMANCE_BASE_URL / CONFORMANCE_AUTH_URL.`;
  if (code === 'ECONNREFUSED') return `Nothing listens at ${host} (connection refused). Is the server up?`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code) || /certificate|tls|ssl/i.test(cause?.message ?? '')) {
    return `TLS handshake with ${host} failed (${code}: ${cause?.message ?? ''}).`;
  }
  return `Request to ${url} failed: ${code}${cause?.message ? ` (${cause.message})` : ''}`;
}

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
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined {
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
export function changedPayloadToken(token: string, change: (payload: Record<string, unknown>) => Record<string, unknown>): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const [header, , signature] = token.split('.');
  return `${header}.${segment(change({ ...jwt.payload }))}.${signature}`;
}

/** Algorithms of which the suite can make a key pair of its own (the run token's, where it is one of them). */
const OWN_KEY_ALGS = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);
const ownKeys = new Map<string, Promise<{ privateKey: CryptoKey; jwk: JWK }>>();

/** A key pair made for this run, never the tenant's (one per algorithm and worker). */
function ownKey(alg: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  let k = ownKeys.get(alg);
  if (!k) {
    k = generateKeyPair(alg, { extractable: true }).then(async ({ privateKey, publicKey }) => ({ privateKey, jwk: await exportJWK(publicKey) }));
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
