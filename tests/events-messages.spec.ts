/**
 * Endpoints 4. Subscribe to events (Server-Sent Events): GET /events, the
 * stream and its messages: media type, message format, payloads,
 * connection.created, heartbeats; and the authentication of the subscription.
 *
 * Events the suite caused are recognised by a nonce; without a trigger, the
 * passive check reads whatever the tenant streams.
 */
import { EventSource } from 'eventsource';
import { authorizationKind, type Api } from '../harness/requests/client.ts';
import type { Config } from '../harness/run/config.ts';
import { fetchHonouring429 } from '../harness/requests/rate-limit.ts';
import { subscribe, type SseMessage } from '../harness/requests/sse.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { declareRules } from '../harness/vocabulary/declare.ts';
import {
  checkMessage,
  cursorNow,
  ev,
  heartbeatWaitMs,
  isEvent,
  messageRules,
  mustCarryWritten,
  streamExchange,
  waitMs,
} from '../harness/vocabulary/events.ts';
import { must, mustRefuse, observe } from '../harness/vocabulary/must.ts';
import { skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import {
  CAUSED_CONNECTION_STRATEGY,
  causeAndRead,
  causedBy,
  COMBINING_TEXT,
  NAME_BEYOND_BMP,
  nonEmptyConnectionArrays,
  nonce,
  ownClientId,
  requirePassive,
  requireTrigger,
  SCRIPTS_TEXT,
  TriggerError,
  UTF8_FORMS_TEXT,
  type Created,
} from '../harness/fixtures/triggers.ts';

test.describe.configure({ timeout: 120_000 });

/** Passive checks read this many events at most. */
const PASSIVE_EVENTS = 20;

test.describe('events stream @sse', () => {
  const eventStream = declareRules('events.content-type');
  test('should answer a text/event-stream', eventStream, async ({ events }) => {
    const conn = await events.subscribe();
    observe('events.status', 'subscription answered', String(conn.status), { contentType: conn.contentType });
    // The success code of /events is not shown: any 2xx carrying an event stream.
    must(
      eventStream.eventsContentType,
      conn.status >= 200 && conn.status < 300 && conn.isEventStream,
      ev(
        conn,
        'a 2xx with Content-Type text/event-stream',
        `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`,
      ),
    );
  });

  const anyAccept = declareRules('events.content-type');
  test(
    'should answer an event stream to every Accept that admits text/event-stream (RFC 9110 12.5.1): none, */*, text/*, a list',
    anyAccept,
    async ({ events, config }) => {
      skipBeyondReadOnlyBudget(config, 'the Accept spellings are');
      // RFC 9110 12.5.1: no Accept means any media type is acceptable. Against an external target one: */*.
      const accepts: Array<string | null> = [null, '*/*', 'text/*', 'application/json;q=0.5, text/event-stream'];
      for (const accept of config.embedded ? accepts : ['*/*']) {
        const conn = await events.subscribe({ accept });
        conn.close();
        must(
          anyAccept.eventsContentType,
          conn.status >= 200 && conn.status < 300 && conn.isEventStream,
          ev(
            conn,
            `a 2xx with Content-Type text/event-stream to ${accept === null ? 'no Accept header' : `Accept: ${accept}`}`,
            `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`,
          ),
        );
      }
    },
  );

  const standardClient = declareRules('events.content-type');
  test('should be readable by a standard EventSource client', standardClient, async ({ config, events }) => {
    const token = config.runToken!;
    const head = await events.subscribe();
    head.close();
    // A WHATWG EventSource opens only on 200; the document does not show the success code.
    test.skip(
      head.status !== 200 && head.status >= 200 && head.status < 300,
      `The stream answers ${head.status}: a standard EventSource opens only on 200, and the success code is not shown`,
    );
    const es = new EventSource(`${config.baseUrl}/events`, {
      fetch: (input, init) =>
        fetchHonouring429(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
    });
    try {
      const opened = await new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('no open event within 10 s'), 10_000);
        es.addEventListener('open', () => (clearTimeout(timer), resolve('open')));
        es.addEventListener(
          'error',
          (e) => (
            clearTimeout(timer),
            resolve(
              `error: ${(e as { code?: number; message?: string }).code ?? ''} ${(e as { message?: string }).message ?? ''}`,
            )
          ),
        );
      });
      must(standardClient.eventsContentType, opened === 'open', {
        expected: 'a WHATWG EventSource opens the stream (status 200, text/event-stream)',
        actual: opened,
      });
    } finally {
      es.close();
    }
  });

  const wellFormed = declareRules('events.content-type', messageRules);
  test(
    'should send well-formed UTF-8 messages for the events it streams, each created object carrying the text written in every Unicode partition: the Latin-1 supplement alone, Cyrillic and CJK, combining sequences not normalised, beyond the BMP',
    wellFormed,
    async ({ events, config }) => {
      requireTrigger(config);
      // Partition of the text the standard sequence writes (harness/fixtures/triggers.ts), by the widest code
      // point of each message (a writer may choose its encoding by what a message fits): the organization's
      // display name the Latin-1 supplement alone (LATIN1_TEXT), the user's given and family names Cyrillic and
      // CJK (SCRIPTS_TEXT) and combining sequences (COMBINING_TEXT), its user_metadata beyond the BMP; heartbeats
      // ASCII. (a) Every message's bytes are UTF-8 (checkMessage), (b) each create's event carries what it wrote.
      const { conn, caused, n } = await causeAndRead(wellFormed, events, config);
      for (const m of conn.messages.slice(0, caused.at(-1)!.index + 1)) checkMessage(wellFormed, conn, m);
      for (const { type, c } of events.causer.written) {
        const m = caused.find((x) => x.event === type);
        if (m) mustCarryWritten(wellFormed.eventsMessageDataJson, conn, m, c, n);
      }
    },
  );

  const connectionCreated = declareRules(messageRules, 'events.connection-created.object');
  test(
    'should send connection.created with the documented object, naming the connection created, its arrays empty and non-empty (enabled_clients, domain_aliases, non_persistent_attrs: items of strings), its display name the name (ASCII) or its own (Cyrillic, CJK, combining sequences) as written',
    connectionCreated,
    async ({ events, config }) => {
      requireTrigger(config);
      const conn = await events.subscribe({ query: { event_type: 'connection.created' } });
      // Partition of the object's arrays, empty and non-empty: an empty array shows nothing of what its items are,
      // so the connection created is created once with the arrays left to the server, once with one item in each
      // array a create may set (the schema validation of checkMessage judges the items). And of its display name:
      // the name itself, in ASCII, then one of its own whose widest characters are within the BMP (Cyrillic, CJK,
      // combining sequences left decomposed: a message that fits no single-octet encoding and needs no surrogate),
      // sent again as the name where the target refuses it (the create is not one of the document's operations).
      const client = ownClientId(config);
      for (const [what, members, ascii] of [
        ['its arrays left to the server', () => ({}), undefined],
        [
          `one item in each array a create may set${client === undefined ? " (enabled_clients left out: the run's client id is not known)" : ''}, a display name of its own`,
          (n: string) => ({
            ...nonEmptyConnectionArrays(n, config),
            display_name: `${SCRIPTS_TEXT} ${COMBINING_TEXT} ${n}`,
          }),
          (n: string) => nonEmptyConnectionArrays(n, config),
        ],
      ] as const) {
        const n = nonce();
        const extra = members(n);
        let id: string;
        let written: Created;
        try {
          written = await events.causer.createConnectionWith(n, extra, ascii?.(n));
          ({ id } = written);
        } catch (e) {
          // The create is not one of the document's operations: which members it takes is not shown. A refusal of
          // the arrays set is written down (the plain create above already caused the event judged), not failed.
          const status = e instanceof TriggerError ? e.exchange?.status : undefined;
          if (Object.keys(extra).length === 0 || status === undefined || status < 400 || status >= 500) throw e;
          test.info().annotations.push({ type: 'refused write', description: `${what}: ${(e as Error).message}` });
          continue;
        }
        const m = await conn.waitFor(causedBy(n), waitMs(config), 0, `connection.created with nonce ${n} (${what})`);
        checkMessage(connectionCreated, conn, m);
        // data.object is "the affected resource": the connection the suite created, in the fields it set.
        const object = (JSON.parse(m.data) as { event?: { data?: { object?: Record<string, unknown> } } }).event?.data
          ?.object;
        const sent = { id, name: `conformance-${n}`, strategy: CAUSED_CONNECTION_STRATEGY };
        const differ = Object.entries(sent).filter(([k, v]) => object?.[k] !== undefined && object[k] !== v);
        must(
          connectionCreated.eventsConnectionCreatedObject,
          differ.length === 0,
          ev(
            conn,
            `data.object describing the connection created (${what}): ${JSON.stringify(sent)}`,
            differ.map(([k]) => `${k} ${JSON.stringify(object?.[k])}`).join(', '),
          ),
        );
        // Relation: the display name (and whatever else the create sent with the nonce) is the text written.
        mustCarryWritten(connectionCreated.eventsMessageDataJson, conn, m, written, n);
      }
    },
  );

  const withoutAgent = declareRules(messageRules);
  test(
    'should describe the request that caused an event in strings when it carried no User-Agent (RFC 9110 10.1.5: a client need not send one)',
    withoutAgent,
    async ({ events, config }) => {
      requireTrigger(config);
      // Partition of the causing request's header fields: the context's request members are strings (the
      // document's Context) whatever the request carried, a field it left out included.
      const conn = await events.subscribe({ query: { event_type: 'organization.created' } });
      const n = nonce();
      try {
        await events.causer.createOrganization(n, { userAgent: false });
      } catch (e) {
        if (!(e instanceof TriggerError)) throw e;
        // Whether a request without a User-Agent is served is the server's choice; a 5xx is never a pass.
        if (e.exchange)
          mustRefuse(
            'events.context.types',
            e.exchange,
            'a request without a User-Agent served or refused, never a 5xx',
          );
        conn.close();
        test.skip(
          true,
          `The organization created without a User-Agent was refused (the server's choice): ${e.message}`,
        );
        return;
      }
      const m = await conn.waitFor(causedBy(n), waitMs(config), 0, `organization.created with nonce ${n}`);
      checkMessage(withoutAgent, conn, m);
      conn.close();
    },
  );

  const beyondBmp = declareRules('events.content-type', messageRules);
  test(
    'should write text beyond the BMP in event data as UTF-8 and give back the names the suite sent code point for code point: U+10000, an emoji, CJK extensions B and G, planes 14 to 16, U+10FFFF, beside BMP text',
    beyondBmp,
    async ({ events, config }) => {
      requireTrigger(config);
      // Partition of the text a caused event echoes, by the UTF-8 form of its code points (RFC 3629 3): beyond the
      // BMP (four bytes; a surrogate pair in UTF-16, which a writer per UTF-16 code unit turns into CESU-8), and
      // the BMP's forms beside it. In a user's name and an organization's display name (names have them), and the
      // whole partition in their metadata (free JSON).
      const conn = await events.subscribe();
      must(
        beyondBmp.eventsContentType,
        conn.isEventStream,
        ev(conn, 'a 200 text/event-stream', `status ${conn.status}, Content-Type ${conn.contentType || '(none)'}`),
      );
      const n = nonce();
      const writes: Array<[string, () => Promise<Created>]> = [
        [
          'user.created',
          () =>
            events.causer.createUserWith(n, {
              name: `conformance ${n} ${NAME_BEYOND_BMP}`,
              user_metadata: { conformance_utf8: `${n} ${UTF8_FORMS_TEXT}` },
            }),
        ],
        [
          'organization.created',
          () =>
            events.causer.createOrganizationWith(n, {
              display_name: `conformance ${n} ${NAME_BEYOND_BMP}`,
              metadata: { conformance_utf8: `${n} ${UTF8_FORMS_TEXT}` },
            }),
        ],
      ];
      const created: Array<{ type: string; c: Created }> = [];
      const refused: string[] = [];
      for (const [type, write] of writes) {
        try {
          created.push({ type, c: await write() });
        } catch (e) {
          if (!(e instanceof TriggerError)) throw e;
          // Whether a tenant stores such text is its choice (a 4xx); a 5xx is never a pass.
          if (e.exchange)
            mustRefuse(
              beyondBmp.eventsMessageDataJson,
              e.exchange,
              `a ${type} write with text beyond the BMP served or refused, never a 5xx`,
            );
          refused.push(`${type}: ${e.message}`);
        }
      }
      test.skip(created.length === 0, `The target refused every write with text beyond the BMP: ${refused.join('; ')}`);
      const got = await Promise.all(
        created.map(({ type }) =>
          conn
            .waitFor((m) => causedBy(n)(m) && m.event === type, waitMs(config), 0, `${type} with nonce ${n}`)
            .catch(() => undefined),
        ),
      );
      conn.close();
      const last = Math.max(-1, ...got.map((m) => m?.index ?? -1));
      // (a) Every message read up to the last caused one is UTF-8 (checkMessage), whatever else it is.
      for (const m of conn.messages.slice(0, last + 1)) checkMessage(beyondBmp, conn, m);
      for (const [i, { type, c }] of created.entries()) {
        const m = got[i];
        must(
          beyondBmp.eventsMessageDataJson,
          m !== undefined,
          ev(conn, `the ${type} caused after connecting (nonce ${n})`, `not within ${waitMs(config)} ms`),
        );
        // (b) Relation: data.object carries the text the suite sent, code point for code point (or as answered).
        mustCarryWritten(beyondBmp.eventsMessageDataJson, conn, m!, c, n);
      }
      if (refused.length) test.info().annotations.push({ type: 'refused write', description: refused.join('; ') });
    },
  );

  const heartbeats = declareRules(messageRules);
  test(
    'should send heartbeats that carry an offset, the first and the periodic one after it',
    heartbeats,
    async ({ events, config }) => {
      const conn = await events.subscribe();
      const started = Date.now();
      let hb: SseMessage;
      try {
        hb = await conn.waitFor(
          (m) => m.event === 'offset-only',
          heartbeatWaitMs(config),
          0,
          'an offset-only heartbeat',
        );
      } catch {
        // No message typed offset-only: whatever did arrive is still judged (a heartbeat whose framing lost its
        // event field arrives as another type, and is no reason to skip).
        for (const m of conn.messages) checkMessage(heartbeats, conn, m);
        observe('events.heartbeat.frequency', 'heartbeats', 'none within the wait', {
          waitedMs: heartbeatWaitMs(config),
        });
        test.skip(true, `No heartbeat within ${heartbeatWaitMs(config)} ms: the frequency is not shown`);
        return;
      }
      observe('events.heartbeat.frequency', 'heartbeats', 'sent', {
        firstAfterMs: hb.receivedAt - started,
        comments: conn.comments.length,
        retry: conn.retries,
      });
      checkMessage(heartbeats, conn, hb);
      // The periodic heartbeats after the first carry an offset as well (a stream that writes its first one itself
      // and leaves the rest to a keep-alive timer knowing no position sends them without one): the next, judged too.
      const next = await conn
        .waitFor(
          (m) => m.event === 'offset-only',
          heartbeatWaitMs(config),
          hb.index + 1,
          'a second offset-only heartbeat',
        )
        .catch(() => undefined);
      if (next) checkMessage(heartbeats, conn, next);
      else
        observe('events.heartbeat.frequency', 'a second heartbeat', 'none within the wait', {
          waitedMs: heartbeatWaitMs(config),
        });
    },
  );

  const passive = declareRules(messageRules);
  test('should send only well-formed messages for whatever arrives (passive)', passive, async ({ events, config }) => {
    requirePassive(config);
    const conn = await events.subscribe();
    const got = await conn.collect(PASSIVE_EVENTS, isEvent, config.eventsWaitMs, 'events').catch(() => conn.events);
    // Every message that arrived is judged, heartbeats included, before the skip for want of events.
    for (const m of conn.messages) checkMessage(passive, conn, m);
    test.skip(
      got.length === 0,
      `No event arrived within ${config.eventsWaitMs} ms (CONFORMANCE_EVENTS_WAIT_MS); CONFORMANCE_EVENTS_TRIGGER=management-api causes some`,
    );
  });
});

