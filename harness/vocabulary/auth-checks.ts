/**
 * Authentication checks, the same for every operation (Authentication 1-4,
 * Errors): no token, a malformed header, a tampered signature, forged tokens
 * and a token without the in-scope scopes are refused; the run's token is
 * accepted. Which status each operation uses (beyond token sets: 401/403) is
 * not shown and is observed.
 *
 * Forged tokens ("401: Invalid token; the JWT signature is invalid"; 401 on
 * the token-set listing, a 4xx elsewhere): the run token's claims unsigned
 * (`alg: none`); signed by a key of the run's own under the tenant's kid, and
 * with that key embedded in the header (`jwk`); the run's own token with its
 * payload changed after signing, sent after the original so that a verifier
 * remembering signatures it has seen is caught too; under a kid of each
 * Unicode partition, and with claims naming a client the tenant does not
 * have (token-partitions.ts). Tokens narrowed to one scope set asked in
 * several orders are answered alike (RFC 6749 3.3).
 *
 * Each operation's spec file calls `authChecks()` with one representative
 * request, so that writes stay inside that file's snapshot/restore and run
 * one after another with the file's other writes.
 */
import { Api, isJsonMediaType, type Authorization, type Exchange, type RequestOptions } from '../requests/client.ts';
import { RawAnswer, RawDispatcher } from '../requests/raw.ts';
import { must, mustBeJsonErrorBody, mustRefuse, mustStatus, observe } from './must.ts';
import type { Config } from '../run/config.ts';
import { atReadOnlyBudget, skipBeyondReadOnlyBudget, test } from '../fixtures/fixtures.ts';
import { declareRules, type Declaration, type Declared } from './declare.ts';
import {
  changedPayloadToken,
  decodeJwt,
  foreignKeyToken,
  forgeries,
  jwtKind,
  notCompactForms,
  segmentPartitions,
  tamperSignature,
  tenantPublicKeys,
  unsignedToken,
} from './jwt.ts';
import { inScopeScopes, operation, operations, pathOf, pathPattern, type OperationId } from '../../spec/operations.ts';
import { narrowedToken, accessTokenOf } from '../requests/tokens.ts';
import { grantedScope } from './jwt.ts';
import { pct } from './partitions.ts';
import { jsonRespellings, jwsJsonForms, kidForgeries, scopeOrders } from './token-partitions.ts';

/** One representative request of an operation; `target` is what `AuthCheckOptions.target` found, if anything. */
export type Probe = (api: Api, config: Config, auth: Authorization, target?: string) => Promise<Exchange>;

type ProbedOperation = Exclude<OperationId, 'oauth.token'>;

export interface AuthCheckOptions {
  /** Runs each probe inside a snapshot/restore (for writes). */
  around?: (api: Api, config: Config, fn: () => Promise<void>) => Promise<void>;
  /** Looks up, with the run's token, an existing resource for the probe to address (handed to it as `target`). */
  target?: (api: Api, config: Config) => Promise<string | undefined>;
  /**
   * The probe's body is in a request content type other than JSON (e.g. `a form-encoded body`): the
   * checks of credentials and scopes run for it too, since a server may route each content type apart,
   * one route without its guard. The forged tokens are left to the JSON probe: how a token is verified
   * does not depend on the body.
   */
  body?: string;
  /**
   * The probe sends an optional query parameter the document gives the operation (e.g. `from, the next
   * page's cursor`): the checks of credentials and scopes run for it too, since a server may serve the
   * request with it by another route, one without its guard. Left out of a read-only run against a tenant
   * (its request budget); the forged tokens are left to the plain probe.
   */
  query?: string;
  /**
   * The probe sends a request header a client of the standard sends (e.g. `Last-Event-ID, as an
   * EventSource reconnecting`): the checks of credentials and scopes run for it too, as for `query`.
   */
  header?: string;
}

/** What acceptance of the run's token is, per probe. */
interface Acceptance {
  /** Why the probe addresses nothing that exists, so that no answer can show acceptance; undefined when it can. */
  unaddressable?: (config: Config, target: string | undefined) => string | undefined;
  /** The point the document leaves open for which a correct target may refuse the probe's request (a 4xx other than 401/403). */
  open?: string;
}

/** Each probed operation's place, to share the forgeries out among operations against an external target. */
// The five reads first: a read-only run's shares still cover every partition.
const OPERATION_INDEX: Record<ProbedOperation, number> = {
  'token-sets.list': 0,
  'client-grants.get': 1,
  'events.subscribe': 2,
  'event-streams.get': 3,
  'event-streams.list': 4,
  'experiments.transition': 5,
  'custom-signing-keys.put': 6,
  'custom-text.put': 7,
};

/**
 * Against the embedded emulator every partition on every operation; against an external target, a share
 * per operation, a different share on each, so that every partition is still sent to some operation.
 */
function shareOut<T>(config: Config, id: ProbedOperation, items: readonly T[], shares = items.length): readonly T[] {
  return config.embedded ? items : items.filter((_, i) => i % shares === OPERATION_INDEX[id] % shares);
}

/** A resource the probe addresses: the config and target handed to it, and what it is. */
interface Address {
  what: string;
  config: Config;
  target: string | undefined;
  /** The existing resource (or the operation's only one), against which the others' refusals are compared. */
  existing: boolean;
}

/**
 * Ids no resource has, for the operations with a path parameter: authorisation is decided before the
 * resource is looked up (Errors: the 401 and 403 rows hold whatever the path names; the 404 row is the
 * user that does not exist, for a request that is authorised), so every refusal for the credentials is the
 * same on an unknown id as on an existing one. For the token-set listing also an id over its maximum
 * length (300: Path parameter). Each is handed to the probe as the config field or target it addresses by.
 */
const UNKNOWN_IDS: Partial<
  Record<ProbedOperation, (c: Config) => Array<{ what: string; config: Config; target?: string }>>
> = {
  'token-sets.list': (c) => [
    { what: 'an unknown user', config: { ...c, userId: 'conformance-nobody-auth' } },
    {
      what: 'a user id of 301 characters (over the maximum of 300)',
      config: { ...c, userId: 'conformance-nobody-'.padEnd(301, 'x') },
    },
  ],
  'client-grants.get': (c) => [
    { what: 'an unknown client grant', config: { ...c, clientGrantId: 'cgr_conformanceNobody1' } },
  ],
  'event-streams.get': (c) => [{ what: 'an unknown event stream', config: c, target: 'z'.repeat(26) }],
  'experiments.transition': (c) => [
    { what: 'an unknown experiment', config: { ...c, experimentIds: ['exp_conformance_nobody'] } },
  ],
  'custom-text.put': (c) => [
    { what: 'an unknown self-service profile', config: { ...c, selfServiceProfileId: 'conformance-nobody-profile' } },
  ],
};

/**
 * What a check's probes address: the resource the operation's checks address (an existing one where the
 * run names one), then, on the embedded emulator, every unknown id of the operation; against an external
 * target (the read-only request budget), the first unknown id only where `external` is set (one check's share).
 */
function addresses(id: ProbedOperation, config: Config, target: string | undefined, external = false): Address[] {
  const out: Address[] = [{ what: 'the resource the checks address', config, target, existing: true }];
  if (config.embedded || external)
    for (const u of (UNKNOWN_IDS[id]?.(config) ?? []).slice(0, config.embedded ? undefined : 1))
      out.push({ what: u.what, config: u.config, target: u.target ?? target, existing: false });
  return out;
}

/**
 * Authorisation before lookup, as a relation between answers: where the existing resource's request was
 * refused for its credentials (401 or 403), the unknown id's is refused with the same status, whatever the
 * status is (not shown beyond the token-set listing): a server that looks the resource up first answers
 * the unknown one differently (a 404).
 */
function mustMatchExisting(
  rule: Parameters<typeof must>[0],
  first: Exchange | undefined,
  ex: Exchange,
  a: Address,
): void {
  if (a.existing || !first || (first.status !== 401 && first.status !== 403)) return;
  must(rule, ex.status === first.status, {
    expected: `the refusal the existing resource got (${first.status}) for ${a.what}: authorisation is decided before the resource is looked up`,
    actual: `status ${ex.status}`,
    exchange: ex,
  });
}

const ACCEPTANCE: Record<ProbedOperation, Acceptance> = {
  'token-sets.list': {
    unaddressable: (c) => (c.userId ? undefined : 'CONFORMANCE_USER_ID is not set: the probe reads an unknown user'),
  },
  'experiments.transition': {
    unaddressable: (c) =>
      c.experimentIds.length
        ? undefined
        : 'CONFORMANCE_EXPERIMENT_IDS is not set: the probe moves an unknown experiment',
    open: 'whether the move is allowed from the experiment\'s status ("Allowed source states for each target, and the failure when a move is invalid: not shown")',
  },
  'client-grants.get': {
    unaddressable: (c) =>
      c.clientGrantId ? undefined : 'CONFORMANCE_CLIENT_GRANT_ID is not set: the probe reads an unknown grant',
  },
  'events.subscribe': {},
  'event-streams.get': {
    unaddressable: (_c, target) =>
      target ? undefined : 'the tenant lists no event stream: the probe reads an unknown one',
  },
  'event-streams.list': {},
  'custom-signing-keys.put': { open: 'whether the key type is allowed ("the full list of allowed values: not shown")' },
  'custom-text.put': {
    unaddressable: (c) =>
      c.selfServiceProfileId
        ? undefined
        : 'CONFORMANCE_SELF_SERVICE_PROFILE_ID is not set: the probe writes to an unknown profile',
    open: 'whether the text key is allowed ("The set of allowed text keys: not shown")',
  },
};

/** The run's token as a JWS whose claims can be read, or a skip with the reason. */
function runJws(which: string, token: string | undefined): string {
  const ok = !!token && decodeJwt(token) !== undefined;
  test.skip(
    !ok,
    `The ${which} is not a JWS whose claims can be read (an encrypted or opaque token): no token can be forged from it`,
  );
  return token!;
}

const bearer = (token: string) => ({ header: `Bearer ${token}` });

/** The bytes of a character in UTF-8, as the Latin-1 string a header field carries them in (one character per octet). */
const utf8Octets = (c: string): string => Buffer.from(c, 'utf8').toString('latin1');

/**
 * What may stand between "Bearer" and the token, besides SP (RFC 6750 2.1: credentials = "Bearer" 1*SP b64token;
 * RFC 9110 11.4: auth-scheme [ 1*SP ( token68 / #auth-param ) ]): octets that Unicode, or some parser's idea of
 * white space, takes for a space and HTTP does not. `obs` octets are field content a server passes on as opaque
 * data (RFC 9110 5.5: obs-text); `ctl` ones are control characters that make the field invalid (5.5), which a
 * server may refuse at its HTTP layer, and which the suite's HTTP client refuses to send (they go by a raw
 * socket). HTAB is left out: RFC 9110's grammar names SP there, but a lenient parser's reading of it as BWS is
 * arguable either way.
 */
