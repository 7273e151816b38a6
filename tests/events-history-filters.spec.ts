/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * `event_type` replays only the requested types, and every type when absent.
 */
import { must } from '../harness/vocabulary/must.ts';
import {
  cursorOf,
  ev,
  EVENT_TYPES,
  identity,
  isEvent,
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
import type { SseConnection, SseMessage } from '../harness/requests/sse.ts';
import { test } from '../harness/fixtures/fixtures.ts';
import { declareRules } from '../harness/vocabulary/declare.ts';
import { history, openOrSkip, READ, requireHistory } from './events-history.ts';

test.describe.configure({ timeout: 120_000 });

test.describe("events stream: the tenant's history @sse", () => {
  const onlyRequested = declareRules(
    READ,
    'events.filter.only-requested',
    'events.resume.order',
    'events.payload.offset',
  );
  test(
    'should replay only the requested event types, in the order of the unfiltered history (relation), each with its offset as there: two together, and each type of the history alone',
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
        // Every event of the filtered replay carries its offset, as on the unfiltered stream (relation: a filter
        // leaves out events, not members of those it delivers).
        const bare = conn.events.filter((m) => typeof offsetOf(m) !== 'string');
        must(
          onlyRequested.eventsPayloadOffset,
          bare.length === 0,
          ev(
            conn,
            `a string offset in the payload of every event of the stream filtered to ${wanted.join(', ')}`,
            `${bare.length} without one (${bare.slice(0, 3).map(identity).join(', ')})`,
            context,
          ),
        );
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

  const filteredResume = declareRules(
    READ,
    'events.filter.only-requested',
    'events.resume.heartbeat-offset',
    resumeRules,
  );
  test(
    "should resume a filtered stream from every offset a stream gave, to exactly what the uncut filtered stream gave after that point, from_timestamp given or not: its own events (the head included) and heartbeats, the unfiltered stream's events of every type and heartbeats, the events of a stream filtered to the other types (property)",
    filteredResume,
    async ({ events, config }) => {
      const h = await history(filteredResume, events, config);
      const types = [...new Set(h.events.map((m) => m.event))];
      requireHistory(h, 3, 'to resume a filtered stream between its events');
      // The most frequent type: a filtered stream with the most cut points.
      const frequent = [...types].sort(
        (a, b) => h.events.filter((m) => m.event === b).length - h.events.filter((m) => m.event === a).length,
      )[0]!;
      // An offset names a position of the one log, whichever stream gave it ("Opaque cursor for the stream
      // position; pass it as the `from` query parameter to resume"): every one resumes a filtered stream, the
      // offset-only heartbeat's included, and the resumed stream is the uncut filtered one after that point.
      // A cut is where a cursor falls among the history: `after` is the last history event before it (-1: none).
      type Cut = { from: string; after: number; heartbeat: boolean; what: string };
      const hIndex = (m: SseMessage) => h.ids.indexOf(identity(m));
      /** The cuts a stream's messages give: its history events and its heartbeats (with a cursor). */
      const cutsOf = (conn: SseConnection, label: string, keep: (m: SseMessage) => boolean): Cut[] =>
        conn.messages.flatMap((m): Cut[] => {
          if (m.event === 'offset-only') {
            const from = cursorOf(m);
            const before = conn.messages.filter((e) => e.index < m.index && isEvent(e) && hIndex(e) >= 0);
            const after = before.length ? Math.max(...before.map(hIndex)) : -1;
            const what = `the heartbeat of message #${m.index} of the ${label} stream`;
            return from !== undefined && keep(m) ? [{ from, after, heartbeat: true, what }] : [];
          }
          const from = offsetOf(m);
          if (!isEvent(m) || hIndex(m) < 0 || from === undefined || !keep(m)) return [];
          return [
            { from, after: hIndex(m), heartbeat: false, what: `the ${m.event} ${identity(m)} of the ${label} stream` },
          ];
        });
      const unfiltered = cutsOf(h.conn, 'unfiltered', () => true);
      // Where the source has no cut (no heartbeat came: its frequency is not shown), the unfiltered stream's
      // events of other types stand in: offsets the filtered stream never gave either.
      const otherTypes = (wanted: string[]) =>
        unfiltered.filter((c) => !c.heartbeat && !wanted.includes(h.events[c.after]!.event));
      type Source = 'own events' | 'own heartbeats' | 'unfiltered' | 'other types';
      type Case = { wanted: string[]; source: Source; cut: number; withTimestamp: boolean };
      // Any non-empty set of the types the history holds, a source of offsets, a cut point over its whole range,
      // with or without from_timestamp.
      const cases = fc.subarray(types, { minLength: 1 }).chain((wanted) =>
        fc.record({
          wanted: fc.constant(wanted),
          source: fc.constantFrom<Source>('own events', 'own heartbeats', 'unfiltered', 'other types'),
          cut: fc.double({ min: 0, max: 1, noNaN: true }),
          withTimestamp: fc.boolean(),
        }),
      );
      const draw = <T>(xs: readonly T[], cut: number) => xs[Math.min(xs.length - 1, Math.floor(cut * xs.length))];
      await fc.assert(
        fc.asyncProperty(cases, async ({ wanted, source, cut, withTimestamp }) => {
          // The uncut filtered stream, read from the start of the history.
          const whole = await readHistory(filteredResume, events, config, { event_type: wanted });
          whole.conn.close();
          const filtered = whole.events.filter((m) => h.ids.includes(identity(m)));
          if (filtered.length < 2) return;
          const ids = filtered.map(identity);
          const label = `event_type ${wanted.join(', ')}`;
          let cuts: Cut[];
          if (source === 'own events') cuts = cutsOf(whole.conn, label, (m) => m.event !== 'offset-only');
          else if (source === 'own heartbeats') cuts = cutsOf(whole.conn, label, (m) => m.event === 'offset-only');
          else if (source === 'unfiltered') cuts = unfiltered;
          else {
            // A stream filtered to the history's other types: its events' offsets (its heartbeats fall somewhere
            // among the events it leaves out, a position that stream alone does not pin down).
            const rest = types.filter((t) => !wanted.includes(t));
            const other = rest.length
              ? await readHistory(filteredResume, events, config, { event_type: rest })
              : undefined;
            other?.conn.close();
            cuts = other ? cutsOf(other.conn, `event_type ${rest.join(', ')}`, (m) => m.event !== 'offset-only') : [];
          }
          if (!cuts.length) cuts = otherTypes(wanted);
          const c = draw(cuts, cut);
          if (!c) return;
          // The filtered events at or before the cut: k is the last of them (cut 1 of its own events is the head).
          const k = filtered.filter((m) => hIndex(m) <= c.after).length - 1;
          const query = {
            ...(withTimestamp ? { from_timestamp: h.from_timestamp } : {}),
            event_type: wanted,
          };
          // Refused: a filtered event's own offset no newer than the cut decides whether the refusal is a cursor's
          // lifetime (the one before it where the cut is that very offset).
          const own = k >= 0 && c.from === offsetOf(filtered[k]!) ? k - 1 : k;
          const older = own >= 0 ? offsetOf(filtered[own]!) : undefined;
          const rule = c.heartbeat ? filteredResume.eventsResumeHeartbeatOffset : filteredResume.eventsResumeNoLoss;
          const { conn, refused } = await openOrSkip(
            events,
            { from: c.from, ...query },
            rule,
            `resuming the ${wanted.join(', ')} stream from ${c.what}`,
            older === undefined ? undefined : { from: older, ...query },
          );
          if (refused) return;
          const { got, unfinished } = await readResumed(conn, config, ids.slice(k + 1), h.ids);
          mustBeOnlyRequested(filteredResume.eventsFilterOnlyRequested, conn, wanted, label);
          if (c.heartbeat)
            must(
              filteredResume.eventsResumeHeartbeatOffset,
              !unfinished && JSON.stringify(got) === JSON.stringify(ids.slice(k + 1)),
              ev(
                conn,
                `what followed ${c.what} in the uncut ${label} stream: ${ids.slice(k + 1).join(', ') || 'nothing of the history'}`,
                unfinished ?? (got.join(', ') || 'nothing'),
                `uncut ${label} stream: ${ids.join(', ')}`,
              ),
            );
          judgeResume(filteredResume, conn, ids, k, c.from, got, unfinished, c.what, h.events);
          conn.close();
        }),
        // Every run: the head of a one-type stream, and the newest event of another type the unfiltered stream
        // gave after one of that type (a refusal there is told from a cursor's lifetime). Where requests cost
        // nothing, the first cut with from_timestamp and the heartbeat after the replay too.
        {
          ...fcParams<[Case]>(config, 10),
          examples: [
            [{ wanted: [frequent], source: 'own events', cut: 1, withTimestamp: false }],
            ...otherTypeExample(),
            ...(config.embedded
              ? ([
                  [{ wanted: [frequent], source: 'own events', cut: 0, withTimestamp: true }],
                  [{ wanted: [frequent], source: 'own heartbeats', cut: 1, withTimestamp: false }],
                ] as Array<[Case]>)
              : []),
          ],
        },
      );
      function otherTypeExample(): Array<[Case]> {
        const firstOwn = h.events.findIndex((m) => m.event === frequent);
        const i = unfiltered
          .map((c, j) => (!c.heartbeat && c.after > firstOwn && h.events[c.after]!.event !== frequent ? j : -1))
          .reduce((a, b) => Math.max(a, b), -1);
        if (i < 0) return [];
        return [
          [{ wanted: [frequent], source: 'unfiltered', cut: (i + 0.5) / unfiltered.length, withTimestamp: false }],
        ];
      }
    },
  );

  const allWhenAbsent = declareRules(READ, 'events.filter.all-when-absent');
  test(
    'should replay every event type when event_type is absent, after the same client asked for one type too',
    allWhenAbsent,
    async ({ events, config }) => {
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
      // A filter belongs to its request, not to the client that sent it: an unfiltered stream opened after the
      // client asked for one type still holds every type (the events of the history's window at that read).
      const one = h.events[0]!.event;
      const filtered = await readHistory(allWhenAbsent, events, config, { event_type: [one] });
      filtered.conn.close();
      const again = await readHistory(allWhenAbsent, events, config);
      again.conn.close();
      const lost = h.events.filter(
        (m) => !again.ids.includes(identity(m)) && timeOf(m) >= Date.parse(again.from_timestamp),
      );
      must(
        allWhenAbsent.eventsFilterAllWhenAbsent,
        lost.length === 0,
        ev(
          again.conn,
          `every event of the unfiltered history (${h.ids.length}) again, after a stream filtered to ${one}`,
          `${lost.length} missing, of types ${[...new Set(lost.map((m) => m.event))].join(', ')}`,
        ),
      );
    },
  );
});
