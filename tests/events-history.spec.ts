/**
 * Endpoints 4 (GET /events) on the tenant's own history: a subscription with
 * `from_timestamp` a day back replays the recent events, so the message,
 * envelope, connection.created, resumption, start-position and filter rules
 * are decided without writes too. These checks run whether or not the suite
 * causes events: what they read is whatever the tenant already holds.
 *
 * Every wait is bounded by an event that must arrive (the last history event
 * every expected one precedes) or, where nothing must arrive, by the end of
 * the replay (see readReplay).
 */
import { must, observe } from '../harness/vocabulary/must.ts';
import type { Config } from '../harness/run/config.ts';
import {
  checkConnectionCreated, checkMessage, cursorOf, envelopeOf, EVENT_TYPES, messageRules, ev, HISTORY_MS, identity, judgeResume, resumeRules, offsetOf, readHistory, readReplay, readUpTo, timeOf, timestamp, waitMs, type History,
} from '../harness/vocabulary/events.ts';
import { test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { canTrigger, causedBy, nonce } from '../harness/fixtures/triggers.ts';
import { declareRules, schemaRules, type Declared, type RuleRef } from '../harness/vocabulary/declare.ts';

test.describe.configure({ timeout: 120_000 });

/** The rounding of from_timestamp tolerated either way: it is the less accurate start ("at least to the minute"). */
const TOLERANCE_MS = 60_000;

/** The rule every history check decides first: its read of the history is an event stream. */
const READ = 'events.content-type';

/**
 * The history, read once per worker: every check here compares with the same
 * first read, and a read-only run stays within its request budget. Later
 * events (caused by other checks) come after it and are left out by identity.
 */
let shared: Promise<History> | undefined;
function history(d: Declared<'events.content-type'>, events: EventsHarness, config: Config): Promise<History> {
  shared ??= readHistory(d, events, config).then((h) => (h.conn.close(), h));
  return shared;
}

/** Skips (with the reason) when the tenant's history holds fewer than `n` events. */
function requireHistory(h: History, n: number, why: string): void {
  test.skip(h.events.length < n, `The tenant's events of the last ${HISTORY_MS / 3_600_000} h hold ${h.events.length} events; ${n} are needed ${why}`);
}

/** Subscribes with `query`; a 4xx the document leaves open is observed and skips, anything else but a stream fails `rule`. */
/** The history a start-without-from check needs: its older half lies beyond any plausible replay of the latest events (10). */
const START_REPLAY_MIN_HISTORY = 20;

async function openOrSkip(events: EventsHarness, query: Record<string, string>, rule: RuleRef, why: string) {
  const conn = await events.subscribe({ query });
  if (!conn.isEventStream && conn.status >= 400 && conn.status < 500) {
    observe('events.heartbeat.frequency', 'cursor refused', String(conn.status), { target: conn.target, body: conn.errorBody.slice(0, 200) });
    return { conn, refused: true };
  }
  must(rule, conn.isEventStream, ev(conn, `a 2xx event stream (${why})`, `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`));
  return { conn, refused: false };
}

test.describe('events stream: the tenant\'s history @sse', () => {
  const declared = declareRules(READ, messageRules);
  test('should send well-formed messages, envelopes and contexts in the history', declared, async ({ events, config }) => {
    const h = await history(declared, events, config);
    requireHistory(h, 1, 'to check their format');
    for (const m of h.conn.messages) checkMessage(declared, h.conn, m);
  });

  const connectionCreatedObject = declareRules(READ, schemaRules('connection-created-object'));
  test('should carry the documented connection.created object wherever the history has one', connectionCreatedObject, async ({ events, config }) => {
    const h = await history(connectionCreatedObject, events, config);
    const created = h.events.filter((m) => m.event === 'connection.created');
    test.skip(created.length === 0, `No connection.created among the tenant's ${h.events.length} events of the last ${HISTORY_MS / 3_600_000} h`);
    for (const m of created) checkConnectionCreated(h.conn, m);
  });

  const resume = declareRules(READ, 'events.payload.offset', resumeRules);
  test('should resume from several cut points of the history with nothing lost, repeated or reordered', resume, async ({ events, config }) => {
    const h = await history(resume, events, config);
    requireHistory(h, 3, 'to resume between them');
    let resumed = 0;
    const resumeAt = async (k: number, chain: boolean) => {
      const from = offsetOf(h.events[k]!);
      must(resume.eventsPayloadOffset, typeof from === 'string', ev(h.conn, 'a string offset on every event', JSON.stringify(from)));
      const { conn, refused } = await openOrSkip(events, { from: from! }, resume.eventsResumeNoLoss, `resuming from the offset of history event ${k}`);
      if (refused) return;
      resumed++;
      const { got, unfinished } = await readUpTo(conn, config, h.ids.slice(k + 1), h.ids);
      judgeResume(resume, conn, h.ids, k, from!, got, unfinished);
      // Resume again from an offset the resumed stream carried: later requests use the cursor from `from`.
      const j = k + 1 + Math.floor((h.ids.length - k - 2) / 2);
      const again = conn.events.find((m) => identity(m) === h.ids[j]);
      const from2 = again && offsetOf(again);
      conn.close();
      if (!chain || from2 === undefined || j >= h.ids.length - 1) return;
      const second = await openOrSkip(events, { from: from2 }, resume.eventsResumeNoLoss, `resuming from an offset of a resumed stream (event ${j})`);
      if (second.refused) return;
      const r2 = await readUpTo(second.conn, config, h.ids.slice(j + 1), h.ids);
      judgeResume(resume, second.conn, h.ids, j, from2, r2.got, r2.unfinished);
      second.conn.close();
    };
    const n = h.ids.length;
    // The first and the last cut, and a third from the first resumption; more, drawn at random, where requests cost nothing.
    await resumeAt(0, true);
    await resumeAt(n - 2, false);
    if (config.embedded) await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: n - 2 }), (k) => resumeAt(k, false)), fcParams<[number]>(config, 2));
    test.skip(resumed === 0, 'Every history offset was refused: how long a cursor stays valid is not shown');
  });

  const heartbeatOffset = declareRules(READ, 'events.resume.heartbeat-offset');
  test('should resume from a heartbeat after the history with none of the history again', heartbeatOffset, async ({ events, config }) => {
    const h = await history(heartbeatOffset, events, config);
    requireHistory(h, 1, 'before a heartbeat');
    const hb = h.conn.messages.slice(h.events.at(-1)!.index + 1).find((m) => m.event === 'offset-only');
    test.skip(!hb || cursorOf(hb) === undefined, 'No heartbeat with a cursor followed the history: the heartbeat frequency is not shown');
    const { conn, refused } = await openOrSkip(events, { from: cursorOf(hb!)! }, heartbeatOffset.eventsResumeHeartbeatOffset, 'resuming from a heartbeat cursor');
    test.skip(refused, `The heartbeat cursor was refused (${conn.status}): how long a cursor stays valid is not shown`);
    const again = (await readReplay(conn, config)).filter((m) => h.ids.includes(identity(m)));
    must(heartbeatOffset.eventsResumeHeartbeatOffset, again.length === 0, ev(conn, `nothing of the history before the heartbeat (cursor ${cursorOf(hb!)})`, `${again.length} history events again: ${again.map(identity).join(', ')}`));
  });

  const replay = declareRules(READ, 'events.start.replay');
  test('should start from the latest events when from is absent, not replay the history', replay, async ({ events, config }) => {
    const h = await history(replay, events, config);
    // How many of the latest events a start hands over is not shown: with a short history, a fair replay of
    // "the latest events" could reach back into its older half. Decided only where the older half is far back.
    requireHistory(h, START_REPLAY_MIN_HISTORY, 'to tell a replay of the latest events from a replay of the history');
    const conn = await events.subscribe();
    must(replay.eventsStartReplay, conn.isEventStream, ev(conn, 'a 2xx event stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`));
    const replayed = (await readReplay(conn, config)).map(identity).filter((id) => h.ids.includes(id));
    const n = h.ids.length;
    // "the latest events": a tail of the history, if anything; never its older half.
    const tail = h.ids.slice(n - replayed.length);
    const older = replayed.filter((id) => h.ids.indexOf(id) < Math.floor(n / 2));
    const context = `history (${n} events since ${h.from_timestamp}): ${h.ids.join(', ')}\nreplayed without from: ${replayed.join(', ') || '(none)'}`;
    must(replay.eventsStartReplay, older.length === 0 && JSON.stringify(replayed) === JSON.stringify(tail), ev(conn, `no event of the older half of the history; if any, the newest ones in order (at most ${n - Math.floor(n / 2)})`, older.length ? `${older.length} older events replayed (${older.slice(0, 5).join(', ')})` : `${replayed.join(', ')} (not the tail ${tail.join(', ')})`, context));
  });

  const fromAndTimestamp = declareRules(READ, 'events.from-and-timestamp');
  test('should resume after the cursor when from_timestamp is given too', fromAndTimestamp, async ({ events, config }) => {
    const h = await history(fromAndTimestamp, events, config);
    requireHistory(h, 3, 'to resume between them');
    const n = h.ids.length;
    const k = Math.floor((n - 1) / 2);
    const last = h.ids.at(-1)!;
    // The timestamp earlier than the cursor (the start of the history), then later (after its last event).
    for (const ts of [h.from_timestamp, timestamp(timeOf(h.events.at(-1)!) + 2 * TOLERANCE_MS)]) {
      const cursor = k === 0 || ts !== h.from_timestamp ? 0 : k;
      const from = offsetOf(h.events[cursor]!)!;
      const { conn, refused } = await openOrSkip(events, { from, from_timestamp: ts }, fromAndTimestamp.eventsFromAndTimestamp, 'from and from_timestamp both given');
      if (refused) {
        test.skip(true, `from with from_timestamp answered ${conn.status}: whether a target accepts both is not stated`);
        return;
      }
      const { got, unfinished } = await readUpTo(conn, config, last, h.ids);
      const expected = h.ids.slice(cursor + 1);
      must(fromAndTimestamp.eventsFromAndTimestamp, !unfinished && JSON.stringify(got) === JSON.stringify(expected), ev(conn, `the events after the cursor (event ${cursor}), whatever from_timestamp ${ts} says: ${expected.join(', ')}`, unfinished ?? got.join(', '), `history: ${h.ids.join(', ')}`));
      conn.close();
    }
  });

  const start = declareRules(READ, 'events.from-timestamp.start');
  test('should start at from_timestamp, give or take its rounding', start, async ({ events, config }) => {
    const h = await history(start, events, config);
    let decided = false;
    const times = h.events.map(timeOf);
    // A boundary with history events a whole tolerance before and after it.
    const candidates = h.events.map((_, j) => j).filter((j) => Number.isFinite(times[j]!) && times[0]! < times[j]! - 2 * TOLERANCE_MS && times.at(-1)! >= times[j]! + TOLERANCE_MS);
    if (candidates.length > 0) {
      const j = candidates[Math.floor(candidates.length / 2)]!;
      const at = Math.floor(times[j]! / 1000) * 1000;
      const from_timestamp = timestamp(at);
      const conn = await events.subscribe({ query: { from_timestamp } });
      const due = h.ids.filter((_, i) => times[i]! >= at + TOLERANCE_MS);
      const { got, unfinished } = await readUpTo(conn, config, h.ids.at(-1)!, h.ids);
      const early = got.filter((id) => times[h.ids.indexOf(id)]! < at - TOLERANCE_MS);
      const missing = due.filter((id) => !got.includes(id));
      const context = `from_timestamp ${from_timestamp}; history times: ${h.events.map((m, i) => `${h.ids[i]}@${new Date(times[i]!).toISOString()}`).join(', ')}`;
      must(start.eventsFromTimestampStart, !unfinished && missing.length === 0, ev(conn, `every event a minute or more after ${from_timestamp}`, unfinished ?? `missing ${missing.join(', ')}`, context));
      must(start.eventsFromTimestampStart, early.length === 0, ev(conn, `no event a minute or more before ${from_timestamp}`, `${early.length} earlier events: ${early.slice(0, 5).join(', ')}`, context));
      conn.close();
      decided = true;
    }
    if (canTrigger(config)) {
      // An event caused now, asked for from two tolerances before its own time: it arrives, and nothing clearly older does.
      const live = await events.subscribe();
      const n = nonce();
      await events.causer.createOrganization(n);
      const caused = await live.waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n}`).catch(() => undefined);
      live.close();
      if (caused && Number.isFinite(timeOf(caused))) {
        const at = Math.floor((timeOf(caused) - 2 * TOLERANCE_MS) / 1000) * 1000;
        const from_timestamp = timestamp(at);
        const conn = await events.subscribe({ query: { from_timestamp } });
        const got = await conn.waitFor((m) => identity(m) === identity(caused), waitMs(config), 0, `the event caused after ${from_timestamp}`).catch(() => undefined);
        must(start.eventsFromTimestampStart, !!got, ev(conn, `the event caused at ${envelopeOf(caused)?.time} (${identity(caused)}), two minutes after ${from_timestamp}`, `not within ${waitMs(config)} ms (${conn.messages.length} messages read)`));
        const early = conn.events.slice(0, got!.index).filter((m) => timeOf(m) < at - TOLERANCE_MS);
        must(start.eventsFromTimestampStart, early.length === 0, ev(conn, `no event a minute or more before ${from_timestamp}`, `${early.length} earlier events: ${early.slice(0, 5).map((m) => `${identity(m)}@${envelopeOf(m)?.time}`).join(', ')}`));
        conn.close();
        decided = true;
      }
    }
    test.skip(!decided, `The tenant's ${h.events.length} events of the last ${HISTORY_MS / 3_600_000} h are not spread over more than ${(3 * TOLERANCE_MS) / 60_000} minutes around any of them, and this run causes no event`);
  });

  const onlyRequested = declareRules(READ, 'events.filter.only-requested');
  test('should replay only the requested event types', onlyRequested, async ({ events, config }) => {
    const h = await history(onlyRequested, events, config);
    const byCount = [...new Set(h.events.map((m) => m.event))].sort((a, b) => h.events.filter((m) => m.event === b).length - h.events.filter((m) => m.event === a).length);
    test.skip(byCount.length < 2, `The tenant's history holds ${byCount.length} event type(s): two are needed to tell a filter from none`);
    // The most and the least frequent type: event_type repeated, one occurrence per type.
    for (const wanted of [[byCount[0]!, byCount.at(-1)!]]) {
      const conn = await events.subscribe({ query: { from_timestamp: h.from_timestamp, event_type: wanted } });
      const expected = h.events.filter((m) => wanted.includes(m.event)).map(identity);
      const { got, unfinished } = await readUpTo(conn, config, expected.at(-1)!, h.ids);
      const others = conn.events.filter((m) => !wanted.includes(m.event));
      const context = `history: ${h.events.map((m) => m.event).join(', ')}`;
      must(onlyRequested.eventsFilterOnlyRequested, !unfinished && expected.every((id) => got.includes(id)), ev(conn, `the history's ${wanted.join(', ')} events: ${expected.join(', ')}`, unfinished ?? got.join(', '), context));
      must(onlyRequested.eventsFilterOnlyRequested, others.length === 0, ev(conn, `only ${wanted.join(', ')}`, `${others.length} other events: ${[...new Set(others.map((m) => m.event))].join(', ')}`, context));
      conn.close();
    }
  });

  const allWhenAbsent = declareRules(READ, 'events.filter.all-when-absent');
  test('should replay every event type when event_type is absent', allWhenAbsent, async ({ events, config }) => {
    // The same history asked for every documented type by name: each of these arrives without event_type too.
    const h = await history(allWhenAbsent, events, config);
    const all = await readHistory(allWhenAbsent, events, config, { event_type: EVENT_TYPES });
    all.conn.close();
    requireHistory(all, 1, 'to compare');
    // Only events up to the end of the unfiltered read: later ones came after it.
    const missing = all.events.filter((m) => !h.ids.includes(identity(m)) && (h.events.length === 0 || timeOf(m) <= timeOf(h.events.at(-1)!)));
    must(allWhenAbsent.eventsFilterAllWhenAbsent, missing.length === 0, ev(h.conn, `every event the history has by type (${all.ids.length})`, `${missing.length} missing without event_type, of types ${[...new Set(missing.map((m) => m.event))].join(', ')}`, `without event_type: ${h.events.map((m) => m.event).join(', ')}`));
  });
});
