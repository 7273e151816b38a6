/**
 * Endpoints 3. Get a client grant: GET /client-grants/{id}
 * Success code, error statuses and required scope: not shown (observed).
 */
import { must, mustBeJson, mustMatchSchema, mustSucceed, observe } from '../harness/checks.ts';
import { requireFixture, rules, test } from '../harness/fixtures.ts';
import { authChecks } from '../harness/auth-checks.ts';
import { rulesOf } from '../schemas/index.ts';
import type { RuleId } from '../spec/rules.ts';

const path = (id: string) => `/client-grants/${encodeURIComponent(id)}`;

test.describe('client grant by id @client-grants', () => {
  test('should answer a 2xx with the client grant object', rules('client-grants.get.success', 'http.json-bodies', ...(rulesOf('client-grant') as RuleId[])), async ({ api, config }) => {
    const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
    const ex = await api.get(path(id));
    mustSucceed('client-grants.get.success', ex);
    mustBeJson('http.json-bodies', ex);
    must('client-grants.get.success', !!ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json), { expected: 'a JSON object', actual: JSON.stringify(ex.json)?.slice(0, 80) ?? 'nothing', exchange: ex });
    mustMatchSchema('client-grant', ex.json, ex);
    observe('client-grants.get.status', 'success status', String(ex.status));
  });

  test('should return the grant asked for', rules('client-grants.get.same-grant'), async ({ api, config }) => {
    const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
    const ex = await api.get(path(id));
    mustSucceed('client-grants.get.same-grant', ex);
    const got = (ex.json as { id?: unknown }).id;
    must('client-grants.get.same-grant', got === undefined || got === id, { expected: `id ${id}`, actual: `id ${String(got)}`, exchange: ex });
  });

  test('should be observed answering an unknown grant id', rules('client-grants.get.status'), async ({ api }) => {
    const ex = await api.get(path('cgr_conformance_does_not_exist'));
    observe('client-grants.get.status', 'unknown id answered', String(ex.status), { body: ex.json ?? ex.text.slice(0, 200) });
  });
});

authChecks('client-grants.get', (api, c, auth) => api.get(path(c.clientGrantId ?? 'cgr_conformance'), { auth }));
