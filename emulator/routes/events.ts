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
import { createGzip, type Gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext, OpenStream } from '../context.js';
import { apiError } from '../errors.js';
import { decodeOffset, encodeOffset, isEventType, OFFSET_ONLY, sseFrame, type LoggedEvent } from '../events.js';
import type { SseFrame } from '../faults/mutations.js';
import { codePoints, repeatedQuery, singleQuery, type RouteDef, operationRoute } from './shared.js';

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

/** An SSE message on the wire: the raw lines before it, then `event`, `id` and the data lines. */
function wireOf(f: SseFrame): string {
  return (f.before ?? '') + sseFrame(f.event, f.id, typeof f.data === 'string' ? f.data : JSON.stringify(f.data));
}

type MessageCache = readonly [WeakMap<LoggedEvent, string>, WeakMap<LoggedEvent, string>];

/**
 * Each event's message, built once however many streams carry it (one cache for messages replayed after a
 * cursor, one for the others), per fault layer: switching faults (PUT /__control/faults) makes a new one,
 * so a message built under the faults before the switch is never served after it.
 */
const wire = new WeakMap<EmulatorContext['mutations'], MessageCache>();

/** The message of one event: the payload `{ offset, event }` under `event: <type>` and `id: <offset>`. */
function eventMessage(ctx: EmulatorContext, e: LoggedEvent, afterCursor: boolean): string {
  let caches = wire.get(ctx.mutations);
  if (caches === undefined) wire.set(ctx.mutations, (caches = [new WeakMap(), new WeakMap()]));
  const cache = caches[afterCursor ? 1 : 0];
  let m = cache.get(e);
  if (m === undefined) {
    m = wireOf(
      ctx.mutations.frame(
        'message',
        { event: e.type, id: e.offset, data: { offset: e.offset, event: e.envelope } },
        { logged: e, afterCursor },
      ),
    );
    cache.set(e, m);
  }
  return m;
}

/**
 * A cursor-only heartbeat at the current position (`resumedFrom`, the cursor a resumed stream started after, and
 * `liveDelivered`, the live events it sent, are for the fault layer).
 */
function heartbeatMessage(
  ctx: EmulatorContext,
  atConnect: number,
  lastDelivered?: string,
  resumedFrom?: string,
  liveDelivered = 0,
): string {
  const offset = ctx.deviations.heartbeatOffset(
    encodeOffset(ctx.deviations.heartbeatPosition(ctx.events.position, atConnect, ctx.events)),
    lastDelivered,
    resumedFrom,
    liveDelivered,
  );
  return wireOf(
    ctx.mutations.frame('heartbeat', { event: OFFSET_ONLY, id: offset, data: { offset } }, { afterCursor: false }),
  );
}

interface StartPoint {
  backlog: LoggedEvent[];
  filter: ReadonlySet<string> | null;
  /** Whether events appended after connecting are streamed. */
  live: boolean;
  /** Whether the stream resumes from a cursor (`from`). */
  resumed: boolean;
  /** Where a from_timestamp started the stream (epoch ms), for the fault layer. */
  timestampMs?: number | undefined;
}

