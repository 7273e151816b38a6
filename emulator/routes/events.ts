/**
 * Endpoints 4: GET /events — the tenant's events as a Server-Sent Events stream.
 *
 * - `from` (≤ 1024 characters): an offset this emulator gave out; the stream
 *   resumes strictly after it. Malformed, unknown (ahead of the log) or
 *   expired (older than the retained log) → 400 `invalid_cursor`.
 * - `from_timestamp` (≤ 20 characters, RFC 3339): without `from`, the stream
 *   starts at the first event at or after that time; else 400.
 * - Neither: the stream starts at the latest position (events after connecting).
 * - `event_type` (repeatable): only those types are delivered; an unknown
 *   type → 400 `invalid_query_string`.
 *
 * After the replayed events (if any), one `offset-only` message gives the
 * current position, then one every heartbeatMs. Each event message carries
 * `event: <type>`, `id: <offset>` and `data: {"offset","event"}`.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { operation } from '../../spec/operations.js';
import type { EmulatorContext, OpenStream } from '../context.js';
import { apiError } from '../errors.js';
import { decodeOffset, encodeOffset, isEventType, OFFSET_ONLY, sseMessage, type LoggedEvent } from '../events.js';
import { codePoints, repeatedQuery, singleQuery, type RouteDef } from './shared.js';

export const FROM_MAX = 1024;
export const FROM_TIMESTAMP_MAX = 20;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 date-time, or undefined (checks the calendar, not only the shape). */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, se] = m.map(Number) as [number, number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 60) return undefined;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > daysInMonth) return undefined;
  const ms = Date.parse(s.toUpperCase().replace(/:60(\.\d+)?(?=Z|[+-])/, ':59$1'));
  return Number.isNaN(ms) ? undefined : ms;
}

const wire = new WeakMap<LoggedEvent, string>();
/** An event's SSE message, built once however many streams carry it. */
function eventMessage(e: LoggedEvent): string {
  let m = wire.get(e);
  if (m === undefined) {
    m = sseMessage(e.type, e.offset, { offset: e.offset, event: e.envelope });
    wire.set(e, m);
  }
  return m;
}

interface StartPoint {
  backlog: LoggedEvent[];
  filter: ReadonlySet<string> | null;
}

function readQuery(ctx: EmulatorContext, request: FastifyRequest): StartPoint {
  const from = singleQuery(request, 'from');
  const fromTimestamp = singleQuery(request, 'from_timestamp');
  const types = repeatedQuery(request, 'event_type');
  for (const t of types) {
    if (!isEventType(t)) throw apiError('invalid_query_string', `event_type ${JSON.stringify(t.slice(0, 100))} is not an event type`);
  }
  const filter = types.length > 0 ? new Set(types) : null;

  let backlog: LoggedEvent[] = [];
  if (fromTimestamp !== undefined) {
    if (codePoints(fromTimestamp) > FROM_TIMESTAMP_MAX) throw apiError('invalid_query_string', `from_timestamp must be at most ${FROM_TIMESTAMP_MAX} characters`);
    const ms = parseRfc3339(fromTimestamp);
    if (ms === undefined) throw apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time');
    if (from === undefined) backlog = ctx.events.since(ms);
  }
  if (from !== undefined) {
    // The cursor is more accurate than a timestamp, so it wins when both are given.
    if (codePoints(from) > FROM_MAX) throw apiError('invalid_query_string', `from must be at most ${FROM_MAX} characters`);
    const seq = decodeOffset(from);
    if (seq === undefined || seq > ctx.events.position) throw apiError('invalid_cursor', 'from is not an offset this stream gave out');
    if (seq < ctx.events.oldestResumable) throw apiError('invalid_cursor', 'from is older than the events this stream keeps');
    backlog = ctx.events.after(seq);
  }
  return { backlog, filter };
}

function openStream(ctx: EmulatorContext, reply: FastifyReply, start: StartPoint): void {
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('error', () => {});
  const wanted = (e: LoggedEvent) => start.filter === null || start.filter.has(e.type);
  const heartbeat = () => {
    const offset = encodeOffset(ctx.events.position);
    res.write(sseMessage(OFFSET_ONLY, offset, { offset }));
  };

  // Replay and subscribe in one turn of the event loop: no event falls between.
  for (const e of start.backlog) if (wanted(e)) res.write(eventMessage(e));
  const unsubscribe = ctx.events.subscribe((e) => {
    if (wanted(e)) res.write(eventMessage(e));
  });
  heartbeat();
  const timer = setInterval(heartbeat, ctx.options.heartbeatMs);
  timer.unref();

  const handle: OpenStream = { close: () => res.end() };
  ctx.streams.add(handle);
  res.on('close', () => {
    clearInterval(timer);
    unsubscribe();
    ctx.streams.delete(handle);
  });
}

export function eventRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/events',
      scopes: operation('events.subscribe').scopes,
      handler: (request, reply) => {
        const start = readQuery(ctx, request);
        openStream(ctx, reply, start);
      },
    },
  ];
}