const NOT_SP_SEPARATORS: ReadonlyArray<{ what: string; octets: string; ctl?: true }> = [
  {
    what: 'a no-break space as the octet A0 (obs-text; Unicode White_Space, and \\s to a Unicode regular expression)',
    octets: '\xa0',
  },
  { what: 'a no-break space in UTF-8 (C2 A0)', octets: utf8Octets('\u00a0') },
  {
    what: "NEL as the octet 85 (Unicode White_Space; white space to Python's str.split)",
    octets: '\x85',
  },
  { what: 'NEL in UTF-8 (C2 85)', octets: utf8Octets('\u0085') },
  { what: 'EN QUAD U+2000 in UTF-8 (E2 80 80)', octets: utf8Octets('\u2000') },
  { what: 'IDEOGRAPHIC SPACE U+3000 in UTF-8 (E3 80 80)', octets: utf8Octets('\u3000') },
  { what: 'ZERO WIDTH NO-BREAK SPACE U+FEFF in UTF-8 (EF BB BF; \\s to ECMAScript)', octets: utf8Octets('\ufeff') },
  { what: 'VT (0B; \\s to ECMAScript)', octets: '\x0b', ctl: true },
  { what: 'FF (0C; \\s to ECMAScript)', octets: '\x0c', ctl: true },
  { what: "FS (1C; white space to Python's str.split and Java's Character.isWhitespace)", octets: '\x1c', ctl: true },
];

/**
 * The token with some of its characters percent-encoded (RFC 3986 2.1, upper-case hex): its dots (%2E), one
 * letter of its payload, every character. Each holds %, which no b64token has (RFC 6750 2.1).
 */
function percentEncodedTokens(token: string): Array<{ what: string; value: string }> {
  const inPayload = (token.split('.')[1] ?? '').search(/[A-Za-z]/);
  const at = token.indexOf('.') + 1 + inPayload;
  return [
    { what: 'its dots percent-encoded (%2E)', value: token.replaceAll('.', '%2E') },
    ...(token.includes('.') && inPayload >= 0
      ? [
          {
            what: `one letter of its payload percent-encoded (${pct(token.charAt(at))})`,
            value: `${token.slice(0, at)}${pct(token.charAt(at))}${token.slice(at + 1)}`,
          },
        ]
      : []),
    { what: 'every character percent-encoded', value: [...token].map(pct).join('') },
  ];
}

/** RFC 6750 2.1's b64token characters but the dot, so that a token of them is one segment: no JWS or JWE. */
const B64TOKEN_NO_DOT = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~+/';

/** Where a header becomes large: over 1 KiB a server may refuse the field as too large (RFC 9110 5.4). */
const LARGE_HEADER_CHARS = 1024;

/**
 * Bearer tokens that are no valid JWT, by length (RFC 6750 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" /
 * "~" / "+" / "/" ) *"=", no bound): one segment of b64token characters 1 KiB long (the reference, short of any
 * header limit: refused as the other invalid tokens are), then the bounds a fixed buffer is commonly sized to (4 KiB
 * and one, 4 KiB, 4 KiB less one, 8 KiB), and the run's own token with a claim padding its payload out to about
 * 6 KiB (a JWS whose signature no longer holds: the verifier reads it whole before it refuses it). Every one well
 * under the 16 KiB a server commonly holds its whole header section to. `jws`: JWS-shaped, refused for its signature
 * (auth.jwt.signature), perhaps otherwise than a token that is no JWT (RFC 6750 3.1: invalid_request or invalid_token).
 */
function longTokens(token: string): Array<{ what: string; value: string; jws: boolean }> {
  const chars = (n: number) => B64TOKEN_NO_DOT.repeat(Math.ceil(n / B64TOKEN_NO_DOT.length)).slice(0, n);
  const oneSegment = (n: number, what: string) => ({
    what: `${what} (${n} b64token characters, one segment)`,
    value: chars(n),
    jws: false,
  });
  // base64url spells 3 octets in 4 characters: the padding claim that takes the whole token to about 6 KiB.
  const pad = 'x'.repeat(Math.max(0, Math.ceil(((6 * 1024 - token.length) * 3) / 4)));
  const padded =
    changedPayloadToken(token, (p) => ({ ...p, conformance_padding: pad })) ??
    [
      { alg: 'RS256', typ: 'JWT' },
      { sub: 'conformance', conformance_padding: pad },
    ]
      .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url'))
      .concat('A'.repeat(342))
      .join('.');
  return [
    oneSegment(1024, '1 KiB'),
    oneSegment(4097, '4 KiB and one'),
    {
      what: `the run's token with its payload padded by a claim to ${padded.length} characters (a JWS whose signature no longer holds)`,
      value: padded,
      jws: true,
    },
    oneSegment(8192, '8 KiB'),
    oneSegment(4096, '4 KiB'),
    oneSegment(4095, '4 KiB less one'),
  ];
}

/** A challenge of this scheme among the challenges of a WWW-Authenticate value (RFC 9110 11.6.1; several fields joined by commas or lines). */
export function hasChallenge(value: string | undefined, scheme?: string): boolean {
  if (!value?.trim()) return false;
  if (scheme === undefined) return /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+/.test(value);
  return new RegExp(`(?:^|[,\\n])\\s*${scheme}(?=$|[ \\t,\\n])`, 'i').test(value);
}

/** One challenge of a WWW-Authenticate value: its scheme and its auth-params (names lower-cased) or its token68. */
export interface Challenge {
  scheme: string;
  params: Array<[string, string]>;
  token68?: string;
}

/**
 * Parses a WWW-Authenticate value by RFC 9110's grammar (11.6.1, 11.2, 5.6): `#challenge`, each
 * `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, `auth-param = token BWS "=" BWS ( token / quoted-string )`,
 * empty list elements allowed. Answers the challenges, or why the value is not one (the first position that
 * fails), so that a client's parser and this one agree: a realm with a space and no quotes, an unterminated
 * quoted string, a parameter named twice in one challenge (11.2: "MUST only occur once per challenge") are not
 * challenges a client can read.
 */
export function parseChallenges(value: string): Challenge[] | { error: string } {
  const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
  const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(?:,|$))/y;
  const QUOTED = /"((?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*)"/y;
  const OWS = /[ \t]*/y;
  let i = 0;
  const at = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = i;
    const m = re.exec(value);
    if (m) i = re.lastIndex;
    return m;
  };
  const fail = (what: string) => ({
    error: `${what} at character ${i + 1}: ${JSON.stringify(value.slice(0, i))} ^ ${JSON.stringify(value.slice(i, i + 40))}`,
  });
  /** An auth-param at i (token BWS "=" BWS value), or undefined with i unchanged. */
  const param = (): [string, string] | undefined | { error: string } => {
    const start = i;
    const name = at(TOKEN);
    at(OWS);
    if (!name || value[i] !== '=') {
      i = start;
      return undefined;
    }
    i++;
    at(OWS);
    const quoted = at(QUOTED);
    if (quoted) return [name[0].toLowerCase(), quoted[1]!.replace(/\\(.)/g, '$1')];
    const token = at(TOKEN);
    if (token) return [name[0].toLowerCase(), token[0]];
    if (value[i] !== '"') {
      // Not a parameter: after a scheme, a token68 ending in "=" (read by the caller).
      i = start;
      return undefined;
    }
    return fail('a quoted-string that does not end');
  };
  const challenges: Challenge[] = [];
  const skipSeparators = () => {
    for (;;) {
      at(OWS);
      if (value[i] !== ',') return;
      i++;
    }
  };
  skipSeparators();
  while (i < value.length) {
    const current = challenges.at(-1);
    // Within a challenge's params, an element that is an auth-param belongs to it; anything else starts a challenge.
    if (current && !current.token68 && current.params.length) {
      const p = param();
      if (p && 'error' in p) return p;
      if (p) {
        if (current.params.some(([n]) => n === p[0]))
          return fail(`the parameter ${p[0]} a second time in one challenge`);
        current.params.push(p);
        at(OWS);
        if (i < value.length && value[i] !== ',') return fail('text after an auth-param that is not a list separator');
        skipSeparators();
        continue;
      }
    }
    const scheme = at(TOKEN);
    if (!scheme) return fail('no auth-scheme (a token)');
    const c: Challenge = { scheme: scheme[0], params: [] };
    challenges.push(c);
    const spaces = /[ ]+/y;
    if (at(spaces) && i < value.length && value[i] !== ',') {
      const p = param();
      if (p && 'error' in p) return p;
      if (p) c.params.push(p);
      else {
        const t = at(TOKEN68);
        if (!t) return fail('after the scheme and a space, neither an auth-param nor a token68');
        c.token68 = t[0];
      }
    }
    at(OWS);
    if (i < value.length && value[i] !== ',') return fail('text after a challenge that is not a list separator');
    skipSeparators();
  }
  return challenges;
}

/**
 * RFC 9110's checklist for the statuses that must carry a header, on any answer a check gets: a 401
 * carries WWW-Authenticate with a challenge (11.6.1), on the operations a Bearer one (RFC 6750 3; on
 * the token endpoint any scheme: `scheme` null); a 405 carries Allow (15.5.6). Each is held only
 * where the check declares its rule, and only to the status that arrived.
 */
export function mustFollowStatusChecklist(
  d: Partial<Declared<'http.unauthorized.challenge' | 'http.method-not-allowed.allow'>>,
  ex: Exchange,
  scheme: string | null = 'Bearer',
): void {
  if (ex.status === 401 && d.httpUnauthorizedChallenge) {
    const value = ex.headers['www-authenticate'];
    must(d.httpUnauthorizedChallenge, hasChallenge(value, scheme ?? undefined), {
      expected: `a 401 carries WWW-Authenticate with ${scheme ? `a ${scheme} challenge (RFC 6750 3)` : 'a challenge'} (RFC 9110 11.6.1)`,
      actual: `WWW-Authenticate: ${value === undefined ? '(none)' : JSON.stringify(value)}`,
      exchange: ex,
    });
    // The value as a client's parser reads it: RFC 9110's grammar, every challenge and parameter of it.
    // (Several fields arrive joined by a line feed: each is a list of its own, 5.3.)
    const parsed = value === undefined ? undefined : parseChallenges(value.replace(/\n/g, ', '));
    if (parsed !== undefined)
      must(d.httpUnauthorizedChallenge, !('error' in parsed), {
        expected:
          "WWW-Authenticate by RFC 9110's grammar (11.6.1, 11.2): challenges of a scheme, then a token68 or auth-params, each a token = token or quoted-string, named once",
        actual: 'error' in parsed ? `${parsed.error}` : '',
        exchange: ex,
      });
  }
  if (ex.status === 405 && d.httpMethodNotAllowedAllow) {
    const allow = ex.headers['allow'];
    must(d.httpMethodNotAllowedAllow, allow !== undefined, {
      expected: "a 405 carries Allow, the target resource's supported methods (RFC 9110 15.5.6)",
      actual: 'no Allow header',
      exchange: ex,
    });
    if (allow === undefined) return;
    // RFC 9110 10.2.1: Allow = #method, method = token (case-sensitive, 9.1); empty list elements are allowed (5.6.1).
    const methods = allow.split(',').map((m) => m.trim());
    const malformed = methods.filter((m) => m !== '' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(m));
    must(d.httpMethodNotAllowedAllow, malformed.length === 0, {
      expected: 'Allow, a comma-separated list of method tokens (RFC 9110 10.2.1)',
      actual: `Allow: ${JSON.stringify(allow)}`,
      exchange: ex,
    });
    // The 405 says the target does not support the method it got; the list of what it supports cannot hold it.
    must(d.httpMethodNotAllowedAllow, !methods.includes(ex.method), {
      expected: `Allow lists the methods the target supports, which ${ex.method} (answered 405: not supported) is not among (RFC 9110 15.5.6)`,
      actual: `Allow: ${allow}`,
      exchange: ex,
    });
    // What it supports holds the method the document gives the path, spelt as methods are: case-sensitive (9.1).
    const documented = documentedMethodsOf(ex.target).filter((m) => m !== ex.method);
    const missing = documented.filter((m) => !methods.includes(m));
    must(d.httpMethodNotAllowedAllow, missing.length === 0, {
      expected: `Allow lists ${documented.join(', ')}, the method the document gives ${ex.target.split('?')[0]} (method names are case-sensitive, RFC 9110 9.1)`,
      actual: `Allow: ${allow}`,
      exchange: ex,
    });
  }
}

