/**
 * Endpoints 7. Create or replace custom signing keys: PUT /keys/custom-signing
 * Both request content types; the PUT replaces the whole set; at least one key.
 * Every write runs inside a snapshot/restore of the tenant's keys (skipped,
 * with the reason, where the target offers no way to snapshot them).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { stringify as qsStringify } from 'qs';
import type { Api } from '../harness/requests/client.ts';
import {
  must,
  mustBeJson,
  mustMatchSchema,
  mustRefuse,
  mustSucceed,
  observe,
  mustBeJsonErrorBody,
  mustRefuseNotJson,
  notAnObject,
} from '../harness/vocabulary/must.ts';
import { requireWrites, test } from '../harness/fixtures/fixtures.ts';
import { authChecks } from '../harness/vocabulary/auth-checks.ts';
import { KEYS_PATH, withCustomSigningKeysRestored } from '../harness/fixtures/restore.ts';
import { declareRules, schemaRules } from '../harness/vocabulary/declare.ts';
import { decodeJwt } from '../harness/vocabulary/jwt.ts';
import { pathOf } from '../spec/operations.ts';
import { fc, fcParams } from '../harness/vocabulary/properties.ts';
import { sameJson } from '../harness/vocabulary/json.ts';
import {
  DEEP_NESTING,
  escapedJson,
  jsonSpellings,
  mediaTypeSpellings,
  nearMemberNames,
  wrappedMember,
  otherJsonTypes,
  publicSigningJwk,
  SIGNING_KEY_TYPES,
  keyPairFor,
  rsaKeyPairOfSize,
  startMakingRsaKeys,
  UNICODE_SPELLINGS,
  type SigningKeyType,
  withNestedMember,
} from '../harness/vocabulary/partitions.ts';
import type { Config } from '../harness/run/config.ts';
import { CHUNKED_FRAMINGS, LENGTH_REQUIRED, sendChunked } from '../harness/vocabulary/body-partitions.ts';

// These checks share one resource (the tenant's key set): run them one after another.
test.describe.configure({ mode: 'default' });

/** RSA sizes beside 2048 bits that RFC 7518 3.3 admits for RS256, sent by one check. */
const LARGER_RSA_SIZES = [3072, 4096];
// The RSA keys are made on Node's thread pool while the first checks run (only where checks send them): at
// this file's first check in a worker (later calls find them started). A hook of each check, not a beforeAll,
// for a worker may check several targets (harness/fixtures/targets.ts), each with its own configuration.
test.beforeEach(({ config }) => {
  if (config.writes !== 'none') startMakingRsaKeys(LARGER_RSA_SIZES);
});

/**
 * A public EC P-256 signing JWK made for this run (`use: sig`). "`EC` is a
 * value" of kty: a target that refuses a valid EC key fails the check.
 */
async function publicJwk(kid: string): Promise<Record<string, unknown>> {
  const { publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(publicKey)), kid, use: 'sig', key_ops: ['verify'] };
}

/**
 * Kids the property draws its sets from: two that differ only in case (RFC
 * 7515 4.1.4: "The kid value is a case-sensitive string"), a long one, and
 * plain ones, so that two PUTs in a row share some kids and not others.
 */
const KID_POOL = [
  'conformance-k1',
  'conformance-K1',
  'conformance-k2',
  'conformance-k3',
  `conformance-${'k'.repeat(64)}`,
] as const;

/** The members of a JWK the suite sent (those the answer must carry as sent). */
type SentKey = Record<string, unknown> & { kid: string };

/** The keys of an answer, by kid (a set: the order of keys is not stated). */
const byKid = (json: unknown) =>
  new Map(
    ((json as { keys?: unknown })?.keys as Array<Record<string, unknown>> | undefined)
      ?.filter((k) => k && typeof k === 'object')
      .map((k) => [String(k.kid), k]) ?? [],
  );

/**
 * Each key sent, as sent: one answered key for each key sent, holding every
 * member sent with the same JSON type and value (it may add members of its
 * own, a kid among them, and answer the keys in any order), and no key but
 * those sent. A key sent with a kid is looked for under its kid; one sent
 * without (kid is optional, RFC 7517 4.5) by its members, so that keys sent
 * without kid are told apart by their key material. Names what differs, or
 * undefined. The keys sent each have key material of their own.
 */
function keysDiffer(sent: ReadonlyArray<Record<string, unknown>>, json: unknown): string | undefined {
  const keys = (json as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) return `keys answered ${JSON.stringify(keys)?.slice(0, 60)}, not an array`;
  if (keys.length !== sent.length) return `${keys.length} keys answered for ${sent.length} sent`;
  const left = keys.filter((k): k is Record<string, unknown> => !!k && typeof k === 'object' && !Array.isArray(k));
  const sameMembers = (k: Record<string, unknown>) => (g: Record<string, unknown>) =>
    Object.entries(k).filter(([m, v]) => sameJson(g[m], v)).length;
  for (const [i, k] of sent.entries()) {
    const held = sameMembers(k);
    const at = left.findIndex((g) => held(g) === Object.keys(k).length);
    if (at >= 0) {
      left.splice(at, 1);
      continue;
    }
    const name =
      k.kid !== undefined
        ? `key ${String(k.kid)}`
        : `key ${i + 1} of ${sent.length} (kty ${String(k.kty)}, sent without kid)`;
    // The answered key it was meant to be: the one of its kid, or the one holding the most of its members.
    const near =
      k.kid !== undefined
        ? left.find((g) => sameJson(g.kid, k.kid))
        : left.reduce<Record<string, unknown> | undefined>((a, g) => (a && held(a) >= held(g) ? a : g), undefined);
    if (!near) return k.kid !== undefined ? `no key with kid ${String(k.kid)}` : `no key answered for ${name}`;
    const [m, v] = Object.entries(k).find(([m, v]) => !sameJson(near[m], v))!;
    return `${name}: ${m} answered ${JSON.stringify(near[m])?.slice(0, 60)}, sent ${JSON.stringify(v).slice(0, 60)}`;
  }
  return undefined;
}

/**
 * A public EC P-256 key with its certificate chain (x5c, RFC 7517 4.7) and
 * thumbprint (x5t#S256, 4.9): a self-signed certificate made for the suite
 * (harness/fixtures/custom-signing-key.crt.pem; its private key was thrown
 * away), so that a server checking that the chain matches the key accepts it.
 */
function certifiedJwk(kid: string): SentKey {
  const cert = new X509Certificate(
    readFileSync(join(import.meta.dirname, '..', 'harness', 'fixtures', 'custom-signing-key.crt.pem')),
  );
  const { kty, crv, x, y } = cert.publicKey.export({ format: 'jwk' });
  return {
    kty,
    crv,
    x,
    y,
    kid,
    x5c: [cert.raw.toString('base64')],
    ...thumbprints(cert),
  };
}

/**
 * The thumbprints of a key's certificate, each of its own digest (RFC 7517 4.8 x5t: base64url of the SHA-1 of
 * the DER, 27 characters; 4.9 x5t#S256: of its SHA-256, 43 characters): the values the certificate sent in x5c
 * gives them, so that a server comparing a thumbprint with x5c (RFC 7517 4.8: "MUST" match) takes them.
 */
const thumbprints = (cert: X509Certificate) => ({
  x5t: createHash('sha1').update(cert.raw).digest('base64url'),
  'x5t#S256': createHash('sha256').update(cert.raw).digest('base64url'),
});

/**
 * The certificates of harness/fixtures/custom-signing-key-chain.pem, leaf first: an EC P-256 key
 * certified by an intermediate CA, itself certified by a root (RFC 7517 4.7: "The certificate
 * containing the key value MUST be the first certificate. This MAY be followed by additional
 * certificates, with each subsequent certificate being the one used to certify the previous one").
 * Made for the suite with openssl; no private key was kept.
 */
const CHAIN = readFileSync(
  join(import.meta.dirname, '..', 'harness', 'fixtures', 'custom-signing-key-chain.pem'),
  'utf8',
)
  .split(/(?<=-----END CERTIFICATE-----)\s*/)
  .filter((pem) => pem.includes('BEGIN CERTIFICATE'))
  .map((pem) => new X509Certificate(pem));

/** The chained key with the first `length` certificates of its chain as x5c (1: the leaf alone; 3: up to the root). */
function chainedJwk(kid: string, length: number): SentKey {
  const leaf = CHAIN[0]!;
  const { kty, crv, x, y } = leaf.publicKey.export({ format: 'jwk' });
  return {
    kty,
    crv,
    x,
    y,
    kid,
    x5c: CHAIN.slice(0, length).map((c) => c.raw.toString('base64')),
    ...thumbprints(leaf),
  };
}

/**
 * x5u by its partitions (RFC 7517 4.6: "a URI [RFC3986] that refers to a resource for an X.509 public key
 * certificate or certificate chain"; its retrieval MUST use TLS, so each is https). Each is a string the answer
 * gives back exactly (RFC 7517 4: the members of the JWK sent; RFC 3986 6.2.1: a URI compared as a string):
 * the parts RFC 3986 3 names, each where a URL parser re-serialising it would write it otherwise (a trailing
 * slash added to an empty path, the host lower-cased, the default port dropped, a dot segment removed,
 * percent-encodings re-cased).
 */
