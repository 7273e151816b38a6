/**
 * Authentication 1, 2, 4, 5: the OAuth 2.0 client-credentials token endpoint,
 * POST {auth_url}/oauth/token/ (with the slash) with a form body and the
 * parameter audience /api/v2/; the token it issues is a JWT.
 * Token lifetime, claims and the error shape are not shown (observed).
 */
import { isJsonMediaType, type Api, type Exchange } from '../harness/requests/client.ts';
import { must, mustBeJsonErrorBody, mustMatchSchema, observe } from '../harness/vocabulary/must.ts';
import type { ClientCredentials, Config } from '../harness/run/config.ts';
import { requireFixture, skipBeyondReadOnlyBudget, test } from '../harness/fixtures/fixtures.ts';
import { countRequest } from '../harness/verdicts/request-log.ts';
import {
  contentTypeOf,
  DOCUMENTED,
  describeForm,
  FALLBACKS,
  narrowedToken,
  requestToken,
  basicCredentials,
  TOKEN_PATH,
  type ClientAuthentication,
  formBody,
  type TokenAnswer,
  type TokenParams,
  type TokenRequestForm,
  describeNetworkError,
  parseJsonBytes,
  TargetError,
} from '../harness/requests/tokens.ts';
import { encodedNameSpellings, rawFormBody } from '../harness/vocabulary/token-partitions.ts';
import { decodeJwt, grantedScope } from '../harness/vocabulary/jwt.ts';
import { declareRules, schemaRules, type RuleRef } from '../harness/vocabulary/declare.ts';
import {
  hasChallenge,
  mustBeJwt,
  mustFollowStatusChecklist,
  mustFollowTokenResponseChecklist,
  tokenErrorProblem,
} from '../harness/vocabulary/auth-checks.ts';
import { ADMITS_JSON, admitsJsonArb, nearMissSpellings, sameMediaType } from '../harness/vocabulary/partitions.ts';
import { fc } from '../harness/vocabulary/properties.ts';
import { inScopeScopes, pathOf } from '../spec/operations.ts';

/** Sends a token request and keeps it as evidence, with the secret replaced by a placeholder and the token redacted. */
async function tokenExchange(
  config: Config,
  creds: ClientCredentials,
  form: TokenRequestForm = DOCUMENTED,
  clientAuth: ClientAuthentication = { in: 'body' },
  extra: TokenParams = {},
): Promise<Exchange> {
  countRequest('POST', form.path);
  const a = await requestToken(config, creds, extra, config.timeoutMs, form, clientAuth);
  return exchangeOf(config, creds, a, form, clientAuth, extra);
}

/**
 * Whether a token was granted any scope, where its response does not say:
 * its scope claim (claim contents are not shown, so read only where it is
 * there), else whether the token-set listing, which requires
 * read:federated_connections_tokens, takes it (a 2xx, or 404 for a user
 * unknown: authorised). What shows it, or undefined.
 */
async function grantedAnyScope(config: Config, api: Api, token: string): Promise<string | undefined> {
  const claim = decodeJwt(token)?.payload.scope;
  if (typeof claim === 'string' && claim.trim()) return `its scope claim: ${claim}`;
  const path = pathOf('token-sets.list', { id: config.userId ?? 'conformance-nobody' });
  const ex = await api.get(path, { auth: { header: `Bearer ${token}` } });
  return (ex.status >= 200 && ex.status < 300) || ex.status === 404
    ? `GET ${path} answered ${ex.status} to it, and requires read:federated_connections_tokens`
    : undefined;
}

/** A token answer as evidence, with the secret replaced by a placeholder and the token redacted. */
function exchangeOf(
  config: Config,
  creds: ClientCredentials,
  a: TokenAnswer,
  form: TokenRequestForm = DOCUMENTED,
  clientAuth: ClientAuthentication = { in: 'body' },
  extra: TokenParams = {},
): Exchange {
  // A client_secret the request carries besides is never printed either: the client's, or one made from it.
  const secret = extra['client_secret'];
  const hidden = (v: string) => (v === creds.clientSecret ? '<client_secret>' : '<another client_secret>');
  const params = {
    grant_type: 'client_credentials',
    ...(clientAuth.in === 'body' ? { client_id: creds.clientId, client_secret: '<client_secret>' } : {}),
    audience: config.audience,
    ...extra,
    ...(secret === undefined
      ? {}
      : { client_secret: typeof secret === 'string' ? hidden(secret) : secret.map(hidden) }),
  };
  const headers: Record<string, string> = {};
  if (a.cacheControl !== undefined) headers['cache-control'] = a.cacheControl;
  if (a.pragma !== undefined) headers['pragma'] = a.pragma;
  if (a.wwwAuthenticate !== undefined) headers['www-authenticate'] = a.wwwAuthenticate;
  return {
    method: 'POST',
    target: form.path,
    url: `${config.authUrl}${form.path}`,
    authorization: clientAuth.in === 'basic' ? 'custom' : 'none',
    requestContentType: contentTypeOf(form),
    requestBody:
      form.body === 'form'
        ? formBody(params).toString()
        : form.json
          ? withoutSecret(JSON.stringify(form.json.value), creds.clientSecret)
          : JSON.stringify(params),
    status: a.status,
    headers,
    contentType: a.contentType,
    text: a.text.replace(/"access_token"\s*:\s*"[^"]*"/, '"access_token":"<redacted>"'),
    json: a.json,
    waitedMs: 0,
  };
}

/**
 * Sends a token request whose form body is these name=value pairs, each name as written (so that a name can be
 * percent-encoded, which URLSearchParams would encode again) and each value form-encoded, and keeps it as
 * evidence: the client's secret, and each of `secrets` made from it, replaced by a placeholder, the token redacted.
 */
