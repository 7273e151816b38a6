/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * where a subscription starts: from the latest events when `from` is absent,
 * after the cursor whatever `from_timestamp` says, and at `from_timestamp`.
 */
import type { Config } from '../harness/run/config.ts';
import { must } from '../harness/vocabulary/must.ts';
import {
  ev,
  envelopeOf,
  EVENT_TYPES,
  HISTORY_MS,
  identity,
  offsetOf,
  readHistory,
  readReplay,
  readResumed,
  readUpTo,
  SPELLINGS,
  spelled,
  timeOf,
  timestamp,
  waitMs,
  wholeSecond,
  type History,
  type Spelling,
} from '../harness/vocabulary/events.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { skipBeyondReadOnlyBudget, test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import type { SseConnection } from '../harness/requests/sse.ts';
import { canTrigger, causedBy, nonce } from '../harness/fixtures/triggers.ts';
import { declareRules, type Declared } from '../harness/vocabulary/declare.ts';
import { history, openOrSkip, READ, requireHistory } from './events-history.ts';

test.describe.configure({ timeout: 120_000 });

/** The rounding down of from_timestamp tolerated: it is the less accurate start. Events at or after it have no slack. */
const TOLERANCE_MS = 60_000;

/**
 * Starts ahead of the service's clock where a count of seconds since the epoch overflows the integer a store may
 * keep it in (and wraps to a time before 1970): a signed 32-bit one (2038-01-19T03:14:07Z is its last second), an
 * unsigned one (2106-02-07T06:28:15Z), and the last second a 20-character timestamp names. No event of the history
 * is at or after any of them, so a stream started there replays none of it (partition of the timestamp's range).
 */
const PAST_COUNTER_OVERFLOW: ReadonlyArray<[string, string]> = [
  ['2038-01-19T03:14:08Z', 'the first second a signed 32-bit count of seconds cannot hold'],
  ['2106-02-07T06:28:16Z', 'the first second an unsigned 32-bit count of seconds cannot hold'],
  ['9999-12-31T23:59:59Z', 'the last second RFC 3339 names'],
];

/** The history a start-without-from check needs: its older half lies beyond any plausible replay of the latest events (10). */
const START_REPLAY_MIN_HISTORY = 20;

/** The type of the events the start check causes (events.causer.createOrganization). */
const CAUSED_TYPE = 'organization.created';

/** Subscribes from `from_timestamp`, which must open an event stream (`note`: why the spelling is one RFC 3339 allows). */
async function subscribeFrom(
  start: Declared<'events.from-timestamp.start'>,
  events: EventsHarness,
  from_timestamp: string,
  note = '',
): Promise<SseConnection | undefined> {
  const conn = await events.subscribe({ query: { from_timestamp } });
  must(
    start.eventsFromTimestampStart,
    conn.isEventStream,
    ev(
      conn,
      `a 2xx event stream for the RFC 3339 timestamp ${from_timestamp}${note}`,
      `status ${conn.status}, Content-Type ${conn.contentType || '(none)'} ${conn.errorBody.slice(0, 200)}`,
    ),
  );
  return conn.isEventStream ? conn : undefined;
}

/**
 * Starts at the whole second of history event j, spelled one way RFC 3339 allows: every event whose
 * time is at or after that second arrives (no slack: event j itself lies in it), and nothing a
 * minute or more before it (a server may round the less accurate start down, within a minute).
 */
