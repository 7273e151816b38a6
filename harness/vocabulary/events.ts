/**
 * What the events checks share: message verdicts, resumption verdicts, and
 * reading a subscription's replay (the tenant's own history), so that the
 * checks run without writes too (`from_timestamp` in the past).
 */
import type { Exchange, Query } from '../requests/client.ts';
import { must, mustMatchSchema, observe, type Evidence } from './must.ts';
import type { Config } from '../run/config.ts';
import type { EventsHarness } from '../fixtures/fixtures.ts';
import type { SseConnection, SseMessage } from '../requests/sse.ts';
import { schemaOf } from '../../schemas/index.ts';
import { ruleGroup, type Declared, type RuleRef } from './declare.ts';

export const EVENT_TYPES = (schemaOf('event-type') as { enum: string[] }).enum;
const SPECIAL = ['error', 'offset-only'];
/**
 * How long to wait for an event: a tenant's pipeline is slower than the emulator. The embedded
 * emulator publishes an event as its write is answered and sends a heartbeat every 250 ms
 * (emulator/options.ts AS_EMBEDDED_TARGET): 2 s is eight heartbeats. Only a check that fails waits
 * it out, and under verify every fault of the event stream does, several times.
 */
export const waitMs = (c: Config) => (c.embedded ? 2_000 : 30_000);
/** How long to wait for a heartbeat, whose frequency is not shown (the embedded emulator's: 250 ms). */
export const heartbeatWaitMs = (c: Config) => (c.embedded ? 2_000 : 60_000);
/** How long a replay may pause before it counts as delivered, where no heartbeat marks its end. */
const quietMs = (c: Config) => (c.embedded ? 500 : 5_000);
/** How far back the history checks read the tenant's own events. */
export const HISTORY_MS = 86_400_000;

export const isEvent = (m: SseMessage) => m.event !== 'offset-only' && m.event !== 'error' && m.event !== '';

/** A subscription as evidence (no token). */
export function streamExchange(conn: SseConnection): Exchange {
  return {
    method: 'GET',
    target: conn.target,
    url: conn.url,
    authorization: 'token',
    status: conn.status,
    headers: conn.headers,
    contentType: conn.contentType,
    text: conn.errorBody,
    json: undefined,
    waitedMs: 0,
  };
}

export function describeMessage(m: SseMessage): string {
  const data = m.data.length > 300 ? `${m.data.slice(0, 300)}…` : m.data;
  return `message #${m.index}: event ${JSON.stringify(m.event)}, id ${JSON.stringify(m.id)}, data ${data}`;
}

export function ev(conn: SseConnection, expected: string, actual: string, detail?: string): Evidence {
  return { expected, actual, exchange: streamExchange(conn), detail };
}

export const offsetOf = (m: SseMessage) =>
  (m.payload as { offset?: unknown } | undefined)?.offset as string | undefined;
export const envelopeOf = (m: SseMessage) =>
  (m.payload as { event?: { id?: string; type?: string; time?: string } } | undefined)?.event;
/** An event's identity: the envelope id, else its offset. */
export const identity = (m: SseMessage) => envelopeOf(m)?.id ?? offsetOf(m) ?? `#${m.index}`;
/** An event's time by the target's clock (epoch ms), or NaN. */
export const timeOf = (m: SseMessage) => Date.parse(String(envelopeOf(m)?.time));
/** A heartbeat's cursor: its payload offset, else (the payload shape is not shown) the SSE id field. */
export const cursorOf = (m: SseMessage) => offsetOf(m) ?? (m.id || undefined);

/**
 * A cursor the stream gives now (a heartbeat's, or a live event's offset) on a stream just opened, which this
 * closes: what a client resuming sends. The current position, not an old event's: how long a cursor stays valid
 * is not shown. Undefined where none arrived within a heartbeat's wait (the frequency is not shown either).
 */
export async function cursorNow(conn: SseConnection, c: Config): Promise<string | undefined> {
  try {
    const m = await conn
      .waitFor((x) => cursorOf(x) !== undefined, heartbeatWaitMs(c), 0, 'a cursor')
      .catch(() => undefined);
    return m && cursorOf(m);
  } finally {
    conn.close();
  }
}

/**
 * The time marker of a stream late in its life: the first heartbeat it sends once it has been open as long as a
 * check gives an event to arrive (waitMs), so that what a check finds at a stream's start is found again where
 * any check's wait may reach (a server may renew or re-plan a subscription while it is open). `openedAt` is
 * when the stream's head arrived: the server opened it before. Undefined where no heartbeat came within a
 * heartbeat's wait after that (the frequency is not shown), or the stream ended.
 */
