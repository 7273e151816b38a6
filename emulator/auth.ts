/**
 * Authentication of the emulator:
 *  - the OAuth 2.0 client-credentials token endpoint (RFC 6749 §4.4) at
 *    {auth_url}/oauth/token/ (and without the slash), form or JSON bodies,
 *    client authentication in the body or by HTTP Basic (RFC 6749 §2.3.1);
 *  - RS256 JWT access tokens signed with a key pair made at start (jose);
 *    its publication at /.well-known/jwks.json, for the self-tests, is in
 *    signing-key.ts;
 *  - the bearer check of every /api/v2 request (RFC 6750): signature, alg,
 *    exp, aud, iss; then the rate limit; then the route's scopes.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { inScopeScopes, operation } from '../spec/operations.js';
import { sendApiError } from './answers.js';
import { runner, sendAnswer } from './faults/answers.js';
import {
  admitCached,
  admittedByFault,
  admitVerified,
  authorizationOf,
  counted,
  rateDecisionOf,
  rateLimitHeadersOf,
  refusalBeforeLimit,
  scopeRefusal,
  unverified,
  type BearerOutcome,
} from './faults/admission.js';
import { API_PREFIX, audienceOf, type EmulatorContext } from './context.js';
import { ApiError, apiError, keepConnectionIfBodyRead } from './errors.js';
import type { RateLimitOptions, ResolvedOptions } from './options.js';
import { HEADER_LIMIT, HEADER_REMAINING, HEADER_RESET, rateHeaders, type RateLimitDecision } from './rate-limit.js';
import { registerJwks, sharedSigningKeyPair } from './signing-key.js';
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
  /** No route of its own: held by the full client, as a real tenant's management client holds it. */
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

export type ClientRole = 'full' | 'limited' | 'rateLimited' | 'expiring';

export interface Client {
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: readonly string[];
  rateLimit: RateLimitOptions;
  /** The lifetime of its tokens: their exp, and the token response's expires_in (RFC 6749 5.1). */
  tokenSeconds: number;
}

export interface Principal {
  clientId: string;
  clientName: string;
  scopes: ReadonlySet<string>;
  /** jti of the token: the rate-limit key. */
  tokenId: string;
  /** The key of the token's rate-limit window (`token:<jti>`), made once with the principal, not per request. */
  rateKey: string;
  rateLimit: RateLimitOptions;
}

/** The principal of a token of `client` holding `scopes`, `tokenId` its jti. */
export function makePrincipal(client: Client, scopes: ReadonlySet<string>, tokenId: string): Principal {
  return {
    clientId: client.clientId,
    clientName: client.name,
    scopes,
    tokenId,
    rateKey: `token:${tokenId}`,
    rateLimit: client.rateLimit,
  };
}

/** RFC 6749 §5.2 error of the token endpoint. */
export class OAuthError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'access_denied'
      | 'server_error',
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
  // The secret holds characters form-urlencoding changes (+ / :, VSCHAR all, RFC 6749 Appendix A.2), so that
  // a client sending it by HTTP Basic must encode it first (2.3.1), and the token endpoint must decode it.
  const secret = () => `${randomBytes(30).toString('base64url')}+/:`;
  return {
    full: {
      clientId: id(),
      clientSecret: secret(),
      name: 'Conformance full client',
      scopes: allScopes(),
      rateLimit: options.rateLimit,
      tokenSeconds: TOKEN_TTL_SECONDS,
    },
    limited: {
      clientId: id(),
      clientSecret: secret(),
      name: 'Conformance limited client',
      scopes: [...LIMITED_SCOPES],
      rateLimit: options.rateLimit,
      tokenSeconds: TOKEN_TTL_SECONDS,
    },
    rateLimited: {
      clientId: id(),
      clientSecret: secret(),
      name: 'Conformance rate-limited client',
      scopes: allScopes(),
      rateLimit: options.rateLimitedClient,
      tokenSeconds: TOKEN_TTL_SECONDS,
    },
    expiring: {
      clientId: id(),
      clientSecret: secret(),
      name: 'Conformance expiring client',
      scopes: allScopes(),
      rateLimit: options.rateLimit,
      tokenSeconds: options.expiringTokenSeconds,
    },
  };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Issues and verifies the emulator's access tokens; knows its clients. */
