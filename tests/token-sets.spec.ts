/**
 * Endpoints 1. List token sets of a user:
 * GET /users/{id}/federated-connections-tokensets
 */
import { mustBeJson, mustMatchSchema, mustRefuse, mustStatus, must, observe } from '../harness/vocabulary/must.ts';
import { requireFixture, rules, test } from '../harness/fixtures/fixtures.ts';
import { fc, fcParams, pathSafeString } from '../harness/vocabulary/properties.ts';
import { tamperSignature } from '../harness/requests/tokens.ts';
import { RUN_TOKEN } from '../harness/run/global-setup.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { mustBeJsonErrorBody } from '../harness/vocabulary/must.ts';

const path = (id: string) => `/users/${encodeURIComponent(id)}/federated-connections-tokensets`;
/** A user id that no tenant holds, of a given length. */
/** Clocks of the suite and the target may differ: a set expired less than this ago may still be listed. */
const CLOCK_SKEW_MS = 60_000;
const unknownUser = (length = 40) => `conformance-nobody-${'x'.repeat(Math.max(0, length - 19))}`.slice(0, length);

test.describe('token sets of a user @token-sets', () => {
  test('should answer 200 with a JSON array of the active token sets', rules('token-sets.list.success', 'http.json-bodies', 'token-set.types', 'timestamps.date-time', 'token-sets.list.active-only'), async ({ api, config }) => {
    const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
    const sentAt = Date.now();
    const ex = await api.get(path(userId));
    mustStatus('token-sets.list.success', ex, 200);
    mustBeJson('http.json-bodies', ex);
    must('token-sets.list.success', Array.isArray(ex.json), { expected: 'a JSON array', actual: typeof ex.json, exchange: ex });
    mustMatchSchema('token-set-list', ex.json, ex);
    // "(active ones)": no set that expired before the request was sent, allowing for clock skew.
    const before = sentAt - CLOCK_SKEW_MS;
    const expired = (ex.json as Array<{ id?: string; expires_at?: string | null }>).filter((t) => typeof t.expires_at === 'string' && Date.parse(t.expires_at) < before);
    must('token-sets.list.active-only', expired.length === 0, {
      expected: `only active token sets: none whose expires_at is before ${new Date(before).toISOString()} (the request's time less ${CLOCK_SKEW_MS / 1000} s of clock skew)`,
      actual: `${expired.length} expired: ${expired.slice(0, 3).map((t) => `${t.id} expires_at ${t.expires_at}`).join('; ')}`,
      exchange: ex,
    });
  });

  test('should answer 404, in JSON, for a user that does not exist', rules('token-sets.list.unknown-user', 'http.json-error-bodies'), async ({ api }) => {
    const ex = await api.get(path(unknownUser()));
    mustStatus('token-sets.list.unknown-user', ex, 404);
    mustBeJsonErrorBody(ex);
  });

  test('should accept a user id of 300 characters and refuse one of 301', rules('token-sets.list.user-id.max-length'), async ({ api }) => {
    const at = await api.get(path(unknownUser(300)));
    must('token-sets.list.user-id.max-length', at.status === 404, { expected: 'status 404 (an unknown user, not a refused length)', actual: `status ${at.status}`, exchange: at });
    const over = await api.get(path(unknownUser(301)));
    mustRefuse('token-sets.list.user-id.max-length', over, 'user id of 301 characters, over the maximum of 300');
  });

  test('should refuse user ids over 300 characters (property)', rules('token-sets.list.user-id.max-length'), async ({ api }) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 1200 }).chain((n) => pathSafeString(n)), async (id) => {
        mustRefuse('token-sets.list.user-id.max-length', await api.get(path(id)), `user id of ${id.length} characters`);
      }),
      fcParams(15),
    );
  });

  test('should answer 401 without a token, with a malformed header, and with a tampered signature', rules('token-sets.list.unauthorized'), async ({ anonApi, config }) => {
    const id = config.userId ?? unknownUser();
    const none = await anonApi.get(path(id), { auth: 'none' });
    mustStatus('token-sets.list.unauthorized', none, 401);
    const tampered = await anonApi.get(path(id), { auth: { header: `Bearer ${tamperSignature(process.env[RUN_TOKEN]!)}` } });
    mustStatus('token-sets.list.unauthorized', tampered, 401);
    const garbage = await anonApi.get(path(id), { auth: { header: 'Bearer not-a-jwt' } });
    mustStatus('token-sets.list.unauthorized', garbage, 401);
  });

  test('should answer 403 to a token without read:federated_connections_tokens', rules('token-sets.list.insufficient-scope'), async ({ limitedApi, config }) => {
    const ex = await limitedApi.get(path(config.userId ?? unknownUser()));
    mustStatus('token-sets.list.insufficient-scope', ex, 403);
    observe('token-sets.list.scope-named', 'the 403 body names read:federated_connections_tokens', ex.text.includes('read:federated_connections_tokens') ? 'yes' : 'no', { body: ex.json ?? ex.text.slice(0, 300) });
  });
});

authChecks('token-sets.list', (api, c, auth) => api.get(path(c.userId ?? unknownUser()), { auth }));
