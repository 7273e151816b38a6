/**
 * Endpoints 4. Subscribe to events (Server-Sent Events): GET /events with
 * `event_type`: only the requested types arrive, every type when it is
 * absent, and an unknown type is refused, in every near spelling of an
 * allowed one (its partitions: a comma-joined list, padded, another case, a
 * trailing dot, invisible characters, look-alike letters), and every name a
 * store of the allow-list finds without listing it (members every JavaScript
 * object inherits, Python's dunder names, a listed type's own namespace).
 *
 * organization.deleted is caused last: once it has arrived, whatever was
 * caused before it has too, so nothing waits by sleeping.
 */
import { declareRules } from '../harness/vocabulary/declare.ts';
import {
  EVENT_TYPES,
  cursorNow,
  ev,
  heartbeatWaitMs,
  lateHeartbeat,
  mustBeOnlyRequested,
  streamExchange,
  timestamp,
  waitMs,
} from '../harness/vocabulary/events.ts';
import {
  JSON_ESCAPED_CHARACTERS,
  mapPositions,
  nearMisses,
  nearMissSpellings,
} from '../harness/vocabulary/partitions.ts';
import { PROTO_KEY, PROTOTYPE_MEMBER_KEYS } from '../harness/vocabulary/body-partitions.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { must, mustBeJsonErrorBody, mustRefuse } from '../harness/vocabulary/must.ts';
import { atReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import type { SseConnection } from '../harness/requests/sse.ts';
import { causedBy, nonce, requireTrigger } from '../harness/fixtures/triggers.ts';

test.describe.configure({ timeout: 120_000 });

test.describe('events stream @sse', () => {
  const onlyRequested = declareRules('events.filter.only-requested');
  test(
    "should deliver only the requested event types, each event once, a type asked twice included, just opened and late in the stream's life (relation: a filter holds for as long as the stream is open)",
    onlyRequested,
    async ({ events, config }) => {
      requireTrigger(config);
      /** The sequence caused with nonce n, read up to its last event (organization.deleted, asked by each stream). */
      const judge = async (conn: SseConnection, wanted: readonly string[], n: string, when: string) => {
        await conn.waitFor(
          (m) => causedBy(n)(m) && m.event === 'organization.deleted',
          waitMs(config),
          0,
          `organization.deleted with nonce ${n}`,
        );
        mustBeOnlyRequested(onlyRequested.eventsFilterOnlyRequested, conn, wanted, when);
        if (wanted.includes('user.created')) {
          const users = conn.events.filter((m) => m.event === 'user.created' && causedBy(n)(m));
          must(
            onlyRequested.eventsFilterOnlyRequested,
            users.length === 1,
            ev(conn, 'the user.created caused', `${users.length} user.created with the nonce`, when),
          );
        }
      };
      const open: Array<{ conn: SseConnection; wanted: readonly string[]; at: number }> = [];
      // One type, two, and a type repeated (one occurrence per type: asked twice, its events still arrive once).
      for (const wanted of [
        ['organization.deleted'],
        ['user.created', 'organization.deleted'],
        ['user.created', 'organization.deleted', 'user.created'],
      ]) {
        const conn = await events.subscribe({ query: { event_type: wanted } });
        const at = Date.now();
        // "repeatable (one occurrence per type)" may be read as at most one per type: a type asked twice may be
        // refused (a 4xx, never a 5xx); where it is streamed, its events arrive once.
        if (new Set(wanted).size < wanted.length && conn.status >= 400 && conn.status < 500) {
          conn.close();
          continue;
        }
        const n = nonce();
        await events.causer.causeSequence(n);
        await judge(conn, wanted, n, 'the sequence caused just after the stream opened');
        open.push({ conn, wanted, at });
      }
      // The same streams later in their life (the newest open as long as a check waits for an event, a heartbeat
      // the marker): the sequence again, types not asked first, organization.deleted last; nothing else before it.
      const newest = open.at(-1)!;
      const beat = await lateHeartbeat(newest.conn, newest.at, config);
      if (beat === undefined) {
        // The heartbeat frequency is not shown: the filter stands judged just after opening, and the report says
        // the later judgement was not made (not a skip: what was judged is kept).
        open.forEach((o) => o.conn.close());
        test.info().annotations.push({
          type: 'not judged',
          description: `No heartbeat came within ${heartbeatWaitMs(config)} ms of the stream being open ${waitMs(config)} ms (the heartbeat frequency is not shown): the filter was judged just after opening only`,
        });
        return;
      }
      const n = nonce();
      await events.causer.causeSequence(n);
      for (const { conn, wanted, at } of open) {
        await judge(
          conn,
          wanted,
          n,
          `the sequence caused once the stream had been open ${beat!.receivedAt - at} ms (after its heartbeat of message #${beat!.index} on the newest stream), nonce ${n}`,
        );
        conn.close();
      }
    },
  );

  const allWhenAbsent = declareRules('events.filter.all-when-absent');
  test('should stream every event type when event_type is absent', allWhenAbsent, async ({ events, config }) => {
    requireTrigger(config);
    const conn = await events.subscribe();
    const n = nonce();
    const wanted = await events.causer.causeSequence(n);
    // Whatever is left out never arrives: wait for all that was caused, then say which types are missing.
    await conn
      .collect(wanted.length, causedBy(n), waitMs(config), `events caused with nonce ${n}`)
      .catch(() => undefined);
    const types = conn.events.filter(causedBy(n)).map((m) => m.event);
    const missing = wanted.filter((t) => !types.includes(t));
    must(
      allWhenAbsent.eventsFilterAllWhenAbsent,
      missing.length === 0,
      ev(
        conn,
        `every type caused: ${wanted.join(', ')}`,
        `missing ${missing.join(', ')} (arrived: ${types.join(', ') || 'nothing'})`,
      ),
    );
  });

  const eachOnItsOwn = declareRules('events.filter.only-requested', 'events.filter.all-when-absent');
  test(
    'should filter each open subscription by its own event_type, whatever the others opened beside it ask (relation: a stream is the same alone or among others)',
    eachOnItsOwn,
    async ({ events, config }) => {
      requireTrigger(config);
      // Two filtered streams, then an unfiltered one opened last: a filter kept once for all streams shows in each.
      const deleted = await events.subscribe({ query: { event_type: ['organization.deleted'] } });
      const users = await events.subscribe({ query: { event_type: ['user.created'] } });
      const all = await events.subscribe();
      const n = nonce();
      const wanted = await events.causer.causeSequence(n);
      // organization.deleted is caused last: once each stream that takes it has it, the rest has arrived there too.
      const last = (m: Parameters<ReturnType<typeof causedBy>>[0]) =>
        causedBy(n)(m) && m.event === 'organization.deleted';
      await all.waitFor(last, waitMs(config), 0, `organization.deleted with nonce ${n}`).catch(() => undefined);
      await deleted.waitFor(last, waitMs(config), 0, `organization.deleted with nonce ${n}`).catch(() => undefined);
      await users
        .waitFor((m) => causedBy(n)(m) && m.event === 'user.created', waitMs(config), 0, `user.created with nonce ${n}`)
        .catch(() => undefined);
      mustBeOnlyRequested(eachOnItsOwn.eventsFilterOnlyRequested, deleted, ['organization.deleted']);
      mustBeOnlyRequested(eachOnItsOwn.eventsFilterOnlyRequested, users, ['user.created']);
      for (const [conn, type] of [
        [deleted, 'organization.deleted'],
        [users, 'user.created'],
      ] as const)
        must(
          eachOnItsOwn.eventsFilterOnlyRequested,
          conn.events.some((m) => causedBy(n)(m) && m.event === type),
          ev(conn, `the ${type} caused, on the stream asking for it`, 'it did not arrive'),
        );
      const types = all.events.filter(causedBy(n)).map((m) => m.event);
      const missing = wanted.filter((t) => !types.includes(t));
      must(
        eachOnItsOwn.eventsFilterAllWhenAbsent,
        missing.length === 0,
        ev(
          all,
          `every type caused, on the stream without event_type: ${wanted.join(', ')}`,
          `missing ${missing.join(', ')}`,
        ),
      );
      for (const conn of [deleted, users, all]) conn.close();
    },
  );

  const unknown = declareRules('events.filter.unknown-rejected', 'http.json-error-bodies');
  test(
    'should refuse an unknown event_type, the payload types offset-only and error, every near spelling of an allowed one (a comma-joined list, padded, in another case, with a trailing dot, look-alike letters), and every name an allow-list store finds unlisted (partition of unknown names by how allow-lists are stored: the members of Object.prototype, ECMA-262 20.1.3 and B.2.2, __proto__ included; Python dunder names; prototype, length; a listed namespace and its inherited members), alone or among listed ones, with a JSON body whatever the value holds (a quotation mark, a reverse solidus, a control character)',
    unknown,
    async ({ events, config }) => {
      // event_type is "repeatable (one occurrence per type)" and its allowed values are the listed types: a value
      // that is none of them, whatever it resembles, is unknown. Not the empty value: whether `event_type=` counts
      // as absent is not shown.
      const refused = async (t: string | readonly string[], what: string, start: Record<string, string> = {}) => {
        const conn = await events.subscribe({ query: { ...start, event_type: t } });
        const ex = streamExchange(conn);
        // A refusal's body is JSON (the document: JSON unless stated; only the success is a stream), the value
        // refused quoted in it or not. (Read up to 4 KiB: a longer one is not judged.)
        if (ex.text.length < 4000) mustBeJsonErrorBody(unknown, ex);
        mustRefuse(
          unknown.eventsFilterUnknownRejected,
          ex,
          typeof t === 'string'
            ? `event_type ${JSON.stringify(t)} (${what}) is not an allowed value`
            : `event_type ${t.map((x) => JSON.stringify(x)).join(', ')} (${what}): one of them is not an allowed value`,
        );
        conn.close();
      };
      const spellings: Array<[string, string]> = [
        ['user.exploded', 'no listed type'],
        ['user.created,user.deleted', 'two listed types joined by a comma, not one occurrence per type'],
        // RFC 8259 7: what a message quoting the value must escape (the quotation mark against an external target).
        ...JSON_ESCAPED_CHARACTERS.map((c): [string, string] => [
          `user${c.char}exploded`,
          `no listed type, holding ${c.what}`,
        ]),
      ];
      const more: Array<[string, string]> = [
        [' user.created', 'a listed type after a space'],
        ['user.created, user.deleted', 'two listed types joined by a comma and a space'],
        ['user.created;user.deleted', 'two listed types joined by a semicolon'],
        ['user.created user.deleted', 'two listed types joined by a space'],
        ['organization.created,organization.deleted,user.created', 'three listed types joined by commas'],
        ['user.created.', 'a listed type with a trailing dot'],
        ['user.', 'the prefix of listed types'],
        ['user.*', 'a wildcard over listed types'],
        ['offset-only', 'a payload type (a heartbeat), not an event type'],
        ['error', 'a payload type (an error), not an event type'],
        ...nearMissSpellings('organization.member.added').map((s): [string, string] => [
          s,
          'a near miss of a listed type',
        ]),
      ];
      // Partition of unknown names by how an allow-list is stored, not by what they resemble: a plain object looked
      // up with `in` or `obj[value]` finds every member it inherits (ECMA-262 20.1.3 and the accessors of B.2.2,
      // __proto__ among them), a class or enum read by attribute finds Python's dunder names, a function or array
      // its prototype and length, and an allow-list nested by namespace (user → created) finds the namespace alone
      // and the members it inherits. None is listed in Events, so each is refused before any stream opens.
      const inherited: Array<[string, string]> = [
        ...[...PROTOTYPE_MEMBER_KEYS.map((k) => k.key), PROTO_KEY].map((t): [string, string] => [
          t,
          'a member every JavaScript object inherits',
        ]),
        ...['__class__', '__init__', '__dict__', '__doc__'].map((t): [string, string] => [
          t,
          'a name every Python object or class answers',
        ]),
        ['prototype', 'a member of every JavaScript function'],
        ['length', 'a member of every JavaScript array, string and function'],
        ['user', 'the namespace of listed types, a key of an allow-list nested by namespace'],
        ['user.constructor', 'a listed namespace followed by an inherited member'],
      ];
      // Against an external target, within the request budget: a comma-joined list, itself a type no one listed,
      // and a type holding a quotation mark; with writes on (beyond a read-only run's budget), the first member
      // every object inherits too.
      const external = [spellings[1]!, spellings[2]!, ...(atReadOnlyBudget(config) ? [] : [inherited[0]!])];
      for (const [t, what] of config.embedded ? [...spellings, ...more, ...inherited] : external)
        await refused(t, what);
      if (!config.embedded) return;
      // Partition of where the stream starts: the filter is the same query parameter however the stream starts
      // (a cursor it resumes after, a time, neither), so an unknown value is refused with each start; a server that
      // validates it only when a new subscription begins takes it on a resumption.
      const cursor = await cursorNow(await events.subscribe(), config);
      const starts: Array<[string, Record<string, string>]> = [
        ...(cursor === undefined
          ? []
          : [['resuming from a cursor the stream gave', { from: cursor }] as [string, Record<string, string>]]),
        ['starting at a time (from_timestamp an hour back)', { from_timestamp: timestamp(Date.now() - 3_600_000) }],
      ];
      for (const [when, start] of starts) await refused(spellings[0]![0], `${spellings[0]![1]}, ${when}`, start);
      // Repeated (one occurrence per type): an unknown value at every position among listed ones (first, middle,
      // last), as a server validating only the first or the last occurrence lets it through.
      const listed = ['user.created', 'organization.deleted'];
      for (const { what, index } of mapPositions(3)) {
        const types = [...listed];
        types.splice(index, 0, 'user.exploded');
        await refused(types, `an unknown type repeated with two listed ones, ${what}`);
      }
      // And near misses of any listed type, drawn (case folded, padded, invisible characters, cut, look-alikes).
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...EVENT_TYPES).chain((type) => nearMisses(type)),
          async (t) => refused(t, 'a near miss of a listed type'),
        ),
        fcParams(config, 8),
      );
    },
  );
});