export class TokenAuthority {
  private readonly byId: Map<string, Client>;
  /** Verified tokens (keyed by the whole token, until their exp, bounded): see verify-cache.ts. */
  readonly verified = new VerifyCache<Principal>(VERIFY_CACHE_SIZE);

  private constructor(
    readonly clients: Record<ClientRole, Client>,
    private readonly privateKey: CryptoKey,
    /** Verifies the tokens; published for the self-tests (signing-key.ts). */
    readonly publicKey: CryptoKey,
    /** The key id every token names in its header. */
    readonly kid: string,
  ) {
    this.byId = new Map(Object.values(clients).map((c) => [c.clientId, c]));
  }

  static async create(options: ResolvedOptions): Promise<TokenAuthority> {
    const { privateKey, publicKey } = await (sharedSigningKeyPair(options) ?? generateKeyPair('RS256'));
    return new TokenAuthority(makeClients(options), privateKey, publicKey, randomBytes(12).toString('base64url'));
  }

  client(clientId: string): Client | undefined {
    return this.byId.get(clientId);
  }

  /**
   * Signs an access token for `client`. `overrides` exist for the self-tests
   * (an expired token, a foreign audience or issuer signed with the real key)
   * and the faults (faults/seams.ts tokenIssueOverrides; `adjust` changes the
   * claims once they are all set).
   */
  async issue(
    client: Client,
    origin: string,
    scopes: readonly string[],
    overrides: {
      ttlSeconds?: number;
      audience?: string;
      issuer?: string;
      adjust?: (jwt: SignJWT, now: number) => void;
    } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ scope: scopes.join(' '), gty: 'client-credentials', azp: client.clientId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.kid })
      .setIssuer(overrides.issuer ?? `${origin}/`)
      .setSubject(`${client.clientId}@clients`)
      .setAudience(overrides.audience ?? audienceOf(origin))
      .setIssuedAt(now)
      .setExpirationTime(now + (overrides.ttlSeconds ?? client.tokenSeconds))
      .setJti(randomUUID());
    overrides.adjust?.(jwt, now);
    return jwt.sign(this.privateKey);
  }

  /** Verifies signature (RS256 only), exp, iss and aud; rejects on any failure. */
  async verify(token: string, origin: string): Promise<Principal> {
    // RFC 7515 7.1, 2: three BASE64URL segments, trailing '=' omitted; the verifier's decoder takes padding.
    if (!JWS_COMPACT.test(token)) throw new Error('not a JWS compact serialisation');
    const { payload } = await jwtVerify(token, this.publicKey, {
      algorithms: ['RS256'],
      issuer: `${origin}/`,
      audience: audienceOf(origin),
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    });
    // requiredClaims: jose refuses a token without exp, iat, sub or jti, and one whose exp is no number.
    const sub = payload.sub!;
    const client = sub.endsWith('@clients') ? this.byId.get(sub.slice(0, -'@clients'.length)) : undefined;
    if (client === undefined || typeof payload.scope !== 'string') throw new Error('unknown client');
    const principal = makePrincipal(client, new Set(payload.scope.split(' ').filter(Boolean)), String(payload.jti));
    this.verified.set(token, principal, payload.exp! * 1000);
    return principal;
  }
}

// ---------------------------------------------------------------------------
// Token endpoint

/** The token endpoint: its path, and its operation id as the fault layer reads it (runner, answer mutations). */
const TOKEN_OPERATION = operation('oauth.token');

const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=._~-]+)[ \t]*$/i;
/** A JWS compact serialisation of a signed token: three base64url segments without padding (RFC 7515 7.1). */
const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
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
  if (typeof body !== 'object' || Array.isArray(body))
    throw new OAuthError(400, 'invalid_request', 'The request body must be a form or a JSON object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') throw new OAuthError(400, 'invalid_request', `Parameter ${k} must be a single string`);
    out[k] = v;
  }
  return out;
}