async function rawTokenExchange(
  config: Config,
  creds: ClientCredentials,
  pairs: readonly Pair[],
  secrets: readonly string[] = [],
  sent?: { contentType: string; body: string },
): Promise<Exchange> {
  countRequest('POST', TOKEN_PATH);
  const url = `${config.authUrl}${TOKEN_PATH}`;
  const contentType = sent?.contentType ?? 'application/x-www-form-urlencoded';
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'application/json' },
      body: sent?.body ?? rawFormBody(pairs),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (e) {
    throw new TargetError(describeNetworkError(url, e));
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  const hide = (v: string) =>
    v === creds.clientSecret ? '<client_secret>' : secrets.includes(v) ? '<another client_secret>' : v;
  const headers: Record<string, string> = {};
  for (const name of ['cache-control', 'pragma', 'www-authenticate']) {
    const v = res.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  return {
    method: 'POST',
    target: TOKEN_PATH,
    url,
    authorization: 'none',
    requestContentType: contentType,
    requestBody:
      sent === undefined
        ? rawFormBody(pairs.map(([n, v]) => [n, hide(v)] as const))
        : withoutSecret(sent.body.length > 2_000 ? `${sent.body.slice(0, 2_000)}…` : sent.body, creds.clientSecret),
    status: res.status,
    headers,
    contentType: res.headers.get('content-type') ?? '',
    text: text.replace(/"access_token"\s*:\s*"[^"]*"/, '"access_token":"<redacted>"'),
    json: parseJsonBytes(bytes),
    waitedMs: 0,
  };
}

/** A name=value pair of a form body, the name as written. */
type Pair = readonly [string, string];
/** Two pairs, in this order. */
const twice = (first: Pair, second: Pair): Pair[] => [first, second];

/** A body as evidence with the client's secret, as JSON or a form spells it, replaced by a placeholder. */
function withoutSecret(text: string, secret: string): string {
  const spellings = [JSON.stringify(secret).slice(1, -1), formBody({ s: secret }).toString().slice(2)];
  return spellings.reduce((t, s) => (s ? t.replaceAll(s, '<client_secret>') : t), text);
}

/** The token request as a JSON object to the documented path: not the documented form, which a server may take. */
const JSON_BODY: TokenRequestForm = { path: TOKEN_PATH, body: 'json' };

const accessToken = (ex: Exchange): unknown => (ex.json as { access_token?: unknown } | undefined)?.access_token;

/** A refused token request: a 4xx, no access_token, and the error response of RFC 6749 5.2 (tokenErrorProblem). */
function mustRefuseToken(rule: RuleRef, ex: Exchange, why: string): void {
  must(rule, ex.status >= 400 && ex.status < 500 && accessToken(ex) === undefined, {
    expected: `a 4xx and no access_token: ${why}`,
    actual: `status ${ex.status}${accessToken(ex) === undefined ? '' : ', an access_token'}`,
    exchange: ex,
  });
  const problem = tokenErrorProblem(ex.contentType, ex.json);
  must(rule, problem === undefined, {
    expected: `the error response of RFC 6749 5.2 (${why}): a JSON object, Content-Type application/json, with "error" a non-empty ASCII code`,
    actual: problem ?? '',
    exchange: ex,
  });
}

/** What the undocumented forms of the request get, for the failure's detail: a tenant owner sees what the endpoint does take. */
async function otherForms(config: Config, creds: ClientCredentials): Promise<string> {
  const lines: string[] = [];
  for (const form of FALLBACKS) {
    const ex = await tokenExchange(config, creds, form).catch((e: Error) => e);
    lines.push(
      `${describeForm(form)}: ${ex instanceof Error ? ex.message : `status ${ex.status}${typeof accessToken(ex) === 'string' ? ', a token' : ''}`}`,
    );
  }
  const setup = config.tokenFallback;
  return [
    `undocumented forms (not required, for diagnosis): ${lines.join('; ')}`,
    ...(setup ? [`the run's own tokens: ${setup}`] : []),
  ].join('\n');
}

test.describe('token endpoint @auth', () => {
  const endpoint = declareRules('oauth.token.endpoint', 'oauth.token.response', schemaRules('token-response'));
  test(
    'should issue a token for a form body POSTed to /oauth/token/ with audience /api/v2/, naming its scope unless it is the one requested (RFC 6749 5.1)',
    endpoint,
    async ({ config, anonApi }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      const ex = await tokenExchange(config, creds);
      const issued = ex.status === 200 && typeof accessToken(ex) === 'string';
      must(endpoint.oauthTokenEndpoint, issued, {
        expected: `status 200 with an access_token, to ${describeForm(DOCUMENTED)} (application/x-www-form-urlencoded)`,
        actual: `status ${ex.status}${ex.status === 200 ? ', no access_token' : ''}`,
        exchange: ex,
        detail: issued ? undefined : await otherForms(config, creds),
      });
      mustMatchSchema('token-response', ex.json, ex);
      // RFC 6749 5.1's checklist (token_type Bearer, RFC 6750 4; Cache-Control: no-store, Pragma: no-cache), as on
      // every token response.
      mustFollowTokenResponseChecklist(endpoint, ex);
      const { expires_in, token_type, scope } = ex.json as { expires_in?: number; token_type: string; scope?: string };
      if (issued && scope === undefined) {
        // RFC 6749 5.1: scope is OPTIONAL "if identical to the scope requested by the client; otherwise, REQUIRED"
        // (3.3: the server MUST include it when the scope issued differs). This request names no scope: a token
        // granted any scope must say which.
        const granted = await grantedAnyScope(config, anonApi, accessToken(ex) as string);
        must(endpoint.oauthTokenResponse, granted === undefined, {
          expected:
            'scope in the token response: the request named no scope, and RFC 6749 5.1 makes scope REQUIRED unless it is the scope requested',
          actual: `no scope member, though the token was granted scopes (${granted})`,
          exchange: ex,
        });
      }
      observe(
        'oauth.token.error-shape',
        'token response',
        `token_type ${token_type}, expires_in ${expires_in === undefined ? 'absent' : 'present'}, scope ${scope === undefined ? 'absent' : 'present'}`,
        { expires_in },
      );
    },
  );

  test(
    'should issue a token for the form body under every spelling of its media type (RFC 9110 8.3.1: type and subtype in any case, a charset parameter)',
    endpoint,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // Against an external target one request: the type with "; charset=utf-8", what many HTTP clients send.
      const spellings = sameMediaType('application/x-www-form-urlencoded').slice(1);
      for (const contentType of config.embedded ? spellings : spellings.slice(2, 3)) {
        const form = { ...DOCUMENTED, contentType };
        const ex = await tokenExchange(config, creds, form);
        must(endpoint.oauthTokenEndpoint, ex.status === 200 && typeof accessToken(ex) === 'string', {
          expected: `status 200 with an access_token, to a form body sent as Content-Type: ${contentType} (the same media type as application/x-www-form-urlencoded)`,
          actual: `status ${ex.status}`,
          exchange: ex,
        });
      }
    },
  );

  test(
    'should answer the token request in JSON whatever Accept admits it: none, application/json, a list, a wildcard (RFC 6749 5.1: the parameters in the entity-body, application/json; RFC 9110 12.5.1)',
    endpoint,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // Against an external target one request: no Accept at all, what a bare HTTP client sends.
      // Against the embedded emulator, no Accept, every listed value and a few drawn from RFC 9110's grammar.
      const seed = config.fc.seed;
      const accepts: Array<string | null> = config.embedded
        ? [null, ...ADMITS_JSON, ...fc.sample(admitsJsonArb(), { numRuns: 3, ...(seed === undefined ? {} : { seed }) })]
        : [null];
      for (const accept of accepts) {
        const ex = await tokenExchange(config, creds, { ...DOCUMENTED, accept });
        const sent = accept === null ? 'no Accept header' : `Accept: ${accept}`;
        must(endpoint.oauthTokenEndpoint, ex.status === 200 && typeof accessToken(ex) === 'string', {
          expected: `status 200 with an access_token in a JSON body, to the documented request with ${sent}`,
          actual: `status ${ex.status}, Content-Type ${ex.contentType || '(none)'}`,
          exchange: ex,
        });
        must(endpoint.oauthTokenResponse, isJsonMediaType(ex.contentType), {
          expected: `Content-Type application/json (RFC 6749 5.1), to ${sent}`,
          actual: `Content-Type ${ex.contentType || '(none)'}`,
          exchange: ex,
        });
        mustFollowTokenResponseChecklist(endpoint, ex);
      }
    },
  );

  test(
    'should issue a token to the documented request with parameters it does not know besides (RFC 6749 3.2: unrecognized request parameters MUST be ignored)',
    endpoint,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const extra = { 'x-conformance': 'ignore-me', state: 'abc' };
      const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, extra);
      must(endpoint.oauthTokenEndpoint, ex.status === 200 && typeof accessToken(ex) === 'string', {
        expected:
          'status 200 with an access_token, to the documented request with two unrecognized parameters after it',
        actual: `status ${ex.status}`,
        exchange: ex,
      });
    },
  );

  const grantType = declareRules('oauth.token.grant-type');
  test(
    'should refuse the documented request with grant_type empty, of another grant type whose own parameters it lacks, client_credentials as an extension grant URN, or a near miss of client_credentials (case folded, padded, invisible characters, cut, look-alike letters, separators swapped or dropped), and issue no token (RFC 6749 4.4.2: "Value MUST be set to client_credentials"; 5.2)',
    grantType,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const others: Array<[string, string]> = [
        ['', 'empty'],
        ['password', 'the password grant, without username and password'],
        ['authorization_code', 'the authorization code grant, without a code'],
        ['refresh_token', 'the refresh token grant, without a refresh token'],
        ['urn:ietf:params:oauth:grant-type:jwt-bearer', 'the JWT bearer grant (RFC 7523), without an assertion'],
        // The form of an extension grant (RFC 6749 4.5: an absolute URI), in the namespace RFC 6755 registers for
        // OAuth: no grant is registered under this name, and a server that strips the namespace reads another value.
        [
          'urn:ietf:params:oauth:grant-type:client_credentials',
          'client_credentials spelt as an extension grant URN (RFC 6749 4.5, RFC 6755), which names no grant',
        ],
        // The enum's partitions (nearMissSpellings): a value read by a comparison that folds case, trims or
        // ignores invisible characters is not the value the RFC requires, as it is not for any other enum.
        ...nearMissSpellings('client_credentials').map((v): [string, string] => [
          v,
          'a near miss of client_credentials',
        ]),
      ];
      // Every one wherever the check runs: against an external target it runs only with writes on (above).
      for (const [value, what] of others) {
        const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, { grant_type: value });
        mustRefuseToken(
          grantType.oauthTokenGrantType,
          ex,
          `grant_type ${JSON.stringify(value)} (${what}) is not client_credentials`,
        );
      }
    },
  );

  const notAnObject = declareRules('oauth.token.response', 'oauth.token.grant-type');
  test(
    'should refuse a token request in JSON whose body is no object (null, the parameters in an array, the form as a JSON string, a number, true), with an error and never a 5xx, where the endpoint takes the request as a JSON object (RFC 8259 3; RFC 6749 4.4.2: grant_type REQUIRED; 5.2: invalid_request)',
    notAnObject,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // A JSON body is not the documented request: only where the endpoint takes one (the request's parameters
      // as a JSON object) is a body of another JSON type a request it reads, which carries no grant_type.
      const asObject = await tokenExchange(config, creds, JSON_BODY);
      // Taken or refused, never a 5xx: a server that does not take JSON says so with a 4xx.
      must(notAnObject.oauthTokenGrantType, asObject.status < 500, {
        expected: 'a token or a 4xx refusal of the request as a JSON object',
        actual: `status ${asObject.status}`,
        exchange: asObject,
      });
      if (typeof accessToken(asObject) !== 'string') {
        observe(
          'oauth.token.error-shape',
          'the token request as a JSON object (not the documented form)',
          String(asObject.status),
        );
        return;
      }
      // Taken, it is a token response like the documented one's: RFC 6749 5.1's checklist (Cache-Control: no-store
      // and Pragma: no-cache on every response holding a token), whichever media type carried the request.
      mustFollowTokenResponseChecklist(notAnObject, asObject);
      const params = {
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
        audience: config.audience,
      };
      const bodies: Array<[string, unknown]> = [
        ['null', null],
        ['the parameters in an array', [params]],
        ['the form body as a JSON string', formBody(params).toString()],
        ['a number', 1],
        ['true', true],
      ];
      for (const [what, value] of bodies) {
        const ex = await tokenExchange(config, creds, { ...JSON_BODY, json: { value } });
        mustRefuseToken(
          notAnObject.oauthTokenGrantType,
          ex,
          `a JSON body that is ${what}, no object, carries no grant_type (RFC 6749 4.4.2, 5.2: invalid_request)`,
        );
      }
    },
  );

  const otherAudience = declareRules('oauth.token.endpoint');
  test(
    "should answer a token request for an audience the tenant does not serve (the API's path on the .invalid host of RFC 6761) with a token or the error response of RFC 6749 5.2, never a 5xx",
    otherAudience,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "this token request (which counts against the tenant's quota) is");
      // Whether such a request is refused is not shown (RFC 8707 2 names invalid_target for it): a refusal,
      // where there is one, is the endpoint's error response.
      const audience = 'https://conformance.invalid/api/v2/';
      const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, { audience });
      if (ex.status === 200 && typeof accessToken(ex) === 'string') {
        observe('oauth.token.error-shape', `a token request for the audience ${audience}`, 'a token (200)');
        return;
      }
      mustRefuseToken(
        otherAudience.oauthTokenEndpoint,
        ex,
        `the audience ${audience}, which the tenant does not serve, refused`,
      );
    },
  );

  const framings = declareRules('oauth.token.endpoint');
  const OVERSIZED = 'a form of 2 MB';
  test(
    'should answer the request in a body the endpoint may not read (the form as text/plain, XML, malformed JSON, a form whose percent-encoding is malformed, a body over any size limit) with a token or the error response of RFC 6749 5.2, never a 5xx',
    framings,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // Partition of the body's media type and framing: RFC 6749 4.4.2 names the form; what a server does with
      // another body (reads it leniently, refuses it with 400, 415 or 413) is its choice, and a refusal of a token
      // request is the error response of 5.2 (the rule's note), never a server error.
      const form = formBody({
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
        audience: config.audience,
      }).toString();
      const bodies: Array<[string, string, string]> = [
        ['the form labelled text/plain', 'text/plain', form],
        ['an XML document', 'application/xml', '<token><grant_type>client_credentials</grant_type></token>'],
        ['JSON cut short', 'application/json', '{"grant_type":"client_credentials",'],
        ['a form with a malformed percent-encoding', 'application/x-www-form-urlencoded', `${form}&x=%ZZ`],
        // Against the embedded target only: a body of 2 MB (a front end's own 413 may answer it elsewhere).
        ...(config.embedded
          ? ([[OVERSIZED, 'application/x-www-form-urlencoded', `${form}&x=${'a'.repeat(2_000_000)}`]] as Array<
              [string, string, string]
            >)
          : []),
      ];
      for (const [what, contentType, body] of bodies) {
        let ex: Exchange;
        try {
          ex = await rawTokenExchange(config, creds, [], [], { contentType, body });
        } catch (e) {
          // RFC 9110 15.5.14: a server refusing a body too large "MAY close the connection": while the body is
          // still being sent, that reaches the client as a write that fails (EPIPE) or a reset, before any answer.
          if (what !== OVERSIZED || !(e instanceof TargetError)) throw e;
          observe('oauth.token.error-shape', `a token request in ${what}`, `the connection closed: ${e.message}`);
          continue;
        }
        if (ex.status === 200 && typeof accessToken(ex) === 'string') {
          observe('oauth.token.error-shape', `a token request in ${what}`, 'a token (200)');
          continue;
        }
        mustRefuseToken(
          framings.oauthTokenEndpoint,
          ex,
          `a token request in ${what}: taken or refused with the error response`,
        );
      }
    },
  );

  const scopeForms = declareRules('oauth.token.endpoint');
  test(
    'should answer the documented request with a scope parameter that names no scope-token (empty, white space only, a space before or after a scope) with a token or the error response of RFC 6749 5.2, never a 5xx (RFC 6749 3.3: scope = scope-token *( SP scope-token ))',
    scopeForms,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // The partitions of the scope parameter's grammar a client can still send: no scope-token at all, or an
      // empty one beside a real one. Whether such a request gets a token (read as no scope, or leniently) or is
      // refused (invalid_scope, invalid_request) is the server's choice; an answer of neither is not.
      const values: Array<[string, string]> = [
        ['', 'empty'],
        [' ', 'a single space'],
        ['  ', 'two spaces'],
        [' read:federated_connections_tokens', 'a space before a scope'],
        ['read:federated_connections_tokens ', 'a space after a scope'],
      ];
      for (const [scope, what] of values) {
        const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, { scope });
        if (ex.status === 200 && typeof accessToken(ex) === 'string') {
          observe('oauth.token.error-shape', `a scope parameter that is ${what}`, 'a token (200)');
          continue;
        }
        mustRefuseToken(
          scopeForms.oauthTokenEndpoint,
          ex,
          `scope ${JSON.stringify(scope)} (${what}) holds no scope-token, or an empty one (RFC 6749 3.3): taken or refused with the error response`,
        );
      }
    },
  );

  const scopeValues = declareRules('oauth.token.endpoint');
  test(
    "should answer the documented request, as a form body and as a JSON body where the endpoint takes one, with a scope the client holds, one no API defines (<verb>:<resource>), an unknown verb of a resource it holds, a scope-token of another form, or a held and an unknown one together, with a token holding none of the client's grant beyond it or the error response of RFC 6749 5.2 (invalid_scope), never a 5xx (RFC 6749 3.3, 5.2)",
    scopeValues,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // The client's grant: the scope of the run's own token, asked without a scope (RFC 6749 3.3: the default).
      const claim = decodeJwt(config.runToken ?? '')?.payload.scope;
      const grant = typeof claim === 'string' ? claim.split(' ').filter(Boolean) : undefined;
      // The partitions of a scope-token's value (RFC 6749 3.3: scope-token = 1*NQCHAR): one the client holds, one
      // of the <verb>:<resource> form no API defines, an unknown verb of a resource the client holds, one of
      // another form (no colon, a URN), and a held one beside an unknown one. RFC 6749 3.3 lets the server
      // narrow or ignore the scope asked (a token) or refuse it (5.2: invalid_scope); the endpoint's note makes
      // a refusal the error response of 5.2, never a server error.
      const known = inScopeScopes.find((s) => grant?.includes(s)) ?? 'read:federated_connections_tokens';
      const resource = known.slice(known.indexOf(':') + 1);
      const values: Array<[string, string]> = [
        [known, 'a scope the client holds'],
        ['read:conformance_nonexistent', 'a scope of the <verb>:<resource> form no API defines'],
        [`conformance-verb:${resource}`, `an unknown verb of a resource the client holds (${resource})`],
        ['conformance_nonexistent', 'a scope-token without a colon that no API defines'],
        ['urn:conformance:nonexistent', 'a scope-token in URN form that no API defines'],
        [`${known} read:conformance_nonexistent`, 'a scope the client holds and one no API defines'],
      ];
      // The JSON body too, where the endpoint takes one at all (not documented: a server may refuse it whole).
      const json = await tokenExchange(config, creds, JSON_BODY);
      const forms: TokenRequestForm[] = [
        DOCUMENTED,
        ...(json.status === 200 && typeof accessToken(json) === 'string' ? [JSON_BODY] : []),
      ];
      for (const form of forms)
        for (const [scope, what] of values) {
          const ex = await tokenExchange(config, creds, form, { in: 'body' }, { scope });
          const sent = `scope ${JSON.stringify(scope)} (${what}) in ${describeForm(form)}`;
          const token = accessToken(ex);
          if (ex.status === 200 && typeof token === 'string') {
            // Issued: narrowed, ignored or taken, but within the client's grant (RFC 6749 3.3: the server
            // "MAY fully or partially ignore the scope requested"; it grants no scope the client is not granted).
            const issued = grantedScope(ex.json, token, scope);
            const beyond = issued.scope.split(' ').filter((s) => s && grant !== undefined && !grant.includes(s));
            must(scopeValues.oauthTokenEndpoint, beyond.length === 0, {
              expected: `a token within the client's grant (the run's token: ${grant?.join(' ') ?? '(not readable)'}), to ${sent}`,
              actual: `a token granted ${beyond.join(' ')} (${issued.from})`,
              exchange: ex,
            });
            observe('oauth.token.error-shape', `a token request with ${what}`, 'a token (200)');
            continue;
          }
          mustRefuseToken(
            scopeValues.oauthTokenEndpoint,
            ex,
            `${sent}: a token, or refused with the error response (RFC 6749 5.2: invalid_scope)`,
          );
        }
    },
  );

  const repeated = declareRules(
    'oauth.token.grant-type',
    'oauth.token.bad-client',
    'oauth.token.endpoint',
    'http.unauthorized.challenge',
  );
  test(
    'should refuse the documented request with any of its parameters given twice (grant_type, client_id, client_secret, audience, scope), the same value or another before or after it, and issue no token (RFC 6749 3.2: parameters "MUST NOT be included more than once"; 5.2: invalid_request)',
    repeated,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const last = creds.clientSecret.at(-1);
      // Each parameter of the request (scope: the one a client may add, RFC 6749 4.4.2), its value as the
      // documented request sends it, another value that alone gets no token, and the rule that decides it.
      const params: Array<[string, string, string, RuleRef]> = [
        ['grant_type', 'client_credentials', 'password', repeated.oauthTokenGrantType],
        ['client_id', creds.clientId, `${creds.clientId}x`, repeated.oauthTokenBadClient],
        [
          'client_secret',
          creds.clientSecret,
          `${creds.clientSecret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`,
          repeated.oauthTokenBadClient,
        ],
        ['audience', config.audience, 'https://audience.invalid/api/v2/', repeated.oauthTokenEndpoint],
        ['scope', 'read:federated_connections_tokens', 'read:users', repeated.oauthTokenEndpoint],
      ];
      // A server that reads the first value, or the last, issues a token to one order of the other value.
      for (const [name, value, other, rule] of params)
        for (const [what, values] of [
          ['the same value twice', [value, value]],
          ['another value after it', [value, other]],
          ['another value before it', [other, value]],
        ] as const) {
          const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, { [name]: values });
          mustRefuseToken(
            rule,
            ex,
            `${name} given twice, ${what} (RFC 6749 3.2, 5.2: a request that repeats a parameter is invalid_request)`,
          );
          // RFC 9110 11.6.1: where the endpoint chose 401 (the client's credentials in doubt), a challenge.
          mustFollowStatusChecklist(repeated, ex, null);
        }
    },
  );

  const encodedRepeat = declareRules(
    'oauth.token.grant-type',
    'oauth.token.bad-client',
    'oauth.token.endpoint',
    'http.unauthorized.challenge',
  );
  test(
    'should refuse the documented request with any of its parameters given twice where one of the two names is percent-encoded (grant%5Ftype, %67rant_type, every character encoded: the same name once decoded, RFC 3986 2.1 and WHATWG urlencoded parsing), another value under either spelling, and issue no token (RFC 6749 3.2: parameters "MUST NOT be included more than once"; 5.2: invalid_request)',
    encodedRepeat,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const last = creds.clientSecret.at(-1);
      const otherSecret = `${creds.clientSecret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
      // The documented request's parameters in their order, and scope (the one a client may add, RFC 6749 4.4.2,
      // sent only where it is the parameter repeated); each with another value that alone gets no token, and the
      // rule that decides a repeat of it.
      const documented: Array<[string, string]> = [
        ['grant_type', 'client_credentials'],
        ['client_id', creds.clientId],
        ['client_secret', creds.clientSecret],
        ['audience', config.audience],
      ];
      const params: Array<[string, string, string, RuleRef]> = [
        ['grant_type', 'client_credentials', 'password', encodedRepeat.oauthTokenGrantType],
        ['client_id', creds.clientId, `${creds.clientId}x`, encodedRepeat.oauthTokenBadClient],
        ['client_secret', creds.clientSecret, otherSecret, encodedRepeat.oauthTokenBadClient],
        ['audience', config.audience, 'https://audience.invalid/api/v2/', encodedRepeat.oauthTokenEndpoint],
        ['scope', 'read:federated_connections_tokens', 'read:users', encodedRepeat.oauthTokenEndpoint],
      ];
      for (const [name, value, other, rule] of params) {
        // Against an external target (with writes on), the first spelling of each name; every one here.
        const spellings = encodedNameSpellings(name);
        for (const { what: spelt, raw } of config.embedded ? spellings : spellings.slice(0, 1))
          for (const [what, pair] of [
            // A parser that keeps the last value, or the first, issues a token to one of these orders.
            [`another value under the name with ${spelt}, before it`, twice([raw, other], [name, value])],
            [`another value under the name with ${spelt}, after it`, twice([name, value], [raw, other])],
            [`the value under the name with ${spelt}, another value before it`, twice([name, other], [raw, value])],
          ] as const) {
            const pairs = documented.some(([n]) => n === name)
              ? documented.flatMap(([n, v]): Pair[] => (n === name ? pair : [[n, v]]))
              : [...documented, ...pair];
            const ex = await rawTokenExchange(config, creds, pairs, [otherSecret]);
            mustRefuseToken(
              rule,
              ex,
              `${name} given twice, ${what} (RFC 3986 2.1: ${raw} decodes to ${name}; RFC 6749 3.2, 5.2: a request that repeats a parameter is invalid_request)`,
            );
            // RFC 9110 11.6.1: where the endpoint chose 401 (the client's credentials in doubt), a challenge.
            mustFollowStatusChecklist(encodedRepeat, ex, null);
          }
      }
    },
  );

  const jwt = declareRules('oauth.token.jwt');
  test('should issue an access token that is a JWT', jwt, async ({ config }) => {
    const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
    // The documented request; where it fails (oauth.token.endpoint decides that), the first form that issues a token.
    let ex = await tokenExchange(config, creds);
    for (const form of FALLBACKS) {
      if (typeof accessToken(ex) === 'string') break;
      ex = await tokenExchange(config, creds, form);
    }
    const token = accessToken(ex);
    test.skip(
      token === undefined && ex.status !== 200,
      `No request form got a token (documented request answered ${ex.status}): oauth.token.endpoint decides that`,
    );
    mustBeJwt(jwt, token, 'the documented request', ex);
    // A JWS's registered claims, where present, as RFC 7519 4.1 types them: iss, sub and jti strings (StringOrURI),
    // aud a string or an array of strings, exp, nbf and iat NumericDates: seconds since the epoch (2). And as a
    // token just issued reads them against the answer's Date (the server's clock; RFC 9110 6.6.1), five minutes
    // of clock skew allowed: issued (iat) and valid (nbf) no later than now, expiring (exp) after now and after iat.
    // Which claims it carries and the lifetime are not shown: only what is carried is judged.
    const payload = typeof token === 'string' ? decodeJwt(token)?.payload : undefined;
    if (!payload) return;
    const wrongType = [
      ...(['iss', 'sub', 'jti'] as const).filter((c) => c in payload && typeof payload[c] !== 'string'),
      ...('aud' in payload &&
      !(
        typeof payload.aud === 'string' ||
        (Array.isArray(payload.aud) && payload.aud.every((a) => typeof a === 'string'))
      )
        ? ['aud']
        : []),
      ...(['exp', 'nbf', 'iat'] as const).filter(
        (c) => c in payload && !(typeof payload[c] === 'number' && Number.isFinite(payload[c])),
      ),
    ];
    must(jwt.oauthTokenJwt, wrongType.length === 0, {
      expected:
        'registered claims of their RFC 7519 4.1 types: iss, sub, jti strings; aud a string or strings; exp, nbf, iat numbers (NumericDate)',
      actual: wrongType.map((c) => `${c} ${JSON.stringify(payload[c])}`).join(', '),
      exchange: ex,
    });
    const date = Date.parse(ex.headers['date'] ?? '');
    const now = (Number.isNaN(date) ? Date.now() : date) / 1000;
    const SKEW = 300;
    const at = (c: string) => (typeof payload[c] === 'number' ? (payload[c] as number) : undefined);
    const [iat, nbf, exp] = [at('iat'), at('nbf'), at('exp')];
    const when = (n: number) => {
      const t = new Date(n * 1000);
      return Number.isNaN(t.getTime()) ? `${n}` : `${n} (${t.toISOString()})`;
    };
    const wrongTime = [
      ...(iat !== undefined && iat > now + SKEW ? [`iat ${when(iat)}: issued after the answer`] : []),
      ...(nbf !== undefined && nbf > now + SKEW ? [`nbf ${when(nbf)}: not valid yet`] : []),
      ...(exp !== undefined && exp <= now - SKEW ? [`exp ${when(exp)}: expired already`] : []),
      ...(exp !== undefined && iat !== undefined && exp <= iat ? [`exp ${exp} not after iat ${iat}`] : []),
    ];
    must(jwt.oauthTokenJwt, wrongTime.length === 0, {
      expected: `NumericDates in seconds (RFC 7519 2, 4.1.4-6) of a token issued at the answer's Date, ${when(Math.round(now))}, within ${SKEW} s: iat and nbf not later, exp later, exp after iat`,
      actual: wrongTime.join('; '),
      exchange: ex,
    });
  });

  const everyJwt = declareRules('oauth.token.jwt');
  test(
    'should issue a JWT to every token request it answers with a token, whatever the request asks (partition of the request: no scope parameter or a scope parameter of one scope, of two, of every scope the client holds; the client authenticated in the body or by HTTP Basic)',
    everyJwt,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      // The scope parameter's partitions (RFC 6749 3.3, 4.4.2: OPTIONAL; the token it gets is still the document's
      // bearer token, which "is a JWT"): absent, one scope, two, every scope the run's token holds. Each by body
      // parameters and by HTTP Basic (RFC 6749 2.3.1), the two ways the client authenticates.
      const held = String(decodeJwt(config.runToken ?? '')?.payload.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const scopes = held.length ? held : ['read:federated_connections_tokens', 'read:event_streams'];
      const asked: Array<[string, TokenParams]> = [
        ['no scope parameter', {}],
        [`scope=${scopes[0]!}`, { scope: scopes[0]! }],
        ...(scopes.length > 1
          ? ([[`scope=${scopes.slice(0, 2).join(' ')}`, { scope: scopes.slice(0, 2).join(' ') }]] as Array<
              [string, TokenParams]
            >)
          : []),
        ...(scopes.length > 2
          ? ([["scope= every scope the run's token holds", { scope: scopes.join(' ') }]] as Array<
              [string, TokenParams]
            >)
          : []),
      ];
      const ways: Array<[string, ClientAuthentication]> = [
        ['the body parameters', { in: 'body' }],
        ['HTTP Basic', { in: 'basic' }],
      ];
      let issued = 0;
      for (const [what, extra] of asked)
        for (const [how, clientAuth] of config.embedded ? ways : ways.slice(0, 1)) {
          const ex = await tokenExchange(config, creds, DOCUMENTED, clientAuth, extra);
          const token = accessToken(ex);
          // A request refused is not judged here: whether the endpoint narrows is not shown (RFC 6749 3.3).
          if (ex.status !== 200 || token === undefined) continue;
          issued++;
          mustBeJwt(everyJwt, token, `a token request with ${what}, the client authenticated by ${how}`, ex);
        }
      test.skip(issued === 0, 'No token request of the partition got a token: oauth.token.endpoint decides that');
    },
  );

  const badClient = declareRules('oauth.token.bad-client', 'http.unauthorized.challenge');
  test('should refuse wrong client credentials without issuing a token', badClient, async ({ config }) => {
    const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
    const ex = await tokenExchange(config, { clientId: creds.clientId, clientSecret: `${creds.clientSecret}-wrong` });
    mustRefuseToken(badClient.oauthTokenBadClient, ex, 'the client secret is wrong');
    // RFC 9110 11.6.1: a 401 of the token endpoint carries a challenge too (RFC 6749 5.2: of the schemes it takes).
    mustFollowStatusChecklist(badClient, ex, null);
    observe(
      'oauth.token.error-shape',
      'wrong secret answered',
      `${ex.status} ${JSON.stringify((ex.json as { error?: unknown })?.error ?? null)}`,
    );
  });
  const wrongPartitions = declareRules('oauth.token.bad-client', 'http.unauthorized.challenge');
  test(
    "should refuse every credential that is not the client's: secret changed, cut, extended, cased, empty, with white space or an invisible character around it, respelt in homoglyphs or compatibility forms; client id changed, cased, cut and by the same near misses; crossed with another registered client's; in the form body and by HTTP Basic",
    wrongPartitions,
    async ({ config }) => {
      const { clientId: id, clientSecret: secret } = requireFixture(
        config.credentials,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET',
      );
      const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
      const swapCase = (s: string) =>
        [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      // A comparison by prefix, by length, without case, or of the id alone lets one of these through.
      const wrong: Array<[string, ClientCredentials]> = [
        ['its first character changed', { clientId: id, clientSecret: flip(secret, 0) }],
        ['its last character changed', { clientId: id, clientSecret: flip(secret, secret.length - 1) }],
        ['cut by one character', { clientId: id, clientSecret: secret.slice(0, -1) }],
        ['its first half only', { clientId: id, clientSecret: secret.slice(0, Math.ceil(secret.length / 2)) }],
        ['with its case swapped', { clientId: id, clientSecret: swapCase(secret) }],
        ['empty', { clientId: id, clientSecret: '' }],
        ["the secret under another client's id", { clientId: `${id}x`, clientSecret: secret }],
        // The near misses of any compared string (harness/vocabulary/partitions.ts): white space around it
        // (trimmed away by input clean-up), an invisible or NUL character, a homoglyph, a compatibility
        // spelling NFKC folds onto it. A comparison after trimming or normalising lets one through.
        ...nearMissSpellings(secret).map((v): [string, ClientCredentials] => [
          nearMissOf(v, secret),
          { clientId: id, clientSecret: v },
        ]), // The client id by the same partitions, with the client's own secret: a client looked up by a comparison
        // without case, by prefix or after clean-up authenticates a client that is not registered (RFC 6749 2.2:
        // the identifier is a string the server issued, compared as it is; 2.3.1).
        ['the client id with its case swapped', { clientId: swapCase(id), clientSecret: secret }],
        ['the client id cut by one character', { clientId: id.slice(0, -1), clientSecret: secret }],
        ['the client id with its first character changed', { clientId: flip(id, 0), clientSecret: secret }],
        ...nearMissSpellings(id).map((v): [string, ClientCredentials] => [
          `the client id ${nearMissOf(v, id)}`,
          { clientId: v, clientSecret: secret },
        ]),
        // Credentials crossed with another registered client's (the limited one, where it is configured): a
        // secret checked against every client's, or a client looked up by its secret, lets one through.
        ...crossed(config.limitedCredentials),
      ];
      function crossed(other: ClientCredentials | undefined): Array<[string, ClientCredentials]> {
        if (!other || other.clientId === id || other.clientSecret === secret) return [];
        return [
          [
            "another registered client's secret under this client's id",
            { clientId: id, clientSecret: other.clientSecret },
          ],
          [
            "this client's secret under another registered client's id",
            { clientId: other.clientId, clientSecret: secret },
          ],
        ];
      }
      // Against an external target (failed logins may count against the client there), one of each
      // comparison: by prefix (cut), by length (last changed), without case, of the id alone, trimmed.
      // (The last changed is sent by HTTP Basic there: see the client authentication checks.)
      const trimmed = wrong.find(([what]) => what === 'with " " before it');
      const crossedSecret = wrong.find(([what]) => what.startsWith("another registered client's secret"));
      const sent = config.embedded
        ? wrong
        : [wrong[2]!, wrong[4]!, wrong[6]!, ...(trimmed ? [trimmed] : []), ...(crossedSecret ? [crossedSecret] : [])];
      // Against the embedded emulator, every one also by HTTP Basic (RFC 6749 2.3.1): the credentials reach the
      // comparison through another decoding (base64, then the form encoding of each half), and a lookup that folds,
      // trims or normalises on that path alone lets a near miss through there.
      const ways: Array<[string, ClientAuthentication]> = config.embedded
        ? [
            ['', { in: 'body' }],
            [' (by HTTP Basic)', { in: 'basic' }],
          ]
        : [['', { in: 'body' }]];
      for (const [what, creds] of sent) {
        if (creds.clientSecret === secret && creds.clientId === id) continue;
        for (const [how, clientAuth] of ways) {
          const ex = await tokenExchange(config, creds, DOCUMENTED, clientAuth);
          mustRefuseToken(wrongPartitions.oauthTokenBadClient, ex, `the client secret ${what}${how}`);
          mustFollowStatusChecklist(wrongPartitions, ex, null);
        }
      }
    },
  );
});

