/**
 * The tenant's own history, shared by the events-history-*.spec.ts checks: a
 * subscription with `from_timestamp` a day back replays the recent events, so
 * the message, envelope, connection.created, resumption, start-position and
 * filter rules are decided without writes too. These checks run whether or
 * not the suite causes events: what they read is whatever the tenant already
 * holds, and, where the run may cause events, a sequence it caused first.
 *
 * Every wait is bounded by an event that must arrive (the last history event
 * every expected one precedes) or, where nothing must arrive, by the end of
 * the replay (see readReplay).
 */
import type { Config } from '../harness/run/config.ts';
import type { Query } from '../harness/requests/client.ts';
import { ev, HISTORY_MS, readHistory, type History } from '../harness/vocabulary/events.ts';
import { test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import type { Declared, RuleRef } from '../harness/vocabulary/declare.ts';
import { must, observe } from '../harness/vocabulary/must.ts';
import { canTrigger, nonce } from '../harness/fixtures/triggers.ts';

/** The rule every history check decides first: its read of the history is an event stream. */
export const READ = 'events.content-type';

/**
 * The history, read once per worker and target (this module is shared by every history
 * file a worker runs): every check compares with the same first read, and a
 * read-only run stays within its request budget. Later events (caused by
 * other checks) come after it and are left out by identity.
 */
const shared = new Map<string, Promise<History>>();
export function history(d: Declared<'events.content-type'>, events: EventsHarness, config: Config): Promise<History> {
  // Per target: a worker may check several (harness/fixtures/targets.ts).
  let read = shared.get(config.baseUrl);
  if (read) return read;
  read = (async () => {
    // Where this run may cause events, a few first: the history then holds events the tenant kept and events
    // that came since, whatever other checks ran before, and a resumption from the older ones goes on
    // through the newer, in log order (a store may keep the two apart).
    if (canTrigger(config)) await events.causer.causeSequence(nonce());
    const h = await readHistory(d, events, config);
    h.conn.close();
    return h;
  })();
  shared.set(config.baseUrl, read);
  return read;
}

/** Skips (with the reason) when the tenant's history holds fewer than `n` events. */
export function requireHistory(h: History, n: number, why: string): void {
  test.skip(
    h.events.length < n,
    `The tenant's events of the last ${HISTORY_MS / 3_600_000} h hold ${h.events.length} events; ${n} are needed ${why}`,
  );
}

/**
 * Subscribes with `query`; a 4xx the document leaves open is observed and skips, anything else but a stream fails `rule`.
 *
 * How long a cursor stays valid is not shown, but a cursor cannot expire before an older one of the
 * same stream: where `older` (the same query with older cursors, newest first) is given, a refused
 * cursor is followed at once by subscriptions from the older ones, and `rule` fails if one is accepted
 * (a server refusing some cursors for their form, not their age, accepts an older one of another form).
 */
export async function openOrSkip(
  events: EventsHarness,
  query: Query,
  rule: RuleRef,
  why: string,
  older?: Query | readonly Query[],
) {
  const conn = await events.subscribe({ query });
  if (!conn.isEventStream && conn.status >= 400 && conn.status < 500) {
    observe('events.heartbeat.frequency', 'cursor refused', String(conn.status), {
      target: conn.target,
      body: conn.errorBody.slice(0, 200),
    });
    // The older cursors in turn, newest first, up to the first accepted: any of them refutes the expiry.
    for (const q of older === undefined ? [] : Array.isArray(older) ? older : [older as Query]) {
      const probe = await events.subscribe({ query: q });
      probe.close();
      must(
        rule,
        !probe.isEventStream,
        ev(
          conn,
          `a 2xx event stream (${why}): an older cursor of the same stream is accepted right after, and a cursor cannot expire before an older one`,
          `status ${conn.status} ${conn.errorBody.slice(0, 200)}`,
          `the older cursor ${probe.target} answered ${probe.status}, Content-Type ${probe.contentType || '(none)'}`,
        ),
      );
    }
    return { conn, refused: true };
  }
  must(
    rule,
    conn.isEventStream,
    ev(conn, `a 2xx event stream (${why})`, `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`),
  );
  return { conn, refused: false };
}
