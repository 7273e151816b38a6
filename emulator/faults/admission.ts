/**
 * The fault layer of the bearer check (auth.ts): every decision a fault or
 * variant takes about who a request to /api/v2 is admitted as, and whether
 * its rate limit and its scopes are checked, asked of the seams (seams.ts)
 * in one place. auth.ts computes what a conforming check decides and hands
 * each step through here, its rest as a continuation; with nothing switched
 * on, each function runs the step it is given and adds nothing. So the
 * bearer check holds no condition that only a fault reads, and every mutant
 * of it is one a check can see.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { makePrincipal, type Principal, type TokenAuthority } from '../auth.js';
import type { ApiError } from '../errors.js';
import type { RateLimitDecision } from '../rate-limit.js';
import { operationOf } from './requests.js';
import type { Deviations, RateLimitHeaders } from './seams.js';

/** What the bearer check does with a request: admit it as a principal, or refuse it (401; `missing`: no credentials). */
export interface BearerOutcome {
  admit(principal: Principal): void;
  refuse(missing: boolean): void;
}

/** The requests admitted on a principal remembered (the verify cache, a session): some faults skip a check for them. */
const admittedFromCache = new WeakSet<FastifyRequest>();

/** The Authorization header a request is read with (a fault takes one from the query when there is none). */
export function authorizationOf(d: Deviations, request: FastifyRequest): string | undefined {
  return request.headers.authorization ?? d.bearerFromQuery(operationOf(request), request.query);
}

/** The principal of the full client with all its scopes, for a request a fault admits without a verified token. */
function fullClientPrincipal(auth: TokenAuthority, tokenId: string): Principal {
  const c = auth.clients.full;
  return makePrincipal(c, new Set(c.scopes), tokenId);
}

/**
 * The bearer check of a request whose header is `header` and bearer token `bearer` (undefined: none or
 * malformed): `check` runs it, unless a fault admits the request first (a session or a connection that
 * stands for a token, a request let in without one).
 */
export function admittedByFault(
  d: Deviations,
  auth: TokenAuthority,
  request: FastifyRequest,
  header: string | undefined,
  bearer: string | undefined,
  outcome: BearerOutcome,
  check: () => void,
): void {
  const connection = request.raw.socket ?? undefined;
  const remembered =
    header === undefined
      ? d.sessionPrincipal(connection, request.headers.cookie)
      : header.startsWith('Bearer ')
        ? d.connectionPrincipal(connection)
        : undefined;
  if (remembered !== undefined) return admitCached(d, request, remembered, outcome);
  const peer = { ip: request.ip, method: request.method, forwardedFor: request.headers['x-forwarded-for'] };
  if (d.letsInWithoutBearer(operationOf(request), header, bearer, request.headers['last-event-id'], request.url, peer))
    return outcome.admit(fullClientPrincipal(auth, `address:${request.ip}`));
  check();
}

/** A request admitted on a principal found in the verify cache (the fault layer told of it). */
export function admitCached(
  d: Deviations,
  request: FastifyRequest,
  principal: Principal,
  outcome: BearerOutcome,
): void {
  d.admittedOn(request.raw.socket ?? undefined, principal);
  admittedFromCache.add(request);
  outcome.admit(principal);
}

/** A request admitted on a token verified afresh (the fault layer told of it). */
export function admitVerified(
  d: Deviations,
  request: FastifyRequest,
  token: string,
  principal: Principal,
  outcome: BearerOutcome,
): void {
  d.verified(token, principal);
  d.admittedOn(request.raw.socket ?? undefined, principal);
  outcome.admit(principal);
}

/** A token that failed verification: `refuse` runs, unless a broken verifier (a fault) admits it anyway. */
export function unverified(
  d: Deviations,
  auth: TokenAuthority,
  origin: string,
  state: { readonly customSigningKeys: readonly object[] | null },
  request: FastifyRequest,
  token: string,
  outcome: BearerOutcome,
  refuse: () => void,
): void {
  // blind round 38: the limiter keyed by the jti the token claims, before its signature is checked (`rate-limit-forged-tokens-counted-on-claimed-jti`).
  d.unverifiedTokenCounted(token, auth, request);
  void d
    .admittedUnverified(operationOf(request), token, auth, origin, () => state.customSigningKeys)
    .then((claimed) => (claimed === undefined ? refuse() : outcome.admit(claimed)));
}

/** The rate-limit headers an answer carries: the conforming ones, or what a fault writes instead (none, others). */
export function rateLimitHeadersOf(
  d: Deviations,
  conforming: RateLimitHeaders,
  decision: RateLimitDecision,
  names: { remaining: string; reset: string },
): RateLimitHeaders {
  return d.rateLimitHeaders(conforming, decision, names) ?? {};
}

/** A refusal a fault gives before the request is counted (none with no fault on). */
export function refusalBeforeLimit(d: Deviations, request: FastifyRequest): ApiError | undefined {
  return d.issuedAtRefusal(request.headers.authorization);
}

/** The rate limit's step (`limit`), unless a fault leaves this request uncounted. */
export function counted(
  d: Deviations,
  request: FastifyRequest,
  limit: () => ApiError | undefined,
): ApiError | undefined {
  return d.countsRequest(admittedFromCache.has(request), request.method, request.headers.authorization, request.url)
    ? limit()
    : undefined;
}

/** The limiter's decision on `key`, as a fault changes it (the fault layer told of the request counted). */
export function rateDecisionOf(
  d: Deviations,
  key: string,
  decision: RateLimitDecision,
  reply: FastifyReply,
): RateLimitDecision {
  const decided = d.rateDecision(key, decision);
  d.requestCounted(key, decided, reply);
  return decided;
}

/**
 * The scope check of a request admitted as `principal`: `refusal` decides it from the scopes the route
 * requires (undefined: none) and those the token holds, as a fault reads both, unless a fault skips the check
 * or defers its refusal. A request not refused is told to the fault layer (some faults remember it).
 */
export function scopeRefusal(
  d: Deviations,
  auth: TokenAuthority,
  request: FastifyRequest,
  principal: Principal,
  refusal: (required: readonly string[] | undefined, held: ReadonlySet<string>) => ApiError | undefined,
): ApiError | undefined {
  const { operation, scopes } = request.routeOptions.config;
  const connection = request.raw.socket ?? undefined;
  const required = d.requiredScopes(operation, scopes);
  // blind round 42: the request, for a deny cache keyed by its method and path (`scope-refusal-cached-by-path`).
  const held = d.scopesHeld(operation, principal.scopes, () => auth.client(principal.clientId)?.scopes ?? [], request);
  const checked =
    d.scopesFoundForPath(operation, request.url) &&
    !d.scopeDecisionCached(principal.clientId, operation, connection, principal.tokenId) &&
    // blind round 38: a grant's own client let past the check (`client-grant-owner-reads-without-scope`).
    !d.readsOwnGrant(operation, request, principal.clientId) &&
    d.checksScopes(operation, admittedFromCache.has(request), held, request.query) &&
    d.checksScopesOfBody(operation, request.headers['content-type']);
  // A fault that asks all of the route's scopes: a token short of one holds none of them.
  const judged = required?.all === true && !required.scopes.every((s) => held.has(s)) ? new Set<string>() : held;
  const refused = checked ? refusal(required?.scopes, judged) : undefined;
  if (refused !== undefined && !d.defersScopeRefusal(operation, request)) return refused;
  d.scopeAdmitted(principal.clientId, operation, connection, principal.tokenId);
  return undefined;
}
