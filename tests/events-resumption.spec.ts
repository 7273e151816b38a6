/**
 * Endpoints 4. Subscribe to events (Server-Sent Events): GET /events, where a
 * subscription starts and resumes: from the latest events when `from` is
 * absent, after an event's offset (the head's included) or a heartbeat's with
 * nothing lost, repeated or reordered (every heartbeat of a live stream, those
 * after delivered events included), live whichever way it starts, and the
 * limits of `from` and `from_timestamp`.
 *
 * A sentinel event caused last bounds the wait for anything that must not
 * arrive, so no check sleeps to synchronise.
 */
import type { Config } from '../harness/run/config.ts';
import type { SseConnection, SseMessage } from '../harness/requests/sse.ts';
import type { Exchange, Query } from '../harness/requests/client.ts';
import { declareRules, type Declared, type RuleRef } from '../harness/vocabulary/declare.ts';
import {
  cursorNow,
  cursorOf,
  ev,
  EVENT_TYPES,
  heartbeatWaitMs,
  identity,
  isEvent,
  judgeResume,
  offsetOf,
  resumeRules,
  streamExchange,
  timeOf,
  timestamp,
  waitMs,
} from '../harness/vocabulary/events.ts';
import { must, mustBeJsonErrorBody, mustRefuse } from '../harness/vocabulary/must.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { atReadOnlyBudget, skipBeyondReadOnlyBudget, test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import { causeAndRead, causedBy, nonce, requirePassive, requireTrigger } from '../harness/fixtures/triggers.ts';
import { accessTokenOf, narrowedToken, requestToken, TOKEN_PATH } from '../harness/requests/tokens.ts';
import { countRequest } from '../harness/verdicts/request-log.ts';

test.describe.configure({ timeout: 120_000 });

/** Resumes from the offset of caused[k] and checks what follows against the first read. */
async function checkResume(
  d: Declared<'events.payload.offset' | (typeof resumeRules.named)[number]>,
  events: EventsHarness,
  config: Config,
  caused: SseMessage[],
  ids: string[],
  n: string,
  k: number,
): Promise<void> {
  const from = offsetOf(caused[k]!);
  must(d.eventsPayloadOffset, typeof from === 'string', {
    expected: 'a string offset on every event',
    actual: JSON.stringify(from),
  });
  const conn = await events.subscribe({ query: { from: from! } });
  // A cursor handed out seconds ago, the head's included: how long a cursor stays valid is not shown, but not this short.
  must(
    d.eventsResumeNoLoss,
    conn.isEventStream,
    ev(
      conn,
      `a 2xx event stream resuming after event ${k} of ${caused.length} (${k === caused.length - 1 ? 'the head, the newest event' : ids[k]})`,
      `status ${conn.status}, Content-Type ${conn.contentType || '(none)'} ${conn.errorBody.slice(0, 200)}`,
    ),
  );
  if (!conn.isEventStream) return;
  // A sentinel caused now: whatever the stream replays must come before it.
  const sentinel = nonce();
  await events.causer.createOrganization(sentinel);
  const end = await conn
    .waitFor(causedBy(sentinel), waitMs(config), 0, `the sentinel event (nonce ${sentinel})`)
    .catch(() => undefined);
  const got = conn.events
    .slice(0, end ? end.index : undefined)
    .filter(causedBy(n))
    .map(identity);
  judgeResume(d, conn, ids, k, from!, got, end ? undefined : 'the sentinel never arrived', undefined, caused);
  conn.close();
}

/**
 * A second token of the run's client, other than the run's own: a fresh one (a client whose token expired gets
 * one), else, where the endpoint gave the same token again, one narrowed to read:events (the scope catalogue's
 * events: r). A reason to skip where no other token can be had.
 */
async function anotherToken(config: Config): Promise<{ token: string; how: string } | { skip: string }> {
  const creds = config.credentials;
  if (!creds)
    return {
      skip: "No client credentials (CONFORMANCE_CLIENT_ID/SECRET): no second token of the run's client to resume with",
    };
  countRequest('POST', TOKEN_PATH);
  const fresh = accessTokenOf(await requestToken(config, creds, {}, config.timeoutMs));
  if (fresh !== undefined && fresh !== config.runToken) return { token: fresh, how: 'fresh' };
  const narrowed = accessTokenOf(await narrowedToken(config, creds, 'read:events'));
  if (narrowed !== undefined && narrowed !== config.runToken)
    return { token: narrowed, how: 'narrowed to read:events' };
  return {
    skip:
      fresh === undefined
        ? 'The token endpoint gave no second token (the token endpoint checks decide that)'
        : "The token endpoint gives the run's client only the one token, narrowed to read:events or not: no other token to resume with",
  };
}

/**
 * Resumes from `from` with the token that opened the stream and with `second`, another token of the same client,
 * both open on return. A refusal of the first is a resumption lost (events.resume.no-loss: a cursor this stream
 * gave, with its own token); a narrowed second token refused 401/403 is skipped (the scope of /events is not
 * shown); else the second must be served as an event stream too.
 */