export async function lateHeartbeat(conn: SseConnection, openedAt: number, c: Config): Promise<SseMessage | undefined> {
  const late = openedAt + waitMs(c);
  return conn
    .waitFor(
      (m) => m.event === 'offset-only' && m.receivedAt >= late,
      Math.max(0, late - Date.now()) + heartbeatWaitMs(c),
      0,
      `a heartbeat once the stream had been open ${waitMs(c)} ms`,
    )
    .catch(() => undefined);
}

/** An RFC 3339 timestamp of 20 characters (the limit of from_timestamp), to the second. */
export const timestamp = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The spellings of one instant that RFC 3339 allows within from_timestamp's 20 characters: no
 * fraction and no numeric offset fit, so only the case of the separator and of the zone letter
 * varies. RFC 3339 5.6 NOTE: "Per [ABNF] and ISO8601, the "T" and "Z" characters in this syntax
 * may alternatively be lower case "t" or "z" respectively" (the document limits neither).
 */
export const SPELLINGS = ['TZ', 'tz', 'Tz', 'tZ'] as const;
export type Spelling = (typeof SPELLINGS)[number];
export const spelled = (ms: number, s: Spelling) => {
  const ts = timestamp(ms);
  return `${ts.slice(0, 10)}${s[0]}${ts.slice(11, 19)}${s[1]}`;
};
/** The whole second of an instant (epoch ms), as 20 characters can name it. */
export const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Every rule checkMessage may decide: a check that calls it declares them all. */
export const messageRules = ruleGroup(
  [
    'events.message.event-field',
    'events.message.data-json',
    'events.payload.type-matches',
    'events.offset-only.offset',
  ],
  'sse-event-payload',
  'sse-offset-only-payload',
  'connection-created-object',
);
type MessageRules = Declared<(typeof messageRules.named)[number]>;

/** The rules of a resumption: judgeResume decides them all. */
export const resumeRules = ruleGroup(['events.resume.no-loss', 'events.resume.no-duplicate', 'events.resume.order']);
type ResumeRules = Declared<(typeof resumeRules.named)[number]>;

/** Every message rule, applied to one message. */
export function checkMessage(d: MessageRules, conn: SseConnection, m: SseMessage): void {
  must(
    d.eventsMessageEventField,
    EVENT_TYPES.includes(m.event) || SPECIAL.includes(m.event),
    ev(
      conn,
      `an event field among the documented types, error, offset-only`,
      `event ${JSON.stringify(m.event)}`,
      describeMessage(m),
    ),
  );
  must(
    d.eventsMessageDataJson,
    m.lines.every((l) => l !== undefined) && !!m.payload && typeof m.payload === 'object',
    ev(
      conn,
      'each data line one JSON payload (an object)',
      'a data line that is not a JSON object',
      describeMessage(m),
    ),
  );
  mustBeUtf8(d.eventsMessageDataJson, conn, m);
  const payload = m.payload as { type?: unknown; event?: { type?: unknown } };
  if (m.event === 'offset-only') {
    mustMatchSchema('sse-offset-only-payload', payload, streamExchange(conn), `payload of ${describeMessage(m)}`);
    // "a cursor-only heartbeat": its payload shape is not shown, so the cursor may be the SSE id field.
    const cursor = cursorOf(m);
    must(
      d.eventsOffsetOnlyOffset,
      typeof cursor === 'string' && cursor !== '',
      ev(
        conn,
        'a heartbeat that carries a cursor (payload offset or SSE id)',
        'neither a payload offset nor an SSE id',
        describeMessage(m),
      ),
    );
  } else if (m.event === 'error') {
    observe(
      'events.error-payload',
      'error message payload members',
      Object.keys(payload).sort().join(',') || '(none)',
      { data: m.data.slice(0, 500) },
    );
  } else {
    mustMatchSchema('sse-event-payload', payload, streamExchange(conn), `payload of ${describeMessage(m)}`);
    const t = payload.event?.type;
    // No envelope member is marked required: each type present must agree with the SSE event field.
    must(
      d.eventsPayloadTypeMatches,
      (t === undefined || t === m.event) && (payload.type === undefined || payload.type === m.event),
      ev(
        conn,
        `envelope type and payload type, where present, equal to the SSE event field ${m.event}`,
        `envelope type ${JSON.stringify(t)}, payload type ${JSON.stringify(payload.type)}`,
        describeMessage(m),
      ),
    );
    if (m.event === 'connection.created') checkConnectionCreated(conn, m);
  }
}

