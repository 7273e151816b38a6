/**
 * Endpoints 3. Get a client grant: GET /client-grants/{id}
 * Success code, error statuses and required scope: not shown (observed).
 */
import {
  must,
  mustBeJson,
  mustMatchSchema,
  mustSucceed,
  observe,
  mustBeJsonErrorBody,
} from '../harness/vocabulary/must.ts';
import { atReadOnlyBudget, requireFixture, test } from '../harness/fixtures/fixtures.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { declareRules, schemaRules } from '../harness/vocabulary/declare.ts';
import { pathOf } from '../spec/operations.ts';
import { caseVariants, equivalentSegments, nearIds } from '../harness/vocabulary/partitions.ts';
import { sameJson } from '../harness/vocabulary/json.ts';

const path = (id: string) => pathOf('client-grants.get', { id });

test.describe('client grant by id @client-grants', () => {
  const success = declareRules(
    'client-grants.get.success',
    'client-grants.get.same-grant',
    'http.json-bodies',
    schemaRules('client-grant'),
  );
  test(
    'should answer a 2xx with the client grant object, on every read, each grant given with its own id',
    success,
    async ({ api, config }) => {
      const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
      // Read twice: a second read may come from a cache the first one filled. Then each further grant
      // given (CONFORMANCE_CLIENT_GRANT_IDS, say a default_for one), once.
      const reads = [[1, id], [2, id], ...config.otherClientGrantIds.map((other) => [1, other] as const)] as const;
      for (const [read, grant] of reads) {
        const ex = await api.get(path(grant));
        mustSucceed(success.clientGrantsGetSuccess, ex);
        mustBeJson(success.httpJsonBodies, ex);
        must(success.clientGrantsGetSuccess, !!ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json), {
          expected: 'a JSON object',
          actual: JSON.stringify(ex.json)?.slice(0, 80) ?? 'nothing',
          exchange: ex,
        });
        mustMatchSchema('client-grant', ex.json, ex, `body of read ${read} of ${grant}`);
        // Every grant given is answered as itself (a system grant or a default_for one too).
        const got = (ex.json as { id?: unknown } | null)?.id;
        must(success.clientGrantsGetSameGrant, got === undefined || got === grant, {
          expected: `grant ${grant}: the id asked for`,
          actual: `id ${JSON.stringify(got)}`,
          exchange: ex,
        });
        if (read === 1 && grant === id) observe('client-grants.get.status', 'success status', String(ex.status));
      }
    },
  );

  const near = declareRules('client-grants.get.same-grant');
  test(
    'should never answer the grant for an id near its own (RFC 3986: another path), one letter of an id spelt in both cases in the other case, and its client_id and audience, included',
    near,
    async ({ api, config }) => {
      const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
      // Ids in both cases carry case: one letter's case changed names another id.
      const variants = [...nearIds(id), ...caseVariants(id)];
      // Against an external target, two of them: a character added at the end, the first changed; with writes on
      // (out of the read-only run's request budget), one letter's case changed too.
      const caseToo = config.writes !== 'none';
      for (const v of config.embedded
        ? variants
        : variants.filter((v, i) => i === 0 || i === 5 || (caseToo && v.what.startsWith('the case of')))) {
        const ex = await api.get(`${path('ID').replace(/ID$/, '')}${v.raw}`);
        const got = (ex.json as { id?: unknown } | undefined)?.id;
        must(near.clientGrantsGetSameGrant, ex.status < 200 || ex.status >= 300 || got === v.decoded, {
          expected: `no grant for ${JSON.stringify(v.decoded)} (${v.what}), or that grant itself`,
          actual: `status ${ex.status}, grant ${String(got)}`,
          exchange: ex,
        });
      }
      // The grant's other identifiers as its id: its client_id and its audience name a client and an API, not
      // this grant (a lookup by any identifier answers it). Beyond a read-only run's request budget.
      if (atReadOnlyBudget(config)) return;
      const own = (await api.get(path(id))).json as { client_id?: unknown; audience?: unknown } | undefined;
      for (const [what, other] of [
        ['its client_id', own?.client_id],
        ['its audience', own?.audience],
      ] as const) {
        if (typeof other !== 'string' || other === id) continue;
        const ex = await api.get(`${path('ID').replace(/ID$/, '')}${encodeURIComponent(other)}`);
        const got = (ex.json as { id?: unknown } | undefined)?.id;
        must(near.clientGrantsGetSameGrant, ex.status < 200 || ex.status >= 300 || got !== id, {
          expected: `no grant ${id} for ${JSON.stringify(other)} (${what}): a grant is named by its id`,
          actual: `status ${ex.status}, grant ${String(got)}`,
          exchange: ex,
        });
      }
    },
  );

  const twice = declareRules('client-grants.get.same-grant', 'http.path-id.percent-encoding');
  test(
    'should answer the grant asked for, the same in every field, on two reads and by every spelling of its id RFC 3986 makes the same',
    twice,
    async ({ api, config }) => {
      const id = requireFixture(config.clientGrantId, 'CONFORMANCE_CLIENT_GRANT_ID');
      // The same grant read two ways: its id spelt with lower-case hex and unreserved characters percent-encoded
      // (RFC 3986 2.1, 2.3) is the same path. Against an external target the second read is the spelt one
      // (two canonical reads are made by the check above).
      const spellings = equivalentSegments(id);
      const a = await api.get(path(id));
      const b = config.embedded ? await api.get(path(id)) : undefined;
      mustSucceed(twice.clientGrantsGetSameGrant, a);
      if (b) mustSucceed(twice.clientGrantsGetSameGrant, b);
      for (const ex of b ? [a, b] : [a]) {
        const got = (ex.json as { id?: unknown }).id;
        must(twice.clientGrantsGetSameGrant, got === undefined || got === id, {
          expected: `id ${id}`,
          actual: `id ${String(got)}`,
          exchange: ex,
        });
      }
      if (b)
        must(twice.clientGrantsGetSameGrant, sameJson(a.json, b.json), {
          expected: 'the same grant twice',
          actual: `${a.text.slice(0, 150)} then ${b.text.slice(0, 150)}`,
          exchange: b,
        });
      for (const v of config.embedded ? spellings : spellings.slice(-1)) {
        const ex = await api.get(`${path('ID').replace(/ID$/, '')}${v.raw}`);
        must(twice.httpPathIdPercentEncoding, ex.status === a.status && sameJson(ex.json, a.json), {
          expected: `grant ${id} as its canonical spelling answered it (status ${a.status}, ${a.text.slice(0, 100)}): the id spelt with ${v.what} is the same grant`,
          actual: `status ${ex.status}, ${ex.text.slice(0, 150)}`,
          exchange: ex,
        });
      }
    },
  );

  const status = declareRules('client-grants.get.status', 'http.json-error-bodies');
  test('should be observed answering an unknown grant id', status, async ({ api }) => {
    const ex = await api.get(path('cgr_conformance_does_not_exist'));
    observe(status.clientGrantsGetStatus, 'unknown id answered', String(ex.status), {
      body: ex.json ?? ex.text.slice(0, 200),
    });
    // Its status is not shown; when it is a refusal, its body is JSON like every other.
    mustBeJsonErrorBody(status, ex);
  });
});

authChecks('client-grants.get', (api, c, auth) => api.get(path(c.clientGrantId ?? 'cgr_conformance'), { auth }));
