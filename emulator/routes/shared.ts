/**
 * What the route files share: the route definition shape (method, path,
 * scopes, accepted media types, handler) and small request readers that
 * turn bad input into catalogue errors.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatErrors, validate, type SchemaName } from '../../schemas/index.js';
import { operation, type OperationId } from '../../spec/operations.js';
import { API_PREFIX } from '../context.js';
import { apiError } from '../errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: Method;
  /** Full path including /api/v2, fastify syntax (`:id`); for an operation, `routePath(id)`. */
  url: string;
  /** The operation of the interface it serves (none for the emulator's own routes). */
  operation?: OperationId;
  /** A read or delete a careful client snapshots and restores with (the document shows none of them). */
  snapshot?: boolean;
  /** Any one of these scopes admits the caller. */
  scopes: readonly string[];
  /** Accepted request media types when a body is present (default: JSON only). */
  contentTypes?: readonly string[];
  handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/** The route path of an operation: spec/operations.ts's path under /api/v2, `{id}` as fastify's `:id`. */
export function routePath(id: OperationId): string {
  return API_PREFIX + operation(id).path.replace(/\{(\w+)\}/g, ':$1');
}

/** What spec/operations.ts says of an operation's route: its method, path and scopes, written there once. */
export function operationRoute(id: OperationId): Pick<RouteDef, 'method' | 'url' | 'operation' | 'scopes'> {
  const op = operation(id);
  return { method: op.method, url: routePath(id), operation: id, scopes: op.scopes };
}

export const JSON_ONLY = ['application/json'] as const;

export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A path parameter of the route (fastify has already percent-decoded it; a route's own parameters are always there). */
export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name]!;
}

/** Length in code points, as JSON Schema's maxLength counts. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A query parameter that may occur at most once; repeated → 400. */
export function singleQuery(request: FastifyRequest, name: string): string | undefined {
  const v = (request.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw apiError('invalid_query_string', `Query parameter ${name} must be given at most once`);
  return v;
}

/** A query parameter that may repeat (`?a=1&a=2`), as a list. */
export function repeatedQuery(request: FastifyRequest, name: string): string[] {
  const v = (request.query as Record<string, unknown>)[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a request body against a schema of schemas/; 400 `invalid_body` with the reasons. */
export function validateBody(name: SchemaName, body: unknown): void {
  const r = validate(name, body);
  if (!r.valid)
    throw apiError('invalid_body', `Payload validation error: ${formatErrors(r.errors).replace(/\n/g, '; ')}`);
}

export const nowIso = (): string => new Date().toISOString();