/**
 * How a near miss differs from the secret, never the secret itself: what
 * was added before or after it, or that it was respelt.
 */
function nearMissOf(v: string, secret: string): string {
  if (v.startsWith(secret)) return `with ${JSON.stringify(v.slice(secret.length))} after it`;
  if (v.endsWith(secret)) return `with ${JSON.stringify(v.slice(0, v.length - secret.length))} before it`;
  if (secret.startsWith(v)) return `cut by ${secret.length - v.length} character(s)`;
  if (/%[0-9A-F]{2}/.test(v) && !/%[0-9A-F]{2}/.test(secret))
    return 'a character percent-encoded in the value (%25 and its hex once form-encoded)';
  const a = [...v];
  const b = [...secret];
  const changed = a.length === b.length ? a.filter((c, i) => c !== b[i]).length : undefined;
  return changed === undefined
    ? 'respelt in characters NFKC folds onto it'
    : `respelt: ${changed} of its characters changed (case, a homoglyph, a compatibility form)`;
}

/** The read every client token of the run's client is used on: it needs no fixture. */
const LIST = pathOf('event-streams.list');

/**
 * RFC 6749 2.3.1: the client's credentials in every form a client-credentials server must take
 * (HTTP Basic, with id and secret form-urlencoded first; the body parameters, which it may take and
 * the document's request uses) get a token that the operations accept; wrong ones by HTTP Basic get
 * 401 with a Basic challenge (RFC 6749 5.2), like every other wrong credential, no token.
 */