function readQuery(ctx: EmulatorContext, request: FastifyRequest): StartPoint {
  let from = ctx.deviations.cursorRead(singleQuery(request, 'from'));
  const fromTimestamp = singleQuery(request, 'from_timestamp');
  const types = ctx.deviations.eventTypesAsked(repeatedQuery(request, 'event_type'), request.principal?.clientId);
  for (const t of ctx.deviations.eventTypesValidated(types)) {
    if (!isEventType(t) && !ctx.deviations.acceptsUnknownEventType && !ctx.deviations.acceptsAsEventType(t))
      throw apiError('invalid_query_string', `event_type ${JSON.stringify(t.slice(0, 100))} is not an event type`);
  }
  const filter = types.length > 0 ? new Set(types) : null;
  if (!ctx.deviations.readsCursor(filter !== null)) from = undefined;
  if (from !== undefined && codePoints(from) > FROM_MAX && ctx.deviations.dropsOverlongFrom) from = undefined;

  let backlog: LoggedEvent[] = [];
  let timestampMs: number | undefined;
  if (fromTimestamp !== undefined) {
    const max = ctx.deviations.fromTimestampMax(FROM_TIMESTAMP_MAX, fromTimestamp);
    if (codePoints(fromTimestamp) > max)
      throw apiError('invalid_query_string', `from_timestamp must be at most ${FROM_TIMESTAMP_MAX} characters`);
    const ms = ctx.deviations.fromTimestampRead(fromTimestamp, parseRfc3339(fromTimestamp));
    if (ms === undefined) throw apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time');
    const start = ctx.deviations.honoursTimestamp(request.principal?.clientId)
      ? ctx.deviations.timestampStart(ms)
      : undefined;
    timestampMs = start;
    ctx.deviations.timestampRemembered(request.principal?.clientId, start);
    // The cursor is more accurate than a timestamp, so it wins when both are given.
    if (from !== undefined && !ctx.deviations.cursorBeatsTimestamp) from = undefined;
    if (from === undefined && start !== undefined)
      backlog = ctx.deviations.timestampBacklogOf(ctx.deviations.timestampBacklog(ctx.events, start), filter !== null);
  }
  const resumed = from !== undefined;
  if (from !== undefined) {
    if (codePoints(from) > FROM_MAX)
      throw apiError('invalid_query_string', `from must be at most ${FROM_MAX} characters`);
    const seq = decodeOffset(from);
    if (seq === undefined || ctx.deviations.cursorAhead(seq, ctx.events.position))
      throw apiError('invalid_cursor', 'from is not an offset this stream gave out');
    if (seq < ctx.events.oldestResumable)
      throw apiError('invalid_cursor', 'from is older than the events this stream keeps');
    if (ctx.deviations.cursorExpired(seq, ctx.events, Date.now())) throw apiError('invalid_cursor', 'from has expired');
    ctx.deviations.cursorRedeemed(seq);
    // Strictly after the event the cursor names.
    backlog = ctx.deviations.cursorBacklogSince(
      ctx.deviations.resumedBacklog(
        ctx.deviations.replayOrder(
          ctx.deviations.eventsAfter(ctx.events, ctx.deviations.resumeAfter(seq, ctx.events.historyPosition)),
        ),
      ),
      timestampMs,
      ctx.events,
    );
  }
  // Neither from nor from_timestamp: the stream starts at the latest position.
  const unpositioned = from === undefined && fromTimestamp === undefined;
  if (unpositioned) backlog = ctx.deviations.replayWithoutStart(ctx.events, filter, request.principal?.clientId);
  const live = unpositioned
    ? ctx.deviations.liveWithoutStart
    : from !== undefined
      ? ctx.deviations.liveAfterCursor
      : ctx.deviations.liveAfterTimestamp;
  return { backlog, filter, live, resumed, timestampMs };
}