/** The methods the document gives the path of `target` (under {base_url}, its query left out); none for another path. */
function documentedMethodsOf(target: string): string[] {
  const path = target.split('?')[0]!;
  return operations.filter((o) => pathPattern(o).test(path)).map((o) => o.method);
}

/**
 * What keeps a token endpoint's refusal from being the error response of RFC 6749 5.2 (undefined: nothing):
 * its parameters in a JSON object (application/json) whose `error` is REQUIRED, a single error code of the
 * characters %x20-21 / %x23-5B / %x5D-7E. Which code a refusal gets is the endpoint's reading (the deployment
 * answers access_denied where 5.2 lists invalid_client): not judged here.
 */
export function tokenErrorProblem(contentType: string, json: unknown): string | undefined {
  const isObject = !!json && typeof json === 'object' && !Array.isArray(json);
  const error = isObject ? (json as { error?: unknown }).error : undefined;
  const ok =
    isJsonMediaType(contentType) &&
    isObject &&
    typeof error === 'string' &&
    /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/.test(error);
  return ok
    ? undefined
    : `Content-Type ${contentType || '(none)'}, ${isObject ? `error ${JSON.stringify(error ?? null)}` : 'no JSON object'}`;
}

/**
 * oauth.token.jwt on an issued access token: a JWT (RFC 7519 1: a JWS or JWE compact serialisation, jwtKind).
 * Held to every token the endpoint issues, however the request asked for it (a scope parameter narrowing it,
 * HTTP Basic): the document says the bearer token "is a JWT", not only the default request's. `how` says which
 * request got it; the token itself is never printed.
 */
export function mustBeJwt(d: Declared<'oauth.token.jwt'>, token: unknown, how: string, ex?: Exchange): void {
  const kind = typeof token === 'string' ? jwtKind(token) : undefined;
  must(d.oauthTokenJwt, kind !== undefined, {
    expected: `a JWT (RFC 7519 1) for ${how}: a JWS compact serialisation whose header (with alg) and payload are JSON objects, or a JWE compact serialisation whose header (with alg and enc) is one`,
    actual:
      typeof token !== 'string'
        ? `access_token ${typeof token}`
        : `${token.split('.').length} segment(s), not decodable as a JWS or JWE`,
    exchange: ex,
  });
}

/**
 * The checklist of a successful token response (RFC 6749 5.1), held to every one a check gets:
 * access_token REQUIRED, a non-empty string; token_type REQUIRED, and for the tokens the operations
 * take "Bearer" (RFC 6750 4, 6.1.1), compared case-insensitively (RFC 6749 5.1: "the token_type value
 * is case insensitive", 7.1); expires_in, where given, a lifetime in seconds: a number not below 0;
 * scope, where given, a string; Cache-Control: no-store; Pragma: no-cache. Lifetime and the other members: not shown.
 */
export function mustFollowTokenResponseChecklist(d: Declared<'oauth.token.response'>, ex: Exchange): void {
  const body = ex.json;
  const isObject = !!body && typeof body === 'object' && !Array.isArray(body);
  must(d.oauthTokenResponse, isObject, {
    expected: 'a JSON object (RFC 6749 5.1: the parameters in the entity-body, application/json)',
    actual: ex.contentType ? `${ex.contentType}, not a JSON object` : 'not a JSON object',
    exchange: ex,
  });
  if (!isObject) return;
  const { access_token, token_type, expires_in, scope } = body as Record<string, unknown>;
  must(d.oauthTokenResponse, typeof access_token === 'string' && access_token.length > 0, {
    expected: 'access_token, a non-empty string (RFC 6749 5.1: REQUIRED)',
    actual: access_token === undefined ? 'no access_token' : `access_token ${JSON.stringify(typeof access_token)}`,
    exchange: ex,
  });
  must(d.oauthTokenResponse, typeof token_type === 'string' && token_type.toLowerCase() === 'bearer', {
    expected:
      'token_type "Bearer", in any case (RFC 6749 5.1: REQUIRED, case insensitive; RFC 6750 4: the bearer token type, sent as Authorization: Bearer)',
    actual: token_type === undefined ? 'no token_type' : `token_type ${JSON.stringify(token_type)}`,
    exchange: ex,
  });
  must(
    d.oauthTokenResponse,
    expires_in === undefined || (typeof expires_in === 'number' && Number.isFinite(expires_in) && expires_in >= 0),
    {
      expected: 'expires_in absent, or the lifetime in seconds: a number not below 0 (RFC 6749 5.1)',
      actual: `expires_in ${JSON.stringify(expires_in)}`,
      exchange: ex,
    },
  );
  // Relation between the response and the token it carries: expires_in is "the lifetime in seconds of the access
  // token" (RFC 6749 5.1), and a JWT's exp the moment it expires (RFC 7519 4.1.4). Where both are given, the
  // lifetime left by exp (from the answer's Date, the server's clock, else the suite's) is the same order of
  // magnitude: within a factor of 10 either way (a unit slip is 60× or 1000×; a server's rounding, clock skew or
  // a token re-served part-way through its life stay well inside). A token whose payload is unreadable (JWE)
  // or without exp: not compared.
  const exp = typeof access_token === 'string' ? decodeJwt(access_token)?.payload.exp : undefined;
  if (typeof expires_in === 'number' && typeof exp === 'number') {
    const date = Date.parse(ex.headers['date'] ?? '');
    const left = exp - (Number.isNaN(date) ? Date.now() : date) / 1000;
    if (left > 60)
      must(d.oauthTokenResponse, expires_in * 10 >= left && expires_in <= left * 10, {
        expected: `expires_in the token's lifetime in seconds (RFC 6749 5.1): about ${Math.round(left)}, what its exp claim leaves (RFC 7519 4.1.4), within a factor of 10`,
        actual: `expires_in ${expires_in}`,
        exchange: ex,
      });
  }
  must(d.oauthTokenResponse, scope === undefined || typeof scope === 'string', {
    expected: 'scope absent, or a string (RFC 6749 5.1, 3.3)',
    actual: `scope ${JSON.stringify(scope)}`,
    exchange: ex,
  });
  const cache = ex.headers['cache-control'] ?? '';
  must(d.oauthTokenResponse, /(^|,)\s*no-store\s*(,|$)/i.test(cache), {
    expected: 'Cache-Control: no-store on the token response (RFC 6749 5.1)',
    actual: `Cache-Control: ${cache || '(none)'}`,
    exchange: ex,
  });
  // RFC 6749 5.1: "as well as the "Pragma" response header field with a value of "no-cache"". Read as RFC 9111 5.4
  // reads it: a list of directives (several field lines joined), no-cache among them, in any case (RFC 5234 2.3).
  const pragma = ex.headers['pragma'];
  must(d.oauthTokenResponse, pragma !== undefined && pragmaDirectives(pragma).includes('no-cache'), {
    expected: 'Pragma: no-cache on the token response (RFC 6749 5.1; RFC 9111 5.4: no-cache among its directives)',
    actual: `Pragma: ${pragma === undefined ? '(none)' : JSON.stringify(pragma)}`,
    exchange: ex,
  });
}

/**
 * The directives of a Pragma value (RFC 9111 5.4: Pragma = [ pragma-directive *( "," OWS pragma-directive ) ],
 * pragma-directive = "no-cache" / extension-pragma, extension-pragma = token [ "=" ( token / quoted-string ) ]),
 * several field lines joined by commas or line feeds (RFC 9110 5.3), empty list elements skipped (5.6.1): each
 * directive lower-cased as it stands, with its argument if it has one (a comma in a quoted-string splits nothing).
 */
