/**
 * How the fault layer reshapes what the routes answer: the route runner
 * (a refusal first, then the answer through the mutations switched on) and
 * the sender of a reshaped answer. With nothing switched on and no control
 * surface, a route's handler is registered as it is.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import type { Answer } from './mutations.js';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Sends an answer: status, headers (undefined removes one), then the body (JSON unless the headers say another media type). */
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
