/**
 * The eight operations of the interface, plus the token endpoint, as data.
 * Paths are relative to {base_url} (tenant host + /api/v2); the token path
 * is relative to {auth_url} (the tenant host).
 *
 * `scopes` is what a caller needs. Only the token-set listing has a documented
 * scope; for the others the document says "Required scope: not shown", so the
 * emulator picks one from the `<verb>:<resource>` scope catalogue
 * (`scopeDocumented: false`) and the suite never fails a target on that
 * choice: it only checks that a token holding none of the in-scope scopes is refused.
 */
export type OperationId =
  | 'token-sets.list'
  | 'experiments.transition'
  | 'client-grants.get'
  | 'events.subscribe'
  | 'event-streams.get'
  | 'event-streams.list'
  | 'custom-signing-keys.put'
  | 'custom-text.put'
  | 'oauth.token';

export interface Operation {
  id: OperationId;
  /** Playwright tag selecting this operation's checks, e.g. `@token-sets`. */
  tag: string;
  /** Section of the interface document. */
  section: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path template; `{name}` marks a path parameter. */
  path: string;
  /** Any one of these scopes suffices. */
  scopes: readonly string[];
  scopeDocumented: boolean;
  /** Whether the operation changes state (never sent with CONFORMANCE_WRITES=none). */
  writes: boolean;
  requestContentTypes?: readonly string[];
}

export const operations = [
  {
    id: 'token-sets.list',
    tag: '@token-sets',
    section: 'Endpoints 1. List token sets of a user',
    method: 'GET',
    path: '/users/{id}/federated-connections-tokensets',
    scopes: ['read:federated_connections_tokens'],
    scopeDocumented: true,
    writes: false,
  },
  {
    id: 'experiments.transition',
    tag: '@experiments',
    section: 'Endpoints 2. Transition an experiment',
    method: 'POST',
    path: '/experimentation/experiments/{id}/status',
    scopes: ['update:experimentation'],
    scopeDocumented: false,
    writes: true,
    requestContentTypes: ['application/json'],
  },
  {
    id: 'client-grants.get',
    tag: '@client-grants',
    section: 'Endpoints 3. Get a client grant',
    method: 'GET',
    path: '/client-grants/{id}',
    scopes: ['read:client_grants'],
    scopeDocumented: false,
    writes: false,
  },
  {
    id: 'events.subscribe',
    tag: '@sse',
    section: 'Endpoints 4. Subscribe to events (Server-Sent Events)',
    method: 'GET',
    path: '/events',
    scopes: ['read:events'],
    scopeDocumented: false,
    writes: false,
  },
  {
    id: 'event-streams.get',
    tag: '@event-streams',
    section: 'Endpoints 5. Get an event stream',
    method: 'GET',
    path: '/event-streams/{id}',
    scopes: ['read:event_streams'],
    scopeDocumented: false,
    writes: false,
  },
  {
    id: 'event-streams.list',
    tag: '@event-streams',
    section: 'Endpoints 6. List event streams',
    method: 'GET',
    path: '/event-streams',
    scopes: ['read:event_streams'],
    scopeDocumented: false,
    writes: false,
  },
  {
    id: 'custom-signing-keys.put',
    tag: '@custom-signing-keys',
    section: 'Endpoints 7. Create or replace custom signing keys',
    method: 'PUT',
    path: '/keys/custom-signing',
    scopes: ['create:custom_signing_keys', 'update:custom_signing_keys'],
    scopeDocumented: false,
    writes: true,
    requestContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  },
  {
    id: 'custom-text.put',
    tag: '@custom-text',
    section: 'Endpoints 8. Set custom text for a self-service profile',
    method: 'PUT',
    path: '/self-service-profiles/{id}/custom-text/{language}/{page}',
    scopes: ['update:self_service_profile_custom_texts'],
    scopeDocumented: false,
    writes: true,
    requestContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  },
  {
    id: 'oauth.token',
    tag: '@auth',
    section: 'Authentication 2. OAuth 2.0 client-credentials scheme',
    method: 'POST',
    path: '/oauth/token/',
    scopes: [],
    scopeDocumented: true,
    writes: false,
    requestContentTypes: ['application/x-www-form-urlencoded'],
  },
] as const satisfies readonly Operation[];

export function operation(id: OperationId): Operation {
  const op = operations.find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/**
 * The paths (under {base_url}, no query) that are instances of the operation's path template: each
 * `{param}` one non-empty segment; with `trailingSlash`, a slash after the last segment too.
 */
export function pathPattern(op: Operation, trailingSlash = false): RegExp {
  return new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}${trailingSlash ? '/?' : ''}$`);
}

/** Every scope the interface's eight operations use (documented or chosen). */
export const inScopeScopes: readonly string[] = [...new Set(operations.flatMap((o) => o.scopes))];

type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;
type PathTemplate<Id extends OperationId> = Extract<(typeof operations)[number], { id: Id }>['path'];

/**
 * An operation's path under {base_url} (the token path: under {auth_url}),
 * its parameters filled in, each URI-encoded: the one place paths are written.
 */
export function pathOf<Id extends OperationId>(
  id: Id,
  ...params: [PathParams<PathTemplate<Id>>] extends [never] ? [] : [Record<PathParams<PathTemplate<Id>>, string>]
): string {
  const values = (params[0] ?? {}) as Record<string, string>;
  return operation(id).path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}