async function resumeWithBoth(
  d: Declared<'events.resume.no-loss'>,
  events: EventsHarness,
  from: string,
  second: { token: string; how: string },
  where: string,
): Promise<{ same: SseConnection; other: SseConnection }> {
  const same = await events.subscribe({ query: { from } });
  const other = await events.subscribe({ query: { from }, auth: { header: `Bearer ${second.token}` } });
  const refusedForScope = second.how !== 'fresh' && (other.status === 401 || other.status === 403);
  if (!same.isEventStream || refusedForScope) {
    same.close();
    other.close();
  }
  must(
    d.eventsResumeNoLoss,
    same.isEventStream,
    ev(
      same,
      `a 2xx event stream resuming ${where} with the token that opened the stream, the reference for another token's`,
      `status ${same.status}, Content-Type ${same.contentType || '(none)'} ${same.errorBody.slice(0, 200)}`,
    ),
  );
  test.skip(
    refusedForScope,
    `The second token (${second.how}) was refused ${other.status} on /events: the scope /events requires is not shown`,
  );
  must(
    d.eventsResumeNoLoss,
    other.isEventStream,
    ev(
      other,
      `a 2xx event stream resuming ${where} with another token of the same client (${second.how}), as the token that opened the stream resumes (status ${same.status})`,
      `status ${other.status}, Content-Type ${other.contentType || '(none)'} ${other.errorBody.slice(0, 200)}`,
    ),
  );
  return { same, other };
}

