/**
 * What only the fault layer reads of a request: the operation it was routed
 * to (the conforming routes are registered per operation), its media type
 * (the conforming routes leave that to fastify's content-type parsers) and
 * the raw text of a form body (kept by the form parser for the faults that
 * read a form otherwise).
 */
import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../../spec/operations.js';
import { isPlainObject } from '../routes/shared.js';

/** Where the form parser keeps a form body's raw text (not enumerable: the routes never see it). */
const RAW_FORM: unique symbol = Symbol('raw form body');

/** The operation of the interface a request was routed to (none for the emulator's own routes). */
export function operationOf(request: FastifyRequest): OperationId | undefined {
  return request.routeOptions.config?.operation;
}

/** Keeps a form body's raw text on what the form parser made of it, for rawFormOf. */
export function keepRawForm(parsed: object, body: string): void {
  Object.defineProperty(parsed, RAW_FORM, { value: body, enumerable: false });
}

/** The request's media type, lower-cased, without parameters ('' when none). */
export function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** The raw text of a parsed form body, if `body` came from the form parser. */
export function rawFormOf(body: unknown): string | undefined {
  return isPlainObject(body) ? (body as { [RAW_FORM]?: string })[RAW_FORM] : undefined;
}
