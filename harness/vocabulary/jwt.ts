/**
 * JWTs as the checks read and forge them. Reading: what a token is (RFC 7519
 * 1: a JWS or JWE compact serialisation) and its claims, never verified (the
 * suite is a client). Forging, for the authentication checks (Errors: "401:
 * Invalid token; the JWT signature is invalid"): a tampered signature,
 * unsigned, signed by a key of the run's own, and the run's token with its
 * payload changed after signing.
 */
import { createHmac, createPublicKey, randomBytes, type JsonWebKey } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** A JWS compact serialisation (RFC 7515 7.1): three base64url segments, the signature possibly empty (alg none). */
export const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** A JWE compact serialisation (RFC 7516 7.1): five segments; the encrypted key, IV and tag may be empty. */
export const JWE_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const decodeSegment = (s: string): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * What a token is as a JWT (RFC 7519 1: "JWTs are always represented using
 * the JWS Compact Serialization or the JWE Compact Serialization"): a JWS
 * whose header (with alg) and payload are JSON objects, a JWE whose header
 * (with alg and enc) is one, or neither.
 */
export function jwtKind(token: string): 'jws' | 'jwe' | undefined {
  if (JWS_COMPACT.test(token)) {
    const jwt = decodeJwt(token);
    return jwt && typeof jwt.header.alg === 'string' ? 'jws' : undefined;
  }
  if (JWE_COMPACT.test(token)) {
    const header = decodeSegment(token.split('.')[0]!);
    return header && typeof header.alg === 'string' && typeof header.enc === 'string' ? 'jwe' : undefined;
  }
  return undefined;
}

/** Decodes a JWS-form JWT's header and payload (no verification: the suite is a client). */
export function decodeJwt(
  token: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = decodeSegment(parts[0]!);
  const payload = decodeSegment(parts[1]!);
  return header && payload ? { header, payload } : undefined;
}

/** The same JWT with one character of its signature changed. */
export function tamperSignature(token: string): string {
  const dot = token.lastIndexOf('.');
  const sig = token.slice(dot + 1);
  if (!sig) return `${token}AAAA`;
  const i = Math.floor(sig.length / 2);
  const c = sig[i] === 'A' ? 'B' : 'A';
  return `${token.slice(0, dot + 1)}${sig.slice(0, i)}${c}${sig.slice(i + 1)}`;
}

// ---------------------------------------------------------------------------
// Forged tokens

const segment = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The token's claims under `alg: none` with an empty signature (RFC 7519 6.1, an unsecured JWT). */
export function unsignedToken(token: string): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  return `${segment({ alg: 'none', typ: 'JWT' })}.${segment(jwt.payload)}.`;
}

/** The token with its payload changed by `change` and its original header and signature kept. */
export function changedPayloadToken(
  token: string,
  change: (payload: Record<string, unknown>) => Record<string, unknown>,
): string | undefined {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const [header, , signature] = token.split('.');
  return `${header}.${segment(change({ ...jwt.payload }))}.${signature}`;
}

/** Algorithms of which the suite can make a key pair of its own (the run token's, where it is one of them). */
const OWN_KEY_ALGS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
]);
const ownKeys = new Map<string, Promise<{ privateKey: CryptoKey; jwk: JWK }>>();

/** A key pair made for this run, never the tenant's (one per algorithm and worker). */
function ownKey(alg: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  let k = ownKeys.get(alg);
  if (!k) {
    k = generateKeyPair(alg, { extractable: true }).then(async ({ privateKey, publicKey }) => ({
      privateKey,
      jwk: await exportJWK(publicKey),
    }));
    ownKeys.set(alg, k);
  }
  return k;
}

/**
 * The token's claims signed by a key that is not the tenant's, under the
 * tenant's `kid` (so a verifier that picks its key by kid finds the tenant's
 * and must fail), and with `embedJwk` the key's public half in the header
 * (`jwk`, RFC 7515 4.1.3), which a verifier must not trust.
 */
