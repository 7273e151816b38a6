/**
 * Client-credentials token requests (Authentication 2): a form-encoded POST
 * to {auth_url}/oauth/token/ with grant_type, client_id, client_secret and
 * audience; or, the other way RFC 6749 2.3.1 makes a server take, the
 * client's id and secret by HTTP Basic. Errors say what went wrong without
 * printing any secret.
 */
import type { ClientCredentials, Config } from '../run/config.ts';
import { countRequest } from '../verdicts/request-log.ts';

export const TOKEN_PATH = '/oauth/token/';

export class TargetError extends Error {
  override name = 'TargetError';
}

export interface TokenAnswer {
  status: number;
  contentType: string;
  /** The Cache-Control header (RFC 6749 5.1: a token response carries no-store). */
  cacheControl?: string;
  /** The Pragma header (RFC 6749 5.1: a token response carries no-cache too). */
  pragma?: string;
  /** The WWW-Authenticate header (RFC 9110 11.6.1: a 401 carries a challenge). */
  wwwAuthenticate?: string;
  json: unknown;
  text: string;
  /**
   * Why the body could not be decoded as its Content-Encoding says (RFC 9110 8.4): then `json` is undefined and
   * `text` empty, as for a body no client can read; the checks judge it as they judge a body that is no JSON.
   */
  undecodable?: string;
}