test.describe('events stream @sse', () => {
  const live = declareRules(
    'events.start.latest',
    'events.resume.no-loss',
    'events.resume.no-duplicate',
    'events.from-timestamp.start',
  );
  test(
    "should continue live whichever way the stream starts (without from, from a cursor, from_timestamp, each with and without event_type; from_timestamp 30 s ahead of the service's clock), and resume from each stream's offset of a live event right after it, an event the filter skipped between",
    live,
    async ({ events, config }) => {
      requireTrigger(config);
      // A first event gives a fresh cursor and a time to start from.
      const first = await events.subscribe();
      const a = nonce();
      await events.causer.createOrganization(a);
      const seed = await first
        .waitFor(causedBy(a), waitMs(config), 0, `organization.created with nonce ${a}`)
        .catch(() => undefined);
      must(
        live.eventsStartLatest,
        !!seed,
        ev(
          first,
          `the organization.created caused after connecting (nonce ${a})`,
          `not within ${waitMs(config)} ms; ${first.messages.length} messages read`,
        ),
      );
      if (!seed) return;
      const from = offsetOf(seed)!;
      // The event's own time where it has one; else a minute back by this clock.
      const from_timestamp = timestamp(Number.isFinite(timeOf(seed)) ? timeOf(seed) : Date.now() - 60_000);
      // And one 30 s ahead of the service's clock (the event's time; else this clock's), as a client whose clock
      // runs ahead asks to start now: the timestamp starts the initial query only, and what is caused after
      // connecting still arrives, though it is older than the timestamp.
      const ahead = timestamp((Number.isFinite(timeOf(seed)) ? timeOf(seed) : Date.now()) + 30_000);
      const filter = { event_type: ['organization.created'] };
      // Each start mode, with the rule that names it; the stream without from is open already.
      const modes = [
        { name: 'without from', rule: live.eventsStartLatest, query: {} },
        { name: 'without from, event_type', rule: live.eventsStartLatest, query: filter },
        { name: `from the cursor of ${identity(seed)}`, rule: live.eventsResumeNoLoss, query: { from } },
        { name: 'from a cursor, event_type', rule: live.eventsResumeNoLoss, query: { from, ...filter } },
        { name: `from_timestamp ${from_timestamp}`, rule: live.eventsFromTimestampStart, query: { from_timestamp } },
        {
          name: 'from_timestamp, event_type',
          rule: live.eventsFromTimestampStart,
          query: { from_timestamp, ...filter },
        },
        {
          name: `from_timestamp ${ahead}, 30 s ahead of the service's clock`,
          rule: live.eventsFromTimestampStart,
          query: { from_timestamp: ahead },
        },
      ];
      // An organization made now is deleted once every stream is open: an event the filtered streams skip,
      // so that their positions and the count of what they delivered part ways before the next one.
      const skipped = await events.causer.createOrganization(nonce());
      const conns = [first];
      for (const m of modes.slice(1)) conns.push(await events.subscribe({ query: m.query }));
      await events.causer.deleteOrganization(skipped);
      // One event caused after every stream is open: each must deliver it, whatever it replays first.
      const b = nonce();
      await events.causer.createOrganization(b);
      const got = await Promise.all(
        conns.map((c) =>
          c.isEventStream
            ? c.waitFor(causedBy(b), waitMs(config), 0, `organization.created with nonce ${b}`).catch(() => undefined)
            : undefined,
        ),
      );
      modes.forEach((m, i) =>
        must(
          m.rule,
          !!got[i],
          ev(
            conns[i]!,
            `the organization.created caused after connecting (nonce ${b}) on the stream started ${m.name}`,
            conns[i]!.isEventStream
              ? `not within ${waitMs(config)} ms; ${conns[i]!.messages.length} messages read`
              : `status ${conns[i]!.status}, Content-Type ${conns[i]!.contentType || '(none)'}`,
          ),
        ),
      );
      // The live event's offset on each stream, whatever its start mode and filter, resumes right after it
      // (relation: a stream resumed from an offset it gave goes on where it was cut): resumed with the same
      // filter, the event is never delivered again, and one caused after it arrives.
      const resumed: Array<{ name: string; conn: Awaited<ReturnType<EventsHarness['subscribe']>> }> = [];
      for (const [i, m] of modes.entries()) {
        const off = got[i] ? offsetOf(got[i]!) : undefined;
        if (typeof off !== 'string') continue;
        const filtered = 'event_type' in m.query ? filter : {};
        resumed.push({ name: m.name, conn: await events.subscribe({ query: { from: off, ...filtered } }) });
      }
      const c = nonce();
      await events.causer.createOrganization(c);
      // Then a sentinel: up to it, a resumed stream has delivered the event caused after it once, not twice
      // (relation: a resumed stream equals the uncut one, whose live events arrive once each).
      const sentinel = nonce();
      await events.causer.createOrganization(sentinel);
      for (const { name, conn } of resumed) {
        const end = conn.isEventStream
          ? await conn
              .waitFor(causedBy(c), waitMs(config), 0, `organization.created with nonce ${c}`)
              .catch(() => undefined)
          : undefined;
        must(
          live.eventsResumeNoLoss,
          !!end,
          ev(
            conn,
            `resumed from the offset the stream started ${name} gave the event with nonce ${b}: the organization.created caused after it (nonce ${c})`,
            conn.isEventStream
              ? `not within ${waitMs(config)} ms; ${conn.messages.length} messages read`
              : `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`,
          ),
        );
        const repeated = conn.events.slice(0, end ? end.index : undefined).filter(causedBy(b)).length;
        must(
          live.eventsResumeNoDuplicate,
          repeated === 0,
          ev(
            conn,
            `resumed from the offset the stream started ${name} gave the event with nonce ${b}: that event not again`,
            `delivered again ${repeated} time(s)`,
          ),
        );
        const last = end
          ? await conn
              .waitFor(causedBy(sentinel), waitMs(config), end.index, `organization.created with nonce ${sentinel}`)
              .catch(() => undefined)
          : undefined;
        // The event caused next arrives too (it was caused while the stream was open, as the one before it).
        if (end)
          must(
            live.eventsResumeNoLoss,
            !!last,
            ev(
              conn,
              `resumed from the offset the stream started ${name} gave: the organization.created caused after the one that arrived (nonce ${sentinel})`,
              `not within ${waitMs(config)} ms; ${conn.messages.length} messages read`,
            ),
          );
        if (!last) continue;
        const times = conn.events.filter((m) => m.index < last.index && causedBy(c)(m)).length;
        must(
          live.eventsResumeNoDuplicate,
          times === 1,
          ev(
            conn,
            `resumed from the offset the stream started ${name} gave: the event caused after it (nonce ${c}) once, before the one caused next (nonce ${sentinel})`,
            `delivered ${times} time(s)`,
          ),
        );
      }
    },
  );

  const resume = declareRules('events.content-type', 'events.payload.offset', resumeRules);
  test(
    'should resume after the offset of any event k, the head included, with nothing lost, repeated or reordered (property)',
    resume,
    async ({ events, config }) => {
      requireTrigger(config);
      const { caused, n } = await causeAndRead(resume, events, config);
      const ids = caused.map(identity);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: caused.length - 1 }), async (k) => {
          await checkResume(resume, events, config, caused, ids, n, k);
        }),
        // Every run: the head first, the last offset handed out while it is still the newest, after which only
        // the sentinel may come; and k = 0, the longest resumption, the only one where order shows whatever else is drawn.
        { ...fcParams<[number]>(config, config.embedded ? 5 : 2), examples: [[caused.length - 1], [0]] },
      );
    },
  );

  const otherToken = declareRules('events.content-type', 'events.payload.offset', resumeRules);
  test(
    'should resume from an offset with another token of the same client as with the token that opened the stream: the same events after it (a cursor is a position in the stream, not a session)',
    otherToken,
    async ({ events, config }) => {
      // Relation: a client whose token expired, or which holds several, resumes with the token it has now. The
      // cursor is "an opaque cursor of a stream position": resumed with a second token of the same client, the
      // stream gives what it gives resumed with the token that opened it.
      const passive = config.eventsTrigger !== 'management-api' || config.writes === 'none';
      if (passive) skipBeyondReadOnlyBudget(config, 'the resumption with a second token is');
      const second = await anotherToken(config);
      test.skip('skip' in second, 'skip' in second ? second.skip : '');
      const pair = second as { token: string; how: string };
      const { how } = pair;
      if (passive) {
        // Without events of its own to compare, the relation on a heartbeat's cursor: resumed there with the
        // second token, the stream is served as it is with the first.
        const conn = await events.subscribe();
        const hb = await conn
          .waitFor((m) => m.event === 'offset-only', heartbeatWaitMs(config), 0, 'an offset-only heartbeat')
          .catch(() => undefined);
        conn.close();
        const from = hb === undefined ? undefined : cursorOf(hb);
        test.skip(from === undefined, 'No heartbeat with a cursor arrived: its frequency is not shown');
        const { same, other } = await resumeWithBoth(otherToken, events, from!, pair, "from a heartbeat's cursor");
        same.close();
        other.close();
        return;
      }
      requireTrigger(config);
      const { caused, n } = await causeAndRead(otherToken, events, config);
      const ids = caused.map(identity);
      // A cut with events after it, and before them one the resumption must not give again.
      const k = Math.min(1, caused.length - 1);
      const from = offsetOf(caused[k]!);
      must(otherToken.eventsPayloadOffset, typeof from === 'string', {
        expected: 'a string offset on every event',
        actual: JSON.stringify(from),
      });
      const { same, other } = await resumeWithBoth(
        otherToken,
        events,
        from!,
        pair,
        `after event ${k} of ${caused.length} (${ids[k]})`,
      );
      // A sentinel caused now bounds both: whatever a resumed stream gives must come before it.
      const sentinel = nonce();
      await events.causer.createOrganization(sentinel);
      const upTo = async (conn: typeof same) => {
        const end = await conn
          .waitFor(causedBy(sentinel), waitMs(config), 0, `the sentinel event (nonce ${sentinel})`)
          .catch(() => undefined);
        const got = conn.events
          .slice(0, end ? end.index : undefined)
          .filter(causedBy(n))
          .map(identity);
        return { got, unfinished: end ? undefined : 'the sentinel never arrived' };
      };
      const [reference, resumed] = await Promise.all([upTo(same), upTo(other)]);
      same.close();
      other.close();
      must(
        otherToken.eventsResumeNoLoss,
        !reference.unfinished && !resumed.unfinished && JSON.stringify(resumed.got) === JSON.stringify(reference.got),
        ev(
          other,
          `resumed from ${from} with another token of the same client (${how}): what the token that opened the stream gets resumed from it, ${reference.got.join(', ') || 'nothing caused'}${reference.unfinished ? ` (${reference.unfinished})` : ''}`,
          resumed.unfinished ?? (resumed.got.join(', ') || 'nothing'),
        ),
      );
      judgeResume(otherToken, other, ids, k, from!, resumed.got, resumed.unfinished, undefined, caused);
    },
  );

  const heartbeat = declareRules('events.resume.heartbeat-offset');
  test(
    'should resume from a heartbeat offset with the events caused after it',
    heartbeat,
    async ({ events, config }) => {
      requireTrigger(config);
      const conn = await events.subscribe();
      const hb = await conn
        .waitFor((m) => m.event === 'offset-only', heartbeatWaitMs(config), 0, 'an offset-only heartbeat')
        .catch(() => undefined);
      test.skip(!hb || cursorOf(hb) === undefined, 'No heartbeat with a cursor arrived: its frequency is not shown');
      const n = nonce();
      await events.causer.createOrganization(n);
      const org = await conn.waitFor(causedBy(n), waitMs(config), hb!.index, `organization.created with nonce ${n}`);
      conn.close();
      const resumed = await events.subscribe({ query: { from: cursorOf(hb!)! } });
      const again = await resumed
        .waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n} after the heartbeat`)
        .catch(() => undefined);
      must(
        heartbeat.eventsResumeHeartbeatOffset,
        !!again && identity(again) === identity(org),
        ev(
          resumed,
          `the event caused after the heartbeat (${identity(org)})`,
          again ? `another event ${identity(again)}` : `nothing within ${waitMs(config)} ms`,
          `heartbeat cursor ${cursorOf(hb!)}`,
        ),
      );
    },
  );

  // However long a cursor stays valid ("not shown"), the offset is there to be passed as from: a cursor
  // refused right after it came resumes nothing ever. No event is needed: a heartbeat's cursor suffices.
  const fresh = declareRules('events.resume.heartbeat-offset');
  test(
    "should take a heartbeat's cursor as from right after it came: a 2xx event stream",
    fresh,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the resumption from a fresh heartbeat is');
      const conn = await events.subscribe();
      const hb = await conn
        .waitFor((m) => m.event === 'offset-only', heartbeatWaitMs(config), 0, 'an offset-only heartbeat')
        .catch(() => undefined);
      conn.close();
      test.skip(!hb || cursorOf(hb) === undefined, 'No heartbeat with a cursor arrived: its frequency is not shown');
      const resumed = await events.subscribe({ query: { from: cursorOf(hb!)! } });
      resumed.close();
      must(
        fresh.eventsResumeHeartbeatOffset,
        resumed.isEventStream,
        ev(
          resumed,
          `a 2xx event stream: the cursor of the heartbeat that came right before (${cursorOf(hb!)}) passed as from`,
          `status ${resumed.status}, Content-Type ${resumed.contentType || '(none)'} ${resumed.errorBody.slice(0, 200)}`,
        ),
      );
    },
  );

  const liveCut = declareRules('events.start.latest', 'events.resume.heartbeat-offset', resumeRules);
  test(
    'should resume from every heartbeat of a live stream, those after delivered events included, to exactly what followed it: none of the events already read, the events caused after it',
    liveCut,
    async ({ events, config }) => {
      requireTrigger(config);
      // Every offset is a cut point on a live stream too: events caused and read, then a heartbeat, then one more
      // event. A heartbeat after the events carries the position after them, not the one the stream connected at.
      const conn = await events.subscribe();
      const a = nonce();
      await events.causer.causeSequence(a);
      const lastA = await conn
        .waitFor(
          (m) => causedBy(a)(m) && m.event === 'organization.deleted',
          waitMs(config),
          0,
          `events with nonce ${a}`,
        )
        .catch(() => undefined);
      must(
        liveCut.eventsStartLatest,
        !!lastA,
        ev(conn, `the events caused after connecting (nonce ${a})`, `not within ${waitMs(config)} ms`),
      );
      if (!lastA) return conn.close();
      const after = await conn
        .waitFor(
          (m) => m.event === 'offset-only' && cursorOf(m) !== undefined,
          heartbeatWaitMs(config),
          lastA.index + 1,
          'an offset-only heartbeat after the events',
        )
        .catch(() => undefined);
      if (!after) conn.close();
      test.skip(
        !after,
        `No heartbeat with a cursor arrived within ${heartbeatWaitMs(config)} ms of the events: its frequency is not shown`,
      );
      const b = nonce();
      await events.causer.createOrganization(b);
      const lastB = await conn
        .waitFor(causedBy(b), waitMs(config), after!.index + 1, `organization.created with nonce ${b}`)
        .catch(() => undefined);
      conn.close();
      const caused = (m: SseMessage) => causedBy(a)(m) || causedBy(b)(m);
      const uncut = conn.messages.slice(0, lastB ? lastB.index + 1 : undefined);
      const read = uncut.filter(caused);
      const ids = read.map(identity);
      const beats = uncut.filter((m) => m.event === 'offset-only' && cursorOf(m) !== undefined);
      // Against an external target, the heartbeat after the events only.
      for (const hb of config.embedded ? beats : [after!]) {
        const from = cursorOf(hb)!;
        const k = read.filter((m) => m.index < hb.index).length - 1;
        const resumed = await events.subscribe({ query: { from } });
        // A cursor handed out seconds ago: how long one stays valid is not shown, but not this short.
        must(
          liveCut.eventsResumeHeartbeatOffset,
          resumed.isEventStream,
          ev(
            resumed,
            `a 2xx event stream resuming from the heartbeat of message #${hb.index}`,
            `status ${resumed.status}, Content-Type ${resumed.contentType || '(none)'} ${resumed.errorBody.slice(0, 200)}`,
          ),
        );
        if (!resumed.isEventStream) continue;
        // The event caused last bounds the wait: whatever the resumed stream repeats comes before it.
        const end = await resumed
          .waitFor(causedBy(b), waitMs(config), 0, `organization.created with nonce ${b}`)
          .catch(() => undefined);
        const got = resumed.messages
          .slice(0, end ? end.index + 1 : undefined)
          .filter(caused)
          .map(identity);
        const expected = ids.slice(k + 1);
        const unfinished = end
          ? undefined
          : `the event caused last (nonce ${b}) did not arrive within ${waitMs(config)} ms`;
        must(
          liveCut.eventsResumeHeartbeatOffset,
          !unfinished && JSON.stringify(got) === JSON.stringify(expected),
          ev(
            resumed,
            `what followed the heartbeat (message #${hb.index}, cursor ${from}) on the live stream: ${expected.join(', ') || 'nothing caused'}`,
            unfinished ?? (got.join(', ') || 'nothing'),
            `live stream: ${uncut.map((m) => (m.event === 'offset-only' ? `[heartbeat ${cursorOf(m)}]` : identity(m))).join(', ')}`,
          ),
        );
        judgeResume(liveCut, resumed, ids, k, from, got, unfinished, undefined, read);
        resumed.close();
      }
    },
  );

  const passive = declareRules(resumeRules);
  test(
    'should resume after an offset with nothing lost, repeated or reordered (passive)',
    passive,
    async ({ events, config }) => {
      requirePassive(config);
      const first = await events.subscribe();
      const read = await first.collect(3, isEvent, config.eventsWaitMs, 'events').catch(() => first.events);
      first.close();
      test.skip(
        read.length < 3,
        `Only ${read.length} events arrived within ${config.eventsWaitMs} ms: 3 are needed to resume between them`,
      );
      const ids = read.map(identity);
      const resumed = await events.subscribe({ query: { from: offsetOf(read[0]!)! } });
      // The last event of the first read bounds the wait: everything expected comes before it.
      const end = await resumed
        .waitFor((m) => identity(m) === ids[2], config.eventsWaitMs, 0, `event ${ids[2]} again`)
        .catch(() => undefined);
      const got = resumed.events
        .slice(0, end ? end.index + 1 : undefined)
        .map(identity)
        .filter((id) => ids.includes(id));
      judgeResume(
        passive,
        resumed,
        ids,
        0,
        offsetOf(read[0]!)!,
        got,
        end ? undefined : `event ${ids[2]} did not arrive within ${config.eventsWaitMs} ms`,
        undefined,
        read,
      );
      // Then the activity that follows, live on the resumed stream: an event caused after it connected arrives on
      // it once, before the next one (relation: the uncut stream delivers each live event once). Which events are
      // live is read on a plain stream opened now, which sees only what is caused from now on: those caused
      // between the first read and the resumption come back on the resumed stream as its replay, not live.
      if (end) {
        const live = await events.subscribe();
        const next = await live.waitFor(isEvent, config.eventsWaitMs, 0, 'an event caused now').catch(() => undefined);
        const after = next
          ? await live
              .waitFor(
                (m) => isEvent(m) && identity(m) !== identity(next),
                config.eventsWaitMs,
                next.index + 1,
                'a second event caused now',
              )
              .catch(() => undefined)
          : undefined;
        live.close();
        const again = after
          ? await resumed
              .waitFor(
                (m) => identity(m) === identity(after),
                config.eventsWaitMs,
                end.index + 1,
                `event ${identity(after)}`,
              )
              .catch(() => undefined)
          : undefined;
        if (next && after && again) {
          const times = resumed.events.filter((m) => m.index < again.index && identity(m) === identity(next)).length;
          must(
            passive.eventsResumeNoDuplicate,
            times <= 1,
            ev(
              resumed,
              `an event caused after the resumption (${identity(next)}, seen on a plain stream opened then) at most once before the next (${identity(after)})`,
              `delivered ${times} time(s)`,
            ),
          );
        }
      }
      resumed.close();
    },
  );

  // The limit is on the value's characters, whatever they are: a filler of the cursor's own alphabet, and a
  // cursor the stream gave lengthened to 1025 with what a lenient reader drops before it counts: base64's =
  // padding (RFC 4648 3.2, 5), white space (trimmed), and the cursor's own characters (a decoder that stops at
  // the length it needs). A limit counted on what remains takes them and resumes.
  const fromLength = declareRules('events.from.max-length');
  test(
    'should refuse a from cursor of 1025 characters, whatever they are: a filler, and a cursor the stream gave lengthened with = padding, with spaces, with its own characters',
    fromLength,
    async ({ events, config }) => {
      // Against an external target the cursor's partitions need writes on (the read-only run is at its budget).
      const lengthened = config.embedded || config.writes !== 'none';
      const cursor = lengthened ? await cursorNow(await events.subscribe({}), config) : undefined;
      const values: Array<[string, string]> = [
        ['a filler of 1025 characters', 'a'.repeat(1025)],
        ...(cursor === undefined || cursor.length >= 1025
          ? []
          : ([
              ['a cursor the stream gave, then = padding', cursor.padEnd(1025, '=')],
              ['a cursor the stream gave, then spaces', cursor.padEnd(1025, ' ')],
              ['a cursor the stream gave, then its own characters again', cursor.padEnd(1025, cursor)],
            ] as Array<[string, string]>)),
      ];
      // Against an external target with writes on, the filler and the padded cursor (request budget).
      for (const [what, from] of config.embedded ? values : values.slice(0, 2)) {
        const conn = await events.subscribe({ query: { from } });
        conn.close();
        mustRefuse(
          fromLength.eventsFromMaxLength,
          streamExchange(conn),
          `from is at most 1024 characters; sent ${what}`,
        );
      }
    },
  );

  // A partition of the whole query, not of one parameter: Endpoints 4 defines from (at most 1024 characters),
  // from_timestamp (at most 20, RFC 3339) and event_type (the listed types), and each constraint holds whatever the
  // other parameters hold. A server that checks a value only in the branch that reads it (from's length where it
  // resumes, from_timestamp's where it starts, event_type's where a stream begins) takes a breaking value beside the
  // parameter that picks another branch; so each breaking value goes beside each set of the others in a valid form
  // (a cursor the stream gave, a timestamp an hour back, a listed type), and is refused (a 4xx) in every one. A server
  // that refuses from with from_timestamp as a pair (the document does not exclude it) refuses too: no 2xx is asked.
  // Not asked: a from_timestamp that is no RFC 3339 date-time beside a cursor. Its refusal is the start's rule, and
  // beside a cursor the timestamp starts nothing ("for the initial query only"); its length is a limit (Limits),
  // whatever the query.
  const wholeQuery = declareRules(
    'events.from.max-length',
    'events.from-timestamp.max-length',
    'events.from-timestamp.start',
    'events.filter.unknown-rejected',
  );
  test(
    "should refuse each query parameter's breaking value whatever the others hold (pairwise partition of the query): from over 1024 characters beside a valid from_timestamp, event_type, both; from_timestamp over 20 characters beside a cursor the stream gave, event_type, both; from_timestamp no RFC 3339 date-time beside event_type; an unknown event_type beside a cursor, from_timestamp, both",
    wholeQuery,
    async ({ events, config }) => {
      // The cursor's combinations need a stream opened first: beyond a read-only run's budget against a tenant.
      const cursor = atReadOnlyBudget(config) ? undefined : await cursorNow(await events.subscribe({}), config);
      const valid: Array<[string, Query]> = [
        ...(cursor === undefined ? [] : ([['a cursor the stream gave', { from: cursor }]] as Array<[string, Query]>)),
        ['from_timestamp an hour back', { from_timestamp: timestamp(Date.now() - 3_600_000) }],
        [`event_type ${EVENT_TYPES[0]!}`, { event_type: EVENT_TYPES[0]! }],
      ];
      // Each breaking value: the rule it breaks, what it is, the query it is, and the parameters left out beside it.
      const breaking: Array<[RuleRef, string, Query, string[]]> = [
        [wholeQuery.eventsFromMaxLength, 'from of 1025 characters (maximum 1024)', { from: 'a'.repeat(1025) }, []],
        [
          wholeQuery.eventsFromTimestampMaxLength,
          'from_timestamp 2024-01-01T00:00:00.0Z (RFC 3339, 22 characters: maximum 20)',
          { from_timestamp: '2024-01-01T00:00:00.0Z' },
          [],
        ],
        [
          wholeQuery.eventsFromTimestampStart,
          'from_timestamp 2025-02-30T00:00:00Z (February 30: no RFC 3339 date-time)',
          { from_timestamp: '2025-02-30T00:00:00Z' },
          ['from'],
        ],
        [
          wholeQuery.eventsFilterUnknownRejected,
          'event_type user.exploded (no listed type)',
          { event_type: 'user.exploded' },
          [],
        ],
      ];
      // Beside every non-empty set of the others, one first, then two (alone, each has its own check).
      const cases = breaking.flatMap(([rule, what, query, leftOut]) => {
        const others = valid.filter(([, q]) => !Object.keys(q).some((k) => k in query || leftOut.includes(k)));
        const sets = Array.from({ length: 2 ** others.length - 1 }, (_, i) =>
          others.filter((_, j) => (i + 1) & (1 << j)),
        );
        return sets
          .sort((a, b) => a.length - b.length)
          .map((set): [RuleRef, string, Query] => [
            rule,
            `${what} beside ${set.map(([w]) => w).join(' and ')}`,
            Object.assign({}, ...set.map(([, q]) => q), query) as Query,
          ]);
      });
      // Against a tenant read-only (at its request budget): from over its limit beside a timestamp, beside a type,
      // and from_timestamp over its limit beside a type.
      const readOnly = [cases[0]!, cases[1]!, cases.find(([r]) => r === wholeQuery.eventsFromTimestampMaxLength)!];
      for (const [rule, what, query] of atReadOnlyBudget(config) ? readOnly : cases) {
        const conn = await events.subscribe({ query });
        conn.close();
        mustRefuse(
          rule,
          streamExchange(conn),
          `each parameter's constraint holds whatever the others hold; sent ${what}`,
        );
      }
    },
  );

  // What from holds when it is no cursor the stream gave: a server refuses it (its status is not shown), or, as
  // "not shown" allows, streams; it never fails on it (a 5xx), and a refusal's body is JSON like every other.
  const notACursor = declareRules('http.json-error-bodies');
  test(
    'should answer a from that is no cursor the stream gave with a refusal in JSON or a stream, never a server error: characters outside base64url, base64url of bytes that are no cursor, a cursor the stream gave with a character changed, cut by one, with base64 padding (RFC 4648 5)',
    notACursor,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the values of from that are no cursor are');
      const cursor = await cursorNow(await events.subscribe({}), config);
      const swap = (c: string) => (c === 'A' ? 'B' : 'A');
      const all: Array<[string, string]> = [
        ['characters outside base64url', '!*!*'],
        ['base64url of bytes that are no cursor', 'AAAAAAAA'],
        ...(cursor === undefined
          ? []
          : ([
              ['a cursor the stream gave, its last character changed', `${cursor.slice(0, -1)}${swap(cursor.at(-1)!)}`],
              ['a cursor the stream gave, its first character changed', `${swap(cursor[0]!)}${cursor.slice(1)}`],
              ['a cursor the stream gave, cut by its last character', cursor.slice(0, -1)],
              ['a cursor the stream gave, with base64 padding', `${cursor}==`],
            ] as Array<[string, string]>)),
      ];
      const values = all.filter(([, v]) => v !== cursor);
      for (const [what, from] of config.embedded ? values : values.slice(0, 2)) {
        const conn = await events.subscribe({ query: { from } });
        conn.close();
        if (conn.isEventStream) continue;
        const ex = streamExchange(conn);
        must(notACursor.httpJsonErrorBodies, ex.status >= 400 && ex.status < 500, {
          expected: `a stream, or a refusal (4xx): from is ${what} (${JSON.stringify(from)})`,
          actual: `status ${ex.status}, Content-Type ${ex.contentType || '(none)'}`,
          exchange: ex,
        });
        mustBeJsonErrorBody(notACursor, ex);
      }
    },
  );

  const calendar = declareRules('events.from-timestamp.start');
  test(
    "should take from_timestamp at every calendar edge RFC 3339 allows as it takes its neighbour: a leap second (5.6, 5.7: second 60), February 29 of a leap year (2024, 2000, 0000), a month's and a year's last day, the epoch and a second before it, a time in the future (as the present)",
    calendar,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the calendar edges are');
      // Each valid date-time within 20 characters beside a neighbour a date library takes without question: whatever
      // a target answers a start that old or that far ahead (not shown), it answers both of a pair alike.
      const now = new Date();
      const present = `${now.toISOString().slice(0, 19)}Z`;
      const pairs: Array<[string, string, string]> = [
        // The last leap second names the same instant's start as the second after it (RFC 3339 5.7).
        ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00Z', 'a leap second'],
        ['2024-02-29T00:00:00Z', '2024-02-28T00:00:00Z', 'February 29 of a leap year'],
        ['2000-02-29T12:00:00Z', '2000-02-28T12:00:00Z', 'February 29 of 2000 (divisible by 400)'],
        // The years 0000-0099 (RFC 3339 5.6: date-fullyear = 4DIGIT), where a date library reads two-digit years as 19xx.
        ['0000-02-29T00:00:00Z', '0000-02-28T00:00:00Z', 'February 29 of the year 0000 (divisible by 400)'],
        ['2024-04-30T00:00:00Z', '2024-04-29T00:00:00Z', "April 30, a 30-day month's last day"],
        ['2024-12-31T23:59:59Z', '2024-12-31T23:59:58Z', "a year's last second"],
        ['1970-01-01T00:00:00Z', '1970-01-01T00:00:01Z', 'the epoch'],
        ['1969-12-31T23:59:59Z', '1970-01-01T00:00:01Z', 'a second before the epoch'],
        [`${now.getUTCFullYear() + 1}-01-01T00:00:00Z`, present, 'a time in the future'],
      ];
      for (const [edge, neighbour, what] of config.embedded ? pairs : pairs.slice(0, 2)) {
        const answers: Exchange[] = [];
        for (const from_timestamp of [edge, neighbour]) {
          const conn = await events.subscribe({ query: { from_timestamp } });
          answers.push(streamExchange(conn));
          conn.close();
        }
        const [atEdge, beside] = answers as [Exchange, Exchange];
        must(calendar.eventsFromTimestampStart, Math.floor(atEdge.status / 100) === Math.floor(beside.status / 100), {
          expected: `from_timestamp ${edge} (${what}), an RFC 3339 timestamp, answered as ${neighbour} is (status ${beside.status})`,
          actual: `status ${atEdge.status}`,
          exchange: atEdge,
        });
      }
    },
  );

  const notRfc3339 = declareRules('events.from-timestamp.start');
  test(
    "should refuse a from_timestamp within 20 characters that is no RFC 3339 date-time (5.6, 5.7): a day past its month's end, February 29 of a common year, month 00 or 13, day 00, hour 24, minute 60, second 61, no time zone, a date alone, a space for T",
    notRfc3339,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the invalid timestamps are');
      // Each within the 20-character limit, so that only its grammar or its calendar refuses it.
      const invalid: Array<[string, string]> = [
        ['2025-02-30T00:00:00Z', 'February 30'],
        ['2025-04-31T00:00:00Z', 'April 31'],
        ['2025-02-29T00:00:00Z', 'February 29 of a common year'],
        ['1900-02-29T00:00:00Z', 'February 29 of 1900 (divisible by 100, not by 400: a common year)'],
        ['2025-13-01T00:00:00Z', 'month 13'],
        ['2025-00-10T00:00:00Z', 'month 00'],
        ['2025-01-00T00:00:00Z', 'day 00'],
        ['2025-01-01T24:00:00Z', 'hour 24'],
        ['2025-01-01T00:60:00Z', 'minute 60'],
        ['2025-01-01T00:00:61Z', 'second 61'],
        ['2025-01-01T00:00:00', 'no time zone (RFC 3339 5.6: time-offset is required)'],
        ['2025-01-01', 'a date alone'],
        ['2025-01-01 00:00:00Z', 'a space for T'],
      ];
      // Against an external target (writes on), the calendar ones a date library rolls over.
      for (const [v, what] of config.embedded ? invalid : invalid.slice(0, 3)) {
        const conn = await events.subscribe({ query: { from_timestamp: v } });
        mustRefuse(
          notRfc3339.eventsFromTimestampStart,
          streamExchange(conn),
          `from_timestamp ${v} (${what}) is no RFC 3339 date-time`,
        );
        conn.close();
      }
    },
  );

  const timestampLength = declareRules('events.from-timestamp.max-length');
  test(
    'should refuse a from_timestamp over 20 characters, valid RFC 3339 or not',
    timestampLength,
    async ({ events, config }) => {
      // Valid RFC 3339 timestamps over 20 characters (a fraction, a numeric offset), and one with a space after.
      const over = [
        '2024-01-01T00:00:00.0Z',
        '2024-01-01T00:00:00.123456Z',
        '2024-01-01T00:00:00+00:00',
        '2024-01-01T01:00:00+01:00',
        '2024-01-01T00:00:00Z ',
      ];
      // Against an external target, a fraction and an offset (the budget of a read-only run leaves no more).
      for (const v of config.embedded ? over : [over[0]!, over[3]!]) {
        const conn = await events.subscribe({ query: { from_timestamp: v } });
        mustRefuse(
          timestampLength.eventsFromTimestampMaxLength,
          streamExchange(conn),
          `from_timestamp of ${v.length} characters (maximum 20)`,
        );
      }
    },
  );
});