async function tokenHandler(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Record<string, unknown>> {
  const params = ctx.deviations.tokenParams(stringParams(ctx.deviations.tokenBody(request.body)), request.body);
  const grantType = ctx.deviations.grantType(params['grant_type'], params);
  if (!grantType && ctx.deviations.checksGrantType)
    throw new OAuthError(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials' && ctx.deviations.checksGrantType)
    throw new OAuthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);

  const header = request.headers.authorization;
  let basic: { id: string; secret: string } | null = null;
  if (header !== undefined && /^Basic\b/i.test(header)) {
    basic = ctx.deviations.basicCredentialsRead(parseBasic(ctx.deviations.basicHeader(header)));
    if (basic === null)
      throw new OAuthError(401, 'invalid_client', 'Malformed HTTP Basic client authentication', {
        'www-authenticate': 'Basic realm="oauth"',
      });
    if (params['client_secret'] !== undefined)
      throw new OAuthError(400, 'invalid_request', 'Use only one client authentication method');
    if (params['client_id'] !== undefined && params['client_id'] !== basic.id)
      throw new OAuthError(400, 'invalid_request', 'client_id does not match the authenticated client');
  }
  const clientId = basic?.id ?? params['client_id'];
  const secret = basic?.secret ?? params['client_secret'];
  // RFC 9110 11.6.1: every 401 carries a challenge; RFC 6749 5.2: Basic, the scheme this endpoint takes.
  const challenge: Record<string, string> = { 'www-authenticate': 'Basic realm="oauth"' };
  const publicClient = ctx.deviations.publicClient(secret);
  if (!clientId || (!secret && !publicClient))
    throw new OAuthError(401, 'invalid_client', 'Client authentication is required', challenge);
  const client = ctx.deviations.authenticatingClient(clientId, secret, ctx.auth);
  // The secret is compared only where it is present: a request without one was refused above, unless the client
  // is public (a fault).
  if (
    client === undefined ||
    !(
      publicClient ||
      safeEqual(ctx.deviations.presentedSecret(secret!, client.clientSecret), client.clientSecret) ||
      !ctx.deviations.checksClientSecret
    )
  )
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed', challenge);

  const audience = params['audience'];
  if (!audience) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: audience');
  if (!acceptedAudience(audience, ctx.origin))
    throw new OAuthError(403, 'access_denied', `Service not found: ${audience}`);

  let scopes = ctx.deviations.issuedClientScopes(client.scopes, basic);
  if (params['scope'] !== undefined && ctx.deviations.honoursRequestedScope) {
    const requested = [...new Set(params['scope'].split(' ').filter(Boolean))];
    const grantable = ctx.deviations.grantableScopes(client.scopes, allScopes());
    const missing = requested.filter((s) => !grantable.includes(s));
    if (missing.length > 0)
      throw new OAuthError(400, 'invalid_scope', `Scopes not granted to this client: ${missing.join(' ')}`);
    scopes = ctx.deviations.grantedScopes(requested);
  }
  ctx.deviations.refuseAnotherToken(client.clientId);
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  // A fault may answer again a token response issued before (cachedTokenResponse).
  return (
    ctx.deviations.cachedTokenResponse(client.clientId) ??
    (await issueTokenResponse(ctx, client, scopes, audience, basic))
  );
}

/** RFC 6749 4.4.3 and 5.1: a new access token for `client` holding `scopes`, and the response that carries it. */
async function issueTokenResponse(
  ctx: EmulatorContext,
  client: Client,
  scopes: readonly string[],
  audience: string,
  basic: { id: string; secret: string } | null,
): Promise<Record<string, unknown>> {
  const accessToken = await ctx.deviations.accessToken(
    await ctx.auth.issue(client, ctx.origin, scopes, ctx.deviations.tokenIssueOverrides(audience, basic, ctx.origin)),
  );
  const response = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: client.tokenSeconds,
    scope: scopes.join(' '),
  };
  ctx.deviations.tokenResponseIssued(client.clientId, response);
  return response;
}