async function startAtEvent(
  start: Declared<'events.from-timestamp.start'>,
  events: EventsHarness,
  config: Config,
  h: History,
  j: number,
  spelling: Spelling,
): Promise<void> {
  const times = h.events.map(timeOf);
  const at = wholeSecond(times[j]!);
  const from_timestamp = spelled(at, spelling);
  const conn = await subscribeFrom(start, events, from_timestamp, ' (RFC 3339 5.6: "T" and "Z" may be lower case)');
  if (!conn) return;
  const due = h.ids.filter((_, i) => times[i]! >= at);
  const { got, unfinished } = await readUpTo(conn, config, h.ids.at(-1)!, h.ids);
  const early = got.filter((id) => times[h.ids.indexOf(id)]! < at - TOLERANCE_MS);
  const missing = due.filter((id) => !got.includes(id));
  const context = `from_timestamp ${from_timestamp}, the second of history event ${j} (${h.ids[j]}@${new Date(times[j]!).toISOString()}); history times: ${h.events.map((m, i) => `${h.ids[i]}@${new Date(times[i]!).toISOString()}`).join(', ')}`;
  must(
    start.eventsFromTimestampStart,
    !unfinished && missing.length === 0,
    ev(
      conn,
      `every history event whose time is at or after ${from_timestamp} (${due.length})`,
      unfinished ?? `missing ${missing.join(', ')}`,
      context,
    ),
  );
  must(
    start.eventsFromTimestampStart,
    early.length === 0,
    ev(
      conn,
      `no event a minute or more before ${from_timestamp}`,
      `${early.length} earlier events: ${early.slice(0, 5).join(', ')}`,
      context,
    ),
  );
  conn.close();
}

