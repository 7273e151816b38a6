/**
 * Authentication of the emulator:
 *  - the OAuth 2.0 client-credentials token endpoint (RFC 6749 §4.4) at
 *    {auth_url}/oauth/token/ (and without the slash), form or JSON bodies,
 *    client authentication in the body or by HTTP Basic (RFC 6749 §2.3.1);
 *  - RS256 JWT access tokens signed with a key pair made at start (jose),
 *    published at /.well-known/jwks.json;
 *  - the bearer check of every /api/v2 request (RFC 6750): signature, alg,
 *    exp, aud, iss; then the rate limit; then the route's scopes.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CompactEncrypt, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { inScopeScopes } from '../spec/operations.js';
import { API_PREFIX, audienceOf, JWKS_PATH, TOKEN_PATH, type EmulatorContext } from './context.js';
import { apiError, keepConnectionIfBodyRead, type ApiError } from './errors.js';
import type { RateLimitOptions, ResolvedOptions } from './options.js';
import { HEADER_LIMIT, HEADER_REMAINING, HEADER_RESET, type RateLimitDecision } from './rate-limit.js';
import { Rng } from './state.js';
import { VerifyCache } from './verify-cache.js';

/** Access token lifetime (seconds). */
export const TOKEN_TTL_SECONDS = 86_400;
/** Verified tokens remembered (until their exp) so a hot token costs no signature check. */
const VERIFY_CACHE_SIZE = 10_000;

/**
 * Scopes of the emulator's extra management routes (not among the eight
 * operations; they exist so that events come from real state changes and so
 * that careful clients can snapshot and restore what they change).
 */
export const managementScopes = {
  readCustomSigningKeys: ['read:custom_signing_keys'],
  deleteCustomSigningKeys: ['delete:custom_signing_keys'],
  readCustomText: ['read:self_service_profile_custom_texts'],
  /** No route of its own: held by the full client as by a real tenant's management client (the fault token-sets-scopes-all-of requires it). */
  readUsers: ['read:users'],
  createUsers: ['create:users'],
  updateUsers: ['update:users'],
  deleteUsers: ['delete:users'],
  createOrganizations: ['create:organizations'],
  deleteOrganizations: ['delete:organizations'],
  createConnections: ['create:connections'],
  deleteConnections: ['delete:connections'],
} as const satisfies Record<string, readonly string[]>;

/** A scope the limited client holds: outside every route's scopes. */
export const LIMITED_SCOPES = ['read:stats'] as const;

export type ClientRole = 'full' | 'limited' | 'rateLimited';

export interface Client {
  role: ClientRole;
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: readonly string[];
  rateLimit: RateLimitOptions;
}

export interface Principal {
  clientId: string;
  clientName: string;
  scopes: ReadonlySet<string>;
  /** jti of the token: the rate-limit key. */
  tokenId: string;
  rateLimit: RateLimitOptions;
}

/** RFC 6749 §5.2 error of the token endpoint. */
export class OAuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'access_denied' | 'server_error',
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

function allScopes(): string[] {
  return [...new Set([...inScopeScopes, ...Object.values(managementScopes).flat()])].sort();
}