test.describe('client authentication at the token endpoint (RFC 6749 2.3.1) @auth', () => {
  const ways = declareRules('oauth.token.client-auth', 'oauth.token.response', 'oauth.token.jwt');
  test(
    "should issue a token the operations accept to the client's id and secret sent by HTTP Basic (form-urlencoded, the scheme in any case, one space after it or more, with the client_id parameter beside it or not) as to the body parameters",
    ways,
    async ({ anonApi, config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      const all: Array<[string, ClientAuthentication]> = [
        ['HTTP Basic', { in: 'basic', scheme: 'Basic' }],
        ['HTTP Basic, the scheme in lower case', { in: 'basic', scheme: 'basic' }],
        ['HTTP Basic, the scheme in upper case', { in: 'basic', scheme: 'BASIC' }],
        // RFC 9110 11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]: one space or more.
        [
          'HTTP Basic, two spaces after the scheme (RFC 9110 11.4: 1*SP)',
          { in: 'basic', scheme: 'Basic', space: '  ' },
        ],
        ['the body parameters client_id and client_secret', { in: 'body' }],
        // RFC 6749 3.2.1: a client "MAY use the client_id request parameter to identify itself" at the token
        // endpoint; the id alone authenticates nothing, so Basic with it is still one authentication method (2.3.1).
        ['HTTP Basic, with its client_id also as a body parameter (RFC 6749 3.2.1)', { in: 'basic', scheme: 'Basic' }],
      ];
      // Against an external target, the form the standard requires (the body form is every token request of the run).
      for (const [how, clientAuth] of config.embedded ? all : all.slice(0, 1)) {
        const extra: TokenParams = how.includes('3.2.1') ? { client_id: creds.clientId } : {};
        const ex = await tokenExchange(config, creds, DOCUMENTED, clientAuth, extra);
        const token = accessToken(ex);
        must(ways.oauthTokenClientAuth, ex.status === 200 && typeof token === 'string', {
          expected: `status 200 with an access_token: the client's credentials by ${how} (RFC 6749 2.3.1)`,
          actual: `status ${ex.status}${ex.status === 200 ? ', no access_token' : ''}`,
          exchange: ex,
        });
        if (ex.status === 200) mustFollowTokenResponseChecklist(ways, ex);
        if (typeof token === 'string') mustBeJwt(ways, token, `the client's credentials by ${how}`, ex);
        const use = await anonApi.get(LIST, { query: { take: 1 }, auth: { header: `Bearer ${String(token)}` } });
        must(ways.oauthTokenClientAuth, use.status >= 200 && use.status < 300, {
          expected: `a 2xx: the token issued to the client's credentials by ${how} is accepted`,
          actual: `status ${use.status}`,
          exchange: use,
        });
      }
    },
  );

  const wrongBasic = declareRules('oauth.token.client-auth', 'oauth.token.bad-client');
  test(
    'should refuse wrong credentials sent by HTTP Basic with 401, a Basic challenge and no token (RFC 6749 5.2)',
    wrongBasic,
    async ({ config }) => {
      const { clientId: id, clientSecret: secret } = requireFixture(
        config.credentials,
        'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET',
      );
      const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
      const wrong: Array<[string, ClientCredentials]> = [
        ['its last character changed', { clientId: id, clientSecret: flip(secret, secret.length - 1) }],
        ['empty', { clientId: id, clientSecret: '' }],
        ["the secret under another client's id", { clientId: `${id}x`, clientSecret: secret }],
      ];
      for (const [what, creds] of config.embedded ? wrong : wrong.slice(0, 1)) {
        const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'basic' });
        mustRefuseToken(wrongBasic.oauthTokenBadClient, ex, `by HTTP Basic, the client secret ${what}`);
        const challenge = ex.headers['www-authenticate'];
        must(wrongBasic.oauthTokenClientAuth, ex.status === 401 && hasChallenge(challenge, 'Basic'), {
          expected:
            'status 401 with WWW-Authenticate naming the Basic scheme: the client authenticated through the Authorization header (RFC 6749 5.2)',
          actual: `status ${ex.status}, WWW-Authenticate: ${challenge === undefined ? '(none)' : JSON.stringify(challenge)}`,
          exchange: ex,
        });
      }
    },
  );

  const malformedBasic = declareRules('oauth.token.client-auth', 'oauth.token.bad-client');
  test(
    "should refuse HTTP Basic credentials that are not the client's id and secret as RFC 6749 2.3.1 encodes them with 401, a Basic challenge and no token: not base64, no colon between id and secret, a malformed percent-encoding in the id, another word after the credentials (RFC 7617 2: one token68)",
    malformedBasic,
    async ({ config }) => {
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
      const malformed: Array<[string, string]> = [
        ['not base64 (RFC 4648 4: characters outside its alphabet)', '!!!!'],
        ['no colon between the id and the secret (RFC 7617 2: user-id ":" password)', b64(creds.clientId)],
        [
          'a % without two hex digits in the form-encoded id (RFC 6749 2.3.1, Appendix B)',
          b64(`%zz${creds.clientId}:${creds.clientSecret}`),
        ],
        // The right credentials then another word: a reading that takes the first token68 and ignores the rest
        // authenticates a header that is no Basic credentials.
        [
          'the right credentials, then a space and another word',
          `${basicCredentials(creds.clientId, creds.clientSecret)} x`,
        ],
      ];
      for (const [what, credentials] of config.embedded ? malformed : malformed.slice(-1)) {
        const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'basic', credentials });
        mustRefuseToken(malformedBasic.oauthTokenBadClient, ex, `HTTP Basic credentials ${what}`);
        const challenge = ex.headers['www-authenticate'];
        must(malformedBasic.oauthTokenClientAuth, ex.status === 401 && hasChallenge(challenge, 'Basic'), {
          expected: `status 401 with WWW-Authenticate naming the Basic scheme: the client tried the Authorization header (RFC 6749 5.2), its credentials ${what}`,
          actual: `status ${ex.status}, WWW-Authenticate: ${challenge === undefined ? '(none)' : JSON.stringify(challenge)}`,
          exchange: ex,
        });
      }
    },
  );
  const namedOther = declareRules('oauth.token.bad-client');
  test(
    "should never issue another client's token to one client's credentials by HTTP Basic with another client_id in the body (RFC 6749 2.3, 3.2.1: the client is the one authenticated): refused with the error response of RFC 6749 5.2, or a token the operations answer as the authenticated client's own (relation: refused where its own token is refused, served where it is served); the limited client naming the run's client, the run's client naming the limited one, and naming a client the tenant does not have",
    namedOther,
    async ({ anonApi, config }) => {
      const full = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      const limited = requireFixture(
        config.limitedCredentials,
        'CONFORMANCE_LIMITED_CLIENT_ID/CONFORMANCE_LIMITED_CLIENT_SECRET (a second registered client, whose id the other names)',
      );
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      test.skip(full.clientId === limited.clientId, 'The limited client is the run client: no other client to name');
      // Partition of the body's client_id beside Basic credentials: another registered client's (each way round
      // between the two, the client with fewer scopes first: a token of the named client would hold more), and
      // an id the tenant does not have. The id beside its own client's is the other check's (3.2.1 lets it be).
      const cases: Array<{ what: string; creds: ClientCredentials; named: string }> = [
        {
          what: "the limited client's credentials by HTTP Basic, the run client's id as client_id",
          creds: limited,
          named: full.clientId,
        },
        {
          what: "the run client's credentials by HTTP Basic, the limited client's id as client_id",
          creds: full,
          named: limited.clientId,
        },
        {
          what: "the run client's credentials by HTTP Basic, a client id the tenant does not have as client_id",
          creds: full,
          named: 'conformance-unknown-client',
        },
      ];
      // Reads that tell the two clients' tokens apart (the limited client holds none of their scopes): the answers
      // to the authenticated client's own token are the reference.
      const reads = [
        pathOf('token-sets.list', { id: config.userId ?? 'conformance-nobody-basic' }),
        LIST,
        ...(config.clientGrantId ? [pathOf('client-grants.get', { id: config.clientGrantId })] : []),
      ];
      /** What an answer says of a token: refused for it (401/403), a 5xx, or served. */
      const outcome = (status: number) =>
        status >= 500 ? 'a 5xx' : status === 401 || status === 403 ? 'refused for its token' : 'served';
      for (const c of config.embedded ? cases : cases.slice(0, 1)) {
        const ex = await tokenExchange(config, c.creds, DOCUMENTED, { in: 'basic' }, { client_id: c.named });
        const token = accessToken(ex);
        if (typeof token !== 'string') {
          mustRefuseToken(
            namedOther.oauthTokenBadClient,
            ex,
            `${c.what}: a request naming a client other than the one authenticated (RFC 6749 2.3, 3.2.1; 5.2: invalid_request or invalid_client)`,
          );
          continue;
        }
        // A token: it must be the authenticated client's, answered on every read as that client's own token is (a
        // token of its own from the documented request: its credentials in the body, no other client named).
        const own = accessToken(await tokenExchange(config, c.creds));
        test.skip(
          typeof own !== 'string',
          'The documented request got the authenticated client no token of its own: nothing to compare the issued token with (oauth.token.endpoint decides that)',
        );
        for (const path of reads) {
          const mine = await anonApi.get(path, { auth: { header: `Bearer ${String(own)}` } });
          // Where its own token gets a server error, the read tells nothing of whose token this is.
          if (mine.status >= 500) continue;
          const use = await anonApi.get(path, { auth: { header: `Bearer ${token}` } });
          must(namedOther.oauthTokenBadClient, outcome(use.status) === outcome(mine.status), {
            expected: `the answer the authenticated client's own token gets (${mine.status}, ${outcome(mine.status)}): a token issued to ${c.what} is that client's (RFC 6749 2.3, 3.2.1), never the named client's`,
            actual: `status ${use.status} (${outcome(use.status)})`,
            exchange: use,
            detail: `token request: POST ${TOKEN_PATH} → ${ex.status}, ${c.what}`,
          });
        }
      }
    },
  );
});

