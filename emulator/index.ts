/**
 * The reference emulator: a real HTTP server implementing the whole
 * interface document (token endpoint, the eight operations, the events
 * stream), with in-memory state from a deterministic seed.
 *
 * @example
 *   const emu = await startEmulator({ control: true });
 *   process.env = { ...process.env, ...emu.env() };
 *   // ... run checks against emu.baseUrl ...
 *   await emu.close();
 *
 * @example in-process, for unit tests
 *   const app = await buildEmulator();
 *   const res = await app.inject({ method: 'GET', url: '/api/v2/client-grants/x' });
 */
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import qs from 'qs';
import { Auth, isApiPath, limitAnonymous, registerAuth } from './auth.js';
import { API_PREFIX, audienceOf, CONTROL_PREFIX, type EmulatorContext } from './context.js';
import { registerControl } from './control.js';
import { apiError, keepConnectionIfBodyRead, toApiError, type ApiError, type ErrorCode } from './errors.js';
import { EventLog } from './events.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { FixedWindowLimiter } from './rate-limit.js';
import { registerApiRoutes } from './routes/index.js';
import { withExtraMembers } from './routes/shared.js';
import { seedEventHistory, State, type Fixtures } from './state.js';

export type { EmulatorOptions, RateLimitOptions } from './options.js';
export type { Fixtures } from './state.js';
export { errorCatalogue, type ErrorCode } from './errors.js';

/** Limits of the form-urlencoded parser (bracket notation via qs). */
export const FORM_LIMITS = { depth: 5, arrayLimit: 100, parameterLimit: 1000 } as const;

/** Parses `application/x-www-form-urlencoded` with qs: `keys[0][kty]=EC` → `{ keys: [{ kty: 'EC' }] }`. */
export function parseForm(body: string): Record<string, unknown> {
  try {
    return qs.parse(body, { ...FORM_LIMITS, allowPrototypes: false, allowDots: false, charset: 'utf-8' });
  } catch {
    throw apiError('invalid_body', 'Malformed form body');
  }
}

/** Catalogue codes that say a request was malformed (the `validation-422` variant's 422s). */
const VALIDATION_CODES: ReadonlySet<ErrorCode> = new Set(['invalid_uri', 'invalid_query_string', 'invalid_body', 'invalid_cursor']);

function sendError(ctx: EmulatorContext, reply: FastifyReply, e: ApiError): void {
  keepConnectionIfBodyRead(reply);
  if (e.errorCode === 'internal_error') process.stderr.write(`emulator: internal error on ${reply.request.method} ${reply.request.url.split('?', 1)[0]}\n`);
  let status = e.statusCode;
  const route = reply.request.routeOptions.url ?? '';
  // Fault malformed-json-500: the experiment move lets a JSON parse error escape as a 500.
  if (ctx.faults.has('malformed-json-500') && e.errorCode === 'invalid_json' && route.startsWith('/api/v2/experimentation/')) status = 500;
  // Fault client-grant-errors-html: the client-grant route's errors come from a proxy page in HTML.
  if (ctx.faults.has('client-grant-errors-html') && route === '/api/v2/client-grants/:id') {
    void reply.code(status).headers(e.headers).type('text/html; charset=utf-8').send(`<html><body><h1>${status} ${STATUS_CODES[status] ?? 'Error'}</h1></body></html>`);
    return;
  }
  // Status codes for validation failures: not shown.
  if (ctx.variant === 'validation-422' && VALIDATION_CODES.has(e.errorCode)) status = 422;
  // The shape of error response bodies: not shown.
  if (ctx.variant === 'error-body-shape') {
    void reply
      .code(status)
      .headers(e.headers)
      .type('application/problem+json')
      .send({ type: `urn:conformance:error:${e.errorCode}`, title: STATUS_CODES[status] ?? 'Error', status, detail: e.message });
    return;
  }
  void reply.code(status).headers(e.headers).send(e.toBody(status));
}

