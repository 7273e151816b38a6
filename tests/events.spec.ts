/**
 * Endpoints 4. Subscribe to events (Server-Sent Events): GET /events
 * and Events: message format, payloads, offsets and resumption, start
 * positions and filters.
 *
 * Checks assert on what arrives and on what must not: events the suite
 * caused are recognised by a nonce; a sentinel event caused last bounds the
 * wait for anything that must not arrive, so no check sleeps to synchronise.
 */
import { EventSource } from 'eventsource';
import { fetchHonouring429 } from '../harness/requests/client.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { must, mustRefuse, observe } from '../harness/vocabulary/must.ts';
import { checkMessage, cursorOf, ev, heartbeatWaitMs, identity, isEvent, judgeResume, MESSAGE_RULES, offsetOf, streamExchange, waitMs } from '../harness/vocabulary/events.ts';
import type { Config } from '../harness/run/config.ts';
import { rules, test, type EventsHarness } from '../harness/fixtures/fixtures.ts';
import { RUN_TOKEN } from '../harness/run/global-setup.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { subscribe, type SseConnection, type SseMessage } from '../harness/requests/sse.ts';
import { causedBy, nonce, requireTrigger } from '../harness/fixtures/triggers.ts';

test.describe.configure({ timeout: 120_000 });

/** Passive checks read this many events at most. */
const PASSIVE_EVENTS = 20;

/** The passive checks are for targets where the suite causes no event; with a trigger, the checks above cover the same rules. */
function requirePassive(config: Config): void {
  test.skip(config.eventsTrigger === 'management-api', 'The suite causes events here: the triggered checks cover these rules');
}