/**
 * The audience input, partitioned by the document: Authentication 2 gives its
 * value, `/api/v2/`, where a real client is configured with the API's
 * absolute identifier ({origin}/api/v2/, the run's CONFORMANCE_AUDIENCE). A
 * token the endpoint issues for the documented value is a token of this API:
 * the operations take it. An endpoint that refuses to issue it is observed
 * (which audiences it takes beside the configured one is its choice).
 */
/** The value of `audience` Authentication 2 gives. */
const DOCUMENTED_AUDIENCE = '/api/v2/';

test.describe('the audience the document gives @auth', () => {
  const documented = declareRules('oauth.token.accepted', 'oauth.token.error-shape');
  test(
    'should take on the operations a token issued for the audience /api/v2/ the document gives, as for the configured audience',
    documented,
    async ({ anonApi, config }) => {
      skipBeyondReadOnlyBudget(config, "these token requests (which count against the tenant's quota) are");
      const creds = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      const ex = await tokenExchange(config, creds, DOCUMENTED, { in: 'body' }, { audience: DOCUMENTED_AUDIENCE });
      const token = accessToken(ex);
      if (ex.status !== 200 || typeof token !== 'string') {
        observe(
          'oauth.token.error-shape',
          `a token request for audience ${DOCUMENTED_AUDIENCE} answered`,
          String(ex.status),
        );
        return;
      }
      const path = pathOf('event-streams.list');
      const use = await anonApi.get(path, { auth: { header: `Bearer ${token}` } });
      must(documented.oauthTokenAccepted, use.status >= 200 && use.status < 300, {
        expected: `a 2xx: the token was issued for the audience ${DOCUMENTED_AUDIENCE} (Authentication 2), this API's`,
        actual: `status ${use.status}`,
        exchange: use,
      });
    },
  );
});

