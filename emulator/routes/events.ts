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
import { decodeOffset, encodeOffset, isEventType, OFFSET_ONLY, sseFrame, type EventEnvelope, type LoggedEvent } from '../events.js';
import { codePoints, repeatedQuery, singleQuery, withExtraMembers, type RouteDef } from './shared.js';

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
function eventMessage(ctx: EmulatorContext, e: LoggedEvent): string {
  let m = wire.get(e);
  if (m === undefined) {
    m = renderEvent(ctx, e);
    wire.set(e, m);
  }
  return m;
}

type Envelope = Omit<EventEnvelope, 'data'> & {
  data: { object: Record<string, unknown>; context: { request?: { geo?: Record<string, unknown> } } & Record<string, unknown> };
};

/** The wire form of one event: the payload `{ offset, event }` under `event: <type>` and `id: <offset>` (`offset` overrides the event's own). */
function renderEvent(ctx: EmulatorContext, e: LoggedEvent, offset = e.offset): string {
  const envelope = structuredClone(e.envelope) as unknown as Envelope;
  // Fault envelope-type-reverse-dns: the envelope type differs from the SSE event field.
  if (ctx.faults.has('envelope-type-reverse-dns')) envelope.type = `com.conformance.${e.type}`;
  // Fault context-latitude-string: latitude is a number.
  const geo = envelope.data.context.request?.geo;
  if (ctx.faults.has('context-latitude-string') && geo) geo['latitude'] = String(geo['latitude']);
  // Fault event-time-epoch-seconds: time is an RFC 3339 date-time.
  if (ctx.faults.has('event-time-epoch-seconds')) envelope.time = String(Math.floor(e.timeMs / 1000));
  // Fault envelope-double-encoded: event is the envelope object, not its JSON text.
  let payload: Record<string, unknown> = { offset, event: ctx.faults.has('envelope-double-encoded') ? JSON.stringify(envelope) : envelope };
  // Fault event-offset-only-in-id: the payload carries the offset.
  if (ctx.faults.has('event-offset-only-in-id')) delete payload['offset'];
  // Fault payload-type-mismatch: a payload type that is not the SSE event field.
  if (ctx.faults.has('payload-type-mismatch')) payload['type'] = 'message';
  // Variant sse-payload-type-no-id: type injected from the event field; no SSE id field.
  if (ctx.variant === 'sse-payload-type-no-id') payload = { type: e.type, ...payload };
  // Variant extra-members: members the document does not list.
  if (ctx.variant === 'extra-members') payload = withExtraMembers(payload);
  // Fault data-pretty-printed: several data lines, none of them JSON on its own.
  const text = ctx.faults.has('data-pretty-printed') ? JSON.stringify(payload, null, 2) : JSON.stringify(payload);
  return sseFrame(e.type, ctx.variant === 'sse-payload-type-no-id' ? undefined : offset, text);
}

/** A cursor-only heartbeat at the current position. */
function heartbeatMessage(ctx: EmulatorContext): string {
  // Fault heartbeat-offset-ahead: the offset of the event to come, not of the current position.
  // Fault heartbeat-offset-behind: the offset of the event before the current position.
  const offset = encodeOffset(Math.max(0, ctx.events.position + (ctx.faults.has('heartbeat-offset-ahead') ? 1 : 0) - (ctx.faults.has('heartbeat-offset-behind') ? 1 : 0)));
  // Fault heartbeat-without-offset: a heartbeat carries its offset.
  let payload: Record<string, unknown> = ctx.faults.has('heartbeat-without-offset') ? {} : { offset };
  if (ctx.variant === 'sse-payload-type-no-id') payload = { type: OFFSET_ONLY, ...payload };
  if (ctx.variant === 'extra-members') payload = withExtraMembers(payload);
  // Fault heartbeat-event-named-heartbeat: an event field that is no documented type.
  const name = ctx.faults.has('heartbeat-event-named-heartbeat') ? 'heartbeat' : OFFSET_ONLY;
  // Fault heartbeat-without-offset: nor in the SSE id field.
  const id = ctx.variant === 'sse-payload-type-no-id' || ctx.faults.has('heartbeat-without-offset') ? undefined : offset;
  const message = sseFrame(name, id, JSON.stringify(payload));
  // Variant sse-comments-retry: a comment line before each heartbeat.
  return ctx.variant === 'sse-comments-retry' ? `: keep-alive\n\n${message}` : message;
}