/** How a token request is sent: the documented way is a form body to /oauth/token/ (with the slash). */
export interface TokenRequestForm {
  path: string;
  body: 'form' | 'json';
  /** The Content-Type as sent, where it is spelt otherwise than the plain media type of the body. */
  contentType?: string;
  /** The Accept header as sent (null: none); application/json where absent. */
  accept?: string | null;
  /** A JSON body sent as it is instead of the request's parameters (one that is no object). */
  json?: { value: unknown };
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

/** The Content-Type a token request of this form is sent with. */
export const contentTypeOf = (f: TokenRequestForm) =>
  f.contentType ?? (f.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json');

export const describeForm = (f: TokenRequestForm) =>
  `${f.body === 'form' ? 'a form body' : 'a JSON body'} to ${f.path}`;

/**
 * How the client authenticates: its id and secret in the body, or by HTTP Basic under this spelling of the
 * scheme, followed by `space` (one space unless given; RFC 9110 11.4: credentials = auth-scheme 1*SP token68).
 */
/**
 * How the client authenticates: body parameters, or HTTP Basic (its scheme and the space after it respelt
 * where given; `credentials` sent in place of the encoded id and secret, for the malformed ones).
 */
export type ClientAuthentication =
  { in: 'body' } | { in: 'basic'; scheme?: string; space?: string; credentials?: string };

/** RFC 6749 2.3.1 and Appendix B: id and secret each encoded with application/x-www-form-urlencoded, joined by ":", then base64. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  const form = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  return Buffer.from(`${form(clientId)}:${form(clientSecret)}`, 'utf8').toString('base64');
}

/**
 * RFC 8259 8.1: a JSON text exchanged between systems MUST be UTF-8 and MUST NOT begin with a byte
 * order mark. Decoding keeps a BOM (ignoreBOM), so that JSON.parse refuses it, and throws on what is not UTF-8.
 */
export const JSON_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as JSON, or undefined when it is not a JSON text (not UTF-8, a BOM, not JSON). */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  try {
    return bytes.length === 0 ? undefined : JSON.parse(JSON_UTF8.decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Token request parameters: a name given a list is sent once per value, in that order, where the name
 * stands (RFC 6749 3.2 forbids it: the checks that a repeated parameter is refused send one).
 */
export type TokenParams = Record<string, string | readonly string[]>;

/** The parameters as an application/x-www-form-urlencoded body (RFC 6749 Appendix B), repeats kept. */
export function formBody(params: TokenParams): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const v of typeof value === 'string' ? [value] : value) body.append(name, v);
  return body;
}

/** Sends one token request; answers whatever the endpoint says (no throw on 4xx). */
export async function requestToken(
  config: Pick<Config, 'authUrl' | 'audience'>,
  creds: ClientCredentials,
  extra: TokenParams = {},
  timeoutMs = 15_000,
  form: TokenRequestForm = DOCUMENTED,
  clientAuth: ClientAuthentication = { in: 'body' },
): Promise<TokenAnswer> {
  // By HTTP Basic the body carries no client credentials (RFC 6749 2.3.1: one authentication method per request).
  const credentials =
    clientAuth.in === 'body' ? { client_id: creds.clientId, client_secret: creds.clientSecret } : undefined;
  const params = {
    grant_type: 'client_credentials',
    ...credentials,
    audience: config.audience,
    ...extra,
  };
  const url = `${config.authUrl}${form.path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': contentTypeOf(form),
        ...(form.accept === null ? {} : { accept: form.accept ?? 'application/json' }),
        ...(clientAuth.in === 'basic'
          ? {
              authorization: `${clientAuth.scheme ?? 'Basic'}${clientAuth.space ?? ' '}${clientAuth.credentials ?? basicCredentials(creds.clientId, creds.clientSecret)}`,
            }
          : {}),
      },
      body: form.body === 'form' ? formBody(params) : JSON.stringify(form.json ? form.json.value : params),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new TargetError(describeNetworkError(url, e));
  }
  // Bytes, not res.text(): the Fetch decoder drops a leading BOM, which RFC 8259 8.1 forbids.
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    const coding = res.headers.get('content-encoding');
    // A body labelled with a coding it is not in fails Fetch's decoder: the target's answer, judged by the checks
    // as a body no client can read. Anything else (the connection cut) is no answer at all.
    if (!coding || /^\s*identity\s*$/i.test(coding)) throw new TargetError(describeNetworkError(url, e));
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      json: undefined,
      text: '',
      undecodable: `Content-Encoding: ${coding}, and the body is not in it (${(e as Error).message})`,
    };
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    cacheControl: res.headers.get('cache-control') ?? undefined,
    pragma: res.headers.get('pragma') ?? undefined,
    wwwAuthenticate: res.headers.get('www-authenticate') ?? undefined,
    json: parseJsonBytes(bytes),
    text: Buffer.from(bytes).toString('utf8'),
  };
}

/** The access token of a successful token answer. */
export const accessTokenOf = (a: TokenAnswer): string | undefined => {
  const token = (a.json as { access_token?: unknown } | undefined)?.access_token;
  return a.status === 200 && typeof token === 'string' && token ? token : undefined;
};

/** Narrowed token answers this worker has had, by token endpoint, client and scope. */
const narrowed = new Map<string, Promise<TokenAnswer>>();

/**
 * A token request for `scope` (RFC 6749 4.4.2), sent once per worker, client and scope: the checks that
 * try narrowed tokens on every operation share them, to keep a run against a tenant within its budget.
 */
export function narrowedToken(
  config: Pick<Config, 'authUrl' | 'audience' | 'timeoutMs'>,
  creds: ClientCredentials,
  scope: string,
): Promise<TokenAnswer> {
  const key = `${config.authUrl} ${creds.clientId} ${scope}`;
  let answer = narrowed.get(key);
  if (answer === undefined) {
    countRequest('POST', TOKEN_PATH);
    answer = requestToken(config, creds, { scope }, config.timeoutMs);
    narrowed.set(key, answer);
  }
  return answer;
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
  if (a.status >= 200 && a.status < 300) {
    // Accepted, but no token a client can read: say what is wrong with the answer, never its content (the token).
    const body = a.text.startsWith('\ufeff')
      ? 'its body begins with a byte order mark (EF BB BF), which RFC 8259 8.1 forbids, so it is not read as JSON'
      : a.json === undefined
        ? 'its body is not JSON'
        : 'its JSON has no access_token string';
    throw new TargetError(
      `The token endpoint ${config.authUrl}${TOKEN_PATH} answered the ${which} client credentials with status ${a.status} ` +
        `(Content-Type ${a.contentType || '(none)'}), but ${body}: no token to run with (RFC 6749 5.1: access_token in a JSON object).`,
    );
  }
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
