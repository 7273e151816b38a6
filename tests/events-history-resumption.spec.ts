/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * resuming from the offsets of its events: every offset the stream gives out,
 * in the history part of a from_timestamp replay and of a cursor replay alike
 * (an early, a middle and the last event among them), passed as from right
 * after it came, a refusal weighed against the cursors of the same or an
 * older position, and from every heartbeat of the replay, wherever it falls.
 */
import type { Config } from '../harness/run/config.ts';
import type { SseConnection, SseMessage } from '../harness/requests/sse.ts';
import { must, observe } from '../harness/vocabulary/must.ts';
import {
  cursorOf,
  describeMessage,
  ev,
  heartbeatWaitMs,
  identity,
  judgeResume,
  offsetOf,
  readHistory,
  readResumed,
  resumeRules,
  type History,
} from '../harness/vocabulary/events.ts';
import { atReadOnlyBudget, skipBeyondReadOnlyBudget, test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { declareRules, type Declared } from '../harness/vocabulary/declare.ts';
import { history, openOrSkip, READ, requireHistory } from './events-history.ts';
import { canTrigger } from '../harness/fixtures/triggers.ts';

test.describe.configure({ timeout: 120_000 });

type ResumeAtOnce = Declared<'events.content-type' | 'events.payload.offset' | (typeof resumeRules.named)[number]>;

/**
 * The cursors a stream gave out, other than event k's offset, for the same position or an older one: the SSE id
 * field of the same message (given out with it; a cursor of that position only where resuming from it gives
 * exactly what followed event k: the document names the payload offset alone) and the offset of the event before
 * it (an older position). Each with what resuming from it gives of `ids`. Not the cursor of a heartbeat right after
 * it: a server whose cursors are times places that one later, though no event lies between and both resume alike.
 */
function sameOrOlderCursors(source: SseConnection, m: SseMessage, k: number, ids: readonly string[]) {
  const from = offsetOf(m);
  const before = k > 0 ? source.events.find((x) => identity(x) === ids[k - 1] && x.index < m.index) : undefined;
  const candidates = [
    { from: m.id || undefined, what: 'the SSE id field of the same message', expected: ids.slice(k + 1) },
    {
      from: before && offsetOf(before),
      what: `the offset of the event before it (event ${k - 1}, an older position)`,
      expected: ids.slice(k),
    },
  ];
  return candidates.filter((c): c is typeof c & { from: string } => typeof c.from === 'string' && c.from !== from);
}

/**
 * Relation: every offset a stream gives out is a cut point of that stream. A walk by cursor over the history:
 * a from_timestamp replay read now, then, for each cut k of `cuts` (ascending indices of its events), the
 * offset event k carries on the stream read last (the from_timestamp replay first, then each stream resumed
 * from the cut before: a cursor replay) passed as from at once, and the resumed stream read up to the last
 * event of the first replay. Each resumed stream is what followed event k in the first replay: nothing lost,
 * repeated or reordered, every event as first delivered.
 *
 * How long a cursor stays valid is not shown, and a server may refuse the cursors of old positions, however
 * recently it gave them out (the guard cursor-expires). But a cursor cannot expire before another of the same or
 * an older position: a refused offset is followed at once by such cursors of the same stream (at most
 * `probes.left` requests), and the refusal fails no-loss where one of them is accepted and resumes to exactly
 * what follows its position. Else the refusal is observed and the walk goes on from the next cut of the same
 * stream. Answers how many cuts resumed.
 */
async function walkByCursor(
  d: ResumeAtOnce,
  events: EventsHarness,
  config: Config,
  first: History,
  cuts: number[],
  probes: { left: number },
): Promise<number> {
  const { ids } = first;
  let source: SseConnection = first.conn;
  let where = `the from_timestamp replay (from_timestamp ${first.from_timestamp})`;
  let resumed = 0;
  for (const k of cuts) {
    const m = source.events.find((x) => identity(x) === ids[k]);
    // The stream read last did not deliver event k: its own judgement has failed already.
    if (!m) break;
    const from = offsetOf(m);
    must(
      d.eventsPayloadOffset,
      typeof from === 'string',
      ev(source, 'a string offset on every event', JSON.stringify(from), describeMessage(m)),
    );
    // As a client's connection drops: the stream that gave the cursor closed, then the cursor passed as from.
    source.close();
    const waited = Date.now() - m.receivedAt;
    const conn = await events.subscribe({ query: { from: from! } });
    const cut = `the offset of event ${k} (${ids[k]}) on ${where}`;
    if (!conn.isEventStream && conn.status >= 400 && conn.status < 500) {
      conn.close();
      observe('events.heartbeat.frequency', 'cursor refused', String(conn.status), {
        target: conn.target,
        body: conn.errorBody.slice(0, 200),
      });
      for (const c of sameOrOlderCursors(source, m, k, ids)) {
        if (probes.left <= 0) break;
        probes.left--;
        const probe = await events.subscribe({ query: { from: c.from } });
        if (!probe.isEventStream) {
          probe.close();
          continue;
        }
        const r = await readResumed(probe, config, c.expected, ids);
        probe.close();
        must(
          d.eventsResumeNoLoss,
          !!r.unfinished || JSON.stringify(r.got) !== JSON.stringify(c.expected),
          ev(
            conn,
            `a 2xx event stream resuming after event ${k} of ${ids.length}: ${cut}, passed as from ${waited} ms after it came. How long a cursor stays valid is not shown, but a cursor cannot expire before another of the same or an older position, and ${c.what}, ${c.from}, was accepted right after and resumed to exactly what follows that position: the refusal is not the cursor's age`,
            `status ${conn.status}, Content-Type ${conn.contentType || '(none)'} ${conn.errorBody.slice(0, 200)}`,
            `from = ${from}; ${describeMessage(m)}\n${probe.target} answered ${probe.status}, then ${r.got.length} events of the history (${c.expected.length ? `events ${ids.length - c.expected.length}..${ids.length - 1}` : 'none'} expected)`,
          ),
        );
      }
      continue;
    }
    must(
      d.eventsResumeNoLoss,
      conn.isEventStream,
      ev(
        conn,
        `a 2xx event stream resuming after event ${k} of ${ids.length}: ${cut}, passed as from ${waited} ms after it came`,
        `status ${conn.status}, Content-Type ${conn.contentType || '(none)'} ${conn.errorBody.slice(0, 200)}`,
        `from = ${from}; ${describeMessage(m)}`,
      ),
    );
    resumed++;
    const { got, unfinished } = await readResumed(conn, config, ids.slice(k + 1), ids);
    judgeResume(d, conn, ids, k, from!, got, unfinished, cut, first.events);
    source = conn;
    where = `the stream resumed from event ${k}'s offset (a cursor replay)`;
  }
  source.close();
  return resumed;
}

test.describe("events stream: the tenant's history @sse", () => {
  const resume = declareRules(READ, 'events.payload.offset', resumeRules);
  test(
    'should resume from the offset of an early, a middle and the last event of a from_timestamp replay and of a cursor replay alike, passed as from right after it came, to exactly what followed it, and never refuse one while a cursor of the same or an older position is accepted (relation: every offset the stream gives out is a cut point; property)',
    resume,
    async ({ events, config }) => {
      // Where this run may cause events, the worker's sequence first (tests/events-history.ts): the replay then
      // holds the events the tenant kept and those that came since, and a walk goes on from the one to the other.
      if (canTrigger(config)) await history(resume, events, config);
      // A replay read now, not the worker's shared one: every cursor is passed as from right after it came.
      const first = await readHistory(resume, events, config);
      const n = first.ids.length;
      requireHistory(first, 3, 'to resume between them');
      const mid = (length: number) => Math.floor((length - 1) / 2);
      // Against an external target without writes, two requests at most for the cursors that decide a refusal.
      const probes = { left: atReadOnlyBudget(config) ? 2 : Infinity };
      // One walk every run: the from_timestamp replay's first event, then the middle and the last event of the
      // cursor replays that follow (a fresh from_timestamp replay and three resumptions).
      let resumed = await walkByCursor(resume, events, config, first, [0, mid(n), n - 1], probes);
      if (!atReadOnlyBudget(config)) {
        // Where requests cost nothing, the other parts of each replay: the middle and the last event of a
        // from_timestamp replay, the early event of a cursor replay (the one right after its cut); each walk on a
        // replay read now, its cuts placed among the events it holds (more may have come since the first).
        const again = async (cutsOf: (length: number) => number[]) => {
          const h = await readHistory(resume, events, config);
          const cuts = [...new Set(cutsOf(h.ids.length).filter((k) => k >= 0 && k < h.ids.length))];
          resumed += await walkByCursor(
            resume,
            events,
            config,
            h,
            cuts.sort((a, b) => a - b),
            probes,
          );
        };
        await again((length) => [mid(length), mid(length) + 1, length - 1]);
        await again((length) => [length - 1]);
        if (config.embedded)
          await fc.assert(
            fc.asyncProperty(
              fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 4 }),
              (cuts) => again(() => cuts),
            ),
            { ...fcParams<[number[]]>(config, 3), examples: [[[n - 2]]] },
          );
      }
      test.skip(
        resumed === 0,
        'Every history offset was refused, and no cursor of the same or an older position was accepted: how long a cursor stays valid is not shown',
      );
    },
  );

  const heartbeatCut = declareRules(READ, 'events.resume.heartbeat-offset', resumeRules);
  test(
    'should resume from every heartbeat of the replay to exactly what followed it in the uncut stream',
    heartbeatCut,
    async ({ events, config }) => {
      const h = await history(heartbeatCut, events, config);
      requireHistory(h, 1, 'to place the heartbeats among');
      // Every offset is a cut point, heartbeats included, wherever they fall: before, among or after the replay.
      const beats = h.conn.messages.filter((m) => m.event === 'offset-only' && cursorOf(m) !== undefined);
      test.skip(
        beats.length === 0,
        'No heartbeat with a cursor came with the replay: the heartbeat frequency is not shown',
      );
      // Against an external target the first heartbeat (where one sent before the replay shows), within the budget.
      const cuts = config.embedded ? beats : [beats[0]!];
      let resumed = 0;
      for (const hb of cuts) {
        const from = cursorOf(hb)!;
        // The history events before the heartbeat in the uncut stream: the cut is after the last of them.
        const k = h.events.filter((m) => m.index < hb.index).length - 1;
        const older = h.events
          .slice(Math.max(0, k - 2), k + 1)
          .reverse()
          .flatMap((e) => (typeof offsetOf(e) === 'string' ? [{ from: offsetOf(e)! }] : []));
        const { conn, refused } = await openOrSkip(
          events,
          { from },
          heartbeatCut.eventsResumeHeartbeatOffset,
          `resuming from the heartbeat of message #${hb.index}`,
          older,
        );
        if (refused) continue;
        resumed++;
        const expected = h.ids.slice(k + 1);
        const { got, unfinished } = await readResumed(conn, config, expected, h.ids);
        must(
          heartbeatCut.eventsResumeHeartbeatOffset,
          !unfinished && JSON.stringify(got) === JSON.stringify(expected),
          ev(
            conn,
            `what followed the heartbeat (message #${hb.index}, cursor ${from}) in the uncut stream: ${expected.join(', ') || 'nothing of the history'}`,
            unfinished ?? (got.join(', ') || 'nothing'),
            `uncut stream (from_timestamp ${h.from_timestamp}): ${h.conn.messages
              .slice(0, hb.index + 1 + expected.length + 1)
              .map((m) => (m.event === 'offset-only' ? `[heartbeat ${cursorOf(m)}]` : identity(m)))
              .join(', ')}`,
          ),
        );
        judgeResume(heartbeatCut, conn, h.ids, k, from, got, unfinished, undefined, h.events);
        conn.close();
      }
      test.skip(
        resumed === 0,
        'Every heartbeat cursor was refused, and no older cursor was accepted: how long a cursor stays valid is not shown',
      );
    },
  );

  const resumedBeat = declareRules(READ, 'events.payload.offset', 'events.resume.heartbeat-offset', resumeRules);
  test(
    'should carry, in a heartbeat after the replay of a stream resumed from a cursor, a position past that replay: resuming from it gives none of the history again (relation: a heartbeat is a cut point of the stream that sent it, resumed or not)',
    resumedBeat,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the two streams of this relation are');
      const h = await history(resumedBeat, events, config);
      requireHistory(h, 2, 'to resume from the first of them');
      const from = offsetOf(h.events[0]!);
      must(
        resumedBeat.eventsPayloadOffset,
        typeof from === 'string',
        ev(h.conn, 'a string offset on every event', JSON.stringify(from)),
      );
      const { conn, refused } = await openOrSkip(
        events,
        { from: from! },
        resumedBeat.eventsResumeHeartbeatOffset,
        'resuming from the offset of the first history event',
      );
      test.skip(
        refused,
        'The offset of the first history event was refused: how long a cursor stays valid is not shown',
      );
      let beat: ReturnType<typeof cursorOf>;
      try {
        const { got, unfinished } = await readResumed(conn, config, h.ids.slice(1), h.ids);
        judgeResume(resumedBeat, conn, h.ids, 0, from!, got, unfinished, undefined, h.events);
        // The first heartbeat with a cursor after the last history event the resumed stream delivered.
        const last = Math.max(-1, ...conn.messages.filter((x) => h.ids.includes(identity(x))).map((x) => x.index));
        const m = await conn
          .waitFor(
            (x) => x.event === 'offset-only' && cursorOf(x) !== undefined,
            heartbeatWaitMs(config),
            last + 1,
            'a heartbeat after the replay',
          )
          .catch(() => undefined);
        beat = m && cursorOf(m);
      } finally {
        conn.close();
      }
      test.skip(
        beat === undefined,
        `No heartbeat with a cursor came within ${heartbeatWaitMs(config)} ms of the replay: the heartbeat frequency is not shown`,
      );
      const again = await openOrSkip(
        events,
        { from: beat! },
        resumedBeat.eventsResumeHeartbeatOffset,
        'resuming from the heartbeat after the replay',
      );
      test.skip(
        again.refused,
        'The cursor of the heartbeat after the replay was refused: how long a cursor stays valid is not shown',
      );
      try {
        const { got } = await readResumed(again.conn, config, [], h.ids);
        must(
          resumedBeat.eventsResumeHeartbeatOffset,
          got.length === 0,
          ev(
            again.conn,
            `none of the history: the heartbeat (cursor ${beat}) came after the stream resumed from ${from} had delivered all ${h.ids.length - 1} events after it`,
            `${got.length} history events again: ${got.slice(0, 5).join(', ')}${got.length > 5 ? ', …' : ''}`,
          ),
        );
      } finally {
        again.conn.close();
      }
    },
  );
});