function makeClients(options: ResolvedOptions): Record<ClientRole, Client> {
  // Client ids follow the seed; secrets are random per start and never logged.
  const rng = new Rng(options.seed ^ 0x5eed);
  const id = () => rng.chars('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 32);
  const secret = () => randomBytes(32).toString('base64url');
  return {
    full: { role: 'full', clientId: id(), clientSecret: secret(), name: 'Conformance full client', scopes: allScopes(), rateLimit: options.rateLimit },
    limited: { role: 'limited', clientId: id(), clientSecret: secret(), name: 'Conformance limited client', scopes: [...LIMITED_SCOPES], rateLimit: options.rateLimit },
    rateLimited: {
      role: 'rateLimited',
      clientId: id(),
      clientSecret: secret(),
      name: 'Conformance rate-limited client',
      scopes: allScopes(),
      rateLimit: options.rateLimitedClient,
    },
  };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Auth {
  private readonly byId: Map<string, Client>;
  /** Verified tokens (keyed by the whole token, until their exp, bounded): see verify-cache.ts. */
  readonly verified = new VerifyCache<Principal>(VERIFY_CACHE_SIZE);
  /** Opaque access tokens and the JWTs they stand for (only the `token-not-jwt` fault issues them). */
  private readonly opaque = new Map<string, string>();
  /** Clients that were issued a token (for the `token-reissue-refused` fault). */
  readonly issuedTo = new Set<string>();
  /** Key of the `token-jwe` variant's encrypted tokens. */
  private readonly encryptionKey = randomBytes(32);
  /** Signature segments of tokens verified once (kept only by the `signature-cache-ignores-payload` fault). */
  private readonly seenSignatures = new Set<string>();

  private constructor(
    readonly clients: Record<ClientRole, Client>,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {
    this.byId = new Map(Object.values(clients).map((c) => [c.clientId, c]));
  }

  static async create(options: ResolvedOptions): Promise<Auth> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = await exportJWK(publicKey);
    const kid = randomBytes(12).toString('base64url');
    return new Auth(makeClients(options), privateKey, publicKey, { ...jwk, kid, alg: 'RS256', use: 'sig' });
  }

  get kid(): string {
    return this.publicJwk.kid!;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  client(clientId: string): Client | undefined {
    return this.byId.get(clientId);
  }

  /**
   * Signs an access token for `client`. `overrides` exist for the self-tests
   * (an expired token, a foreign audience or issuer signed with the real key).
   */
  async issue(client: Client, origin: string, scopes: readonly string[], overrides: { ttlSeconds?: number; audience?: string; issuer?: string } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: scopes.join(' '), gty: 'client-credentials', azp: client.clientId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.kid })
      .setIssuer(overrides.issuer ?? `${origin}/`)
      .setSubject(`${client.clientId}@clients`)
      .setAudience(overrides.audience ?? audienceOf(origin))
      .setIssuedAt(now)
      .setExpirationTime(now + (overrides.ttlSeconds ?? TOKEN_TTL_SECONDS))
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /** An opaque reference standing for `jwt`, resolved by dereference(). */
  opaqueFor(jwt: string): string {
    const ref = `opq_${randomBytes(24).toString('hex')}`;
    this.opaque.set(ref, jwt);
    return ref;
  }

  /**
   * The signed JWT encrypted for the emulator itself (a nested JWT, JWE
   * compact with dir and A256GCM), for the `token-jwe` variant. The JWE is
   * resolved like an opaque reference: a changed one resolves to nothing and
   * fails verification.
   */
  async encryptedFor(jwt: string): Promise<string> {
    const jwe = await new CompactEncrypt(new TextEncoder().encode(jwt)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' }).encrypt(this.encryptionKey);
    this.opaque.set(jwe, jwt);
    return jwe;
  }

  /** The JWT an opaque reference stands for; any other token as it is. */
  dereference(token: string): string {
    // Without the fault there are none: skip hashing the token on every request.
    if (this.opaque.size === 0) return token;
    return this.opaque.get(token) ?? token;
  }

  /** The principal of a known client, for a request admitted without a verified token (faults only). */
  principalOf(role: ClientRole, tokenId: string): Principal {
    const c = this.clients[role];
    return { clientId: c.clientId, clientName: c.name, scopes: new Set(c.scopes), tokenId, rateLimit: c.rateLimit };
  }

  /** The principal a JWT claims, read without verifying it (the `tampered-signature-accepted` fault). */
  principalUnverified(token: string): Principal | undefined {
    try {
      const payload = decodeJwt(token);
      const sub = payload.sub ?? '';
      const client = sub.endsWith('@clients') ? this.byId.get(sub.slice(0, -'@clients'.length)) : undefined;
      if (client === undefined || typeof payload.scope !== 'string') return undefined;
      return { clientId: client.clientId, clientName: client.name, scopes: new Set(payload.scope.split(' ').filter(Boolean)), tokenId: String(payload.jti), rateLimit: client.rateLimit };
    } catch {
      return undefined;
    }
  }

  /** The claims of an unsigned JWT (`alg: none`), read as if verified (the `alg-none-accepted` fault). */
  unsignedPrincipal(token: string): Principal | undefined {
    try {
      if (String(decodeProtectedHeader(token).alg).toLowerCase() !== 'none') return undefined;
    } catch {
      return undefined;
    }
    return this.principalUnverified(token);
  }

  /** The claims of a JWT verified with the key its own header embeds (`jwk`), any key at all (the `jwk-header-trusted` fault). */
  async embeddedKeyPrincipal(token: string, origin: string): Promise<Principal | undefined> {
    try {
      const { jwk, alg } = decodeProtectedHeader(token);
      if (jwk === undefined || alg === undefined) return undefined;
      await jwtVerify(token, await importJWK(jwk, alg), { issuer: `${origin}/`, audience: audienceOf(origin) });
      return this.principalUnverified(token);
    } catch {
      return undefined;
    }
  }

  /** Remembers a verified token's signature segment (the `signature-cache-ignores-payload` fault). */
  rememberSignature(token: string): void {
    this.seenSignatures.add(token.slice(token.lastIndexOf('.') + 1));
  }

  /** Whether a token's signature segment was seen on a verified token (the `signature-cache-ignores-payload` fault). */
  seenSignature(token: string): boolean {
    return this.seenSignatures.has(token.slice(token.lastIndexOf('.') + 1));
  }

  /** A verified token's principal from the cache, if it is there and not expired. */
  cached(token: string): Principal | undefined {
    return this.verified.get(token);
  }

  /** Verifies signature (RS256 only), exp, iss and aud; rejects on any failure. */
  async verify(token: string, origin: string): Promise<Principal> {
    const { payload } = await jwtVerify(token, this.publicKey, {
      algorithms: ['RS256'],
      issuer: `${origin}/`,
      audience: audienceOf(origin),
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    const sub = payload.sub ?? '';
    const client = sub.endsWith('@clients') ? this.byId.get(sub.slice(0, -'@clients'.length)) : undefined;
    if (client === undefined || typeof payload.scope !== 'string' || typeof payload.exp !== 'number') throw new Error('unknown client');
    const principal: Principal = {
      clientId: client.clientId,
      clientName: client.name,
      scopes: new Set(payload.scope.split(' ').filter(Boolean)),
      tokenId: String(payload.jti),
      rateLimit: client.rateLimit,
    };
    this.verified.set(token, principal, payload.exp * 1000);
    return principal;
  }
}

// ---------------------------------------------------------------------------
// Token endpoint

const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=._~-]+)[ \t]*$/i;
const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i;

function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

/** RFC 6749 §2.3.1: client id and secret, form-encoded, then Basic. */
function parseBasic(header: string): { id: string; secret: string } | null {
  const m = BASIC.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** The audiences the token endpoint accepts: `{origin}/api/v2/` and the bare `/api/v2/` of the document. */
function acceptedAudience(audience: string, origin: string): boolean {
  return audience === audienceOf(origin) || audience === `${API_PREFIX}/`;
}

function stringParams(body: unknown): Record<string, string> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError(400, 'invalid_request', 'The request body must be a form or a JSON object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') throw new OAuthError(400, 'invalid_request', `Parameter ${k} must be a single string`);
    out[k] = v;
  }
  return out;
}

async function tokenHandler(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply) {
  // Fault token-endpoint-no-slash: only /oauth/token is routed; the documented /oauth/token/ is not found.
  if (ctx.faults.has('token-endpoint-no-slash') && request.url.split('?', 1)[0]!.endsWith('/')) return reply.callNotFound();
  // Fault token-endpoint-json-only: the endpoint parses JSON bodies only; a form body is refused.
  if (ctx.faults.has('token-endpoint-json-only') && /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
    throw new OAuthError(415, 'invalid_request', 'Unsupported content type: use application/json');
  }
  const params = stringParams(request.body);
  const grantType = params['grant_type'];
  if (!grantType) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);

  const header = request.headers.authorization;
  let basic: { id: string; secret: string } | null = null;
  if (header !== undefined && /^Basic\b/i.test(header)) {
    basic = parseBasic(header);
    if (basic === null) throw new OAuthError(401, 'invalid_client', 'Malformed HTTP Basic client authentication', { 'www-authenticate': 'Basic realm="oauth"' });
    if (params['client_secret'] !== undefined) throw new OAuthError(400, 'invalid_request', 'Use only one client authentication method');
    if (params['client_id'] !== undefined && params['client_id'] !== basic.id) throw new OAuthError(400, 'invalid_request', 'client_id does not match the authenticated client');
  }
  const clientId = basic?.id ?? params['client_id'];
  const secret = basic?.secret ?? params['client_secret'];
  const challenge: Record<string, string> = basic ? { 'www-authenticate': 'Basic realm="oauth"' } : {};
  if (!clientId || !secret) throw new OAuthError(401, 'invalid_client', 'Client authentication is required', challenge);
  const client = ctx.auth.client(clientId);
  // Fault token-wrong-secret-accepted: the client id alone authenticates.
  const secretOk = client !== undefined && (safeEqual(secret, client.clientSecret) || ctx.faults.has('token-wrong-secret-accepted'));
  if (client === undefined || !secretOk) throw new OAuthError(401, 'invalid_client', 'Client authentication failed', challenge);

  const audience = params['audience'];
  if (!audience) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: audience');
  if (!acceptedAudience(audience, ctx.origin)) throw new OAuthError(403, 'access_denied', `Service not found: ${audience}`);

  let scopes = client.scopes;
  // Variant token-scope-ignored: the scope requested is ignored and the client's scopes granted (RFC 6749 3.3 lets the server ignore it).
  const scopeIgnored = ctx.variant === 'token-scope-ignored';
  if (params['scope'] !== undefined && !scopeIgnored) {
    const requested = [...new Set(params['scope'].split(' ').filter(Boolean))];
    const missing = requested.filter((s) => !client.scopes.includes(s));
    if (missing.length > 0) throw new OAuthError(400, 'invalid_scope', `Scopes not granted to this client: ${missing.join(' ')}`);
    scopes = requested;
  }

  // Fault token-reissue-refused: one live token per client.
  if (ctx.faults.has('token-reissue-refused') && ctx.auth.issuedTo.has(client.clientId)) {
    throw new OAuthError(400, 'invalid_request', 'A token for this client is already live');
  }
  ctx.auth.issuedTo.add(client.clientId);
  let accessToken = await ctx.auth.issue(client, ctx.origin, scopes);
  // Fault token-not-jwt: an opaque reference instead of the JWT.
  if (ctx.faults.has('token-not-jwt')) accessToken = ctx.auth.opaqueFor(accessToken);
  // Variant token-jwe: the token is a JWT in its JWE form (RFC 7519 1), five segments.
  if (ctx.variant === 'token-jwe') accessToken = await ctx.auth.encryptedFor(accessToken);
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: scopes.join(' ') };
  // Fault token-response-no-token-type (RFC 6749 5.1 requires it).
  if (ctx.faults.has('token-response-no-token-type')) delete answer['token_type'];
  // Fault token-scope-not-verb-resource: <resource>/<verb> instead of <verb>:<resource>.
  if (ctx.faults.has('token-scope-not-verb-resource')) answer['scope'] = scopes.map((x) => x.split(':').reverse().join('/')).join(' ');
  // Variant token-expires-in-fractional: the lifetime as a JSON number with a fraction (RFC 6749 5.1 names no integer).
  if (ctx.variant === 'token-expires-in-fractional') answer['expires_in'] = TOKEN_TTL_SECONDS - 0.5;
  // Variant token-response-minimal: expires_in and scope are optional (RFC 6749 5.1).
  if (ctx.variant === 'token-response-minimal') {
    delete answer['expires_in'];
    delete answer['scope'];
  }
  return answer;
}

