/**
 * The tenant's event log and its wire form on GET /events.
 *
 * Each state change through the management routes (users, organizations,
 * connections) or the control endpoint appends one event. An event has a
 * sequence number; its offset (the cursor clients resume from) is the
 * base64url of `v1:<sequence>`, opaque to clients. The log keeps the last
 * RETAINED events; a cursor older than that is refused like an unknown one.
 *
 * Wire form of one message (Events: Payload of each data line):
 *
 *   event: user.created
 *   id: <offset>
 *   data: {"offset":"<offset>","event":{<envelope>}}
 *
 * and of a heartbeat: `event: offset-only`, `data: {"offset":"<current position>"}`.
 */
import type { FastifyRequest } from 'fastify';
import { schemaOf } from '../schemas/index.js';
import type * as Schema from '../schemas/types.js';
import type { Stored } from './state.js';

export const EVENT_TYPES: readonly string[] = (schemaOf('event-type') as { enum: string[] }).enum;
const EVENT_TYPE_SET = new Set(EVENT_TYPES);
export const isEventType = (s: string): boolean => EVENT_TYPE_SET.has(s);

/** SSE `event` names besides the event types. */
export const OFFSET_ONLY = 'offset-only';

/** How many events the log keeps for resuming. */
export const RETAINED = 10_000;

const OFFSET_PREFIX = 'v1:';

export function encodeOffset(seq: number): string {
  return Buffer.from(OFFSET_PREFIX + seq).toString('base64url');
}

/** The sequence number of a well-formed offset, or undefined. */
export function decodeOffset(offset: string): number | undefined {
  // The decoder skips what is not base64url: only the canonical spelling, encoded back, is an offset this
  // emulator gave out.
  const m = /^v1:(0|[1-9][0-9]{0,14})$/.exec(Buffer.from(offset, 'base64url').toString('utf8'));
  if (!m) return undefined;
  const seq = Number(m[1]);
  return encodeOffset(seq) === offset ? seq : undefined;
}

export interface EventContextInput {
  client: { id: string; name: string };
  connection?: { id: string; name: string; strategy: string };
  request: { hostname: string; ip: string; method: string; user_agent: string };
}

/** The envelope as the emulator builds it: the schema's type, with every member it always sets. */
export type EventEnvelope = Stored<
  Schema.EventEnvelope,
  'specversion' | 'type' | 'source' | 'id' | 'time' | 'svctenant' | 'svcstream'
> & {
  data: { object: Record<string, unknown>; context: Record<string, unknown> };
};

export interface LoggedEvent {
  seq: number;
  type: string;
  timeMs: number;
  offset: string;
  envelope: EventEnvelope;
}

/** The caller of a state-changing request, as an event's context. */
export function requestContext(
  request: FastifyRequest,
  connection?: EventContextInput['connection'],
): EventContextInput {
  const p = request.principal;
  return {
    client: { id: p?.clientId ?? 'control', name: p?.clientName ?? 'Emulator control endpoint' },
    ...(connection ? { connection } : {}),
    request: {
      hostname: request.hostname,
      ip: request.ip,
      method: request.method,
      user_agent: request.headers['user-agent'] ?? '',
    },
  };
}

export interface EventLogIdentity {
  tenant: string;
  stream: string;
}

export class EventLog {
  private entries: LoggedEvent[] = [];
  /** Sequence of the newest event; 0 before the first. */
  private last = 0;
  private readonly listeners = new Set<(e: LoggedEvent) => void>();
  /** Sequence of the newest seeded (history) event; 0 when none was seeded. */
  historyPosition = 0;

  constructor(private readonly identity: EventLogIdentity) {}

  /** The sequence number of the newest event (0 when none). */
  get position(): number {
    return this.last;
  }

  /** Oldest sequence a cursor may name and still resume without a gap. */
  get oldestResumable(): number {
    const first = this.entries[0];
    return first === undefined ? this.last : first.seq - 1;
  }

  /** Appends one event; `timeMs` (default now) is given only for seeded history, older than any live event. */
  append(
    type: string,
    object: Record<string, unknown>,
    ctx: EventContextInput,
    resource: string,
    timeMs = Date.now(),
  ): LoggedEvent {
    const seq = ++this.last;
    const envelope: EventEnvelope = {
      specversion: '1.0',
      type,
      source: `urn:conformance:tenant:${this.identity.tenant}:${resource}`,
      id: `evt_${this.identity.tenant}_${seq.toString(36).padStart(8, '0')}`,
      time: new Date(timeMs).toISOString(),
      data: {
        object,
        context: {
          // tenant_id as the document names it; id as the real stream does (the official SDK's type requires it).
          tenant: { tenant_id: this.identity.tenant, id: this.identity.tenant },
          client: { id: ctx.client.id, name: ctx.client.name, metadata: {} },
          ...(ctx.connection ? { connection: ctx.connection } : {}),
          request: {
            geo: {
              continent_code: 'EU',
              country_code: 'DE',
              country_name: 'Germany',
              subdivision_code: 'BE',
              subdivision_name: 'Berlin',
              city_name: 'Berlin',
              time_zone: 'Europe/Berlin',
              latitude: 52.52,
              longitude: 13.405,
            },
            ...ctx.request,
          },
        },
      },
      svctenant: this.identity.tenant,
      svcstream: this.identity.stream,
      // No svcpurpose: only test events carry one (the real service's SDK reads `svcpurpose: "test"` so).
    };
    const entry: LoggedEvent = { seq, type, timeMs, offset: encodeOffset(seq), envelope };
    this.entries.push(entry);
    if (this.entries.length > RETAINED) this.entries.splice(0, this.entries.length - RETAINED);
    for (const l of this.listeners) l(entry);
    return entry;
  }

  /** Events strictly after sequence `seq`. */
  after(seq: number): LoggedEvent[] {
    const first = this.entries[0];
    if (first === undefined) return [];
    return this.entries.slice(Math.max(0, seq - first.seq + 1));
  }

  /** Events at or after `ms` (epoch milliseconds). */
  since(ms: number): LoggedEvent[] {
    // Times never decrease along the log, so the first match starts the answer.
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.timeMs < ms) lo = mid + 1;
      else hi = mid;
    }
    return this.entries.slice(lo);
  }

  subscribe(listener: (e: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}

/**
 * One SSE message from its parts: `event`, `id` when given, and one `data`
 * line per line of `text` (a text of one line makes one data line).
 */
export function sseFrame(event: string, id: string | undefined, text: string): string {
  const data = text
    .split('\n')
    .map((l) => `data: ${l}`)
    .join('\n');
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}${data}\n\n`;
}