function openStream(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, start: StartPoint): void {
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
    'events.subscribe',
  );
  const headers = { ...(reply.getHeaders() as OutgoingHttpHeaders), ...head.headers } as OutgoingHttpHeaders;
  // A header an answer removes (undefined) is not written.
  for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
  const coding = ctx.deviations.eventStreamCoding(request.headers['accept-encoding']);
  if (coding !== undefined) headers['content-encoding'] = coding;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(head.status, headers);
  res.on('error', () => {});
  // What the stream is written to: the response, or (a fault's content coding) a compressor in front of it.
  const out: { write(chunk: string): unknown; end(): unknown } =
    coding === undefined ? res : (createGzip().on('error', () => {}) as Gzip);
  if (out !== res) (out as Gzip).pipe(res);
  let lastDelivered: string | undefined;
  // blind round 35: the stream's filter, for a writer that leaves the offset out of filtered streams (`filtered-stream-payload-offset-missing`).
  const send = (m: string) => out.write(ctx.deviations.sseWire(m, start.filter));
  // blind round 36: the caller's scopes, for a default subscription built from them (`events-default-types-from-caller-read-scopes`).
  const wanted = ctx.deviations.eventFilter(start.filter, request.principal?.scopes);
  const beats = ctx.deviations.heartbeats(ctx.options.heartbeatMs, start.filter);
  const atConnect = ctx.events.position;
  const resumedFrom = start.resumed ? singleQuery(request, 'from') : undefined;
  let dropNextLive = !start.resumed && ctx.deviations.dropsFirstLiveEvent;
  let deliveredLive = 0;
  // blind round 35: whether this stream still holds its token's live subscription (`live-subscription-replaced-per-token`).
  const subscribed = ctx.deviations.liveSubscription(request.principal?.tokenId);
  const heartbeat = () => send(heartbeatMessage(ctx, atConnect, lastDelivered, resumedFrom, deliveredLive));

  if (typeof head.body === 'string' && head.body !== '') send(head.body);
  const early = beats.first && ctx.deviations.heartbeatBeforeReplay;
  if (early) heartbeat();
  // Replay and subscribe in one turn of the event loop: no event falls between.
  const replayedEvents = ctx.deviations
    .replayInOrder(start.backlog, start.filter)
    .filter((e) => wanted.replayed(e.type));
  const replayed = replayedEvents.map((e) => eventMessage(ctx, e, start.resumed));
  lastDelivered = replayedEvents.at(-1)?.offset;
  for (const m of ctx.deviations.replayFrames(replayed)) send(m);
  const again = ctx.deviations.handoffRepeat(start.resumed, replayedEvents.at(-1), atConnect);
  if (again !== undefined) send(eventMessage(ctx, again, false));
  const unsubscribe = start.live
    ? ctx.events.subscribe((e) => {
        if (!wanted.live(e.type) || !ctx.deviations.takesLiveEvent(e.seq) || !subscribed()) return;
        if (!ctx.deviations.liveEventPastStart(e.timeMs, start.timestampMs, start.resumed)) return;
        if (!ctx.deviations.echoesToStreamOf(e, request.principal?.clientId)) return;
        if (dropNextLive) {
          dropNextLive = false;
          return;
        }
        deliveredLive++;
        const sent = ctx.deviations.liveEventSent(e, atConnect + deliveredLive);
        lastDelivered = sent.offset;
        send(eventMessage(ctx, sent, false));
        if (ctx.deviations.liveSentTwice(start.resumed)) send(eventMessage(ctx, sent, false));
      })
    : () => undefined;
  if (beats.first && !early) heartbeat();
  // Without a first heartbeat, the response head goes out on its own.
  else res.flushHeaders();
  // A stream opened without a start answered as a snapshot (`events-stream-ends-after-first-heartbeat`).
  const unpositioned =
    singleQuery(request, 'from') === undefined && singleQuery(request, 'from_timestamp') === undefined;
  if (beats.first && ctx.deviations.endsAfterFirstHeartbeat(unpositioned)) out.end();
  // blind round 35: the periodic heartbeat as written (`heartbeat-keepalive-timer-without-cursor`).
  const periodic = ctx.deviations.periodicHeartbeat(heartbeat, send);
  const timer = beats.everyMs === undefined ? undefined : setInterval(periodic, beats.everyMs);
  timer?.unref();

  const handle: OpenStream = { close: () => out.end() };
  ctx.streams.add(handle);
  res.on('close', () => {
    clearInterval(timer);
    unsubscribe();
    if (out !== res) (out as Gzip).destroy();
    ctx.streams.delete(handle);
  });
}

export function eventRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      ...operationRoute('events.subscribe'),
      handler: (request, reply) => {
        const start = readQuery(ctx, request);
        // "Caught up": a resumed request with nothing after its cursor (`events-resume-caught-up-204`).
        if (start.resumed && start.backlog.length === 0 && ctx.deviations.answersCaughtUpWithNoContent)
          return reply.code(204).send();
        // A JSON mode for clients that do not ask for text/event-stream (`events-json-without-sse-accept`).
        if (ctx.deviations.eventsAsJson(request.headers.accept))
          return start.backlog.map((e) => ({ offset: e.offset, event: e.envelope }));
        openStream(ctx, request, reply, start);
      },
    },
  ];
}