function renderOAuthError(err: unknown, reply: FastifyReply): void {
  let e: OAuthError;
  if (err instanceof OAuthError) e = err;
  else {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 415) e = new OAuthError(415, 'invalid_request', 'Unsupported content type: use application/x-www-form-urlencoded or application/json');
    else if (status === 413) e = new OAuthError(413, 'invalid_request', 'Request body is too large');
    else if (typeof status === 'number' && status >= 400 && status < 500) e = new OAuthError(400, 'invalid_request', 'Malformed request body');
    else e = new OAuthError(500, 'server_error', 'Internal error');
  }
  keepConnectionIfBodyRead(reply);
  reply.code(e.statusCode).headers(e.headers).header('cache-control', 'no-store').send({ error: e.error, error_description: e.description });
}

// ---------------------------------------------------------------------------
// The bearer check of /api/v2 requests

export function isApiPath(url: string): boolean {
  if (!url.startsWith(API_PREFIX)) return false;
  const c = url.charCodeAt(API_PREFIX.length);
  // '/', '?' or the end: /api/v2, /api/v2/..., /api/v2?...
  return Number.isNaN(c) || c === 47 || c === 63;
}

function setRateHeaders(ctx: EmulatorContext, reply: FastifyReply, d: RateLimitDecision): void {
  // Variant rate-limit-on-429-only: the document names the headers on the 429.
  if (ctx.variant === 'rate-limit-on-429-only' && d.allowed) return;
  let remaining: number = d.remaining;
  // Fault rate-limit-remaining-negative: counts on below zero.
  if (ctx.faults.has('rate-limit-remaining-negative')) remaining = d.limit - d.count;
  // Variant rate-limit-429-remaining-nonzero: what Remaining says on a 429 is not shown.
  if (ctx.variant === 'rate-limit-429-remaining-nonzero' && !d.allowed) remaining = 1;
  let reset: string = String(d.reset);
  // Variant rate-limit-reset-delta: seconds until the window resets.
  if (ctx.variant === 'rate-limit-reset-delta') reset = String(d.retryAfter);
  // Variant rate-limit-reset-fractional: epoch seconds with milliseconds (numeric values: not shown).
  if (ctx.variant === 'rate-limit-reset-fractional') reset = (d.endsAtMs / 1000).toFixed(3);
  reply.header(HEADER_LIMIT, d.limit).header(HEADER_REMAINING, remaining).header(HEADER_RESET, reset);
  // Fault rate-limit-429-no-reset.
  if (ctx.faults.has('rate-limit-429-no-reset') && !d.allowed) reply.removeHeader(HEADER_RESET);
}

