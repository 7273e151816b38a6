/**
 * Endpoints 3. Get a client grant: GET /client-grants/{id}
 * Success code, error statuses and required scope: not shown (observed).
 */
import { must, mustBeJson, mustMatchSchema, mustRefuse, mustSucceed, observe } from '../harness/vocabulary/must.ts';
import { mustBeJsonErrorBody } from '../harness/vocabulary/must.ts';
import { requireFixture, rules, test } from '../harness/fixtures/fixtures.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { rulesOf } from '../schemas/index.ts';
import type { RuleId } from '../spec/rules.ts';

const path = (id: string) => `/client-grants/${encodeURIComponent(id)}`;

test.describe('client grant by id @client-grants', () => {
  test('should answer a 2xx with the client grant object, on every read', rules('client-grants.get.success', 'http.json-bodies', ...(rulesOf('client-grant') as RuleId[])), async ({ api, config }) => {
    const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
    // Read twice: a second read may come from a cache the first one filled.
    for (const read of [1, 2]) {
      const ex = await api.get(path(id));
      mustSucceed('client-grants.get.success', ex);
      mustBeJson('http.json-bodies', ex);
      must('client-grants.get.success', !!ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json), { expected: 'a JSON object', actual: JSON.stringify(ex.json)?.slice(0, 80) ?? 'nothing', exchange: ex });
      mustMatchSchema('client-grant', ex.json, ex, `body of read ${read}`);
      if (read === 1) observe('client-grants.get.status', 'success status', String(ex.status));
    }
  });

  test('should answer a refused request in JSON', rules('auth.bearer.required', 'http.json-error-bodies'), async ({ anonApi, config }) => {
    const ex = await anonApi.get(path(config.clientGrantId ?? 'cgr_conformance'), { auth: 'none' });
    mustRefuse('auth.bearer.required', ex, 'no Authorization header');
    mustBeJsonErrorBody(ex);
  });

  test('should return the grant asked for', rules('client-grants.get.same-grant'), async ({ api, config }) => {
    const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
    const ex = await api.get(path(id));
    mustSucceed('client-grants.get.same-grant', ex);
    const got = (ex.json as { id?: unknown }).id;
    must('client-grants.get.same-grant', got === undefined || got === id, { expected: `id ${id}`, actual: `id ${String(got)}`, exchange: ex });
  });

  test('should be observed answering an unknown grant id', rules('client-grants.get.status', 'http.json-error-bodies'), async ({ api }) => {
    const ex = await api.get(path('cgr_conformance_does_not_exist'));
    observe('client-grants.get.status', 'unknown id answered', String(ex.status), { body: ex.json ?? ex.text.slice(0, 200) });
    // Its status is not shown; when it is a refusal, its body is JSON like every other.
    mustBeJsonErrorBody(ex);
  });
});

authChecks('client-grants.get', (api, c, auth) => api.get(path(c.clientGrantId ?? 'cgr_conformance'), { auth }));
