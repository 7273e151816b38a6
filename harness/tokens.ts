/**
 * Client-credentials token requests (Authentication 2): a form-encoded POST
 * to {auth_url}/oauth/token/ with grant_type, client_id, client_secret and
 * audience. Errors say what went wrong without printing any secret.
 */
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

/** Sends one token request; answers whatever the endpoint says (no throw on 4xx). */
export async function requestToken(
  config: Pick<Config, 'authUrl' | 'audience'>,
  creds: ClientCredentials,
  extra: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<TokenAnswer> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
    audience: config.audience,
    ...extra,
  });
  const url = `${config.authUrl}${TOKEN_PATH}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
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

/** A token, or a TargetError that says why none could be had. */
export async function fetchToken(config: Config, creds: ClientCredentials, which: string): Promise<string> {
  const a = await requestToken(config, creds, {}, config.timeoutMs);
  const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
  if (a.status === 200 && typeof token === 'string' && token) return token;
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

/** Decodes a JWT's header and payload (no verification: the suite is a client). */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const dec = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    const header = dec(parts[0]!);
    const payload = dec(parts[1]!);
    if (!header || typeof header !== 'object' || !payload || typeof payload !== 'object') return undefined;
    return { header: header as Record<string, unknown>, payload: payload as Record<string, unknown> };
  } catch {
    return undefined;
  }
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
