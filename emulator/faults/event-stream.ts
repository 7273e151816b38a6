/**
 * The fault layer of GET /events: every decision a fault or variant takes
 * about where a stream starts and what an open stream writes, asked of the
 * seams (seams.ts) and the frame mutations (mutations.ts) in one place. The
 * route (routes/events.ts) computes what a conforming stream writes and
 * hands each piece through here; with nothing switched on, each function
 * gives back what it is given. So the route holds no code that only a fault
 * reads, and every mutant of it is one a check can see.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { sseFrame, type EventLog, type LoggedEvent } from '../events.js';
import { codePoints } from '../routes/shared.js';
import type { Mutations, SseFrame } from './mutations.js';
import type { Deviations } from './seams.js';

/** Where a stream starts, as the route read it from the query. */
export interface StreamStart {
  /** The events it replays before going live. */
  backlog: LoggedEvent[];
  /** The event_type filter (null: every type). */
  filter: ReadonlySet<string> | null;
  /** The cursor it resumes after (`from`), when it does. */
  from?: string | undefined;
  /** The from_timestamp it was asked to start at, and where that started it (epoch ms). */
  fromTimestamp?: string | undefined;
  timestampMs?: number | undefined;
}

/** The client of the request's token, for the seams that keep something per client. */
export function clientOf(request: FastifyRequest): string | undefined {
  return request.principal?.clientId;
}

/** The from cursor a stream reads, given its filter and the cursor's limit (a fault drops a filtered or an over-long one). */
export function cursorTaken(
  d: Deviations,
  from: string | undefined,
  filter: ReadonlySet<string> | null,
  max: number,
): string | undefined {
  if (!d.readsCursor(filter !== null)) return undefined;
  return from !== undefined && codePoints(from) > max && d.dropsOverlongFrom ? undefined : from;
}

/** A valid cursor to event `seq`, as a fault checks it further (one expires, or is redeemed once) before it is taken. */
export function cursorChecked(d: Deviations, seq: number, log: EventLog): void {
  if (d.cursorExpired(seq, log, Date.now())) throw apiError('invalid_cursor', 'from has expired');
  d.cursorRedeemed(seq);
}

/** Where a from_timestamp of `ms` starts the stream of this request's client (a fault ignores, moves or keeps it). */
export function timestampStartOf(d: Deviations, ms: number, request: FastifyRequest): number | undefined {
  const start = d.honoursTimestamp(clientOf(request)) ? d.timestampStart(ms) : undefined;
  d.timestampRemembered(clientOf(request), start);
  return start;
}

/** The cursor given beside a from_timestamp: it wins, unless a fault lets the timestamp win. */
export function cursorBesideTimestamp(d: Deviations, from: string | undefined): string | undefined {
  return from !== undefined && !d.cursorBeatsTimestamp ? undefined : from;
}

/** What a stream started at `start` by from_timestamp replays (nothing where a fault ignored the timestamp). */
export function timestampBacklog(
  d: Deviations,
  log: EventLog,
  start: number | undefined,
  filter: ReadonlySet<string> | null,
): LoggedEvent[] {
  return start === undefined ? [] : d.timestampBacklogOf(d.timestampBacklog(log, start), filter !== null);
}

/** How GET /events answers once its query is read: the stream `open` opens, or what a fault answers instead. */
export function eventsAnswer(
  d: Deviations,
  request: FastifyRequest,
  reply: FastifyReply,
  start: StreamStart,
  open: () => void,
): unknown {
  // "Caught up": a resumed request with nothing after its cursor (`events-resume-caught-up-204`).
  if (start.from !== undefined && start.backlog.length === 0 && d.answersCaughtUpWithNoContent)
    return reply.code(204).send();
  // A JSON mode for clients that do not ask for text/event-stream (`events-json-without-sse-accept`).
  if (d.eventsAsJson(request.headers.accept))
    return start.backlog.map((e) => ({ offset: e.offset, event: e.envelope }));
  return open();
}

