/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * resuming from the offsets of its events, at cut points drawn from the whole
 * range (the head, the newest event, always among them) and from a resumed
 * stream, and from every heartbeat of the replay, wherever it falls.
 */
import { must } from '../harness/vocabulary/must.ts';
import {
  cursorOf,
  ev,
  heartbeatWaitMs,
  identity,
  judgeResume,
  offsetOf,
  readResumed,
  readUpTo,
  resumeRules,
} from '../harness/vocabulary/events.ts';
import { skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { declareRules } from '../harness/vocabulary/declare.ts';
import { history, openOrSkip, READ, requireHistory } from './events-history.ts';

test.describe.configure({ timeout: 120_000 });

test.describe("events stream: the tenant's history @sse", () => {
  const resume = declareRules(READ, 'events.payload.offset', resumeRules);
  test(
    'should resume from every cut point of the history, the head included, with nothing lost, repeated or reordered (property)',
    resume,
    async ({ events, config }) => {
      const h = await history(resume, events, config);
      requireHistory(h, 3, 'to resume between them');
      let resumed = 0;
      const resumeAt = async (k: number, chain: boolean) => {
        const from = offsetOf(h.events[k]!);
        must(
          resume.eventsPayloadOffset,
          typeof from === 'string',
          ev(h.conn, 'a string offset on every event', JSON.stringify(from)),
        );
        // Refused: the cursors of the three events before it, newest first, decide whether the refusal is a
        // cursor's lifetime.
        const older = h.events
          .slice(Math.max(0, k - 3), k)
          .reverse()
          .flatMap((e) => (typeof offsetOf(e) === 'string' ? [{ from: offsetOf(e)! }] : []));
        const { conn, refused } = await openOrSkip(
          events,
          { from: from! },
          resume.eventsResumeNoLoss,
          `resuming from the offset of history event ${k}`,
          older,
        );
        if (refused) return;
        resumed++;
        const { got, unfinished } = await readResumed(conn, config, h.ids.slice(k + 1), h.ids);
        judgeResume(resume, conn, h.ids, k, from!, got, unfinished, undefined, h.events);
        // Resume again from an offset the resumed stream carried: later requests use the cursor from `from`.
        const j = k + 1 + Math.floor((h.ids.length - k - 2) / 2);
        const again = conn.events.find((m) => identity(m) === h.ids[j]);
        const from2 = again && offsetOf(again);
        conn.close();
        if (!chain || from2 === undefined || j >= h.ids.length - 1) return;
        const second = await openOrSkip(
          events,
          { from: from2 },
          resume.eventsResumeNoLoss,
          `resuming from an offset of a resumed stream (event ${j})`,
          { from: from! },
        );
        if (second.refused) return;
        const r2 = await readUpTo(second.conn, config, h.ids.slice(j + 1), h.ids);
        judgeResume(resume, second.conn, h.ids, j, from2, r2.got, r2.unfinished, undefined, h.events);
        second.conn.close();
      };
      const n = h.ids.length;
      // The cut points are every offset the stream handed out, the head (the newest event) always among them:
      // the first (with a third from its resumption) and the head every run; more, drawn from the whole range,
      // where requests cost nothing.
      await resumeAt(0, true);
      await resumeAt(n - 1, false);
      if (config.embedded)
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 0, max: n - 1 }), (k) => resumeAt(k, false)),
          { ...fcParams<[number]>(config, 3), examples: [[n - 2]] },
        );
      test.skip(resumed === 0, 'Every history offset was refused: how long a cursor stays valid is not shown');
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