/** Builds the fastify app (not listening). `app.emulator` is its context. */
export async function buildEmulator(options: EmulatorOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  const auth = await Auth.create(resolved);
  const ctx: EmulatorContext = {
    options: resolved,
    faults: resolved.faults,
    variant: resolved.variant,
    origin: resolved.origin,
    state: new State(resolved.seed, { fullClientId: auth.clients.full.clientId, faults: resolved.faults, variant: resolved.variant, now: resolved.now }),
    auth,
    events: new EventLog({ tenant: 'conformance', stream: 'events-api' }),
    limiter: new FixedWindowLimiter(),
    streams: new Set(),
  };
  seedEventHistory(ctx.events, ctx.state, resolved.now(), resolved.faults);

  const app = Fastify({
    logger: false,
    bodyLimit: resolved.bodyLimit,
    exposeHeadRoutes: false,
    // Open SSE streams and keep-alive sockets must not hold close() up.
    forceCloseConnections: true,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    // Bad percent-encoding and over-long parameters go through the catalogue too.
    frameworkErrors: (err, request, reply) => {
      if (isApiPath(request.url)) limitAnonymous(ctx, request, reply);
      sendError(ctx, reply, toApiError(err));
    },
  });
  app.decorate('emulator', ctx);

  // Bodies are JSON or form-urlencoded; every other media type is 415.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { parser: parseForm, bodyLimit: resolved.bodyLimit });
  app.setErrorHandler((err, _request, reply) => sendError(ctx, reply, toApiError(err)));
  app.setNotFoundHandler((request, reply) => {
    sendError(ctx, reply, apiError('not_found', `Route ${request.method} ${request.url.split('?', 1)[0]!.slice(0, 200)} not found`));
  });
  app.addHook('preClose', async () => {
    for (const s of [...ctx.streams]) s.close();
  });

  if (ctx.faults.has('json-as-text-plain')) {
    // JSON success answers labelled as plain text (breaks http.json-bodies).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isApiPath(request.url) && reply.statusCode < 300 && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
        reply.header('content-type', 'text/plain; charset=utf-8');
      }
      done(null, payload);
    });
  }
  if (ctx.variant === 'extra-members') {
    // Members the document does not list, on every answered object but custom text maps (whose members are all text values).
    app.addHook('preSerialization', (request, _reply, payload, done) => {
      const skip = request.url.startsWith(CONTROL_PREFIX) || request.routeOptions.url?.includes('/custom-text/') === true;
      done(null, skip ? payload : withExtraMembers(payload));
    });
  }

  registerAuth(app, ctx);
  registerApiRoutes(app, ctx);
  if (resolved.control) registerControl(app, ctx);
  return app;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT/api/v2` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` (the token endpoint is `${authUrl}/oauth/token/`) */
  authUrl: string;
  /** `http://127.0.0.1:PORT/api/v2/` */
  audience: string;
  /** `${authUrl}/__control` when control is on. */
  controlUrl: string | undefined;
  clients: { full: ClientCredentials; limited: ClientCredentials; rateLimited: ClientCredentials };
  fixtures: Fixtures;
  /** The fastify app, for inspection. */
  app: FastifyInstance;
  /** The dotenv variables the suite reads. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the emulator on `options.port` (0: a free port) of `options.host` (127.0.0.1). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const app = await buildEmulator(options);
  await app.listen({ port: resolved.port, host: resolved.host });
  const { port } = app.server.address() as AddressInfo;
  const authUrl = `http://${hostForUrl(resolved.host)}:${port}`;
  const ctx = app.emulator;
  ctx.origin = authUrl;
  const baseUrl = `${authUrl}${API_PREFIX}`;
  const audience = audienceOf(authUrl);
  const controlUrl = resolved.control ? `${authUrl}${CONTROL_PREFIX}` : undefined;
  const creds = (role: 'full' | 'limited' | 'rateLimited'): ClientCredentials => ({
    clientId: ctx.auth.clients[role].clientId,
    clientSecret: ctx.auth.clients[role].clientSecret,
  });
  const clients = { full: creds('full'), limited: creds('limited'), rateLimited: creds('rateLimited') };
  const fixtures = ctx.state.fixtures;
  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    authUrl,
    audience,
    controlUrl,
    clients,
    fixtures,
    app,
    env: () => ({
      CONFORMANCE_BASE_URL: baseUrl,
      CONFORMANCE_AUTH_URL: authUrl,
      CONFORMANCE_AUDIENCE: audience,
      CONFORMANCE_CLIENT_ID: clients.full.clientId,
      CONFORMANCE_CLIENT_SECRET: clients.full.clientSecret,
      CONFORMANCE_LIMITED_CLIENT_ID: clients.limited.clientId,
      CONFORMANCE_LIMITED_CLIENT_SECRET: clients.limited.clientSecret,
      CONFORMANCE_RATE_LIMIT_CLIENT_ID: clients.rateLimited.clientId,
      CONFORMANCE_RATE_LIMIT_CLIENT_SECRET: clients.rateLimited.clientSecret,
      CONFORMANCE_USER_ID: fixtures.userId,
      CONFORMANCE_CLIENT_GRANT_ID: fixtures.clientGrantId,
      CONFORMANCE_SELF_SERVICE_PROFILE_ID: fixtures.selfServiceProfileId,
      CONFORMANCE_EXPERIMENT_IDS: fixtures.experimentIds.join(','),
      CONFORMANCE_USER_CONNECTION: fixtures.userConnection,
      CONFORMANCE_WRITES: 'restore',
      CONFORMANCE_RATE_LIMIT_PROBE: 'on',
      CONFORMANCE_EVENTS_TRIGGER: 'management-api',
      ...(controlUrl ? { CONFORMANCE_CONTROL_URL: controlUrl } : {}),
    }),
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