/** An SSE message on the wire: the raw lines a fault puts before it, then `event`, `id` and the data lines. */
function wireOf(f: SseFrame): string {
  return (f.before ?? '') + sseFrame(f.event, f.id, typeof f.data === 'string' ? f.data : JSON.stringify(f.data));
}

type MessageCache = readonly [WeakMap<LoggedEvent, string>, WeakMap<LoggedEvent, string>];

/**
 * Each event's message, built once however many streams carry it (one cache for messages replayed after a
 * cursor, one for the others), per fault layer: switching faults (PUT /__control/faults) makes a new one,
 * so a message built under the faults before the switch is never served after it.
 */
const wire = new WeakMap<Mutations, MessageCache>();

/** What the stream writes to: the response, or a fault's compressor in front of it. */
interface Body {
  write(chunk: string | Buffer): unknown;
  end(): unknown;
}

/** One open stream as the fault layer sees it: what it writes, in which order, and which live events it takes. */
export class StreamFaults {
  private readonly resumed: boolean;
  /** Whether the stream goes on with the events appended after connecting. */
  private readonly goesLive: boolean;
  private readonly firstHeartbeat: boolean;
  private readonly coding: 'gzip' | undefined;
  private readonly subscribed: () => boolean;
  private readonly atConnect: number;
  /** The offset of the last event delivered, the live events delivered, and whether the next live one is dropped. */
  private lastDelivered: string | undefined;
  private liveDelivered = 0;
  private dropNextLive: boolean;
  private out: Body | undefined;

  constructor(
    private readonly d: Deviations,
    private readonly mutations: Mutations,
    private readonly log: EventLog,
    private readonly request: FastifyRequest,
    private readonly start: StreamStart,
  ) {
    this.resumed = start.from !== undefined;
    this.goesLive = this.resumed
      ? d.liveAfterCursor
      : start.fromTimestamp !== undefined
        ? d.liveAfterTimestamp
        : d.liveWithoutStart;
    this.dropNextLive = !this.resumed && d.dropsFirstLiveEvent;
    this.firstHeartbeat = d.heartbeats(0, start.filter).first;
    this.coding = d.eventStreamCoding(request.headers['accept-encoding']);
    this.subscribed = d.liveSubscription(request.principal?.tokenId);
    this.atConnect = log.position;
  }

  /** Which events the stream delivers, live and replayed: those of its event_type filter (a fault reads the caller's scopes too). */
  eventFilter(): ReturnType<Deviations['eventFilter']> {
    // blind round 36: the caller's scopes, for a default subscription built from them (`events-default-types-from-caller-read-scopes`).
    return this.d.eventFilter(this.start.filter, this.request.principal?.scopes);
  }

  /** The head's headers as written: a header an answer removed (undefined) left out, a fault's content coding added. */
  headers(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
    for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
    if (this.coding !== undefined) headers['content-encoding'] = this.coding;
    return headers;
  }

  /** Starts the body on `res`, with what an answer put into the head's body first. */
  open(res: ServerResponse, body: unknown): void {
    if (this.coding === undefined) this.out = res;
    else {
      const gzip = createGzip().on('error', () => {});
      gzip.pipe(res);
      res.on('close', () => gzip.destroy());
      this.out = gzip;
    }
    if (typeof body === 'string' && body !== '') this.send(body);
  }

  /** Writes one message. */
  readonly send = (message: string): void => {
    // blind round 38: the stream's token, for offsets bound to it (`events-offset-bound-to-token`), and the bytes written (`sse-astral-characters-cesu8`).
    this.out?.write(this.d.sseBytes(this.d.sseWire(message, this.start.filter, this.request.principal?.tokenId)));
  };

  /** Ends the stream. */
  end(): void {
    this.out?.end();
  }