export async function foreignKeyToken(token: string, embedJwk: boolean): Promise<string | undefined> {
  const jwt = decodeJwt(token);
  if (!jwt) return undefined;
  const alg = typeof jwt.header.alg === 'string' && OWN_KEY_ALGS.has(jwt.header.alg) ? jwt.header.alg : 'RS256';
  const { privateKey, jwk } = await ownKey(alg);
  const header: Record<string, unknown> = { alg, typ: 'JWT' };
  if (typeof jwt.header.kid === 'string') header.kid = jwt.header.kid;
  if (embedJwk) header.jwk = jwk;
  return new SignJWT(jwt.payload).setProtectedHeader(header as { alg: string }).sign(privateKey);
}

// ---------------------------------------------------------------------------
// Forgeries by partition: what RFC 7515, RFC 7518 and the JWT best current
// practice (RFC 8725) warn a verifier against, each made from the run's token.

/** The tenant's published verification keys (a JWKS at /.well-known/jwks.json on the auth host), or none. */
const published = new Map<string, Promise<JWK[]>>();
export function tenantPublicKeys(authUrl: string): Promise<JWK[]> {
  let p = published.get(authUrl);
  if (!p) {
    p = fetch(`${authUrl}/.well-known/jwks.json`, { signal: AbortSignal.timeout(10_000) })
      .then(async (r) => (r.ok ? (((await r.json()) as { keys?: JWK[] }).keys ?? []) : []))
      .then((keys) => keys.filter((k) => k && typeof k === 'object'))
      .catch(() => []);
    published.set(authUrl, p);
  }
  return p;
}

const hmac = (alg: 'HS256' | 'HS384' | 'HS512', secret: Buffer | string, input: string) =>
  createHmac(`sha${alg.slice(2)}`, secret)
    .update(input)
    .digest('base64url');

/** The token's claims under `header`, signed with HMAC under `secret` (a key the verifier holds as public). */
function hmacToken(header: Record<string, unknown>, payload: unknown, secret: Buffer | string): string {
  const alg = header.alg as 'HS256' | 'HS384' | 'HS512';
  const input = `${segment(header)}.${segment(payload)}`;
  return `${input}.${hmac(alg, secret, input)}`;
}

/** The forms of a public key that an HMAC-confused verifier may use as the secret. */
function publicKeyForms(jwk: JWK): Array<[string, Buffer | string]> {
  const forms: Array<[string, Buffer | string]> = [['its JWK as JSON', JSON.stringify(jwk)]];
  try {
    const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const spki = key.export({ type: 'spki', format: 'pem' }).toString();
    forms.push(['its PEM (SPKI)', spki], ['its PEM without the last newline', spki.trimEnd()]);
    if (jwk.kty === 'RSA') forms.push(['its PEM (PKCS #1)', key.export({ type: 'pkcs1', format: 'pem' }).toString()]);
  } catch {
    // A key node cannot read: its JSON form is still a secret a confused verifier could use.
  }
  if (typeof jwk.n === 'string')
    forms.push(['its modulus n', jwk.n], ['the bytes of its modulus n', Buffer.from(jwk.n, 'base64url')]);
  if (typeof jwk.x === 'string') forms.push(['its x coordinate', jwk.x]);
  return forms;
}

/**
 * Forged tokens, each a partition of what a verifier must refuse: `alg: none`
 * in other spellings, and keeping the signature (RFC 8725 3.1); HMAC signed
 * with the tenant's own public key in each form a confused verifier might
 * use as the secret (RFC 8725 2.1, 3.1); an empty HMAC secret under a kid
 * naming a file (RFC 8725 3.10); the run's token with a segment re-encoded
 * in padded or standard base64 (RFC 7515 2, 5.2: the signing input is the
 * segments as sent); a JWE the tenant never issued (RFC 7516); HMAC under
 * a secret a client holds (`clientSecrets`: [whose, secret]), as a client
 * signs its own ID tokens or assertions: a token the caller made itself, with
 * any claims it likes, which only the tenant's own key may vouch for (RFC
 * 8725 3.1, 3.2: the verifier takes only the algorithms and keys it expects).
 */