/** The 429 (or, with a fault, what stands in for it) of a request over the limit; undefined when within it. */
function overLimit(ctx: EmulatorContext, d: RateLimitDecision): ApiError | undefined {
  if (d.allowed) return undefined;
  // Fault rate-limit-not-enforced: counted (Remaining 0), never refused.
  if (ctx.faults.has('rate-limit-not-enforced')) return undefined;
  // Fault rate-limit-503: refused, with the wrong status.
  if (ctx.faults.has('rate-limit-503')) return apiError('service_unavailable', undefined, { 'retry-after': String(d.retryAfter) });
  return apiError('too_many_requests', undefined, { 'retry-after': String(d.retryAfter) });
}

/** Route paths some faults and variants single out. */
const ROUTE = {
  tokenSets: `${API_PREFIX}/users/:id/federated-connections-tokensets`,
  clientGrant: `${API_PREFIX}/client-grants/:id`,
  events: `${API_PREFIX}/events`,
  eventStreams: `${API_PREFIX}/event-streams`,
  eventStream: `${API_PREFIX}/event-streams/:id`,
  keys: `${API_PREFIX}/keys/custom-signing`,
} as const;

const routeOf = (request: FastifyRequest): string | undefined => request.routeOptions.url;

/** A JWS compact serialisation: three dot-separated base64url segments. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function hasBody(request: FastifyRequest): boolean {
  const len = request.headers['content-length'];
  return (len !== undefined && len !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** After a valid token: rate limit, then scopes, then the route's media types. */
