/**
 * What only the fault layer reads of a request: its media type (the
 * conforming routes leave that to fastify's content-type parsers) and the
 * raw text of a form body (kept by the form parser for the faults that read
 * a form otherwise).
 */
import type { FastifyRequest } from 'fastify';
import { isPlainObject, RAW_FORM } from '../routes/shared.js';

/** The request's media type, lower-cased, without parameters ('' when none). */
export function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** The raw text of a parsed form body, if `body` came from the form parser. */
export function rawFormOf(body: unknown): string | undefined {
  return isPlainObject(body) ? (body as { [RAW_FORM]?: string })[RAW_FORM] : undefined;
}