export function forgeries(
  token: string,
  tenantKeys: readonly JWK[],
  clientSecrets: ReadonlyArray<readonly [string, string]> = [],
  /** The header's typ partitions too (not in a read-only run against a tenant: it is at its request budget). */
  headerTypes = true,
): Array<{ what: string; token: string }> {
  const jwt = decodeJwt(token);
  if (!jwt) return [];
  const [h, p, sig] = token.split('.') as [string, string, string];
  const out: Array<{ what: string; token: string }> = [];
  for (const alg of ['None', 'NONE', 'nOnE'])
    out.push({ what: `alg ${alg}, no signature`, token: `${segment({ alg, typ: 'JWT' })}.${p}.` });
  out.push({ what: 'alg none with the original signature kept', token: `${segment({ alg: 'none' })}.${p}.${sig}` });
  // The header's typ in each partition a verifier may branch on (RFC 7515 4.1.9; RFC 9068 2.1: at+jwt, the
  // access-token type, and its media-type spelling; none at all), the header re-encoded and the signature kept:
  // the signature covers the header as signed (RFC 7515 5.2), so each is an altered token, whatever its type says.
  const { typ: _typ, ...untyped } = jwt.header;
  for (const [what, header] of headerTypes
    ? ([
        ['typ at+jwt (RFC 9068)', { ...untyped, typ: 'at+jwt' }],
        ['typ application/at+jwt', { ...untyped, typ: 'application/at+jwt' }],
        ['no typ', untyped],
      ] as const)
    : [])
    if (segment(header) !== h)
      out.push({
        what: `the header re-encoded with ${what}, the original signature kept`,
        token: `${segment(header)}.${p}.${sig}`,
      });
  for (const jwk of tenantKeys.slice(0, 2)) {
    const kid = typeof jwk.kid === 'string' ? jwk.kid : jwt.header.kid;
    for (const [form, secret] of publicKeyForms(jwk))
      out.push({
        what: `HS256 with the tenant's public key ${jwk.kid ?? ''} as the HMAC secret: ${form}`,
        token: hmacToken({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) }, jwt.payload, secret),
      });
  }
  for (const [i, [whose, secret]] of clientSecrets.entries()) {
    const kid = jwt.header.kid;
    // The first client's secret in each HMAC algorithm RFC 7518 3.2 defines, with and without the token's kid,
    // and read as the base64url it may look like (a verifier decoding "base64 secrets"); the others in HS256.
    const algs = i === 0 ? (['HS256', 'HS384', 'HS512'] as const) : (['HS256'] as const);
    for (const alg of algs)
      out.push({
        what: `${alg} with ${whose}'s client secret as the HMAC secret`,
        token: hmacToken({ alg, typ: 'JWT' }, jwt.payload, secret),
      });
    if (i === 0 && typeof kid === 'string')
      out.push({
        what: `HS256 with ${whose}'s client secret as the HMAC secret, under the token's kid`,
        token: hmacToken({ alg: 'HS256', typ: 'JWT', kid }, jwt.payload, secret),
      });
    if (i === 0)
      out.push({
        what: `HS256 with the bytes of ${whose}'s client secret read as base64url as the HMAC secret`,
        token: hmacToken({ alg: 'HS256', typ: 'JWT' }, jwt.payload, Buffer.from(secret, 'base64url')),
      });
  }
  out.push({
    what: 'HS256 with an empty secret, kid naming /dev/null',
    token: hmacToken({ alg: 'HS256', typ: 'JWT', kid: '../../../../../../dev/null' }, jwt.payload, ''),
  });
  if (h.length % 4 !== 0)
    out.push({ what: 'the header segment padded with =', token: `${h}${'='.repeat(4 - (h.length % 4))}.${p}.${sig}` });
  const std = Buffer.from(p, 'base64url').toString('base64');
  if (std.replace(/=+$/, '') !== p)
    out.push({ what: 'the payload segment in standard base64', token: `${h}.${std}.${sig}` });
  out.push({
    what: 'a JWE the tenant never issued (alg dir, enc A256GCM)',
    token: `${segment({ alg: 'dir', enc: 'A256GCM' })}..${randomBytes(12).toString('base64url')}.${randomBytes(64).toString('base64url')}.${randomBytes(16).toString('base64url')}`,
  });
  return out;
}