/**
 * Order independence: a token request is answered on its own, whatever the client asked before. Narrowed
 * requests first (RFC 6749 3.3: the server may narrow, or ignore the scope asked), then the default one:
 * its token holds the client's scopes, which the reads accept. An endpoint that answers a client's
 * earlier token response again hands out the narrowed token there.
 */
test.describe('the token endpoint answers each request on its own @auth', () => {
  const order = declareRules('oauth.token.endpoint', 'oauth.token.accepted', 'oauth.token.response', 'oauth.token.jwt');
  test(
    'should give a default token request the same token whatever was asked before it: narrowed requests first, then the default one, whose token the reads accept',
    order,
    async ({ anonApi, config }) => {
      const main = requireFixture(config.credentials, 'CONFORMANCE_CLIENT_ID/CONFORMANCE_CLIENT_SECRET');
      // A client the run has asked no token of, where there is one, so that the narrowed requests really come
      // first: the rate-limit probe's client when it is configured apart; else the run's own client.
      const fresh = config.rateLimitCredentials;
      const creds = fresh && fresh.clientId !== main.clientId ? fresh : main;
      // Scopes that leave out the reads' own, so that a narrowed token handed out again is refused there.
      const narrowings = config.embedded ? ['read:users', 'read:client_grants'] : ['read:users'];
      // (Shared with the narrowed-token checks of this worker: asked before, it still comes first.)
      for (const scope of narrowings) {
        const narrowed = await narrowedToken(config, creds, scope);
        // A narrowed token response is a token response: RFC 6749 5.1's checklist holds for it too, and its token is
        // a JWT like every other (oauth.token.jwt).
        if (narrowed.status === 200) {
          const evidence = exchangeOf(config, creds, narrowed, DOCUMENTED, { in: 'body' }, { scope });
          mustFollowTokenResponseChecklist(order, evidence);
          const token = accessToken(evidence);
          if (token !== undefined) mustBeJwt(order, token, `the token request with scope=${scope}`, evidence);
        }
      }
      const ex = await tokenExchange(config, creds);
      const token = accessToken(ex);
      if (ex.status === 200) mustFollowTokenResponseChecklist(order, ex);
      must(order.oauthTokenEndpoint, ex.status === 200 && typeof token === 'string', {
        expected: `status 200 with an access_token, to the documented request after requests for scope ${narrowings.join(', then ')}`,
        actual: `status ${ex.status}${ex.status === 200 ? ', no access_token' : ''}`,
        exchange: ex,
      });
      const reads = [
        pathOf('event-streams.list'),
        ...(config.embedded && config.clientGrantId ? [pathOf('client-grants.get', { id: config.clientGrantId })] : []),
        ...(config.embedded && config.userId ? [pathOf('token-sets.list', { id: config.userId })] : []),
      ];
      for (const path of reads) {
        const use = await anonApi.get(path, { auth: { header: `Bearer ${String(token)}` } });
        must(order.oauthTokenAccepted, use.status >= 200 && use.status < 300, {
          expected: `a 2xx: the token of a default request (no scope) is accepted, though requests for scope ${narrowings.join(', then ')} came before it`,
          actual: `status ${use.status}`,
          exchange: use,
        });
      }
    },
  );
});