/**
 * The bytes of a message are UTF-8 (WHATWG HTML 9.2.5: event streams are always UTF-8, "Streams must be decoded
 * using the UTF-8 decode algorithm"; RFC 8259 8.1: JSON exchanged MUST be UTF-8). The harness decodes as an
 * EventSource does (errors become U+FFFD) and holds every line to a strict decoder besides: a message with bytes
 * the strict one refuses (Latin-1's one octet per character, E9 FC; CESU-8's surrogate halves, ED A0 BD...)
 * carries U+FFFD where the server meant a character, so its data line is not the JSON payload it was. Part of
 * checkMessage, so every message the suite judges is held to it, live and replayed alike.
 */
export function mustBeUtf8(rule: RuleRef<'events.message.data-json'>, conn: SseConnection, m: SseMessage): void {
  must(
    rule,
    m.undecodable === undefined,
    ev(
      conn,
      'a message whose bytes are UTF-8 (a strict decoder reads every line)',
      m.undecodable?.join('; ') ?? '',
      describeMessage(m),
    ),
  );
}

/** A string as its code points, U+XXXX each, for evidence. */
export const codePoints = (s: string) =>
  [...s].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** The value at a path of member names, where every step is an object. */
export const at = (v: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

/**
 * Relation, a write and its event: where data.object of the event a create caused carries a member the suite
 * sent (at the same path, one level into objects, both holding the nonce `n`), it is the text sent, code point
 * for code point (no normalisation), or the text the create answered for it (a server that normalises what it
 * stores says so there too). Members the event leaves out are not judged: the payload shapes of user and
 * organization events are not shown.
 */
export function mustCarryWritten(
  rule: RuleRef<'events.message.data-json'>,
  conn: SseConnection,
  m: SseMessage,
  written: { sent: Record<string, unknown>; answered: Record<string, unknown> },
  n: string,
): void {
  const object = at(envelopeOf(m), ['data', 'object']);
  const paths = Object.entries(written.sent).flatMap(([k, v]) =>
    typeof v === 'string' ? [[k]] : v && typeof v === 'object' ? Object.keys(v).map((kk) => [k, kk]) : [],
  );
  for (const path of paths) {
    const sent = at(written.sent, path);
    const echoed = at(object, path);
    if (typeof sent !== 'string' || !sent.includes(n) || typeof echoed !== 'string' || !echoed.includes(n)) continue;
    const answered = at(written.answered, path);
    const expected = typeof answered === 'string' && answered.includes(n) ? answered : sent;
    const shown = (s: string) => {
      const rest = s.replace(n, '<nonce>');
      return `${JSON.stringify(rest)} (${codePoints(rest)})`;
    };
    must(
      rule,
      echoed === expected,
      ev(
        conn,
        `data.object.${path.join('.')} of the ${m.event} the text ${expected === sent ? 'sent' : 'the create answered'}: ${shown(expected)}`,
        shown(echoed),
        describeMessage(m),
      ),
    );
  }
}

/** The one payload the document shows in full. */
export function checkConnectionCreated(conn: SseConnection, m: SseMessage): void {
  mustMatchSchema(
    'connection-created-object',
    (envelopeOf(m) as { data?: { object?: unknown } } | undefined)?.data?.object,
    streamExchange(conn),
    `data.object of ${describeMessage(m)}`,
  );
}

/**
 * The verdicts on one resumption: `got` is what arrived after resuming from
 * the offset of event k of the first read `ids` (k = -1: a cursor placed
 * before its first event), up to a bound that every expected event precedes
 * (or `unfinished` says why there is none). `source` names where the cursor
 * came from when it is not event k's own offset (a heartbeat, another stream).
 */
export function judgeResume(
  d: ResumeRules,
  conn: SseConnection,
  ids: string[],
  k: number,
  from: string,
  got: string[],
  unfinished?: string,
  source?: string,
  first?: readonly SseMessage[],
): void {
  const expected = ids.slice(k + 1);
  const at = k >= 0 ? `event ${k} (${ids[k]})` : 'a point before the first event';
  const cut = source ? `${source}, a cut after ${at}` : `the offset of ${at}`;
  const context = `resumed from ${cut} = ${from}\nfirst read: ${ids.join(', ')}\nafter resume: ${got.join(', ')}`;
  const lost = expected.filter((id) => !got.includes(id));
  must(
    d.eventsResumeNoLoss,
    !unfinished && lost.length === 0,
    ev(
      conn,
      expected.length ? `events ${k + 1}..${ids.length - 1} of the first read` : 'nothing lost (none follows the cut)',
      unfinished ?? `lost ${lost.join(', ')}`,
      context,
    ),
  );
  const repeated = got.filter((id, i) => got.indexOf(id) !== i || ids.indexOf(id) <= k);
  must(
    d.eventsResumeNoDuplicate,
    repeated.length === 0,
    ev(conn, `nothing at or before the cut, nothing twice`, `repeated ${repeated.join(', ')}`, context),
  );
  must(
    d.eventsResumeOrder,
    JSON.stringify(got) === JSON.stringify(expected),
    ev(conn, `the order of the first read: ${expected.join(', ')}`, got.join(', '), context),
  );
  if (first) mustBeTheSameEvents(d.eventsResumeNoLoss, conn, first, context);
}

/** An envelope as compared across deliveries: its members in one order, without the stream it was delivered on. */
function envelopeKey(m: SseMessage): string | undefined {
  const e = envelopeOf(m) as Record<string, unknown> | undefined;
  if (!e || typeof e !== 'object') return undefined;
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  const { svcstream: _stream, ...rest } = e;
  return JSON.stringify([m.event, canon(rest)]);
}

/**
 * Relation: an event id names one event, whichever stream delivers it. Every event of `conn` whose id the first
 * read delivered is that event again, member for member (type, source, time, data, tenant...: all but svcstream,
 * the stream identifier, which may name the subscription): a resumed stream that re-renders what it replays
 * (a time regenerated, a field rebuilt) is not the stream that was cut.
 */
export function mustBeTheSameEvents(
  rule: RuleRef,
  conn: SseConnection,
  first: readonly SseMessage[],
  context?: string,
): void {
  const before = new Map<string, SseMessage>();
  for (const m of first) if (isEvent(m) && envelopeOf(m)?.id !== undefined) before.set(String(envelopeOf(m)!.id), m);
  const changed: string[] = [];
  for (const m of conn.events) {
    const was = before.get(String(envelopeOf(m)?.id));
    if (!was || envelopeKey(was) === envelopeKey(m)) continue;
    const a = (envelopeOf(was) ?? {}) as Record<string, unknown>;
    const b = (envelopeOf(m) ?? {}) as Record<string, unknown>;
    const members = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
      (k) => k !== 'svcstream' && JSON.stringify(a[k]) !== JSON.stringify(b[k]),
    );
    const show = (v: unknown) => JSON.stringify(v)?.slice(0, 120) ?? 'absent';
    changed.push(
      `message #${m.index} (event ${String(b['id'])}): ${
        was.event !== m.event ? `SSE event ${JSON.stringify(m.event)}, first ${JSON.stringify(was.event)}; ` : ''
      }${members.map((k) => `${k} ${show(b[k])}, first ${show(a[k])}`).join('; ') || 'members in another order only'}`,
    );
  }
  must(
    rule,
    changed.length === 0,
    ev(
      conn,
      'every event delivered again by id identical to its first delivery (all but svcstream)',
      `${changed.length} changed:\n${changed.slice(0, 3).join('\n')}`,
      context,
    ),
  );
}

