/**
 * The behavioural seams: where a fault or variant changes what the emulator
 * does (whom it lets in, what a page holds, where a stream resumes), not
 * only the shape of an answer (that is mutations.ts). Routes call a seam
 * with the conforming value and use what it gives back; each seam is named
 * after the behaviour it decides, and with nothing switched on it gives the
 * conforming value back. The catalogues (catalogue.ts, variants.ts) say how
 * each fault or variant deviates; this file only says where.
 */
import { createHash, createHmac } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type SignJWT } from 'jose';
import { audienceOf } from '../context.js';
import { operation as operationSpec, type OperationId } from '../../spec/operations.js';
import { OAuthError, TOKEN_TTL_SECONDS, type Client, type Principal, type TokenAuthority } from '../auth.js';
import {
  decodeOffset,
  encodeOffset,
  EVENT_TYPES,
  OFFSET_ONLY,
  sseFrame,
  type LoggedEvent,
  type EventLog,
} from '../events.js';
import { apiError, type ApiError } from '../errors.js';
import type { RateLimitOptions } from '../options.js';
import type { RateLimitDecision } from '../rate-limit.js';
import type { ExperimentStatus, Jwk } from '../state.js';
import type { FaultName } from './catalogue.js';
import { ALLOWED_TAGS, htmlViolation } from '../html-policy.js';
import { publicJwks } from '../signing-key.js';
import {
  claimedPrincipal,
  customKeyPrincipal,
  embeddedKeyPrincipal,
  publicKeyHmacPrincipal,
  TokenStandIns,
  unsignedPrincipal,
} from './tokens.js';
import type { VariantName } from './variants.js';
import type { FastifyBodyParser, FastifyReply, FastifyRequest } from 'fastify';
import { PRIVATE_MEMBERS, type PrivateMembers } from '../routes/custom-signing-keys.js';
import { param } from '../routes/shared.js';
import { mediaTypeOf, operationOf, rawFormOf } from './requests.js';
import { SUBSCRIBABLE } from '../seed/event-streams.js';
import { encodeStreamCursor, TAKE_DEFAULT } from '../routes/event-streams.js';
import { parseRfc3339 } from '../routes/events.js';
import { customTextKey } from '../state.js';

/** UTF-8 as the conforming JSON parser decodes it (index.ts): a malformed sequence throws. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text keys of the `custom-text-keys-closed` variant besides the suite's default key. */
export const CLOSED_TEXT_KEYS: readonly string[] = ['heading', 'description'];

/** Scopes besides the route's that `token-sets-scopes-all-of` requires. */
const READ_USERS = 'read:users';
/** How old an event may be for its offset to resume from (`cursor-expires`). */
const CURSOR_LIFETIME_MS = 3_600_000;
/** The heartbeat period of `heartbeats-sparse`: longer than the suite's wait on the emulator. */
const SPARSE_HEARTBEAT_MS = 30_000;
/** How long the head position is cached (`cursor-head-position-cached`). */
const HEAD_CACHE_MS = 5_000;
/** The kid column's width (`keys-kid-cut-at-64`). */
const KID_COLUMN = 64;
/** The verbs of the older action endpoints, as statuses (`transition-status-verb-aliases`). */
const STATUS_VERB_ALIASES: Readonly<Record<string, ExperimentStatus>> = {
  activate: 'active',
  pause: 'paused',
  complete: 'completed',
  archive: 'archived',
};
/** How many recent events `start-replays-recent` replays. */
const RECENT = 5;
const HOUR_MS = 3_600_000;
/** How many token sets the store answers a page (`token-sets-first-store-page-only`). */
const TOKEN_SET_STORE_PAGE = 3;
/** The live poller's interval: its first poll comes this long after a stream opened (`live-poller-cursor-set-at-first-poll`). */
const FIRST_POLL_MS = 2_000;
/** The worker processes the load balancer alternates between, each with its own counters (`rate-limit-counters-per-worker`). */
const RATE_LIMIT_WORKERS = 2;
/** How many events `resume-backlog-capped` replays after a cursor (one page of the event store). */
const RESUME_PAGE = 25;
/** Private members of an RSA key besides d (`keys-private-check-d-only` leaves them unchecked). */
const CHECKED_PRIVATE_MEMBERS_D_ONLY: readonly string[] = ['d'];

