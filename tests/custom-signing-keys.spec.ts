/**
 * Endpoints 7. Create or replace custom signing keys: PUT /keys/custom-signing
 * Both request content types; the PUT replaces the whole set; at least one key.
 * Every write runs inside a snapshot/restore of the tenant's keys (skipped,
 * with the reason, where the target offers no way to snapshot them).
 */
import { exportJWK, generateKeyPair } from 'jose';
import { stringify as qsStringify } from 'qs';
import type { Api } from '../harness/requests/client.ts';
import {
  must,
  mustMatchSchema,
  mustRefuse,
  mustSucceed,
  observe,
  mustBeJsonErrorBody,
  MALFORMED_JSON_BODIES,
} from '../harness/vocabulary/must.ts';
import { requireWrites, test } from '../harness/fixtures/fixtures.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { KEYS_PATH, withCustomSigningKeysRestored } from '../harness/fixtures/restore.ts';
import { declareRules, schemaRules } from '../harness/vocabulary/declare.ts';

// These checks share one resource (the tenant's key set): run them one after another.
test.describe.configure({ mode: 'default' });

/**
 * A public EC P-256 signing JWK made for this run (`use: sig`). "`EC` is a
 * value" of kty: a target that refuses a valid EC key fails the check.
 */
async function publicJwk(kid: string): Promise<Record<string, unknown>> {
  const { publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(publicKey)), kid, use: 'sig', key_ops: ['verify'] };
}

const kidsOf = (json: unknown) => ((json as { keys?: Array<{ kid?: string }> })?.keys ?? []).map((k) => k.kid);
const putJson = (api: Api, keys: unknown[]) => api.put(KEYS_PATH, { json: { keys } });

test.describe('custom signing keys @custom-signing-keys @writes', () => {
  test.beforeEach(({ config }) => requireWrites(config));

  const json = declareRules('custom-signing-keys.put.json', schemaRules('jwks'));
  test('should accept a JWKS sent as JSON and answer the resulting keys', json, async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      const ex = await putJson(api, [await publicJwk('conformance-json-1')]);
      mustSucceed(json.customSigningKeysPutJson, ex);
      mustMatchSchema('jwks', ex.json, ex);
      observe('custom-signing-keys.put.status', 'JSON PUT answered', String(ex.status));
    });
  });

  const form = declareRules('custom-signing-keys.put.form', schemaRules('jwks'));
  test('should not refuse a form-encoded JWKS for its media type', form, async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      const key = await publicJwk('conformance-form-1');
      const ex = await api.put(KEYS_PATH, {
        body: qsStringify({ keys: [key] }, { encodeValuesOnly: true }),
        contentType: 'application/x-www-form-urlencoded',
      });
      // A 5xx is no answer to the media type either way: it never passes.
      must(form.customSigningKeysPutForm, ex.status !== 415 && ex.status < 500, {
        expected: 'not 415 Unsupported Media Type (and no 5xx)',
        actual: `status ${ex.status}`,
        exchange: ex,
      });
      const understood =
        ex.status >= 200 &&
        ex.status < 300 &&
        JSON.stringify(kidsOf(ex.json)) === JSON.stringify(['conformance-form-1']);
      observe(
        'custom-signing-keys.put.status',
        'form-encoded PUT (bracket notation) answered',
        `${ex.status}${understood ? ', keys understood' : ''}`,
      );
      if (ex.status >= 200 && ex.status < 300) mustMatchSchema('jwks', ex.json, ex);
    });
  });

  const replaces = declareRules('custom-signing-keys.put.replaces');
  test('should replace the whole set: a second PUT answers only the new keys', replaces, async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      const first = await putJson(api, [await publicJwk('conformance-a-1'), await publicJwk('conformance-a-2')]);
      mustSucceed(replaces.customSigningKeysPutReplaces, first);
      const second = await putJson(api, [await publicJwk('conformance-b-1')]);
      mustSucceed(replaces.customSigningKeysPutReplaces, second);
      must(
        replaces.customSigningKeysPutReplaces,
        JSON.stringify(kidsOf(second.json)) === JSON.stringify(['conformance-b-1']),
        {
          expected: 'keys [conformance-b-1] only',
          actual: `keys ${JSON.stringify(kidsOf(second.json))}`,
          exchange: second,
        },
      );
    });
  });

  for (const [title, body] of [
    ['an empty keys array', { keys: [] }],
    ['no keys member', {}],
  ] as const) {
    const minOneKey = declareRules('custom-signing-keys.put.min-one-key', 'http.json-error-bodies');
    test(`should refuse a JWKS with ${title}`, minOneKey, async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const ex = await api.put(KEYS_PATH, { json: body });
        mustRefuse(minOneKey.customSigningKeysPutMinOneKey, ex, 'the keys array has minimum 1 item');
        mustBeJsonErrorBody(minOneKey, ex);
      });
    });
  }

  const jsonRequestBodies = declareRules('http.json-request-bodies', 'http.json-error-bodies');
  test('should refuse a body sent as JSON that is not JSON', jsonRequestBodies, async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      for (const body of MALFORMED_JSON_BODIES) {
        const ex = await api.put(KEYS_PATH, { body, contentType: 'application/json' });
        mustRefuse(jsonRequestBodies.httpJsonRequestBodies, ex, `the body ${JSON.stringify(body)} is not JSON`);
        mustBeJsonErrorBody(jsonRequestBodies, ex);
      }
    });
  });
});

authChecks(
  'custom-signing-keys.put',
  async (api, _c, auth) => api.put(KEYS_PATH, { auth, json: { keys: [await publicJwk('conformance-auth')] } }),
  {
    around: (api, _c, fn) => withCustomSigningKeysRestored(api, fn),
  },
);