const X5U_URIS = [
  'https://certs.example.com',
  'https://Certs.Example.COM/conformance/chain.pem',
  'https://certs.example.com:8443/conformance/chain.pem',
  'https://certs.example.com:443/conformance/chain.pem',
  'https://certs.example.com/conformance/./keys/%7e/a%2fb/chain.pem',
  'https://certs.example.com/conformance/chain.pem?kid=conformance&format=pem',
] as const;

/**
 * A key of `type` with every member RFC 7517 4 and RFC 7518 6 define for it: kty and the type's public
 * members, kid, use "sig" and key_ops ["verify"] (consistent, 4.3), alg (its JWS algorithm), x5u; and for
 * EC P-256 the suite's certificate chain (x5c of `chain` certificates, 4.7) with its thumbprints x5t and
 * x5t#S256 (4.8, 4.9), the key material being the certificate's. Every value is one a server checking it
 * against the others finds consistent.
 */
async function everyMemberJwk(type: SigningKeyType, kid: string, x5u: string, chain: number): Promise<SentKey> {
  const own = await publicSigningJwk(type, { kid, use: true, key_ops: true, alg: true });
  const certified = type === SIGNING_KEY_TYPES[0] ? chainedJwk(kid, chain) : {};
  return { ...own, ...certified, kid, x5u };
}

const kidsOf = (json: unknown) => ((json as { keys?: Array<{ kid?: string }> })?.keys ?? []).map((k) => k.kid);
const putJson = (api: Api, keys: unknown[]) => api.put(KEYS_PATH, { json: { keys } });
/** The same JWKS form-encoded, in bracket notation (keys[0][kty]=EC&keys[0][key_ops][0]=verify). */
const putForm = (api: Api, keys: unknown[], contentType = 'application/x-www-form-urlencoded') =>
  api.put(KEYS_PATH, { body: qsStringify({ keys }, { encodeValuesOnly: true }), contentType });
const is2xx = (status: number) => status >= 200 && status < 300;
const is4xx = (status: number) => status >= 400 && status < 500;

/** The key types tried: all of them on the embedded emulator; against an external target, one of each kty. */
const keyTypesFor = (config: Config): readonly SigningKeyType[] =>
  config.embedded ? SIGNING_KEY_TYPES : SIGNING_KEY_TYPES.filter((t) => t.what !== 'EC P-384' && t.what !== 'EC P-521');

/**
 * The key types the target takes, each sent alone as JSON (which types a
 * server takes is not shown; EC P-256 is always among them, its refusal being
 * another check's failure).
 */
async function takenKeyTypes(api: Api, config: Config): Promise<SigningKeyType[]> {
  const taken: SigningKeyType[] = [SIGNING_KEY_TYPES[0]];
  for (const [i, type] of keyTypesFor(config).entries()) {
    if (type === SIGNING_KEY_TYPES[0]) continue;
    const ex = await putJson(api, [await publicSigningJwk(type, { kid: `conformance-taken-${i}` })]);
    if (is2xx(ex.status)) taken.push(type);
  }
  return taken;
}

/**
 * Sets of keys from the partitions of a JWKS's keys (category partition):
 * the size of the set (1, 2, 3, many: 25, past the 20 items a form parser may
 * cap arrays at), kid on every key, on none or on the first only (RFC 7517
 * 4.5: optional), the other optional members (use, key_ops, alg, x5u from its
 * partitions, RFC 7517 4.2 to 4.4, 4.6) all present or all absent, and one key
 * type or the types taken in turn. The key material of every key is its own,
 * so keys sent without kid stay apart.
 */
interface KeySet {
  what: string;
  size: number;
  /**
   * On every key, on none, on the first only, spelt as JSON literals (a number, true, null) on every key, or
   * holding text beyond ASCII letters on every key.
   */
  kid: 'every' | 'none' | 'first' | 'literal' | 'text';
  /** use, key_ops, alg and x5u (in turn from its partitions) on every key, or none of them. */
  members: boolean;
  mixed: boolean;
  /** The first key an EC P-256 key with its certificate chain (x5c: standard base64, + and / in it). */
  certified?: boolean;
}
const KEY_SETS: readonly KeySet[] = [
  {
    what: '1 key, kty and its key material alone (no optional member)',
    size: 1,
    kid: 'none',
    members: false,
    mixed: false,
  },
  { what: '2 keys without kid, use, key_ops, alg and x5u present', size: 2, kid: 'none', members: true, mixed: false },
  { what: '3 keys without kid, the key types in turn', size: 3, kid: 'none', members: false, mixed: true },
  { what: '3 keys, a kid on the first only, the key types in turn', size: 3, kid: 'first', members: true, mixed: true },
  { what: '25 keys, each with its kid, the key types in turn', size: 25, kid: 'every', members: true, mixed: true },
  { what: '25 keys without kid, the key types in turn', size: 25, kid: 'none', members: false, mixed: true },
  {
    what: '4 keys whose kids read as JSON literals (1, -2.5, true, null): strings all the same',
    size: 4,
    kid: 'literal',
    members: false,
    mixed: false,
  },
  {
    what: '5 keys whose kids hold letters beyond ASCII (Latin-1, Cyrillic, CJK), a character beyond the BMP, and the delimiters of a form body (+ & = % and a space)',
    size: 5,
    kid: 'text',
    members: false,
    mixed: false,
  },
  {
    what: '2 keys, the first with kid and its certificate chain (x5c, standard base64 holding + and /)',
    size: 2,
    kid: 'first',
    members: false,
    mixed: false,
    certified: true,
  },
];

/** Kids a form reader coercing its values would turn into a number, a boolean or null (each a string, RFC 7517 4.5). */
const LITERAL_KIDS = ['1', '-2.5', 'true', 'null'] as const;

/**
 * Kids whose text a body's encoding must carry as it is (RFC 7517 4.5: a case-sensitive string): letters
 * beyond ASCII, which a form body carries percent-encoded as UTF-8 (the URL standard's
 * application/x-www-form-urlencoded) and a reader decoding another charset turns into other letters, a
 * character beyond the BMP (a surrogate pair in UTF-16), and the characters a form body gives meaning to.
 */
const TEXT_KIDS = [
  'conformance-clé',
  'conformance-ключ',
  'conformance-鍵',
  'conformance-🔑',
  'conformance-a+b c&d=e%41',
] as const;

/**
 * Kids from the partition of a free-form string by the characters special where a server stores or routes it
 * (RFC 7517 4.5: "The kid value is a case-sensitive string"; "The structure of the kid value is unspecified"; the
 * document: kid, string, nothing more): those of a path or URL (RFC 3986 2.2, 3.3: / \ a dot segment, a
 * percent-encoded slash, ? # ; . and a space), those a document store gives meaning to (a leading $ or ., a name
 * every JavaScript object holds), those JSON escapes (RFC 8259 7: " and \; control characters left out, the
 * document shows none), and Unicode (Latin-1, CJK, beyond the BMP, a combining sequence NFC would compose). Each
 * is a string a server stores and answers as it is; no length or character is forbidden by the document.
 */
const SPECIAL_KIDS: ReadonlyArray<{ what: string; kid: string }> = [
  { what: 'a slash inside', kid: 'conformance/2024/rotation-1' },
  { what: 'a leading slash', kid: '/conformance-rooted' },
  { what: 'a backslash', kid: 'conformance\\windows' },
  { what: 'a dot-dot segment', kid: '../conformance-parent' },
  { what: 'a dot-dot segment alone', kid: '..' },
  { what: 'a percent-encoded slash', kid: 'conformance%2Fencoded' },
  { what: 'a query', kid: 'conformance?query=1' },
  { what: 'a fragment', kid: 'conformance#fragment' },
  { what: 'a semicolon', kid: 'conformance;matrix=1' },
  { what: 'dots, as a file name', kid: 'conformance.key.json' },
  { what: 'spaces', kid: 'conformance key with spaces' },
  { what: 'a leading $', kid: '$conformance' },
  { what: 'a leading dot', kid: '.conformance' },
  { what: 'a member every JavaScript object holds', kid: '__proto__' },
  { what: 'a quotation mark', kid: 'conformance-"quoted"' },
  { what: 'Latin-1', kid: 'conformance-clé-ñ' },
  { what: 'CJK', kid: 'conformance-鍵' },
  { what: 'beyond the BMP', kid: 'conformance-🔑' },
  { what: 'a combining sequence (e U+0301)', kid: 'conformance-cafe\u0301' },
];

/** The keys of a set, of the types taken. */
async function keysOf(set: KeySet, taken: readonly SigningKeyType[], tag: string): Promise<Record<string, unknown>[]> {
  const keys: Record<string, unknown>[] = [];
  for (let i = 0; i < set.size; i++) {
    const kid =
      set.kid === 'literal'
        ? LITERAL_KIDS[i % LITERAL_KIDS.length]
        : set.kid === 'text'
          ? TEXT_KIDS[i % TEXT_KIDS.length]
          : set.kid === 'every' || (set.kid === 'first' && i === 0)
            ? `conformance-${tag}-${i + 1}`
            : undefined;
    if (set.certified && i === 0 && taken.some((t) => t.what === 'EC P-256')) {
      keys.push(chainedJwk(kid ?? `conformance-${tag}-chain`, CHAIN.length));
      continue;
    }
    keys.push({
      ...(await publicSigningJwk(set.mixed ? taken[i % taken.length]! : taken[0]!, {
        ...(kid !== undefined ? { kid } : {}),
        use: set.members,
        key_ops: set.members,
        alg: set.members,
      })),
      // x5u in turn from its partitions.
      ...(set.members ? { x5u: X5U_URIS[i % X5U_URIS.length] } : {}),
    });
  }
  return keys;
}