interface StartPoint {
  backlog: LoggedEvent[];
  filter: ReadonlySet<string> | null;
  /** Whether events appended after connecting are streamed. */
  live: boolean;
  /** Whether the stream resumes from a cursor (`from`). */
  resumed: boolean;
}

/** How old an event may be for its offset to resume from, in the `cursor-expires` variant. */
const CURSOR_LIFETIME_MS = 3_600_000;

/** The heartbeat period of the `heartbeats-sparse` variant: longer than the suite's wait on the emulator. */
const SPARSE_HEARTBEAT_MS = 30_000;

/** How many recent events the `start-replays-recent` variant replays when from is absent. */
const RECENT = 5;

function readQuery(ctx: EmulatorContext, request: FastifyRequest): StartPoint {
  let from = singleQuery(request, 'from');
  const fromTimestamp = singleQuery(request, 'from_timestamp');
  const types = repeatedQuery(request, 'event_type');
  for (const t of types) {
    // Fault unknown-event-type-accepted: allowed values are listed in Events.
    if (!isEventType(t) && !ctx.faults.has('unknown-event-type-accepted')) throw apiError('invalid_query_string', `event_type ${JSON.stringify(t.slice(0, 100))} is not an event type`);
  }
  // Fault event-type-filter-ignored: every type streams whatever was asked.
  const filter = types.length > 0 && !ctx.faults.has('event-type-filter-ignored') ? new Set(types) : null;

  // Fault from-1025-accepted: an over-long from is dropped instead of refused.
  if (from !== undefined && codePoints(from) > FROM_MAX && ctx.faults.has('from-1025-accepted')) from = undefined;

  let backlog: LoggedEvent[] = [];
  if (fromTimestamp !== undefined) {
    // Fault from-timestamp-21-accepted: no length limit.
    if (codePoints(fromTimestamp) > FROM_TIMESTAMP_MAX && !ctx.faults.has('from-timestamp-21-accepted')) throw apiError('invalid_query_string', `from_timestamp must be at most ${FROM_TIMESTAMP_MAX} characters`);
    let ms = parseRfc3339(fromTimestamp);
    if (ms === undefined) throw apiError('invalid_query_string', 'from_timestamp must be an RFC 3339 date-time');
    // Variant from-timestamp-minute: the less accurate start, rounded down to the minute.
    if (ctx.variant === 'from-timestamp-minute') ms -= ms % 60_000;
    // Fault from-timestamp-local-time: the timestamp read as UTC+01:00 local time, an hour early.
    if (ctx.faults.has('from-timestamp-local-time')) ms -= 3_600_000;
    // Fault from-timestamp-ignored: validated, then the stream starts at the latest position.
    if (from === undefined && !ctx.faults.has('from-timestamp-ignored')) backlog = ctx.events.since(ms);
    // Fault from-timestamp-beats-cursor: given both, the timestamp decides and the cursor is dropped.
    if (from !== undefined && ctx.faults.has('from-timestamp-beats-cursor')) {
      backlog = ctx.events.since(ms);
      from = undefined;
    }
  }
  const resumed = from !== undefined;
  if (from !== undefined) {
    // The cursor is more accurate than a timestamp, so it wins when both are given.
    if (codePoints(from) > FROM_MAX) throw apiError('invalid_query_string', `from must be at most ${FROM_MAX} characters`);
    const seq = decodeOffset(from);
    if (seq === undefined || seq > ctx.events.position) throw apiError('invalid_cursor', 'from is not an offset this stream gave out');
    if (seq < ctx.events.oldestResumable) throw apiError('invalid_cursor', 'from is older than the events this stream keeps');
    // Variant cursor-expires: how long a cursor stays valid is not shown; here an hour.
    if (ctx.variant === 'cursor-expires' && seq > 0 && (ctx.events.after(seq - 1)[0]?.timeMs ?? Date.now()) < Date.now() - CURSOR_LIFETIME_MS) throw apiError('invalid_cursor', 'from has expired');
    let resumeAfter = seq;
    // Fault resume-history-loses-one: from the offset of a seeded (history) event, the next event is lost.
    if (ctx.faults.has('resume-history-loses-one') && seq >= 1 && seq < ctx.events.historyPosition) resumeAfter = seq + 1;
    // Fault resume-repeats-event-k: resumes at the cursor's event, not after it.
    if (ctx.faults.has('resume-repeats-event-k')) resumeAfter = seq - 1;
    // Fault resume-loses-event-k1: resumes one event too late.
    if (ctx.faults.has('resume-loses-event-k1')) resumeAfter = seq + 1;
    backlog = ctx.events.after(resumeAfter);
    // Fault resume-reordered: newest first.
    if (ctx.faults.has('resume-reordered')) backlog = [...backlog].reverse();
  }
  // Variant start-replays-recent: whether recent events are replayed without from is not shown.
  if (from === undefined && fromTimestamp === undefined && ctx.variant === 'start-replays-recent') backlog = ctx.events.after(Math.max(0, ctx.events.position - RECENT));
  // Fault start-replays-history: without from, the whole retained history first.
  if (from === undefined && fromTimestamp === undefined && ctx.faults.has('start-replays-history')) backlog = ctx.events.after(0);
  // Fault live-events-need-from: without a start position, nothing live.
  const live = !(from === undefined && fromTimestamp === undefined && ctx.faults.has('live-events-need-from'));
  return { backlog, filter, live, resumed };
}

