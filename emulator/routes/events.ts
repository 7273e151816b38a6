/**
 * Endpoints 4: GET /events — the tenant's events as a Server-Sent Events stream.
 *
 * - `from` (≤ 1024 characters): an offset this emulator gave out; the stream
 *   resumes strictly after it. Malformed (one over 1024 characters is),
 *   unknown (ahead of the log) or expired (older than the retained log) →
 *   400 `invalid_cursor`.
 * - `from_timestamp` (≤ 20 characters, RFC 3339): without `from`, the stream
 *   starts at the first event at or after that time; else 400.
 * - Neither: the stream starts at the latest position (events after connecting).
 * - `event_type` (repeatable): only those types are delivered; an unknown
 *   type → 400 `invalid_query_string`.
 *
 * After the replayed events (if any), one `offset-only` message gives the
 * current position, then one every heartbeatMs. Each event message carries
 * `event: <type>`, `id: <offset>` and `data: {"offset","event"}`.
 *
 * Every decision a fault takes about a stream is asked of faults/event-stream.ts:
 * this file holds only what a conforming stream does.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext, OpenStream } from '../context.js';
import { apiError } from '../errors.js';
import { decodeOffset, encodeOffset, isEventType, OFFSET_ONLY, type LoggedEvent } from '../events.js';
import {
  clientOf,
  cursorBesideTimestamp,
  cursorChecked,
  cursorTaken,
  eventsAnswer,
  StreamFaults,
  timestampBacklog,
  timestampStartOf,
  type StreamStart,
} from '../faults/event-stream.js';
import type { SseFrame } from '../faults/mutations.js';
import { codePoints, repeatedQuery, singleQuery, type RouteDef, operationRoute } from './shared.js';

const SUBSCRIBE = 'events.subscribe';

export const FROM_MAX = 1024;
export const FROM_TIMESTAMP_MAX = 20;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 date-time, or undefined (checks the calendar, not only the shape). */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h] = m.map(Number) as [number, number, number, number, number];
  // Date.parse refuses a month 00 or 13, a day 00, a minute 60 and a second 61 itself, but takes 24:00:00 as the
  // next day's midnight, and the day after a month's last as the next month's first.
  if (h > 23) return undefined;
  // The Gregorian calendar's own rule (RFC 3339 5.7, Appendix C), for every year 0000-9999: Date.UTC would read
  // the years 0-99 as 1900-1999.
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  if (d > daysInMonth) return undefined;
  const ms = Date.parse(s.toUpperCase().replace(/:60(\.\d+)?(?=Z|[+-])/, ':59$1'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** The frame of one event's message: the payload `{ offset, event }` under `event: <type>` and `id: <offset>`. */
const messageFrame = (e: LoggedEvent): SseFrame => ({
  event: e.type,
  id: e.offset,
  data: { offset: e.offset, event: e.envelope },
});

/** The frame of a cursor-only heartbeat at `offset`. */
const heartbeatFrame = (offset: string): SseFrame => ({ event: OFFSET_ONLY, id: offset, data: { offset } });

function readQuery(ctx: EmulatorContext, request: FastifyRequest): StreamStart {
  const d = ctx.deviations;
  let from = d.cursorRead(singleQuery(request, 'from'), singleQuery(request, 'from_timestamp'));
  const fromTimestamp = singleQuery(request, 'from_timestamp');
  const types = d.eventTypesAsked(repeatedQuery(request, 'event_type'), clientOf(request));
  for (const t of d.eventTypesValidated(types)) {
    if (!isEventType(t) && !d.acceptsUnknownEventType && !d.acceptsAsEventType(t))
      throw apiError('invalid_query_string', `event_type ${JSON.stringify(t.slice(0, 100))} is not an event type`);
  }
  const filter = types.length > 0 ? new Set(types) : null;
  from = cursorTaken(d, from, filter, FROM_MAX);

  let timestampMs: number | undefined;
  if (fromTimestamp !== undefined) {
    // blind round 42: the cursor beside the timestamp, for checks that sit on the branch without one (`from-timestamp-unchecked-beside-cursor`).
    const max = d.fromTimestampMax(FROM_TIMESTAMP_MAX, fromTimestamp, from);
    if (codePoints(fromTimestamp) > max)
      throw apiError('invalid_query_string', `from_timestamp must be at most ${FROM_TIMESTAMP_MAX} characters`);
    const ms = d.fromTimestampRead(fromTimestamp, parseRfc3339(fromTimestamp), from);
    if (ms === undefined) throw apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time');
    timestampMs = timestampStartOf(d, ms, request);
    // The cursor is more accurate than a timestamp, so it wins when both are given.
    from = cursorBesideTimestamp(d, from);
  }
  if (from !== undefined) {
    // decodeOffset takes only an offset's canonical spelling (a few dozen characters): one over FROM_MAX is refused.
    const seq = decodeOffset(from);
    if (seq === undefined || d.cursorAhead(seq, ctx.events.position))
      throw apiError('invalid_cursor', 'from is not an offset this stream gave out');
    if (seq < ctx.events.oldestResumable)
      throw apiError('invalid_cursor', 'from is older than the events this stream keeps');
    cursorChecked(d, seq, ctx.events);
    // Strictly after the event the cursor names.
    const backlog = d.cursorBacklogSince(
      d.resumedBacklog(d.replayOrder(d.eventsAfter(ctx.events, d.resumeAfter(seq, ctx.events.historyPosition)))),
      timestampMs,
      ctx.events,
    );
    return { backlog, filter, from, fromTimestamp, timestampMs };
  }
  // Neither from nor from_timestamp: the stream starts at the latest position.
  if (fromTimestamp === undefined)
    return { backlog: d.replayWithoutStart(ctx.events, filter, clientOf(request)), filter };
  return { backlog: timestampBacklog(d, ctx.events, timestampMs, filter), filter, fromTimestamp, timestampMs };
}

function openStream(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, start: StreamStart): void {
  const head = ctx.mutations.answer(
    {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      },
      body: '',
    },
    request,
    SUBSCRIBE,
  );
  const stream = new StreamFaults(ctx.deviations, ctx.mutations, ctx.events, request, start);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(head.status, stream.headers({ ...(reply.getHeaders() as OutgoingHttpHeaders), ...head.headers }));
  res.flushHeaders();
  res.on('error', () => {});
  stream.open(res, head.body);
  const wanted = stream.eventFilter();
  const heartbeat = () => stream.send(stream.heartbeat(ctx.events.position, encodeOffset, heartbeatFrame));
  // Replay and subscribe in one turn of the event loop: no event falls between.
  const unsubscribe = ctx.events.subscribe((e) => {
    if (wanted.live(e.type)) for (const m of stream.live(e, messageFrame)) stream.send(m);
  });
  const replayed = ctx.deviations.replayInOrder(start.backlog, start.filter).filter((e) => wanted.replayed(e.type));
  stream.opening(() => {
    for (const m of stream.replayed(replayed, messageFrame)) stream.send(m);
  }, heartbeat);
  const periodic = stream.periodic(heartbeat, ctx.options.heartbeatMs);
  const timer = setInterval(periodic.beat, periodic.everyMs);
  timer.unref();

  const handle: OpenStream = { close: () => stream.end() };
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
      ...operationRoute(SUBSCRIBE),
      handler: (request, reply) => {
        const start = readQuery(ctx, request);
        return eventsAnswer(ctx.deviations, request, reply, start, () => openStream(ctx, request, reply, start));
      },
    },
  ];
}