export function pragmaDirectives(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(/(?:[^,\n"]|"(?:[^"\\]|\\.)*"?)+/g)) {
    const directive = m[0].trim();
    if (directive) out.push(directive.replace(/^([^="]*)/, (name) => name.toLowerCase()));
  }
  return out;
}

/** The tokens whose original this worker has already sent, per target (the changed-payload check). */
const primed = new Set<string>();

/** What every group of an operation's authentication checks shares. */
interface Probing {
  id: ProbedOperation;
  op: ReturnType<typeof operation>;
  probe: Probe;
  around: NonNullable<AuthCheckOptions['around']>;
  lookUp: (api: Api, config: Config) => Promise<string | undefined>;
}

export function authChecks(id: ProbedOperation, probe: Probe, opts: AuthCheckOptions = {}): void {
  const op = operation(id);
  const found = new Map<string, Promise<string | undefined>>();
  const p: Probing = {
    id,
    op,
    probe,
    around: opts.around ?? ((_a, _c, fn) => fn()),
    // Looked up once per worker and target: the resource every check of the operation addresses.
    lookUp: (api, config) => {
      if (!opts.target) return Promise.resolve(undefined);
      if (!found.has(config.baseUrl)) found.set(config.baseUrl, opts.target(api, config));
      return found.get(config.baseUrl)!;
    },
  };
  const variant = opts.body ?? opts.query ?? opts.header;
  test.describe(`authentication of ${op.method} ${op.path}${variant ? ` with ${variant}` : ''} @auth ${op.tag}`, () => {
    test.beforeEach(({ config }) => {
      test.skip(
        op.writes && config.writes === 'none',
        'CONFORMANCE_WRITES=none: no write is sent, not even one meant to be refused',
      );
      const routed = opts.query ?? opts.header;
      if (routed) skipBeyondReadOnlyBudget(config, `the checks of a request with ${routed} are`);
    });
    credentialChecks(p);
    if (!variant) forgedTokenChecks(p);
    if (!variant) scopeOrderCheck(p);
    if (!variant) scopeSequenceCheck(p);
    scopeAndAcceptanceChecks(p);
  });
}

/** The Cookie header a user agent sends back for the Set-Cookie lines of an answer (RFC 6265 5.4: name=value pairs). */
function cookiesSet(setCookie: string | undefined): string | undefined {
  const pairs = (setCookie ?? '')
    .split('\n')
    .map((line) => line.split(';', 1)[0]!.trim())
    .filter((pair) => pair.includes('='));
  return pairs.length ? pairs.join('; ') : undefined;
}

/** No token, or an Authorization header that is not a bearer JWT: refused. */
function credentialChecks({ id, probe, around, lookUp }: Probing): void {
  // The token-set listing answers 401 where the token is missing or invalid ("401: Invalid token"); elsewhere the status is not shown.
  const listing = id === 'token-sets.list';
  const noToken: Declaration<'auth.bearer.required' | 'http.json-error-bodies' | 'http.unauthorized.challenge'> &
    Partial<Declared<'token-sets.list.unauthorized'>> = listing
    ? declareRules(
        'auth.bearer.required',
        'token-sets.list.unauthorized',
        'http.json-error-bodies',
        'http.unauthorized.challenge',
      )
    : declareRules('auth.bearer.required', 'http.json-error-bodies', 'http.unauthorized.challenge');
  test(
    "should refuse a request without a token, sent on a connection that has just carried the run's token, and with the cookies the answer to it set",
    noToken,
    async ({ api, config }) => {
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        // Credentials belong to the request that carries them, not to its connection (RFC 9110 11.6.2; RFC
        // 6750 2.1): the request without a token goes through the client that sent the run's token, whose kept-
        // alive connection it reuses, so that a server remembering a connection's principal is caught too. The
        // accepted request first where it costs nothing a read-only run counts; there, the client's earlier ones.
        const accepted =
          config.embedded || config.writes !== 'none' ? await probe(api, config, 'token', target) : undefined;
        // On the resource addressed, then on ids no resource has (authorisation before lookup).
        let first: Exchange | undefined;
        for (const a of addresses(id, config, target, listing)) {
          const ex = await probe(api, a.config, 'none', a.target);
          mustRefuse(
            noToken.authBearerRequired,
            ex,
            `no Authorization header, after the run's token on the same connection (${a.what})`,
          );
          mustBeJsonErrorBody(noToken, ex);
          if (noToken.tokenSetsListUnauthorized) mustStatus(noToken.tokenSetsListUnauthorized, ex, 401);
          else observe('auth.unauthenticated.status', `${id}: no token answered`, String(ex.status));
          mustFollowStatusChecklist(noToken, ex);
          mustMatchExisting(noToken.authBearerRequired, first, ex, a);
          first ??= ex;
        }
        // What the accepted request's answer set as cookies, sent back without the header, as a browser would:
        // the document names one credential, the bearer token (Authentication 1); a session cookie is none.
        const cookie = cookiesSet(accepted?.headers['set-cookie']);
        if (cookie !== undefined) {
          const ex = await probe(api, config, { cookie }, target);
          mustRefuse(
            noToken.authBearerRequired,
            ex,
            "no Authorization header, the cookies the answer to the run's token set sent back (RFC 6265 5.4)",
          );
          mustBeJsonErrorBody(noToken, ex);
          mustFollowStatusChecklist(noToken, ex);
        }
        // The document names one place for the token, the header (Authentication 1); RFC 6750 2.3 lets a server
        // take it from the access_token query parameter too, as some do for a browser's EventSource, which
        // cannot set headers. A request without the header is refused, whatever else carries the token. Not in
        // a read-only run against a tenant: it is at its request budget.
        if (!atReadOnlyBudget(config)) {
          const ex = await probe(api, config, 'query', target);
          mustRefuse(
            noToken.authBearerRequired,
            ex,
            "no Authorization header, the run's token in the access_token query parameter (RFC 6750 2.3), a place the document does not name",
          );
          mustBeJsonErrorBody(noToken, ex);
          mustFollowStatusChecklist(noToken, ex);
        }
      });
    },
  );

  // A header that is not a bearer JWT: refused (401 on the token-set listing, a 4xx elsewhere), with the challenge.
  const malformedRules = (): Declaration<
    'auth.bearer.malformed' | 'http.json-error-bodies' | 'http.unauthorized.challenge'
  > &
    Partial<Declared<'token-sets.list.unauthorized'>> =>
    listing
      ? declareRules(
          'auth.bearer.malformed',
          'token-sets.list.unauthorized',
          'http.json-error-bodies',
          'http.unauthorized.challenge',
        )
      : declareRules('auth.bearer.malformed', 'http.json-error-bodies', 'http.unauthorized.challenge');
  const malformed = malformedRules();
  test('should refuse a malformed Authorization header', malformed, async ({ api, anonApi, config }) => {
    const target = await lookUp(api, config);
    await around(api, config, async () => {
      // RFC 6750 2.1: credentials = "Bearer" 1*SP b64token. Partitions: a b64token that is no JWT, another
      // scheme, no token, the run's own token inside the delimiters a lenient reader strips (RFC 9110 5.6.4's
      // quoted-string; the angle brackets of the document's own "Bearer <ACCESS_TOKEN>"; an auth-param, RFC
      // 9110 11.4, which Bearer's grammar does not take), and the run's own token with more after it (white
      // space then a word, a second token, a comma and another credential): none is a b64token. Against an
      // external target one per operation, the first eight.
      const token = config.runToken ?? 'conformance-no-token';
      const headers: Array<[string, string]> = [
        ['Bearer conformance-not-a-jwt', 'Bearer conformance-not-a-jwt'],
        // Another scheme with the run's own token: only the Bearer scheme carries a bearer token (RFC 6750 2.1).
        ["Basic <the run's token>", `Basic ${token}`],
        ['Bearer (no token)', 'Bearer '],
        ['Bearer "<the run\'s token>" (a quoted-string)', `Bearer "${token}"`],
        ["Bearer <<the run's token>> (in angle brackets)", `Bearer <${token}>`],
        ["Bearer <the run's token> conformance", `Bearer ${token} conformance`],
        ['Bearer access_token="<the run\'s token>" (an auth-param)', `Bearer access_token="${token}"`],
        ["Bearer <the run's token>; (a parameter delimiter after it)", `Bearer ${token};`],
        ["Bearer <the run's token> <the run's token>", `Bearer ${token} ${token}`],
        ["Bearer <the run's token>, Basic …", `Bearer ${token}, Basic Y29uZm9ybWFuY2U6c2VjcmV0`],
        // Beyond a read-only run's request budget: the scheme and the token run together (no SP); other
        // schemes, and near misses of Bearer's name, with the run's own token (RFC 9110 11.1: a scheme is a
        // token compared case-insensitively, not by prefix or by its last word).
        ...(config.embedded || config.writes !== 'none'
          ? ([
              ["Bearer<the run's token> (no space)", `Bearer${token}`],
              ['Basic …', 'Basic Y29uZm9ybWFuY2U6c2VjcmV0'],
              ...['Token', 'JWT', 'DPoP', 'OAuth', 'MAC', 'Bearers', 'Bear', 'Bearer-', 'OAuthBearer'].map((scheme) => [
                `${scheme} <the run's token>`,
                `${scheme} ${token}`,
              ]),
              // The run's token in an encoding another layer decodes and a header field does not: percent-encoded
              // as a query or form parameter carries it (RFC 3986 2.1). % is no b64token character (RFC 6750
              // 2.1); a server sharing the query parameter's reader with the header admits the token it decodes.
              ...percentEncodedTokens(token).map(({ what, value }): [string, string] => [
                `Bearer <the run's token with ${what}>`,
                `Bearer ${value}`,
              ]),
              // The run's own token in the JWS JSON serialization (RFC 7515 7.2), base64url-encoded into a
              // b64token or as its JSON text: the same signature over the same signing input, but no JWT (RFC 7519
              // 1, 7.2: a JWT is in the compact serialization). A verifier that also takes the JSON forms admits it.
              ...jwsJsonForms(token).map(({ what, value }): [string, string] => [
                `Bearer <${what}>`,
                `Bearer ${value}`,
              ]),
            ] as Array<[string, string]>)
          : []),
      ];
      // Each on the resource addressed, then (on the embedded emulator) on ids no resource has.
      for (const [what, header] of shareOut(config, id, headers)) {
        let first: Exchange | undefined;
        for (const a of addresses(id, config, target)) {
          const ex = await probe(anonApi, a.config, { header }, a.target);
          mustRefuse(
            malformed.authBearerMalformed,
            ex,
            `Authorization: ${what}, not "Bearer" 1*SP b64token (${a.what})`,
          );
          mustBeJsonErrorBody(malformed, ex);
          // An invalid bearer token on the token-set listing: 401.
          if (malformed.tokenSetsListUnauthorized && header.startsWith('Bearer '))
            mustStatus(malformed.tokenSetsListUnauthorized, ex, 401);
          mustFollowStatusChecklist(malformed, ex);
          mustMatchExisting(malformed.authBearerMalformed, first, ex, a);
          first ??= ex;
        }
      }
    });
  });

  // The token's length, partitioned (longTokens): RFC 6750 2.1's b64token has no bound, and RFC 9110 5.4 lets a
  // server refuse a field it finds too large with a 4xx (431, or 400; 413 is seen too). An invalid token is refused
  // at every length, never with a 5xx (a fixed buffer the token overflows), and as the short one is, but for a
  // refusal as too large. On the embedded emulator every length on every operation; against an external target one
  // per operation, the reference left out (the listing's 401 is the document's); in a read-only run against a
  // tenant, at its request budget, only on the token-set listing and the client grant.
  const lengths = malformedRules();
  test(
    'should refuse a bearer token that is no valid JWT at every length around the bounds buffers are sized to (1 KiB, 4 KiB less one, 4 KiB, 4 KiB and one, 8 KiB, a JWS padded to 6 KiB) with a 4xx, as the short one is (401 on the token-set listing) or as too large (400, 413, 431), never a 5xx (RFC 6750 2.1: b64token has no length bound; RFC 9110 5.4)',
    lengths,
    async ({ api, anonApi, config }) => {
      const tokens = longTokens(config.runToken ?? 'conformance-no-token');
      const [reference] = tokens;
      const sent = config.embedded
        ? tokens
        : atReadOnlyBudget(config) && OPERATION_INDEX[id] >= 2
          ? []
          : shareOut(config, id, tokens.slice(1), tokens.length - 1);
      test.skip(
        sent.length === 0,
        "Against an external target the long tokens go to the token-set listing and the client grant only (the read-only run's request budget)",
      );
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        // The status the 1 KiB token that is no JWT got: the other tokens that are no JWT get it too, but for a
        // refusal as too large (where it is 401, RFC 6750 3.1 invalid_token; another 4xx off the listing is open).
        let short: number | undefined;
        for (const t of sent) {
          const ex = await probe(anonApi, config, { header: `Bearer ${t.value}` }, target);
          const why = `Authorization: Bearer, then ${t.what}: no valid JWT`;
          mustRefuse(lengths.authBearerMalformed, ex, why);
          const large = t.value.length > LARGE_HEADER_CHARS;
          const tooLarge = large && [400, 413, 431].includes(ex.status);
          // A header refused as too large may be refused by what fronts the service (a proxy's 400 or 431, in its
          // own body), before the service reads it: its body is held to JSON only where the service judged the token.
          if (!tooLarge) mustBeJsonErrorBody(lengths, ex);
          if (lengths.tokenSetsListUnauthorized)
            must(lengths.tokenSetsListUnauthorized, ex.status === 401 || tooLarge, {
              expected: `status 401, an invalid token on the token-set listing${large ? ', or 400, 413 or 431, the header refused as too large (RFC 9110 5.4)' : ''} (${why})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          if (t === reference) short = ex.status;
          else if (short === 401 && !t.jws)
            must(lengths.authBearerMalformed, ex.status === 401 || tooLarge, {
              expected: `status 401, as the 1 KiB token that is no JWT got, or 400, 413 or 431, the header refused as too large (RFC 9110 5.4): the length does not make a token valid (${why})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          mustFollowStatusChecklist(lengths, ex);
        }
      });
    },
  );

  // The separator between the scheme and the run's own token, partitioned (NOT_SP_SEPARATORS): each that is not
  // SP, where a reader splitting on its own idea of white space (a Unicode \s, str.split, trim) finds the token.
  const separators = malformedRules();
  test(
    'should refuse the run\'s token after "Bearer" and a separator that HTTP does not take for SP (a no-break space as the octet A0 or in UTF-8, NEL, Unicode spaces in UTF-8, VT, FF, FS), or with a no-break space before or after it (RFC 6750 2.1: credentials = "Bearer" 1*SP b64token; RFC 9110 11.4, 5.5)',
    separators,
    async ({ api, anonApi, config }) => {
      skipBeyondReadOnlyBudget(config, 'the separators that are not SP are');
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        const token = config.runToken ?? 'conformance-no-token';
        const nbsp = NOT_SP_SEPARATORS[0]!;
        const headers = [
          ...NOT_SP_SEPARATORS.map((sep) => ({ ...sep, header: `Bearer${sep.octets}${token}` })),
          // SP then a no-break space: the credentials begin with A0, no b64token character (a trim() drops it).
          { ...nbsp, what: `SP and ${nbsp.what}`, header: `Bearer ${nbsp.octets}${token}` },
          // A no-break space after the token: field values lose only SP and HTAB at their ends (RFC 9110 5.5).
          { ...nbsp, what: `SP, the token and ${nbsp.what} after it`, header: `Bearer ${token}${nbsp.octets}` },
        ];
        for (const { what, header, ctl } of headers) {
          const why = `Authorization: "Bearer", ${what}, then the run's token: not "Bearer" 1*SP b64token`;
          if (!ctl) {
            const ex = await probe(anonApi, config, { header }, target);
            mustRefuse(separators.authBearerMalformed, ex, why);
            mustBeJsonErrorBody(separators, ex);
            if (separators.tokenSetsListUnauthorized && header.startsWith('Bearer '))
              mustStatus(separators.tokenSetsListUnauthorized, ex, 401);
            mustFollowStatusChecklist(separators, ex);
            continue;
          }
          // The event stream's probe goes through fetch, which refuses to send a control character at all.
          if (id === 'events.subscribe') continue;
          // A control character makes the field invalid (RFC 9110 5.5): a server's HTTP layer may refuse the
          // request before the API reads it, with a body of its own; a 4xx all the same, and a 401 with a challenge.
          const raw = new RawDispatcher(config.baseUrl, config.timeoutMs);
          let ex: Exchange | undefined;
          try {
            await probe(new Api(raw, config, undefined), config, { header }, target);
          } catch (e) {
            if (!(e instanceof RawAnswer)) throw e;
            ex = e.exchange;
          }
          if (ex === undefined) throw new Error(`${id}: the probe sent nothing through the raw dispatcher (${why})`);
          mustRefuse(separators.authBearerMalformed, ex, why);
          mustFollowStatusChecklist(separators, ex);
        }
      });
    },
  );
}

/** Tampered and forged tokens: refused as invalid (401 on the token-set listing, a 4xx elsewhere). */
function forgedTokenChecks({ id, probe, around, lookUp }: Probing): void {
  // The token-set listing answers 401 to an invalid token (Errors); elsewhere the status is not shown: a 4xx.
  const signature = () =>
    id === 'token-sets.list'
      ? declareRules(
          'auth.jwt.signature',
          'token-sets.list.unauthorized',
          'http.json-error-bodies',
          'http.unauthorized.challenge',
        )
      : declareRules('auth.jwt.signature', 'http.json-error-bodies', 'http.unauthorized.challenge');
  const refusedAsInvalid = (
    d: Declared<'auth.jwt.signature' | 'http.json-error-bodies' | 'http.unauthorized.challenge'> &
      Partial<Declared<'token-sets.list.unauthorized'>>,
    ex: Exchange,
    why: string,
  ) => {
    mustRefuse(d.authJwtSignature, ex, why);
    mustBeJsonErrorBody(d, ex);
    if (d.tokenSetsListUnauthorized) mustStatus(d.tokenSetsListUnauthorized, ex, 401);
    else observe('auth.unauthenticated.status', `${id}: a forged or tampered token answered`, String(ex.status));
    mustFollowStatusChecklist(d, ex);
  };
  /** Each token sent to the probe (inside the operation's snapshot/restore), each refused as invalid. */
  const refuseEach = async (
    d: Parameters<typeof refusedAsInvalid>[0],
    { api, anonApi, config }: { api: Api; anonApi: Api; config: Config },
    tokens: ReadonlyArray<{ what: string; token: string }>,
    why: (what: string) => string,
  ) => {
    const target = await lookUp(api, config);
    await around(api, config, async () => {
      for (const f of tokens) refusedAsInvalid(d, await probe(anonApi, config, bearer(f.token), target), why(f.what));
    });
  };

  const altered = signature();
  test('should refuse a JWT whose signature was altered', altered, async ({ api, anonApi, config }) => {
    // Any JWT form: the last segment is a JWS signature or a JWE authentication tag.
    const token = config.runToken!;
    const target = await lookUp(api, config);
    await around(api, config, async () => {
      // On the resource addressed, then (on the embedded emulator) on ids no resource has.
      let first: Exchange | undefined;
      for (const a of addresses(id, config, target)) {
        const ex = await probe(anonApi, a.config, bearer(tamperSignature(token)), a.target);
        refusedAsInvalid(altered, ex, `the JWT signature is invalid (${a.what})`);
        mustMatchExisting(altered.authJwtSignature, first, ex, a);
        first ??= ex;
      }
    });
  });

  const segments = signature();
  test(
    "should refuse the run's token with each JWS segment out of its base64url partition (RFC 7515 3.1, 5.2, 7.1; RFC 4648 5): characters appended or cut, letters in the other case, padding, characters outside the alphabet, the standard alphabet, another token's signature (the forms that are no compact serialisation left to their own check)",
    segments,
    async ({ api, anonApi, config }) => {
      const token = runJws("run's token", config.runToken);
      const all = segmentPartitions(token, config.limitedRunToken);
      // Against an external target (the read-only run's request budget, selftest/suite/budget.test.ts) one
      // partition, to the token-set listing (whose refusal is 401): the signature segment with characters
      // appended (the first that changes its bytes), the segment a verifier decodes rather than signs.
      const share = config.embedded
        ? all
        : id === 'token-sets.list'
          ? all.filter((f) => f.what.startsWith('the signature segment')).slice(0, 1)
          : [];
      test.skip(
        share.length === 0,
        "Against an external target the JWS segment partitions go to the token-set listing only (the read-only run's request budget)",
      );
      await refuseEach(
        segments,
        { api, anonApi, config },
        share,
        (what) => `the JWT signature does not verify over what was signed: the run's token with ${what}`,
      );
    },
  );

  const partitions = signature();
  test(
    "should refuse every forgery RFC 7515, RFC 7518 and RFC 8725 warn of (the run token's claims unsigned in every spelling of alg none, signed by a key not the tenant's under its kid or embedded as jwk, HMAC under the public key or a client's own secret, re-encoded segments, a foreign JWE)",
    partitions,
    async ({ api, anonApi, config }) => {
      const token = runJws("run's token", config.runToken);
      const all = [
        { what: 'alg none, empty signature', token: unsignedToken(token)! },
        {
          what: "the run token's claims signed by a key of the suite's own under the tenant's kid",
          token: (await foreignKeyToken(token, false))!,
        },
        {
          what: "the run token's claims signed by a key of the suite's own, that key embedded in the header (jwk)",
          token: (await foreignKeyToken(token, true))!,
        },
        ...forgeries(
          token,
          // A read-only run against a tenant, at its request budget: the HMAC forms of its first key alone.
          (await tenantPublicKeys(config.authUrl)).slice(0, atReadOnlyBudget(config) ? 1 : undefined),
          // Not in a read-only run against a tenant: it is at its request budget.
          atReadOnlyBudget(config)
            ? []
            : (
                [
                  ['the run client', config.credentials],
                  ['the limited client', config.limitedCredentials],
                  ['the rate-limited client', config.rateLimitCredentials],
                ] as const
              ).flatMap(([whose, c]) => (c ? [[whose, c.clientSecret] as const] : [])),
          !atReadOnlyBudget(config),
        ),
      ];
      // Against an external target each operation sends a fifth of them, a different fifth per operation.
      const share = shareOut(config, id, all, 5);
      await refuseEach(partitions, { api, anonApi, config }, share, (what) => what);
    },
  );

  const kids = signature();
  test(
    "should refuse as invalid, never with a 5xx, the run token's claims signed by a key not the tenant's under a kid of any Unicode partition (RFC 7515 4.1.4: kid is any case-sensitive string): Cyrillic, an emoji beyond the BMP, a control character, CR LF, plain ASCII, Latin-1, DEL, empty, the tenant's kid in another case",
    kids,
    async ({ api, anonApi, config }) => {
      // Beyond a read-only run's request budget (selftest/suite/budget.test.ts): with writes on, a share per
      // operation against an external target; every one on every operation against the embedded emulator.
      skipBeyondReadOnlyBudget(config, 'the forged tokens of each kid partition are');
      const all = await kidForgeries(runJws("run's token", config.runToken));
      await refuseEach(
        kids,
        { api, anonApi, config },
        shareOut(config, id, all, 3),
        (what) => `a forged token: ${what}`,
      );
    },
  );

  const respelt = signature();
  test(
    "should refuse the run's token with its header or payload JSON re-serialised to the same value, its signature kept (partitions of RFC 8259's JSON text: white space after : and , on several lines or around the object, members in another order, a letter as a \\u escape, / as \\/; RFC 7515 5.2: the signature is over the segments as received)",
    respelt,
    async ({ api, anonApi, config }) => {
      // Beyond a read-only run's request budget (selftest/suite/budget.test.ts): with writes on, a share per
      // operation against an external target; every one on every operation against the embedded emulator.
      skipBeyondReadOnlyBudget(config, "the run's token with its JSON re-serialised is");
      const all = jsonRespellings(runJws("run's token", config.runToken));
      await refuseEach(
        respelt,
        { api, anonApi, config },
        shareOut(config, id, all, 3),
        (what) => `the JWT signature does not verify over what was sent: the run's token with ${what}`,
      );
    },
  );

  const changedPayload = signature();
  test(
    "should refuse the run's token with its payload changed after signing",
    changedPayload,
    async ({ api, anonApi, config }) => {
      const limited = config.limitedRunToken;
      const useLimited = !!limited && decodeJwt(limited) !== undefined;
      const original = useLimited ? limited! : runJws("run's token", config.runToken);
      const [changed, why] = useLimited
        ? [
            changedPayloadToken(original, raiseScope)!,
            'the limited token with its scope raised to the in-scope scopes, its signature kept',
          ]
        : [
            changedPayloadToken(original, (p) => ({
              ...p,
              exp: (typeof p.exp === 'number' ? p.exp : Math.floor(Date.now() / 1000)) + 3600,
            }))!,
            "the run's token with a later exp, its signature kept",
          ];
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        // The original first: a verifier must not let the changed payload through because it has seen the signature before.
        // Against an external target, once per worker: a verifier's memory of signatures is not kept per operation.
        const seen = `${config.baseUrl} ${original}`;
        if (config.embedded || !primed.has(seen)) await probe(anonApi, config, bearer(original), target);
        primed.add(seen);
        refusedAsInvalid(changedPayload, await probe(anonApi, config, bearer(changed), target), why);
      });
    },
  );

  const anyClaims = signature();
  test(
    'should refuse a forged token as invalid whatever its claims hold: no scope claim, an empty scope, the limited token\'s scope, a client the tenant does not have (relation: a token whose signature does not verify says nothing, so none of its claims, its scope included, is read before it is refused as invalid; "401: Invalid token; the JWT signature is invalid" on the token-set listing, not 403)',
    anyClaims,
    async ({ api, anonApi, config }) => {
      const token = runJws("run's token", config.runToken);
      const claims: Array<{ what: string; change: (p: Record<string, unknown>) => Record<string, unknown> }> = [
        { what: 'no scope claim', change: withoutScope },
        { what: 'an empty scope', change: (p) => ({ ...withoutScope(p), scope: '' }) },
      ];
      const limited = config.limitedRunToken && decodeJwt(config.limitedRunToken);
      if (limited) claims.push({ what: "the limited token's claims", change: () => ({ ...limited.payload }) });
      // Claims naming a client the tenant does not have (azp, sub, client_id changed): unverified, they name
      // nobody; a server that looks the client up before it verifies the signature answers its lookup's refusal.
      claims.push({ what: 'claims naming a client the tenant does not have', change: namingUnknownClient });
      // Each claim set in three forgeries: unsigned (alg none), signed by a key of the suite's own under the
      // tenant's kid, and under the run token's own header and signature.
      const all: Array<{ what: string; token: string }> = [];
      for (const c of claims) {
        const changed = changedPayloadToken(token, c.change)!;
        all.push(
          { what: `alg none, empty signature, ${c.what}`, token: unsignedToken(changed)! },
          {
            what: `signed by a key of the suite's own under the tenant's kid, ${c.what}`,
            token: (await foreignKeyToken(changed, false))!,
          },
          { what: `the run token's header and signature kept, ${c.what}`, token: changed },
        );
      }
      // Against an external target (the read-only run's request budget), one to the token-set listing, whose
      // refusal is 401 (the answer a server reading the scope first gets wrong): the foreign key's, no scope claim.
      const share = config.embedded ? all : id === 'token-sets.list' ? all.slice(1, 2) : [];
      test.skip(
        share.length === 0,
        "Against an external target the forged tokens of other claims go to the token-set listing only (the read-only run's request budget)",
      );
      await refuseEach(anyClaims, { api, anonApi, config }, share, (what) => `a forged token: ${what}`);
    },
  );

  const compact = signature();
  test(
    "should refuse the run's token in every form that is not a JWS compact serialisation (RFC 7515 7.1: three base64url segments joined by single dots): a segment appended, empty or not; a dot doubled; whitespace inside; padding or the standard alphabet",
    compact,
    async ({ api, anonApi, config }) => {
      const all = notCompactForms(runJws("run's token", config.runToken));
      // Against an external target the read-only run is at its request budget (selftest/suite/budget.test.ts):
      // these forms are sent to the embedded emulator only, and the reason is printed.
      test.skip(
        !config.embedded,
        "Against an external target the forms that are not a JWS compact serialisation are not sent (the read-only run's request budget)",
      );
      await refuseEach(
        compact,
        { api, anonApi, config },
        all,
        (what) => `not a JWS compact serialisation: the run's token with ${what}`,
      );
    },
  );
}