function openStream(ctx: EmulatorContext, reply: FastifyReply, start: StartPoint): void {
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  reply.hijack();
  const res = reply.raw;
  // Variant events-other-2xx: the success status code of /events is not shown.
  res.writeHead(ctx.variant === 'events-other-2xx' ? 203 : 200, {
    ...headers,
    // Fault events-content-type-text-plain: SSE frames under another media type.
    'content-type': ctx.faults.has('events-content-type-text-plain') ? 'text/plain; charset=utf-8' : 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('error', () => {});
  // Fault organization-events-only-on-request: without event_type, organization events are left out.
  const unasked = (e: LoggedEvent) => ctx.faults.has('organization-events-only-on-request') && e.type.startsWith('organization.');
  const wanted = (e: LoggedEvent) => (start.filter === null ? !unasked(e) : start.filter.has(e.type));
  // Fault filter-live-only: event_type filters live events; the replayed ones all come.
  const wantedBacklog = (e: LoggedEvent) => (ctx.faults.has('filter-live-only') ? !unasked(e) : wanted(e));
  // Fault resumed-offsets-one-behind: events replayed after a cursor carry the offset before their own.
  const replayed = (e: LoggedEvent) => (start.resumed && ctx.faults.has('resumed-offsets-one-behind') ? renderEvent(ctx, e, encodeOffset(e.seq - 1)) : eventMessage(ctx, e));
  // Variant no-heartbeats / heartbeats-sparse: heartbeat frequency is not shown.
  const heartbeat = () => (ctx.variant === 'no-heartbeats' ? undefined : res.write(heartbeatMessage(ctx)));

  // Variant sse-comments-retry: a reconnection time first.
  if (ctx.variant === 'sse-comments-retry') res.write('retry: 3000\n\n');
  // Replay and subscribe in one turn of the event loop: no event falls between.
  for (const e of start.backlog) if (wantedBacklog(e)) res.write(replayed(e));
  const unsubscribe = start.live
    ? ctx.events.subscribe((e) => {
        if (wanted(e)) res.write(eventMessage(ctx, e));
      })
    : () => undefined;
  if (ctx.variant !== 'heartbeats-sparse' && ctx.variant !== 'no-heartbeats') heartbeat();
  // Without a first heartbeat, the response head goes out on its own.
  else res.flushHeaders();
  const timer = setInterval(heartbeat, ctx.variant === 'heartbeats-sparse' ? SPARSE_HEARTBEAT_MS : ctx.options.heartbeatMs);
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
