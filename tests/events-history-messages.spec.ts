/**
 * Endpoints 4 (GET /events) on the tenant's own history (tests/events-history.ts):
 * the format of the messages it replays, envelopes, contexts and any
 * connection.created object among them.
 */
import { checkConnectionCreated, checkMessage, messageRules, HISTORY_MS } from '../harness/vocabulary/events.ts';
import { test } from '../harness/fixtures/fixtures.ts';
import { declareRules, schemaRules } from '../harness/vocabulary/declare.ts';
import { history, READ, requireHistory } from './events-history.ts';

test.describe.configure({ timeout: 120_000 });

test.describe("events stream: the tenant's history @sse", () => {
  const declared = declareRules(READ, messageRules);
  test(
    'should send well-formed messages, envelopes and contexts in the history',
    declared,
    async ({ events, config }) => {
      const h = await history(declared, events, config);
      // Every message judged before the history is counted: one that is no event by its event field (none, or a
      // field name in another case, which SSE ignores: HTML Standard 9.2.6) is still a message of this stream.
      for (const m of h.conn.messages) checkMessage(declared, h.conn, m);
      requireHistory(h, 1, 'to check their format');
    },
  );

  const connectionCreatedObject = declareRules(READ, schemaRules('connection-created-object'));
  test(
    'should carry the documented connection.created object wherever the history has one',
    connectionCreatedObject,
    async ({ events, config }) => {
      const h = await history(connectionCreatedObject, events, config);
      const created = h.events.filter((m) => m.event === 'connection.created');
      test.skip(
        created.length === 0,
        `No connection.created among the tenant's ${h.events.length} events of the last ${HISTORY_MS / 3_600_000} h`,
      );
      for (const m of created) checkConnectionCreated(h.conn, m);
    },
  );
});