/**
 * Spellings of an operation's path a server may route to the operation: the last letter of its first segment
 * percent-encoded (upper-case hex), /client-grant%73/{id} for /client-grants/{id}, the same URI (RFC 3986 2.3,
 * 6.2.2.2); and a slash appended, another URI (RFC 3986 6.2.3) that routers often take for the same route.
 */
const PATH_RESPELLINGS: ReadonlyArray<{
  what: string;
  spell: (path: string) => string;
  /** The base URL respelt too, where it has a path to respell. */
  base?: (baseUrl: string) => string | undefined;
}> = [
  {
    what: "a character of the base URL's path percent-encoded (RFC 3986 2.3, 6.2.2.2: the same URI, /api/v%32 for /api/v2)",
    spell: (path) => path,
    base: (baseUrl) => {
      const url = new URL(baseUrl);
      const m = /^(.*)([A-Za-z0-9])([^A-Za-z0-9]*)$/.exec(url.pathname);
      if (!m) return undefined;
      return `${url.origin}${m[1]}%${m[2]!.charCodeAt(0).toString(16).toUpperCase()}${m[3]}`;
    },
  },
  {
    what: 'a letter of its first segment percent-encoded (RFC 3986 2.3, 6.2.2.2: the same URI)',
    spell: (path) =>
      path.replace(
        /^\/([^/?]*?)([A-Za-z])(?=[/?]|$)/,
        (_, head: string, letter: string) => `/${head}%${letter.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
  },
  {
    what: 'a slash appended (RFC 3986 6.2.3: another URI, which a router may take for the same route)',
    spell: (path) => {
      const [p = '', ...q] = path.split('?');
      return `${p.endsWith('/') ? p : `${p}/`}${q.length ? `?${q.join('?')}` : ''}`;
    },
  },
];

/** The client sending every request to its path as spelt, under its base URL as spelt. */
function respelt(api: Api, spell: (path: string) => string, baseUrl?: string): Api {
  const spelt =
    baseUrl === undefined ? api : (Object.create(api, { config: { value: { ...api.config, baseUrl } } }) as Api);
  return Object.create(spelt, {
    send: { value: (method: string, path: string, opts?: RequestOptions) => spelt.send(method, spell(path), opts) },
  }) as Api;
}

/**
 * Ways a request names a method other than its own, which frameworks honour for clients behind proxies that pass
 * only GET and POST (OWASP REST Security Cheat Sheet, "HTTP Method Override"): the three headers in use, and the
 * _method parameter of form-tunnelling frameworks. The request is sent by another method (POST, or PUT for an
 * operation that is a POST) naming the operation's.
 */
const METHOD_OVERRIDES: ReadonlyArray<{ what: string; override: (method: string) => RequestOptions }> = [
  ...['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'].map((name) => ({
    what: name,
    override: (method: string): RequestOptions => ({ headers: { [name]: method } }),
  })),
  { what: '?_method=', override: (method: string): RequestOptions => ({ query: { _method: method } }) },
];

/** The client sending every request by another method, with `override` naming its own. */
function overridden(api: Api, override: (method: string) => RequestOptions): Api {
  return Object.create(api, {
    send: {
      value: (method: string, path: string, opts?: RequestOptions) => {
        const extra = override(method);
        return api.send(method === 'POST' ? 'PUT' : 'POST', path, {
          ...opts,
          headers: { ...opts?.headers, ...extra.headers },
          query: { ...opts?.query, ...extra.query },
        });
      },
    },
  }) as Api;
}

/** The client sending every request with these query parameters beside its own. */
function withQuery(api: Api, query: Record<string, string>): Api {
  return Object.create(api, {
    send: {
      value: (method: string, path: string, opts?: RequestOptions) =>
        api.send(method, path, { ...opts, query: { ...opts?.query, ...query } }),
    },
  }) as Api;
}

/** A token without the in-scope scopes is refused; the run's token is accepted. */
function scopeAndAcceptanceChecks({ id, op, probe, around, lookUp }: Probing): void {
  const acceptance = ACCEPTANCE[id];
  const scope = declareRules('auth.scope.enforced', 'http.json-error-bodies', 'http.unauthorized.challenge');
  test('should refuse a token without the in-scope scopes', scope, async ({ api, limitedApi, config }) => {
    const target = await lookUp(api, config);
    await around(api, config, async () => {
      // On the resource addressed, then (on the embedded emulator) on ids no resource has.
      let first: Exchange | undefined;
      for (const a of addresses(id, config, target)) {
        const ex = await probe(limitedApi, a.config, 'token', a.target);
        mustRefuse(
          scope.authScopeEnforced,
          ex,
          `the token holds none of the in-scope scopes (e.g. ${op.scopes.join(', ')}) (${a.what})`,
        );
        mustBeJsonErrorBody(scope, ex);
        if (id !== 'token-sets.list')
          observe('auth.forbidden.status', `${id}: token without the scopes answered`, String(ex.status));
        mustFollowStatusChecklist(scope, ex);
        mustMatchExisting(scope.authScopeEnforced, first, ex, a);
        first ??= ex;
      }
      // With a query parameter the document does not name beside (the management API's field projection,
      // fields=id): the guard does not depend on the query. Beyond a read-only run's request budget; the events
      // probe opens its stream through the SSE harness, at the document's query.
      if (atReadOnlyBudget(config) || id === 'events.subscribe') return;
      const projected = await probe(withQuery(limitedApi, { fields: 'id' }), config, 'token', target);
      mustRefuse(
        scope.authScopeEnforced,
        projected,
        `the token holds none of the in-scope scopes (e.g. ${op.scopes.join(', ')}), with fields=id in the query`,
      );
    });
  });

  // The same operation under another spelling of its path: where the target routes it to the operation, the
  // operation's guards hold there too (a guard matching the exact path, a router that does not, lets it through).
  const respeltGuards = declareRules(
    'auth.bearer.required',
    'auth.scope.enforced',
    'http.json-error-bodies',
    'http.unauthorized.challenge',
  );
  test(
    "should refuse a request without a token and a token without the in-scope scopes on the operation's path respelt (a letter of its first segment or of the base URL's path percent-encoded, RFC 3986 6.2.2.2: the same URI; a slash appended), wherever the target answers the run's token there as on the plain path",
    respeltGuards,
    async ({ api, limitedApi, config }) => {
      test.skip(
        id === 'events.subscribe',
        "The events probe opens its stream through the SSE harness, at the document's path",
      );
      skipBeyondReadOnlyBudget(config, 'the checks of a respelt path are');
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        const plain = await probe(api, config, 'token', target);
        const unrouted: string[] = [];
        for (const { what, spell, base } of PATH_RESPELLINGS) {
          const baseUrl = base?.(config.baseUrl);
          if (base && baseUrl === undefined) {
            unrouted.push(`the base URL has no path to respell (${what})`);
            continue;
          }
          const spelt = await probe(respelt(api, spell, baseUrl), config, 'token', target);
          if (spelt.status !== plain.status) {
            unrouted.push(`${spelt.target} (${what}) is answered ${spelt.status}, the plain path ${plain.status}`);
            continue;
          }
          const none = await probe(respelt(api, spell, baseUrl), config, 'none', target);
          mustRefuse(
            respeltGuards.authBearerRequired,
            none,
            `no Authorization header, on the path ${none.target} (${what}), which the target routes to the operation`,
          );
          mustBeJsonErrorBody(respeltGuards, none);
          const ex = await probe(respelt(limitedApi, spell, baseUrl), config, 'token', target);
          mustRefuse(
            respeltGuards.authScopeEnforced,
            ex,
            `the token holds none of the in-scope scopes (e.g. ${op.scopes.join(', ')}), on the path ${ex.target} (${what}), which the target routes to the operation`,
          );
          mustBeJsonErrorBody(respeltGuards, ex);
        }
        test.skip(
          unrouted.length === PATH_RESPELLINGS.length,
          `No respelt path is routed to the operation: ${unrouted.join('; ')} (a server may leave a path unnormalised)`,
        );
      });
    },
  );

  // The same operation by another method carrying a method override: where the target honours the override, the
  // operation's guards hold there too (a guard matched on the method and path the router saw lets it through).
  const overrideGuards = declareRules(
    'auth.bearer.required',
    'auth.scope.enforced',
    'http.json-error-bodies',
    'http.unauthorized.challenge',
  );
  test(
    `should refuse a request without a token and a token without the in-scope scopes sent by another method with a method override naming ${op.method} (X-HTTP-Method-Override, X-HTTP-Method, X-Method-Override, ?_method=), wherever the target answers the run's token so as by ${op.method} itself`,
    overrideGuards,
    async ({ api, limitedApi, config }) => {
      test.skip(
        id === 'events.subscribe',
        'The events probe opens its stream through the SSE harness, by GET as the document gives it',
      );
      // Every request of it goes by POST or PUT, which a read-only run never sends.
      test.skip(
        config.writes === 'none',
        'CONFORMANCE_WRITES=none: a method override is sent by POST or PUT, which a read-only run never sends',
      );
      const target = await lookUp(api, config);
      await around(api, config, async () => {
        const plain = await probe(api, config, 'token', target);
        const unhonoured: string[] = [];
        for (const { what, override } of METHOD_OVERRIDES) {
          const tunnelled = await probe(overridden(api, override), config, 'token', target);
          if (tunnelled.status !== plain.status) {
            unhonoured.push(
              `${tunnelled.method} with ${what} ${op.method} is answered ${tunnelled.status}, ${op.method} ${plain.status}`,
            );
            continue;
          }
          const none = await probe(overridden(api, override), config, 'none', target);
          mustRefuse(
            overrideGuards.authBearerRequired,
            none,
            `no Authorization header, sent by ${none.method} with ${what} ${op.method}, which the target takes as ${op.method}`,
          );
          mustBeJsonErrorBody(overrideGuards, none);
          const ex = await probe(overridden(limitedApi, override), config, 'token', target);
          mustRefuse(
            overrideGuards.authScopeEnforced,
            ex,
            `the token holds none of the in-scope scopes (e.g. ${op.scopes.join(', ')}), sent by ${ex.method} with ${what} ${op.method}, which the target takes as ${op.method}`,
          );
          mustBeJsonErrorBody(overrideGuards, ex);
        }
        test.skip(
          unhonoured.length === METHOD_OVERRIDES.length,
          `The target honours no method override: ${unhonoured.join('; ')} (a server need not)`,
        );
      });
    },
  );

  narrowedScopeCheck({ id, op, probe, around, lookUp });

  const accepted = declareRules('oauth.token.accepted');
  test(
    'should accept the run\'s token, its scheme in any case and after one or more spaces (RFC 9110 11.1: the scheme is case-insensitive; RFC 6750 2.1: credentials = "Bearer" 1*SP b64token)',
    accepted,
    async ({ api, anonApi, config }) => {
      const target = await lookUp(api, config);
      const unaddressable = acceptance.unaddressable?.(config, target);
      test.skip(unaddressable !== undefined, `${unaddressable}; no answer would show that the token is accepted`);
      await around(api, config, async () => {
        // The grammar's partitions: the scheme in each case, then one space (every other check) or more than one.
        // Against an external target, one other partition per operation (every other check sends "Bearer ").
        const spellings = ['bearer ', 'BEARER ', 'Bearer  ', 'bEaReR   '];
        const schemes = config.embedded ? ['Bearer ', ...spellings] : shareOut(config, id, spellings.slice(0, 3));
        for (const scheme of schemes) {
          const ex =
            scheme === 'Bearer '
              ? await probe(api, config, 'token', target)
              : await probe(anonApi, config, { header: `${scheme}${config.runToken!}` }, target);
          const success = ex.status >= 200 && ex.status < 300;
          // A refusal for a reason the document leaves open (never 401/403, never a 5xx) does not refuse the token.
          const openRefusal =
            acceptance.open !== undefined &&
            ex.status >= 400 &&
            ex.status < 500 &&
            ex.status !== 401 &&
            ex.status !== 403;
          must(accepted.oauthTokenAccepted, success || openRefusal, {
            expected: `${acceptance.open ? `a 2xx, or a 4xx other than 401 and 403 (${acceptance.open})` : 'a 2xx success'} for Authorization: ${JSON.stringify(`${scheme}<the run's token>`)}`,
            actual: `status ${ex.status}`,
            exchange: ex,
          });
          if (openRefusal)
            observe('oauth.token.accepted.other-refusal', `${id}: the run's token answered`, String(ex.status));
        }
      });
    },
  );
}

/** The rules a check of narrowed tokens decides: on the token-set listing, its documented 403 as well. */
function narrowedTokenRules(
  listing: boolean,
): Declaration<'auth.scope.enforced' | 'oauth.token.jwt' | 'http.json-error-bodies' | 'http.unauthorized.challenge'> &
  Partial<Declared<'token-sets.list.insufficient-scope'>> {
  return listing
    ? declareRules(
        'auth.scope.enforced',
        'token-sets.list.insufficient-scope',
        'oauth.token.jwt',
        'http.json-error-bodies',
        'http.unauthorized.challenge',
      )
    : declareRules('auth.scope.enforced', 'oauth.token.jwt', 'http.json-error-bodies', 'http.unauthorized.challenge');
}

/**
 * Tokens of the run's own client, narrowed at the token endpoint (RFC 6749 3.3, 4.4.2) away from the
 * operation's scopes, are refused on every operation: to read:users (the users resource, under which the
 * token-set listing lives) and to the client's read scope nearest to the operation's that no operation
 * of the interface uses. A check of the client's scopes instead of the token's lets them through.
 * Where the endpoint does not narrow (RFC 6749 3.3 lets it ignore the scope asked), nothing is decided.
 */
function narrowedScopeCheck({ id, op, probe, around, lookUp }: Probing): void {
  const listing = id === 'token-sets.list';
  const narrowedAway = narrowedTokenRules(listing);
  test(
    "should refuse the run client's tokens narrowed away from the operation's scopes (to read:users, to the nearest read scope no operation uses, to no scope at all, to every other operation's scope)",
    narrowedAway,
    async ({ api, anonApi, config }) => {
      const creds = config.credentials;
      test.skip(
        !creds,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET are not set: a static token cannot be narrowed',
      );
      const held = String(decodeJwt(config.runToken ?? '')?.payload.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const unrelated = held
        .filter((s) => s.startsWith('read:') && s !== 'read:users' && !inScopeScopes.includes(s))
        .sort((a, b) => nearness(a, op.scopes) - nearness(b, op.scopes) || a.localeCompare(b))[0];
      // The partitions of a narrowed scope: another resource's, the nearest read scope, and none at all
      // (scope= empty). RFC 6749 3.1 has a parameter sent empty treated as omitted, so a server that follows it
      // grants the default scopes there, and the partition is left untried (below: the token must hold none of
      // the operation's scopes); one that grants no scope holds none of them, and is refused.
      // And the complement: every other operation's scope the client holds, none of this one's. A check for
      // "any scope of the interface" (one scope constant shared by two routes) lets it through.
      const others = held.filter((s) => inScopeScopes.includes(s) && !op.scopes.includes(s));
      const sets: string[][] = [
        ['read:users'],
        ...(unrelated ? [[unrelated]] : []),
        [],
        ...(others.length ? [others] : []),
      ];
      // Against an external target, one narrowed token to one read, the client grant's (the token-set
      // listing has its own narrowed tokens, tests/scopes.spec.ts), to keep within the request budget.
      const share = config.embedded ? sets : id === 'client-grants.get' ? sets.slice(0, 1) : [];
      test.skip(
        share.length === 0,
        'Against an external target the narrowed token goes to the client grant only (request budget)',
      );
      const target = await lookUp(api, config);
      let tried = 0;
      for (const wanted of share) {
        const a = await narrowedToken(config, creds!, wanted.join(' '));
        const token = accessTokenOf(a);
        if (token === undefined) continue;
        // A narrowed token is an issued token: a JWT like every other (oauth.token.jwt).
        mustBeJwt(narrowedAway, token, `the token request with scope=${JSON.stringify(wanted.join(' '))}`);
        const granted = grantedScope(a.json, token, wanted.join(' ')).scope.split(' ').filter(Boolean);
        // Only a token really narrowed, holding none of the operation's scopes, tells anything.
        if (granted.some((g) => op.scopes.includes(g) || !wanted.includes(g))) continue;
        tried++;
        await around(api, config, async () => {
          // On the resource addressed, then (on the embedded emulator) on ids no resource has: the listing's 403
          // holds whatever user the path names (Errors), the one that does not exist and the over-length id too.
          let first: Exchange | undefined;
          for (const a of addresses(id, config, target)) {
            const ex = await probe(anonApi, a.config, bearer(token), a.target);
            const why = `a token narrowed to ${wanted.join(' ') || 'no scope (scope= empty)'}, none of ${op.scopes.join(', ')} (${a.what})`;
            if (narrowedAway.tokenSetsListInsufficientScope)
              mustStatus(narrowedAway.tokenSetsListInsufficientScope, ex, 403);
            mustRefuse(narrowedAway.authScopeEnforced, ex, why);
            mustBeJsonErrorBody(narrowedAway, ex);
            mustFollowStatusChecklist(narrowedAway, ex);
            if (!listing)
              observe('auth.forbidden.status', `${id}: token without the scopes answered`, String(ex.status));
            mustMatchExisting(narrowedAway.authScopeEnforced, first, ex, a);
            first ??= ex;
          }
        });
      }
      test.skip(
        tried === 0,
        `The token endpoint narrowed no token to ${share.map((w) => w.join(' ') || 'no scope').join(' or ')}; whether it must is not shown (RFC 6749 3.3)`,
      );
    },
  );
}

/**
 * Relation: a scope set is a set (RFC 6749 3.3: "If the value contains multiple space-delimited strings, their
 * order does not matter"), so tokens of the run's own client narrowed to the same scopes asked in other orders
 * (reversed, the operation's scope first or last, rotated) are answered as the one asked sorted: served alike, or
 * refused alike for their credentials (401/403), never a 5xx. On the token-set listing each holds its required
 * scope, so each is served there ("any of the required scopes is expected"). A guard that searches the token's
 * scope claim as if it were sorted, or reads its first or last scope alone, answers one order otherwise.
 * Where the endpoint does not narrow a token to the set as asked (RFC 6749 3.3 lets it), nothing is decided.
 */
function scopeOrderCheck({ id, op, probe, around, lookUp }: Probing): void {
  const listing = id === 'token-sets.list';
  const orders: Declaration<'oauth.token.accepted' | 'oauth.token.jwt'> &
    Partial<Declared<'token-sets.list.any-required-scope'>> = listing
    ? declareRules('oauth.token.accepted', 'oauth.token.jwt', 'token-sets.list.any-required-scope')
    : declareRules('oauth.token.accepted', 'oauth.token.jwt');
  test(
    "should answer alike the run client's tokens narrowed to the same scopes (the operation's among others) asked in other orders: reversed, the operation's scope first or last, rotated (RFC 6749 3.3: the order of scopes does not matter)",
    orders,
    async ({ api, anonApi, config }) => {
      const creds = config.credentials;
      test.skip(
        !creds,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET are not set: a static token cannot be narrowed',
      );
      test.skip(op.scopes.length === 0, 'The operation names no scope');
      // Its token requests are beyond a read-only run's request budget (selftest/suite/budget.test.ts).
      skipBeyondReadOnlyBudget(config, 'the tokens narrowed to a scope set in several orders are');
      const key = op.scopes[0]!;
      const held = String(decodeJwt(config.runToken ?? '')?.payload.scope ?? '')
        .split(' ')
        .filter(Boolean);
      // Beside the operation's scopes, three the client holds (else other operations' scopes): the one sorted just
      // before the operation's and the two just after, so that no order of the set is sorted by accident.
      const candidates = [...new Set(held.length ? held : inScopeScopes)].filter((s) => !op.scopes.includes(s)).sort();
      const below = candidates.filter((s) => s < key);
      const above = candidates.filter((s) => s > key);
      const picked = [...below.slice(-1), ...above.slice(0, 2)];
      for (const s of candidates) if (picked.length < 3 && !picked.includes(s)) picked.push(s);
      const set = [...op.scopes, ...picked];
      test.skip(set.length < 2, "The client holds no scope beside the operation's: no set to ask in other orders");
      const tokens: Array<{ what: string; scope: string; token: string }> = [];
      for (const order of scopeOrders(set, key)) {
        const scope = order.scopes.join(' ');
        const a = await narrowedToken(config, creds!, scope);
        const token = accessTokenOf(a);
        if (token === undefined) continue;
        mustBeJwt(orders, token, `the token request with scope=${JSON.stringify(scope)} (${order.what})`);
        // Only a token narrowed to the set as asked (in any order) tells anything.
        const granted = grantedScope(a.json, token, scope).scope.split(' ').filter(Boolean);
        if (granted.length !== set.length || !set.every((s) => granted.includes(s))) continue;
        tokens.push({ what: order.what, scope, token });
      }
      test.skip(
        tokens.length < 2,
        `The token endpoint narrowed fewer than two tokens to ${set.join(' ')} in its orders; whether it must is not shown (RFC 6749 3.3)`,
      );
      const target = await lookUp(api, config);
      /** What the answer says of the token: served (2xx, or a 4xx for a point the document leaves open), refused for it (401/403), or a 5xx. */
      const outcome = (ex: Exchange) =>
        ex.status >= 500 ? 'a 5xx' : ex.status === 401 || ex.status === 403 ? 'refused for its token' : 'served';
      await around(api, config, async () => {
        let first: { what: string; ex: Exchange } | undefined;
        for (const t of tokens) {
          const ex = await probe(anonApi, config, bearer(t.token), target);
          if (orders.tokenSetsListAnyRequiredScope)
            must(orders.tokenSetsListAnyRequiredScope, ex.status !== 401 && ex.status !== 403 && ex.status < 500, {
              expected: `the listing served to a token holding ${key}, its required scope ("any of the required scopes is expected"), asked as scope=${JSON.stringify(t.scope)} (${t.what})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          if (first)
            must(orders.oauthTokenAccepted, outcome(ex) === outcome(first.ex), {
              expected: `the answer the same scopes asked ${first.what} got (${first.ex.status}, ${outcome(first.ex)}): a token asked as scope=${JSON.stringify(t.scope)} (${t.what}) holds the same set (RFC 6749 3.3: order does not matter)`,
              actual: `status ${ex.status} (${outcome(ex)})`,
              exchange: ex,
            });
          else
            must(orders.oauthTokenAccepted, ex.status < 500, {
              expected: `a 2xx or a 4xx, never a 5xx, to a token asked as scope=${JSON.stringify(t.scope)} (${t.what})`,
              actual: `status ${ex.status}`,
              exchange: ex,
            });
          first ??= { what: t.what, ex };
        }
      });
    },
  );
}

/**
 * Reads a token narrowed to their scope can be served on first, each with the request that addresses it (none where
 * the run names no resource for it): the event stream listing, a client grant, the token-set listing.
 */
const FIRST_READS: ReadonlyArray<{ id: ProbedOperation; path: (c: Config) => string | undefined }> = [
  { id: 'event-streams.list', path: () => pathOf('event-streams.list') },
  {
    id: 'client-grants.get',
    path: (c) => (c.clientGrantId ? pathOf('client-grants.get', { id: c.clientGrantId }) : undefined),
  },
  { id: 'token-sets.list', path: (c) => (c.userId ? pathOf('token-sets.list', { id: c.userId }) : undefined) },
];

/**
 * Relation over a sequence: a scope decision is the operation's, not the token's. A token of the run's own client
 * narrowed to another operation's scope (RFC 6749 3.3), one none of this operation's scopes, is served on that
 * operation first (a read: the event stream listing, a client grant, the token-set listing), and then still refused
 * here, as a token holding none of the in-scope scopes is. A server that remembers a token as authorised once it
 * passed one operation's check (a decision memoised by the token alone) admits it. Where the endpoint does not narrow
 * a token to the scope, or the other operation does not serve it, nothing is decided (other checks judge that).
 */
function scopeSequenceCheck({ id, op, probe, around, lookUp }: Probing): void {
  const listing = id === 'token-sets.list';
  const sequence = narrowedTokenRules(listing);
  test(
    "should still refuse a token narrowed to another operation's scope after that operation served it (relation over a sequence: served first on the event stream listing, a client grant or the token-set listing, then refused here, holding none of the operation's scopes: the scope decision is the operation's, not the token's)",
    sequence,
    async ({ api, anonApi, config }) => {
      const creds = config.credentials;
      test.skip(
        !creds,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET are not set: a static token cannot be narrowed',
      );
      // Its token requests are beyond a read-only run's request budget (selftest/suite/budget.test.ts).
      skipBeyondReadOnlyBudget(config, 'the narrowed tokens served on another operation first are');
      // Each read whose scope this operation does not take (the two event stream operations share theirs).
      const firsts = FIRST_READS.filter(
        (r) => r.id !== id && !operation(r.id).scopes.some((s) => op.scopes.includes(s)),
      ).flatMap((r) => {
        const path = r.path(config);
        const scope = operation(r.id).scopes[0];
        return path && scope ? [{ id: r.id, path, scope }] : [];
      });
      // Against an external target (with writes on), the first read alone: one token request per operation.
      const share = config.embedded ? firsts : firsts.slice(0, 1);
      const target = await lookUp(api, config);
      const untried: string[] = [];
      for (const f of share) {
        const first = operation(f.id);
        const a = await narrowedToken(config, creds!, f.scope);
        const token = accessTokenOf(a);
        if (token === undefined) {
          untried.push(`scope=${f.scope} got no token (status ${a.status})`);
          continue;
        }
        mustBeJwt(sequence, token, `the token request with scope=${JSON.stringify(f.scope)}`);
        // Only a token narrowed to that scope alone, none of this operation's, tells anything.
        const granted = grantedScope(a.json, token, f.scope).scope.split(' ').filter(Boolean);
        if (granted.some((g) => g !== f.scope)) {
          untried.push(`scope=${f.scope} got a token of ${granted.join(' ') || 'no scope'}`);
          continue;
        }
        // First: served where its scope is the operation's.
        const served = await anonApi.get(f.path, { auth: bearer(token) });
        if (served.status < 200 || served.status >= 300) {
          untried.push(`${first.method} ${first.path} answered ${served.status} to the token narrowed to ${f.scope}`);
          continue;
        }
        // Then: refused here, where it holds none of the operation's scopes.
        await around(api, config, async () => {
          const ex = await probe(anonApi, config, bearer(token), target);
          const why = `a token narrowed to ${f.scope}, none of ${op.scopes.join(', ')}, after ${first.method} ${first.path} served it (${served.status})`;
          if (sequence.tokenSetsListInsufficientScope) mustStatus(sequence.tokenSetsListInsufficientScope, ex, 403);
          mustRefuse(sequence.authScopeEnforced, ex, why);
          mustBeJsonErrorBody(sequence, ex);
          mustFollowStatusChecklist(sequence, ex);
        });
      }
      test.skip(
        untried.length === share.length,
        `No narrowed token was served on another operation first: ${untried.join('; ') || 'no other read is addressable'} (whether the endpoint narrows is not shown, RFC 6749 3.3)`,
      );
    },
  );
}

/** How near a scope is to an operation's: the length of the longest resource suffix they share (read:x_y near update:x_y). */
function nearness(scope: string, scopes: readonly string[]): number {
  const resource = (s: string) => s.slice(s.indexOf(':') + 1);
  let best = 0;
  for (const s of scopes) {
    const a = resource(scope);
    const b = resource(s);
    let n = 0;
    while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
    best = Math.max(best, n);
  }
  return -best;
}

/** The payload with its scope raised to every in-scope scope (in the claim forms the token uses). */
function raiseScope(p: Record<string, unknown>): Record<string, unknown> {
  const raised: Record<string, unknown> = { ...p, scope: inScopeScopes.join(' ') };
  if (Array.isArray(p.scp)) raised.scp = [...inScopeScopes];
  if (Array.isArray(p.permissions)) raised.permissions = [...inScopeScopes];
  return raised;
}

/** The payload with every scope claim a token may carry taken out (scope, scp, permissions). */
function withoutScope(p: Record<string, unknown>): Record<string, unknown> {
  const { scope: _scope, scp: _scp, permissions: _permissions, ...rest } = p;
  return rest;
}

/** A client id no tenant has: a forged token's claims may name it. */
const UNKNOWN_CLIENT = 'conformance-unknown-client';

/**
 * The payload naming a client the tenant does not have: azp (the authorized party, OIDC Core 2), sub (RFC 7519
 * 4.1.2; `<client>@clients` where the token's is so spelt) and client_id (RFC 9068 2.2) where it is there.
 */
function namingUnknownClient(p: Record<string, unknown>): Record<string, unknown> {
  const sub = typeof p.sub === 'string' && p.sub.endsWith('@clients') ? `${UNKNOWN_CLIENT}@clients` : UNKNOWN_CLIENT;
  return { ...p, azp: UNKNOWN_CLIENT, sub, ...('client_id' in p ? { client_id: UNKNOWN_CLIENT } : {}) };
}
