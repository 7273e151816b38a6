/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * resuming from the offsets of its events, at cut points drawn from the whole
 * range (the head, the newest event, always among them) and from a resumed
 * stream, and from a heartbeat's cursor after it.
 */
import { must } from '../harness/vocabulary/must.ts';
import {
  cursorOf,
  ev,
  identity,
  judgeResume,
  offsetOf,
  readReplay,
  readResumed,
  readUpTo,
  resumeRules,
} from '../harness/vocabulary/events.ts';
import { test } from '../harness/fixtures/fixtures.ts';
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
        // Refused: the cursor of the event before it decides whether the refusal is a cursor's lifetime.
        const older = k > 0 ? offsetOf(h.events[k - 1]!) : undefined;
        const { conn, refused } = await openOrSkip(
          events,
          { from: from! },
          resume.eventsResumeNoLoss,
          `resuming from the offset of history event ${k}`,
          older === undefined ? undefined : { from: older },
        );
        if (refused) return;
        resumed++;
        const { got, unfinished } = await readResumed(conn, config, h.ids.slice(k + 1), h.ids);
        judgeResume(resume, conn, h.ids, k, from!, got, unfinished);
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
        judgeResume(resume, second.conn, h.ids, j, from2, r2.got, r2.unfinished);
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

  const heartbeatOffset = declareRules(READ, 'events.resume.heartbeat-offset');
  test(
    'should resume from a heartbeat after the history with none of the history again',
    heartbeatOffset,
    async ({ events, config }) => {
      const h = await history(heartbeatOffset, events, config);
      requireHistory(h, 1, 'before a heartbeat');
      const hb = h.conn.messages.slice(h.events.at(-1)!.index + 1).find((m) => m.event === 'offset-only');
      test.skip(
        !hb || cursorOf(hb) === undefined,
        'No heartbeat with a cursor followed the history: the heartbeat frequency is not shown',
      );
      const { conn, refused } = await openOrSkip(
        events,
        { from: cursorOf(hb!)! },
        heartbeatOffset.eventsResumeHeartbeatOffset,
        'resuming from a heartbeat cursor',
      );
      test.skip(
        refused,
        `The heartbeat cursor was refused (${conn.status}): how long a cursor stays valid is not shown`,
      );
      const again = (await readReplay(conn, config)).filter((m) => h.ids.includes(identity(m)));
      must(
        heartbeatOffset.eventsResumeHeartbeatOffset,
        again.length === 0,
        ev(
          conn,
          `nothing of the history before the heartbeat (cursor ${cursorOf(hb!)})`,
          `${again.length} history events again: ${again.map(identity).join(', ')}`,
        ),
      );
    },
  );
});