/** Subscribes from the latest position and causes the standard sequence; answers the caused events, in order. */
async function causeAndRead(events: EventsHarness, config: Config, query = {}): Promise<{ conn: SseConnection; caused: SseMessage[]; n: string }> {
  const conn = await events.subscribe({ query });
  must('events.content-type', conn.isEventStream, ev(conn, 'a 200 text/event-stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`));
  const n = nonce();
  const types = await events.causer.causeSequence(n);
  const caused = await conn.collect(types.length, causedBy(n), waitMs(config), `events caused with nonce ${n}`);
  return { conn, caused, n };
}

test.describe('events stream @sse', () => {
  test('should answer a text/event-stream', rules('events.content-type'), async ({ events }) => {
    const conn = await events.subscribe();
    observe('events.status', 'subscription answered', String(conn.status), { contentType: conn.contentType });
    // The success code of /events is not shown: any 2xx carrying an event stream.
    must('events.content-type', conn.status >= 200 && conn.status < 300 && conn.isEventStream, ev(conn, 'a 2xx with Content-Type text/event-stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`));
  });

  test('should be readable by a standard EventSource client', rules('events.content-type'), async ({ config, events }) => {
    const token = process.env[RUN_TOKEN]!;
    const head = await events.subscribe();
    head.close();
    // A WHATWG EventSource opens only on 200; the document does not show the success code.
    test.skip(head.status !== 200 && head.status >= 200 && head.status < 300, `The stream answers ${head.status}: a standard EventSource opens only on 200, and the success code is not shown`);
    const es = new EventSource(`${config.baseUrl}/events`, {
      fetch: (input, init) => fetchHonouring429(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
    });
    try {
      const opened = await new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('no open event within 10 s'), 10_000);
        es.addEventListener('open', () => (clearTimeout(timer), resolve('open')));
        es.addEventListener('error', (e) => (clearTimeout(timer), resolve(`error: ${(e as { code?: number; message?: string }).code ?? ''} ${(e as { message?: string }).message ?? ''}`)));
      });
      must('events.content-type', opened === 'open', { expected: 'a WHATWG EventSource opens the stream (status 200, text/event-stream)', actual: opened });
    } finally {
      es.close();
    }
  });

  test('should send only well-formed messages for the events it streams', rules('events.content-type', ...MESSAGE_RULES), async ({ events, config }) => {
    requireTrigger(config);
    const { conn, caused } = await causeAndRead(events, config);
    for (const m of conn.messages.slice(0, caused.at(-1)!.index + 1)) checkMessage(conn, m);
  });

  test('should send connection.created with the documented object', rules(...MESSAGE_RULES), async ({ events, config }) => {
    requireTrigger(config);
    const conn = await events.subscribe({ query: { event_type: 'connection.created' } });
    const n = nonce();
    await events.causer.createConnection(n);
    const m = await conn.waitFor(causedBy(n), waitMs(config), 0, `connection.created with nonce ${n}`);
    checkMessage(conn, m);
  });

  test('should send heartbeats that carry an offset', rules(...MESSAGE_RULES), async ({ events, config }) => {
    const conn = await events.subscribe();
    const started = Date.now();
    let hb: SseMessage;
    try {
      hb = await conn.waitFor((m) => m.event === 'offset-only', heartbeatWaitMs(config), 0, 'an offset-only heartbeat');
    } catch {
      observe('events.heartbeat.frequency', 'heartbeats', 'none within the wait', { waitedMs: heartbeatWaitMs(config) });
      test.skip(true, `No heartbeat within ${heartbeatWaitMs(config)} ms: the frequency is not shown`);
      return;
    }
    observe('events.heartbeat.frequency', 'heartbeats', 'sent', { firstAfterMs: hb.receivedAt - started, comments: conn.comments.length, retry: conn.retries });
    checkMessage(conn, hb);
  });

  test('should start from the latest events when from is absent', rules('events.start.latest'), async ({ events, config }) => {
    requireTrigger(config);
    const conn = await events.subscribe();
    const n = nonce();
    await events.causer.createOrganization(n);
    const m = await conn.waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n}`).catch(() => undefined);
    must('events.start.latest', !!m, ev(conn, `the organization.created caused after connecting (nonce ${n})`, `not within ${waitMs(config)} ms; ${conn.messages.length} messages read`));
  });

  test('should resume after the offset of event k with nothing lost, repeated or reordered', rules('events.content-type', 'events.payload.offset', 'events.resume.no-loss', 'events.resume.no-duplicate', 'events.resume.order'), async ({ events, config }) => {
    requireTrigger(config);
    const { caused, n } = await causeAndRead(events, config);
    const ids = caused.map(identity);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: caused.length - 2 }), async (k) => {
        await checkResume(events, config, caused, ids, n, k);
      }),
      // k = 0 first, every run: the longest resumption, the only one where order shows whatever else is drawn.
      { ...fcParams<[number]>(config.embedded ? 4 : 2), examples: [[0]] },
    );
  });

  test('should resume from a heartbeat offset with the events caused after it', rules('events.resume.heartbeat-offset'), async ({ events, config }) => {
    requireTrigger(config);
    const conn = await events.subscribe();
    const hb = await conn.waitFor((m) => m.event === 'offset-only', heartbeatWaitMs(config), 0, 'an offset-only heartbeat').catch(() => undefined);
    test.skip(!hb || cursorOf(hb) === undefined, 'No heartbeat with a cursor arrived: its frequency is not shown');
    const n = nonce();
    await events.causer.createOrganization(n);
    const org = await conn.waitFor(causedBy(n), waitMs(config), hb!.index, `organization.created with nonce ${n}`);
    conn.close();
    const resumed = await events.subscribe({ query: { from: cursorOf(hb!)! } });
    const again = await resumed.waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n} after the heartbeat`).catch(() => undefined);
    must('events.resume.heartbeat-offset', !!again && identity(again) === identity(org), ev(resumed, `the event caused after the heartbeat (${identity(org)})`, again ? `another event ${identity(again)}` : `nothing within ${waitMs(config)} ms`, `heartbeat cursor ${cursorOf(hb!)}`));
  });

  test('should deliver only the requested event types', rules('events.filter.only-requested'), async ({ events, config }) => {
    requireTrigger(config);
    for (const wanted of [['organization.deleted'], ['user.created', 'organization.deleted']]) {
      const conn = await events.subscribe({ query: { event_type: wanted } });
      const n = nonce();
      await events.causer.causeSequence(n);
      // organization.deleted is caused last: everything before it has arrived by then.
      await conn.waitFor((m) => causedBy(n)(m) && m.event === 'organization.deleted', waitMs(config), 0, `organization.deleted with nonce ${n}`);
      const others = conn.events.filter((m) => !wanted.includes(m.event));
      must('events.filter.only-requested', others.length === 0, ev(conn, `only ${wanted.join(', ')}`, `${others.length} other events: ${[...new Set(others.map((m) => m.event))].join(', ')}`));
      if (wanted.includes('user.created')) {
        const users = conn.events.filter((m) => m.event === 'user.created' && causedBy(n)(m));
        must('events.filter.only-requested', users.length === 1, ev(conn, 'the user.created caused', `${users.length} user.created with the nonce`));
      }
      conn.close();
    }
  });

  test('should stream every event type when event_type is absent', rules('events.filter.all-when-absent'), async ({ events, config }) => {
    requireTrigger(config);
    const conn = await events.subscribe();
    const n = nonce();
    const wanted = await events.causer.causeSequence(n);
    // Whatever is left out never arrives: wait for all that was caused, then say which types are missing.
    await conn.collect(wanted.length, causedBy(n), waitMs(config), `events caused with nonce ${n}`).catch(() => undefined);
    const types = conn.events.filter(causedBy(n)).map((m) => m.event);
    const missing = wanted.filter((t) => !types.includes(t));
    must('events.filter.all-when-absent', missing.length === 0, ev(conn, `every type caused: ${wanted.join(', ')}`, `missing ${missing.join(', ')} (arrived: ${types.join(', ') || 'nothing'})`));
  });

  test('should send only well-formed messages for whatever arrives (passive)', rules(...MESSAGE_RULES), async ({ events, config }) => {
    requirePassive(config);
    const conn = await events.subscribe();
    const got = await conn.collect(PASSIVE_EVENTS, isEvent, config.eventsWaitMs, 'events').catch(() => conn.events);
    test.skip(got.length === 0, `No event arrived within ${config.eventsWaitMs} ms (CONFORMANCE_EVENTS_WAIT_MS); CONFORMANCE_EVENTS_TRIGGER=management-api causes some`);
    for (const m of conn.messages) checkMessage(conn, m);
  });

  test('should resume after an offset with nothing lost, repeated or reordered (passive)', rules('events.resume.no-loss', 'events.resume.no-duplicate', 'events.resume.order'), async ({ events, config }) => {
    requirePassive(config);
    const first = await events.subscribe();
    const read = await first.collect(3, isEvent, config.eventsWaitMs, 'events').catch(() => first.events);
    first.close();
    test.skip(read.length < 3, `Only ${read.length} events arrived within ${config.eventsWaitMs} ms: 3 are needed to resume between them`);
    const ids = read.map(identity);
    const resumed = await events.subscribe({ query: { from: offsetOf(read[0]!)! } });
    // The last event of the first read bounds the wait: everything expected comes before it.
    const end = await resumed.waitFor((m) => identity(m) === ids[2], config.eventsWaitMs, 0, `event ${ids[2]} again`).catch(() => undefined);
    const got = resumed.events.slice(0, end ? end.index + 1 : undefined).map(identity).filter((id) => ids.includes(id));
    judgeResume(resumed, ids, 0, offsetOf(read[0]!)!, got, end ? undefined : `event ${ids[2]} did not arrive within ${config.eventsWaitMs} ms`);
  });

  test('should refuse an unknown event_type', rules('events.filter.unknown-rejected'), async ({ events }) => {
    // Not the empty value: whether `event_type=` counts as absent is not shown.
    for (const t of ['user.exploded', 'USER.CREATED']) {
      const conn = await events.subscribe({ query: { event_type: t } });
      mustRefuse('events.filter.unknown-rejected', streamExchange(conn), `event_type ${JSON.stringify(t)} is not an allowed value`);
    }
  });

  test('should refuse a from cursor of 1025 characters', rules('events.from.max-length'), async ({ events }) => {
    const conn = await events.subscribe({ query: { from: 'a'.repeat(1025) } });
    mustRefuse('events.from.max-length', streamExchange(conn), 'from is at most 1024 characters');
  });

  test('should refuse a from_timestamp of 21 characters', rules('events.from-timestamp.max-length'), async ({ events }) => {
    for (const v of ['2024-01-01T00:00:00.0Z', '2024-01-01T00:00:00Z ']) {
      const conn = await events.subscribe({ query: { from_timestamp: v } });
      mustRefuse('events.from-timestamp.max-length', streamExchange(conn), `from_timestamp of ${v.length} characters (maximum 20)`);
    }
  });
});

/** Resumes from the offset of caused[k] and checks what follows against the first read. */
async function checkResume(events: EventsHarness, config: Config, caused: SseMessage[], ids: string[], n: string, k: number): Promise<void> {
  const from = offsetOf(caused[k]!);
  must('events.payload.offset', typeof from === 'string', { expected: 'a string offset on every event', actual: JSON.stringify(from) });
  const conn = await events.subscribe({ query: { from: from! } });
  // A sentinel caused now: whatever the stream replays must come before it.
  const sentinel = nonce();
  await events.causer.createOrganization(sentinel);
  const end = await conn.waitFor(causedBy(sentinel), waitMs(config), 0, `the sentinel event (nonce ${sentinel})`).catch(() => undefined);
  const got = conn.events.slice(0, end ? end.index : undefined).filter(causedBy(n)).map(identity);
  judgeResume(conn, ids, k, from!, got, end ? undefined : 'the sentinel never arrived');
  conn.close();
}

authChecks('events.subscribe', async (api, c, auth) => {
  const conn = await subscribe(c.baseUrl, api.token, { auth });
  conn.close();
  return { ...streamExchange(conn), authorization: auth === 'token' ? 'token' : auth === 'none' ? 'none' : 'custom' };
});
