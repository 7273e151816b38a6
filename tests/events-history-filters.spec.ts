/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * `event_type` replays only the requested types, and every type when absent.
 */
import { must } from '../harness/vocabulary/must.ts';
import {
  ev,
  EVENT_TYPES,
  identity,
  judgeResume,
  mustBeOnlyRequested,
  offsetOf,
  readHistory,
  readResumed,
  readUpTo,
  resumeRules,
  timeOf,
} from '../harness/vocabulary/events.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { test } from '../harness/fixtures/fixtures.ts';
import { declareRules } from '../harness/vocabulary/declare.ts';
import { history, openOrSkip, READ, requireHistory } from './events-history.ts';

test.describe.configure({ timeout: 120_000 });

test.describe("events stream: the tenant's history @sse", () => {
  const onlyRequested = declareRules(READ, 'events.filter.only-requested', 'events.resume.order');
  test(
    'should replay only the requested event types, in the order of the unfiltered history (relation): two together, and each type of the history alone',
    onlyRequested,
    async ({ events, config }) => {
      const h = await history(onlyRequested, events, config);
      const byCount = [...new Set(h.events.map((m) => m.event))].sort(
        (a, b) => h.events.filter((m) => m.event === b).length - h.events.filter((m) => m.event === a).length,
      );
      test.skip(
        byCount.length < 2,
        `The tenant's history holds ${byCount.length} event type(s): two are needed to tell a filter from none`,
      );
      // Two types: event_type repeated, one occurrence per type. Then each type alone
      // (a filter is an exact match: connection.updated is not organization.connection.updated, nor another
      // type of its resource); against an external target with writes on, the types that end another type's name.
      const endsAnother = (t: string) => byCount.some((u) => u !== t && u.endsWith(`.${t}`));
      const singles = config.embedded
        ? byCount
        : config.writes === 'none'
          ? []
          : byCount.filter(endsAnother).slice(0, 2);
      // Two types together: a pair whose events interleave in the history where there is one (neither all of one
      // before all of the other), so that a replay grouped by type is told from one in stream order.
      const pairs = byCount.flatMap((a, i) => byCount.slice(i + 1).map((b) => [a, b]));
      const interleaved = pairs.find(([a, b]) => {
        const seq = h.events.filter((m) => m.event === a || m.event === b).map((m) => m.event);
        const runs = seq.filter((t, i) => i === 0 || t !== seq[i - 1]).length;
        return runs > 2;
      });
      const two = interleaved ?? [byCount[0]!, byCount.at(-1)!];
      for (const wanted of [two, ...singles.map((t) => [t])]) {
        const conn = await events.subscribe({ query: { from_timestamp: h.from_timestamp, event_type: wanted } });
        const expected = h.events.filter((m) => wanted.includes(m.event)).map(identity);
        const { got, unfinished } = await readUpTo(conn, config, expected.at(-1)!, h.ids);
        const context = `history: ${h.events.map((m) => m.event).join(', ')}`;
        must(
          onlyRequested.eventsFilterOnlyRequested,
          !unfinished && expected.every((id) => got.includes(id)),
          ev(
            conn,
            `the history's ${wanted.join(', ')} events: ${expected.join(', ')}`,
            unfinished ?? got.join(', '),
            context,
          ),
        );
        mustBeOnlyRequested(onlyRequested.eventsFilterOnlyRequested, conn, wanted, context);
        // The filtered replay is the unfiltered one with the other types left out: the same events in the same
        // order, not grouped by type.
        const inOrder = got.filter((id) => expected.includes(id));
        must(
          onlyRequested.eventsResumeOrder,
          unfinished !== undefined || inOrder.join() === expected.join(),
          ev(
            conn,
            `the history's ${wanted.join(', ')} events in its order: ${expected.join(', ')}`,
            inOrder.join(', '),
            context,
          ),
        );
        conn.close();
      }
    },
  );

  const filteredResume = declareRules(READ, 'events.filter.only-requested', resumeRules);
  test(
    'should resume a filtered stream from any of its offsets, the head included, to exactly what the uncut filtered stream gave, from_timestamp given or not (property)',
    filteredResume,
    async ({ events, config }) => {
      const h = await history(filteredResume, events, config);
      const types = [...new Set(h.events.map((m) => m.event))];
      requireHistory(h, 3, 'to resume a filtered stream between its events');
      // The most frequent type: a filtered stream with the most cut points.
      const frequent = [...types].sort(
        (a, b) => h.events.filter((m) => m.event === b).length - h.events.filter((m) => m.event === a).length,
      )[0]!;
      // Any non-empty set of the types the history holds, a cut point over the whole range, with or without from_timestamp.
      const cases = fc.subarray(types, { minLength: 1 }).chain((wanted) =>
        fc.record({
          wanted: fc.constant(wanted),
          cut: fc.double({ min: 0, max: 1, noNaN: true }),
          withTimestamp: fc.boolean(),
        }),
      );
      type Case = { wanted: string[]; cut: number; withTimestamp: boolean };
      await fc.assert(
        fc.asyncProperty(cases, async ({ wanted, cut, withTimestamp }) => {
          // The uncut filtered stream, read from the start of the history.
          const whole = await readHistory(filteredResume, events, config, { event_type: wanted });
          whole.conn.close();
          const filtered = whole.events.filter((m) => h.ids.includes(identity(m)));
          if (filtered.length < 2) return;
          const ids = filtered.map(identity);
          // cut 1 is the head: the newest event of the filtered stream.
          const k = Math.min(filtered.length - 1, Math.floor(cut * filtered.length));
          const from = offsetOf(filtered[k]!)!;
          const query = {
            ...(withTimestamp ? { from_timestamp: h.from_timestamp } : {}),
            event_type: wanted,
          };
          const older = k > 0 ? offsetOf(filtered[k - 1]!) : undefined;
          const { conn, refused } = await openOrSkip(
            events,
            { from, ...query },
            filteredResume.eventsResumeNoLoss,
            `resuming the ${wanted.join(', ')} stream`,
            older === undefined ? undefined : { from: older, ...query },
          );
          if (refused) return;
          const { got, unfinished } = await readResumed(conn, config, ids.slice(k + 1), h.ids);
          mustBeOnlyRequested(
            filteredResume.eventsFilterOnlyRequested,
            conn,
            wanted,
            `event_type ${wanted.join(', ')}`,
          );
          judgeResume(filteredResume, conn, ids, k, from, got, unfinished);
          conn.close();
        }),
        // The head of a one-type stream every run, the first cut of it with from_timestamp where requests cost nothing.
        {
          ...fcParams<[Case]>(config, 6),
          examples: [
            [{ wanted: [frequent], cut: 1, withTimestamp: false }],
            ...(config.embedded ? [[{ wanted: [frequent], cut: 0, withTimestamp: true }] as [Case]] : []),
          ],
        },
      );
    },
  );

  const allWhenAbsent = declareRules(READ, 'events.filter.all-when-absent');
  test('should replay every event type when event_type is absent', allWhenAbsent, async ({ events, config }) => {
    // The same history asked for every documented type by name: each of these arrives without event_type too.
    const h = await history(allWhenAbsent, events, config);
    // An empty unfiltered read bounds nothing: every event the second read finds may have come after it.
    requireHistory(h, 1, 'to compare');
    const all = await readHistory(allWhenAbsent, events, config, { event_type: EVENT_TYPES });
    all.conn.close();
    requireHistory(all, 1, 'to compare');
    // Only events up to the end of the unfiltered read: later ones came after it.
    const missing = all.events.filter((m) => !h.ids.includes(identity(m)) && timeOf(m) <= timeOf(h.events.at(-1)!));
    must(
      allWhenAbsent.eventsFilterAllWhenAbsent,
      missing.length === 0,
      ev(
        h.conn,
        `every event the history has by type (${all.ids.length})`,
        `${missing.length} missing without event_type, of types ${[...new Set(missing.map((m) => m.event))].join(', ')}`,
        `without event_type: ${h.events.map((m) => m.event).join(', ')}`,
      ),
    );
  });
});