function renderOAuthError(ctx: EmulatorContext, err: unknown, reply: FastifyReply): void {
  // A catalogue error (the route not found) answers as every other route does.
  if (err instanceof ApiError) return sendApiError(ctx, reply, err);
  let e: OAuthError;
  if (err instanceof OAuthError) e = err;
  else {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 415)
      e = new OAuthError(
        415,
        'invalid_request',
        'Unsupported content type: use application/x-www-form-urlencoded or application/json',
      );
    else if (status === 413) e = new OAuthError(413, 'invalid_request', 'Request body is too large');
    else if (typeof status === 'number' && status >= 400 && status < 500)
      e = new OAuthError(400, 'invalid_request', 'Malformed request body');
    else e = new OAuthError(500, 'server_error', 'Internal error');
  }
  keepConnectionIfBodyRead(reply);
  const answer = {
    status: e.statusCode,
    headers: { ...e.headers, 'cache-control': 'no-store' },
    body: ctx.deviations.oauthErrorBody(e.error, e.description),
  };
  void sendAnswer(reply, ctx.mutations.answer(answer, reply.request, TOKEN_OPERATION.id));
}

// ---------------------------------------------------------------------------
// The bearer check of /api/v2 requests

export function isApiPath(url: string): boolean {
  if (!url.startsWith(API_PREFIX)) return false;
  const c = url.charCodeAt(API_PREFIX.length);
  // '/', '?' or the end: /api/v2, /api/v2/..., /api/v2?...
  return Number.isNaN(c) || c === 47 || c === 63;
}

/**
 * Whether a request is for /api/v2: its path as sent, or the route it was matched to. The router decodes the
 * path first, and a path that spells the prefix with percent-encoded unreserved characters (/api/v%32/...) is
 * the same path (RFC 3986 2.3, 6.2.2.2): its route is an API route, and the bearer check applies.
 */
function isApiRequest(ctx: EmulatorContext, request: FastifyRequest): boolean {
  return (
    isApiPath(request.url) ||
    ctx.deviations.guardsApiRoute(request.routeOptions.url?.startsWith(`${API_PREFIX}/`) === true)
  );
}

const RATE_HEADER_NAMES = { remaining: HEADER_REMAINING, reset: HEADER_RESET } as const;

function setRateHeaders(ctx: EmulatorContext, reply: FastifyReply, d: RateLimitDecision): void {
  const conforming = rateHeaders(d);
  conforming[HEADER_LIMIT] = ctx.deviations.reportedLimit(d.limit, ctx.options.rateLimit.limit);
  reply.headers(rateLimitHeadersOf(ctx.deviations, conforming, d, RATE_HEADER_NAMES));
}

/** The 429 of a request over the limit; undefined when within it. */
function overLimit(ctx: EmulatorContext, d: RateLimitDecision): ApiError | undefined {
  if (d.allowed || !ctx.deviations.refusesOverLimit) return undefined;
  return apiError('too_many_requests', undefined, { 'retry-after': String(d.retryAfter) });
}