authChecks('events.subscribe', async (api, c, auth) => {
  const conn = await subscribe(c.baseUrl, api.token, { auth, maxRps: c.maxRps });
  conn.close();
  return { ...streamExchange(conn), authorization: authorizationKind(auth) };
});
// With each query parameter that chooses what the stream holds: a server may serve a filtered stream, or one
// that starts from a time, by another route.
for (const [query, what] of [
  [{ event_type: 'user.created' }, 'an event_type filter'],
  [{ from_timestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z') }, 'from_timestamp'],
] as const)
  authChecks(
    'events.subscribe',
    async (api, c, auth) => {
      const conn = await subscribe(c.baseUrl, api.token, { auth, maxRps: c.maxRps, query });
      conn.close();
      return { ...streamExchange(conn), authorization: authorizationKind(auth) };
    },
    { query: what },
  );
/**
 * A cursor the stream gives now, looked up with the run's token: what a client resuming sends, as `from` (the
 * document's cursor) or as Last-Event-ID (what an EventSource sends on reconnecting, HTML Standard 9.2.4). A
 * server may serve a resumed stream by another route, one without its guard; the refusal of a request without
 * credentials does not depend on what it resumes.
 */
const aCursor = async (api: Api, c: Config) =>
  cursorNow(await subscribe(c.baseUrl, api.token, { maxRps: c.maxRps }), c);
for (const [what, resumed] of [
  [
    'from, a cursor the stream gave',
    (cursor: string | undefined) => {
      // Without a cursor this variant would be the check without `from` again, passed for a rule not exercised.
      test.skip(
        cursor === undefined,
        'No message with a cursor arrived on a live stream: the heartbeat frequency is not shown (Limitations 4), and no event came to resume from',
      );
      return { query: { from: cursor! } };
    },
  ],
  [
    'Last-Event-ID, as an EventSource reconnecting',
    (cursor: string | undefined) => {
      // Without a cursor there is nothing to reconnect with: a made-up one may be refused as a cursor, whatever the token.
      test.skip(
        cursor === undefined,
        'No message with a cursor arrived on a live stream: the heartbeat frequency is not shown (Limitations 4), and no event came to resume from',
      );
      return { lastEventId: cursor! };
    },
  ],
] as const)
  authChecks(
    'events.subscribe',
    async (api, c, auth, cursor) => {
      const conn = await subscribe(c.baseUrl, api.token, { auth, maxRps: c.maxRps, ...resumed(cursor) });
      conn.close();
      return { ...streamExchange(conn), authorization: authorizationKind(auth) };
    },
    { target: aCursor, ...(what.startsWith('from') ? { query: what } : { header: what }) },
  );