/** A refusal the document leaves to the target: a key sent without kid (the members required per key type are not shown), or a set of many keys (no maximum is shown, nor forbidden). */
const mayRefuse = (set: KeySet) => set.kid !== 'every' || set.size > 3;

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

  const specialKids = declareRules(
    'custom-signing-keys.put.json',
    'custom-signing-keys.put.replaces',
    schemaRules('jwks'),
  );
  test(
    'should take a kid of every partition of the characters special where a string is stored or routed (RFC 7517 4.5: "a case-sensitive string"): / \\ .. %2F ? # ; . a space, a leading $ or ., __proto__, a quotation mark, Latin-1, CJK, beyond the BMP, a combining sequence; each key answered, and read back, with its kid exactly as sent (relation)',
    specialKids,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async (readable) => {
        const keys = await Promise.all(SPECIAL_KIDS.map(({ kid }) => publicJwk(kid)));
        const named = (kids: ReadonlyArray<{ what: string; kid: string }>) =>
          kids.map(({ what, kid }) => `${what} ${JSON.stringify(kid)}`).join(', ');
        const ex = await putJson(api, keys);
        if (is4xx(ex.status)) {
          // A set of many keys may be refused (no maximum is shown): then each key, alone, is taken.
          observe(
            'custom-signing-keys.put.status',
            `a JWKS of ${keys.length} keys, kids of every partition`,
            String(ex.status),
          );
          for (const [i, key] of keys.entries()) {
            const alone = await putJson(api, [key]);
            must(specialKids.customSigningKeysPutJson, is2xx(alone.status), {
              expected: `a 2xx: a valid JWKS of one key whose kid holds ${named([SPECIAL_KIDS[i]!])} (kid is a string, RFC 7517 4.5)`,
              actual: `status ${alone.status} (and ${ex.status} to the ${keys.length} keys together)`,
              exchange: alone,
            });
            const differ = keysDiffer([key], alone.json);
            must(specialKids.customSigningKeysPutReplaces, differ === undefined, {
              expected: `the key answered with its kid exactly as sent (${named([SPECIAL_KIDS[i]!])})`,
              actual: differ ?? '',
              exchange: alone,
            });
          }
          return;
        }
        mustSucceed(specialKids.customSigningKeysPutJson, ex);
        mustMatchSchema('jwks', ex.json, ex);
        const differ = keysDiffer(keys, ex.json);
        must(specialKids.customSigningKeysPutReplaces, differ === undefined, {
          expected: `the ${keys.length} keys sent, each with its kid exactly as sent: ${named(SPECIAL_KIDS)}`,
          actual: differ ?? '',
          exchange: ex,
        });
        // The set read back (GET is not shown: only where the target offers it) holds the keys the PUT answered.
        if (!readable) return;
        const back = await storedKeys(api);
        const stored = is2xx(back.ex.status) ? keysDiffer(keys, back.ex.json) : `status ${back.ex.status}`;
        must(specialKids.customSigningKeysPutReplaces, stored === undefined, {
          expected: `the set read back: the ${keys.length} keys the PUT answered, each kid exactly as sent`,
          actual: stored ?? '',
          exchange: back.ex,
        });
      });
    },
  );

  const ignored = declareRules('custom-signing-keys.put.json', schemaRules('jwks'));
  test(
    "should take the key it takes with a member added that RFC 7517 4 says to ignore where not understood: alg as RFC 7518 3.1 names the key's (ES256), ext as WebCrypto exports it, a member no registry names; and one 5,000 and 20,000 arrays deep taken or refused, never a 5xx (RFC 8259 9)",
    ignored,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const base = await publicJwk('conformance-member-added');
        mustSucceed(ignored.customSigningKeysPutJson, await putJson(api, [base]));
        // The document's JWK table names none of these; RFC 7517 4: "Additional members can be present in the
        // JWK; if not understood by implementations encountering them, they MUST be ignored".
        for (const [what, extra] of [
          ['alg ES256, the algorithm of a P-256 key (RFC 7518 3.1; RFC 7517 4.4)', { alg: 'ES256' }],
          ['ext true, as WebCrypto exports a key (not in the JWK registry)', { ext: true }],
          ['x-conformance, a member no registry names', { 'x-conformance': 'ignored' }],
        ] as const) {
          const ex = await putJson(api, [{ ...base, ...extra }]);
          must(ignored.customSigningKeysPutJson, ex.status >= 200 && ex.status < 300, {
            expected: `a 2xx: the key it took, with ${what}, a member it ignores where it does not understand it`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          mustMatchSchema('jwks', ex.json, ex);
        }
        // Partition of a member's depth (RFC 8259 9: "An implementation may set limits on the maximum depth of
        // nesting"): a member nested deeper than a recursive copy or serialiser of the key reaches is ignored as
        // any member is, or the body refused as nested too deeply (a 4xx); never a server error.
        for (const depth of DEEP_NESTING) {
          const body = `{"keys":[${withNestedMember(base, 'x-conformance', depth)}]}`;
          const ex = await api.put(KEYS_PATH, { body, contentType: 'application/json' });
          must(ignored.customSigningKeysPutJson, ex.status >= 200 && ex.status < 500, {
            expected: `a 2xx (the member ignored) or a 4xx (nested too deeply for the parser): a member ${depth.toLocaleString('en')} arrays deep, never a 5xx`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          if (ex.status < 300) mustMatchSchema('jwks', ex.json, ex);
        }
      });
    },
  );

  const form = declareRules('custom-signing-keys.put.form', schemaRules('jwks'));
  test('should not refuse a form-encoded JWKS for its media type', form, async ({ api }) => {
    await withCustomSigningKeysRestored(api, async () => {
      const key = await publicJwk('conformance-form-1');
      // The media type with a charset parameter, as browsers and many clients write it (RFC 9110 8.3.1: the same
      // type), then bare; the bare one's answer is the one read further.
      const charset = await putForm(api, [key], 'application/x-www-form-urlencoded; charset=UTF-8');
      const ex = await putForm(api, [key]);
      // A 5xx is no answer to the media type either way: it never passes.
      for (const sent of [charset, ex])
        must(form.customSigningKeysPutForm, sent.status !== 415 && sent.status < 500, {
          expected: 'not 415 Unsupported Media Type (and no 5xx)',
          actual: `status ${sent.status}`,
          exchange: sent,
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
      // Understood (the key answered under its kid), it is the key a JSON PUT sets: every member as sent,
      // its one-item key_ops an array still.
      if (!understood) return;
      const differs = keysDiffer([key as SentKey], ex.json);
      must(form.customSigningKeysPutForm, differs === undefined, {
        expected: 'the key sent form-encoded answered as sent, every member of the same JSON type and value',
        actual: differs ?? '',
        exchange: ex,
      });
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

  const relation = declareRules(
    'custom-signing-keys.put.json',
    'custom-signing-keys.put.replaces',
    schemaRules('jwks'),
  );
  test(
    'should answer exactly the keys sent, member for member, for any set of keys, kids already stored included (property)',
    relation,
    async ({ api, config }) => {
      // Two PUTs in a row of keys drawn from one pool of kids: each answers its own keys, with their
      // own material, whether or not a key of the same kid was stored by the PUT before.
      const set = fc.uniqueArray(fc.constantFrom(...KID_POOL), { minLength: 1, maxLength: 4 });
      // x5c by its length partitions: none, a self-signed certificate, a chain of 1, 2 and 3 certificates.
      const members = fc.record({ use: fc.boolean(), ops: fc.boolean(), certified: fc.constantFrom(0, 1, 2, 3, 4) });
      await withCustomSigningKeysRestored(api, async () => {
        await fc.assert(
          fc.asyncProperty(fc.tuple(set, set), members, async (puts, m) => {
            for (const kids of puts) {
              const sent: SentKey[] = [];
              for (const kid of kids) {
                // The first key of a set, now and then, with its certificate chain.
                const {
                  use: _u,
                  key_ops: _o,
                  ...bare
                } = m.certified && kid === kids[0]
                  ? m.certified === 1
                    ? certifiedJwk(kid)
                    : chainedJwk(kid, m.certified - 1)
                  : await publicJwk(kid);
                sent.push({
                  ...bare,
                  kid,
                  ...(m.use ? { use: 'sig' } : {}),
                  ...(m.ops ? { key_ops: ['verify'] } : {}),
                });
              }
              const ex = await putJson(api, sent);
              mustSucceed(relation.customSigningKeysPutJson, ex);
              mustMatchSchema('jwks', ex.json, ex);
              const differ = keysDiffer(sent, ex.json);
              must(relation.customSigningKeysPutReplaces, differ === undefined, {
                expected: `exactly the ${sent.length} key(s) sent (${kids.join(', ')}), each member as sent`,
                actual: differ ?? '',
                exchange: ex,
              });
            }
          }),
          fcParams(config, 8),
        );
      });
    },
  );

  const keyTypes = declareRules('custom-signing-keys.put.json', schemaRules('jwks'));
  test(
    'should answer keys of each type RFC 7518 and RFC 8037 define for signatures as sent where it takes them (EC P-256, P-384, P-521, RSA, OKP Ed25519), each with every member RFC 7517 4 defines (kid, use, key_ops, alg, x5u from its partitions; x5c, x5t, x5t#S256 where a certificate is at hand): every member the same JSON type and value',
    keyTypes,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async () => {
        for (const [i, type] of keyTypesFor(config).entries()) {
          // A set of the type, one key for each partition of x5u (the P-256 keys with chains of 1 to 3).
          const keys: SentKey[] = [];
          for (const [j, x5u] of X5U_URIS.entries())
            keys.push(await everyMemberJwk(type, `conformance-type-${i}-${j}`, x5u, 1 + (j % CHAIN.length)));
          const ex = await putJson(api, keys);
          if (is2xx(ex.status)) {
            // The schema gives each member its JSON type (RSA n and e: base64url strings, RFC 7518 6.3.1).
            mustMatchSchema('jwks', ex.json, ex);
            const differ = keysDiffer(keys, ex.json);
            must(keyTypes.customSigningKeysPutJson, differ === undefined, {
              expected: `the ${keys.length} ${type.what} keys answered as sent (members ${Object.keys(keys[0]!).join(', ')}), each the same JSON type and value`,
              actual: differ ?? '',
              exchange: ex,
            });
            continue;
          }
          // Which key types a server takes, and whether it takes an x5u it cannot fetch, is not shown: a refusal
          // is its choice, and is observed. Each key then alone: those it takes are answered as sent.
          must(keyTypes.customSigningKeysPutJson, is4xx(ex.status), {
            expected: `the set of ${type.what} keys taken (2xx), or refused (4xx)`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          observe(
            'custom-signing-keys.put.status',
            `a set of ${type.what} keys with every member answered`,
            String(ex.status),
          );
          for (const key of config.embedded ? keys : keys.slice(0, 2)) {
            const alone = await putJson(api, [key]);
            if (is4xx(alone.status)) {
              observe(
                'custom-signing-keys.put.status',
                `a ${type.what} key with x5u ${String(key.x5u)} answered`,
                String(alone.status),
              );
              continue;
            }
            mustSucceed(keyTypes.customSigningKeysPutJson, alone);
            const differ = keysDiffer([key], alone.json);
            must(keyTypes.customSigningKeysPutJson, differ === undefined, {
              expected: `the ${type.what} key with x5u ${String(key.x5u)} answered as sent, every member the same JSON type and value`,
              actual: differ ?? '',
              exchange: alone,
            });
          }
        }
      });
    },
  );

  const rsaSizes = declareRules('custom-signing-keys.put.json', schemaRules('jwks'));
  test(
    'should take an RSA key of each size RFC 7518 3.3 admits for RS256 (2048 bits or larger: 3072, 4096) where it takes a 2048-bit one, and answer it as sent',
    rsaSizes,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        // Which key types a server takes is not shown; a server that takes RSA takes a valid RSA key of any
        // size the algorithm admits (2048 bits is its least, not its only size): a size check written as an
        // equality takes the one size every library makes by default.
        const rsa = SIGNING_KEY_TYPES.find((t) => t.alg === 'RS256')!;
        const least = await putJson(api, [await publicSigningJwk(rsa, { kid: 'conformance-rsa-2048' })]);
        if (!is2xx(least.status)) {
          observe('custom-signing-keys.put.status', 'a 2048-bit RSA key answered', String(least.status));
          return;
        }
        for (const bits of LARGER_RSA_SIZES) {
          const { publicKey } = await rsaKeyPairOfSize(bits);
          const key = { ...(await exportJWK(publicKey)), kid: `conformance-rsa-${bits}` };
          const ex = await putJson(api, [key]);
          must(rsaSizes.customSigningKeysPutJson, is2xx(ex.status), {
            expected: `the ${bits}-bit RSA key taken (2xx), as the 2048-bit one was`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          mustMatchSchema('jwks', ex.json, ex);
          const differ = keysDiffer([key], ex.json);
          must(rsaSizes.customSigningKeysPutJson, differ === undefined, {
            expected: `the ${bits}-bit RSA key answered as sent`,
            actual: differ ?? '',
            exchange: ex,
          });
        }
      });
    },
  );

  const sets = declareRules('custom-signing-keys.put.replaces', 'custom-signing-keys.put.json', schemaRules('jwks'));
  test(
    'should answer exactly the keys sent, told apart by their members and not by kid, for sets of 1, 2, 3, 4 and 25 keys, with kid on every key, on none, on one or spelt as JSON literals, optional members present or absent, the key types it takes mixed',
    sets,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const taken = await takenKeyTypes(api, config);
        for (const [n, set] of KEY_SETS.entries()) {
          const keys = await keysOf(set, taken, `set-${n}`);
          const ex = await putJson(api, keys);
          if (mayRefuse(set) && is4xx(ex.status)) {
            observe('custom-signing-keys.put.status', `a JWKS of ${set.what} answered`, String(ex.status));
            continue;
          }
          mustSucceed(sets.customSigningKeysPutJson, ex);
          mustMatchSchema('jwks', ex.json, ex);
          // The PUT replaces the set with the keys sent: as many keys, each as sent, in any order, whatever
          // kid the server gives a key sent without one.
          const differ = keysDiffer(keys, ex.json);
          must(sets.customSigningKeysPutReplaces, differ === undefined, {
            expected: `exactly the ${set.what} (types ${[...new Set(keys.map((k) => k.kty))].join(', ')}), each answered with every member as sent`,
            actual: differ ?? '',
            exchange: ex,
          });
        }
      });
    },
  );

  const sameAsJson = declareRules(
    'custom-signing-keys.put.form',
    'custom-signing-keys.put.json',
    'custom-signing-keys.put.replaces',
  );
  test(
    'should give a JWKS sent form-encoded the verdict and the keys it gives the same JWKS sent as JSON, for sets of 1, 2, 3, 4, 5 and 25 keys, kids spelt as JSON literals, kids beyond ASCII and a key with its certificate chain among them (relation), where it reads a form-encoded JWKS',
    sameAsJson,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async () => {
        // How a JWKS is form-encoded is not shown: the relation holds where the target reads one key in
        // bracket notation as the key sent.
        const one = [await publicJwk('conformance-form-relation')];
        const first = await putForm(api, one);
        const reads = is2xx(first.status) && keysDiffer(one, first.json) === undefined;
        observe(
          'custom-signing-keys.put.status',
          'a form-encoded JWKS of one key answered',
          `${first.status}${reads ? ', the key as sent' : ''}`,
        );
        test.skip(
          !reads,
          `The target does not read a JWKS of one key in bracket notation (answered ${first.status}); the form encoding of a JWKS is not shown`,
        );
        const taken = await takenKeyTypes(api, config);
        // Against an external target, the sets that decide the most: 2 keys without kid, 25 keys, a certificate chain.
        const chosen = KEY_SETS.filter(
          (s, i) => config.embedded || i === 1 || i === 4 || s.certified || s.kid === 'literal' || s.kid === 'text',
        );
        for (const [n, set] of chosen.entries()) {
          const keys = await keysOf(set, taken, `form-${n}`);
          const asJson = await putJson(api, keys);
          const asForm = await putForm(api, keys);
          for (const ex of [asJson, asForm])
            must(sameAsJson.customSigningKeysPutForm, ex.status < 500, {
              expected: `${set.what}: an answer, not a server error`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          if (!is2xx(asJson.status)) {
            // Refused as JSON (a choice the document leaves it, see mayRefuse): refused form-encoded too.
            must(sameAsJson.customSigningKeysPutJson, !is2xx(asForm.status), {
              expected: `${set.what}: refused form-encoded as it is as JSON (${asJson.status})`,
              actual: `status ${asForm.status} form-encoded`,
              exchange: asForm,
            });
            continue;
          }
          // Taken as JSON, the keys sent are the resulting keys (a difference there is not the form's)…
          const differJson = keysDiffer(keys, asJson.json);
          must(sameAsJson.customSigningKeysPutReplaces, differJson === undefined, {
            expected: `${set.what}, as JSON: the ${keys.length} keys answered as sent`,
            actual: differJson ?? '',
            exchange: asJson,
          });
          // …and the same keys form-encoded are taken, and answered as sent too.
          const differ = is2xx(asForm.status) ? keysDiffer(keys, asForm.json) : `status ${asForm.status}`;
          must(sameAsJson.customSigningKeysPutForm, differ === undefined, {
            expected: `${set.what}: taken form-encoded as it is as JSON (${asJson.status}), the ${keys.length} keys answered as sent`,
            actual: differ ?? '',
            exchange: asForm,
          });
        }
      });
    },
  );

  const jsonSpelt = declareRules('custom-signing-keys.put.json', 'custom-signing-keys.put.replaces');
  test(
    'should read a JWKS sent as JSON in every spelling RFC 8259 makes the same value (white space between tokens, every string and member name in \\u escapes, an escaped solidus) and answer the keys sent',
    jsonSpelt,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        // A key with its certificate chain: x5c holds / and +, so the escaped solidus is tried too.
        const keys = [chainedJwk('conformance-json-spellings', CHAIN.length)];
        for (const { what, text } of jsonSpellings({ keys })) {
          const ex = await api.put(KEYS_PATH, { body: text, contentType: 'application/json' });
          mustSucceed(jsonSpelt.customSigningKeysPutJson, ex);
          const differ = is2xx(ex.status) ? keysDiffer(keys, ex.json) : `status ${ex.status}`;
          must(jsonSpelt.customSigningKeysPutReplaces, differ === undefined, {
            expected: `the key sent, every member as sent, to the JWKS sent as JSON ${what}`,
            actual: differ ?? '',
            exchange: ex,
          });
        }
      });
    },
  );

  const spellings = declareRules('custom-signing-keys.put.json');
  test(
    'should take a JWKS in every spelling of application/json RFC 9110 makes the same (case, charset parameter)',
    spellings,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async () => {
        await fc.assert(
          fc.asyncProperty(mediaTypeSpellings('application/json'), async (type) => {
            const key = await publicJwk('conformance-spelt-1');
            const ex = await api.put(KEYS_PATH, { body: JSON.stringify({ keys: [key] }), contentType: type });
            must(
              spellings.customSigningKeysPutJson,
              ex.status >= 200 && ex.status < 300 && keysDiffer([key as SentKey], ex.json) === undefined,
              {
                expected: `a 2xx answering the key sent (Content-Type ${type} is application/json)`,
                actual: `status ${ex.status}`,
                exchange: ex,
              },
            );
          }),
          fcParams(config, 4),
        );
      });
    },
  );

  const chains = declareRules('custom-signing-keys.put.json', 'custom-signing-keys.put.replaces', 'jwk.types');
  test(
    'should answer x5c member for member as sent for chains of 1, 2 and 3 certificates (RFC 7517 4.7), alone and together in one set',
    chains,
    async ({ api }) => {
      // Each length alone, then the three in one set (each key its own kid).
      const sets: SentKey[][] = [
        ...[1, 2, 3].map((n) => [chainedJwk(`conformance-chain-${n}`, n)]),
        [3, 2, 1].map((n) => chainedJwk(`conformance-chains-${n}`, n)),
      ];
      await withCustomSigningKeysRestored(api, async () => {
        for (const sent of sets) {
          const ex = await putJson(api, sent);
          mustSucceed(chains.customSigningKeysPutJson, ex);
          const differ = keysDiffer(sent, ex.json);
          must(chains.customSigningKeysPutReplaces, differ === undefined, {
            expected: `the key(s) sent, x5c of ${sent.map((k) => (k.x5c as string[]).length).join(', ')} certificate(s) each as sent, in order`,
            actual: differ ?? '',
            exchange: ex,
          });
        }
      });
    },
  );

  const unicodeKid = declareRules('custom-signing-keys.put.json', 'http.json-bodies');
  test(
    'should answer a kid in any script as sent, in UTF-8 JSON, where it takes it (beyond the BMP included), and alike when it is spelt in \\u escapes',
    unicodeKid,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const kids = [
          'conformance-clé-é',
          'conformance-ключ-鍵',
          'conformance-🔑-𝒦',
          // Spellings Unicode makes equivalent, each a kid of its own (RFC 7515 4.1.4: a case-sensitive
          // string; RFC 8259 8.3: compared code unit by code unit): answered as sent, never normalised.
          ...UNICODE_SPELLINGS.map((s) => `conformance-${s.value}`),
        ];
        for (const kid of kids) {
          const key = await publicJwk(kid);
          const ex = await putJson(api, [key]);
          // The format of kid is not shown: a refusal is the target's choice, and is observed.
          if (ex.status >= 400 && ex.status < 500) {
            observe('custom-signing-keys.put.status', 'a non-ASCII kid answered', String(ex.status));
            continue;
          }
          mustBeJson(unicodeKid.httpJsonBodies, ex);
          must(unicodeKid.customSigningKeysPutJson, keysDiffer([key as SentKey], ex.json) === undefined, {
            expected: `the key answered with kid ${JSON.stringify(kid)}, as sent`,
            actual: `status ${ex.status}, ${keysDiffer([key as SentKey], ex.json) ?? ''}`,
            exchange: ex,
          });
          // Taken, the same kid spelt in \u escapes, code unit by code unit (a character beyond the BMP as its
          // escaped surrogate pair, RFC 8259 7), is the same string once parsed: taken and answered alike.
          const escaped = await api.put(KEYS_PATH, {
            body: escapedJson({ keys: [key] }),
            contentType: 'application/json',
          });
          must(
            unicodeKid.customSigningKeysPutJson,
            is2xx(escaped.status) && keysDiffer([key as SentKey], escaped.json) === undefined,
            {
              expected: `the key answered with kid ${JSON.stringify(kid)}, as sent in \\u escapes (the same JSON value), as it was sent plain`,
              actual: `status ${escaped.status}${is2xx(escaped.status) ? `, ${keysDiffer([key as SentKey], escaped.json) ?? ''}` : ''}`,
              exchange: escaped,
            },
          );
        }
      });
    },
  );

  /**
   * The private members of a JWK by key type: RFC 7518 6.2.2 (EC d), 6.3.2 (RSA d, p, q, dp, dq, qi, oth),
   * 6.4.1 (oct k) and RFC 8037 2 (OKP d). A public key set holds none of them, whatever the kty.
   */
  const PRIVATE_BY_KTY: Readonly<Record<string, readonly string[]>> = {
    EC: ['d'],
    RSA: ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'],
    oct: ['k'],
    OKP: ['d'],
  };
  const PRIVATE = [...new Set(Object.values(PRIVATE_BY_KTY).flat())];
  /** A private JWK of a signing key type (its public part with every private member RFC 7518 / 8037 gives it). */
  const privateJwkOf = async (type: SigningKeyType) =>
    exportJWK((await keyPairFor('crv' in type ? type.crv : type.alg)).privateKey) as Promise<Record<string, unknown>>;
  /** The symmetric key: kty oct holds its secret k, nothing public (RFC 7518 6.4). */
  const OCT_KEY = { kty: 'oct', k: 'Y29uZm9ybWFuY2Utc2hhcmVkLXNlY3JldA' };
  const publicOnly = declareRules('custom-signing-keys.put.public-only');
  test(
    'should not store or answer the private part of a key, sent as JSON (also spelt in escapes) or form-encoded: the private key of every signing key type (EC, RSA, OKP Ed25519), a symmetric key',
    publicOnly,
    async ({ api, config }) => {
      // Every key type tried (keyTypesFor), as its whole private JWK; a type the target does not take is refused
      // anyway, which the rule admits.
      const keys: Array<[string, Record<string, unknown>]> = [];
      for (const type of keyTypesFor(config)) {
        const jwk = await privateJwkOf(type);
        const members = PRIVATE_BY_KTY[String(jwk.kty)]!.filter((m) => m in jwk);
        keys.push([`an ${type.what} private key (${members.join(', ')})`, jwk]);
      }
      keys.push(['a symmetric key (kty oct, k)', OCT_KEY]);
      await withCustomSigningKeysRestored(api, async () => {
        // Both request content types the operation takes: a key's members are checked alike in each. And JSON
        // with every member name and string in \u escapes (RFC 8259 7: the same keys once parsed), which a check
        // of the raw text for "d" or "k" does not see.
        const sent = (jwk: Record<string, unknown>, as: (typeof SENT)[number]) => {
          const keys = [{ ...jwk, kid: 'conformance-private-1', use: 'sig' }];
          return as === 'JSON'
            ? putJson(api, keys)
            : as === 'form'
              ? putForm(api, keys)
              : api.put(KEYS_PATH, { body: escapedJson({ keys }), contentType: 'application/json' });
        };
        const SENT = ['JSON', 'form', 'JSON spelt in \\u escapes'] as const;
        for (const [kind, jwk] of keys)
          for (const as of SENT) {
            const what = `${kind}, sent as ${as}`;
            const ex = await sent(jwk, as);
            const answered = byKid(ex.json).get('conformance-private-1');
            const leaked = PRIVATE.filter((m) => answered && m in answered);
            const refused = ex.status >= 400 && ex.status < 500;
            must(publicOnly.customSigningKeysPutPublicOnly, refused || (ex.status < 300 && leaked.length === 0), {
              expected: `${what}: a 4xx, or the key answered without its private members`,
              actual: `status ${ex.status}${leaked.length ? `, answered with ${leaked.join(', ')}` : ''}`,
              exchange: ex,
            });
          }
      });
    },
  );

  /** The stored set as the snapshot read answers it (GET is not shown: called only where it is offered). */
  const storedKeys = async (api: Api) => {
    const ex = await api.get(KEYS_PATH);
    const keys = ex.status >= 200 && ex.status < 300 ? ((ex.json as { keys?: unknown })?.keys ?? []) : [];
    return { ex, keys: Array.isArray(keys) ? (keys as Array<Record<string, unknown>>) : [] };
  };
  const kidList = (keys: ReadonlyArray<Record<string, unknown>>) => JSON.stringify(keys.map((k) => k.kid).sort());
  /** Each private member found in a set of keys, as `kid: member`. */
  const privateIn = (keys: ReadonlyArray<Record<string, unknown>>) =>
    keys.flatMap((k) =>
      PRIVATE.filter((m) => k && typeof k === 'object' && m in k).map((m) => `${String(k.kid)}: ${m}`),
    );

  const anyMember = declareRules('custom-signing-keys.put.public-only', 'custom-signing-keys.put.json');
  test(
    'should never take a private member, each alone, of every signing key type (RFC 7518 6.2.2 EC d; 6.3.2 RSA d, p, q, dp, dq, qi, oth; 6.4.1 oct k; RFC 8037 2 OKP d), on a bare key and on one with every member (a certificate chain included), at any position of a set: refused and nothing stored, or stored and answered without it',
    anyMember,
    async ({ api, config }) => {
      // Every key type tried (keyTypesFor) × each of its private members alone, on the public part of its key
      // (for oth, RFC 7518 6.3.2.7: an array of r, d, t), and the symmetric key's k.
      const withMember: Array<[string, Record<string, unknown>]> = [];
      for (const type of keyTypesFor(config)) {
        const jwk = await privateJwkOf(type);
        const kty = String(jwk.kty);
        const publicPart = Object.fromEntries(Object.entries(jwk).filter(([m]) => !PRIVATE_BY_KTY[kty]!.includes(m)));
        // Each member on the bare key, and on the key with every member RFC 7517 4 defines (a certificate chain
        // too, where one is at hand): a server that looks for private members only in keys of one shape (none
        // where x5c vouches for the key) takes it there.
        const everyMember = await everyMemberJwk(type, 'conformance-private', X5U_URIS[0], 1);
        const shape = `on a key with every member RFC 7517 4 defines (use, key_ops, alg, x5u${'x5c' in everyMember ? ', x5c, x5t, x5t#S256' : ''})`;
        for (const m of PRIVATE_BY_KTY[kty]!) {
          const member = { [m]: m === 'oth' ? [{ r: jwk.p, d: jwk.dp, t: jwk.qi }] : jwk[m] };
          withMember.push([`${type.what} ${m}`, { ...publicPart, ...member }]);
          withMember.push([`${type.what} ${m}, ${shape}`, { ...everyMember, ...member }]);
        }
      }
      withMember.push(['oct k', OCT_KEY]);
      const others = [await publicJwk('conformance-pub-a'), await publicJwk('conformance-pub-b')];
      // Sets of three, the key with the private member at each position (against an external target, each
      // member once, its position in turn).
      const cases = withMember.flatMap(([what, key], i) =>
        [0, 1, 2]
          .filter((at) => config.embedded || at === i % 3)
          .map((at) => ({
            what,
            at,
            set: others.slice(0, at).concat([{ ...key, kid: `conformance-private-${i}-${at}` }], others.slice(at)),
          })),
      );
      await withCustomSigningKeysRestored(api, async (readable) => {
        const baseline = [await publicJwk('conformance-baseline-1')];
        mustSucceed(anyMember.customSigningKeysPutJson, await putJson(api, baseline));
        let expected = kidList(baseline as Array<Record<string, unknown>>);
        for (const { what, at, set } of cases) {
          const ex = await putJson(api, set);
          const answered = byKid(ex.json);
          const leaked = privateIn([...answered.values()]);
          const refused = ex.status >= 400 && ex.status < 500;
          must(anyMember.customSigningKeysPutPublicOnly, refused || (ex.status < 300 && leaked.length === 0), {
            expected: `a key with ${what} alone, at position ${at} of ${set.length}: a 4xx, or the set answered without its private members`,
            actual: `status ${ex.status}${leaked.length ? `, answered with ${leaked.join(', ')}` : ''}`,
            exchange: ex,
          });
          // Accepted: what is stored holds no private member either (read back where the read is offered).
          if (refused || !readable) continue;
          const stored = await storedKeys(api);
          expected = kidList(stored.keys);
          must(anyMember.customSigningKeysPutPublicOnly, privateIn(stored.keys).length === 0, {
            expected: `the stored set, read back, without the private member of the key sent (${what})`,
            actual: `stored with ${privateIn(stored.keys).join(', ')}`,
            exchange: stored.ex,
          });
        }
        // Refused: nothing stored. The set read back is the one before (the baseline, or the last accepted).
        if (!readable) return;
        const stored = await storedKeys(api);
        must(
          anyMember.customSigningKeysPutPublicOnly,
          kidList(stored.keys) === expected && privateIn(stored.keys).length === 0,
          {
            expected: `the set as before the refused PUTs (kids ${expected}), with no private member`,
            actual: `kids ${kidList(stored.keys)}${privateIn(stored.keys).length ? `, holding ${privateIn(stored.keys).join(', ')}` : ''}`,
            exchange: stored.ex,
          },
        );
      });
    },
  );

  const notForApi = declareRules('auth.jwt.signature', 'custom-signing-keys.put.json');
  test(
    "should never take a custom signing key as a signer of the interface's own tokens: the run token's claims signed by a key just set, under its kid, are refused (RFC 8725 3.8: the keys of a JWT must belong to its issuer)",
    notForApi,
    async ({ api, config }) => {
      const claims = config.runToken ? decodeJwt(config.runToken)?.payload : undefined;
      test.skip(
        !claims,
        "The run's token is not a JWS whose claims can be read: no token can be signed with its claims",
      );
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = 'conformance-signer';
      const jwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', key_ops: ['verify'] };
      const forged = await new SignJWT(claims!).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);
      await withCustomSigningKeysRestored(api, async () => {
        mustSucceed(notForApi.customSigningKeysPutJson, await putJson(api, [jwk]));
        // Custom signing keys sign what the tenant issues elsewhere; the interface trusts its own issuer's keys only.
        const ex = await api.get(pathOf('event-streams.list'), { auth: { header: `Bearer ${forged}` } });
        mustRefuse(
          notForApi.authJwtSignature,
          ex,
          `the run token's claims signed by the custom signing key ${kid}, not by the tenant's token signer`,
        );
      });
    },
  );

  const otherTypes = declareRules('jwks.keys', 'jwk.types', 'custom-signing-keys.put.json');
  test(
    'should refuse keys, and each member of a key, in another JSON type than the JWK gives it (RFC 8259 3, RFC 7517 4): wrapped in an array or an object, a number, a boolean, null, the empty value of each other type, spelt as a string, and store nothing',
    otherTypes,
    async ({ api, config }) => {
      const key: Record<string, unknown> = { ...certifiedJwk('conformance-types'), use: 'sig', key_ops: ['verify'] };
      // Against an external target, two of each member's partitions (wrapped in an array, in an object).
      const some = <T>(all: T[]) => (config.embedded ? all : all.slice(0, 2));
      const cases: Array<{
        what: string;
        body: unknown;
        rule: typeof otherTypes.jwksKeys | typeof otherTypes.jwkTypes;
      }> = [
        ...some(otherJsonTypes([key])).map((t) => ({
          what: `keys as ${t.what}`,
          body: { keys: t.value },
          rule: otherTypes.jwksKeys,
        })),
        ...(['kty', 'kid', 'use', 'key_ops', 'x', 'y', 'x5c', 'x5t#S256'] as const).flatMap((m) =>
          some(otherJsonTypes(key[m])).map((t, i) => ({
            what: `${m} as ${t.what}`,
            body: { keys: [{ ...key, kid: `conformance-types-${m}-${i}`, [m]: t.value }] },
            rule: otherTypes.jwkTypes,
          })),
        ),
      ];
      await withCustomSigningKeysRestored(api, async (readable) => {
        const baseline = [await publicJwk('conformance-baseline-1')];
        mustSucceed(otherTypes.customSigningKeysPutJson, await putJson(api, baseline));
        for (const { what, body, rule } of cases)
          mustRefuse(
            rule,
            await api.put(KEYS_PATH, { json: body }),
            `${what}: not the JSON type of a JWKS's keys and members`,
          );
        // Refused, each of them: the set read back (where the read is offered) is still the baseline.
        if (!readable) return;
        const stored = await storedKeys(api);
        must(otherTypes.jwkTypes, kidList(stored.keys) === kidList(baseline as Array<Record<string, unknown>>), {
          expected: `the set as before the refused PUTs: kids ${kidList(baseline as Array<Record<string, unknown>>)}`,
          actual: `kids ${kidList(stored.keys)}`,
          exchange: stored.ex,
        });
      });
    },
  );

  // A key the server takes (the certificate's public key, its chain left out): the bare array of it is the value
  // of keys, unwrapped, which a server reading a bare array as the set would store.
  const { x5c: _x5c, x5t: _x5t, 'x5t#S256': _x5tS256, ...wrapped } = certifiedJwk('conformance-wrapped');
  for (const [title, body] of notAnObject({ keys: [wrapped] })) {
    const notObject = declareRules('jwks.keys');
    test(`should refuse a JWKS that is not an object: ${title}`, notObject, async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const ex = await api.put(KEYS_PATH, { json: body });
        mustRefuse(notObject.jwksKeys, ex, 'a JWKS is an object with keys');
      });
    });
  }

  // RFC 7517 4 and 4.1: a JWK is a JSON object, and its kty MUST be present (a string).
  for (const [title, key] of [
    ['a string', 'conformance'],
    ['a number', 42],
    ['null', null],
    ['an array', [{ kty: 'EC' }]],
    ['an object without kty', { kid: 'conformance-no-kty', use: 'sig' }],
    ['an object whose kty is not a string', { kid: 'conformance-kty-number', kty: 7 }],
    ['an object whose kty is empty', { kid: 'conformance-kty-empty', kty: '' }],
  ] as const) {
    const notJwk = declareRules('jwks.keys', 'http.json-error-bodies');
    test(`should refuse a key that is not a JWK: ${title}`, notJwk, async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const ex = await api.put(KEYS_PATH, { json: { keys: [key] } });
        mustRefuse(notJwk.jwksKeys, ex, `keys is an array of JWK objects; sent ${JSON.stringify(key)}`);
        mustBeJsonErrorBody(notJwk, ex);
      });
    });
  }

  /** The answered key of a kid, and the members it holds beyond those sent (kid aside), each with its value. */
  const beyondSent = (json: unknown, kid: string, sent: Record<string, unknown>) => {
    const key = byKid(json).get(kid);
    return new Map(Object.entries(key ?? {}).filter(([m]) => m !== 'kid' && !(m in sent)));
  };
  /**
   * The members of `got` (beyond those sent) that hold the value the key stored before under the same kid had, and
   * that `control` (the same key answered under a kid never stored) does not hold alike: the stored key's members
   * kept. A member the server adds of its own (a default, a time) is answered alike under a new kid, or is none of
   * the stored key's.
   */
  const keptFrom = (stored: Record<string, unknown>, got: Map<string, unknown>, control: Map<string, unknown>) =>
    [...got]
      .filter(([m, v]) => m in stored && sameJson(stored[m], v) && !(control.has(m) && sameJson(control.get(m), v)))
      .map(([m]) => m);

  const sameKid = declareRules('custom-signing-keys.put.replaces', 'custom-signing-keys.put.json', schemaRules('jwks'));
  test(
    'should replace a stored key by the key sent under its kid, member for member: no member of the stored key that the key sent leaves out is kept (use, key_ops, alg, x5u, x5c, x5t, x5t#S256; crv, x, y of a key of another type or material), the key answered and stored as the same key sent under a kid never stored is (relation)',
    sameKid,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async (readable) => {
        const p256 = SIGNING_KEY_TYPES[0];
        // The stored key: EC P-256 with every member RFC 7517 4 defines, its certificate chain of three among them.
        const full = (kid: string) => everyMemberJwk(p256, kid, X5U_URIS[1], CHAIN.length);
        const leaf = (kid: string) => {
          const { kty, crv, x, y } = chainedJwk(kid, 1);
          return { kty, crv, x, y, kid };
        };
        // Partition of what the key sent second under the same kid leaves out: every optional member (the same
        // key material), all but use, the certificate and its key material (another P-256 key), the key type
        // (each other type the target takes).
        const others = (await takenKeyTypes(api, config)).filter((t) => t !== p256);
        const cases: Array<{ what: string; second: (kid: string) => Promise<SentKey> }> = [
          { what: 'the same key, bare (kty, crv, x, y, kid)', second: async (kid) => leaf(kid) },
          { what: 'the same key with use only', second: async (kid) => ({ ...leaf(kid), use: 'sig' }) },
          {
            what: 'another EC P-256 key, bare',
            second: async (kid) => (await publicSigningJwk(p256, { kid })) as SentKey,
          },
          ...others.map((t) => ({
            what: `a key of another type, ${t.what}, bare`,
            second: async (kid: string) => (await publicSigningJwk(t, { kid })) as SentKey,
          })),
        ];
        for (const [i, c] of cases.entries()) {
          const kid = `conformance-same-kid-${i}`;
          const first = await full(kid);
          const stored = await putJson(api, [first]);
          if (!is2xx(stored.status)) {
            // Whether a server takes an x5u it cannot fetch is not shown (see the key types check): observed.
            observe(
              'custom-signing-keys.put.status',
              'an EC P-256 key with every member answered',
              String(stored.status),
            );
            continue;
          }
          const second = await c.second(kid);
          const ex = await putJson(api, [second]);
          mustSucceed(sameKid.customSigningKeysPutJson, ex);
          mustMatchSchema('jwks', ex.json, ex);
          const differ = keysDiffer([second], ex.json);
          must(sameKid.customSigningKeysPutReplaces, differ === undefined, {
            expected: `the key sent (${c.what}) answered as sent`,
            actual: differ ?? '',
            exchange: ex,
          });
          const back = readable ? await storedKeys(api) : undefined;
          // The control: the same key under a kid never stored, which no earlier key can have left members in.
          const controlKid = `${kid}-control`;
          const controlSent = { ...second, kid: controlKid };
          const control = await putJson(api, [controlSent]);
          mustSucceed(sameKid.customSigningKeysPutJson, control);
          const own = beyondSent(control.json, controlKid, controlSent);
          const kept = keptFrom(first, beyondSent(ex.json, kid, second), own);
          must(sameKid.customSigningKeysPutReplaces, kept.length === 0, {
            expected: `the key sent under kid ${kid} (${c.what}) answered with the members sent${own.size ? ` and those the same key sent under a kid never stored is answered with (${[...own.keys()].join(', ')})` : ''}: the PUT replaces the entire set, the key stored before under that kid included`,
            actual: `answered besides with the stored key's ${kept.join(', ')}`,
            exchange: ex,
          });
          if (!back) continue;
          const keptStored = keptFrom(first, beyondSent(back.ex.json, kid, second), own);
          must(sameKid.customSigningKeysPutReplaces, byKid(back.ex.json).has(kid) && keptStored.length === 0, {
            expected: `the set read back after the PUT: the key sent under kid ${kid} (${c.what}) with the members sent, none of the key stored before under that kid`,
            actual: byKid(back.ex.json).has(kid)
              ? `stored besides with the earlier key's ${keptStored.join(', ')}`
              : `no key with kid ${kid}`,
            exchange: back.ex,
          });
        }
      });
    },
  );

  const framed = declareRules(
    'custom-signing-keys.put.json',
    'custom-signing-keys.put.form',
    'custom-signing-keys.put.replaces',
  );
  test(
    'should read a JWKS sent with Transfer-Encoding: chunked (RFC 9112 6.1, 7.1: in one chunk, in two halves, a chunk per byte), as JSON and form-encoded, as the same JWKS sent with Content-Length: the same verdict, and the keys sent answered and stored; or refuse it 411 Length Required (RFC 9110 15.5.12) (partition of message framing)',
    framed,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async (readable) => {
        for (const media of ['JSON', 'form-encoded'] as const)
          for (const [i, framing] of CHUNKED_FRAMINGS.entries()) {
            // A key of its own each way, so that what is stored tells which of the two PUTs it came from.
            const sizedKeys = [await publicJwk(`conformance-framing-${i}-length`)];
            const chunkedKeys = [await publicJwk(`conformance-framing-${i}-chunked`)];
            const encode = (keys: unknown[]) =>
              media === 'JSON' ? JSON.stringify({ keys }) : qsStringify({ keys }, { encodeValuesOnly: true });
            const contentType = media === 'JSON' ? 'application/json' : 'application/x-www-form-urlencoded';
            const rule = media === 'JSON' ? framed.customSigningKeysPutJson : framed.customSigningKeysPutForm;
            const sized = await api.put(KEYS_PATH, { body: encode(sizedKeys), contentType });
            const ex = await sendChunked(api, 'PUT', KEYS_PATH, encode(chunkedKeys), contentType, framing);
            if (ex.status === LENGTH_REQUIRED) {
              observe('custom-signing-keys.put.status', `a JWKS sent ${framing.what} answered`, String(ex.status));
              continue;
            }
            must(rule, is2xx(ex.status) === is2xx(sized.status), {
              expected: `the verdict the same JWKS sent ${media} with Content-Length gets (${sized.status}): RFC 9112 7.1, "A recipient MUST be able to parse the chunked transfer coding"; or 411 Length Required`,
              actual: `status ${ex.status} to it sent ${framing.what}`,
              exchange: ex,
            });
            // Taken both ways, the keys sent chunked are answered as sent wherever those sent with Content-Length
            // are (how a JWKS is form-encoded is not shown: a form the target does not read as sent is left).
            if (!is2xx(ex.status) || keysDiffer(sizedKeys, sized.json) !== undefined) continue;
            const differ = keysDiffer(chunkedKeys, ex.json);
            must(framed.customSigningKeysPutReplaces, differ === undefined, {
              expected: `the key sent ${media}, ${framing.what}, answered as sent, as the one sent with Content-Length was`,
              actual: differ ?? '',
              exchange: ex,
            });
            if (!readable) continue;
            const back = await storedKeys(api);
            const stored = is2xx(back.ex.status) ? keysDiffer(chunkedKeys, back.ex.json) : `status ${back.ex.status}`;
            must(framed.customSigningKeysPutReplaces, stored === undefined, {
              expected: `the set read back: the key sent ${media}, ${framing.what}, alone`,
              actual: stored ?? '',
              exchange: back.ex,
            });
          }
      });
    },
  );

  // Partition by the state before the request: nothing stored by this check (the tenant's set as found), a set of
  // one key stored, a set of several. "minimum 1 item" holds in each; a refused PUT leaves the set as it was (read
  // back where the read is offered): a server that validates only when it creates the set takes it as "remove all".
  for (const [title, body] of [
    ['an empty keys array', { keys: [] }],
    ['no keys member', {}],
  ] as const) {
    const minOneKey = declareRules(
      'custom-signing-keys.put.min-one-key',
      'custom-signing-keys.put.json',
      'http.json-error-bodies',
    );
    test(
      `should refuse a JWKS with ${title} whatever set is stored before it (as found, one key, three keys), and leave the stored set as it was`,
      minOneKey,
      async ({ api }) => {
        await withCustomSigningKeysRestored(api, async (readable) => {
          const ex = await api.put(KEYS_PATH, { json: body });
          mustRefuse(minOneKey.customSigningKeysPutMinOneKey, ex, 'the keys array has minimum 1 item');
          mustBeJsonErrorBody(minOneKey, ex);
          for (const size of [1, 3]) {
            const set: SentKey[] = [];
            for (let i = 1; i <= size; i++) set.push((await publicJwk(`conformance-min-${size}-${i}`)) as SentKey);
            mustSucceed(minOneKey.customSigningKeysPutJson, await putJson(api, set));
            const refused = await api.put(KEYS_PATH, { json: body });
            mustRefuse(
              minOneKey.customSigningKeysPutMinOneKey,
              refused,
              `the keys array has minimum 1 item, with a set of ${size} key(s) stored before the PUT as without one`,
            );
            mustBeJsonErrorBody(minOneKey, refused);
            if (!readable) continue;
            const stored = await storedKeys(api);
            const differ = is2xx(stored.ex.status) ? keysDiffer(set, stored.ex.json) : `status ${stored.ex.status}`;
            must(minOneKey.customSigningKeysPutMinOneKey, differ === undefined, {
              expected: `the set stored before the refused PUT of ${JSON.stringify(body)}, read back: the ${size} key(s) ${set.map((k) => k.kid).join(', ')}`,
              actual: differ ?? '',
              exchange: stored.ex,
            });
          }
        });
      },
    );
  }

  const nearNames = declareRules('custom-signing-keys.put.min-one-key', 'jwks.keys', 'http.json-error-bodies');
  test(
    'should refuse a JWKS whose keys, or a key whose kty, is spelt otherwise: another case, white space, an invisible or look-alike character (RFC 8259 8.3: member names match exactly; RFC 7517 4.1, 5: kty and keys must be present), or whose keys are one level down, under a wrapper a client framework adds',
    nearNames,
    async ({ api, config }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const key = await publicJwk('conformance-near-names');
        const some = <T>(all: T[]) => (config.embedded ? all : all.slice(0, 1));
        for (const { what, name } of some(nearMemberNames('keys'))) {
          const ex = await api.put(KEYS_PATH, { json: { [name]: [key] } });
          mustRefuse(
            nearNames.customSigningKeysPutMinOneKey,
            ex,
            `the JWKS has no keys member: it holds ${JSON.stringify(name)} (keys ${what})`,
          );
          mustBeJsonErrorBody(nearNames, ex);
        }
        for (const { what, body } of some(wrappedMember('keys', [key], 'custom_signing_key'))) {
          const ex = await api.put(KEYS_PATH, { json: body });
          mustRefuse(
            nearNames.customSigningKeysPutMinOneKey,
            ex,
            `the JWKS has no keys member at its top: it holds ${JSON.stringify(Object.keys(body))} (keys ${what})`,
          );
          mustBeJsonErrorBody(nearNames, ex);
        }
        for (const { what, name } of some(nearMemberNames('kty'))) {
          const { kty, ...rest } = key as { kty: string };
          const ex = await api.put(KEYS_PATH, { json: { keys: [{ ...rest, [name]: kty }] } });
          mustRefuse(
            nearNames.jwksKeys,
            ex,
            `the key has no kty member: it holds ${JSON.stringify(name)} (kty ${what})`,
          );
          mustBeJsonErrorBody(nearNames, ex);
        }
      });
    },
  );

  /**
   * Partition of a JWK's member names by uniqueness. RFC 7517 4: "The member names within a JWK MUST be unique;
   * JWK parsers MUST either reject JWKs with duplicate member names or use a JSON parser that returns only the
   * lexically last duplicate member name" (5: the same of a JWK Set; RFC 7515 4, RFC 8259 4). Sent as raw JSON
   * text (JSON.stringify writes no duplicate): a member given twice, next to each other and apart, three times, and
   * each of kid, kty, use, alg and keys, whose last value makes a key the target takes where the first would not
   * (kty RSA over EC material, use enc, alg ES384 of a P-256 key). Refused (a 4xx) or taken with the last value,
   * answered and stored so; never the first, never a 5xx.
   */
  const duplicated = declareRules('custom-signing-keys.put.replaces', 'custom-signing-keys.put.json');
  test(
    'should refuse a JWKS with a member name given twice, or take the lexically last of its values (RFC 7517 4, 5): kid twice (next to each other and apart) and three times, kty, use and alg twice, keys twice; never the first value',
    duplicated,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async (readable) => {
        const base = await publicSigningJwk(SIGNING_KEY_TYPES[0]);
        /** A key's JSON text with `member` given each of `values` in turn: all first, or the first first and the others last. */
        const keyText = (rest: Record<string, unknown>, member: string, values: unknown[], apart: boolean) => {
          const pair = (v: unknown) => `${JSON.stringify(member)}:${JSON.stringify(v)}`;
          const inner = JSON.stringify(rest).slice(1, -1);
          const [head, ...tail] = values.map(pair);
          return apart ? `{${head},${inner},${tail.join(',')}}` : `{${[head, ...tail].join(',')},${inner}}`;
        };
        const cases: Array<{ what: string; text: string; last: SentKey[]; first: SentKey[] }> = [];
        const onKey = (what: string, member: string, values: unknown[], apart: boolean, kid?: string) => {
          const { [member]: _drop, ...rest } = { ...base, ...(kid ? { kid } : {}) } as Record<string, unknown>;
          const last = { ...rest, [member]: values.at(-1) } as SentKey;
          const first = { ...rest, [member]: values[0] } as SentKey;
          cases.push({
            what,
            text: `{"keys":[${keyText(rest, member, values, apart)}]}`,
            last: [last],
            first: [first],
          });
        };
        onKey('kid twice, next to each other', 'kid', ['conformance-dup-first', 'conformance-dup-last'], false);
        onKey(
          'kid twice, apart (first and last member)',
          'kid',
          ['conformance-dup-a-first', 'conformance-dup-a-last'],
          true,
        );
        onKey('kid three times', 'kid', ['conformance-dup-1', 'conformance-dup-2', 'conformance-dup-3'], false);
        onKey('kty twice, RSA then EC (the key material is EC)', 'kty', ['RSA', 'EC'], true, 'conformance-dup-kty');
        onKey('use twice, enc then sig', 'use', ['enc', 'sig'], false, 'conformance-dup-use');
        onKey('alg twice, ES384 then ES256 (a P-256 key)', 'alg', ['ES384', 'ES256'], true, 'conformance-dup-alg');
        // The JWK Set's own member given twice, each time with a key of its own.
        const setFirst = { ...base, kid: 'conformance-dup-keys-first' } as SentKey;
        const setLast = { ...(await publicJwk('conformance-dup-keys-last')) } as SentKey;
        cases.push({
          what: 'keys twice, each with a key of its own',
          text: `{"keys":${JSON.stringify([setFirst])},"keys":${JSON.stringify([setLast])}}`,
          last: [setLast],
          first: [setFirst],
        });
        for (const c of cases) {
          const ex = await api.put(KEYS_PATH, { body: c.text, contentType: 'application/json' });
          must(duplicated.customSigningKeysPutJson, is2xx(ex.status) || is4xx(ex.status), {
            expected: `a 2xx (the lexically last value taken) or a 4xx (the duplicate refused): ${c.what}, never a 5xx`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          if (!is2xx(ex.status)) continue;
          const differ = keysDiffer(c.last, ex.json);
          must(duplicated.customSigningKeysPutReplaces, differ === undefined, {
            expected: `the key with the last value of the member given twice (${c.what}), answered as the resulting keys`,
            actual: keysDiffer(c.first, ex.json) === undefined ? `the first value kept: ${differ}` : (differ ?? ''),
            exchange: ex,
          });
          if (!readable) continue;
          const back = await storedKeys(api);
          const stored = is2xx(back.ex.status) ? keysDiffer(c.last, back.ex.json) : `status ${back.ex.status}`;
          must(duplicated.customSigningKeysPutReplaces, stored === undefined, {
            expected: `the set read back: the key with the last value of the member given twice (${c.what})`,
            actual: stored ?? '',
            exchange: back.ex,
          });
        }
      });
    },
  );

  const jsonRequestBodies = declareRules('http.json-request-bodies', 'http.json-error-bodies');
  test(
    'should refuse a body sent as JSON that is not JSON, a valid JWKS with more around it included (RFC 8259 2)',
    jsonRequestBodies,
    async ({ api }) => {
      await withCustomSigningKeysRestored(api, async () => {
        const valid = JSON.stringify({ keys: [await publicJwk('conformance-not-json-text')] });
        await mustRefuseNotJson(
          jsonRequestBodies,
          (body) => api.put(KEYS_PATH, { body, contentType: 'application/json' }),
          [{ what: 'a valid JWKS', text: valid }],
        );
      });
    },
  );
});

authChecks(
  'custom-signing-keys.put',
  async (api, _c, auth) => api.put(KEYS_PATH, { auth, json: { keys: [await publicJwk('conformance-auth')] } }),
  {
    around: (api, _c, fn) => withCustomSigningKeysRestored(api, fn),
  },
);
// The other request content type the operation takes (form-encoded, as the form checks above send it): each is
// guarded alike.
authChecks(
  'custom-signing-keys.put',
  async (api, _c, auth) =>
    api.put(KEYS_PATH, {
      auth,
      body: qsStringify({ keys: [await publicJwk('conformance-auth')] }, { encodeValuesOnly: true }),
      contentType: 'application/x-www-form-urlencoded',
    }),
  {
    around: (api, _c, fn) => withCustomSigningKeysRestored(api, fn),
    body: 'a form-encoded body',
  },
);