function admit(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, principal: Principal): ApiError | undefined {
  const d = ctx.limiter.hit(`token:${principal.tokenId}`, principal.rateLimit);
  setRateHeaders(ctx, reply, d);
  const limited = overLimit(ctx, d);
  if (limited) return limited;
  request.principal = principal;

  const config = request.routeOptions.config;
  let required = config.scopes;
  // Fault wrong-scope-required: a scope no issued token holds.
  if (ctx.faults.has('wrong-scope-required') && routeOf(request) === ROUTE.clientGrant) required = ['read:client_grant'];
  // Fault limited-token-accepted: no scope check on PUT custom signing keys.
  if (ctx.faults.has('limited-token-accepted') && routeOf(request) === ROUTE.keys && request.method === 'PUT') required = undefined;
  // Fault token-sets-scopes-all-of: "any of the required scopes" read as all of them (the full token holds both; a narrowed one does not).
  const allOf = ctx.faults.has('token-sets-scopes-all-of') && routeOf(request) === ROUTE.tokenSets;
  if (allOf) required = [...(required ?? []), ...managementScopes.readUsers];
  if (required !== undefined && !(allOf ? required.every((s) => principal.scopes.has(s)) : required.some((s) => principal.scopes.has(s)))) {
    // Fault token-sets-scope-401: the documented 403 answered 401.
    if (ctx.faults.has('token-sets-scope-401') && routeOf(request) === ROUTE.tokenSets) return apiError('invalid_token', 'Insufficient scope');
    // Variant auth-statuses: outside the token-set listing, a missing scope hides the resource.
    if (ctx.variant === 'auth-statuses' && routeOf(request) !== ROUTE.tokenSets) return apiError('not_found');
    return apiError('insufficient_scope', `Insufficient scope, expected any of: ${required.join(', ')}`, {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${required.join(' ')}"`,
    });
  }
  // Fault client-grant-500-to-valid-token: an authenticated read of a client grant fails in the grant lookup.
  if (ctx.faults.has('client-grant-500-to-valid-token') && routeOf(request) === ROUTE.clientGrant) return apiError('internal_error', 'The client grant lookup failed');
  const types = config.contentTypes;
  if (types !== undefined && hasBody(request)) {
    const mime = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (!types.includes(mime)) return apiError('unsupported_media_type', `Unsupported Media Type: use ${types.join(' or ')}`);
  }
  return undefined;
}