test.describe('token lifetime @auth @token-sets', () => {
  /** The longest a run waits for a token to expire. */
  const EXPIRY_WAIT_MAX_S = 60;
  // The 401 an expired token gets is a 401 of the listing like any other: a Bearer challenge (RFC 9110 11.6.1,
  // RFC 6750 3: error="invalid_token" names an expired token) and a JSON error body, as every other 401 check holds.
  const expiry = declareRules('auth.token.expired', 'http.json-error-bodies', 'http.unauthorized.challenge');
  test(
    'should refuse a token once the expires_in its token response announced has passed (plus the leeway), having served it before, with 401, a Bearer challenge and a JSON error body (RFC 6749 5.1, RFC 6750 3 and 3.1, RFC 7519 4.1.4, RFC 9110 11.6.1)',
    expiry,
    async ({ anonApi, config }) => {
      const creds = requireFixture(
        config.expiringCredentials,
        'CONFORMANCE_EXPIRING_CLIENT_ID/CONFORMANCE_EXPIRING_CLIENT_SECRET (a client whose tokens live briefly)',
      );
      const userId = requireFixture(config.userId, 'CONFORMANCE_USER_ID');
      skipBeyondReadOnlyBudget(config, 'the token-lifetime check is');
      const asked = Date.now();
      const ex = await tokenExchange(config, creds);
      const token = accessToken(ex);
      test.skip(
        ex.status !== 200 || typeof token !== 'string',
        `The expiring client got no token (status ${ex.status}): oauth.token.accepted and the endpoint's checks decide that`,
      );
      const lifetime = (ex.json as { expires_in?: unknown }).expires_in;
      test.skip(
        typeof lifetime !== 'number' || !(lifetime > 0),
        'The token response gives no expires_in (RFC 6749 5.1: RECOMMENDED): the lifetime is not shown',
      );
      const waitS = (lifetime as number) + config.tokenExpiryLeewaySeconds;
      test.skip(
        waitS > EXPIRY_WAIT_MAX_S,
        `The token lives ${String(lifetime)} s, and CONFORMANCE_TOKEN_EXPIRY_LEEWAY is ${config.tokenExpiryLeewaySeconds} s: a wait over ${EXPIRY_WAIT_MAX_S} s is not spent`,
      );
      // The wait is the check's own time, on top of the time a check is given.
      test.setTimeout(test.info().timeout + (waitS + 1) * 1000);
      const listing = pathOf('token-sets.list', { id: userId });
      const auth = { header: `Bearer ${String(token)}` };
      // Served while it lives: the relation's first half, and what fills a verification cache.
      const before = await anonApi.get(listing, { auth });
      must(expiry.authTokenExpired, before.status === 200, {
        expected: `status 200: the token is ${Math.round((Date.now() - asked) / 1000)} s into its ${String(lifetime)} s`,
        actual: `status ${before.status}`,
        exchange: before,
      });
      // The lifetime counts from the token response (asked is before it was sent, so the wait is never short), and
      // a second more for a clock that counts whole seconds. Nothing to synchronise on: the time itself is tested.
      const expiresAt = asked + (waitS + 1) * 1000;
      await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now())));
      const after = await anonApi.get(listing, { auth });
      must(expiry.authTokenExpired, after.status === 401, {
        expected: `status 401 ("Invalid token"): the token's expires_in of ${String(lifetime)} s and the leeway of ${config.tokenExpiryLeewaySeconds} s have passed`,
        actual: `status ${after.status}`,
        exchange: after,
      });
      mustBeJsonErrorBody(expiry, after);
      mustFollowStatusChecklist(expiry, after);
    },
  );
});
