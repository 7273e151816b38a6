/**
 * Client-credentials token requests (Authentication 2): a form-encoded POST
 * to {auth_url}/oauth/token/ with grant_type, client_id, client_secret and
 * audience. Errors say what went wrong without printing any secret.
 */
import type { ClientCredentials, Config } from '../run/config.ts';

export const TOKEN_PATH = '/oauth/token/';

export class TargetError extends Error {
  override name = 'TargetError';
}

export interface TokenAnswer {
  status: number;
  contentType: string;
  /** The Cache-Control header (RFC 6749 5.1: a token response carries no-store). */
  cacheControl?: string;
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

export const describeForm = (f: TokenRequestForm) =>
  `${f.body === 'form' ? 'a form body' : 'a JSON body'} to ${f.path}`;

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
      headers: {
        'content-type': form.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
        accept: 'application/json',
      },
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
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    cacheControl: res.headers.get('cache-control') ?? undefined,
    json,
    text,
  };
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
 * said on the console and handed to `onFallback` (the setup hands it to the workers).
 */
export async function fetchToken(
  config: Config,
  creds: ClientCredentials,
  which: string,
  onFallback?: (note: string) => void,
): Promise<string> {
  const a = await requestToken(config, creds, {}, config.timeoutMs);
  const token = tokenOf(a);
  if (token) return token;
  for (const form of FALLBACKS) {
    const b = await requestToken(config, creds, {}, config.timeoutMs, form).catch(() => undefined);
    const t = b && tokenOf(b);
    if (!t) continue;
    const note = `the documented request (a form body to ${TOKEN_PATH}) answered ${a.status}; ${describeForm(form)} was answered ${b.status}`;
    onFallback?.(`${which}: ${note}`);
    console.warn(
      `oauth.token.endpoint: the ${which} token was had only by an undocumented request: ${note}. The run goes on with it; the token endpoint check fails.`,
    );
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
  if (
    code === 'TimeoutError' ||
    code === 'AbortError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT'
  ) {
    return `The target ${host} did not answer in time (${url}). Is the address right, and is the server up?`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `The host ${host} cannot be resolved (${code}). Check CONFORMANCE_BASE_URL / CONFORMANCE_AUTH_URL.`;
  if (code === 'ECONNREFUSED') return `Nothing listens at ${host} (connection refused). Is the server up?`;
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code) || /certificate|tls|ssl/i.test(cause?.message ?? '')) {
    return `TLS handshake with ${host} failed (${code}: ${cause?.message ?? ''}).`;
  }
  return `Request to ${url} failed: ${code}${cause?.message ? ` (${cause.message})` : ''}`;
}