/** Requests without a valid token still count, against their address. */
export function limitAnonymous(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply): ApiError | undefined {
  const d = ctx.limiter.hit(`address:${request.ip}`, ctx.options.rateLimit);
  setRateHeaders(ctx, reply, d);
  return overLimit(ctx, d);
}

const INVALID_TOKEN_CHALLENGE = { 'www-authenticate': 'Bearer error="invalid_token"' };

/** The refusal of a request without a usable token: 401, unless a fault or variant says otherwise. */
function unauthenticated(ctx: EmulatorContext, request: FastifyRequest, missing: boolean): ApiError {
  const route = routeOf(request);
  // Fault token-sets-no-token-400: the documented 401 answered 400.
  if (missing && ctx.faults.has('token-sets-no-token-400') && route === ROUTE.tokenSets) return apiError('bad_request', 'Missing Authorization header');
  // Fault token-sets-bad-token-403: the documented 401 answered 403.
  if (!missing && ctx.faults.has('token-sets-bad-token-403') && route === ROUTE.tokenSets) return apiError('forbidden', 'Invalid token');
  // Variant auth-statuses: outside the token-set listing, 403 for no or a bad token.
  if (ctx.variant === 'auth-statuses' && route !== ROUTE.tokenSets) return apiError('forbidden', 'Missing or invalid token');
  return missing
    ? apiError('missing_authorization', 'Missing or malformed Authorization: Bearer header', { 'www-authenticate': 'Bearer' })
    : apiError('invalid_token', undefined, INVALID_TOKEN_CHALLENGE);
}