/**
 * The scope a token was granted: the token response's scope, else the token's own scope claim, else
 * (RFC 6749 5.1: scope is omitted when "identical to the scope requested") the scope requested.
 */
export function grantedScope(json: unknown, token: string, requested: string): { scope: string; from: string } {
  const answered = (json as { scope?: unknown } | undefined)?.scope;
  if (typeof answered === 'string') return { scope: answered, from: 'the token response' };
  const claim = decodeJwt(token)?.payload.scope;
  if (typeof claim === 'string') return { scope: claim, from: "the token's scope claim" };
  return { scope: requested, from: 'RFC 6749 5.1 (no scope in the response: the scope requested)' };
}

/**
 * The run's token in forms that are not a JWS compact serialisation (RFC 7515 7.1, 3.1: exactly three
 * base64url segments, BASE64URL without padding, joined by single dots; RFC 8725 2.8, 3.11: verify the
 * whole token as sent): a segment appended (empty or not), a dot doubled, whitespace inside a segment,
 * padding (in any segment, the signature's included) or the standard alphabet in a signed segment. Each must be refused as an invalid token.
 */
export function notCompactForms(token: string): Array<{ what: string; token: string }> {
  const parts = token.split('.');
  if (parts.length !== 3) return [];
  const [h, p, sig] = parts as [string, string, string];
  const out: Array<{ what: string; token: string }> = [
    { what: 'a fourth, empty segment appended (a trailing dot)', token: `${token}.` },
    { what: 'a fourth segment appended (a copy of the signature)', token: `${token}.${sig || 'AAAA'}` },
    { what: 'a fourth segment appended (a copy of the payload)', token: `${token}.${p}` },
    { what: 'the first dot doubled', token: `${h}..${p}.${sig}` },
    { what: 'the second dot doubled', token: `${h}.${p}..${sig}` },
    { what: 'a space inside the payload segment', token: `${h}.${p.slice(0, 4)} ${p.slice(4)}.${sig}` },
    { what: 'a tab inside the header segment', token: `${h.slice(0, 4)}\t${h.slice(4)}.${p}.${sig}` },
    {
      what: 'the payload segment padded with = (to a multiple of 4, or with one more)',
      token: `${h}.${p}${'='.repeat(p.length % 4 ? 4 - (p.length % 4) : 1)}.${sig}`,
    },
    {
      what: 'the signature segment padded with = (to a multiple of 4, or with one more)',
      token: `${h}.${p}.${sig}${'='.repeat(sig.length % 4 ? 4 - (sig.length % 4) : 1)}`,
    },
  ];
  // The standard alphabet (+ /) for the base64url one (- _), where the header or payload has one to swap.
  const std = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/');
  if (std(p) !== p)
    out.push({ what: 'the payload segment in the standard alphabet (+ /)', token: `${h}.${std(p)}.${sig}` });
  else if (std(h) !== h)
    out.push({ what: 'the header segment in the standard alphabet (+ /)', token: `${std(h)}.${p}.${sig}` });
  return out;
}

/** `s` with the case of its ASCII letters swapped: all of them, or only the one at `at`. */
function swapCase(s: string, at?: number): string {
  const swap = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
  if (at === undefined) return s.replace(/[A-Za-z]/g, swap);
  return at < 0 ? s : `${s.slice(0, at)}${swap(s.charAt(at))}${s.slice(at + 1)}`;
}

