/**
 * What the route files share: the route definition shape (method, path,
 * scopes, accepted media types, handler) and small request readers that
 * turn bad input into catalogue errors.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatErrors, validate, type SchemaName } from '../../schemas/index.js';
import { apiError } from '../errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: Method;
  /** Full path including /api/v2, fastify syntax (`:id`). */
  url: string;
  /** Any one of these scopes admits the caller. */
  scopes: readonly string[];
  /** Accepted request media types when a body is present (default: JSON only). */
  contentTypes?: readonly string[];
  handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

export const JSON_ONLY = ['application/json'] as const;
export const JSON_OR_FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** The request's media type, lower-cased, without parameters ('' when none). */
export function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** A path parameter (fastify has already percent-decoded it). */
export function param(request: FastifyRequest, name: string): string {
  const v = (request.params as Record<string, string | undefined>)[name];
  return v ?? '';
}

/** Length in code points, as JSON Schema's maxLength counts. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A query parameter that may occur at most once; repeated → 400. */
export function singleQuery(request: FastifyRequest, name: string): string | undefined {
  const v = (request.query as Record<string, unknown> | undefined)?.[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw apiError('invalid_query_string', `Query parameter ${name} must be given at most once`);
  return v;
}

/** A query parameter that may repeat (`?a=1&a=2`), as a list. */
export function repeatedQuery(request: FastifyRequest, name: string): string[] {
  const v = (request.query as Record<string, unknown> | undefined)?.[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a request body against a schema of schemas/; 400 `invalid_body` with the reasons. */
export function validateBody(name: SchemaName, body: unknown): void {
  if (body === undefined) throw apiError('invalid_body', 'Payload validation error: a request body is required');
  const r = validate(name, body);
  if (!r.valid) throw apiError('invalid_body', `Payload validation error: ${formatErrors(r.errors).replace(/\n/g, '; ')}`);
}

export const nowIso = (): string => new Date().toISOString();

/** The member the `extra-members` variant adds to every object: one the document does not list. */
export const EXTRA_MEMBER = 'x_conformance_unlisted';

/** A deep copy of a JSON value with EXTRA_MEMBER added to every object (the `extra-members` variant). */
export function withExtraMembers<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withExtraMembers(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withExtraMembers(v);
  out[EXTRA_MEMBER] = 'a member the document does not list';
  return out as T;
}