/** The full client's principal for a request some faults let in without a token. */
function anonymous(ctx: EmulatorContext, request: FastifyRequest): Principal {
  return ctx.auth.principalOf('full', `address:${request.ip}`);
}

export function registerAuth(app: FastifyInstance, ctx: EmulatorContext): void {
  app.decorateRequest('principal', null);

  app.route({
    method: 'POST',
    url: TOKEN_PATH,
    errorHandler: (err, _request, reply) => renderOAuthError(err, reply),
    handler: (request, reply) => tokenHandler(ctx, request, reply),
  });

  app.get(JWKS_PATH, async () => ctx.auth.jwks());

  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiPath(request.url)) return done();
    const header = request.headers.authorization;
    // Fast path: `Bearer <token>` with exactly a token verified before (it passed every check below then).
    const known = header !== undefined && header.startsWith('Bearer ') ? ctx.auth.cached(header.slice(7)) : undefined;
    if (known !== undefined) return done(admit(ctx, request, reply, known));
    // Fault missing-token-accepted: no header on GET /client-grants/{id} is let in.
    if (header === undefined && ctx.faults.has('missing-token-accepted') && routeOf(request) === ROUTE.clientGrant) return done(admit(ctx, request, reply, anonymous(ctx, request)));
    const m = header === undefined ? null : BEARER.exec(header);
    // Fault malformed-header-accepted: on GET /event-streams, any header that is not a bearer JWT is let in.
    const malformedLetIn = ctx.faults.has('malformed-header-accepted') && routeOf(request) === ROUTE.eventStreams && header !== undefined && (m === null || !JWT_SHAPE.test(m[1]!));
    if (malformedLetIn) return done(admit(ctx, request, reply, anonymous(ctx, request)));
    if (m === null) return done(limitAnonymous(ctx, request, reply) ?? unauthenticated(ctx, request, header === undefined));
    // Opaque references stand for JWTs (only the token-not-jwt fault issues them).
    const token = ctx.auth.dereference(m[1]!);
    const hit = ctx.auth.cached(token);
    if (hit !== undefined) return done(admit(ctx, request, reply, hit));
    ctx.auth.verify(token, ctx.origin).then(
      (principal) => {
        if (ctx.faults.has('signature-cache-ignores-payload')) ctx.auth.rememberSignature(token);
        done(admit(ctx, request, reply, principal));
      },
      async () => {
        const route = routeOf(request);
        // Fault tampered-signature-accepted: on GET /events, the claims are read unverified.
        let claimed = ctx.faults.has('tampered-signature-accepted') && route === ROUTE.events ? ctx.auth.principalUnverified(token) : undefined;
        // Fault alg-none-accepted: on GET /event-streams/{id}, an unsigned JWT (alg none) passes as verified.
        if (ctx.faults.has('alg-none-accepted') && route === ROUTE.eventStream) claimed ??= ctx.auth.unsignedPrincipal(token);
        // Fault jwk-header-trusted: on the token-set listing, a JWT is verified with the key its own header embeds.
        if (ctx.faults.has('jwk-header-trusted') && route === ROUTE.tokenSets) claimed ??= await ctx.auth.embeddedKeyPrincipal(token, ctx.origin);
        // Fault signature-cache-ignores-payload: a signature verified once admits whatever payload comes with it.
        if (ctx.faults.has('signature-cache-ignores-payload') && ctx.auth.seenSignature(token)) claimed ??= ctx.auth.principalUnverified(token);
        if (claimed !== undefined) return done(admit(ctx, request, reply, claimed));
        done(limitAnonymous(ctx, request, reply) ?? unauthenticated(ctx, request, false));
      },
    );
  });
}