/**
 * The partitions of each segment of a JWS compact serialisation (RFC 7515 3.1, 7.1; BASE64URL per RFC
 * 7515 2 and RFC 4648 5: the URL-safe alphabet, no padding, no other character), applied to the run's
 * token: each segment with base64url characters appended, cut by one character and by several, its
 * letters' case swapped (all, or one), padded
 * with =, with a character outside the alphabet inside (+, /, a space, a non-ASCII letter), in the
 * standard alphabet; and the signature of `other` (another token) on the run token's header and
 * payload. Those notCompactForms already makes are left out. Every one is a token whose signature does
 * not verify over what was signed (RFC 7515 5.2: the signing input is the segments as sent, each
 * decoded with no other characters allowed),
 * or that is not a JWS: every conformant verifier refuses it.
 *
 * The opposite question, which alterations leave the same JWS: a decoder may ignore the unused bits of
 * a segment's last character (RFC 4648 3.5), so an alteration made of alphabet characters is kept only
 * where it changes the decoded bytes (their length or their value); those made of characters outside
 * the alphabet or padding change no byte but are refused by RFC 7515 5.2's decoding (steps 2, 4, 7).
 */
export function segmentPartitions(token: string, other?: string): Array<{ what: string; token: string }> {
  const parts = token.split('.');
  if (parts.length !== 3) return [];
  const names = ['header', 'payload', 'signature'] as const;
  const decoded = (s: string) => Buffer.from(s, 'base64url');
  const out: Array<{ what: string; token: string }> = [];
  // Not the forms notCompactForms makes (a fourth segment, a doubled dot, white space, padding, the standard
  // alphabet): the check of the compact serialisation sends those.
  const seen = new Set<string>([token, ...notCompactForms(token).map((f) => f.token)]);
  const push = (what: string, t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    out.push({ what, token: t });
  };
  names.forEach((name, i) => {
    const seg = parts[i]!;
    const withSeg = (s: string) => parts.map((x, j) => (j === i ? s : x)).join('.');
    // Alphabet characters only: kept where the bytes a lenient decoder reads differ from the segment's.
    const changesBytes = (s: string) => !decoded(s).equals(decoded(seg));
    const alphabet: Array<[string, string]> = [
      ['one base64url character appended (A)', `${seg}A`],
      ['two base64url characters appended (AA)', `${seg}AA`],
      ['four base64url characters appended (AAAA: three more bytes)', `${seg}AAAA`],
      ['a copy of itself appended', `${seg}${seg}`],
      ['its last character cut', seg.slice(0, -1)],
      ['its last four characters cut (three bytes fewer)', seg.slice(0, -4)],
      ['its first character cut', seg.slice(1)],
      // Letters in the other case: base64url is case-sensitive (RFC 4648 5), so the bytes differ, though a
      // lookup that folds case (a cache of verified tokens under a case-insensitive key) finds the original.
      ['the case of every letter swapped', swapCase(seg)],
      ['the case of one letter swapped', swapCase(seg, seg.search(/[A-Za-z]/))],
    ];
    for (const [what, s] of alphabet) if (s && changesBytes(s)) push(`the ${name} segment with ${what}`, withSeg(s));
    // Outside the alphabet or padding: refused by the decoding RFC 7515 5.2 prescribes, whatever the bytes.
    const mid = Math.floor(seg.length / 2);
    const inside = (c: string) => `${seg.slice(0, mid)}${c}${seg.slice(mid)}`;
    const outside: Array<[string, string]> = [
      [
        'padded with = (to a multiple of 4, or with one more)',
        `${seg}${'='.repeat(seg.length % 4 ? 4 - (seg.length % 4) : 1)}`,
      ],
      ['two = appended', `${seg}==`],
      ['a + inside (standard base64, not base64url)', inside('+')],
      ['a / inside (standard base64, not base64url)', inside('/')],
      ['a space inside', inside(' ')],
      ['a non-ASCII letter (é) inside', inside('é')],
      ['+ appended', `${seg}+`],
    ];
    for (const [what, s] of outside) push(`the ${name} segment with ${what}`, withSeg(s));
    const std = seg.replace(/-/g, '+').replace(/_/g, '/');
    if (std !== seg) push(`the ${name} segment in the standard alphabet (+ / for - _)`, withSeg(std));
  });
  const otherSig = other?.split('.');
  if (otherSig?.length === 3 && otherSig[2] && otherSig[2] !== parts[2])
    push(
      "the signature of another token on the run token's header and payload",
      `${parts[0]}.${parts[1]}.${otherSig[2]}`,
    );
  return out;
}
