/**
 * How errors leave the emulator: the catalogue error of a route, a hook or
 * the router, through the mutations switched on (faults/mutations.ts) and,
 * with none switched on, as the error itself. How route answers pass the
 * fault layer is faults/answers.ts.
 */
import type { FastifyReply } from 'fastify';
import type { EmulatorContext } from './context.js';
import { keepConnectionIfBodyRead, type ApiError } from './errors.js';
import { sendAnswer } from './faults/answers.js';
import { operationOf } from './faults/requests.js';

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
