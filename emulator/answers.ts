/**
 * How answers leave the emulator: the route runner and the error sender,
 * both through the mutations switched on (faults/mutations.ts), and with
 * none switched on, straight from the route.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../spec/operations.js';
import type { EmulatorContext } from './context.js';
import { keepConnectionIfBodyRead, type ApiError } from './errors.js';
import type { Answer } from './faults/mutations.js';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** The operation of the interface a request was routed to (none for the emulator's own routes). */
export function operationOf(request: FastifyRequest): OperationId | undefined {
  return request.routeOptions.config?.operation;
}

/** Sends an answer: status, headers, then the body (JSON unless the headers say another media type). */
export function sendAnswer(reply: FastifyReply, a: Answer): FastifyReply {
  reply.code(a.status);
  for (const [name, value] of Object.entries(a.headers)) {
    if (value === undefined) reply.removeHeader(name);
    else reply.header(name, value);
  }
  if (a.body === undefined) return reply.send();
  const type = reply.getHeader('content-type');
  const json = type === undefined || String(type).includes('json');
  return reply.send(json || typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
}

/**
 * A route's handler as registered: the handler itself when no mutation
 * touches the operation (the conforming fast path), else one that first
 * asks for a refusal, then passes the answer through the mutations.
 */
export function runner(ctx: EmulatorContext, operation: OperationId | undefined, handler: Handler): Handler {
  // With the control surface, faults may be switched while the emulator runs: decided per request.
  if (!ctx.options.control && !ctx.mutations.reshapes(operation)) return handler;
  return async (request, reply) => {
    if (!ctx.mutations.reshapes(operation)) return handler(request, reply);
    const refused = ctx.mutations.refusal(request, operation);
    if (refused !== undefined) throw refused;
    const body = await handler(request, reply);
    // Sent already (a 204, the SSE stream): nothing left to reshape.
    if (reply.sent) return reply;
    return sendAnswer(reply, ctx.mutations.answer({ status: reply.statusCode, body, headers: {} }, request, operation));
  };
}

/** Sends a catalogue error (from a route, a hook or the router) through the mutations. */
export function sendApiError(ctx: EmulatorContext, reply: FastifyReply, e: ApiError): void {
  keepConnectionIfBodyRead(reply);
  const request = reply.request;
  if (e.errorCode === 'internal_error')
    process.stderr.write(`emulator: internal error on ${request.method} ${request.url.split('?', 1)[0]}\n`);
  void sendAnswer(
    reply,
    ctx.mutations.answer({ status: e.statusCode, body: e.toBody(), headers: e.headers }, request, operationOf(request)),
  );
}