  /** The message of event `e`, `frame` its conforming frame, as written. */
  private message(e: LoggedEvent, frame: (e: LoggedEvent) => SseFrame, afterCursor: boolean): string {
    let caches = wire.get(this.mutations);
    if (caches === undefined) wire.set(this.mutations, (caches = [new WeakMap(), new WeakMap()]));
    const cache = caches[afterCursor ? 1 : 0];
    let m = cache.get(e);
    if (m === undefined) {
      m = wireOf(this.mutations.frame('message', frame(e), { logged: e, afterCursor }));
      cache.set(e, m);
    }
    return m;
  }

  /** The messages of the replayed `events`, as written, and an event a fault repeats at the hand-off to live ones. */
  replayed(events: LoggedEvent[], frame: (e: LoggedEvent) => SseFrame): string[] {
    // blind round 42: where the stream started, for offsets written from the timestamp query's result (`timestamp-replay-offsets-result-position`).
    const messages = this.d.replayFrames(
      events.map((e) => this.message(e, frame, this.resumed)),
      this.start,
    );
    this.lastDelivered = events.at(-1)?.offset;
    const again = this.d.handoffRepeat(this.resumed, events.at(-1), this.atConnect);
    return again === undefined ? messages : [...messages, this.message(again, frame, false)];
  }

  /** The messages a live event of a type the stream takes goes out as: once, or none or twice under a fault. */
  live(e: LoggedEvent, frame: (e: LoggedEvent) => SseFrame): string[] {
    if (!this.goesLive || !this.d.takesLiveEvent(e.seq) || !this.subscribed()) return [];
    if (!this.d.liveEventPastStart(e.timeMs, this.start.timestampMs, this.resumed)) return [];
    if (!this.d.echoesToStreamOf(e, clientOf(this.request))) return [];
    if (this.dropNextLive) {
      this.dropNextLive = false;
      return [];
    }
    this.liveDelivered++;
    const sent = this.d.liveEventSent(e, this.atConnect + this.liveDelivered);
    this.lastDelivered = sent.offset;
    const m = this.message(sent, frame, false);
    return this.d.liveSentTwice(this.resumed) ? [m, m] : [m];
  }

  /**
   * The cursor-only heartbeat at `position` (the log's newest event), as written: `encode` the offset of a
   * position, `frame` the heartbeat's conforming frame given its offset.
   */
  heartbeat(position: number, encode: (seq: number) => string, frame: (offset: string) => SseFrame): string {
    const offset = this.d.heartbeatOffset(
      encode(this.d.heartbeatPosition(position, this.atConnect, this.log)),
      this.lastDelivered,
      this.start.from,
      this.liveDelivered,
    );
    return wireOf(this.mutations.frame('heartbeat', frame(offset), { afterCursor: false }));
  }

  /** The stream's opening: `replay` and then `heartbeat` (a fault puts it first, leaves it out or ends the stream after it). */
  opening(replay: () => void, heartbeat: () => void): void {
    const early = this.firstHeartbeat && this.d.heartbeatBeforeReplay;
    if (early) heartbeat();
    replay();
    if (this.firstHeartbeat && !early) heartbeat();
    // A stream opened without a start answered as a snapshot (`events-stream-ends-after-first-heartbeat`).
    const query = this.request.query as Record<string, unknown>;
    const unpositioned = query['from'] === undefined && query['from_timestamp'] === undefined;
    if (this.firstHeartbeat && this.d.endsAfterFirstHeartbeat(unpositioned)) this.end();
  }

  /** The periodic heartbeat as sent (`heartbeat` the stream's own), every `ms` unless a fault sends it sparsely or never. */
  periodic(heartbeat: () => void, ms: number): { beat: () => void; everyMs: number } {
    const everyMs = this.d.heartbeats(ms, this.start.filter).everyMs;
    return everyMs === undefined
      ? { beat: () => undefined, everyMs: ms }
      : { beat: this.d.periodicHeartbeat(heartbeat, this.send), everyMs };
  }
}