/** The JWK members the document lists (`keys-undocumented-members-dropped` keeps only these). */
const DOCUMENTED_JWK_MEMBERS: readonly string[] = [
  'kty',
  'kid',
  'use',
  'key_ops',
  'n',
  'e',
  'x',
  'y',
  'x5u',
  'x5c',
  'x5t',
  'x5t#S256',
];
/** What a style attribute may not hold, searched case-sensitively (`custom-text-style-check-case-sensitive`). */
const LOWER_CASE_DANGEROUS_STYLE = /javascript:|vbscript:|expression\(|url\(|@import|behavior|-moz-binding|[<>\\]/;

/** blind round 39: how often an instance flushes its rate-limit increments to the shared counter (`rate-limit-increments-flushed-each-second`). */
const COUNTER_FLUSH_MS = 1_000;
/** blind round 39: how long the second-level verify cache keeps an entry (`verify-cache-entry-fixed-lifetime`). */
const FIXED_CACHE_LIFETIME_MS = 600_000;
/** blind round 39: the scopes of the /users/{id} routes, PATCH and DELETE (`token-sets-scopes-from-parent-user-route`). */
const PARENT_USER_ROUTE_SCOPES: readonly string[] = ['update:users', 'delete:users'];
/** blind round 39: when the keep-alive renews a live subscription (`event-filter-lost-on-keepalive-renewal`). */
const KEEPALIVE_RENEWAL_MS = 1_000;

/** blind round 42: how long the deny cache keeps a method and path refused for scope (`scope-refusal-cached-by-path`). */
const DENY_CACHE_MS = 60_000;
/** blind round 42: the sequence numbers of one block of the event store (`resume-seeks-to-block-start`). */
const RESUME_BLOCK = 16;
/** blind round 42: a first line that opens a Markdown list, heading or quote (`custom-text-markdown-rendered-on-store`). */
const MARKDOWN_BLOCK = /^(?:[-*+] |\d+\. |#{1,6} |> )/;

/** blind round 41: the documented maximum length of the events stream's from (`from-over-length-dropped-beside-timestamp`). */
const FROM_MAX_CHARACTERS = 1024;

/** blind round 40: the clock tolerance of the events stream's verifier, in seconds (`events-expired-token-hour-leeway`). */
const SSE_CLOCK_TOLERANCE_SECONDS = 3_600;

/** The documented scope of the token-set listing (`token-sets-any-read-scope`). */
const TOKEN_SETS_SCOPE = 'read:federated_connections_tokens';
const isRead = (scope: string): boolean => scope.startsWith('read:');

/** The verbs of a scope's `<verb>:<resource>` (`scope-resource-only-match`). */
const VERBS: readonly string[] = ['create', 'read', 'update', 'delete'];

/** Requests admitted past a failed scope check, refused after their handler ran (`transition-scope-checked-after-move`). */
const scopeRefusedAfterHandler = new WeakSet<object>();

/** Whether this request's scope refusal was deferred until after its handler (`transition-scope-checked-after-move`). */
export function scopeRefusalDeferred(request: object): boolean {
  return scopeRefusedAfterHandler.has(request);
}

/** A JWS compact serialisation: three dot-separated base64url segments. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The `X-RateLimit-*` headers of one answer, by name. */
export type RateLimitHeaders = Record<string, string | number>;

export interface PageWalk {
  /** Index of the page's first stream in the list. */
  start: number;
  size: number;
  /** The list's length. */
  total: number;
  /** The cursor the page was asked with. */
  from: string | undefined;
  /** The cursor of a stream of the list, by index. */
  cursorAt: (index: number) => string;
}

/** None switched on: the one answer, so that every seam's question folds to the conforming value. */
const noneOn = (_name: FaultName | VariantName): boolean => false;

/** Whether a fault or variant is on, given those switched on: the one question the fault layer asks. */
export function switchedOn(
  faults: ReadonlySet<FaultName>,
  variant: VariantName | undefined,
): (name: FaultName | VariantName) => boolean {
  if (faults.size === 0 && variant === undefined) return noneOn;
  return (name) => faults.has(name as FaultName) || variant === name;
}

export class Deviations {
  private readonly standIns = new TokenStandIns();
  /** The last take a list was asked with (`event-streams-take-default-remembered`). */
  private lastTake: number | undefined;
  /** The JWT each deflated access token stands for (`token-jws-payload-deflated`). */
  private readonly deflatedTokens = new Map<string, string>();
  /** The JWT each access token written without alg stands for (`token-header-without-alg`). */
  private readonly algFreeTokens = new Map<string, string>();
  /** The JWT each access token written with a BOM before its header stands for (`token-jws-header-bom`). */
  private readonly bomHeaderTokens = new Map<string, string>();
  /** The head position as last read from the replica, and when (`cursor-head-position-cached`). */
  private cachedHead: { position: number; atMs: number } | undefined;
  /** Stored secrets of the clients that authenticated once (`token-client-auth-cached-by-id`). */
  private readonly authenticatedSecrets = new Set<string>();
  /** Clients that were issued a token (`token-reissue-refused`). */
  private readonly issuedTo = new Set<string>();
  /** Signing inputs (header.payload) of verified tokens (`verify-cache-keyed-by-claims`). */
  private readonly verifiedInputs = new Set<string>();
  /** Token responses by client (`token-cache-ignores-scope`). */
  private readonly tokenResponses = new Map<string, Record<string, unknown>>();
  /** Live events a stream took already (`live-events-one-subscriber-each`). */
  private readonly liveTaken = new Set<number>();
  /** The event_type filter of the stream opened last (`event-filter-shared-across-streams`). */
  private sharedFilter: ReadonlySet<string> | null = null;
  /** The principal last admitted on each connection (`verify-cache-per-connection`). */
  private readonly byConnection = new WeakMap<object, Principal>();
  /** Answers of experiment moves by request body (`transition-answer-cached-by-body`). */
  private readonly moveAnswers = new Map<string, unknown>();
  /** jti claims of verified tokens (`verify-cache-keyed-by-jti`). */
  private readonly verifiedJtis = new Set<string>();
  /** Event stream pages by from cursor (`event-streams-page-cached-by-from`). */
  private readonly pagesByFrom = new Map<string, unknown>();
  /** The end of the first window of each rate-limit key (`rate-limit-reset-first-window`). */
  private readonly firstWindowEnd = new Map<string, number>();
  /** The JWT each access token with a JSON-string payload stands for (`token-claims-json-string-payload`). */
  private readonly claimsStringTokens = new Map<string, string>();
  /** The client of each verified token's scope set, and the scope each client was last issued (`scopes-from-clients-last-issued-token`). */
  private readonly clientOfScopes = new WeakMap<ReadonlySet<string>, string>();
  private readonly lastIssuedScopes = new Map<string, ReadonlySet<string>>();
  /** Each rate-limit key's turn and the window of each worker (`rate-limit-counters-per-worker`). */
  private readonly workerWindows = new Map<
    string,
    { turn: number; windows: Array<{ count: number; endsAt: number }> }
  >();
  /** The from_timestamp as written, for a backlog selected by text (`from-timestamp-compared-as-string`). */
  private timestampText: string | undefined;

  /** When this emulator's store was loaded (`from-timestamp-history-at-load-time`: the history's load time). */
  private readonly loadedAtMs = Date.now();

  private readonly on: (name: FaultName | VariantName) => boolean;
  /** Whether any seam of the rate-limit headers is on (asked per request, so answered once). */
  private readonly reshapesRateHeaders: boolean;

  constructor(faults: ReadonlySet<FaultName>, variant: VariantName | undefined) {
    this.on = switchedOn(faults, variant);
    const rateHeaders = [
      'rate-limit-429-limit-remaining-swapped',
      'rate-limit-reset-json-quoted',
      'rate-limit-on-429-only',
      'rate-limit-remaining-negative',
      'rate-limit-429-remaining-nonzero',
      'rate-limit-reset-delta',
      'rate-limit-reset-fractional',
      'rate-limit-429-no-reset',
      'rate-limit-reset-milliseconds',
      'rate-limit-reset-http-date',
      'rate-limit-reset-window-start-r3',
      'rate-limit-reset-window-start',
      'rate-limit-remaining-before-count-r8',
      'rate-limit-reset-clock-aligned',
      'rate-limit-reset-header-duplicated',
      'rate-limit-limit-with-window-policy',
      'rate-limit-remaining-reports-used',
      'rate-limit-remaining-before-count',
      'rate-limit-reset-floored',
      'rate-limit-limit-off-by-one',
      'rate-limit-429-header-names-hyphenated',
      'rate-limit-remaining-omitted-when-zero',
      'rate-limit-reset-delta-sign-flipped',
      'rate-limit-remaining-from-default-window',
      'rate-limit-reset-go-duration',
      'rate-limit-reset-locale-grouped',
      'rate-limit-remaining-unsigned-wrap',
      'rate-limit-429-ietf-draft-header-names',
    ] as const;
    this.reshapesRateHeaders = rateHeaders.some(this.on);
  }

  /** Clients and operations whose scope check a token passed once (`scope-decision-cached-per-client`). */
  private readonly scopeDecisions = new Set<string>();
  /** Clients whose from_timestamp was honoured once (`from-timestamp-first-request-only`). */
  private readonly timestampClients = new Set<string>();
  /** The principal last admitted on each connection, as a session (`missing-token-connection-session`). */
  private readonly sessions = new WeakMap<object, Principal>();
  /** The event_type values of the stream being opened (`resume-cursor-of-filtered-type-refused`). */
  private askedTypes: readonly string[] = [];
  /** The event_type filter each client last asked for (`event-filter-sticky-per-client`). */
  private readonly subscribedTypes = new Map<string, string[]>();
  /** Users deleted, kept as soft-deleted rows (`token-sets-deleted-user-listed`). */
  private readonly deletedUsers = new Set<string>();
  /** blind round 33: the event_type sets a consumer group was made for (`filtered-start-new-filter-replays-retained`). */
  private readonly consumerGroups = new Set<string>();
  /** blind round 33: the principal of each session cookie handed out (`api-session-cookie-accepted-without-token`). */
  private readonly cookieSessions = new Map<string, Principal>();
  /** blind round 33: the secrets of the tenant's clients, as the secret index holds them (`token-secret-matched-against-any-client`). */
  private tenantSecrets: ReadonlySet<string> = new Set();
  /** Principals of verified tokens by the token in lower case, a case-insensitive cache key (`verify-cache-key-case-insensitive`). */
  private readonly verifiedCaseFolded = new Map<string, Principal>();
  /** The tenant's default rate limit, as last reported (`rate-limit-remaining-from-default-window`). */
  private defaultLimitSeen = 0;
  /** The first characters of verified tokens, a cache key cut to its column (`verify-cache-key-cut-at-255`). */
  private readonly verifiedPrefixes = new Set<string>();
  /** blind round 34: the cursors streams resumed from, redeemed once (`resume-cursor-single-use`). */
  private readonly redeemedCursors = new Set<number>();
  /** blind round 34: each client's durable consumer start time, from its first from_timestamp (`from-timestamp-sticky-per-client`). */
  private readonly consumerStarts = new Map<string, number>();
  /** blind round 35: the operations each connection passed the scope check of (`scope-decision-cached-per-connection`). */
  private readonly connectionScopeDecisions = new WeakMap<object, Set<OperationId | undefined>>();
  /** blind round 35: the stream holding each token's live subscription (`live-subscription-replaced-per-token`). */
  private readonly liveSubscriptions = new Map<string, object>();
  /** blind round 35: each client's last PUT of keys that ran, and its answer (`keys-put-debounced-as-double-submit`). */
  private readonly lastKeysPut = new Map<string, { atMs: number; answer: unknown }>();
  /** blind round 35: the PUTs of keys taken for a repetition and answered the previous response (`keys-put-debounced-as-double-submit`). */
  private readonly debouncedPuts = new WeakSet<object>();
  /** blind round 36: the successful requests of each rate-limit window, given back (`rate-limit-counts-failed-requests-only`). */
  private readonly givenBack = new Map<string, { endsAtMs: number; n: number }>();
  /** blind round 37: the from cursor of the stream being opened (`event-type-unchecked-on-resume`). */
  private resumingCursor: string | undefined;
  /** blind round 37: the event_type values of the stream being opened (`filtered-resume-index-into-filtered-list`). */
  private resumeIndexTypes: readonly string[] = [];
  /** blind round 37: the experiment the move handler answers, one slot for every request (`transition-answer-shared-slot-under-concurrency`). */
  private moveSlot: unknown;
  /** blind round 37: whether each live event was forwarded, and when each object last had one forwarded (`live-dedupe-keyed-by-object-id`). */
  private readonly liveForwardDecisions = new Map<number, boolean>();
  private readonly lastForwardedByObject = new Map<string, number>();
  /** blind round 37: the connection of the request being admitted, and each connection's rate-limit windows (`rate-limit-window-per-connection`). */
  private admittedConnection: object | undefined;
  private readonly connectionWindows = new WeakMap<object, Map<string, { count: number; endsAt: number }>>();
  /** blind round 38: the client_id body parameter of the token request being read, the params object the handler holds, the client a Basic request names there, and whether that client stands authenticated (`token-basic-body-client-id-issues-for-named-client`). */
  private bodyClientId: string | undefined;
  private tokenParamsHeld: Record<string, string> | undefined;
  private basicNamedClient: string | undefined;
  private namedClientAuthenticated = false;
  /** blind round 38: the scope claims of tokens issued for a requested scope (`token-narrowed-token-opaque-reference`). */
  private readonly narrowedClaims = new Set<string>();
  /** blind round 38: the jti of every token that passed a scope check once (`scope-decision-memoised-per-token`). */
  private readonly authorisedTokens = new Set<string>();
  /** blind round 39: verified tokens and when they were first verified, kept for a fixed lifetime (`verify-cache-entry-fixed-lifetime`). */
  private readonly fixedLifetimeCache = new Map<string, { principal: Principal; atMs: number }>();
  /** blind round 39: each rate-limit key's count as last flushed to the shared counter, and when it is flushed next (`rate-limit-increments-flushed-each-second`). */
  private readonly flushedCounts = new Map<string, { flushed: number; nextFlushMs: number; endsAtMs: number }>();

  /** blind round 42: when each method and path was last refused for scope, and the requests the deny cache refused (`scope-refusal-cached-by-path`). */
  private readonly deniedPaths = new Map<string, number>();
  private readonly deniedFromCache = new WeakSet<object>();
  /** blind round 42: until when each rate-limit key sits in the penalty box (`rate-limit-429-rearms-window`). */
  private readonly penaltyBox = new Map<string, number>();

  /** Whether a cached scope decision admits this client to the operation without checking the token's scopes. */
  scopeDecisionCached(
    clientId: string,
    operation: OperationId | undefined,
    connection?: object,
    tokenId?: string,
  ): boolean {
    // blind round 38: a token's decision memoised by its jti, the operation left out of the key (`scope-decision-memoised-per-token`).
    if (this.on('scope-decision-memoised-per-token') && tokenId !== undefined && this.authorisedTokens.has(tokenId))
      return true;
    // blind round 35: the decision memoised on the connection, whatever token comes on it (`scope-decision-cached-per-connection`).
    if (this.on('scope-decision-cached-per-connection') && connection !== undefined)
      return this.connectionScopeDecisions.get(connection)?.has(operation) === true;
    return this.on('scope-decision-cached-per-client') && this.scopeDecisions.has(`${clientId} ${operation}`);
  }

  /** Whether a failed scope check is deferred until after the handler ran (the request marked for the refusal). */
  defersScopeRefusal(operation: OperationId | undefined, request: object): boolean {
    // blind round 42: a refusal remembered by method and path, unless the deny cache gave it (`scope-refusal-cached-by-path`).
    if (this.on('scope-refusal-cached-by-path') && !this.deniedFromCache.has(request))
      this.deniedPaths.set(deniedPathKey(request as FastifyRequest), Date.now());
    if (!this.on('transition-scope-checked-after-move') || operation !== 'experiments.transition') return false;
    scopeRefusedAfterHandler.add(request);
    return true;
  }

  /** A token of this client passed the scope check of the operation. */
  scopeAdmitted(clientId: string, operation: OperationId | undefined, connection?: object, tokenId?: string): void {
    // blind round 38: the token remembered as authorised, whatever operation it passed (`scope-decision-memoised-per-token`).
    if (this.on('scope-decision-memoised-per-token') && tokenId !== undefined) this.authorisedTokens.add(tokenId);
    if (this.on('scope-decision-cached-per-client')) this.scopeDecisions.add(`${clientId} ${operation}`);
    // blind round 35: the connection remembers the operations it passed the scope check of (`scope-decision-cached-per-connection`).
    if (this.on('scope-decision-cached-per-connection') && connection !== undefined) {
      let passed = this.connectionScopeDecisions.get(connection);
      if (passed === undefined) this.connectionScopeDecisions.set(connection, (passed = new Set()));
      passed.add(operation);
    }
  }

  /** The events a stream replays, in the order written (`filtered-replay-grouped-by-type`: one query per type). */
  replayInOrder(events: LoggedEvent[], filter: ReadonlySet<string> | null): LoggedEvent[] {
    if (!this.on('filtered-replay-grouped-by-type') || filter === null || filter.size < 2) return events;
    return [...filter].flatMap((type) => events.filter((e) => e.type === type));
  }

  /** The streams of a page and whether more follow, `cursor` being the index of the from cursor's stream. */
  pageOfStreams<T extends { id: string }>(
    all: readonly T[],
    start: number,
    size: number,
    cursor: number | undefined,
  ): { page: T[]; more: boolean } {
    // blind round 31: the cursor route keeps the take+1 probe row (`event-streams-cursor-page-keeps-probe-row`).
    if (this.on('event-streams-cursor-page-keeps-probe-row') && cursor !== undefined) {
      const rows = all.slice(start, start + size + 1);
      return { page: rows, more: rows.length > size };
    }
    // blind round 31: a short page after a cursor read as the last take streams (`event-streams-last-page-filled-backwards`).
    if (this.on('event-streams-last-page-filled-backwards') && cursor !== undefined && start + size > all.length)
      return { page: all.slice(Math.max(0, all.length - size)), more: false };
    if (this.on('keyset-cursor-id-order') && cursor !== undefined && all[cursor] !== undefined) {
      // WHERE id > :cursor_id ORDER BY created_at: a keyset on a key the list is not ordered by.
      const after = all.filter((s) => s.id > all[cursor]!.id);
      return { page: after.slice(0, size), more: after.length > size };
    }
    if (this.on('event-streams-take-counts-enabled-only')) {
      // take applied to the enabled streams; the disabled ones between them joined back.
      const page: T[] = [];
      let i = start;
      for (let enabled = 0; i < all.length && enabled < size; i++) {
        page.push(all[i]!);
        if ((all[i] as { status?: unknown }).status !== 'disabled') enabled++;
      }
      return { page, more: i < all.length };
    }
    if (this.on('event-streams-take-limits-subscription-rows')) {
      // LIMIT take on the streams joined with their subscriptions: take rows, not take streams.
      let end = start;
      for (let rows = 0; end < all.length; end++) {
        rows += subscriptionRows(all[end]);
        if (rows > size && end > start) break;
      }
      return { page: all.slice(start, end), more: end < all.length };
    }
    if (this.on('event-streams-page-cut-at-store-block')) {
      // The store answers blocks of 100: a page ends at the end of the block it starts in.
      const end = Math.min(start + size, (Math.floor(start / STORE_BLOCK) + 1) * STORE_BLOCK);
      return { page: all.slice(start, end), more: end < all.length };
    }
    return { page: all.slice(start, start + size), more: start + size < all.length };
  }

  // ------------------------------------------------------------ the seed

  /** The id a seeded experiment is minted with. */
  experimentId(id: string): string {
    return this.on('experiment-id-with-zero') ? `exp_0${id.slice(5)}` : id;
  }

  /** The text key of the seeded custom text. */
  seededTextKey(key: string): string {
    return this.on('custom-text-keys-closed') ? CLOSED_TEXT_KEYS[1]! : key;
  }

  /** The default window of the rate-limited client. */
  rateLimitedClientWindow(window: RateLimitOptions): RateLimitOptions {
    return this.on('rate-limit-edge-of-probe') ? { limit: 200, windowSeconds: 60 } : window;
  }

  // ---------------------------------------------------- routes served

  /** Whether the GET/DELETE routes a careful client snapshots and restores with are served. */
  get servesSnapshotRoutes(): boolean {
    return !this.on('no-snapshot-routes');
  }

  /** The routes served of `defs`: all of them, or none of the snapshot routes (`no-snapshot-routes`). */
  servedRoutes<T extends { snapshot?: boolean }>(defs: T[]): T[] {
    return this.servesSnapshotRoutes ? defs : defs.filter((def) => !def.snapshot);
  }

  /** The private members (d, p, q, ..., k) the custom signing key at `index` of a PUT is refused for holding. */
  privateKeyMembers(index: number, members: readonly string[], form = false, kty?: unknown): readonly string[] {
    if (this.on('keys-private-members-stored')) return [];
    // blind round 31: private members stripped when stored instead of refused (`keys-answer-echoes-request-private-members`).
    if (this.on('keys-answer-echoes-request-private-members')) return [];
    if (this.on('keys-private-check-skips-okp') && kty === 'OKP') return [];
    if (this.on('keys-private-check-rsa-only') && kty !== 'RSA') return [];
    if (this.on('keys-private-check-json-only') && form) return [];
    if (this.on('keys-private-check-first-key-only') && index > 0) return [];
    if (this.on('keys-private-check-d-only')) return CHECKED_PRIVATE_MEMBERS_D_ONLY;
    return members;
  }

  // ---------------------------------------------------- authentication

  /** Whether a request with no bearer JWT (no header, or another kind) is let in as the full client. */
  /** Whether a request routed to /api/v2 is guarded although its path as sent does not start with it (`bearer-check-on-raw-path-prefix`: no). */
  guardsApiRoute(routed: boolean): boolean {
    return routed && !this.on('bearer-check-on-raw-path-prefix');
  }

  letsInWithoutBearer(
    operation: OperationId | undefined,
    header: string | undefined,
    token: string | undefined,
    lastEventId?: string | string[],
    url = '',
    peer?: { ip: string; method: string; forwardedFor: string | string[] | undefined },
  ): boolean {
    // blind round 31: GETs from loopback or private addresses taken for internal health checks (`loopback-get-trusted-without-token`).
    if (
      header === undefined &&
      this.on('loopback-get-trusted-without-token') &&
      operation !== undefined &&
      peer !== undefined &&
      peer.method === 'GET' &&
      peer.forwardedFor === undefined &&
      PRIVATE_ADDRESS.test(peer.ip)
    )
      return true;
    // Protected routes matched by their exact templates: a trailing slash, which the router ignores, skips the check.
    if (
      header === undefined &&
      this.on('auth-bypassed-with-trailing-slash') &&
      operation !== undefined &&
      url.split('?', 1)[0]!.endsWith('/')
    )
      return true;
    // A reconnecting EventSource (Last-Event-ID) taken for a stream authorised before.
    if (
      header === undefined &&
      this.on('events-reconnect-last-event-id-unauthenticated') &&
      operation === 'events.subscribe' &&
      lastEventId !== undefined
    )
      return true;
    if (header === undefined) return this.on('missing-token-accepted') && operation === 'client-grants.get';
    return (
      this.on('malformed-header-accepted') &&
      operation === 'event-streams.list' &&
      (token === undefined || !JWT_SHAPE.test(token))
    );
  }

  /** The principal of a token that failed verification, when a broken verifier would admit it anyway. */
  async admittedUnverified(
    operation: OperationId | undefined,
    token: string,
    auth: TokenAuthority,
    origin: string,
    customKeys: () => readonly object[] | null = () => null,
  ): Promise<Principal | undefined> {
    // blind round 40: the events stream verifies with a clock tolerance of an hour (`events-expired-token-hour-leeway`).
    if (this.on('events-expired-token-hour-leeway') && operation === 'events.subscribe') {
      try {
        const key = await importJWK((await publicJwks(auth)).keys[0]!, 'RS256');
        await jwtVerify(token, key, {
          algorithms: ['RS256'],
          issuer: `${origin}/`,
          audience: audienceOf(origin),
          clockTolerance: SSE_CLOCK_TOLERANCE_SECONDS,
        });
        return claimedPrincipal(auth, token);
      } catch {
        return undefined;
      }
    }
    // blind round 39: a token verified within the last ten minutes admitted from the second-level cache (`verify-cache-entry-fixed-lifetime`).
    if (this.on('verify-cache-entry-fixed-lifetime')) {
      const kept = this.fixedLifetimeCache.get(token);
      if (kept !== undefined && Date.now() - kept.atMs < FIXED_CACHE_LIFETIME_MS) return kept.principal;
    }
    // blind round 30: tokens typed at+jwt taken for ones the gateway verified, only decoded (`jwt-at-jwt-typ-unverified`).
    if (this.on('jwt-at-jwt-typ-unverified') && accessTokenTyped(token)) return claimedPrincipal(auth, token);
    if (this.on('alg-none-mixed-case-accepted') && mixedCaseNone(token)) return unsignedPrincipal(auth, token);
    // No key under the header's kid: the claims read unverified ("legacy tokens before key rotation").
    if (this.on('jwt-unknown-kid-unverified')) {
      let kid: unknown;
      try {
        kid = decodeProtectedHeader(token).kid;
      } catch {
        return undefined;
      }
      if (kid !== auth.kid) return claimedPrincipal(auth, token);
    }
    // split(".") dropping trailing empty strings: "<jwt>." read as its three segments.
    if (
      this.on('bearer-trailing-dots-dropped') &&
      /[^.]\.+$/.test(token) &&
      token.replace(/\.+$/, '').split('.').length === 3
    )
      return auth.verify(token.replace(/\.+$/, ''), origin).catch(() => undefined);
    if (this.on('tampered-signature-accepted') && operation === 'events.subscribe')
      return claimedPrincipal(auth, token);
    if (this.on('alg-none-accepted') && operation === 'event-streams.get') return unsignedPrincipal(auth, token);
    if (this.on('jwk-header-trusted') && operation === 'token-sets.list')
      return embeddedKeyPrincipal(auth, token, origin);
    if (this.on('jwt-hs256-public-key-confusion') && operation === 'client-grants.get')
      return publicKeyHmacPrincipal(auth, token, origin);
    if (this.on('signature-cache-ignores-payload') && this.standIns.seenSignature(token))
      return claimedPrincipal(auth, token);
    if (this.on('verify-cache-keyed-by-claims') && this.verifiedInputs.has(signingInput(token)))
      return claimedPrincipal(auth, token);
    if (this.on('verify-cache-keyed-by-jti') && this.verifiedJtis.has(jtiOf(token) ?? '\u0000'))
      return claimedPrincipal(auth, token);
    if (this.on('jwt-empty-signature-accepted') && operation === 'event-streams.list' && token.endsWith('.'))
      return claimedPrincipal(auth, token);
    if (this.on('jwt-extra-segment-accepted') && operation === 'token-sets.list' && token.split('.').length > 3)
      return auth.verify(token.split('.').slice(0, 3).join('.'), origin).catch(() => undefined);
    if (this.on('jwt-hs256-empty-secret') && operation === 'event-streams.get' && emptyKeyHs256(token))
      return claimedPrincipal(auth, token);
    if (this.on('jwt-custom-signing-key-trusted')) return customKeyPrincipal(auth, token, origin, customKeys() ?? []);
    if (this.on('jwt-signature-trailing-chars-ignored')) return signatureCutToKeySize(auth, token, origin);
    if (this.on('jwt-hs256-client-secret-accepted')) {
      const p = await clientSecretHmacPrincipal(auth, token, origin);
      if (p !== undefined) return p;
    }
    if (this.on('verify-cache-key-cut-at-255') && this.verifiedPrefixes.has(token.slice(0, TOKEN_KEY_COLUMN)))
      return claimedPrincipal(auth, token);
    // The cache key compared ignoring case: a token that differs only in letter case finds the verified one's entry.
    if (this.on('verify-cache-key-case-insensitive')) return this.verifiedCaseFolded.get(token.toLowerCase());
    return undefined;
  }

  /** A token passed verification (a verifier that caches by signature, or by claims, remembers it). */
  verified(token: string, principal?: Principal): void {
    // blind round 39: the second-level cache keeps the entry ten minutes from now, whatever the token's exp (`verify-cache-entry-fixed-lifetime`).
    if (this.on('verify-cache-entry-fixed-lifetime') && principal !== undefined && !this.fixedLifetimeCache.has(token))
      this.fixedLifetimeCache.set(token, { principal, atMs: Date.now() });
    // blind round 29: which client a verified token's scopes belong to (`scopes-from-clients-last-issued-token`).
    if (this.on('scopes-from-clients-last-issued-token') && principal !== undefined)
      this.clientOfScopes.set(principal.scopes, principal.clientId);
    if (this.on('verify-cache-key-case-insensitive') && principal !== undefined)
      this.verifiedCaseFolded.set(token.toLowerCase(), principal);
    if (this.on('signature-cache-ignores-payload')) this.standIns.rememberSignature(token);
    if (this.on('verify-cache-keyed-by-claims')) this.verifiedInputs.add(signingInput(token));
    if (this.on('verify-cache-key-cut-at-255')) this.verifiedPrefixes.add(token.slice(0, TOKEN_KEY_COLUMN));
    if (this.on('verify-cache-keyed-by-jti')) {
      const jti = jtiOf(token);
      if (jti !== undefined) this.verifiedJtis.add(jti);
    }
  }

  /** The principal a verification cache keyed by connection answers for any bearer token sent on it. */
  connectionPrincipal(connection: object | undefined): Principal | undefined {
    return this.on('verify-cache-per-connection') && connection !== undefined
      ? this.byConnection.get(connection)
      : undefined;
  }

  /** A request on `connection` was admitted as `principal`. */
  admittedOn(connection: object | undefined, principal: Principal): void {
    // blind round 37: the connection kept for the rate limiter, whose windows live on it (`rate-limit-window-per-connection`).
    if (this.on('rate-limit-window-per-connection')) this.admittedConnection = connection;
    if (this.on('verify-cache-per-connection') && connection !== undefined)
      this.byConnection.set(connection, principal);
    if (this.on('missing-token-connection-session') && connection !== undefined)
      this.sessions.set(connection, principal);
    // blind round 33: a session opened for every admitted bearer token (`api-session-cookie-accepted-without-token`).
    if (this.on('api-session-cookie-accepted-without-token'))
      this.cookieSessions.set(sessionCookieValue(principal.tokenId), principal);
  }

  /** The bearer token of an Authorization header, given the one the strict syntax found (undefined: malformed). */
  bearerToken(header: string, strict: string | undefined): string | undefined {
    // blind round 39: split with a Unicode-aware \s, which takes NO-BREAK SPACE for a separator (`bearer-separator-unicode-whitespace`).
    if (strict === undefined && this.on('bearer-separator-unicode-whitespace')) {
      const m = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/iu.exec(header);
      if (m !== null) return m[1];
    }
    // A repeated scheme stripped (`token-access-token-scheme-prefixed`: the token was issued with "Bearer " in it).
    if (strict === undefined && this.on('token-access-token-scheme-prefixed')) {
      const m = /^Bearer[ \t]+Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(header);
      if (m !== null) return m[1];
    }
    // Percent-decoded before it is verified (`bearer-token-percent-decoded`): %2E read as a dot.
    if (strict === undefined && this.on('bearer-token-percent-decoded')) {
      const m = /^Bearer[ \t]+([A-Za-z0-9._~+/%-]+=*)[ \t]*$/i.exec(header);
      if (m !== null) return percentDecodedOnce(m[1]!);
    }
    // The last word of the header taken for the token, whatever the scheme before it.
    if (strict === undefined && this.on('bearer-scheme-not-checked'))
      return /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/.exec(header)?.[1];
    // A quoted-string read as the credentials (`bearer-quoted-token-accepted`): the quotes stripped.
    if (strict === undefined && this.on('bearer-quoted-token-accepted'))
      return /^Bearer[ \t]+"([A-Za-z0-9._~+/-]+=*)"[ \t]*$/i.exec(header)?.[1];
    // Padded base64 segments (`token-jwt-padded-base64`): = inside the token, which the strict syntax ends at.
    if (strict === undefined && this.on('token-jwt-padded-base64'))
      return /^Bearer[ \t]+([A-Za-z0-9.+/=_-]+)[ \t]*$/i.exec(header)?.[1];
    // The scheme matched as a prefix: "Bearer<jwt>" (no space) yields the token too.
    if (strict === undefined && this.on('bearer-no-space-accepted'))
      return /^Bearer[ \t]*([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(header)?.[1];
    // The header read as a list (several credentials joined with a comma) and its first member taken.
    if (strict === undefined && this.on('bearer-list-first-credentials-accepted'))
      return /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*,/i.exec(header)?.[1];
    if (strict !== undefined || !this.on('bearer-split-on-space')) return strict;
    // header.split(' ')[1]: whatever follows the token is dropped.
    const [scheme, token] = header.split(' ');
    return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
  }

  /** The scopes a request is judged by: the token's own, or (a broken check) those its client was granted. */
  scopesHeld(
    operation: OperationId | undefined,
    token: ReadonlySet<string>,
    client: () => readonly string[],
    request?: FastifyRequest,
  ): ReadonlySet<string> {
    // blind round 42: the deny cache keyed by method and path, the token left out of the key (`scope-refusal-cached-by-path`).
    if (this.on('scope-refusal-cached-by-path') && request !== undefined) {
      const at = this.deniedPaths.get(deniedPathKey(request));
      if (at !== undefined && Date.now() - at < DENY_CACHE_MS) {
        this.deniedFromCache.add(request);
        return new Set();
      }
    }
    // blind round 37: the required scope found by bisection in a claim taken to be sorted (`scope-claim-binary-searched`).
    if (this.on('scope-claim-binary-searched')) return new BisectedScopeClaim([...token]);
    // blind round 36: scope.split(' ').indexOf(required) > 0: a scope the claim names first is not found (`token-sets-scope-index-greater-than-zero`).
    if (
      this.on('token-sets-scope-index-greater-than-zero') &&
      operation === 'token-sets.list' &&
      [...token][0] === TOKEN_SETS_SCOPE
    )
      return new Set([...token].slice(1));
    // blind round 29: the client's session record, overwritten by each token issue (`scopes-from-clients-last-issued-token`).
    if (this.on('scopes-from-clients-last-issued-token')) {
      const clientId = this.clientOfScopes.get(token);
      const last = clientId === undefined ? undefined : this.lastIssuedScopes.get(clientId);
      if (last !== undefined) return last;
    }
    // blind round 34: the scope claim as the gateway forwards it, cut at 255 characters (`scope-claim-cut-at-255`).
    if (this.on('scope-claim-cut-at-255')) return new Set([...token].join(' ').slice(0, SCOPE_HEADER_WIDTH).split(' '));
    if (this.on('scope-from-client-not-token') && operation === 'client-grants.get') return new Set(client());
    if (this.on('scope-claim-split-on-comma') && operation === 'event-streams.list')
      return new Set([...token].join(' ').split(','));
    // Only the verb compared: any read: scope stands for the listing's read scope.
    if (this.on('token-sets-any-read-scope') && operation === 'token-sets.list' && [...token].some(isRead))
      return new Set([...token, TOKEN_SETS_SCOPE]);
    // The scope of the events stream taken for that of event streams too (one scope constant for both routes).
    if (
      this.on('event-streams-get-accepts-read-events') &&
      operation === 'event-streams.get' &&
      token.has(EVENTS_READ_SCOPE)
    )
      return new Set([...token, STREAM_READ_SCOPE]);
    if (this.anyUpdateScopeMoves(operation, token)) return new Set([...token, 'update:experimentation']);
    // Only the verb of the write scopes compared: any create: or update: scope stands for them.
    if (
      this.on('keys-put-any-write-scope') &&
      operation === 'custom-signing-keys.put' &&
      [...token].some((s) => s.startsWith('create:') || s.startsWith('update:'))
    )
      return new Set([...token, 'update:custom_signing_keys']);
    // Only the verb compared on the event stream routes: any read: scope stands for read:event_streams.
    if (
      this.on('event-streams-any-read-scope') &&
      (operation === 'event-streams.get' || operation === 'event-streams.list') &&
      [...token].some(isRead)
    )
      return new Set([...token, STREAM_READ_SCOPE]);
    // One scope constant shared by the two event routes, the other way round: read:event_streams opens /events.
    if (
      this.on('events-accepts-read-event-streams') &&
      operation === 'events.subscribe' &&
      token.has(STREAM_READ_SCOPE)
    )
      return new Set([...token, EVENTS_READ_SCOPE]);
    return token;
  }

  /** The scopes a route requires, and whether all of them or any one. */
  requiredScopes(
    operation: OperationId | undefined,
    scopes: readonly string[] | undefined,
  ): { scopes: readonly string[]; all: boolean } | undefined {
    // blind round 31: the read preset's scopes concatenated by deepmerge (`get-route-preset-scopes-concatenated`).
    if (
      this.on('get-route-preset-scopes-concatenated') &&
      scopes !== undefined &&
      operation !== undefined &&
      PRESET_ROUTED.includes(operation)
    )
      return { scopes: [...STATS_PRESET_SCOPES, ...scopes], all: false };
    // Scopes looked up by path, not method: the PUT takes those of GET and DELETE on the same path too.
    if (this.on('keys-scope-by-path-not-method') && operation === 'custom-signing-keys.put' && scopes !== undefined)
      return { scopes: [...scopes, 'read:custom_signing_keys', 'delete:custom_signing_keys'], all: false };
    if (this.on('custom-text-put-accepts-read-scope') && operation === 'custom-text.put' && scopes !== undefined)
      return { scopes: [...scopes, 'read:self_service_profile_custom_texts'], all: false };
    // The read scopes of the resources whose events the stream carries admit it too.
    if (this.on('events-accepts-resource-read-scope') && operation === 'events.subscribe' && scopes !== undefined)
      return { scopes: [...scopes, 'read:users', 'read:organizations', 'read:connections'], all: false };
    if (this.on('wrong-scope-required') && operation === 'client-grants.get')
      return { scopes: ['read:client_grant'], all: false };
    if (this.on('limited-token-accepted') && operation === 'custom-signing-keys.put') return undefined;
    if (this.on('token-sets-scopes-all-of') && operation === 'token-sets.list')
      return { scopes: [...(scopes ?? []), READ_USERS], all: true };
    // blind round 39: the listing under the scopes of the /users/{id} entry, its longest registered prefix (`token-sets-scopes-from-parent-user-route`).
    if (this.on('token-sets-scopes-from-parent-user-route') && operation === 'token-sets.list')
      return { scopes: [...(scopes ?? []), ...PARENT_USER_ROUTE_SCOPES], all: false };
    if (this.on('token-sets-read-users-accepted') && operation === 'token-sets.list')
      return { scopes: [...(scopes ?? []), READ_USERS], all: false };
    if (this.on('scope-resource-only-match') && operation === 'custom-text.put' && scopes !== undefined)
      return { scopes: [...new Set(scopes.flatMap((s) => VERBS.map((v) => `${v}:${s.split(':')[1]}`)))], all: false };
    return scopes === undefined ? undefined : { scopes, all: false };
  }

  /** Whether the route's scopes are found for the request's raw path (`scope-map-keyed-by-raw-path`: a template match on the path as sent). */
  scopesFoundForPath(operation: OperationId | undefined, url: string): boolean {
    // blind round 39: the table keyed by the templates without a trailing slash, which the router ignores (`scope-lookup-misses-trailing-slash`).
    if (this.on('scope-lookup-misses-trailing-slash') && operation !== undefined && url.split('?', 1)[0]!.endsWith('/'))
      return false;
    if (!this.on('scope-map-keyed-by-raw-path') || operation === undefined) return true;
    const template = new RegExp(`^/api/v2${operationSpec(operation).path.replace(/\{\w+\}/g, '[^/]+')}/?$`);
    return template.test(url.split('?', 1)[0]!);
  }

  /** blind round 38: whether a read of a client grant is let past the scope check for the grant's own client (`client-grant-owner-reads-without-scope`). */
  readsOwnGrant(operation: OperationId | undefined, request: FastifyRequest, clientId: string): boolean {
    if (!this.on('client-grant-owner-reads-without-scope') || operation !== 'client-grants.get') return false;
    const id = (request.params as Record<string, string> | undefined)?.['id'];
    const grant = id === undefined ? undefined : request.server.emulator.state.clientGrants.get(id);
    return grant !== undefined && grant.client_id === clientId;
  }

  /** blind round 38: a token that failed verification counted in the window of the jti it claims (`rate-limit-forged-tokens-counted-on-claimed-jti`). */
  unverifiedTokenCounted(token: string, auth: TokenAuthority, request: FastifyRequest): void {
    if (!this.on('rate-limit-forged-tokens-counted-on-claimed-jti')) return;
    let claims: Record<string, unknown>;
    try {
      claims = decodeJwt(token) as Record<string, unknown>;
    } catch {
      return;
    }
    const jti = claims['jti'];
    const named =
      typeof claims['azp'] === 'string' ? claims['azp'] : String(claims['sub'] ?? '').replace(/@clients$/, '');
    const client = auth.client(named);
    if (typeof jti !== 'string' || client === undefined) return;
    request.server.emulator.limiter.hit(`token:${jti}`, client.rateLimit);
  }

  /** The HTTP Basic header as the token endpoint reads it (`token-basic-extra-space-refused`: split on one space). */
  basicHeader(header: string): string {
    // blind round 38: the client_id of the body kept out of the mismatch check, as the client to issue for (`token-basic-body-client-id-issues-for-named-client`).
    if (this.on('token-basic-body-client-id-issues-for-named-client') && this.bodyClientId !== undefined) {
      this.basicNamedClient = this.bodyClientId;
      if (this.tokenParamsHeld !== undefined) delete this.tokenParamsHeld['client_id'];
    }
    // blind round 39: a token68 pattern without its trailing *"=": padded base64 does not match (`token-basic-padded-credentials-refused`).
    if (this.on('token-basic-padded-credentials-refused') && !/^Basic[ \t]+[A-Za-z0-9+/]+[ \t]*$/i.test(header))
      return 'Basic !';
    // The first token68 after the scheme, the rest of the field dropped.
    if (this.on('token-basic-first-token68-only')) return header.replace(/^(Basic[ \t]+\S+)[ \t].*$/is, '$1');
    // Decoded as strict base64url (no +, /, = padding): a token68 in the base64 alphabet fails to decode.
    if (this.on('token-basic-decoded-as-base64url')) {
      const token68 = /^Basic[ \t]+(\S*)[ \t]*$/i.exec(header)?.[1] ?? '';
      return /^[A-Za-z0-9_-]+$/.test(token68) ? header : 'Basic !';
    }
    if (!this.on('token-basic-extra-space-refused')) return header;
    const parts = header.split(' ');
    return `${parts[0]} ${parts[1] ?? ''}`;
  }

  /** The HTTP Basic credentials as the token endpoint uses them (`token-basic-client-id-lowercased`: the id lower-cased). */
  basicCredentialsRead(basic: { id: string; secret: string } | null): { id: string; secret: string } | null {
    // blind round 34: the Basic userid normalised as the login form's usernames are.
    if (this.on('token-basic-client-id-lowercased') && basic !== null) return { ...basic, id: basic.id.toLowerCase() };
    return basic;
  }

  /** Whether the route's scopes are checked, for a token verified afresh or found in the verification cache. */
  checksScopes(
    operation: OperationId | undefined,
    fromCache: boolean,
    held?: ReadonlySet<string>,
    query?: unknown,
  ): boolean {
    // blind round 32: the projection route (fields=…) registered without the scope guard (`fields-projection-skips-scope-check`).
    if (this.on('fields-projection-skips-scope-check') && isMap(query) && query['fields'] !== undefined) return false;
    // The page route (with from) registered without the scope guard.
    if (
      this.on('event-streams-next-page-scope-unchecked') &&
      operation === 'event-streams.list' &&
      isMap(query) &&
      query['from'] !== undefined
    )
      return false;
    if (this.on('events-scope-check-bypassed') && operation === 'events.subscribe') return false;
    // Any read permission taken for reading one grant.
    if (this.on('client-grant-any-read-scope') && operation === 'client-grants.get' && [...(held ?? [])].some(isRead))
      return false;
    // A token with no scope at all read as a token without restrictions.
    if (this.on('empty-scope-claim-unrestricted') && held !== undefined && held.size === 0) return false;
    return !(this.on('scope-check-skipped-on-cache-hit') && fromCache && operation === 'event-streams.list');
  }

  /** The media type a request body is matched by: the type without parameters, or a broken check's whole header. */
  requestMediaType(operation: OperationId | undefined, header: string, mediaType: string): string {
    // Parameters split on ; and = with the quotes kept: charset="utf-8" is an unknown charset.
    if (
      this.on('custom-text-json-quoted-charset-415') &&
      operation === 'custom-text.put' &&
      /;\s*charset\s*=\s*"/i.test(header)
    )
      return `${mediaType}; charset=${header.split(/charset\s*=\s*/i)[1]!.trim()}`;
    if (this.on('keys-json-charset-415') && operation === 'custom-signing-keys.put') return header.trim().toLowerCase();
    // blind round 32: the form type matched with its parameters kept (`keys-form-charset-415`).
    if (
      this.on('keys-form-charset-415') &&
      operation === 'custom-signing-keys.put' &&
      mediaType === 'application/x-www-form-urlencoded'
    )
      return header.trim().toLowerCase();
    // The type compared as written: Application/JSON is not application/json to it.
    if (this.on('media-type-case-sensitive-415') && operation === 'experiments.transition')
      return header.split(';', 1)[0]!.trim();
    // Cut at ; and not trimmed: "application/json ; charset=utf-8" keeps its space.
    if (this.on('media-type-space-before-parameter-415')) return header.split(';', 1)[0]!.toLowerCase();
    return mediaType;
  }

  /** The request media types a route accepts. */
  mediaTypes(operation: OperationId | undefined, types: readonly string[] | undefined): readonly string[] | undefined {
    const refused =
      (operation === 'custom-signing-keys.put' &&
        ((this.on('keys-json-415') && 'application/json') ||
          (this.on('keys-form-415') && 'application/x-www-form-urlencoded'))) ||
      (operation === 'custom-text.put' &&
        ((this.on('custom-text-json-415') && 'application/json') ||
          (this.on('custom-text-form-415') && 'application/x-www-form-urlencoded')));
    return refused ? types?.filter((t) => t !== refused) : types;
  }

  // ---------------------------------------------------- token endpoint

  /** The token request's parameters, `raw` being the form body as sent (undefined for JSON). */
  tokenParams(params: Record<string, string>, body: unknown): Record<string, string> {
    const raw = rawFormOf(body);
    // blind round 38: every name and value decoded with decodeURIComponent, outside any try (`token-form-malformed-escape-500`).
    if (this.on('token-form-malformed-escape-500') && raw !== undefined)
      for (const pair of raw.split('&'))
        for (const part of pair.split('=')) decodeURIComponent(part.replace(/\+/g, ' '));
    // blind round 38: the request validated by a schema with additionalProperties: false (`token-unrecognised-parameter-refused`).
    if (this.on('token-unrecognised-parameter-refused')) {
      const unknown = Object.keys(params).find((k) => !TOKEN_REQUEST_PARAMETERS.includes(k));
      if (unknown !== undefined) throw new OAuthError(400, 'invalid_request', `Unrecognized parameter: ${unknown}`);
    }
    // blind round 38: the body's client_id kept for the grant step (`token-basic-body-client-id-issues-for-named-client`).
    if (this.on('token-basic-body-client-id-issues-for-named-client')) {
      this.bodyClientId = params['client_id'];
      this.basicNamedClient = undefined;
      this.namedClientAuthenticated = false;
    }
    if (this.on('token-body-plus-after-percent-decode') && raw !== undefined) return plusAfterPercentForm(raw, params);
    if (!this.on('token-form-not-percent-decoded') || raw === undefined) return params;
    // Split on & and =, + read as a space, and no percent-decoding.
    const out: Record<string, string> = {};
    for (const pair of raw.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
      out[name] = (eq < 0 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' ');
    }
    return out;
  }

  /** The client secret as compared with the stored one (`token-secret-compared-on-stored-length`: cut to its length). */
  presentedSecret(secret: string, stored: string): string {
    // blind round 38: the Basic credentials authenticated already, for the client the body names (`token-basic-body-client-id-issues-for-named-client`).
    if (this.on('token-basic-body-client-id-issues-for-named-client') && this.namedClientAuthenticated) {
      this.namedClientAuthenticated = false;
      return stored;
    }
    // blind round 35: both secrets NFKC-normalised as passwords are (`token-secret-nfkc-normalised`).
    if (
      this.on('token-secret-nfkc-normalised') &&
      secret !== '' &&
      secret.normalize('NFKC') === stored.normalize('NFKC')
    )
      return stored;
    // blind round 34: both secrets compared as the bytes a lenient base64 decoder makes of them (`token-secret-compared-as-decoded-base64`).
    if (
      this.on('token-secret-compared-as-decoded-base64') &&
      secret !== '' &&
      Buffer.from(secret, 'base64url').equals(Buffer.from(stored, 'base64url'))
    )
      return stored;
    // blind round 33: the secret found in the tenant's secret index, whichever client it belongs to (`token-secret-matched-against-any-client`).
    if (this.on('token-secret-matched-against-any-client') && this.tenantSecrets.has(secret)) return stored;
    // timingSafeEqual on buffers of other lengths throws (`token-secret-length-mismatch-500`).
    if (this.on('token-secret-length-mismatch-500') && Buffer.byteLength(secret) !== Buffer.byteLength(stored))
      throw new RangeError('Input buffers must have the same byte length');
    // Authentication cached by client: once a client authenticated, its secret is not checked again.
    if (this.on('token-client-auth-cached-by-id')) {
      if (secret === stored) this.authenticatedSecrets.add(stored);
      else if (this.authenticatedSecrets.has(stored)) return stored;
    }
    // secrets.includes(stored): any value of a repeated client_secret authenticates.
    if (this.on('token-repeated-secret-any-match') && secret.split(SECRET_LIST_SEPARATOR).includes(stored))
      return stored;
    // strncmp(presented, stored, strlen(presented)): a non-empty prefix of the secret matches.
    if (this.on('token-secret-prefix-accepted') && secret.length > 0 && stored.startsWith(secret)) return stored;
    if (this.on('token-secret-compared-ignoring-case') && secret.toLowerCase() === stored.toLowerCase()) return stored;
    if (this.on('token-secret-case-insensitive') && secret.toLowerCase() === stored.toLowerCase()) return stored;
    if (this.on('token-secret-trimmed') && secret.trim() === stored) return stored;
    return this.on('token-secret-compared-on-stored-length') ? secret.slice(0, stored.length) : secret;
  }

  get checksClientSecret(): boolean {
    return !this.on('token-wrong-secret-accepted');
  }

  get honoursRequestedScope(): boolean {
    return !this.on('token-scope-ignored');
  }

  /** Whether another token is refused to a client that holds one; records the issue otherwise. */
  /** Refuses a second token for a client (`token-reissue-refused`: one live token per client). */
  refuseAnotherToken(clientId: string): void {
    if (!this.on('token-reissue-refused')) return;
    if (this.issuedTo.has(clientId))
      throw new OAuthError(400, 'invalid_request', 'A token for this client is already live');
    this.issuedTo.add(clientId);
  }

  /** A token response given to this client before, answered again whatever is asked (undefined: issue one). */
  cachedTokenResponse(clientId: string): Record<string, unknown> | undefined {
    return this.on('token-cache-ignores-scope') ? this.tokenResponses.get(clientId) : undefined;
  }

  /** A token response was issued to a client. */
  tokenResponseIssued(clientId: string, response: Record<string, unknown>): void {
    // blind round 29: the client's session record takes the scope just granted (`scopes-from-clients-last-issued-token`).
    if (this.on('scopes-from-clients-last-issued-token'))
      this.lastIssuedScopes.set(
        clientId,
        new Set(
          String(response['scope'] ?? '')
            .split(' ')
            .filter(Boolean),
        ),
      );
    if (this.on('token-cache-ignores-scope')) this.tokenResponses.set(clientId, response);
  }

  /** The access token handed out for a signed JWT. */
  async accessToken(jwt: string): Promise<string> {
    // blind round 41: the signer encodes the signature with the standard base64 alphabet, padding stripped (`token-signature-standard-base64`).
    if (this.on('token-signature-standard-base64')) {
      const [h = '', p = '', sig = ''] = jwt.split('.');
      return `${h}.${p}.${sig.replace(/-/g, '+').replace(/_/g, '/')}`;
    }
    // blind round 38: a narrowed token handed out as an opaque reference (`token-narrowed-token-opaque-reference`).
    if (this.on('token-narrowed-token-opaque-reference')) {
      const scope = (decodeJwt(jwt) as { scope?: unknown }).scope;
      if (typeof scope === 'string' && this.narrowedClaims.has(scope)) return this.standIns.opaque(jwt);
    }
    if (this.on('token-not-jwt')) return this.standIns.opaque(jwt);
    if (this.on('token-jws-payload-deflated')) {
      // compressWith(DEFLATE) on a JWS: "zip":"DEF" in the header, the claims raw-DEFLATEd.
      const [h = '', p = '', sig = ''] = jwt.split('.');
      const header = { ...(JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as object), zip: 'DEF' };
      const token = [
        Buffer.from(JSON.stringify(header), 'utf8').toString('base64url'),
        deflateRawSync(Buffer.from(p, 'base64url')).toString('base64url'),
        sig,
      ].join('.');
      this.deflatedTokens.set(token, jwt);
      return token;
    }
    if (this.on('token-jwe')) return this.standIns.encrypted(jwt);
    if (this.on('token-header-without-alg')) {
      // A hand-rolled writer: the header holds typ and kid only.
      const [h = '', p = '', sig = ''] = jwt.split('.');
      const { alg: _alg, ...header } = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const token = [Buffer.from(JSON.stringify(header), 'utf8').toString('base64url'), p, sig].join('.');
      this.algFreeTokens.set(token, jwt);
      return token;
    }
    // blind round 29: the claims serialised twice, the payload a JSON string (`token-claims-json-string-payload`).
    if (this.on('token-claims-json-string-payload')) {
      const [h = '', p = '', sig = ''] = jwt.split('.');
      const claims = Buffer.from(p, 'base64url').toString('utf8');
      const token = [h, Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url'), sig].join('.');
      this.claimsStringTokens.set(token, jwt);
      return token;
    }
    if (this.on('token-jws-header-bom')) {
      // A UTF-8 writer with its preamble: EF BB BF before the header's JSON.
      const [h = '', p = '', sig = ''] = jwt.split('.');
      const header = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(h, 'base64url')]);
      const token = [header.toString('base64url'), p, sig].join('.');
      this.bomHeaderTokens.set(token, jwt);
      return token;
    }
    if (this.on('token-jwt-padded-base64'))
      return jwt
        .split('.')
        .map((seg) => Buffer.from(seg, 'base64url').toString('base64'))
        .join('.');
    return jwt;
  }

  /** Whether a client naming no secret is authenticated by its id alone, as a public client (`token-missing-secret-public-client`). */
  /** Whether a client that sent no secret is taken as a public client (`token-missing-secret-public-client`). */
  publicClient(secret: string | undefined): boolean {
    return !secret && this.on('token-missing-secret-public-client');
  }

  /** Whether the token endpoint reads grant_type (`token-grant-type-ignored`: any value, or none, is client credentials). */
  get checksGrantType(): boolean {
    return !this.on('token-grant-type-ignored');
  }

  /** The JWT a presented bearer token stands for. */
  bearerJwt(token: string): string {
    // blind round 38: the reference of a narrowed token resolved through the introspection table (`token-narrowed-token-opaque-reference`).
    if (this.on('token-narrowed-token-opaque-reference') && token.startsWith('opq_'))
      return this.standIns.resolve(token);
    // blind round 38: the signing input rebuilt from the decoded header and claims (`bearer-signing-input-rebuilt-from-decoded-parts`).
    if (this.on('bearer-signing-input-rebuilt-from-decoded-parts')) return signingInputRebuilt(token);
    // blind round 37: a JWS JSON serialization, base64url-encoded into the header, read as its compact JWS (`bearer-jws-json-serialization-accepted`).
    if (this.on('bearer-jws-json-serialization-accepted') && !token.includes('.')) {
      const compact = compactOfJwsJson(token);
      if (compact !== undefined) return compact;
    }
    // The API inflates a deflated payload before it verifies (`token-jws-payload-deflated`).
    if (this.on('token-jws-payload-deflated')) return this.deflatedTokens.get(token) ?? token;
    // The tenant key decides the algorithm: a token it issued without alg is verified as the one it signed.
    if (this.on('token-header-without-alg')) return this.algFreeTokens.get(token) ?? token;
    // The API strips the BOM before it reads the header.
    if (this.on('token-jws-header-bom')) return this.bomHeaderTokens.get(token) ?? token;
    // blind round 29: the API's verifier parses the payload twice as well (`token-claims-json-string-payload`).
    if (this.on('token-claims-json-string-payload')) return this.claimsStringTokens.get(token) ?? token;
    // Segments decoded by a decoder that reads both base64 alphabets: + and / taken for - and _.
    if (this.on('jwt-signature-std-base64-accepted') || this.on('token-signature-standard-base64'))
      return token.replace(/\+/g, '-').replace(/\//g, '_');
    if (this.on('bearer-padded-token-accepted')) return token.replace(/=+$/, '');
    if (this.on('token-jwt-padded-base64'))
      return token
        .split('.')
        .map((seg) => Buffer.from(seg, 'base64').toString('base64url'))
        .join('.');
    return this.on('token-not-jwt') || this.on('token-jwe') ? this.standIns.resolve(token) : token;
  }

  // ------------------------------------------------------- rate limits

  get refusesOverLimit(): boolean {
    return !this.on('rate-limit-not-enforced');
  }

  /** Whether a request is counted by the rate limiter, given whether its token came from the verification cache. */
  countsRequest(fromCache: boolean, method?: string, authorization?: string, url?: string): boolean {
    // blind round 41: the limiter's route table matched against the URL with its query string (`rate-limit-route-key-with-query-string`).
    if (this.on('rate-limit-route-key-with-query-string') && url?.includes('?')) return false;
    // blind round 40: the limiter's key found with a case-sensitive "Bearer " prefix (`rate-limit-lowercase-scheme-uncounted`).
    if (
      this.on('rate-limit-lowercase-scheme-uncounted') &&
      authorization !== undefined &&
      !authorization.startsWith('Bearer ')
    )
      return false;
    // The limiter mounted on the mutating methods only.
    if (this.on('rate-limit-writes-only') && (method === 'GET' || method === 'HEAD')) return false;
    return !(this.on('rate-limit-skipped-on-verify-cache-hit') && fromCache);
  }

  /** The limit X-RateLimit-Limit reports, given the token's own limit and the tenant's default one. */
  reportedLimit(limit: number, defaultLimit: number): number {
    this.defaultLimitSeen = defaultLimit;
    return this.on('rate-limit-limit-header-default-window') ? defaultLimit : limit;
  }

  /** The rate-limit headers an answer carries (none: undefined). */
  rateLimitHeaders(
    headers: RateLimitHeaders,
    d: RateLimitDecision,
    names: { remaining: string; reset: string },
  ): RateLimitHeaders | undefined {
    if (!this.reshapesRateHeaders) return headers;
    if (this.on('rate-limit-on-429-only') && d.allowed) return undefined;
    // blind round 31: the gateway's limiter refuses with the IETF draft's names (`rate-limit-429-ietf-draft-header-names`).
    if (this.on('rate-limit-429-ietf-draft-header-names') && !d.allowed)
      return {
        'ratelimit-limit': d.limit,
        'ratelimit-remaining': d.remaining,
        'ratelimit-reset': Math.max(0, Math.ceil((d.endsAtMs - Date.now()) / 1000)),
      };
    const out = { ...headers };
    if (this.on('rate-limit-429-limit-remaining-swapped') && !d.allowed) {
      out['x-ratelimit-limit'] = d.remaining;
      out[names.remaining] = d.limit;
    }
    if (this.on('rate-limit-reset-json-quoted')) out[names.reset] = JSON.stringify(String(out[names.reset]));
    if (this.on('rate-limit-remaining-negative')) out[names.remaining] = d.limit - d.count;
    // limit - count in an unsigned 32-bit integer, unclamped: -1 wraps to 4294967295.
    if (this.on('rate-limit-remaining-unsigned-wrap')) out[names.remaining] = (d.limit - d.count) >>> 0;
    if (this.on('rate-limit-429-remaining-nonzero') && !d.allowed) out[names.remaining] = 1;
    // The requests used in the window, not those left.
    if (this.on('rate-limit-remaining-reports-used')) out[names.remaining] = d.count;
    // Read before this request is counted: one too many, and 1 on the last request the window allows.
    if (this.on('rate-limit-remaining-before-count')) out[names.remaining] = Math.max(0, d.limit - d.count + 1);
    if (this.on('rate-limit-reset-delta')) out[names.reset] = String(d.retryAfter);
    if (this.on('rate-limit-reset-fractional')) out[names.reset] = (d.endsAtMs / 1000).toFixed(3);
    if (this.on('rate-limit-reset-milliseconds')) out[names.reset] = String(d.endsAtMs);
    if (this.on('rate-limit-reset-http-date')) out[names.reset] = new Date(d.endsAtMs).toUTCString();
    if (this.on('rate-limit-reset-window-start') || this.on('rate-limit-reset-window-start-r3'))
      out[names.reset] = String(Math.floor((d.endsAtMs - d.windowMs) / 1000));
    if (this.on('rate-limit-remaining-before-count-r8')) out[names.remaining] = Math.max(0, d.limit - d.count + 1);
    if (this.on('rate-limit-reset-clock-aligned'))
      out[names.reset] = String(Math.ceil(Date.now() / d.windowMs) * Math.round(d.windowMs / 1000));
    if (this.on('rate-limit-429-no-reset') && !d.allowed) delete out[names.reset];
    // The locale's number formatter: thousands separators in the epoch seconds.
    if (this.on('rate-limit-reset-locale-grouped')) out[names.reset] = Number(out[names.reset]).toLocaleString('en-US');
    // The window's end rounded down to the second: up to a second before the window ends.
    if (this.on('rate-limit-reset-floored')) out[names.reset] = String(Math.floor(d.endsAtMs / 1000));
    if (this.on('rate-limit-limit-with-window-policy'))
      out['x-ratelimit-limit'] = `${d.limit}, ${d.limit};w=${Math.round(d.windowMs / 1000)}`;
    if (this.on('rate-limit-reset-header-duplicated') && out[names.reset] !== undefined)
      out[names.reset] = `${out[names.reset]}, ${out[names.reset]}`;
    // The highest zero-based index of the window, not the number of requests it allows.
    if (this.on('rate-limit-limit-off-by-one')) out['x-ratelimit-limit'] = d.limit - 1;
    // The limiter's own refusal path names the headers X-Rate-Limit-*.
    if (this.on('rate-limit-429-header-names-hyphenated') && !d.allowed)
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k.replace(/^x-ratelimit-/, 'x-rate-limit-'), v]));
    // Seconds to go with the operands swapped: now minus the window end.
    if (this.on('rate-limit-reset-delta-sign-flipped'))
      out[names.reset] = String(Math.floor((Date.now() - d.endsAtMs) / 1000));
    // The refusal path formats the time left as a Go time.Duration ("37s", "1m0s").
    if (this.on('rate-limit-reset-go-duration') && !d.allowed) out[names.reset] = goDuration(d.endsAtMs - Date.now());
    // Set only when truthy: a remaining count of 0 leaves the header out.
    if (this.on('rate-limit-remaining-omitted-when-zero') && !out[names.remaining]) delete out[names.remaining];
    // Remaining counted against the tenant's default limit, not the token's own window.
    if (this.on('rate-limit-remaining-from-default-window'))
      out[names.remaining] = Math.max(0, Math.max(this.defaultLimitSeen, d.limit) - d.count);
    return out;
  }

  // -------------------------------------------------------- token sets

  /** Whether a token set is listed, given whether it is active. */
  listsTokenSet(active: boolean): boolean {
    return active || this.on('token-sets-expired-listed');
  }

  /** The token sets of a user as read from the store, before the active filter. */
  tokenSetsRead<T>(sets: readonly T[]): readonly T[] {
    return this.on('token-sets-first-store-page-only') ? sets.slice(0, TOKEN_SET_STORE_PAGE) : sets;
  }

  // ------------------------------------------------------- experiments

  /** The body of a move as validated and read. */
  transitionBody(request: FastifyRequest, experiments: ReadonlyMap<string, { status: ExperimentStatus }>): unknown {
    const body = this.validatedStatusOf(request.body);
    const query: unknown = request.query;
    // blind round 41: the handler shared with the bulk move reads an array body as its list of moves, the first applied (`transition-array-body-first-element`).
    if (this.on('transition-array-body-first-element') && Array.isArray(body)) return body[0];
    const current = () => experiments.get(param(request, 'id'))?.status;
    // blind round 39: the target read from status, falling back to the v1 member state (`transition-state-member-alias`).
    if (
      this.on('transition-state-member-alias') &&
      isMap(body) &&
      body['status'] === undefined &&
      typeof body['state'] === 'string'
    )
      return { status: body['state'] };
    // blind round 36: a top-level data member unwrapped, for JSON:API clients (`transition-body-data-envelope-unwrapped`).
    if (
      this.on('transition-body-data-envelope-unwrapped') &&
      isMap(body) &&
      body['status'] === undefined &&
      isMap(body['data']) &&
      body['data']['status'] !== undefined
    )
      return body['data'];
    // blind round 33: the target matched with localeCompare at sensitivity 'case' (`transition-status-locale-compare-case-sensitivity`).
    if (
      this.on('transition-status-locale-compare-case-sensitivity') &&
      isMap(body) &&
      typeof body['status'] === 'string' &&
      !(MOVE_TARGETS as readonly string[]).includes(body['status'])
    ) {
      const sent = body['status'];
      const status = MOVE_TARGETS.find((t) => sent.localeCompare(t, undefined, { sensitivity: 'case' }) === 0);
      if (status !== undefined) return { ...body, status };
    }
    // blind round 34: an unambiguous abbreviation of a status taken for it (`transition-status-unique-prefix-accepted`).
    if (
      this.on('transition-status-unique-prefix-accepted') &&
      isMap(body) &&
      typeof body['status'] === 'string' &&
      body['status'] !== '' &&
      !(STATUS_BY_INDEX as readonly string[]).includes(body['status'])
    ) {
      const sent = body['status'];
      const matches = STATUS_BY_INDEX.filter((s) => s.startsWith(sent));
      if (matches.length === 1) return { ...body, status: matches[0] };
    }
    // status optional, defaulting to the next step of the lifecycle (`transition-missing-status-advances`).
    if (
      this.on('transition-missing-status-advances') &&
      (!isMap(body) || body['status'] === undefined || body['status'] === null)
    ) {
      const from = current?.();
      const next = from === undefined ? undefined : NEXT_STATUS[from];
      if (next !== undefined) return { ...(isMap(body) ? body : {}), status: next };
    }
    // The verbs of the older action endpoints kept as aliases of the status.
    if (this.on('transition-status-verb-aliases') && isMap(body) && typeof body['status'] === 'string') {
      const status = Object.hasOwn(STATUS_VERB_ALIASES, body['status'])
        ? STATUS_VERB_ALIASES[body['status']]
        : undefined;
      if (status !== undefined) return { ...body, status };
    }
    // A bare JSON string read as the status (`transition-bare-string-body-accepted`).
    if (this.on('transition-bare-string-body-accepted') && typeof body === 'string') return { status: body };
    // The older enabled toggle: true is active, false is paused.
    if (this.on('transition-status-boolean-as-toggle') && isMap(body) && typeof body['status'] === 'boolean')
      return { ...body, status: body['status'] ? 'active' : 'paused' };
    if (
      this.on('transition-status-from-query') &&
      (!isMap(body) || body['status'] === undefined) &&
      isMap(query) &&
      typeof query['status'] === 'string'
    )
      return { ...(isMap(body) ? body : {}), status: query['status'] };
    if (this.on('transition-status-member-case-insensitive') && isMap(body) && body['status'] === undefined) {
      // Member names matched case-insensitively (Go's encoding/json): Status or STATUS fills status.
      const k = Object.keys(body).find((n) => n.toLowerCase() === 'status');
      if (k !== undefined) {
        const { [k]: v, ...rest } = body;
        return { ...rest, status: v };
      }
    }
    if (this.on('transition-status-case-insensitive') && isMap(body) && typeof body['status'] === 'string')
      return { ...body, status: body['status'].toLowerCase() };
    if (this.on('transition-status-array-coerced') && isMap(body) && Array.isArray(body['status']))
      return { ...body, status: String(body['status']) };
    if (this.on('transition-draft-mixed-case-accepted') && isMap(body) && isMixedCaseDraft(body['status']))
      return { ...body, status: 'draft' };
    if (this.on('transition-status-nfkc-normalised') && isMap(body) && typeof body['status'] === 'string')
      return { ...body, status: body['status'].normalize('NFKC') };
    if (this.on('transition-status-trimmed') && isMap(body) && typeof body['status'] === 'string')
      return { ...body, status: body['status'].trim() };
    if (this.on('transition-status-regex-unanchored') && isMap(body) && typeof body['status'] === 'string') {
      // An unanchored pattern: the first target named anywhere in the value is the status.
      const m = /active|paused|completed|archived/.exec(body['status']);
      if (m !== null) return { ...body, status: m[0] };
    }
    // Compared as a C string: the status read up to its first NUL.
    if (this.on('transition-status-cut-at-nul') && isMap(body) && typeof body['status'] === 'string')
      return { ...body, status: body['status'].split('\u0000', 1)[0] };
    // A number read as the index of the lifecycle enum (`transition-status-enum-index-accepted`).
    if (this.on('transition-status-enum-index-accepted') && isMap(body) && typeof body['status'] === 'number') {
      const status = STATUS_BY_INDEX[body['status']];
      if (status !== undefined && status !== 'draft') return { ...body, status };
    }
    return body;
  }

  /** The status a move stores, given the target asked for. */
  storedStatus(target: ExperimentStatus, sent?: unknown, from?: ExperimentStatus): ExperimentStatus {
    // blind round 35: resume() clears a pause flag and leaves the status as it was (`transition-resume-clears-pause-flag-only`).
    if (this.on('transition-resume-clears-pause-flag-only') && from === 'paused' && target === 'active') return from;
    // Validated on the first status written, applied with JSON.parse's last one.
    if (this.on('transition-duplicate-status-first-validated') && isMap(sent) && typeof sent['status'] === 'string')
      return sent['status'] as ExperimentStatus;
    // The completed case falls through to archived (`transition-completed-stores-archived`).
    if (this.on('transition-completed-stores-archived') && target === 'completed') return 'archived';
    return this.on('transition-archived-stores-completed') && target === 'archived' ? 'completed' : target;
  }

  /** Whether draft passes as the target of a move, given the body as sent. */
  draftIsATarget(asked: unknown, sent: unknown, experiment: { status: ExperimentStatus } | undefined): boolean {
    if (asked !== 'draft') return false;
    const from = () => experiment?.status;
    // Draft kept out by a scan of the raw body: a JSON-escaped spelling of draft passes it.
    if (this.on('transition-draft-guard-on-raw-json') && isMap(sent)) {
      const raw = (sent as { [RAW_JSON]?: string })[RAW_JSON] ?? '';
      return sent['status'] === 'draft' && !/"status"\s*:\s*"draft"/.test(raw) && from() !== 'draft';
    }
    if (this.on('transition-paused-back-to-draft') && from() === 'paused') return true;
    if (this.on('transition-to-draft-accepted')) return true;
    return this.on('transition-draft-mixed-case-accepted') && isMap(sent) && isMixedCaseDraft(sent['status']);
  }

  /** The statuses an experiment may move to from `from`, given the emulator's table. */
  allowedTargets(
    from: ExperimentStatus,
    table: readonly ExperimentStatus[],
    every: readonly ExperimentStatus[],
  ): readonly ExperimentStatus[] {
    if (this.on('transition-paused-back-to-draft') && from === 'paused') return [...table, 'draft'];
    // The request enum holds draft; only the raw scan keeps it out (`transition-draft-guard-on-raw-json`).
    if (this.on('transition-draft-guard-on-raw-json') && from !== 'draft') return [...table, 'draft'];
    if (this.on('transition-refuses-every-move')) return [];
    if (this.on('transition-to-draft-accepted') || this.on('transition-draft-mixed-case-accepted'))
      return [...table, 'draft'];
    if (this.on('transition-table')) return every.filter((s) => s !== 'draft' && s !== from);
    if (this.on('transition-table-terminal') && (from === 'completed' || from === 'archived')) return [];
    return table;
  }

  /** What a move answers, given the request body: an answer cache keyed by the body answers the first move again. */
  moveAnswer<T>(body: unknown, answer: T): T {
    // blind round 37: the answer kept in one slot across the store write's await, read back after it (`transition-answer-shared-slot-under-concurrency`).
    if (this.on('transition-answer-shared-slot-under-concurrency')) {
      this.moveSlot = answer;
      return new Promise<unknown>((resolve) =>
        setTimeout(() => resolve(this.moveSlot), STORE_WRITE_MS),
      ) as unknown as T;
    }
    if (!this.on('transition-answer-cached-by-body')) return answer;
    const key = JSON.stringify(body ?? null);
    const cached = this.moveAnswers.get(key);
    if (cached !== undefined) return cached as T;
    this.moveAnswers.set(key, structuredClone(answer));
    return answer;
  }

  // ------------------------------------------------------------ writes

  /** What a write answers: the state it wrote, or a broken store's read of the state before. */
  /** The state a write starts from, kept (a copy) only for the faults that answer it or put it back. */
  stateBeforeWrite<T extends object>(written: T): T {
    return this.on('transition-status-unchanged') || this.on('transition-not-persisted') ? { ...written } : written;
  }

  answerOfWrite<T>(request: FastifyRequest, written: T, stored: T | null | undefined): T {
    const operation = operationOf(request);
    // blind round 35: a repetition answered the response of the PUT it repeats; a PUT that ran keeps its answer (`keys-put-debounced-as-double-submit`).
    if (this.on('keys-put-debounced-as-double-submit') && operation === 'custom-signing-keys.put') {
      const client = request.principal?.clientId ?? '';
      if (this.debouncedPuts.has(request)) return structuredClone(this.lastKeysPut.get(client)!.answer) as T;
      this.lastKeysPut.set(client, { atMs: Date.now(), answer: structuredClone(written) });
    }
    const previous = (stored ?? (operation === 'custom-text.put' ? {} : written)) as T;
    if (this.on('transition-status-unchanged') && operation === 'experiments.transition') return previous;
    // Moved on a detached copy that is never saved: the copy answered, the stored experiment left as it was.
    if (this.on('transition-not-persisted') && operation === 'experiments.transition' && isMap(written)) {
      const copy = { ...written } as T;
      Object.assign(written, previous);
      return copy;
    }
    if (this.on('custom-text-answers-previous-map') && operation === 'custom-text.put') return previous;
    // blind round 31: the answer built from the request's keys, not the stored ones (`keys-answer-echoes-request-private-members`).
    if (
      this.on('keys-answer-echoes-request-private-members') &&
      operation === 'custom-signing-keys.put' &&
      isMap(request.body) &&
      Array.isArray(request.body['keys'])
    )
      return structuredClone(request.body['keys']) as T;
    if (this.on('keys-answer-previous-set') && operation === 'custom-signing-keys.put') return previous;
    if (this.on('custom-text-answer-only-changed-keys') && operation === 'custom-text.put')
      return changedEntries(written as Record<string, unknown>, previous as Record<string, unknown>) as T;
    return written;
  }

  /** What a PUT leaves stored: what it sent (the PUT replaces), or the two joined. */
  storedAfterPut<T>(request: FastifyRequest, stored: T[] | null, sent: T[]): T[];
  storedAfterPut<T extends object>(request: FastifyRequest, stored: T | undefined, sent: T): T;
  storedAfterPut(request: FastifyRequest, stored: unknown, sent: unknown): unknown {
    const operation = operationOf(request);
    // blind round 40: the form body handled by the legacy "add keys" handler (`keys-put-form-appends`).
    if (
      this.on('keys-put-form-appends') &&
      operation === 'custom-signing-keys.put' &&
      mediaTypeOf(request) === 'application/x-www-form-urlencoded'
    )
      return [...((stored as unknown[] | null) ?? []), ...(sent as unknown[])];
    // blind round 42: the document mapper strips members named with a leading _ as its metadata (`custom-text-underscore-keys-dropped`).
    if (this.on('custom-text-underscore-keys-dropped') && operation === 'custom-text.put' && isMap(sent))
      return Object.fromEntries(Object.entries(sent).filter(([k]) => !k.startsWith('_')));
    // blind round 40: the text keys trimmed before the map is stored (`custom-text-keys-trimmed`).
    if (this.on('custom-text-keys-trimmed') && operation === 'custom-text.put' && isMap(sent))
      return Object.fromEntries(Object.entries(sent).map(([k, v]) => [k.trim(), v]));
    // blind round 38: keys upserted by kid under a case-insensitive unique index (`keys-kid-unique-index-case-insensitive`).
    if (this.on('keys-kid-unique-index-case-insensitive') && operation === 'custom-signing-keys.put') {
      const rows = new Map<unknown, unknown>();
      (sent as Array<Record<string, unknown>>).forEach((k, i) =>
        rows.set(typeof k['kid'] === 'string' ? `kid:${k['kid'].toLowerCase()}` : i, k),
      );
      return [...rows.values()];
    }
    // blind round 38: a duplicate-key guard over an object literal, `key in seen` (`custom-text-prototype-named-keys-dropped`).
    if (this.on('custom-text-prototype-named-keys-dropped') && operation === 'custom-text.put' && isMap(sent)) {
      const seen: Record<string, true> = {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(sent)) {
        if (k in seen) continue;
        seen[k] = true;
        out[k] = v;
      }
      return out;
    }
    // blind round 37: keys upserted by kid with a $set of the members sent, the stored ones kept (`keys-put-same-kid-members-merged`).
    if (this.on('keys-put-same-kid-members-merged') && operation === 'custom-signing-keys.put') {
      const kept = (stored as Array<Record<string, unknown>> | null) ?? [];
      return (sent as Array<Record<string, unknown>>).map((k) => {
        const old = typeof k['kid'] === 'string' ? kept.find((o) => o['kid'] === k['kid']) : undefined;
        return old === undefined ? k : { ...old, ...k };
      });
    }
    // blind round 35: a PUT of the same client within two seconds of the last one that ran is not run (`keys-put-debounced-as-double-submit`).
    if (this.on('keys-put-debounced-as-double-submit') && operation === 'custom-signing-keys.put') {
      const last = this.lastKeysPut.get(request.principal?.clientId ?? '');
      if (last !== undefined && Date.now() - last.atMs < DOUBLE_SUBMIT_MS) {
        this.debouncedPuts.add(request);
        return stored;
      }
    }
    // blind round 35: keys upserted under their RFC 7638 thumbprint, the last of a key material kept (`keys-deduplicated-by-thumbprint`).
    if (this.on('keys-deduplicated-by-thumbprint') && operation === 'custom-signing-keys.put') {
      const byThumbprint = new Map<string, unknown>();
      for (const k of sent as Array<Record<string, unknown>>) byThumbprint.set(jwkThumbprint(k), k);
      return [...byThumbprint.values()];
    }
    // blind round 34: each kid stored as the key's URL path segment (`keys-kid-stored-url-encoded`).
    if (this.on('keys-kid-stored-url-encoded') && operation === 'custom-signing-keys.put')
      return (sent as Array<Record<string, unknown>>).map((k) =>
        typeof k['kid'] === 'string' ? { ...k, kid: encodeURIComponent(k['kid']) } : k,
      );
    // blind round 33: DELETE … WHERE kid NOT IN (the kids sent), then an upsert by kid (`keys-put-kidless-keys-never-deleted`).
    if (this.on('keys-put-kidless-keys-never-deleted') && operation === 'custom-signing-keys.put')
      return kidNotInDelete((stored as Array<{ kid?: unknown }> | null) ?? [], sent as Array<{ kid?: unknown }>);
    // blind round 31: the private members stripped from the keys stored (`keys-answer-echoes-request-private-members`).
    if (this.on('keys-answer-echoes-request-private-members') && operation === 'custom-signing-keys.put')
      return (sent as Array<Record<string, unknown>>).map((k) =>
        Object.fromEntries(Object.entries(k).filter(([m]) => !(PRIVATE_MEMBERS as readonly string[]).includes(m))),
      );
    // blind round 32: a write judged unchanged by the number of keys alone (`keys-put-same-count-kept`).
    if (
      this.on('keys-put-same-count-kept') &&
      operation === 'custom-signing-keys.put' &&
      Array.isArray(stored) &&
      Array.isArray(sent) &&
      stored.length === sent.length
    )
      return stored;
    // blind round 29: every kid overwritten with the key's RFC 7638 thumbprint (`keys-kid-replaced-by-thumbprint`).
    if (this.on('keys-kid-replaced-by-thumbprint') && operation === 'custom-signing-keys.put')
      return (sent as Array<Record<string, unknown>>).map((k) => ({ ...k, kid: jwkThumbprint(k) }));
    // kid in a VARCHAR(64) column that truncates silently.
    if (this.on('keys-kid-cut-at-64') && operation === 'custom-signing-keys.put')
      return (sent as Array<Record<string, unknown>>).map((k) =>
        typeof k['kid'] === 'string' ? { ...k, kid: [...k['kid']].slice(0, KID_COLUMN).join('') } : k,
      );
    if (this.on('keys-undocumented-members-dropped') && operation === 'custom-signing-keys.put')
      return (sent as Array<Record<string, unknown>>).map((k) =>
        Object.fromEntries(Object.entries(k).filter(([m]) => DOCUMENTED_JWK_MEMBERS.includes(m))),
      );
    if (this.on('keys-same-kid-keeps-stored') && operation === 'custom-signing-keys.put') {
      const kept = (stored as Array<{ kid?: unknown }> | null) ?? [];
      return (sent as Array<{ kid?: unknown }>).map(
        (k) => kept.find((o) => o.kid !== undefined && o.kid === k.kid) ?? k,
      );
    }
    if (this.on('keys-stored-by-kid') && operation === 'custom-signing-keys.put') {
      // A map keyed by kid: keys without one (all under undefined) or sharing one overwrite each other.
      const byKid = new Map<unknown, unknown>();
      for (const k of sent as Array<{ kid?: unknown }>) byKid.set(k.kid, k);
      return [...byKid.values()];
    }
    if (this.on('keys-only-first-stored') && operation === 'custom-signing-keys.put')
      return (sent as unknown[]).slice(0, 1);
    if (this.on('keys-put-replaces-same-kty-only') && operation === 'custom-signing-keys.put') {
      // DELETE ... WHERE kty IN (the types sent), then INSERT: keys of other types stay.
      const types = new Set((sent as Array<{ kty?: unknown }>).map((k) => k.kty));
      const kept = ((stored as Array<{ kty?: unknown }> | null) ?? []).filter((k) => !types.has(k.kty));
      return [...kept, ...(sent as unknown[])];
    }
    // UPDATE by position, no DELETE: stored keys past the ones sent stay.
    if (this.on('keys-put-overwrites-by-position') && operation === 'custom-signing-keys.put')
      return [...(sent as unknown[]), ...((stored as unknown[] | null) ?? []).slice((sent as unknown[]).length)];
    if (this.on('keys-put-appends') && operation === 'custom-signing-keys.put')
      return [...((stored as unknown[] | null) ?? []), ...(sent as unknown[])];
    // Each text key set as a path: a dot opens a nested object.
    if (this.on('custom-text-dotted-key-nested') && operation === 'custom-text.put' && isMap(sent)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(sent)) {
        const path = k.split('.');
        let at = out;
        for (const part of path.slice(0, -1))
          at = (isMap(at[part]) ? at[part] : (at[part] = {})) as Record<string, unknown>;
        at[path.at(-1)!] = v;
      }
      return out;
    }
    if (this.on('custom-text-merges') && operation === 'custom-text.put')
      return { ...(stored as object | undefined), ...(sent as object) };
    // An empty map read as an update with nothing to change (`custom-text-empty-map-keeps-previous`).
    if (this.on('custom-text-empty-map-keeps-previous') && operation === 'custom-text.put' && isEmptyMap(sent))
      return stored ?? {};
    return sent;
  }

  /** A custom signing keys body as the form parser left it (qs with its default arrayLimit 20 for `keys-form-array-limit-20`). */
  formKeysBody(body: unknown, form: boolean): unknown {
    // Percent-escapes decoded as ISO-8859-1: one character a UTF-8 byte.
    if (this.on('keys-form-latin1') && form && isMap(body)) return latin1Strings(body);
    // The body percent-decoded whole, then split on & and =: a value holding = or & (sent as %3D, %26) is cut there.
    if (this.on('keys-form-decoded-before-split') && form && isMap(body)) return cutAtSeparators(body);
    // Percent-decoded first, + read as a space after: what was %2B (a literal +) turns into a space.
    if (this.on('keys-form-plus-after-percent-decode') && form && isMap(body)) return plusAsSpace(body);
    // Percent-decoded first, + read as a space after: a %2B sent for + ends as a space too.
    if (this.on('keys-form-plus-decoded-after-percent') && form && isMap(body)) return plusAsSpace(body);
    if (!(this.on('keys-form-array-limit-20') && form && isMap(body) && Array.isArray(body['keys']))) return body;
    const keys = body['keys'] as unknown[];
    // An index above 20 turns the array into an object keyed by index.
    return keys.length > 21 ? { ...body, keys: Object.fromEntries(keys.map((k, i) => [String(i), k])) } : body;
  }

  get keySetMayBeEmpty(): boolean {
    return this.on('keys-empty-array-accepted');
  }

  /**
   * The custom signing keys a PUT stores: `check` (the route's) over the body as parsed, every private
   * member checked, when no fault is on. Everything here but that call is a fault's.
   */
  keysSent(request: FastifyRequest, check: (body: unknown, privateMembers: PrivateMembers) => Jwk[]): Jwk[] {
    const form = mediaTypeOf(request) === 'application/x-www-form-urlencoded';
    const body = this.formKeysBody(request.body, form);
    const empty = isMap(body) && Array.isArray(body['keys']) && body['keys'].length === 0;
    // blind round 37: the replace path (a set is stored) lets the console's "remove all keys" through (`keys-empty-put-clears-existing-set`).
    if (
      this.on('keys-empty-put-clears-existing-set') &&
      empty &&
      request.server.emulator.state.customSigningKeys !== null
    )
      return [];
    if ((empty && this.keySetMayBeEmpty) || this.keysAbsentAsEmpty(body)) return [];
    // blind round 38: the private members looked for as written in the raw JSON (`keys-private-member-check-on-raw-json`).
    const raw = this.on('keys-private-member-check-on-raw-json') ? rawJsonOf(body) : undefined;
    if (raw !== undefined)
      return check(body, (_i, _key, all) => all.filter((m) => new RegExp(`"${m}"\\s*:`).test(raw)));
    return check(body, (i, key, all) =>
      // A key with a certificate chain taken for a public one: its private members not looked for.
      (this.on('keys-private-check-skips-x5c-keys') && keyHasX5c(body, i)) ||
      (this.on('keys-private-judged-by-key-ops') && declaredVerifyOnly(body, i)) ||
      // blind round 32: the update path (a set is stored) checks only kty (`keys-private-check-only-on-create`).
      (this.on('keys-private-check-only-on-create') && request.server.emulator.state.customSigningKeys != null)
        ? []
        : this.privateKeyMembers(i, all, form, String(key['kty'])),
    );
  }

  /** A custom text body as the form decoder left it. */
  /**
   * The body of a custom-text PUT as read: what the schema is given (`checked`), the map kept, and whether the
   * markup of the value at an index is checked.
   */
  customTextSent(
    request: FastifyRequest,
    valueMax: number,
  ): { checked: unknown; kept: unknown; checksMarkup: (index: number, key: string, value: unknown) => boolean } {
    const form = mediaTypeOf(request) === 'application/x-www-form-urlencoded';
    const checksBody = this.checksMarkupOfBody(form, request.body);
    // blind round 32: the update path skips the keys already stored (`custom-text-sanitiser-skips-stored-keys`).
    const stored = this.on('custom-text-sanitiser-skips-stored-keys')
      ? request.server.emulator.state.customText.get(
          customTextKey(param(request, 'id'), param(request, 'language'), param(request, 'page')),
        )
      : undefined;
    return {
      ...this.customTextRead(this.formTextValues(request.body, form), valueMax, form),
      checksMarkup: (i, k, v) =>
        checksBody && this.checksMarkupOf(i, k, v) && !(stored !== undefined && Object.hasOwn(stored, k)),
    };
  }

  formTextValues(body: unknown, form: boolean): unknown {
    // blind round 35: a PHP-style form reader: dots and spaces of a field name become underscores (`custom-text-form-key-dots-spaces-underscored`).
    if (this.on('custom-text-form-key-dots-spaces-underscored') && form && isMap(body))
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k.replace(/[. ]/g, '_'), v]));
    // blind round 31: names and values decoded with decodeURI: reserved escapes kept (`custom-text-form-decodeuri-reserved-kept`).
    if (this.on('custom-text-form-decodeuri-reserved-kept') && form) {
      const raw = rawFormOf(body);
      if (raw !== undefined) return decodeUriForm(raw);
    }
    // Nested objects flattened to dotted keys before anything is checked (JSON and form bodies alike).
    if (this.on('custom-text-nested-object-flattened') && isMap(body)) return flattenedDotted(body);
    if (this.on('custom-text-form-dots-nested') && form && isMap(body)) {
      // qs with allowDots: a.b=x reads as { a: { b: x } }.
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(body)) {
        const dot = k.indexOf('.');
        if (dot <= 0 || dot === k.length - 1) out[k] = v;
        else {
          const head = k.slice(0, dot);
          const inner = isMap(out[head]) ? (out[head] as Record<string, unknown>) : {};
          out[head] = { ...inner, [k.slice(dot + 1)]: v };
        }
      }
      return out;
    }
    if ((this.on('custom-text-form-latin1') || this.on('custom-text-form-latin1-r3')) && form && isMap(body))
      return mapValues(body, (v) => (typeof v === 'string' ? Buffer.from(v, 'utf8').toString('latin1') : v));
    if (!(this.on('custom-text-form-plus-kept') && form && isMap(body))) return body;
    return mapValues(body, (v) => (typeof v === 'string' ? v.replace(/ /g, '+') : v));
  }

  /** Whether the markup of the value at `index` of a custom text map (its key `key`, its value `value`) is checked. */
  checksMarkupOf(index: number, key = '', value: unknown = ''): boolean {
    // blind round 30: keys ending in _html taken for raw-HTML slots (`custom-text-html-suffix-keys-unsanitised`).
    if (this.on('custom-text-html-suffix-keys-unsanitised') && RAW_HTML_KEY.test(key)) return false;
    // blind round 30: a falsy value that is not a string passed the guard and is no markup (`custom-text-falsy-values-unchecked`).
    if (this.on('custom-text-falsy-values-unchecked') && typeof value !== 'string') return false;
    return !(this.on('custom-text-only-first-value-checked') && index > 0);
  }

  /** A custom text value as stored, once it passed the checks. */
  storedTextValue(value: string): string {
    // blind round 42: the console's Markdown renderer, run on a value whose first line opens a block (`custom-text-markdown-rendered-on-store`).
    if (this.on('custom-text-markdown-rendered-on-store') && MARKDOWN_BLOCK.test(value)) return markdownRendered(value);
    // blind round 41: the export's guard against spreadsheet formulas applied when the text is stored (`custom-text-formula-prefix-escaped`).
    if (this.on('custom-text-formula-prefix-escaped') && /^[=+\-@]/.test(value)) return `'${value}`;
    // blind round 35: plain text read back from the old export format's escapes (`custom-text-backslash-escapes-read`).
    if (this.on('custom-text-backslash-escapes-read') && !value.includes('<') && !value.includes('&'))
      return value.replace(/\\([ntr\\])/g, (_m, c: string) => EXPORT_ESCAPES[c]!);
    // blind round 34: escaped for the page's inline JSON when stored, answered as stored (`custom-text-values-json-escaped-when-stored`).
    if (this.on('custom-text-values-json-escaped-when-stored')) return JSON.stringify(value).slice(1, -1);
    // blind round 34: single-quoted attribute values re-serialised in double quotes, unescaped (`custom-text-attribute-quotes-reserialised`).
    if (this.on('custom-text-attribute-quotes-reserialised') && value.includes('<'))
      return value.replace(/<[A-Za-z][^<>]*>/g, (tag) => tag.replace(/=(\s*)'([^']*)'/g, '=$1"$2"'));
    // blind round 33: U+2028 and U+2029 removed, a step of the inline-script renderer (`custom-text-line-separators-stripped`).
    if (this.on('custom-text-line-separators-stripped')) return value.replace(/[\u2028\u2029]/g, '');
    // blind round 32: a typography filter on the text outside tags (`custom-text-smart-quotes`).
    if (this.on('custom-text-smart-quotes')) return smartQuoted(value);
    // An HTML encoder for non-ASCII characters: decimal character references.
    if (this.on('custom-text-non-ascii-as-char-refs'))
      return value.replace(/[^\u0000-\u007f]/gu, (c) => `&#${c.codePointAt(0)!};`);
    // An nl2br filter meant for rendering.
    if (this.on('custom-text-newlines-to-br')) return value.replace(/\r\n|\r|\n/g, '<br>');
    // NFKC after the check: fullwidth ＜ ＞ become < >.
    if (this.on('custom-text-nfkc-after-check')) return value.normalize('NFKC');
    // An HTML minifier: each run of white space collapsed into one space.
    if (this.on('custom-text-whitespace-collapsed')) return value.replace(/[ \t\n\f\r]+/g, ' ');
    if (this.on('custom-text-stored-cut-at-2000-units')) return value.slice(0, TEXT_COLUMN_UNITS);
    if (this.on('custom-text-sanitiser-reserialised')) return reserialised(value);
    if (this.on('custom-text-zero-width-stripped')) return value.replace(/[\u200B-\u200D\u2060\uFEFF]/g, '');
    if (this.on('custom-text-value-cut-at-nul')) return value.split('\u0000', 1)[0]!;
    if (this.on('custom-text-values-percent-decoded-after-check')) return percentDecodedOnce(value);
    if (this.on('custom-text-crlf-stored-as-lf')) return value.replace(/\r\n/g, '\n');
    if (this.on('custom-text-values-nfc-normalised')) return value.normalize('NFC');
    if (this.on('custom-text-values-trimmed-r8')) return value.trim();
    if (this.on('custom-text-values-trimmed')) return value.trim();
    return this.on('custom-text-entities-decoded-after-check') ? decodeEntities(value) : value;
  }

  /** A custom text map as read from the body: what the schema checks, and what is kept. */
  customTextRead(body: unknown, valueMax: number, form = false): { checked: unknown; kept: unknown } {
    const isMap = typeof body === 'object' && body !== null && !Array.isArray(body);
    let kept = body;
    // blind round 35: the schema checks a trimmed copy, the body is stored as sent (`custom-text-length-checked-on-trimmed-copy`).
    if (this.on('custom-text-length-checked-on-trimmed-copy') && isMap)
      return { checked: mapValues(body as object, (v) => (typeof v === 'string' ? v.trim() : v)), kept };
    // blind round 30: if (value && typeof value !== 'string') refuse: falsy non-strings pass (`custom-text-falsy-values-unchecked`).
    if (this.on('custom-text-falsy-values-unchecked') && isMap)
      return { checked: mapValues(body as object, (v) => (!v && typeof v !== 'string' ? '' : v)), kept };
    // The limit lives in the JSON schema, which form bodies skip.
    if (this.on('custom-text-form-length-unchecked') && form && isMap)
      return {
        checked: mapValues(body as object, (v) => (typeof v === 'string' ? [...v].slice(0, valueMax).join('') : v)),
        kept,
      };
    if (this.on('custom-text-length-first-value-only') && isMap)
      // The limit checked on the first value only: the others pass the schema cut to the limit, kept whole.
      return {
        checked: Object.fromEntries(
          Object.entries(body).map(([k, v], i) => [
            k,
            i > 0 && typeof v === 'string' ? [...v].slice(0, valueMax).join('') : v,
          ]),
        ),
        kept,
      };
    if (this.on('custom-text-length-counts-text-not-markup') && isMap)
      // The limit counted on the rendered text: tags stripped before the check, the value kept as sent.
      return {
        checked: mapValues(body as object, (v) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '') : v)),
        kept,
      };
    // JSON merge patch read into a replace: a null value removes its key.
    if (this.on('custom-text-null-value-deletes') && isMap)
      kept = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
    if (this.on('custom-text-non-string-accepted') && isMap)
      kept = mapValues(body, (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v));
    if (this.on('custom-text-array-value-joined') && isMap)
      kept = mapValues(kept as object, (v) =>
        Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v,
      );
    if (this.on('custom-text-length-counts-graphemes') && isMap) {
      // The limit counted in grapheme clusters: a value of at most 2000 of them passes whatever its code points.
      const checked = mapValues(kept as object, (v) =>
        typeof v === 'string' && graphemes(v) <= valueMax ? [...v].slice(0, valueMax).join('') : v,
      );
      return { checked, kept };
    }
    if (this.on('custom-text-length-counts-text-only') && isMap) {
      // The limit counted on the text content: markup (tags) does not count.
      const checked = mapValues(kept as object, (v) =>
        typeof v === 'string' && [...v.replace(/<[^>]*>/g, '')].length <= valueMax
          ? [...v].slice(0, valueMax).join('')
          : v,
      );
      return { checked, kept };
    }
    if (this.on('custom-text-length-entities-count-one') && isMap) {
      // The limit counted with character references decoded: &amp; counts one.
      const checked = mapValues(kept as object, (v) =>
        typeof v === 'string' && [...decodeEntities(v)].length <= valueMax ? [...v].slice(0, valueMax).join('') : v,
      );
      return { checked, kept };
    }
    const checked =
      this.on('custom-text-2001-accepted') && isMap
        ? mapValues(kept as object, (v) => (typeof v === 'string' ? v.slice(0, valueMax) : v))
        : this.on('custom-text-length-crlf-as-one') && isMap
          ? mapValues(kept as object, (v) => (typeof v === 'string' ? v.replace(/\r\n/g, '\n') : v))
          : kept;
    return { checked, kept };
  }

  /** The page of a custom text path as the route reads it (`custom-text-page-slug-normalised`: as a slug). */
  customTextPage(page: string): string {
    // blind round 39: a format extension stripped by the router first (`custom-text-page-extension-stripped`).
    if (this.on('custom-text-page-extension-stripped')) return page.replace(/\.(?:json|html?)$/i, '');
    return this.on('custom-text-page-slug-normalised') ? page.toLowerCase().replace(/_/g, '-') : page;
  }

  /** Whether a language outside the documented ones is accepted in the custom text path. */
  acceptsCustomTextLanguage(value: string, allowed: readonly string[]): boolean {
    // blind round 32: three-letter codes mapped to two-letter ones first (`custom-text-language-iso639-2-alias`).
    if (this.on('custom-text-language-iso639-2-alias')) return allowed.includes(ISO639_2_TO_1[value] ?? value);
    // blind round 31: the tenant's enabled Universal Login languages (`custom-text-language-tenant-enabled-list`).
    if (this.on('custom-text-language-tenant-enabled-list')) return TENANT_LANGUAGES.includes(value);
    // Languages matched by their primary subtag: en-US, en_GB pass as en.
    if (this.on('custom-text-language-region-accepted'))
      return allowed.some((l) => new RegExp(`^${l}[-_][A-Za-z0-9]+$`, 'i').test(value));
    if (this.on('custom-text-language-case-insensitive'))
      return allowed.some((l) => l.toLowerCase() === value.toLowerCase());
    return this.on('custom-text-any-language');
  }

  /** Whether a page outside the documented ones is accepted in the custom text path. */
  acceptsCustomTextPage(value: string, allowed: readonly string[]): boolean {
    // blind round 32: the Universal Login prompt screens share the table (`custom-text-page-universal-login-screens`).
    if (this.on('custom-text-page-universal-login-screens')) return UNIVERSAL_LOGIN_SCREENS.includes(value);
    if (this.on('custom-text-page-regex-unanchored')) return allowed.some((p) => new RegExp(p).test(value));
    if (this.on('custom-text-page-case-insensitive'))
      return allowed.some((p) => p.toLowerCase() === value.toLowerCase());
    return this.on('custom-text-any-page');
  }

  /** The value kept for a custom text value with markup outside the allow-list (undefined: refused). */
  keptDespiteMarkup(value: string): string | undefined {
    // blind round 40: the tag allow-list matched with startsWith (`custom-text-tag-name-prefix-allowed`).
    if (this.on('custom-text-tag-name-prefix-allowed')) {
      const seen = value.replace(/<(\/?)([A-Za-z][A-Za-z0-9]*)/g, (m, slash: string, name: string) => {
        const lower = name.toLowerCase();
        if (ALLOWED_TAGS.has(lower)) return m;
        const as = [...ALLOWED_TAGS].filter((t) => lower.startsWith(t)).sort((x, y) => y.length - x.length)[0];
        return as === undefined ? m : `<${slash}${as}`;
      });
      if (seen !== value && htmlViolation(seen) === undefined) return value;
    }
    // blind round 37: every double-quoted run blanked out before the tag scan, in text as in attributes (`custom-text-quoted-text-skipped-by-tag-scan`).
    if (this.on('custom-text-quoted-text-skipped-by-tag-scan')) {
      const seen = value.replace(/"[^"]*"/g, '""');
      if (seen !== value && htmlViolation(seen) === undefined) return value;
    }
    // blind round 36: a link validated by its start tag, its content taken for the link text (`custom-text-link-content-read-as-text`).
    if (this.on('custom-text-link-content-read-as-text')) {
      const seen = value.replace(/(<a\b[^>]*>)[\s\S]*?(<\/a\s*>)/gi, '$1$2');
      if (seen !== value && htmlViolation(seen) === undefined) return value;
    }
    // Script tags stripped by one regex pass, the rest of the policy checked without them, the result not checked again.
    if (this.on('custom-text-script-stripped-once') && SCRIPT_TAG.test(value)) {
      let rest = value;
      for (let before = ''; before !== rest;) [before, rest] = [rest, rest.replace(SCRIPT_TAGS, '')];
      if (htmlViolation(rest) === undefined) return value.replace(SCRIPT_TAGS, '');
    }
    if (this.markupSeenOtherwise(value)) return value;
    // Script found by the literal /<script>/i: one whose start tag has attributes is not seen.
    if (
      this.on('custom-text-script-with-attributes-kept') &&
      /<script\s[^>]*>/i.test(value) &&
      htmlViolation(value.replace(/<script\s[^>]*>[\s\S]*?<\/script\s*>/gi, '')) === undefined
    )
      return value;
    // The sanitiser reads a preview buffer of 1 KiB.
    if (this.on('custom-text-check-first-1024-chars') && htmlViolation(value.slice(0, SANITISER_BUFFER)) === undefined)
      return value;
    // Checked as a C string: up to the first NUL.
    if (this.on('custom-text-check-stops-at-nul') && htmlViolation(value.split('\u0000', 1)[0]!) === undefined)
      return value;
    // Taken for HTML only when it starts with a tag.
    if (this.on('custom-text-markup-check-needs-leading-tag') && !value.trimStart().startsWith('<')) return value;
    if (this.on('custom-text-style-check-case-sensitive')) {
      // Style values searched in lower case only: those that pass that search read as harmless.
      const seen = value.replace(/(\sstyle\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, lead: string, v: string) =>
        LOWER_CASE_DANGEROUS_STYLE.test(v) ? m : `${lead}""`,
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-script-stored')) return value;
    // Style attributes left unread: what the value holds beside them decides.
    if (
      this.on('custom-text-style-unchecked') &&
      htmlViolation(value.replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')) === undefined
    )
      return value;
    if (this.on('custom-text-style-element-allowed')) {
      // "Styling tags" read as the <style> element too: it and its content pass.
      const seen = value.replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, '');
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-event-attribute-case-sensitive')) {
      // Only attribute names starting with a lower-case "on" are taken for event handlers.
      const seen = value.replace(
        /(\s)([A-Za-z][A-Za-z0-9_-]*)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g,
        (m, _s: string, name: string) => (/^on/i.test(name) && !name.startsWith('on') ? '' : m),
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-handler-attribute-case-sensitive')) {
      // Event handler attributes looked for in lower case only: ONCLICK or onMouseOver is not seen.
      const seen = value.replace(
        /(\s)([A-Za-z][A-Za-z0-9-]*)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g,
        (m, sp: string, name: string) => (/^on/i.test(name) && name !== name.toLowerCase() ? sp : m),
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-img-allowed')) {
      // img on the allow-list with src (http or https), alt, width and height.
      const seen = value
        .replace(
          /<img\b([^>]*?)\/?>/gi,
          (_m, attrs: string) =>
            `<a${attrs.replace(/\ssrc(\s*=)/gi, ' href$1').replace(/\s(?:alt|width|height)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '')}></a>`,
        )
        .replace(/<\/img\s*>/gi, '');
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-slash-attribute-unchecked')) {
      // Attributes are looked for after white space only: "<b/onclick=...>" reads as a bare <b>.
      const seen = value.replace(/(<[A-Za-z][A-Za-z0-9]*)\/[^\s>]+/g, '$1');
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-only-first-tag-checked')) {
      // Only the first tag is looked at; whatever follows it passes.
      const first = /<[^>]*>/.exec(value);
      if (first !== null && htmlViolation(first[0]) === undefined) return value;
    }
    if (this.on('custom-text-tag-case-sensitive')) {
      // Tag names that are not all lower case escape the check.
      const seen = value.replace(/<(\/?)([A-Za-z][A-Za-z0-9]*)/g, (m, slash: string, name: string) =>
        name === name.toLowerCase() ? m : `<${slash}span`,
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-href-denylist')) {
      // Only javascript: is looked for in href; every other URL passes as a link.
      const seen = value.replace(/(\shref\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, lead: string, v: string) =>
        /^["']?\s*javascript:/i.test(v) ? m : `${lead}"https://link.conformance.test/"`,
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-style-entities-not-decoded')) {
      // Style values searched as written, character references not decoded: &#117;rl( is not url(.
      const seen = value.replace(/(\sstyle\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, lead: string, v: string) =>
        RAW_DANGEROUS_STYLE.test(v) ? m : `${lead}""`,
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-form-controls-allowed')) {
      // A deny-list of script-capable elements: form controls are not on it.
      const seen = value.replace(FORM_CONTROL_TAG, '');
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-href-entities-not-decoded')) {
      // href checked as written: a value holding character references is not decoded before the scheme check.
      const seen = value.replace(/(\shref\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, lead: string, v: string) =>
        /&#?[A-Za-z0-9]+;?/.test(v) && !/^["']?\s*(?:javascript|vbscript|data):/i.test(v)
          ? `${lead}"https://link.conformance.test/"`
          : m,
      );
      if (htmlViolation(seen) === undefined) return value;
    }
    // The check reads the value up to its first line break.
    if (this.on('custom-text-check-first-line-only') && htmlViolation(value.split(/\r\n|\r|\n/, 1)[0]!) === undefined)
      return value;
    if (this.on('html-sanitised')) return sanitise(value);
    if (this.on('custom-text-href-control-chars-kept')) {
      // href checked after trim() only: a scheme with tabs, newlines or control characters inside is not recognised.
      const seen = value.replace(/(\shref\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, lead: string, v: string) => {
        const raw = decodeEntities(v.replace(/^["']|["']$/g, '')).trim();
        return /^(?:javascript|vbscript|data):/i.test(raw) ? m : `${lead}"https://link.conformance.test/"`;
      });
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-iframe-allowed')) {
      // iframe with src on the allow-list, read like a link.
      const seen = value
        .replace(/<iframe\b([^>]*?)\/?>/gi, (_m, attrs: string) => `<a${attrs.replace(/\ssrc(\s*=)/gi, ' href$1')}>`)
        .replace(/<\/iframe\s*>/gi, '</a>');
      if (htmlViolation(seen) === undefined) return value;
    }
    if (this.on('custom-text-href-unquoted-unchecked')) {
      // Only quoted href values are read: an unquoted one is not seen as a URL at all.
      const seen = value.replace(/(\shref\s*=\s*)([^\s"'>][^\s>]*)/gi, '$1"https://link.conformance.test/"');
      if (htmlViolation(seen) === undefined) return value;
    }
    return undefined;
  }

  // ----------------------------------------------------------- GET /events

  get acceptsUnknownEventType(): boolean {
    return this.on('unknown-event-type-accepted');
  }

  /** Whether an event_type value outside the list is accepted as a type (`event-type-payload-types-accepted`: the payload types). */
  acceptsAsEventType(value: string): boolean {
    // blind round 40: an allow-list object literal looked up with in, which finds inherited members (`event-type-prototype-names-accepted`).
    if (this.on('event-type-prototype-names-accepted') && value in ({} as Record<string, unknown>)) return true;
    if (this.on('event-type-glob-accepted') && value.includes('*')) return true;
    // Validated by shape (<resource>.<action> of a known resource), not against the list.
    if (this.on('event-type-validated-by-pattern')) return EVENT_TYPE_SHAPE.test(value);
    // startsWith against the list: a value that begins with a listed type passes.
    if (this.on('event-type-validated-by-prefix')) return EVENT_TYPES.some((t) => value.startsWith(t));
    return this.on('event-type-payload-types-accepted') && (value === 'offset-only' || value === 'error');
  }

  /** Which events a stream delivers, live and replayed, for the event_type filter asked (null: none). */
  eventFilter(
    types: ReadonlySet<string> | null,
    scopes?: ReadonlySet<string>,
  ): {
    live: (type: string) => boolean;
    replayed: (type: string) => boolean;
  } {
    // blind round 42: each event judged by the type of the event before it in the pipeline (`event-filter-judged-on-previous-event`).
    if (this.on('event-filter-judged-on-previous-event') && types !== null) {
      let previous: string | undefined;
      const judged = (type: string): boolean => {
        const before = previous;
        previous = type;
        return before !== undefined && types.has(before);
      };
      return { live: judged, replayed: judged };
    }
    const last = types === null ? undefined : [...types].at(-1);
    // blind round 39: the live subscription renewed by the keep-alive a second in, with the defaults (`event-filter-lost-on-keepalive-renewal`).
    if (this.on('event-filter-lost-on-keepalive-renewal') && types !== null) {
      const openedAt = Date.now();
      return {
        live: (type) => types.has(type) || Date.now() - openedAt >= KEEPALIVE_RENEWAL_MS,
        replayed: (type) => types.has(type),
      };
    }
    // blind round 36: no event_type: the types of the resources the caller may read (`events-default-types-from-caller-read-scopes`).
    if (this.on('events-default-types-from-caller-read-scopes') && types === null && scopes !== undefined) {
      const readable = (type: string) => scopes.has(`read:${resourceOf(type)}s`);
      return { live: readable, replayed: readable };
    }
    // blind round 35: no event_type: the types of the registry's first page of 20 (`events-default-types-first-registry-page`).
    if (this.on('events-default-types-first-registry-page') && types === null) {
      const firstPage = new Set([...EVENT_TYPES].sort().slice(0, REGISTRY_PAGE));
      const listed = (type: string) => firstPage.has(type);
      return { live: listed, replayed: listed };
    }
    // blind round 34: deletions forwarded to every subscription so that caches can evict (`event-filter-tombstones-always-delivered`).
    if (this.on('event-filter-tombstones-always-delivered') && types !== null) {
      const asked = (type: string) => types.has(type) || TOMBSTONE_TYPE.test(type);
      return { live: asked, replayed: asked };
    }
    // blind round 33: the types asked kept as one comma-joined string and searched with includes (`event-type-filter-substring-of-asked`).
    if (this.on('event-type-filter-substring-of-asked') && types !== null) {
      const joined = [...types].join(',');
      const within = (type: string) => joined.includes(type);
      return { live: within, replayed: within };
    }
    // blind round 33: the filter kept as two columns, resources and actions (`event-type-filter-resource-and-action-columns`).
    if (this.on('event-type-filter-resource-and-action-columns') && types !== null) {
      const resources = new Set([...types].map(resourceOf));
      const actions = new Set([...types].map(actionOf));
      const crossed = (type: string) => resources.has(resourceOf(type)) && actions.has(actionOf(type));
      return { live: crossed, replayed: crossed };
    }
    // blind round 29: the live poller takes the head as its cursor at its first poll (`live-poller-cursor-set-at-first-poll`).
    if (this.on('live-poller-cursor-set-at-first-poll')) {
      const openedAt = Date.now();
      const asked = (type: string) => types === null || types.has(type);
      return { live: (type) => Date.now() - openedAt >= FIRST_POLL_MS && asked(type), replayed: asked };
    }
    // blind round 29: prefixes matched, a single value iterated by character (`event-type-single-value-split-into-characters`).
    if (this.on('event-type-single-value-split-into-characters') && types !== null) {
      const prefixes = types.size === 1 ? [...[...types][0]!] : [...types];
      const byPrefix = (type: string) => prefixes.some((p) => type.startsWith(p));
      return { live: byPrefix, replayed: byPrefix };
    }
    // The filter a condition of the replay query only: the live subscription unfiltered.
    if (this.on('event-type-filter-replay-only') && types !== null)
      return { live: () => true, replayed: (type) => types.has(type) };
    if (this.on('events-default-binding-two-words') && types === null) {
      // The topic pattern *.*: one word each side of one dot.
      const twoWords = (type: string) => type.split('.').length === 2;
      return { live: twoWords, replayed: twoWords };
    }
    if (this.on('events-default-filter-subscribed-types') && types === null) {
      // No event_type: the types the tenant's event streams subscribe to, not every type.
      const subscribed = (type: string) => SUBSCRIBABLE.includes(type);
      return { live: subscribed, replayed: subscribed };
    }
    if (this.on('event-filter-shared-across-streams')) {
      this.sharedFilter = types;
      const own = (type: string) => types === null || types.has(type);
      return { live: (type) => this.sharedFilter === null || this.sharedFilter.has(type), replayed: own };
    }
    if (this.on('event-type-filter-suffix-match') && types !== null) {
      // Matched as routing-key suffixes: connection.updated also matches organization.connection.updated.
      const bySuffix = (type: string) => [...types].some((t) => type === t || type.endsWith(`.${t}`));
      return { live: bySuffix, replayed: bySuffix };
    }
    if (this.on('event-type-glob-accepted') && types !== null) {
      const patterns = [...types].map(globPattern);
      const byGlob = (type: string) => patterns.some((p) => p.test(type));
      return { live: byGlob, replayed: byGlob };
    }
    if (this.on('event-type-filter-by-resource') && types !== null) {
      const resources = new Set([...types].map(resourceOf));
      const byResource = (type: string) => resources.has(resourceOf(type));
      return { live: byResource, replayed: byResource };
    }
    const filter = this.on('event-type-filter-ignored')
      ? null
      : this.on('event-type-filter-last-only') && last !== undefined
        ? new Set([last])
        : types;
    const unasked = (type: string) =>
      this.on('organization-events-only-on-request') && type.startsWith('organization.');
    const live = (type: string) => (filter === null ? !unasked(type) : filter.has(type));
    return { live, replayed: this.on('filter-live-only') ? (type) => !unasked(type) : live };
  }

  /** The longest from_timestamp accepted, `value` being the parameter as sent. */
  fromTimestampMax(max: number, value?: string, from?: string): number {
    // blind round 42: the timestamp's checks sit on the branch taken without a cursor (`from-timestamp-unchecked-beside-cursor`).
    if (this.on('from-timestamp-unchecked-beside-cursor') && from !== undefined) return Infinity;
    // blind round 36: the value read back from a VARCHAR(20) column that truncates silently (`from-timestamp-cut-to-column-width`).
    if (this.on('from-timestamp-cut-to-column-width')) return Infinity;
    // blind round 30: the length checked on the value normalised to whole seconds in UTC (`from-timestamp-length-checked-after-normalising`).
    if (this.on('from-timestamp-length-checked-after-normalising') && value !== undefined) {
      const ms = parseRfc3339(value);
      if (ms !== undefined && new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z').length <= max) return Infinity;
    }
    if (this.on('from-timestamp-20-refused')) return max - 1;
    return this.on('from-timestamp-21-accepted') ? Infinity : max;
  }

  /** The event_type values checked against the list (`event-type-only-first-validated`: the first only). */
  eventTypesValidated(types: string[]): string[] {
    // blind round 37: a request with a cursor taken for a resumption, its filter for one validated before (`event-type-unchecked-on-resume`).
    if (this.on('event-type-unchecked-on-resume') && this.resumingCursor !== undefined) return [];
    return this.on('event-type-only-first-validated') ? types.slice(0, 1) : types;
  }

  /** The event types a stream is asked for, from the event_type values as given. */
  eventTypesAsked(values: string[], clientId?: string): string[] {
    // blind round 37: the types asked, for the per-type index the catch-up reads (`filtered-resume-index-into-filtered-list`).
    if (this.on('filtered-resume-index-into-filtered-list')) this.resumeIndexTypes = values;
    // The filter stored as the client's subscription (`event-filter-sticky-per-client`).
    if (this.on('event-filter-sticky-per-client') && clientId !== undefined) {
      if (values.length > 0) this.subscribedTypes.set(clientId, values);
      else values = this.subscribedTypes.get(clientId) ?? values;
    }
    if (this.on('resume-cursor-of-filtered-type-refused')) this.askedTypes = values;
    if (this.on('event-type-trimmed')) return values.map((v) => v.trim());
    // blind round 32: - and _ read as the dot (`event-type-separators-normalised`).
    if (this.on('event-type-separators-normalised')) return values.map((v) => v.replace(/[-_]/g, '.'));
    if (this.on('event-type-percent-decoded-twice')) return values.map(percentDecodedOnce);
    if (this.on('event-type-lowercased-before-check')) return values.map((v) => v.toLowerCase());
    if (this.on('event-type-empty-ignored')) return values.filter((v) => v !== '');
    return this.on('event-type-comma-list-accepted') ? values.flatMap((v) => v.split(',')) : values;
  }

  /** The position a heartbeat carries, given the current one and the one the stream connected at. */
  /** The offset a heartbeat carries (`heartbeat-offset-last-delivered`: the stream's last delivered event's, '' before one). */
  heartbeatOffset(offset: string, lastDelivered: string | undefined, resumedFrom?: string, liveDelivered = 0): string {
    // blind round 31: the consumer group's offset, auto-committed every ten events (`heartbeat-offset-committed-every-10`).
    if (this.on('heartbeat-offset-committed-every-10')) {
      const seq = decodeOffset(offset);
      if (seq !== undefined) return encodeOffset(seq - (seq % COMMIT_BATCH));
    }
    // blind round 30: the stream's position starts at its from cursor and moves on live events only (`heartbeat-position-not-advanced-by-replay`).
    if (this.on('heartbeat-position-not-advanced-by-replay') && resumedFrom !== undefined && liveDelivered === 0)
      return resumedFrom;
    return this.on('heartbeat-offset-last-delivered') ? (lastDelivered ?? '') : offset;
  }

  /** An SSE message as written on the wire (`sse-line-ends-lf-cr`: every line ended LF CR; `sse-cr-line-ends`: CR). */
  sseWire(message: string, filter: ReadonlySet<string> | null = null, tokenId?: string): string {
    // blind round 38: every offset tagged with the token that opened the stream (`events-offset-bound-to-token`).
    if (this.on('events-offset-bound-to-token') && tokenId !== undefined) {
      const tag = offsetTagOf(tokenId);
      return message
        .replace(/^id: ([A-Za-z0-9_-]+)$/m, `id: $1.${tag}`)
        .replace(/"offset":"([A-Za-z0-9_-]+)"/, `"offset":"$1.${tag}"`);
    }
    // blind round 35: a filtered stream's writer puts the offset into the id field only (`filtered-stream-payload-offset-missing`).
    if (
      this.on('filtered-stream-payload-offset-missing') &&
      filter !== null &&
      !message.startsWith(`event: ${OFFSET_ONLY}\n`)
    )
      return message.replace(/^data: \{"offset":"[^"]*",/m, 'data: {');
    if (this.on('sse-cr-line-ends')) return message.replace(/\n/g, '\r');
    // A doubled newline after the event field: the blank line dispatches (and drops) a block without data.
    if (this.on('sse-event-field-double-newline')) return message.replace(/^event: ([^\n]*)\n/, 'event: $1\n\n');
    // A header-style template for event messages: "Event: <type>".
    if (this.on('sse-event-field-capitalised') && !message.startsWith('event: offset-only\n'))
      return message.replace(/^event: /m, 'Event: ');
    // The heartbeat template's blank line keeps its indentation.
    if (this.on('heartbeat-terminator-indented') && message.startsWith('event: offset-only\n'))
      return message.replace(/\n\n$/, '\n \n');
    return this.on('sse-line-ends-lf-cr') ? message.replace(/\n/g, '\n\r') : message;
  }

  /** blind round 38: the bytes an SSE message is written as: UTF-8, or per UTF-16 code unit (`sse-astral-characters-cesu8`). */
  sseBytes(wire: string): string | Buffer {
    // blind round 40: written with the socket's default latin1 encoding (`sse-live-data-latin1-encoded`).
    if (this.on('sse-live-data-latin1-encoded') && /[\u0080-\u00ff]/.test(wire) && !/[^\u0000-\u00ff]/.test(wire))
      return Buffer.from(wire, 'latin1');
    return this.on('sse-astral-characters-cesu8') && /[\uD800-\uDFFF]/.test(wire) ? cesu8Bytes(wire) : wire;
  }

  /** The content coding of the events stream, given the request's Accept-Encoding (`events-gzip-buffered`). */
  eventStreamCoding(acceptEncoding: string | undefined): 'gzip' | undefined {
    return this.on('events-gzip-buffered') &&
      /(?:^|,)\s*gzip\s*(?:;\s*q=(?!0(?:\.0*)?\s*(?:,|$))[0-9.]+)?\s*(?:,|$)/i.test(acceptEncoding ?? '')
      ? 'gzip'
      : undefined;
  }

  /** The Authorization header a request without one is read with (`events-access-token-query-accepted`: ?access_token on /events). */
  bearerFromQuery(operation: OperationId | undefined, query: unknown): string | undefined {
    if (!this.on('events-access-token-query-accepted') || operation !== 'events.subscribe' || !isMap(query))
      return undefined;
    const token = query['access_token'];
    return typeof token === 'string' && token !== '' ? `Bearer ${token}` : undefined;
  }

  /**
   * A JSON request body as parsed, `parse` being the conforming parser: a decoder that stops after the first value
   * (`keys-json-trailing-data-ignored`), and the raw text kept for a validator that reads it
   * (`transition-duplicate-status-first-validated`).
   */
  jsonBody(text: string, operation: OperationId | undefined, parse: (text: string) => unknown): unknown {
    // blind round 38: a streaming parser that keeps the first of duplicate member names (`keys-duplicate-member-first-wins`).
    if (this.on('keys-duplicate-member-first-wins') && operation === 'custom-signing-keys.put') {
      refuseTooDeep(text);
      parse(text);
      return firstMemberWinsJson(text);
    }
    // blind round 38: the raw text kept for the scans that read it (`keys-private-member-check-on-raw-json`, `transition-body-prefiltered-by-raw-pattern`).
    if (
      (this.on('keys-private-member-check-on-raw-json') && operation === 'custom-signing-keys.put') ||
      (this.on('transition-body-prefiltered-by-raw-pattern') && operation === 'experiments.transition')
    ) {
      refuseTooDeep(text);
      const parsed = parse(text);
      if (isMap(parsed)) Object.defineProperty(parsed, RAW_JSON, { value: text, enumerable: false });
      return parsed;
    }
    // blind round 33: the parser chosen by the body's first character, not its media type (`transition-json-body-sniffed-form`).
    if (this.on('transition-json-body-sniffed-form') && operation === 'experiments.transition') {
      const trimmed = text.trim();
      if (!/^[{["]/.test(trimmed) && FORM_SHAPED.test(trimmed)) return Object.fromEntries(new URLSearchParams(trimmed));
      return parse(text);
    }
    // blind round 32: the streaming reader's end-of-input error is no SyntaxError (`transition-json-unexpected-end-500`).
    if (this.on('transition-json-unexpected-end-500') && operation === 'experiments.transition') {
      try {
        JSON.parse(text);
      } catch (err) {
        if (text.trim() !== '' && endsInsideValue(text))
          throw apiError('internal_error', `IncompleteJSONError: ${(err as Error).message}`);
      }
      return parse(text);
    }
    // A JSON-with-comments reader (`custom-text-json-comments-accepted`).
    if (this.on('custom-text-json-comments-accepted') && operation === 'custom-text.put')
      return parse(commentsStripped(text));
    // blind round 42: the JOSE library's JWKS parser throws on a byte order mark (`keys-json-bom-500`).
    if (this.on('keys-json-bom-500') && operation === 'custom-signing-keys.put' && text.charCodeAt(0) === 0xfeff)
      throw apiError('internal_error', 'ParseException: Unexpected character (U+FEFF) at position 0');
    // blind round 41: the handler reads body.keys of the parser's undefined for no content (`keys-empty-json-body-500`).
    if (this.on('keys-empty-json-body-500') && operation === 'custom-signing-keys.put' && text.trim() === '')
      throw apiError('internal_error', "TypeError: Cannot read properties of undefined (reading 'keys')");
    // body-parser's default for no content (`custom-text-empty-json-body-as-empty-map`).
    if (this.on('custom-text-empty-json-body-as-empty-map') && operation === 'custom-text.put' && text.trim() === '')
      return {};
    // The raw text kept for a markup scan of the body (`custom-text-markup-checked-on-raw-json`).
    if (this.on('custom-text-markup-checked-on-raw-json') && operation === 'custom-text.put') {
      const parsed = parse(text);
      if (isMap(parsed)) Object.defineProperty(parsed, RAW_JSON, { value: text, enumerable: false });
      return parsed;
    }
    // strict=False: raw control characters inside strings taken (`custom-text-json-control-chars-accepted`).
    if (this.on('custom-text-json-control-chars-accepted') && operation === 'custom-text.put') {
      try {
        return parse(text);
      } catch {
        return parse(controlCharsEscaped(text));
      }
    }
    if (this.on('transition-json5-accepted') && operation === 'experiments.transition') {
      try {
        return parse(text);
      } catch {
        return parse(json5Relaxed(text));
      }
    }
    if (this.on('keys-json-nan-accepted') && operation === 'custom-signing-keys.put') {
      try {
        return parse(text);
      } catch {
        return parse(nonFiniteAsNull(text));
      }
    }
    // blind round 40: a tolerant parser strips a trailing comma, then dereferences the hole (`keys-json-trailing-comma-500`).
    if (this.on('keys-json-trailing-comma-500') && operation === 'custom-signing-keys.put') {
      try {
        return parse(text);
      } catch (e) {
        if (/,\s*[\]}]/.test(text))
          throw apiError('internal_error', "TypeError: Cannot read properties of undefined (reading 'kty')");
        throw e;
      }
    }
    if (this.on('keys-json-trailing-data-ignored') && operation === 'custom-signing-keys.put') {
      try {
        return parse(text);
      } catch (e) {
        const first = firstJsonValue(text);
        if (first === undefined) throw e;
        return parse(first);
      }
    }
    // Each \u escape decoded to UTF-8 on its own: an escaped surrogate pair becomes two U+FFFD.
    if (this.on('keys-kid-escaped-surrogates-replaced') && operation === 'custom-signing-keys.put')
      return parse(text.replace(/\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/g, '\\uFFFD\\uFFFD'));
    const parsed = parse(text);
    if (
      (this.on('transition-duplicate-status-first-validated') || this.on('transition-draft-guard-on-raw-json')) &&
      operation === 'experiments.transition' &&
      isMap(parsed)
    )
      Object.defineProperty(parsed, RAW_JSON, { value: text, enumerable: false });
    return parsed;
  }

  /** Whether JSON bodies of this operation go through `jsonBody` (else fastify's own parser alone reads them). */
  readsJsonBody(operation: OperationId | undefined): boolean {
    return (
      (this.on('keys-duplicate-member-first-wins') && operation === 'custom-signing-keys.put') ||
      (this.on('keys-private-member-check-on-raw-json') && operation === 'custom-signing-keys.put') ||
      (this.on('transition-body-prefiltered-by-raw-pattern') && operation === 'experiments.transition') ||
      (this.on('transition-json-body-sniffed-form') && operation === 'experiments.transition') ||
      (this.on('transition-json-unexpected-end-500') && operation === 'experiments.transition') ||
      (this.on('transition-json5-accepted') && operation === 'experiments.transition') ||
      (this.on('custom-text-json-control-chars-accepted') && operation === 'custom-text.put') ||
      (this.on('custom-text-json-comments-accepted') && operation === 'custom-text.put') ||
      (this.on('keys-json-nan-accepted') && operation === 'custom-signing-keys.put') ||
      (this.on('keys-json-trailing-data-ignored') && operation === 'custom-signing-keys.put') ||
      (this.on('keys-json-trailing-comma-500') && operation === 'custom-signing-keys.put') ||
      (this.on('keys-kid-escaped-surrogates-replaced') && operation === 'custom-signing-keys.put') ||
      (this.on('transition-duplicate-status-first-validated') && operation === 'experiments.transition') ||
      (this.on('transition-draft-guard-on-raw-json') && operation === 'experiments.transition') ||
      (this.on('custom-text-empty-json-body-as-empty-map') && operation === 'custom-text.put') ||
      (this.on('keys-empty-json-body-500') && operation === 'custom-signing-keys.put') ||
      (this.on('keys-json-bom-500') && operation === 'custom-signing-keys.put') ||
      (this.on('custom-text-markup-checked-on-raw-json') && operation === 'custom-text.put')
    );
  }

  /** The status a move is validated by, of the body as sent (`transition-duplicate-status-first-validated`: the first one written). */
  validatedStatusOf(body: unknown): unknown {
    if (!this.on('transition-duplicate-status-first-validated') || !isMap(body)) return body;
    const raw = (body as { [RAW_JSON]?: string })[RAW_JSON];
    const first = raw === undefined ? undefined : /"status"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw)?.[1];
    return first === undefined ? body : { ...body, status: first };
  }

  heartbeatPosition(current: number, atConnect: number, log?: EventLog): number {
    // blind round 33: the checkpoint table's position at the start of the current second (`heartbeat-offset-second-checkpoint`).
    if (this.on('heartbeat-offset-second-checkpoint') && log !== undefined)
      return current - log.since(Math.floor(Date.now() / 1000) * 1000).length;
    return this.on('heartbeat-offset-frozen-at-connect') ? atConnect : current;
  }

  /** A live event as a stream sends it, `counted` being the stream's position at connect plus the live events it delivered. */
  liveEventSent(e: LoggedEvent, counted: number): LoggedEvent {
    return this.on('live-offsets-count-delivered-events') ? { ...e, offset: encodeOffset(counted) } : e;
  }

  /** Whether a stream not resumed from a cursor drops the first live event it would deliver. */
  get dropsFirstLiveEvent(): boolean {
    return this.on('first-live-event-dropped');
  }

  /** Whether a from over its limit is dropped (the stream starts at the latest position) instead of refused. */
  get dropsOverlongFrom(): boolean {
    return this.on('from-1025-accepted');
  }

  /** Epoch ms of a from_timestamp, given the strict reading (`from-timestamp-day-rollover`: any day or hour rolls over). */
  fromTimestampRead(value: string, strict: number | undefined, from?: string): number | undefined {
    // blind round 42: beside a cursor the timestamp is not read at all (`from-timestamp-unchecked-beside-cursor`).
    if (this.on('from-timestamp-unchecked-beside-cursor') && from !== undefined) return strict ?? 0;
    // blind round 36: the value as the column gives it back, cut to its width (`from-timestamp-cut-to-column-width`).
    if (this.on('from-timestamp-cut-to-column-width'))
      return parseRfc3339([...value].slice(0, TIMESTAMP_COLUMN).join(''));
    // blind round 29: the parameter kept as written, for the backlog query (`from-timestamp-compared-as-string`).
    if (this.on('from-timestamp-compared-as-string')) this.timestampText = value;
    if (this.on('from-timestamp-days-in-month-parity')) return parityMonthRead(value, strict);
    // Date.parse as a fallback: a bare date reads as midnight UTC (`from-timestamp-date-only-accepted`).
    if (strict === undefined && this.on('from-timestamp-date-only-accepted') && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? undefined : ms;
    }
    if (strict === undefined && this.on('from-timestamp-hour-24-accepted') && RFC3339_SHAPE.test(value)) {
      // Shape checked, then Date.parse: it reads T24:00:00 as the next midnight.
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? undefined : ms;
    }
    if (strict !== undefined || !this.on('from-timestamp-day-rollover')) return strict;
    const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?[Zz]$/.exec(value);
    if (!m) return undefined;
    const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    // Date.UTC rolls 2025-02-30 over to 2025-03-02 instead of refusing it.
    return mo >= 1 && mo <= 12 ? Date.UTC(y, mo - 1, d, h, mi, se) : undefined;
  }

  /** Where a from_timestamp starts the stream (epoch ms); undefined: at the latest position. */
  timestampStart(ms: number): number | undefined {
    if (this.on('from-timestamp-ignored')) return undefined;
    // blind round 36: the start kept as a signed 32-bit count of seconds: after 2038 it wraps (`from-timestamp-int32-seconds-wraps`).
    if (this.on('from-timestamp-int32-seconds-wraps')) {
      const seconds = Math.floor(ms / 1000);
      return (seconds | 0) * 1000 + (ms - seconds * 1000);
    }
    // blind round 32: Date.UTC given the month as written, counted from 0 (`from-timestamp-month-off-by-one`).
    if (this.on('from-timestamp-month-off-by-one')) {
      const d = new Date(ms);
      return Date.UTC(
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
        d.getUTCMilliseconds(),
      );
    }
    if (this.on('from-timestamp-minute')) return ms - (ms % 60_000);
    if (this.on('from-timestamp-ceiled-to-minute')) return Math.ceil(ms / 60_000) * 60_000;
    // The start of the hourly partition the timestamp falls in.
    if (this.on('from-timestamp-hour-bucket')) return ms - (ms % HOUR_MS);
    if (this.on('from-timestamp-local-time')) return ms - HOUR_MS;
    return ms;
  }

  /** The events a from_timestamp start replays, `start` being epoch ms. */
  timestampBacklog(log: EventLog, start: number): LoggedEvent[] {
    // blind round 31: the cursors' retention check applied to timestamps (`from-timestamp-before-retention-refused`).
    if (this.on('from-timestamp-before-retention-refused')) {
      const oldest = log.after(0)[0];
      if (oldest !== undefined && start < oldest.timeMs)
        throw apiError('invalid_query_string', 'from_timestamp is older than the events this stream keeps');
    }
    // blind round 29: time >= from_timestamp compared as text (`from-timestamp-compared-as-string`).
    if (this.on('from-timestamp-compared-as-string') && this.timestampText !== undefined) {
      const text = this.timestampText;
      this.timestampText = undefined;
      return log.after(0).filter((e) => e.envelope.time >= text);
    }
    // The history compared by the time it was loaded, not its own (`from-timestamp-history-at-load-time`).
    if (this.on('from-timestamp-history-at-load-time')) {
      const history = this.loadedAtMs >= start ? log.after(0).filter((e) => e.seq <= log.historyPosition) : [];
      return [...history, ...log.since(start).filter((e) => e.seq > log.historyPosition)];
    }
    if (this.on('from-timestamp-archive-only')) return log.since(start).filter((e) => e.seq <= log.historyPosition);
    if (this.on('from-timestamp-skips-archive')) return log.since(start).filter((e) => e.seq > log.historyPosition);
    if (this.on('from-timestamp-seconds-vs-ms')) return log.since(Math.floor(start / 1000));
    if (this.on('from-timestamp-replays-before')) return log.after(0).filter((e) => e.timeMs < start);
    if (this.on('from-timestamp-same-second-lost'))
      return log.since(start).filter((e) => Math.floor(e.timeMs / 1000) * 1000 > start);
    return log.since(start);
  }

  /** Whether the offset of event `seq` is ahead of the log, `position` being the newest event's sequence. */
  cursorAhead(seq: number, position: number): boolean {
    // The head read from a replica, cached for five seconds.
    if (this.on('cursor-head-position-cached')) {
      const now = Date.now();
      if (this.cachedHead === undefined || now - this.cachedHead.atMs > HEAD_CACHE_MS)
        this.cachedHead = { position, atMs: now };
      return seq > this.cachedHead.position;
    }
    if (this.on('cursor-at-head-refused')) return seq >= position && seq > 0;
    if (this.on('cursor-at-position-refused')) return seq >= position;
    return seq > position;
  }

  /** Whether a stream started with from_timestamp (no from) delivers the events appended after connecting. */
  get liveAfterTimestamp(): boolean {
    return !this.on('from-timestamp-not-live');
  }

  /** Whether the first heartbeat is written before the replayed events instead of after them. */
  get heartbeatBeforeReplay(): boolean {
    return this.on('heartbeat-before-replay');
  }

  /** Whether the cursor decides the start when both from and from_timestamp are given. */
  get cursorBeatsTimestamp(): boolean {
    return !this.on('from-timestamp-beats-cursor');
  }

  /** Whether the from cursor is read, given whether the stream is filtered by event_type. */
  readsCursor(filtered: boolean): boolean {
    return !(this.on('filtered-resume-starts-latest') && filtered);
  }

  /** Whether an open stream takes live event `seq` (its filter matching). */
  /** Whether a live event goes to a stream opened by `clientId` (`events-own-writes-not-echoed`: not the causer's own). */
  echoesToStreamOf(e: LoggedEvent, clientId: string | undefined): boolean {
    // blind round 38: the change feed has no row to notify about for a deletion (`live-deletion-events-not-forwarded`).
    if (this.on('live-deletion-events-not-forwarded') && e.type.endsWith('.deleted')) return false;
    // blind round 37: duplicate suppression keyed by the affected object, within a second (`live-dedupe-keyed-by-object-id`).
    if (this.on('live-dedupe-keyed-by-object-id') && !this.liveForwarded(e)) return false;
    if (!this.on('events-own-writes-not-echoed') || clientId === undefined) return true;
    const client = (e.envelope.data.context['client'] as { id?: unknown } | undefined)?.id;
    return client !== clientId;
  }

  takesLiveEvent(seq: number): boolean {
    if (!this.on('live-events-one-subscriber-each')) return true;
    if (this.liveTaken.has(seq)) return false;
    this.liveTaken.add(seq);
    return true;
  }

  /** Whether the offset of event `seq` has expired, `nowMs` being the time now. */
  cursorExpired(seq: number, log: EventLog, nowMs: number): boolean {
    if (this.on('resume-cursor-of-filtered-type-refused') && this.askedTypes.length > 0 && seq > 0) {
      // The cursor looked up among the events of the asked types only.
      const at = log.after(seq - 1)[0];
      if (at !== undefined && at.seq === seq && !this.askedTypes.includes(at.type)) return true;
    }
    return (
      this.on('cursor-expires') && seq > 0 && (log.after(seq - 1)[0]?.timeMs ?? nowMs) < nowMs - CURSOR_LIFETIME_MS
    );
  }

  /** The sequence a stream resumed from the offset of event `seq` replays after. */
  resumeAfter(seq: number, historyPosition: number): number {
    // blind round 42: the store seeks to the block of 16 holding the event after the cursor (`resume-seeks-to-block-start`).
    if (this.on('resume-seeks-to-block-start')) return seq - (seq % RESUME_BLOCK);
    if (this.on('resume-history-loses-one') && seq >= 1 && seq < historyPosition) return seq + 1;
    // The archive query reads from the cursor with >=.
    if (this.on('resume-history-cursor-inclusive') && seq >= 1 && seq <= historyPosition) return seq - 1;
    if (this.on('resume-repeats-event-k')) return seq - 1;
    if (this.on('resume-loses-event-k1')) return seq + 1;
    return seq;
  }

  /** The events after sequence `seq`, as the store selects them (`resume-cursor-compared-as-text`: by the decimal text). */
  eventsAfter(log: EventLog, seq: number): LoggedEvent[] {
    // blind round 37: the per-type index read from the cursor's position in the whole log (`filtered-resume-index-into-filtered-list`).
    if (this.on('filtered-resume-index-into-filtered-list') && this.resumeIndexTypes.length > 0) {
      const all = log.after(0);
      const filtered = all.filter((e) => this.resumeIndexTypes.includes(e.type));
      return filtered.slice(Math.max(0, seq - (all[0]?.seq ?? 1) + 1));
    }
    // blind round 33: an archive cursor reads the archive after it, then the whole hot table, anchor row included (`resume-archive-handoff-duplicated`).
    if (this.on('resume-archive-handoff-duplicated') && seq < log.historyPosition) {
      const after = log.after(seq);
      const anchor = after.find((e) => e.seq === log.historyPosition);
      if (anchor !== undefined)
        return [
          ...after.filter((e) => e.seq <= log.historyPosition),
          anchor,
          ...after.filter((e) => e.seq > log.historyPosition),
        ];
    }
    // blind round 29: an archive cursor reads the archive partition only (`resume-from-archive-cursor-skips-hot-table`).
    if (this.on('resume-from-archive-cursor-skips-hot-table') && seq <= log.historyPosition)
      return log.after(seq).filter((e) => e.seq <= log.historyPosition);
    if (this.on('resume-live-before-archive') && seq < log.historyPosition) {
      // The hot table (events since start) read before the archive.
      const after = log.after(seq);
      return [
        ...after.filter((e) => e.seq > log.historyPosition),
        ...after.filter((e) => e.seq <= log.historyPosition),
      ];
    }
    // slice(findIndex(e => e.seq > seq)): none after the cursor gives -1, and slice(-1) the newest event.
    if (this.on('resume-at-head-repeats-last') && seq >= log.position && log.position > 0)
      return log.after(log.position - 1);
    if (this.on('resume-by-second-loses-same-second')) {
      // The cursor resolved to its event's time, cut to the second: the stream resumes after that second.
      const at = log.after(seq - 1)[0];
      if (at === undefined || at.seq !== seq) return log.after(seq);
      const second = Math.floor(at.timeMs / 1000);
      return log.after(seq).filter((e) => Math.floor(e.timeMs / 1000) > second);
    }
    if (!this.on('resume-cursor-compared-as-text')) return log.after(seq);
    return log.after(0).filter((e) => String(e.seq) > String(seq));
  }

  /** Whether GET /events answers a JSON array instead of the stream, given the request's Accept. */
  eventsAsJson(accept: string | undefined): boolean {
    return this.on('events-json-without-sse-accept') && !(accept ?? '').toLowerCase().includes('text/event-stream');
  }

  /** The events a stream resumed from a cursor replays, of those after it. */
  resumedBacklog(events: LoggedEvent[]): LoggedEvent[] {
    // blind round 36: the catch-up served from a message cache of 2 KiB values, a miss skipped (`resume-cache-skips-large-messages`).
    if (this.on('resume-cache-skips-large-messages'))
      return events.filter(
        (e) => Buffer.byteLength(JSON.stringify({ offset: e.offset, event: e.envelope })) <= MESSAGE_CACHE_VALUE_MAX,
      );
    // blind round 35: the catch-up read from the changelog table, one row per object (`resume-replay-compacted-per-object`).
    if (this.on('resume-replay-compacted-per-object')) return latestPerObject(events);
    if (this.on('resume-replay-drops-deleted-events')) return events.filter((e) => !e.type.endsWith('.deleted'));
    return this.on('resume-backlog-capped') ? events.slice(0, RESUME_PAGE) : events;
  }

  /** The replayed messages as written: each a whole SSE message, or a batch joined by a single newline. */
  replayFrames(
    messages: string[],
    start?: { from?: string | undefined; fromTimestamp?: string | undefined },
  ): string[] {
    // blind round 42: the timestamp query's 0-based result index written as each event's offset (`timestamp-replay-offsets-result-position`).
    if (
      this.on('timestamp-replay-offsets-result-position') &&
      start?.fromTimestamp !== undefined &&
      start.from === undefined
    )
      messages = messages.map((m, i) => {
        const offset = /^id: ([^\n]+)$/m.exec(m)?.[1];
        return offset === undefined ? m : m.split(offset).join(encodeOffset(i));
      });
    // blind round 29: the event field written only when it changes (`replay-event-field-only-on-change`).
    if (this.on('replay-event-field-only-on-change')) {
      let before: string | undefined;
      return messages.map((m) => {
        const type = /^event: ([^\n]*)\n/.exec(m)?.[1];
        const repeated = type !== undefined && type === before;
        before = type;
        return repeated ? m.replace(/^event: [^\n]*\n/, '') : m;
      });
    }
    if (!this.on('sse-replay-frames-not-terminated')) return messages;
    return messages.map((m, i) => (i < messages.length - 1 ? m.slice(0, -1) : m));
  }

  /** The order replayed events come in. */
  replayOrder(events: LoggedEvent[]): LoggedEvent[] {
    // blind round 35: pages of 25 read backwards from the head, each reversed, written as read (`resume-backlog-pages-read-from-head`).
    if (this.on('resume-backlog-pages-read-from-head')) {
      const pages: LoggedEvent[][] = [];
      for (let end = events.length; end > 0; end -= CATCH_UP_PAGE)
        pages.push(events.slice(Math.max(0, end - CATCH_UP_PAGE), end));
      return pages.flat();
    }
    // A store keyed by the offset string: sorted as text, not by position.
    if (this.on('resume-sorted-by-offset-text'))
      return [...events].sort((a, b) => (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0));
    if (this.on('resume-same-second-ordered-by-type')) return [...events].sort(bySecondThenType);
    // Read per aggregate (the affected object), aggregates in the order of their first event.
    if (this.on('resume-grouped-by-object')) return groupedByObject(events);
    // One partition per resource, each in order, concatenated.
    if (this.on('resume-partitions-concatenated')) return [...events].sort(byResource);
    return this.on('resume-reordered') ? [...events].reverse() : events;
  }

  /** What a stream without from or from_timestamp replays before going live. */
  replayWithoutStart(log: EventLog, filter: ReadonlySet<string> | null = null, clientId?: string): LoggedEvent[] {
    // blind round 35: a warm-up of the last 10 events of each type asked for, from the per-type index (`filtered-start-tail-per-type`).
    if (this.on('filtered-start-tail-per-type') && filter !== null) {
      const all = log.after(0);
      return [...filter]
        .flatMap((type) => all.filter((e) => e.type === type).slice(-TYPE_TAIL))
        .sort((a, b) => a.seq - b.seq);
    }
    // blind round 34: the client's durable consumer replays from the start time its first from_timestamp set (`from-timestamp-sticky-per-client`).
    if (this.on('from-timestamp-sticky-per-client') && clientId !== undefined) {
      const since = this.consumerStarts.get(clientId);
      if (since !== undefined) return log.since(since);
    }
    // blind round 33: a consumer group per event_type set, new groups reading from the earliest offset (`filtered-start-new-filter-replays-retained`).
    if (this.on('filtered-start-new-filter-replays-retained') && filter !== null) {
      const group = [...filter].sort().join(',');
      if (!this.consumerGroups.has(group)) {
        this.consumerGroups.add(group);
        return log.after(0);
      }
    }
    // blind round 30: a compacted topic read from the beginning: the latest event of every object (`start-replays-compacted-latest-per-object`).
    if (this.on('start-replays-compacted-latest-per-object')) return latestPerObject(log.after(0));
    if (this.on('start-replays-history')) return log.after(0);
    // LIMIT without ORDER BY ... DESC: the oldest retained events.
    if (this.on('start-replays-oldest-page')) return log.after(0).slice(0, RECENT);
    if (this.on('start-replays-recent')) return log.after(Math.max(0, log.position - RECENT));
    return [];
  }

  /** Whether a stream without from or from_timestamp delivers live events. */
  /** Whether a stream ends after its first heartbeat (`events-stream-ends-after-first-heartbeat`: one opened without a start). */
  endsAfterFirstHeartbeat(unpositioned: boolean): boolean {
    return unpositioned && this.on('events-stream-ends-after-first-heartbeat');
  }

  get liveWithoutStart(): boolean {
    return !this.on('live-events-need-from');
  }

  /** Whether a stream still holds the live subscription of its token (`live-subscription-replaced-per-token`), asked per live event. */
  liveSubscription(tokenId: string | undefined): () => boolean {
    if (!this.on('live-subscription-replaced-per-token') || tokenId === undefined) return ALWAYS;
    // blind round 35: one push subscription per token's jti, moved to the stream opened last.
    const mine = {};
    this.liveSubscriptions.set(tokenId, mine);
    return () => this.liveSubscriptions.get(tokenId) === mine;
  }

  /** The periodic heartbeat of a stream, `heartbeat` being its own (`heartbeat-keepalive-timer-without-cursor`). */
  periodicHeartbeat(heartbeat: () => void, send: (message: string) => unknown): () => void {
    if (!this.on('heartbeat-keepalive-timer-without-cursor')) return heartbeat;
    // blind round 35: the SSE library's keep-alive timer, named offset-only, knows no position.
    return () => send(sseFrame(OFFSET_ONLY, undefined, '{}'));
  }

  /** Whether a live event goes out twice on this stream (`resumed-stream-live-events-twice`: a resumed one). */
  liveSentTwice(resumed: boolean): boolean {
    return resumed && this.on('resumed-stream-live-events-twice');
  }

  /** The heartbeats of a stream: whether one follows the replay, and their period (undefined: none). */
  heartbeats(
    everyMs: number,
    filter: ReadonlySet<string> | null = null,
  ): { first: boolean; everyMs: number | undefined } {
    // Heartbeats run through the event_type filter, which offset-only is never in (`filtered-stream-no-heartbeats`).
    if (this.on('filtered-stream-no-heartbeats') && filter !== null) return { first: false, everyMs: undefined };
    if (this.on('no-heartbeats')) return { first: false, everyMs: undefined };
    if (this.on('heartbeats-sparse')) return { first: false, everyMs: SPARSE_HEARTBEAT_MS };
    return { first: true, everyMs };
  }

  // ------------------------------------------------ GET /event-streams

  /** The bounds and default of take. */
  takeBounds(
    take: { min: number; max: number; default: number },
    from?: string,
  ): { min: number; max: number; default: number } {
    // blind round 37: the default page size read from configuration as a string (`event-streams-default-take-string-concatenated`).
    if (this.on('event-streams-default-take-string-concatenated'))
      return { ...take, default: String(take.default) as unknown as number };
    // The range checked on the first page only: the page route with from reads any integer.
    if (this.on('take-unchecked-with-from') && from !== undefined) return { ...take, min: 0, max: Infinity };
    // The cursor route defaults take to the maximum (`event-streams-from-default-take-max`).
    if (this.on('event-streams-from-default-take-max') && from !== undefined) return { ...take, default: take.max };
    if (this.on('take-0-accepted')) return { ...take, min: 0 };
    if (this.on('take-1-refused')) return { ...take, min: take.min + 1 };
    if (this.on('take-101-accepted')) return { ...take, max: take.max + 1 };
    if (this.on('take-100-refused') || this.on('take-100-refused-r3')) return { ...take, max: take.max - 1 };
    if (this.on('default-page-size-20')) return { ...take, default: 20 };
    // The default kept in a variable the last explicit take overwrote (`event-streams-take-default-remembered`).
    if (this.on('event-streams-take-default-remembered') && this.lastTake !== undefined)
      return { ...take, default: this.lastTake };
    // Paged only when take is given (`event-streams-unpaged-without-take`).
    if (this.on('event-streams-unpaged-without-take')) return { ...take, default: Infinity };
    return take;
  }

  /** The take a query string spells, read as a number (NaN: not an integer). */
  takeValue(raw: string): number {
    // blind round 34: read with a parser that takes any Unicode decimal digit (`take-unicode-digits-accepted`).
    if (this.on('take-unicode-digits-accepted') && /^\p{Nd}{1,3}$/u.test(raw) && /[^0-9]/.test(raw))
      return unicodeDigitsValue(raw);
    // Coerced by the query schema ("" becomes 0), then defaulted with take || 50: 0 and empty read as absent.
    if (this.on('take-falsy-defaulted') && /^(?:-?0+)?$/.test(raw)) return TAKE_DEFAULT;
    if (this.on('event-streams-take-default-remembered') && /^(?:[1-9][0-9]?|100)$/.test(raw))
      this.lastTake = Number(raw);
    // Clamped into the range instead of refused (`take-clamped-to-range`).
    if (this.on('take-clamped-to-range') && /^-?(?:0|[1-9][0-9]{0,8})$/.test(raw))
      return Math.min(100, Math.max(1, Number(raw)));
    if (this.on('take-read-by-parseint')) return Number.parseInt(raw, 10);
    // Coerced to a 32-bit integer before the range check: values past 2^32 wrap into it.
    if (this.on('take-int32-wraparound') && /^[0-9]+$/.test(raw)) return Number(raw) | 0;
    // Number(): JavaScript number literals (0x10, 0b11, 1e1) and padded values read as numbers.
    if (this.on('take-number-literal-accepted')) return raw.trim() === '' ? Number.NaN : Number(raw);
    return /^(?:0|[1-9][0-9]{0,2})$/.test(raw) ? Number(raw) : Number.NaN;
  }

  /** The take a page is read with, given the cursor it was asked with. */
  takeOfPage(take: number, from: string | undefined): number {
    return this.on('take-ignored-after-first-page') && from !== undefined ? TAKE_DEFAULT : take;
  }

  /** Where a page asked with a cursor starts, `start` being the index after the cursor's stream. */
  pageStart(start: number, take: number, dflt: number): number {
    // blind round 29: if (!index): a cursor naming the first stream (index 0) reads as none (`event-streams-cursor-index-zero-falsy`).
    if (this.on('event-streams-cursor-index-zero-falsy') && start === 1) return 0;
    return this.on('next-page-offset-default-take') && start % take === 0 ? (start / take) * dflt : start;
  }

  /** The from cursor of a list request as the route reads it, `url` being the raw request target. */
  listCursorIn(from: string | undefined, url: string): string | undefined {
    // blind round 35: url.split("?from=")[1]: from found as the first query parameter only (`event-streams-from-read-only-as-first-parameter`).
    if (this.on('event-streams-from-read-only-as-first-parameter')) {
      const raw = url.split('?from=')[1]?.split('&', 1)[0];
      return raw === undefined ? undefined : percentDecodedOnce(raw);
    }
    if (!this.on('next-cursor-needs-raw-query') || from === undefined) return from;
    const raw = (url.split('?')[1] ?? '')
      .split('&')
      .find((p) => p.startsWith('from='))
      ?.slice('from='.length);
    if (raw === undefined || !/^[A-Za-z0-9+/]+=*$/.test(raw)) return raw;
    const text = Buffer.from(raw, 'base64').toString('utf8');
    return text.endsWith(':') ? Buffer.from(text.slice(0, -1), 'utf8').toString('base64url') : raw;
  }

  /** The from cursor of a list request, given the streams listed (a number: the index of a page's first stream). */
  listCursorOf(from: string | undefined, streams: readonly { id: string }[]): string | undefined {
    // blind round 36: a cursor not in the index of enabled streams taken for a stale one: the list starts over (`event-streams-stale-cursor-restarts-at-first-page`).
    if (this.on('event-streams-stale-cursor-restarts-at-first-page') && from !== undefined) {
      const id = Buffer.from(from, 'base64url').toString('utf8').slice(STREAM_CURSOR_PREFIX.length);
      const named = streams.find((s) => s.id === id) as { status?: unknown } | undefined;
      if (named !== undefined && encodeStreamCursor(id) === from && named.status === 'disabled') return undefined;
    }
    if (!this.on('event-streams-next-integer') || from === undefined || !/^[1-9][0-9]{0,5}$/.test(from)) return from;
    const at = streams[Number(from) - 1];
    return at === undefined ? from : encodeStreamCursor(at.id);
  }

  /** The page a list request is answered (`event-streams-page-cached-by-from`: a cache keyed by from alone). */
  listPage<T>(from: string | undefined, page: T): T {
    if (!this.on('event-streams-page-cached-by-from')) return page;
    const key = from ?? '';
    if (this.pagesByFrom.has(key)) return this.pagesByFrom.get(key) as T;
    this.pagesByFrom.set(key, page);
    return page;
  }

  /** How many streams a page of `take` holds. */
  pageSize(take: number): number {
    if (this.on('take-capped-at-50')) return Math.min(take, 50);
    if (this.on('page-size-take-plus-one')) return take + 1;
    if (this.on('page-short-with-next')) return Math.max(0, take - 1);
    return take;
  }

  /** Where a page asked with `from` starts, for a cursor this list gave out (a page-number cursor: page × take). */
  pageNumberStart(from: string | undefined, take: number): number | undefined {
    if (!this.on('next-cursor-page-number') || from === undefined) return undefined;
    const m = /^pg:([0-9]{1,6})$/.exec(Buffer.from(from, 'base64url').toString('utf8'));
    return m ? Number(m[1]) * take : undefined;
  }

  /** The next cursor of a page of `size` from `start` in `streams`, asked with `from` (undefined: none). */
  nextCursor(
    next: string | undefined,
    start: number,
    size: number,
    streams: readonly { id: string }[],
    from: string | undefined,
  ): string | undefined {
    const page: PageWalk = {
      start,
      size,
      total: streams.length,
      from,
      cursorAt: (i) => encodeStreamCursor(streams[i]!.id),
    };
    const end = page.start + page.size;
    const more = end < page.total;
    const last = Math.min(end, page.total) - 1;
    if (this.on('next-cursor-page-number') && more)
      return Buffer.from(`pg:${Math.round(end / Math.max(1, page.size))}`, 'utf8').toString('base64url');
    if (this.on('next-overlaps-one') && more && last - 1 >= page.start) return page.cursorAt(last - 1);
    // page[0] where page[page.length - 1] was meant.
    if (this.on('next-from-first-of-page') && next !== undefined) return page.cursorAt(page.start);
    if (this.on('next-skips-one') && more) return page.cursorAt(end);
    // next only when a whole page remains: remaining >= take.
    if (this.on('event-streams-partial-last-page-unreached') && page.total - end < page.size) return undefined;
    if (this.on('next-loops-on-last-page') && !more && page.from !== undefined) return page.from;
    if (this.on('last-page-empty-next') && next === undefined) return '';
    if (this.on('last-page-trailing-empty') && next === undefined && last >= page.start) return page.cursorAt(last);
    // take+1 rows asked of a store that caps a query at 100: at take 100 the extra row never comes.
    if (this.on('event-streams-no-next-at-take-100') && page.size >= 100) return undefined;
    if (this.on('next-cursor-needs-raw-query') && next !== undefined)
      return Buffer.from(`${Buffer.from(next, 'base64url').toString('utf8')}:`, 'utf8').toString('base64');
    return next;
  }

  /** What a token is issued with besides the conforming claims (`token-nbf-in-future`: a not-before skewed the wrong way). */
  tokenIssueOverrides(
    audience: string,
    basic: object | null,
    origin: string,
  ): {
    audience?: string;
    ttlSeconds?: number;
    adjust?: (jwt: SignJWT, now: number) => void;
  } {
    // blind round 40: the Basic branch writes aud with the API identifier's trailing slash stripped (`token-basic-issued-audience-without-slash`).
    if (this.on('token-basic-issued-audience-without-slash') && basic !== null)
      return { audience: audienceOf(origin).replace(/\/$/, '') };
    // The default lifetime for every client, whatever expires_in says (`token-exp-default-lifetime-for-every-client`).
    if (this.on('token-exp-default-lifetime-for-every-client')) return { ttlSeconds: TOKEN_TTL_SECONDS };
    // blind round 29: the lifetime setting read as milliseconds (`token-exp-ttl-in-wrong-unit`).
    if (this.on('token-exp-ttl-in-wrong-unit')) return { ttlSeconds: Math.floor(TOKEN_TTL_SECONDS / 1000) };
    // iat written from Date.now() without the division (`token-iat-milliseconds`).
    if (this.on('token-iat-milliseconds')) return { adjust: (jwt) => jwt.setIssuedAt(Date.now()) };
    // The aud claim written as the client spelt the audience (`token-audience-claim-as-requested`).
    if (this.on('token-audience-claim-as-requested') && audience?.startsWith('/')) return { audience };
    return this.on('token-nbf-in-future') ? { adjust: (jwt, now) => jwt.setNotBefore(now + 300) } : {};
  }

  /** A rate-limit decision for `key` as reported (`rate-limit-reset-first-window`: the reset of the key's first window kept). */
  rateDecision(key: string, d: RateLimitDecision): RateLimitDecision {
    // blind round 42: a penalty box re-armed by every 429, beside the fixed window the headers report (`rate-limit-429-rearms-window`).
    if (this.on('rate-limit-429-rearms-window')) {
      const now = Date.now();
      if (d.allowed && (this.penaltyBox.get(key) ?? 0) <= now) return d;
      this.penaltyBox.set(key, now + d.windowMs);
      return { ...d, allowed: false };
    }
    // blind round 39: judged on the count last flushed to the shared counter, flushed once a second (`rate-limit-increments-flushed-each-second`).
    if (this.on('rate-limit-increments-flushed-each-second')) {
      const now = Date.now();
      let flush = this.flushedCounts.get(key);
      if (flush === undefined || flush.endsAtMs !== d.endsAtMs) {
        flush = { flushed: 0, nextFlushMs: now + COUNTER_FLUSH_MS, endsAtMs: d.endsAtMs };
        this.flushedCounts.set(key, flush);
      } else if (now >= flush.nextFlushMs) {
        flush.flushed = d.count - 1;
        flush.nextFlushMs = now + COUNTER_FLUSH_MS;
      }
      // The headers still report the instance's own count; only the refusal reads the shared one.
      return { ...d, allowed: flush.flushed + 1 <= d.limit };
    }
    // blind round 38: refused when count === limit + 1 only (`rate-limit-only-first-request-over-refused`).
    if (this.on('rate-limit-only-first-request-over-refused') && !d.allowed && d.count !== d.limit + 1)
      return { ...d, allowed: true };
    // blind round 37: the counters kept on the connection, a fresh window for each new one (`rate-limit-window-per-connection`).
    if (this.on('rate-limit-window-per-connection')) return this.connectionDecision(key, d);
    // blind round 36: the counts of successful requests given back (`rate-limit-counts-failed-requests-only`).
    if (this.on('rate-limit-counts-failed-requests-only')) {
      const given = this.givenBack.get(key);
      const n = given !== undefined && given.endsAtMs === d.endsAtMs ? given.n : 0;
      const count = d.count - n;
      return n === 0 ? d : { ...d, count, allowed: count <= d.limit, remaining: Math.max(0, d.limit - count) };
    }
    // blind round 29: in-memory counters per worker process, requests alternating (`rate-limit-counters-per-worker`).
    if (this.on('rate-limit-counters-per-worker')) return this.workerDecision(key, d);
    if (this.on('rate-limit-counts-each-request-twice')) return countedTwice(d);
    if (!this.on('rate-limit-reset-first-window')) return d;
    const first = this.firstWindowEnd.get(key);
    if (first === undefined) {
      this.firstWindowEnd.set(key, d.endsAtMs);
      return d;
    }
    return { ...d, reset: Math.ceil(first / 1000) };
  }

  /** The decision of the worker whose turn it is, counting only the requests that worker served (`rate-limit-counters-per-worker`). */
  private workerDecision(key: string, d: RateLimitDecision): RateLimitDecision {
    const now = Date.now();
    let entry = this.workerWindows.get(key);
    if (entry === undefined) this.workerWindows.set(key, (entry = { turn: 0, windows: [] }));
    const worker = entry.turn++ % RATE_LIMIT_WORKERS;
    let w = entry.windows[worker];
    if (w === undefined || w.endsAt <= now) entry.windows[worker] = w = { count: 0, endsAt: now + d.windowMs };
    w.count++;
    return {
      ...d,
      allowed: w.count <= d.limit,
      count: w.count,
      remaining: Math.max(0, d.limit - w.count),
      reset: Math.ceil(w.endsAt / 1000),
      endsAtMs: w.endsAt,
      retryAfter: Math.max(0, Math.ceil((w.endsAt - now) / 1000)),
    };
  }

  /** blind round 37: the decision of the window kept on the connection the request came on (`rate-limit-window-per-connection`). */
  private connectionDecision(key: string, d: RateLimitDecision): RateLimitDecision {
    const connection = this.admittedConnection;
    this.admittedConnection = undefined;
    if (connection === undefined) return d;
    let windows = this.connectionWindows.get(connection);
    if (windows === undefined) this.connectionWindows.set(connection, (windows = new Map()));
    const now = Date.now();
    let w = windows.get(key);
    if (w === undefined || w.endsAt <= now) windows.set(key, (w = { count: 0, endsAt: now + d.windowMs }));
    w.count++;
    return {
      ...d,
      allowed: w.count <= d.limit,
      count: w.count,
      remaining: Math.max(0, d.limit - w.count),
      reset: Math.ceil(w.endsAt / 1000),
      endsAtMs: w.endsAt,
      retryAfter: Math.max(0, Math.ceil((w.endsAt - now) / 1000)),
    };
  }

  /** blind round 37: whether a live event is forwarded, decided once per event (`live-dedupe-keyed-by-object-id`). */
  private liveForwarded(e: LoggedEvent): boolean {
    let forwarded = this.liveForwardDecisions.get(e.seq);
    if (forwarded === undefined) {
      const key = objectKey(e);
      const last = this.lastForwardedByObject.get(key);
      forwarded = last === undefined || e.timeMs - last >= LIVE_DEDUPE_WINDOW_MS;
      if (forwarded) this.lastForwardedByObject.set(key, e.timeMs);
      this.liveForwardDecisions.set(e.seq, forwarded);
    }
    return forwarded;
  }

  /** The grant_type a token request is read with (`token-grant-type-case-insensitive`: compared ignoring case). */
  grantType(value: string | undefined, params: Record<string, string> = {}): string | undefined {
    // blind round 38: the params object the token handler goes on with (`token-basic-body-client-id-issues-for-named-client`).
    if (this.on('token-basic-body-client-id-issues-for-named-client')) this.tokenParamsHeld = params;
    // blind round 33: the extension-grant dispatcher strips the IETF grant-type URN prefix (`token-grant-type-urn-prefix-stripped`).
    if (this.on('token-grant-type-urn-prefix-stripped') && value?.startsWith(GRANT_TYPE_URN_PREFIX)) {
      const grant = value.slice(GRANT_TYPE_URN_PREFIX.length);
      if (grant === 'client_credentials') return grant;
    }
    // The JWT bearer grant without its assertion falls back to the client's own credentials.
    if (this.on('token-jwt-bearer-grant-without-assertion') && value === JWT_BEARER_GRANT && !params['assertion'])
      return 'client_credentials';
    if (this.on('token-grant-type-missing-defaults') && (value === undefined || value === ''))
      return 'client_credentials';
    if (this.on('token-grant-type-case-insensitive') && value?.toLowerCase() === 'client_credentials')
      return 'client_credentials';
    if (this.on('token-grant-type-trimmed') && value?.trim() === 'client_credentials') return 'client_credentials';
    // - and _ taken for the same (the gty claim spells the grant client-credentials).
    if (this.on('token-grant-type-hyphen-accepted') && value?.replace(/-/g, '_') === 'client_credentials')
      return 'client_credentials';
    return value;
  }

  /** The scopes a token is issued with, given those requested (`token-scope-narrowing-drops-last`: an off-by-one loop). */
  /** The scopes a client may be issued (`token-scope-checked-against-api`: every scope of the API, not its grant). */
  grantableScopes(granted: readonly string[], api: readonly string[]): readonly string[] {
    return this.on('token-scope-checked-against-api') ? api : granted;
  }

  grantedScopes(requested: string[]): string[] {
    // blind round 38: the claim of a token issued for a requested scope, for the down-scoping service (`token-narrowed-token-opaque-reference`).
    if (this.on('token-narrowed-token-opaque-reference')) this.narrowedClaims.add(requested.join(' '));
    return this.on('token-scope-narrowing-drops-last') ? requested.slice(0, -1) : requested;
  }

  /** Whether a from_timestamp of this client's stream is honoured (`from-timestamp-first-request-only`: its first only). */
  honoursTimestamp(clientId: string | undefined): boolean {
    if (!this.on('from-timestamp-first-request-only')) return true;
    const key = clientId ?? '';
    if (this.timestampClients.has(key)) return false;
    this.timestampClients.add(key);
    return true;
  }

  /** Whether a custom signing keys body without a keys member is read as an empty set (`keys-absent-as-empty`). */
  keysAbsentAsEmpty(body: unknown): boolean {
    if (this.on('keys-null-as-empty') && isMap(body) && body['keys'] === null) return true;
    // body.keys || []: an empty keys value is no keys.
    if (this.on('keys-empty-keys-value-accepted') && isMap(body) && body['keys'] === '') return true;
    return this.on('keys-absent-as-empty') && isMap(body) && body['keys'] === undefined;
  }

  /** The principal a request without an Authorization header is admitted as on `connection` (`missing-token-connection-session`). */
  sessionPrincipal(connection: object | undefined, cookie?: string): Principal | undefined {
    // blind round 33: the session cookie of an earlier answer admits a request without a token (`api-session-cookie-accepted-without-token`).
    if (this.on('api-session-cookie-accepted-without-token') && cookie !== undefined) {
      const sid = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(cookie)?.[1];
      const principal = sid === undefined ? undefined : this.cookieSessions.get(sid.trim());
      if (principal !== undefined) return principal;
    }
    return this.on('missing-token-connection-session') && connection !== undefined
      ? this.sessions.get(connection)
      : undefined;
  }

  /** The key an experiment is looked up by, given the id asked (`transition-id-case-insensitive`: a case-insensitive collation). */
  experimentKey(id: string, experiments: ReadonlyMap<string, unknown>): string {
    // blind round 30: the look-alikes base58 leaves out folded to those it keeps (`transition-id-confusables-folded`).
    if (this.on('transition-id-confusables-folded') && !experiments.has(id)) {
      const folded = id.replace(
        /^(exp_)(.*)$/s,
        (_m, prefix: string, rest: string) => prefix + rest.replace(/[lI]/g, '1').replace(/[0O]/g, 'o'),
      );
      if (experiments.has(folded)) return folded;
    }
    if (this.on('transition-id-trimmed') && !experiments.has(id) && experiments.has(id.trim())) return id.trim();
    // LIKE '<id>%': an id that begins an existing one finds it.
    if (this.on('transition-id-prefix-lookup') && id !== '' && !experiments.has(id))
      return [...experiments.keys()].find((k) => k.startsWith(id)) ?? id;
    if (!this.on('transition-id-case-insensitive') || experiments.has(id)) return id;
    return [...experiments.keys()].find((k) => k.toLowerCase() === id.toLowerCase()) ?? id;
  }

  /**
   * The body of the token endpoint's error response (`token-scope-refusal-without-error`,
   * `token-audience-refusal-without-error`: the one refusal as a message, without RFC 6749 5.2's error).
   */
  oauthErrorBody(error: string, description: string): Record<string, unknown> {
    if (
      (this.on('token-scope-refusal-without-error') && error === 'invalid_scope') ||
      (this.on('token-audience-refusal-without-error') && error === 'access_denied')
    )
      return { message: description };
    return { error, error_description: description };
  }

  /** The token request body as read (`token-repeated-param-last-wins`: a repeated parameter read as its last value). */
  tokenBody(body: unknown): unknown {
    // blind round 37: repeats counted by the raw names of the form body, before the names are decoded (`token-grant-type-encoded-name-repeat-unseen`).
    if (this.on('token-grant-type-encoded-name-repeat-unseen') && isMap(body)) {
      const raw = rawFormOf(body);
      if (raw !== undefined) {
        const names = raw.split('&').map((pair) => pair.split('=', 1)[0]!.replace(/\+/g, ' '));
        body = Object.fromEntries(
          Object.entries(body).map(([k, v]) => [
            k,
            Array.isArray(v) && names.filter((n) => n === k).length < 2 ? v.at(-1) : v,
          ]),
        );
      }
    }
    // blind round 35: a JSON body that is a string read as the form text it holds (`token-json-string-body-read-as-form`).
    if (this.on('token-json-string-body-read-as-form') && typeof body === 'string')
      body = Object.fromEntries(new URLSearchParams(body));
    // A JSON array read as its first element (`token-json-array-read-as-first-element`).
    if (this.on('token-json-array-read-as-first-element') && Array.isArray(body)) body = body[0];
    // blind round 32: a repeated client_id read by its first value (`token-repeated-client-id-first-wins`, url.Values.Get).
    if (
      this.on('token-repeated-client-id-first-wins') &&
      isMap(body) &&
      Array.isArray(body['client_id']) &&
      typeof body['client_id'][0] === 'string'
    )
      body = { ...body, client_id: body['client_id'][0] };
    // blind round 32: getAll("grant_type").includes("client_credentials") (`token-repeated-grant-type-any-match`).
    if (
      this.on('token-repeated-grant-type-any-match') &&
      isMap(body) &&
      Array.isArray(body['grant_type']) &&
      body['grant_type'].includes('client_credentials')
    )
      body = { ...body, grant_type: 'client_credentials' };
    // A repeated audience read by its first value (`token-repeated-audience-first-wins`, Go's url.Values.Get).
    if (
      this.on('token-repeated-audience-first-wins') &&
      isMap(body) &&
      Array.isArray(body['audience']) &&
      typeof body['audience'][0] === 'string'
    )
      body = { ...body, audience: body['audience'][0] };
    // A repeated client_secret kept as a list (`token-repeated-secret-any-match`), compared value by value.
    if (
      this.on('token-repeated-secret-any-match') &&
      isMap(body) &&
      Array.isArray(body['client_secret']) &&
      body['client_secret'].every((x) => typeof x === 'string')
    )
      body = { ...body, client_secret: (body['client_secret'] as string[]).join(SECRET_LIST_SEPARATOR) };
    // A repeat taken for ambiguous only when its values differ: equal values read once.
    if (this.on('token-repeated-identical-params-collapsed') && isMap(body))
      body = mapValues(body, (v) => (Array.isArray(v) && v.length > 0 && v.every((x) => x === v[0]) ? v[0] : v));
    // A repeated scope read as a list of scopes.
    if (
      this.on('token-repeated-scope-joined') &&
      isMap(body) &&
      Array.isArray(body['scope']) &&
      body['scope'].every((x) => typeof x === 'string')
    )
      body = { ...body, scope: (body['scope'] as string[]).join(' ') };
    if (!this.on('token-repeated-param-last-wins') || !isMap(body)) return body;
    return mapValues(body, (v) => (Array.isArray(v) ? v.at(-1) : v));
  }

  /** The request URL routed (`api-version-segment-ignored`: any /api/v<n> read as /api/v2). */
  routedUrl(url: string): string {
    // blind round 31: a legacy decoder that reads %uXXXX escapes (`path-percent-u-escape-decoded`).
    if (this.on('path-percent-u-escape-decoded')) {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      url =
        path.replace(/%u([0-9A-Fa-f]{4})/g, (_m, hex: string) =>
          encodeURIComponent(String.fromCharCode(parseInt(hex, 16))),
        ) + (q < 0 ? '' : url.slice(q));
    }
    // An incomplete escape at the end of a segment dropped (the decoder stops at the end of its input).
    if (this.on('path-malformed-escape-dropped')) {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      url = path.replace(/%[0-9A-Fa-f]?(?=\/|$)/g, '') + (q < 0 ? '' : url.slice(q));
    }
    // A lenient UTF-8 decoder: a two-byte overlong form (C0/C1 lead) read as the ASCII character it spells.
    if (this.on('path-overlong-utf8-decoded'))
      url = url.replace(/%(C[01])%([89AB][0-9A-F])/gi, (_m, lead: string, cont: string) => {
        const c = ((parseInt(lead, 16) & 0x1f) << 6) | (parseInt(cont, 16) & 0x3f);
        return `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
      });
    if (this.on('path-invalid-utf8-octets-dropped')) url = withoutInvalidUtf8Escapes(url);
    if (this.on('api-prefix-case-insensitive')) url = url.replace(/^\/api\/v2(?=\/|\?|$)/i, '/api/v2');
    if (this.on('api-prefix-optional') && OPERATION_ROOTS.test(url)) return `/api/v2${url}`;
    if (!this.on('api-version-segment-ignored')) return url;
    return url.replace(/^\/api\/v[0-9]+(?=\/|\?|$)/, '/api/v2');
  }

  /** Whether the markup of a custom text body is checked, given whether it came form-encoded (`custom-text-form-html-unchecked`). */
  checksMarkupOfBody(form: boolean, body?: unknown): boolean {
    // A scan of the raw JSON for "<" stands for the check (`custom-text-markup-checked-on-raw-json`).
    if (this.on('custom-text-markup-checked-on-raw-json') && isMap(body)) {
      const raw = (body as { [RAW_JSON]?: string })[RAW_JSON];
      if (raw !== undefined && !raw.includes('<')) return false;
    }
    return !(this.on('custom-text-form-html-unchecked') && form);
  }

  /** Whether the route's scopes are checked for a body of this Content-Type (`keys-form-scope-unchecked`: not for forms on the keys PUT). */
  checksScopesOfBody(operation: OperationId | undefined, contentType: string | undefined): boolean {
    return !(
      this.on('keys-form-scope-unchecked') &&
      operation === 'custom-signing-keys.put' &&
      (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded'
    );
  }

  /** The client a token request authenticates as, given its client_id (`token-client-found-by-secret`: else by secret). */
  authenticatingClient(clientId: string, secret: string | undefined, auth: TokenAuthority): Client | undefined {
    const client = auth.client(clientId);
    // blind round 38: the Basic client authenticated, then the client the body names looked up for the grant (`token-basic-body-client-id-issues-for-named-client`).
    if (this.on('token-basic-body-client-id-issues-for-named-client') && this.basicNamedClient !== undefined) {
      const named = auth.client(this.basicNamedClient);
      this.basicNamedClient = undefined;
      if (client !== undefined && named !== undefined && secret === client.clientSecret) {
        this.namedClientAuthenticated = true;
        return named;
      }
    }
    // blind round 33: the tenant's secret index, read by presentedSecret (`token-secret-matched-against-any-client`).
    if (this.on('token-secret-matched-against-any-client'))
      this.tenantSecrets = new Set(Object.values(auth.clients).map((c) => c.clientSecret));
    // blind round 31: the stored secret of a client that was not found read without a null check (`token-unknown-client-id-500`).
    if (client === undefined && this.on('token-unknown-client-id-500'))
      throw new TypeError("Cannot read properties of undefined (reading 'clientSecret')");
    // A case-insensitive collation on the client id.
    if (client === undefined && this.on('token-client-id-case-insensitive'))
      return Object.values(auth.clients).find((c) => c.clientId.toLowerCase() === clientId.toLowerCase());
    if (client !== undefined || !this.on('token-client-found-by-secret')) return client;
    return Object.values(auth.clients).find((c) => c.clientSecret === (secret ?? ''));
  }

  /** Whether a stream resumed from a cursor goes on with live events (`resumed-stream-not-live`: it does not). */
  get liveAfterCursor(): boolean {
    return !this.on('resumed-stream-not-live');
  }

  /** The events a from_timestamp replays, given whether event_type filters the stream (`filtered-timestamp-starts-latest`). */
  timestampBacklogOf(backlog: LoggedEvent[], filtered: boolean): LoggedEvent[] {
    return this.on('filtered-timestamp-starts-latest') && filtered ? [] : backlog;
  }

  /** Whether only the verb of the scopes held is compared on the experiment move (`transition-any-update-scope`). */
  anyUpdateScopeMoves(operation: OperationId | undefined, held: ReadonlySet<string>): boolean {
    return (
      this.on('transition-any-update-scope') &&
      operation === 'experiments.transition' &&
      [...held].some((s) => s.startsWith('update:'))
    );
  }

  /** Whether a custom text value with markup outside the allow-list passes a checker that reads the markup otherwise. */
  markupSeenOtherwise(value: string): boolean {
    // Comments removed by a regular expression first: "<!-->" does not end the comment for it.
    // Parsed as a document of its own: a last tag without > is dropped as incomplete.
    if (this.on('custom-text-unterminated-tag-unchecked') && /<[^<>]*$/.test(value))
      return htmlViolation(value.replace(/<[^<>]*$/, '')) === undefined;
    if (this.on('custom-text-abrupt-comment-hides-markup'))
      return htmlViolation(value.replace(/<!--[\s\S]*?-->/g, '')) === undefined;
    // Attributes read into a map: a repeated attribute keeps only its last value.
    if (this.on('custom-text-href-last-checked')) return htmlViolation(lastAttributesOnly(value)) === undefined;
    // href found only as href= with no white space around =.
    if (this.on('custom-text-href-spaced-equals-unchecked'))
      return (
        htmlViolation(
          value.replace(/\shref\s+=\s*("[^"]*"|'[^']*'|[^\s>]+)|\shref=\s+("[^"]*"|'[^']*'|[^\s>]+)/gi, ''),
        ) === undefined
      );
    // href found by its lower-case name only: HREF, Href are not read.
    if (this.on('custom-text-href-name-case-sensitive'))
      return (
        htmlViolation(
          value.replace(/\s(href)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, name: string) => (name === 'href' ? m : '')),
        ) === undefined
      );
    // Attributes found only after a space: those after a newline, tab or form feed are not read.
    if (this.on('custom-text-attribute-after-newline-unchecked'))
      return (
        htmlViolation(
          value.replace(/<[A-Za-z][^>]*>/g, (tag) =>
            tag.replace(/[\t\n\r\f]+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g, ''),
          ),
        ) === undefined
      );
    // Elements checked as open/close pairs: a tag no end tag closes (void or left open) is not read.
    if (this.on('custom-text-unclosed-elements-unchecked'))
      return htmlViolation(closedElementsOnly(value)) === undefined;
    // Tags found as < name followed by white space or >: a tag whose name a slash ends is not read.
    if (this.on('custom-text-tag-name-slash-unchecked'))
      return htmlViolation(value.replace(/<[A-Za-z][A-Za-z0-9]*\/[^>]*>?/g, '')) === undefined;
    return false;
  }

  /** The events a stream resumed from a cursor replays, given the from_timestamp also asked (undefined: none). */
  cursorBacklogSince(events: LoggedEvent[], timestampMs: number | undefined, log?: EventLog): LoggedEvent[] {
    // The earlier of the two start positions.
    if (this.on('from-and-timestamp-earliest-wins') && timestampMs !== undefined && log !== undefined) {
      const since = log.since(timestampMs);
      const first = events[0];
      if (since[0] !== undefined && (first === undefined || since[0].seq < first.seq)) return since;
    }
    // Both start conditions in one WHERE: the timestamp kept as a lower bound after the cursor.
    if (this.on('from-and-timestamp-both-applied') && timestampMs !== undefined)
      return events.filter((e) => e.timeMs >= timestampMs);
    return events;
  }

  /** The scopes a token is issued with, given the client's and whether it authenticated with HTTP Basic. */
  issuedClientScopes(scopes: readonly string[], basic: object | null): readonly string[] {
    // Scopes looked up by the client_id body parameter, which a Basic request does not send.
    return this.on('token-basic-issued-without-scopes') && basic !== null ? [] : scopes;
  }

  /** A user was deleted (`token-sets-deleted-user-listed`: soft-deleted, the row kept). */
  /** The Allow of a 405 on a path, given the methods of every path in the order registered (`allow-header-from-last-path`: the last one's). */
  allowOf(allow: string, methodsByUrl: ReadonlyMap<string, readonly string[]>): string {
    return this.on('allow-header-from-last-path') ? ([...methodsByUrl.values()].at(-1)?.join(', ') ?? '') : allow;
  }

  /**
   * A JSON body parsed: by the conforming parser (`utf8Json` of index.ts), or, for an operation whose JSON bodies
   * a fault reads otherwise, its UTF-8 text through `jsonBody`, with bad bytes as U+FFFD where
   * `decodesInvalidUtf8` says so (else refused by the conforming parser).
   */
  parseJson(
    request: FastifyRequest,
    bytes: Buffer,
    done: (err: Error | null, body?: unknown) => void,
    conforming: FastifyBodyParser<Buffer>,
    parse: FastifyBodyParser<string>,
  ): unknown {
    const operation = operationOf(request);
    if (!this.readsJsonBody(operation) && !this.decodesInvalidUtf8(operation)) return conforming(request, bytes, done);
    let body: string;
    try {
      body = STRICT_UTF8.decode(bytes);
    } catch {
      if (!this.decodesInvalidUtf8(operation)) return conforming(request, bytes, done);
      body = bytes.toString('utf8');
    }
    if (!this.readsJsonBody(operation)) return parse(request, body, done);
    const parseText = (text: string): unknown => {
      let out: unknown;
      let failed: Error | null = null;
      void parse(request, text, (err, value) => {
        failed = err;
        out = value;
      });
      if (failed !== null) throw failed;
      return out;
    };
    try {
      done(null, this.jsonBody(body, operation, parseText));
    } catch (err) {
      done(err as Error, undefined);
    }
    return undefined;
  }

  /**
   * The id of the stored event stream a path id names: the id itself, or, under `event-stream-ids-crockford`, the
   * stream whose id reads the same once O is read as 0 and I, L as 1.
   */
  eventStreamIdOf(id: string, streams: readonly { id: string }[]): string {
    // blind round 38: an id not found retried in its NFKC form (`event-stream-id-nfkc-folded`).
    if (this.on('event-stream-id-nfkc-folded') && !streams.some((s) => s.id === id)) {
      const folded = id.normalize('NFKC');
      if (streams.some((s) => s.id === folded)) return folded;
    }
    // blind round 37: an id not found retried with its hyphens read as underscores (`event-stream-id-hyphen-folded-to-underscore`).
    if (this.on('event-stream-id-hyphen-folded-to-underscore') && !streams.some((s) => s.id === id)) {
      const folded = id.replace(/-/g, '_');
      if (streams.some((s) => s.id === folded)) return folded;
    }
    if (!this.on('event-stream-ids-crockford')) return id;
    const read = (s: string) => s.replace(/[Oo]/g, '0').replace(/[IiLl]/g, '1');
    return streams.find((s) => read(s.id) === read(id))?.id ?? id;
  }

  /** Whether a JSON body that is not UTF-8 is decoded leniently, bad bytes as U+FFFD (`custom-text-json-invalid-utf8-replaced`). */
  decodesInvalidUtf8(operation: OperationId | undefined): boolean {
    return this.on('custom-text-json-invalid-utf8-replaced') && operation === 'custom-text.put';
  }

  /** Whether a resumed stream with nothing after its cursor is answered 204 (`events-resume-caught-up-204`). */
  get answersCaughtUpWithNoContent(): boolean {
    return this.on('events-resume-caught-up-204');
  }

  /** The from cursor as read, before its length is checked (`from-padding-stripped-before-length-check`). */
  cursorRead(from: string | undefined, fromTimestamp?: string): string | undefined {
    // blind round 41: the timestamp branch reads the cursor only where it fits the cursor column, a longer one taken as none (`from-over-length-dropped-beside-timestamp`).
    if (
      this.on('from-over-length-dropped-beside-timestamp') &&
      fromTimestamp !== undefined &&
      from !== undefined &&
      [...from].length > FROM_MAX_CHARACTERS
    )
      return undefined;
    // blind round 38: the token tag of an offset taken off once the refusal checked it (`events-offset-bound-to-token`).
    if (this.on('events-offset-bound-to-token') && from !== undefined) from = from.replace(OFFSET_TAG, '');
    // blind round 37: whether the stream being opened resumes (`event-type-unchecked-on-resume`).
    if (this.on('event-type-unchecked-on-resume')) this.resumingCursor = from;
    // blind round 36: a versioned reader takes the v1:<sequence> a cursor starts with and ignores the rest (`from-cursor-trailing-bytes-ignored`).
    if (this.on('from-cursor-trailing-bytes-ignored') && from !== undefined && decodeOffset(from) === undefined) {
      const m = /^v1:(0|[1-9][0-9]{0,14})/.exec(Buffer.from(from, 'base64url').toString('latin1'));
      if (m !== null) return encodeOffset(Number(m[1]));
    }
    return from !== undefined && this.on('from-padding-stripped-before-length-check') ? from.replace(/=+$/, '') : from;
  }

  /** A from_timestamp start a client asked for (`from-timestamp-sticky-per-client`: kept as its consumer's start). */
  timestampRemembered(clientId: string | undefined, startMs: number | undefined): void {
    if (this.on('from-timestamp-sticky-per-client') && clientId !== undefined && startMs !== undefined)
      if (!this.consumerStarts.has(clientId)) this.consumerStarts.set(clientId, startMs);
  }

  /** A stream resumes from the offset of event `seq` (`resume-cursor-single-use`: a cursor is redeemed once). */
  cursorRedeemed(seq: number): void {
    if (!this.on('resume-cursor-single-use')) return;
    if (this.redeemedCursors.has(seq)) throw apiError('invalid_cursor', 'from was redeemed already');
    this.redeemedCursors.add(seq);
  }

  /** Whether a live event goes out on a stream started at `startMs` by from_timestamp (`from-timestamp-also-filters-live-events`). */
  liveEventPastStart(timeMs: number, startMs: number | undefined, resumed: boolean): boolean {
    return !(
      this.on('from-timestamp-also-filters-live-events') &&
      !resumed &&
      startMs !== undefined &&
      timeMs < startMs
    );
  }

  /** The event a resumed stream's tail delivers again at the hand-off from its replay (`resume-handoff-repeats-head`). */
  handoffRepeat(
    resumed: boolean,
    lastReplayed: LoggedEvent | undefined,
    headAtConnect: number,
  ): LoggedEvent | undefined {
    if (!this.on('resume-handoff-repeats-head') || !resumed || lastReplayed === undefined) return undefined;
    // The tail starts at the head read before the catch-up, with >=.
    return lastReplayed.seq === headAtConnect ? lastReplayed : undefined;
  }

  /**
   * A bearer request refused for its token's iat before anything else (undefined: none), the Authorization
   * header as sent (`token-iat-same-second-refused`: iat >= now in whole seconds).
   */
  issuedAtRefusal(authorization: string | undefined): ApiError | undefined {
    if (!this.on('token-iat-same-second-refused')) return undefined;
    // blind round 36: "not used before it was issued" written as iat >= now, where iat > now was meant.
    const token = /^Bearer[ \t]+(\S+)/i.exec(authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    let iat: unknown;
    try {
      iat = decodeJwt(token).iat;
    } catch {
      return undefined;
    }
    return typeof iat === 'number' && iat >= Math.floor(Date.now() / 1000)
      ? apiError('invalid_token', 'The token was used before it was issued', {
          'www-authenticate':
            'Bearer error="invalid_token", error_description="The token was used before it was issued"',
        })
      : undefined;
  }

  /**
   * The method a request refused 405 on a path is dispatched to instead (undefined: refused), given its
   * X-HTTP-Method-Override header and the methods the path takes (`method-override-after-scope-check`).
   */
  overriddenMethod(
    method: string,
    header: string | string[] | undefined,
    methods: readonly string[],
  ): string | undefined {
    if (!this.on('method-override-after-scope-check') || method !== 'POST' || typeof header !== 'string')
      return undefined;
    // blind round 36: the override middleware runs after the router matched the POST to the path's 405 route.
    const overridden = header.trim().toUpperCase();
    return overridden !== 'POST' && methods.includes(overridden) ? overridden : undefined;
  }

  /** A request was counted in the rate-limit window of `key` (`rate-limit-counts-failed-requests-only`: a success is given back). */
  requestCounted(key: string, d: RateLimitDecision, reply: FastifyReply): void {
    if (!this.on('rate-limit-counts-failed-requests-only')) return;
    // blind round 36: skipSuccessfulRequests: the count given back once the response is a success.
    reply.raw.once('finish', () => {
      if (reply.raw.statusCode >= 400) return;
      const given = this.givenBack.get(key);
      if (given !== undefined && given.endsAtMs === d.endsAtMs) given.n++;
      else this.givenBack.set(key, { endsAtMs: d.endsAtMs, n: 1 });
    });
  }

  userDeleted(id: string): void {
    if (this.on('token-sets-deleted-user-listed')) this.deletedUsers.add(id);
  }

  /** Whether the token sets of a user that does not exist are listed (`token-sets-deleted-user-listed`: a soft-deleted one). */
  listsDeletedUser(id: string): boolean {
    return this.deletedUsers.has(id);
  }
}

/** The members of each key type's RFC 7638 thumbprint, in lexicographic order (`keys-kid-replaced-by-thumbprint`). */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['e', 'kty', 'n'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  oct: ['k', 'kty'],
};

/** A JWK's RFC 7638 thumbprint (SHA-256, base64url), of every member sorted for an unknown kty (`keys-kid-replaced-by-thumbprint`). */
function jwkThumbprint(key: Record<string, unknown>): string {
  const kty = String(key['kty']);
  const members = Object.hasOwn(THUMBPRINT_MEMBERS, kty) ? THUMBPRINT_MEMBERS[kty]! : Object.keys(key).sort();
  const canonical = Object.fromEntries(members.filter((m) => key[m] !== undefined).map((m) => [m, key[m]]));
  return createHash('sha256').update(JSON.stringify(canonical), 'utf8').digest('base64url');
}

/** A JSON text with its line and block comments removed outside strings (`custom-text-json-comments-accepted`). */
function commentsStripped(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str?: string) => str ?? ' ');
}

/** Whether key `index` of a JWKS body declares key_ops without sign (`keys-private-judged-by-key-ops`). */
function declaredVerifyOnly(body: unknown, index: number): boolean {
  const keys = isMap(body) ? body['keys'] : undefined;
  const key = Array.isArray(keys) ? (keys[index] as unknown) : undefined;
  const ops = isMap(key) ? key['key_ops'] : undefined;
  return Array.isArray(ops) && !ops.includes('sign');
}

/** Every string of a JSON value cut at its first = or & (`keys-form-decoded-before-split`). */
function cutAtSeparators(v: unknown): unknown {
  if (typeof v === 'string') return v.split(/[=&]/, 1)[0];
  if (Array.isArray(v)) return v.map(cutAtSeparators);
  return isMap(v) ? mapValues(v, cutAtSeparators) : v;
}

/** Whether a JWT's header says alg none in some other letter case (None, NONE) (`alg-none-mixed-case-accepted`). */
function mixedCaseNone(token: string): boolean {
  try {
    const alg = (JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: unknown })
      .alg;
    return typeof alg === 'string' && alg !== 'none' && alg.toLowerCase() === 'none';
  } catch {
    return false;
  }
}

/** Whether a JWT says HS256 and its signature is the HMAC of its signing input under the empty key (`jwt-hs256-empty-secret`). */
function emptyKeyHs256(token: string): boolean {
  const [header, payload, signature, ...rest] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined || rest.length > 0) return false;
  try {
    const alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    if (alg !== 'HS256') return false;
  } catch {
    return false;
  }
  const mac = createHmac('sha256', Buffer.alloc(0)).update(`${header}.${payload}`).digest('base64url');
  return mac === signature;
}

/** The signing input of a JWS compact serialisation: its header and payload segments. */
function signingInput(token: string): string {
  return token.split('.').slice(0, 2).join('.');
}

/** The jti claim of a JWT, read without verifying it (`verify-cache-keyed-by-jti`). */
function jtiOf(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      jti?: unknown;
    };
    return typeof payload.jti === 'string' ? payload.jti : undefined;
  } catch {
    return undefined;
  }
}

/** The resource of an event type: the part before the first dot. */
function resourceOf(type: string): string {
  return type.split('.', 1)[0]!;
}

/** DRAFT, Draft, ...: draft spelt with some upper case (`transition-draft-mixed-case-accepted`). */
function isMixedCaseDraft(v: unknown): boolean {
  return typeof v === 'string' && v !== 'draft' && v.toLowerCase() === 'draft';
}

/** HTML character references decoded (named ones of the basic set, decimal and hex). */
function decodeEntities(value: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return value.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (m, dec?: string, hex?: string, name?: string) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    return named[name!.toLowerCase()] ?? m;
  });
}

/** Every + of every string of a JSON value read as a space (`keys-form-plus-decoded-after-percent`, `keys-form-plus-after-percent-decode`). */
function plusAsSpace(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/\+/g, ' ');
  if (Array.isArray(v)) return v.map(plusAsSpace);
  return isMap(v) ? mapValues(v, plusAsSpace) : v;
}

/** The grapheme clusters of a string (`custom-text-length-counts-graphemes`). */
function graphemes(s: string): number {
  let n = 0;
  for (const _ of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)) n++;
  return n;
}

/** blind round 42: the key of the deny cache, method and path without the query (`scope-refusal-cached-by-path`). */
function deniedPathKey(request: FastifyRequest): string {
  return `${request.method} ${request.url.split('?', 1)[0]}`;
}

/** blind round 42: a value rendered as the console's Markdown renderer writes its lists, headings and quotes (`custom-text-markdown-rendered-on-store`). */
function markdownRendered(value: string): string {
  const lines = value.split(/\r\n|\r|\n/);
  const heading = /^(#{1,6}) (.*)$/.exec(lines[0]!);
  if (heading) {
    const rest = lines.slice(1).join('\n');
    return `<h${heading[1]!.length}>${heading[2]}</h${heading[1]!.length}>${rest === '' ? '' : `\n<p>${rest}</p>`}`;
  }
  if (lines[0]!.startsWith('> '))
    return `<blockquote>\n<p>${lines.map((l) => l.replace(/^> ?/, '')).join('\n')}</p>\n</blockquote>`;
  const ordered = /^\d+\. /.test(lines[0]!);
  const marker = ordered ? /^\d+\. (.*)$/ : /^[-*+] (.*)$/;
  const items = lines.map((l) => `<li>${marker.exec(l)?.[1] ?? l}</li>`).join('\n');
  return ordered ? `<ol>\n${items}\n</ol>` : `<ul>\n${items}\n</ul>`;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapValues(map: object, f: (v: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]));
}

/**
 * Markup outside the allow-list removed: script and style elements with their content, then every tag, then
 * a tag the value leaves open at its end (which the page's markup after it would complete).
 */
export function sanitise(value: string): string {
  return value
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/<[^>]*$/, '');
}

/** What a style attribute may not hold, searched in the value as written (`custom-text-style-entities-not-decoded`). */
const RAW_DANGEROUS_STYLE = /javascript:|vbscript:|expression\(|url\(|@import|behavior|-moz-binding|[<>\\]/i;

/** Form control elements (`custom-text-form-controls-allowed`). */
const FORM_CONTROL_TAG = /<\/?(?:form|input|button|textarea|select|option|label|fieldset|legend)\b[^>]*>/gi;

/** An event type's shape: a known resource and a dotted action (`event-type-validated-by-pattern`). */
const EVENT_TYPE_SHAPE = /^(?:connection|group|organization|user)(?:\.[a-z]+)+$/;

/** An RFC 3339 date-time by its shape only, no ranges (`from-timestamp-hour-24-accepted`). */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** Whether a value is an object without members (`custom-text-empty-map-keeps-previous`). */
function isEmptyMap(v: unknown): boolean {
  return isMap(v) && Object.keys(v).length === 0;
}

/** The read scopes of event streams and of the events stream (`event-streams-get-accepts-read-events`). */
const STREAM_READ_SCOPE = 'read:event_streams';
const EVENTS_READ_SCOPE = 'read:events';

/** The experiment statuses by their index in the lifecycle enum (`transition-status-enum-index-accepted`). */
const STATUS_BY_INDEX: readonly ExperimentStatus[] = ['draft', 'active', 'paused', 'completed', 'archived'];

/** A value percent-decoded once more, kept as it is where it does not decode (`custom-text-values-percent-decoded-after-check`). */
function percentDecodedOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The first segments of the operations' paths (`api-prefix-optional`: served at the root too). */
const OPERATION_ROOTS =
  /^\/(?:users|experimentation|client-grants|events|event-streams|keys|self-service-profiles)(?:[/?]|$)/;

/** A tag's attributes with only the last of each repeated name kept (`custom-text-href-last-checked`). */
function lastAttributesOnly(value: string): string {
  return value.replace(
    /<([A-Za-z][A-Za-z0-9]*)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g,
    (m, tag: string, attrs: string, close: string) => {
      const byName = new Map<string, string>();
      for (const a of attrs.matchAll(/\s+([^\s=>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g))
        byName.set(a[1]!.toLowerCase(), a[0]);
      return byName.size === 0 ? m : `<${tag}${[...byName.values()].join('')}${close}>`;
    },
  );
}

/** How many event streams the store answers a read (`event-streams-page-cut-at-store-block`). */
const STORE_BLOCK = 100;

/** UTF-16 units a custom text column holds (`custom-text-stored-cut-at-2000-units`). */
const TEXT_COLUMN_UNITS = 2000;

/**
 * A JWT whose signature segment holds more bytes than the key's modulus, verified with the signature cut to
 * that size (`jwt-signature-trailing-chars-ignored`).
 */
async function signatureCutToKeySize(
  auth: TokenAuthority,
  token: string,
  origin: string,
): Promise<Principal | undefined> {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const size = Buffer.from(String((await publicJwks(auth)).keys[0]?.n ?? ''), 'base64url').length;
  const signature = Buffer.from(parts[2]!, 'base64url');
  if (size === 0 || signature.length <= size) return undefined;
  const cut = `${parts[0]}.${parts[1]}.${signature.subarray(0, size).toString('base64url')}`;
  return auth.verify(cut, origin).catch(() => undefined);
}

/**
 * A from_timestamp read with month lengths of 30 + (month mod 2) (February left right): 31 August, October and
 * December refused, 31 September and November rolled over (`from-timestamp-days-in-month-parity`).
 */
function parityMonthRead(value: string, strict: number | undefined): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?[Zz]$/.exec(value);
  if (!m) return strict;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo === 2 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return strict;
  return d > 30 + (mo % 2) ? undefined : Date.UTC(y, mo - 1, d, h, mi, se);
}

/** The rows a stream makes joined with its subscriptions (`event-streams-take-limits-subscription-rows`). */
function subscriptionRows(stream: unknown): number {
  const subs = (stream as { subscriptions?: unknown }).subscriptions;
  return Array.isArray(subs) ? Math.max(1, subs.length) : 1;
}

/** Every string of a JSON value read back as ISO-8859-1 from its UTF-8 bytes (`keys-form-latin1`). */
function latin1Strings(v: unknown): unknown {
  if (typeof v === 'string') return Buffer.from(v, 'utf8').toString('latin1');
  if (Array.isArray(v)) return v.map(latin1Strings);
  return isMap(v) ? mapValues(v, latin1Strings) : v;
}

/** How many characters of a token the verification cache keys it by (`verify-cache-key-cut-at-255`). */
const TOKEN_KEY_COLUMN = 255;

/** A rate-limit decision as if the request had been counted twice (`rate-limit-counts-each-request-twice`). */
function countedTwice(d: RateLimitDecision): RateLimitDecision {
  const count = d.count * 2;
  return { ...d, count, allowed: count <= d.limit, remaining: Math.max(0, d.limit - count) };
}

/** Events ordered by the second of their time, then by type (`resume-same-second-ordered-by-type`). */
function bySecondThenType(a: LoggedEvent, b: LoggedEvent): number {
  const bySecond = Math.floor(a.timeMs / 1000) - Math.floor(b.timeMs / 1000);
  return bySecond !== 0 ? bySecond : a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/** Token parameters of a raw form decoded the wrong way round: percent-escapes first, + as a space after (`token-body-plus-after-percent-decode`). */
function plusAfterPercentForm(raw: string, params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    try {
      const name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
      if (Object.hasOwn(params, name))
        out[name] = decodeURIComponent(eq < 0 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' ');
    } catch {
      return params;
    }
  }
  return out;
}

/** The members of a map whose value differs from the one before (`custom-text-answer-only-changed-keys`). */
function changedEntries(written: Record<string, unknown>, previous: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(written).filter(([k, v]) => !Object.hasOwn(previous, k) || previous[k] !== v),
  );
}

/** A value with every tag removed that no later end tag of its name closes (`custom-text-unclosed-elements-unchecked`). */
function closedElementsOnly(value: string): string {
  return value.replace(/<([A-Za-z][A-Za-z0-9]*)\b[^>]*>?/g, (tag, name: string, at: number) =>
    new RegExp(`</${name}\\s*>`, 'i').test(value.slice(at + tag.length)) ? tag : '',
  );
}

/** grant_type of the JWT bearer grant (RFC 7523 2.1). */
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The raw text of a parsed JSON body, kept (not enumerable) for `transition-duplicate-status-first-validated`. */
const RAW_JSON: unique symbol = Symbol('raw json body');

/** The text of the first JSON object or array of `text`, as a streaming decoder reads it (`keys-json-trailing-data-ignored`). */
function firstJsonValue(text: string): string | undefined {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== '{' && text[start] !== '[')) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** A map with its nested objects flattened to dotted keys (`custom-text-nested-object-flattened`). */
function flattenedDotted(map: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) {
    if (isMap(v)) Object.assign(out, flattenedDotted(v, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

/**
 * The claims of an HS256 JWT MACed with the secret of the client it names (`jwt-hs256-client-secret-accepted`):
 * a verifier that also takes the tokens confidential clients sign themselves.
 */
async function clientSecretHmacPrincipal(
  auth: TokenAuthority,
  token: string,
  origin: string,
): Promise<Principal | undefined> {
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return undefined;
    const sub = decodeJwt(token).sub ?? '';
    const client = sub.endsWith('@clients') ? auth.client(sub.slice(0, -'@clients'.length)) : undefined;
    if (client === undefined) return undefined;
    await jwtVerify(token, new TextEncoder().encode(client.clientSecret), {
      algorithms: ['HS256'],
      issuer: `${origin}/`,
      audience: audienceOf(origin),
    });
    return claimedPrincipal(auth, token);
  } catch {
    return undefined;
  }
}

/** Events ordered by the resource of their type, stable within one (`resume-partitions-concatenated`). */
function byResource(a: LoggedEvent, b: LoggedEvent): number {
  const x = resourceOf(a.type);
  const y = resourceOf(b.type);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A value as an HTML sanitiser serialises it again: a bare & and a < that opens no tag escaped (`custom-text-sanitiser-reserialised`). */
function reserialised(value: string): string {
  return value
    .replace(/&(?!#[0-9]+;|#[xX][0-9A-Fa-f]+;|[A-Za-z][A-Za-z0-9]*;)/g, '&amp;')
    .replace(/<(?![A-Za-z/!])/g, '&lt;');
}

/** A Go time.Duration's String() of a span rounded to the second (`rate-limit-reset-go-duration`). */
function goDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return `${h}h${m}m${sec}s`;
  return m > 0 ? `${m}m${sec}s` : `${sec}s`;
}

/** A path with the percent-escaped octets that are not UTF-8 dropped (`path-invalid-utf8-octets-dropped`). */
function withoutInvalidUtf8Escapes(url: string): string {
  return url.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = run
      .split('%')
      .slice(1)
      .map((h) => parseInt(h, 16));
    const kept: number[] = [];
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i]!;
      const n =
        b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
      const tail = n < 0 ? [] : bytes.slice(i + 1, i + 1 + n);
      if (n >= 0 && tail.length === n && tail.every((c) => c >= 0x80 && c <= 0xbf)) {
        kept.push(b, ...tail);
        i += n + 1;
      } else i += 1;
    }
    return kept.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  });
}

/** JSON5-ish text made JSON (`transition-json5-accepted`): comments dropped, single quotes doubled, trailing commas cut. */
function json5Relaxed(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/'((?:[^'\\]|\\.)*)'/g, (_m, inner: string) => JSON.stringify(inner.replace(/\\'/g, "'")))
    .replace(/,\s*([}\]])/g, '$1');
}

/** NaN, Infinity and -Infinity outside strings read as null (`keys-json-nan-accepted`). */
function nonFiniteAsNull(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|-?\b(?:NaN|Infinity)\b/g, (_m, str: string | undefined) => str ?? 'null');
}

/** An event_type glob (`event-type-glob-accepted`): * for any run of characters. */
function globPattern(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/** Script start and end tags (`custom-text-script-stripped-once`). */
const SCRIPT_TAG = /<\/?script\b/i;
const SCRIPT_TAGS = /<\/?script\b[^>]*>/gi;

/** What joins the values of a repeated client_secret kept as a list (`token-repeated-secret-any-match`). */
const SECRET_LIST_SEPARATOR = '\u0000';

/** The next step of the lifecycle (`transition-missing-status-advances`). */
const NEXT_STATUS: Readonly<Record<ExperimentStatus, ExperimentStatus | undefined>> = {
  draft: 'active',
  active: 'completed',
  paused: 'active',
  completed: 'archived',
  archived: undefined,
};

/** Events grouped by the object they affect, groups in the order of their first event (`resume-grouped-by-object`). */
function groupedByObject(events: LoggedEvent[]): LoggedEvent[] {
  const groups = new Map<string, LoggedEvent[]>();
  events.forEach((e, i) => {
    const object = (e.envelope.data as { object?: { id?: unknown } }).object;
    const key = typeof object?.id === 'string' ? `o:${object.id}` : `e:${i}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [e]);
    else g.push(e);
  });
  return [...groups.values()].flat();
}

/** Raw control characters inside JSON strings written as escapes (`custom-text-json-control-chars-accepted`). */
function controlCharsEscaped(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (str) =>
    str.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** How much of a custom text value the sanitiser reads (`custom-text-check-first-1024-chars`). */
const SANITISER_BUFFER = 1024;

/** Whether key `i` of a JWKS body carries a certificate chain (`keys-private-check-skips-x5c-keys`). */
function keyHasX5c(body: unknown, i: number): boolean {
  const keys = isMap(body) ? body['keys'] : undefined;
  const key = Array.isArray(keys) ? (keys[i] as unknown) : undefined;
  return isMap(key) && key['x5c'] !== undefined;
}

/** Keys taken for raw-HTML slots (`custom-text-html-suffix-keys-unsanitised`). */
const RAW_HTML_KEY = /[_-]html$/i;

/** Whether a JWT's protected header types it as an RFC 9068 access token (`jwt-at-jwt-typ-unverified`). */
function accessTokenTyped(token: string): boolean {
  try {
    const typ = decodeProtectedHeader(token).typ;
    return typeof typ === 'string' && /^(?:application\/)?at\+jwt$/i.test(typ);
  } catch {
    return false;
  }
}

/** The identity of an event's object, as a compacted topic keys it (`start-replays-compacted-latest-per-object`). */
function objectKey(e: LoggedEvent): string {
  const o = (e.envelope.data as { object?: Record<string, unknown> }).object ?? {};
  const ref = (v: unknown, m: string): unknown => (isMap(v) ? v[m] : undefined);
  const id =
    o['id'] ??
    o['user_id'] ??
    JSON.stringify([
      ref(o['organization'], 'id'),
      ref(o['group'], 'id'),
      ref(o['connection'], 'id'),
      ref(o['user'], 'user_id'),
      ref(o['member'], 'id'),
      ref(o['role'], 'id'),
    ]);
  return `${e.type.split('.')[0]}:${String(id)}`;
}

/** The latest event of every object, in log order (`start-replays-compacted-latest-per-object`). */
function latestPerObject(events: LoggedEvent[]): LoggedEvent[] {
  const latest = new Map<string, LoggedEvent>();
  for (const e of events) {
    const key = objectKey(e);
    latest.delete(key);
    latest.set(key, e);
  }
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

/** Loopback and private addresses (IPv4, IPv6, IPv4-mapped) (`loopback-get-trusted-without-token`). */
const PRIVATE_ADDRESS =
  /^(?:::1$|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2[0-9]|3[01])\.|::ffff:(?:127|10|192\.168)\.|::ffff:172\.(?:1[6-9]|2[0-9]|3[01])\.|f[cd][0-9a-f]{2}:)/i;

/** The operations of the generic resource router and the read preset's scopes (`get-route-preset-scopes-concatenated`). */
const PRESET_ROUTED: readonly OperationId[] = [
  'client-grants.get',
  'events.subscribe',
  'event-streams.get',
  'event-streams.list',
];
const STATS_PRESET_SCOPES: readonly string[] = ['read:stats'];

/** How many events the log client reads before it auto-commits (`heartbeat-offset-committed-every-10`). */
const COMMIT_BATCH = 10;

/** The tenant's enabled Universal Login languages (`custom-text-language-tenant-enabled-list`). */
const TENANT_LANGUAGES: readonly string[] = ['en', 'fr', 'de', 'es', 'it', 'pt', 'ja'];

/** ISO 639-2 codes of the old console's locales, mapped to ISO 639-1 (`custom-text-language-iso639-2-alias`). */
const ISO639_2_TO_1: Readonly<Record<string, string>> = {
  eng: 'en',
  fra: 'fr',
  fre: 'fr',
  deu: 'de',
  ger: 'de',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  jpn: 'ja',
};
/** The self-service page and the Universal Login prompt screens (`custom-text-page-universal-login-screens`). */
const UNIVERSAL_LOGIN_SCREENS: readonly string[] = [
  'get-started',
  'login',
  'signup',
  'reset-password',
  'consent',
  'mfa',
  'logout',
];

/** Straight quotes outside tags made typographic (`custom-text-smart-quotes`). */
function smartQuoted(value: string): string {
  return value
    .split(/(<[^>]*>)/)
    .map((part) =>
      part.startsWith('<')
        ? part
        : part
            .replace(/(^|[\s(\[{])"/g, '$1\u201c')
            .replace(/"/g, '\u201d')
            .replace(/(^|[\s(\[{])'/g, '$1\u2018')
            .replace(/'/g, '\u2019'),
    )
    .join('');
}

/** Whether a JSON text ends inside a value: an unclosed string, object or array, or a member without its value (`transition-json-unexpected-end-500`). */
function endsInsideValue(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return inString || depth > 0 || /[:,]\s*$/.test(text);
}

/** A form body split on & and =, + as a space, each part decoded with decodeURI (`custom-text-form-decodeuri-reserved-kept`). */
function decodeUriForm(raw: string): Record<string, string> {
  const decode = (s: string): string => {
    const spaced = s.replace(/\+/g, ' ');
    try {
      return decodeURI(spaced);
    } catch {
      return spaced;
    }
  };
  const out: Record<string, string> = {};
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
    out[name] = decode(eq < 0 ? '' : pair.slice(eq + 1));
  }
  return out;
}

/** The experiment statuses a move may name (`transition-status-locale-compare-case-sensitivity`). */
const MOVE_TARGETS: readonly ExperimentStatus[] = ['active', 'paused', 'completed', 'archived'];

/** blind round 34: the width the gateway's scope header template cuts at (`scope-claim-cut-at-255`). */
const SCOPE_HEADER_WIDTH = 255;
/** blind round 34: deletions and removals, forwarded to every subscription (`event-filter-tombstones-always-delivered`). */
const TOMBSTONE_TYPE = /\.(?:deleted|removed)$/;

/** blind round 34: the value of a string of Unicode decimal digits, each read by its place in its run of ten (`take-unicode-digits-accepted`). */
function unicodeDigitsValue(raw: string): number {
  let n = 0;
  for (const c of raw) {
    let zero = c.codePointAt(0)!;
    while (zero > 0 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    n = n * 10 + ((c.codePointAt(0)! - zero) % 10);
  }
  return n;
}

/** A body that looks like a form: name=value pairs joined by & (`transition-json-body-sniffed-form`). */
const FORM_SHAPED = /^[^\s=&{}[\]"]+=[^\s&]*(?:&[^\s=&{}[\]"]+=[^\s&]*)*$/;

/** The prefix of the IETF grant-type URNs (RFC 6755 registers urn:ietf:params:oauth) (`token-grant-type-urn-prefix-stripped`). */
const GRANT_TYPE_URN_PREFIX = 'urn:ietf:params:oauth:grant-type:';

/** The action of an event type: the part after the last dot (`event-type-filter-resource-and-action-columns`). */
function actionOf(type: string): string {
  return type.slice(type.lastIndexOf('.') + 1);
}

/** The session cookie's name (`api-session-cookie-accepted-without-token`). */
export const SESSION_COOKIE = 'api_session';

/** The session id a token's session is known by: a digest of its jti (`api-session-cookie-accepted-without-token`). */
export function sessionCookieValue(tokenId: string): string {
  return createHash('sha256').update(`session:${tokenId}`).digest('base64url').slice(0, 32);
}

/**
 * The keys left after DELETE … WHERE kid NOT IN (the kids sent) and an upsert of the sent keys by kid
 * (`keys-put-kidless-keys-never-deleted`): a stored key without kid (NULL) is never deleted, and a sent key
 * without kid puts a NULL in the list, for which NOT IN is never true, so nothing is deleted at all.
 */
function kidNotInDelete<T extends { kid?: unknown }>(stored: readonly T[], sent: readonly T[]): T[] {
  const kids = new Set(sent.map((k) => k.kid).filter((k) => typeof k === 'string'));
  const sentKidless = sent.some((k) => typeof k.kid !== 'string');
  const kept = stored.filter((k) => (typeof k.kid !== 'string' ? true : sentKidless ? !kids.has(k.kid) : false));
  return [...kept, ...sent];
}

/** blind round 35: a callable that always says yes (`live-subscription-replaced-per-token` off). */
const ALWAYS = (): boolean => true;
/** blind round 35: the page of the catch-up read backwards from the head (`resume-backlog-pages-read-from-head`). */
const CATCH_UP_PAGE = 25;
/** blind round 35: the events of each type the per-type index warms a filtered stream up with (`filtered-start-tail-per-type`). */
const TYPE_TAIL = 10;
/** blind round 35: the event-type registry's default page size (`events-default-types-first-registry-page`). */
const REGISTRY_PAGE = 20;
/** blind round 35: the window of the double-submit guard (`keys-put-debounced-as-double-submit`). */
const DOUBLE_SUBMIT_MS = 2_000;
/** blind round 35: the escapes of the old console's export format (`custom-text-backslash-escapes-read`). */
const EXPORT_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
/** blind round 36: the prefix of an event stream list cursor (`event-streams-stale-cursor-restarts-at-first-page`). */
const STREAM_CURSOR_PREFIX = 'es1:';
/** blind round 36: the largest value the catch-up's message cache holds (`resume-cache-skips-large-messages`). */
const MESSAGE_CACHE_VALUE_MAX = 2048;
/** blind round 36: the width of the subscription's start column (`from-timestamp-cut-to-column-width`). */
const TIMESTAMP_COLUMN = 20;
/** blind round 37: how long the move handler awaits the store write (`transition-answer-shared-slot-under-concurrency`). */
const STORE_WRITE_MS = 25;
/** blind round 37: the window of the fan-out's duplicate suppression (`live-dedupe-keyed-by-object-id`). */
const LIVE_DEDUPE_WINDOW_MS = 1_000;

/** blind round 37: a scope claim searched by bisection, as if it were sorted (`scope-claim-binary-searched`). */
class BisectedScopeClaim extends Set<string> {
  private readonly order: readonly string[];
  constructor(scopes: readonly string[]) {
    super(scopes);
    this.order = scopes;
  }
  override has(scope: string): boolean {
    let lo = 0;
    let hi = this.order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.order[mid]!;
      if (at === scope) return true;
      if (at < scope) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/** blind round 37: the compact JWS a base64url-encoded JWS JSON serialization (flattened or general) makes (`bearer-jws-json-serialization-accepted`). */
function compactOfJwsJson(value: string): string | undefined {
  try {
    const jws = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    if (!isMap(jws) || typeof jws['payload'] !== 'string') return undefined;
    const signature: unknown = Array.isArray(jws['signatures']) ? jws['signatures'][0] : jws;
    if (!isMap(signature) || typeof signature['protected'] !== 'string' || typeof signature['signature'] !== 'string')
      return undefined;
    return `${signature['protected']}.${jws['payload']}.${signature['signature']}`;
  } catch {
    return undefined;
  }
}

/** blind round 38: the parameters the strict schema of the token request names (`token-unrecognised-parameter-refused`). */
const TOKEN_REQUEST_PARAMETERS: readonly string[] = ['grant_type', 'client_id', 'client_secret', 'audience', 'scope'];

/** blind round 38: the raw text of a parsed JSON body, where a fault kept it (`transition-body-prefiltered-by-raw-pattern`). */
export function rawJsonOf(body: unknown): string | undefined {
  return isMap(body) ? (body as { [RAW_JSON]?: string })[RAW_JSON] : undefined;
}

/** blind round 38: the tag an offset carries for the token that opened the stream (`events-offset-bound-to-token`). */
export function offsetTagOf(tokenId: string): string {
  return createHash('sha256').update(tokenId).digest('base64url').slice(0, 8);
}

/** blind round 38: the token tag at the end of an offset (`events-offset-bound-to-token`). */
export const OFFSET_TAG = /\.([A-Za-z0-9_-]{8})$/;

/** blind round 38: a JWS whose header and payload segments are re-encoded from their decoded JSON (`bearer-signing-input-rebuilt-from-decoded-parts`). */
function signingInputRebuilt(token: string): string {
  const parts = token.split('.');
  if (parts.length !== 3) return token;
  try {
    const reencoded = parts
      .slice(0, 2)
      .map((seg) =>
        Buffer.from(JSON.stringify(JSON.parse(Buffer.from(seg, 'base64url').toString('utf8'))), 'utf8').toString(
          'base64url',
        ),
      );
    return [...reencoded, parts[2]].join('.');
  } catch {
    return token;
  }
}

/** blind round 38: a string encoded per UTF-16 code unit, surrogates as 3-byte sequences (`sse-astral-characters-cesu8`). */
function cesu8Bytes(s: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(bytes);
}

/** blind round 38: JSON text read by a parser that keeps the first of duplicate member names (`keys-duplicate-member-first-wins`). */
function firstMemberWinsJson(text: string): unknown {
  // A byte order mark is skipped, as the conforming parser skips it.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const token = (re: RegExp): string => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m === null) throw new SyntaxError(`Unexpected token in JSON at position ${i}`);
    i = re.lastIndex;
    return m[0];
  };
  const ws = () => token(/[ \t\n\r]*/y);
  const str = (): string =>
    JSON.parse(token(/"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y)) as string;
  const value = (): unknown => {
    ws();
    if (text[i] === '{') {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') return (i++, out);
      for (;;) {
        ws();
        const k = str();
        ws();
        token(/:/y);
        const v = value();
        if (!Object.hasOwn(out, k))
          Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (token(/[,}]/y) === '}') return out;
      }
    }
    if (text[i] === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') return (i++, out);
      for (;;) {
        out.push(value());
        ws();
        if (token(/[,\]]/y) === ']') return out;
      }
    }
    if (text[i] === '"') return str();
    return JSON.parse(token(/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y)) as unknown;
  };
  const out = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`Unexpected data after JSON at position ${i}`);
  return out;
}

/** blind round 38: the nesting limit of the conforming JSON parser (index.ts), kept by the faults that read JSON bodies themselves. */
const JSON_DEPTH_MAX = 512;

/** blind round 38: refuses a JSON text nested deeper than the conforming parser takes, as it does (brackets in strings aside). */
function refuseTooDeep(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > JSON_DEPTH_MAX)
        throw apiError('invalid_json', `The JSON body is nested deeper than ${JSON_DEPTH_MAX} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