/** Starts at the second of an event caused now, in each case of T and Z: false where this run causes no event or it never arrived. */
async function startAtCaused(
  start: Declared<'events.from-timestamp.start'>,
  events: EventsHarness,
  config: Config,
): Promise<boolean> {
  if (!canTrigger(config)) return false;
  const live = await events.subscribe();
  const n = nonce();
  await events.causer.createOrganization(n);
  const caused = await live
    .waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n}`)
    .catch(() => undefined);
  live.close();
  if (!caused || !Number.isFinite(timeOf(caused))) return false;
  // The event's own second: it lies at or after the start, with no slack.
  const at = wholeSecond(timeOf(caused));
  for (const spelling of ['TZ', 'tz'] as const) {
    const from_timestamp = spelled(at, spelling);
    const conn = await events.subscribe({ query: { from_timestamp } });
    const got = conn.isEventStream
      ? await conn
          .waitFor((m) => identity(m) === identity(caused), waitMs(config), 0, `the event caused at ${from_timestamp}`)
          .catch(() => undefined)
      : undefined;
    must(
      start.eventsFromTimestampStart,
      !!got,
      ev(
        conn,
        `the event caused at ${envelopeOf(caused)?.time} (${identity(caused)}), in the second ${from_timestamp} names`,
        conn.isEventStream
          ? `not within ${waitMs(config)} ms (${conn.messages.length} messages read)`
          : `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`,
      ),
    );
    const early = conn.events.slice(0, got ? got.index : undefined).filter((m) => timeOf(m) < at - TOLERANCE_MS);
    must(
      start.eventsFromTimestampStart,
      early.length === 0,
      ev(
        conn,
        `no event a minute or more before ${from_timestamp}`,
        `${early.length} earlier events: ${early
          .slice(0, 5)
          .map((m) => `${identity(m)}@${envelopeOf(m)?.time}`)
          .join(', ')}`,
      ),
    );
    conn.close();
  }
  return true;
}

/**
 * One stream from `ms` (whole seconds), judged by its relation to the uncut history: it is the history's suffix
 * from the first event at or after `ms`, in the history's order. A server may start the less accurate way,
 * within a minute before `ms`: the suffix may then begin at an event of that minute, never earlier. Where the
 * history's times do not rise along the stream, a suffix by time is not defined: order, completeness and
 * nothing early are judged, not contiguity.
 */
async function startAtTimestamp(
  start: Declared<'events.from-timestamp.start'>,
  events: EventsHarness,
  config: Config,
  h: History,
  ms: number,
  where: string,
): Promise<void> {
  const times = h.events.map(timeOf);
  const from_timestamp = timestamp(ms);
  const conn = await subscribeFrom(start, events, from_timestamp);
  if (!conn) return;
  const first = times.findIndex((t) => t >= ms);
  const due = first < 0 ? [] : h.ids.filter((_, i) => times[i]! >= ms);
  // Up to the newest history event where it is due; where none is, whatever the stream replays (bounded).
  const { got, unfinished } = await readResumed(conn, config, due.length ? [h.ids.at(-1)!] : [], h.ids);
  conn.close();
  const rising = times.every((t, i) => i === 0 || t >= times[i - 1]!);
  const earliest = times.findIndex((t) => t >= ms - TOLERANCE_MS);
  // The suffixes a right start gives: from the first event at or after ms, or from one of the minute before it.
  const suffixes = rising
    ? Array.from(
        { length: (first < 0 ? h.ids.length : first) - (earliest < 0 ? h.ids.length : earliest) + 1 },
        (_, k) => h.ids.slice((earliest < 0 ? h.ids.length : earliest) + k),
      )
    : [];
  const inOrder = h.ids.filter((id) => got.includes(id));
  const missing = due.filter((id) => !got.includes(id));
  const early = got.filter((id) => times[h.ids.indexOf(id)]! < ms - TOLERANCE_MS);
  const right = rising
    ? suffixes.some((x) => JSON.stringify(x) === JSON.stringify(got))
    : missing.length === 0 && early.length === 0 && JSON.stringify(inOrder) === JSON.stringify(got);
  const expected = first < 0 ? '(none)' : `${h.ids[first]} … ${h.ids.at(-1)} (${due.length})`;
  must(
    start.eventsFromTimestampStart,
    !unfinished && right,
    ev(
      conn,
      `the uncut history's suffix from its first event at or after ${from_timestamp} (${where}), in its order: ${expected}${
        rising ? '; a start within the minute before may add events of that minute, nothing earlier' : ''
      }`,
      unfinished ??
        `${got.join(', ') || '(none)'}${missing.length ? `; missing ${missing.join(', ')}` : ''}${
          early.length ? `; a minute or more before: ${early.join(', ')}` : ''
        }`,
      `uncut history (from_timestamp ${h.from_timestamp}): ${h.events
        .map((m, i) => `${h.ids[i]}@${new Date(times[i]!).toISOString()}`)
        .join(', ')}`,
    ),
  );
}

test.describe("events stream: the tenant's history @sse", () => {
  // Relation: a start further back replays every event a later start replays. A server that reads the
  // timestamp off by a month (or a day, a year) starts the later one after its own history, and shows it only
  // where the earlier one lands inside it.
  const earlier = declareRules(READ, 'events.from-timestamp.start');
  test(
    'should replay, from a start forty days back, no event of the last day that a start a day back leaves out (relation: an earlier start holds a later one)',
    earlier,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the start forty days back is');
      const sentAt = Date.now();
      const dayBack = timestamp(sentAt - HISTORY_MS);
      const near = await events.subscribe({ query: { from_timestamp: dayBack } });
      must(
        earlier.eventsContentType,
        near.isEventStream,
        ev(near, 'a 2xx text/event-stream', `status ${near.status}, Content-Type ${near.contentType || '(none)'}`),
      );
      const nearEvents = await readReplay(near, config);
      near.close();
      const far = await events.subscribe({ query: { from_timestamp: timestamp(sentAt - 40 * 24 * 3_600_000) } });
      // How far back a tenant keeps events is not shown: a start it does not keep may be refused.
      test.skip(
        !far.isEventStream && far.status >= 400 && far.status < 500,
        `A start forty days back is refused (status ${far.status}): how long the tenant keeps events is not shown`,
      );
      // Anything else but a stream (a 5xx included) is no answer to a start it keeps.
      must(
        earlier.eventsContentType,
        far.isEventStream,
        ev(
          far,
          'a 2xx text/event-stream, or a 4xx',
          `status ${far.status}, Content-Type ${far.contentType || '(none)'}`,
        ),
      );
      const farEvents = await readReplay(far, config);
      far.close();
      // The window both reads cover: from a day back (and its rounding) to the near read's last event, or, where it
      // read none, to when it was sent (events that came later are the far read's alone).
      const from = Date.parse(dayBack) + TOLERANCE_MS;
      const to = nearEvents.length ? Math.max(...nearEvents.map(timeOf)) : sentAt - TOLERANCE_MS;
      const nearIds = new Set(nearEvents.map(identity));
      const left = farEvents.filter((m) => timeOf(m) >= from && timeOf(m) <= to && !nearIds.has(identity(m)));
      must(
        earlier.eventsFromTimestampStart,
        left.length === 0,
        ev(
          near,
          `every event the start forty days back replays between ${new Date(from).toISOString()} and ${new Date(to).toISOString()} also in the replay from ${dayBack}`,
          `${left.length} left out (${left
            .slice(0, 3)
            .map((m) => `${identity(m)} at ${new Date(timeOf(m)).toISOString()}`)
            .join(
              ', ',
            )}); the start a day back replayed ${nearEvents.length} events, the start forty days back ${farEvents.length}`,
        ),
      );
    },
  );

  const replay = declareRules(READ, 'events.start.replay');
  test(
    "should start from the latest events when from is absent, not replay the history, with event_type too (the latest events of the types asked for: the caused type, or the history's most frequent ones, alone and with a type it has none of; a type the history holds only in its older half)",
    replay,
    async ({ events, config }) => {
      let h = await history(replay, events, config);
      // A short history, on a target the suite may write to: make the events it needs, then read the history again.
      if (h.events.length < START_REPLAY_MIN_HISTORY && canTrigger(config)) {
        const n = nonce();
        for (let i = h.events.length; i < START_REPLAY_MIN_HISTORY; i++)
          await events.causer.createOrganization(`${n}-${i}`);
        h = await readHistory(replay, events, config);
        h.conn.close();
      }
      // How many of the latest events a start hands over is not shown: with a short history, a fair replay of
      // "the latest events" could reach back into its older half. Decided only where the older half is far back.
      requireHistory(h, START_REPLAY_MIN_HISTORY, 'to tell a replay of the latest events from a replay of the history');
      /** What a start without from replayed of `ids` (the history, or its events of the types asked for): a tail. */
      const mustReplayTail = async (ids: readonly string[], query: Record<string, string[]>, label: string) => {
        const conn = await events.subscribe({ query });
        must(
          replay.eventsStartReplay,
          conn.isEventStream,
          ev(conn, 'a 2xx event stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`),
        );
        const replayed = (await readReplay(conn, config)).map(identity).filter((id) => ids.includes(id));
        const n = ids.length;
        // "the latest events": a tail of the history, if anything; never its older half.
        const tail = ids.slice(n - replayed.length);
        const older = replayed.filter((id) => ids.indexOf(id) < Math.floor(n / 2));
        const context = `${label} (${n} events since ${h.from_timestamp}): ${ids.join(', ')}\nreplayed without from: ${replayed.join(', ') || '(none)'}`;
        must(
          replay.eventsStartReplay,
          older.length === 0 && JSON.stringify(replayed) === JSON.stringify(tail),
          ev(
            conn,
            `no event of the older half of the ${label}; if any, the newest ones in order (at most ${n - Math.floor(n / 2)})`,
            older.length
              ? `${older.length} older events replayed (${older.slice(0, 5).join(', ')})`
              : `${replayed.join(', ')} (not the tail ${tail.join(', ')})`,
            context,
          ),
        );
      };
      await mustReplayTail(h.ids, {}, 'history');
      // A filter narrows the stream; it does not move its start (relation). A server may keep a start per filter:
      // the first stream of a set of types is where one that replays for a set it has not served shows. Beyond a
      // read-only run's request budget against a tenant; where the most frequent type has history enough.
      if (!config.embedded && config.writes === 'none') return;
      const countsOf = (x: History) => {
        const counts = new Map<string, number>();
        for (const m of x.events) counts.set(m.event, (counts.get(m.event) ?? 0) + 1);
        return counts;
      };
      let counts = countsOf(h);
      // The type the suite causes where it may write (made up to the history needed); else the history's most
      // frequent types, as few as hold the history needed.
      if ((counts.get(CAUSED_TYPE) ?? 0) < START_REPLAY_MIN_HISTORY && canTrigger(config)) {
        const n = nonce();
        for (let i = counts.get(CAUSED_TYPE) ?? 0; i < START_REPLAY_MIN_HISTORY; i++)
          await events.causer.createOrganization(`${n}-${i}`);
        h = await readHistory(replay, events, config);
        h.conn.close();
        counts = countsOf(h);
      }
      const types: string[] = [];
      if (canTrigger(config)) types.push(CAUSED_TYPE);
      else
        for (const [t] of [...counts].sort((a, b) => b[1] - a[1]))
          if (types.reduce((k, u) => k + (counts.get(u) ?? 0), 0) < START_REPLAY_MIN_HISTORY) types.push(t);
      const ofTypes = h.events.filter((m) => types.includes(m.event)).map(identity);
      const absent = EVENT_TYPES.filter((t) => !counts.has(t)).at(-1);
      if (ofTypes.length >= START_REPLAY_MIN_HISTORY)
        for (const wanted of [types, ...(absent ? [[...types, absent]] : [])])
          await mustReplayTail(ofTypes, { event_type: wanted }, `history of ${wanted.join(' and ')}`);
      // A type the tenant seldom emits, every event of it in the history's older half: a start filtered to it
      // replays none of them. Its start is the latest position, as without the filter; the newest events of its
      // own type lie far behind it (a server replaying the last few of each type asked for reaches back there).
      const half = Math.floor(h.ids.length / 2);
      const position = new Map(h.ids.map((id, i) => [id, i]));
      const rare = [...counts]
        .filter(([t]) => h.events.every((m) => m.event !== t || (position.get(identity(m)) ?? 0) < half))
        .sort((a, b) => a[1] - b[1])[0]?.[0];
      if (rare !== undefined)
        await mustReplayTail(
          h.ids,
          { event_type: [rare] },
          `history, filtered to ${rare}, which it holds only in its older half`,
        );
    },
  );

  const fromAndTimestamp = declareRules(READ, 'events.from-and-timestamp');
  test(
    'should resume after the cursor when from_timestamp is given too',
    fromAndTimestamp,
    async ({ events, config }) => {
      const h = await history(fromAndTimestamp, events, config);
      requireHistory(h, 3, 'to resume between them');
      const n = h.ids.length;
      const k = Math.floor((n - 1) / 2);
      const last = h.ids.at(-1)!;
      // The timestamp earlier than the cursor (the start of the history), then later (after its last event).
      for (const ts of [h.from_timestamp, timestamp(timeOf(h.events.at(-1)!) + 2 * TOLERANCE_MS)]) {
        const cursor = k === 0 || ts !== h.from_timestamp ? 0 : k;
        const from = offsetOf(h.events[cursor]!)!;
        const { conn, refused } = await openOrSkip(
          events,
          { from, from_timestamp: ts },
          fromAndTimestamp.eventsFromAndTimestamp,
          'from and from_timestamp both given',
        );
        if (refused) {
          test.skip(
            true,
            `from with from_timestamp answered ${conn.status}: whether a target accepts both is not stated`,
          );
          return;
        }
        const { got, unfinished } = await readUpTo(conn, config, last, h.ids);
        const expected = h.ids.slice(cursor + 1);
        must(
          fromAndTimestamp.eventsFromAndTimestamp,
          !unfinished && JSON.stringify(got) === JSON.stringify(expected),
          ev(
            conn,
            `the events after the cursor (event ${cursor}), whatever from_timestamp ${ts} says: ${expected.join(', ')}`,
            unfinished ?? got.join(', '),
            `history: ${h.ids.join(', ')}`,
          ),
        );
        conn.close();
      }
    },
  );

  const noEarlier = declareRules(READ, 'events.from-timestamp.start');
  test(
    'should replay nothing older than from_timestamp an hour back, whatever the history holds',
    noEarlier,
    async ({ events, config }) => {
      // Judged on its own read, not on the day-long history: a target that replays the wrong side of the
      // timestamp can leave that history empty, and everything judged on it would skip.
      const from = Date.now() - 3_600_000;
      const read = await readHistory(noEarlier, events, config, { from_timestamp: timestamp(from) });
      read.conn.close();
      test.skip(!read.events.length, 'The target replayed no event from an hour back: nothing to judge');
      const early = read.events.filter((m) => timeOf(m) < from - TOLERANCE_MS);
      must(
        noEarlier.eventsFromTimestampStart,
        early.length === 0,
        ev(
          read.conn,
          `no event a minute or more before ${timestamp(from)}`,
          `${early.length} earlier: ${early
            .slice(0, 5)
            .map((m) => `${identity(m)}@${envelopeOf(m)?.time}`)
            .join(', ')}`,
        ),
      );
    },
  );

  const partition = declareRules(READ, 'events.from-timestamp.start');
  test(
    "should start a stream from a timestamp at the uncut history's suffix from its first event at or after it: at and just before the oldest, a middle and the newest event, after all of them, and past the overflow of a 32-bit count of seconds (2038, 2106) and in 9999, where it replays none (partition, relation)",
    partition,
    async ({ events, config }) => {
      // One stream per point: more than a read-only run against a tenant may send (its request budget).
      skipBeyondReadOnlyBudget(config, 'the streams of this partition are');
      const h = await history(partition, events, config);
      requireHistory(h, 1, 'to start streams at their times');
      const dated = h.events.map(timeOf).filter((t) => Number.isFinite(t));
      test.skip(
        dated.length !== h.events.length,
        `Of the tenant's ${h.events.length} events of the last ${HISTORY_MS / 3_600_000} h, ${dated.length} carry a time: the partition needs every one`,
      );
      const n = h.events.length;
      const points: Array<[number, string]> = [];
      for (const [j, which] of [
        [0, 'the oldest'],
        [Math.floor(n / 2), 'a middle one'],
        [n - 1, 'the newest'],
      ] as const) {
        const at = wholeSecond(dated[j]!);
        points.push([at, `the second of ${which}, history event ${j}`]);
        points.push([at - 1000, `the second before ${which}, history event ${j}`]);
      }
      // After every event of the history (not in the future: the history was read after its newest event).
      const after = wholeSecond(Math.max(...dated)) + 1000;
      if (after <= Date.now()) points.push([after, 'the second after the newest history event']);
      for (const [iso, what] of PAST_COUNTER_OVERFLOW) points.push([Date.parse(iso), `${iso}, ${what}`]);
      const seen = new Set<number>();
      for (const [ms, where] of points) {
        if (seen.has(ms)) continue;
        seen.add(ms);
        await startAtTimestamp(partition, events, config, h, ms, where);
      }
    },
  );

  const start = declareRules(READ, 'events.from-timestamp.start');
  test(
    'should start at from_timestamp, every event of its second or later included, T and Z in either case (property), and replay none of the history from a start past 2038-01-19T03:14:07Z (a signed 32-bit count of seconds overflows)',
    start,
    async ({ events, config }) => {
      const h = await history(start, events, config);
      const dated = h.events.map((_, j) => j).filter((j) => Number.isFinite(timeOf(h.events[j]!)));
      // The second of any dated history event, the newest (the head) first, in each spelling RFC 3339 allows.
      if (dated.length)
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...dated), fc.constantFrom(...SPELLINGS), (j, spelling) =>
            startAtEvent(start, events, config, h, j, spelling),
          ),
          {
            ...fcParams<[number, Spelling]>(config, 5),
            examples: [
              [dated.at(-1)!, 'tz'],
              [dated[Math.floor(dated.length / 2)]!, 'TZ'],
            ],
          },
        );
      // And one start past a signed 32-bit count of seconds: a single stream, within a read-only run's budget.
      if (h.events.length) {
        const [iso, what] = PAST_COUNTER_OVERFLOW[0]!;
        await startAtTimestamp(start, events, config, h, Date.parse(iso), `${iso}, ${what}`);
      }
      const atCaused = await startAtCaused(start, events, config);
      test.skip(
        !dated.length && !atCaused,
        `The tenant's ${h.events.length} events of the last ${HISTORY_MS / 3_600_000} h carry no time, and this run causes no event`,
      );
    },
  );
});