function hasBody(request: FastifyRequest): boolean {
  const len = request.headers['content-length'];
  return (len !== undefined && len !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** After a valid token: rate limit, then scopes, then the route's media types. */
function admit(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
): ApiError | undefined {
  return (
    refusalBeforeLimit(ctx.deviations, request) ??
    counted(ctx.deviations, request, () => limitToken(ctx, reply, principal)) ??
    authorise(ctx, request, principal) ??
    mediaTypeRefusal(ctx, request)
  );
}

/** RFC 6585 4: the token's request counted in its window; a 429 over the limit. */
function limitToken(ctx: EmulatorContext, reply: FastifyReply, principal: Principal): ApiError | undefined {
  const key = principal.rateKey;
  const d = rateDecisionOf(ctx.deviations, key, ctx.limiter.hit(key, principal.rateLimit), reply);
  setRateHeaders(ctx, reply, d);
  return overLimit(ctx, d);
}

/** The route's scopes: any one of them held by the token (RFC 6750 3.1 insufficient_scope, 403, otherwise). */
function authorise(ctx: EmulatorContext, request: FastifyRequest, principal: Principal): ApiError | undefined {
  request.principal = principal;
  return scopeRefusal(ctx.deviations, ctx.auth, request, principal, (required, held) =>
    required === undefined || required.some((s) => held.has(s))
      ? undefined
      : apiError('insufficient_scope', `Insufficient scope, expected any of: ${required.join(', ')}`, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${required.join(' ')}"`,
        }),
  );
}

/** A request body of a media type the route does not take: 415. */
function mediaTypeRefusal(ctx: EmulatorContext, request: FastifyRequest): ApiError | undefined {
  const config = request.routeOptions.config;
  const types = ctx.deviations.mediaTypes(config.operation, config.contentTypes);
  if (types === undefined || !hasBody(request)) return undefined;
  const header = request.headers['content-type'] ?? '';
  const mime = ctx.deviations.requestMediaType(config.operation, header, header.split(';', 1)[0]!.trim().toLowerCase());
  return types.includes(mime)
    ? undefined
    : apiError('unsupported_media_type', `Unsupported Media Type: use ${types.join(' or ')}`);
}

/** Requests without a valid token still count, against their address. */
export function limitAnonymous(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
): ApiError | undefined {
  const d = ctx.limiter.hit(`address:${request.ip}`, ctx.options.rateLimit);
  setRateHeaders(ctx, reply, d);
  return overLimit(ctx, d);
}

const INVALID_TOKEN_CHALLENGE = { 'www-authenticate': 'Bearer error="invalid_token"' };

/** The refusal of a request without a usable token: 401. */
function unauthenticated(missing: boolean): ApiError {
  return missing
    ? apiError('missing_authorization', 'Missing or malformed Authorization: Bearer header', {
        'www-authenticate': 'Bearer',
      })
    : apiError('invalid_token', undefined, INVALID_TOKEN_CHALLENGE);
}

export function registerAuth(app: FastifyInstance, ctx: EmulatorContext): void {
  app.decorateRequest('principal', null);

  app.route({
    method: 'POST',
    url: TOKEN_OPERATION.path,
    config: { operation: TOKEN_OPERATION.id },
    errorHandler: (err, _request, reply) => renderOAuthError(ctx, err, reply),
    handler: runner(ctx, TOKEN_OPERATION.id, (request, reply) => tokenHandler(ctx, request, reply)),
  });

  registerJwks(app, ctx);

  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiRequest(ctx, request)) return done();
    bearerCheck(ctx, request, {
      admit: (principal) => done(admit(ctx, request, reply, principal)),
      refuse: (missing) => done(limitAnonymous(ctx, request, reply) ?? unauthenticated(missing)),
    });
  });
}

/**
 * RFC 6750 2.1: the request's bearer token, found verified before (the verify cache) or verified now, admits
 * it as its principal; a request without one, or with one that is malformed or fails verification, is refused.
 */
function bearerCheck(ctx: EmulatorContext, request: FastifyRequest, outcome: BearerOutcome): void {
  const header = authorizationOf(ctx.deviations, request);
  const bearer = header === undefined ? undefined : ctx.deviations.bearerToken(header, BEARER.exec(header)?.[1]);
  admittedByFault(ctx.deviations, ctx.auth, request, header, bearer, outcome, () => {
    if (bearer === undefined) return outcome.refuse(header === undefined);
    const token = ctx.deviations.bearerJwt(bearer);
    // A token verified before, not expired, costs no signature check; the request's socket lets a token sent again
    // on it be matched without hashing it (verify-cache.ts).
    const known = ctx.auth.verified.get(token, request.raw.socket ?? undefined);
    if (known !== undefined) return admitCached(ctx.deviations, request, known, outcome);
    ctx.auth.verify(token, ctx.origin).then(
      (principal) => admitVerified(ctx.deviations, request, token, principal, outcome),
      () =>
        unverified(ctx.deviations, ctx.auth, ctx.origin, ctx.state, request, token, outcome, () =>
          outcome.refuse(false),
        ),
    );
  });
}