/**
 * Waits until a subscription has delivered what it replays on connecting:
 * up to the first heartbeat after an event (the emulator and most servers
 * send the position once the replay is out), else until nothing but
 * heartbeats has arrived for a quiet spell, at most CONFORMANCE_EVENTS_WAIT_MS.
 * Answers the events read by then.
 *
 * A heartbeat before any event does not end the wait: a server may send one
 * before its replay. The embedded emulator writes its replay as the stream
 * opens, so there a second heartbeat with no event before it ends the wait
 * too (a quarter of a second, where the quiet spell is half of one); an
 * external target's replay may start later, and only the quiet spell ends it.
 */
export async function readReplay(conn: SseConnection, config: Config): Promise<SseMessage[]> {
  const deadline = Date.now() + Math.max(config.eventsWaitMs, quietMs(config));
  const heartbeats = (from = 0) => conn.messages.slice(from).filter((m) => m.event === 'offset-only').length;
  for (;;) {
    const last = conn.messages.filter(isEvent).at(-1);
    if (last && heartbeats(last.index + 1) > 0) break;
    if (!last && config.embedded && heartbeats() >= 2) break;
    const left = deadline - Date.now();
    if (conn.ended || left <= 0) break;
    // The next event, or a heartbeat once an event has come (embedded: or the second one).
    const next = await conn
      .waitFor(
        (m) => isEvent(m) || (m.event === 'offset-only' && (!!last || (config.embedded && heartbeats() >= 2))),
        Math.min(quietMs(config), left),
        conn.messages.length,
        'the next event',
      )
      .catch(() => undefined);
    if (!next) break; // a quiet spell: the replay is out
  }
  return conn.messages.filter(isEvent);
}

