/**
 * Endpoints 7. Create or replace custom signing keys: PUT /keys/custom-signing
 * Both request content types; the PUT replaces the whole set; at least one key.
 * Every write runs inside a snapshot/restore of the tenant's keys.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { stringify as qsStringify } from 'qs';
import type { Api } from '../harness/client.ts';
import { must, mustMatchSchema, mustRefuse, mustSucceed, observe } from '../harness/checks.ts';
import { requireWrites, rules, test } from '../harness/fixtures.ts';
import { authChecks } from '../harness/auth-checks.ts';
import { KEYS_PATH, withCustomSigningKeysRestored } from '../harness/restore.ts';
import { rulesOf } from '../schemas/index.ts';
import type { RuleId } from '../spec/rules.ts';

// These checks share one resource (the tenant's key set): run them one after another.
test.describe.configure({ mode: 'default' });

type Alg = 'ES256' | 'RS256';
/** The key type the target takes: EC P-256 first, RSA if EC is refused (the allowed kty values are not shown). */
let accepted: Alg | undefined;

/** A public signing JWK made for this run (`use: sig`), of the kind the target takes. */
async function publicJwk(kid: string, alg: Alg = accepted ?? 'ES256'): Promise<Record<string, unknown>> {
  const { publicKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(publicKey)), kid, use: 'sig', key_ops: ['verify'] };
}

/**
 * Finds a key type the target accepts as JSON. A 4xx other than 415 to a
 * valid EC key may only mean that kty is not allowed: then RSA is tried.
 * Both refused: observed, and the check is skipped with the reason.
 * A 415 refuses the media type, which the document allows: left to the check.
 */
async function requireAcceptedKeyType(api: Api): Promise<void> {
  if (accepted) return;
  for (const alg of ['ES256', 'RS256'] as const) {
    const ex = await putJson(api, [await publicJwk(`conformance-probe-${alg}`, alg)]);
    if ((ex.status >= 200 && ex.status < 300) || ex.status === 415 || ex.status >= 500) {
      accepted = alg;
      return;
    }
    observe('custom-signing-keys.put.status', `a valid ${alg} public key answered`, String(ex.status));
  }
  test.skip(true, 'The target refused valid EC and RSA public keys sent as JSON; the allowed key types are not shown');
}

const kidsOf = (json: unknown) => ((json as { keys?: Array<{ kid?: string }> })?.keys ?? []).map((k) => k.kid);
const putJson = (api: Api, keys: unknown[]) => api.put(KEYS_PATH, { json: { keys } });

test.describe('custom signing keys @custom-signing-keys @writes', () => {
  test.beforeEach(({ config }) => requireWrites(config));

  test('should accept a JWKS sent as JSON and answer the resulting keys', rules('custom-signing-keys.put.json', ...(rulesOf('jwks') as RuleId[])), async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      await requireAcceptedKeyType(api);
      const ex = await putJson(api, [await publicJwk('conformance-json-1')]);
      mustSucceed('custom-signing-keys.put.json', ex);
      mustMatchSchema('jwks', ex.json, ex);
      observe('custom-signing-keys.put.status', 'JSON PUT answered', String(ex.status));
    });
  });

  test('should not refuse a form-encoded JWKS for its media type', rules('custom-signing-keys.put.form'), async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      await requireAcceptedKeyType(api);
      const key = await publicJwk('conformance-form-1');
      const ex = await api.put(KEYS_PATH, { body: qsStringify({ keys: [key] }, { encodeValuesOnly: true }), contentType: 'application/x-www-form-urlencoded' });
      must('custom-signing-keys.put.form', ex.status !== 415, { expected: 'not 415 Unsupported Media Type', actual: `status ${ex.status}`, exchange: ex });
      const understood = ex.status >= 200 && ex.status < 300 && JSON.stringify(kidsOf(ex.json)) === JSON.stringify(['conformance-form-1']);
      observe('custom-signing-keys.put.status', 'form-encoded PUT (bracket notation) answered', `${ex.status}${understood ? ', keys understood' : ''}`);
      if (ex.status >= 200 && ex.status < 300) mustMatchSchema('jwks', ex.json, ex);
    });
  });

  test('should replace the whole set: a second PUT answers only the new keys', rules('custom-signing-keys.put.replaces'), async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      await requireAcceptedKeyType(api);
      const first = await putJson(api, [await publicJwk('conformance-a-1'), await publicJwk('conformance-a-2')]);
      mustSucceed('custom-signing-keys.put.replaces', first);
      const second = await putJson(api, [await publicJwk('conformance-b-1')]);
      mustSucceed('custom-signing-keys.put.replaces', second);
      must('custom-signing-keys.put.replaces', JSON.stringify(kidsOf(second.json)) === JSON.stringify(['conformance-b-1']), {
        expected: 'keys [conformance-b-1] only',
        actual: `keys ${JSON.stringify(kidsOf(second.json))}`,
        exchange: second,
      });
    });
  });

  for (const [title, body] of [
    ['an empty keys array', { keys: [] }],
    ['no keys member', {}],
  ] as const) {
    test(`should refuse a JWKS with ${title}`, rules('custom-signing-keys.put.min-one-key'), async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        mustRefuse('custom-signing-keys.put.min-one-key', await api.put(KEYS_PATH, { json: body }), 'the keys array has minimum 1 item');
      });
    });
  }
});

authChecks('custom-signing-keys.put', async (api, _c, auth) => api.put(KEYS_PATH, { auth, json: { keys: [await publicJwk('conformance-auth')] } }), {
  around: (api, _c, fn) => withCustomSigningKeysRestored(api, fn),
});