export interface History {
  conn: SseConnection;
  /** The events of the replay, in stream order. */
  events: SseMessage[];
  ids: string[];
  from_timestamp: string;
}

/** The tenant's own events of the last HISTORY_MS, as a subscription with from_timestamp reads them. */
export async function readHistory(
  d: Declared<'events.content-type'>,
  events: EventsHarness,
  config: Config,
  query: Query = {},
): Promise<History> {
  const from_timestamp = timestamp(Date.now() - HISTORY_MS);
  const conn = await events.subscribe({ query: { from_timestamp, ...query } });
  must(
    d.eventsContentType,
    conn.isEventStream,
    ev(conn, 'a 2xx text/event-stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`),
  );
  const read = await readReplay(conn, config);
  return { conn, events: read, ids: read.map(identity), from_timestamp };
}

/** What arrives on `conn` up to the event `lastId` (which every expected one precedes), as identities among `ids`. */
export async function readUpTo(
  conn: SseConnection,
  config: Config,
  until: string | readonly string[],
  ids: readonly string[],
  /**
   * Also the events that arrived with the last of `until`, before the next heartbeat (already read, no wait):
   * where `until` ends the history, anything of `ids` among them came again.
   */
  withBuffered = false,
): Promise<{ got: string[]; unfinished?: string }> {
  // Every id of `until` must have arrived, in whatever order: a reordered stream is judged on its order, not taken for a loss.
  const waiting = new Set(typeof until === 'string' ? [until] : until);
  const what = typeof until === 'string' ? `event ${until}` : `events ${[...waiting].join(', ')}`;
  const end =
    waiting.size === 0
      ? undefined
      : await conn
          .waitFor((m) => (waiting.delete(identity(m)), waiting.size === 0), waitMs(config), 0, what)
          .catch(() => undefined);
  const buffered = end && withBuffered ? afterUntilHeartbeat(conn, end.index) : [];
  const got = [...conn.events.slice(0, end ? end.index + 1 : undefined), ...buffered]
    .map(identity)
    .filter((id) => ids.includes(id));
  return end || waiting.size === 0
    ? { got }
    : {
        got,
        unfinished: `${[...waiting].join(', ')} did not arrive within ${waitMs(config)} ms (${conn.messages.length} messages read)`,
      };
}

/** The events read after message `index` up to the first message that is none (a heartbeat, an error). */
function afterUntilHeartbeat(conn: SseConnection, index: number): SseMessage[] {
  const after = conn.messages.slice(index + 1);
  const stop = after.findIndex((m) => m.event === 'offset-only' || m.event === 'error' || m.event === '');
  const shown = new Set(conn.events.slice(0, index + 1));
  return (stop < 0 ? after : after.slice(0, stop)).filter((m) => !shown.has(m));
}

/**
 * What a stream resumed at a cut of the first read `ids` delivers of it: up to the
 * events `expected` after the cut and what arrived with the last of them (an
 * event sent twice at the end of a replay shows), or, where the cut is the
 * head and none is expected, whatever it replays (readReplay bounds that wait).
 */
export async function readResumed(
  conn: SseConnection,
  config: Config,
  expected: readonly string[],
  ids: readonly string[],
): Promise<{ got: string[]; unfinished?: string }> {
  if (expected.length) return readUpTo(conn, config, expected, ids, true);
  const replayed = await readReplay(conn, config);
  return { got: replayed.map(identity).filter((id) => ids.includes(id)) };
}

/** events.filter.only-requested: no event of a type the subscription did not ask for. */
export function mustBeOnlyRequested(
  rule: RuleRef<'events.filter.only-requested'>,
  conn: SseConnection,
  wanted: readonly string[],
  detail?: string,
): void {
  const others = conn.events.filter((m) => !wanted.includes(m.event));
  must(
    rule,
    others.length === 0,
    ev(
      conn,
      `only ${wanted.join(', ')}`,
      `${others.length} other events: ${[...new Set(others.map((m) => m.event))].join(', ')}`,
      detail,
    ),
  );
}
