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
import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyBodyParser, type FastifyInstance } from 'fastify';
import qs from 'qs';
import { sendApiError } from './answers.js';
import { isApiPath, limitAnonymous, registerAuth, TokenAuthority, type ClientRole } from './auth.js';
import { API_PREFIX, audienceOf, type EmulatorContext } from './context.js';
import { CONTROL_PREFIX, registerControl } from './control.js';
import { ApiError, apiError, drainUnreadBody, toApiError } from './errors.js';
import { EventLog } from './events.js';
import { Mutations } from './faults/mutations.js';
import { keepRawForm } from './faults/requests.js';
import { switchedOn } from './faults/seams.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { FixedWindowLimiter } from './rate-limit.js';
import { registerApiRoutes } from './routes/index.js';
import { seedEventHistory } from './seed/history.js';
import { State, type SeedFixtures } from './state.js';
import { targetEnv, type ClientCredentials } from './target-env.js';

export type { ClientCredentials } from './target-env.js';

/** Strict UTF-8: a malformed sequence throws, a byte order mark is kept for the JSON parser. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type { EmulatorOptions, RateLimitOptions } from './options.js';
export type { SeedFixtures } from './state.js';
export { errorCatalogue, type ErrorCode } from './errors.js';

/** Limits of the form-urlencoded parser (bracket notation via qs). */
export const FORM_LIMITS = { depth: 5, arrayLimit: 100, parameterLimit: 1000 } as const;

/**
 * Parses `application/x-www-form-urlencoded` with qs: `keys[0][kty]=EC` → `{ keys: [{ kty: 'EC' }] }`. qs does not
 * throw on any body (a malformed escape stays as written, keys beyond FORM_LIMITS are left as they are).
 */
export function parseForm(body: string): Record<string, unknown> {
  const parsed = qs.parse(body, { ...FORM_LIMITS, allowPrototypes: false, allowDots: false, charset: 'utf-8' });
  keepRawForm(parsed, body);
  return parsed;
}

/**
 * JSON exchanged between systems is UTF-8 (RFC 8259 8.1): other bytes are no JSON text, not text to repair with
 * U+FFFD. A byte order mark is left to the parser, which ignores it (8.1 allows that).
 */
function utf8Json(parse: FastifyBodyParser<string>): FastifyBodyParser<Buffer> {
  return (request, bytes, done) => {
    let body: string;
    try {
      body = UTF8.decode(bytes);
    } catch {
      return done(new ApiError('invalid_json', 'The JSON body is not UTF-8 (RFC 8259 8.1)'), undefined);
    }
    if (nestedDeeperThan(body, MAX_JSON_DEPTH))
      return done(
        new ApiError('invalid_json', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
    return parse(request, body, done);
  };
}

/**
 * RFC 8259 9: "An implementation may set limits on the maximum depth of nesting". The routes copy, validate and
 * answer a body recursively, and a body nested a few thousand levels deep would overflow the stack there: it is
 * refused before it is parsed.
 */
const MAX_JSON_DEPTH = 512;

/** Whether JSON text opens more than `max` arrays or objects inside one another (brackets in strings aside). */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A reverse solidus escapes the character after it (RFC 8259 7): an escaped quote does not end the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Builds the fastify app (not listening). `app.emulator` is its context. */
export async function buildEmulator(options: EmulatorOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  const auth = await TokenAuthority.create(resolved);
  const { faults, variant, deviations } = resolved;
  const state = new State(resolved.seed, { fullClientId: auth.clients.full.clientId, deviations, now: resolved.now });
  const events = new EventLog({ tenant: 'conformance', stream: 'events-api' });
  const ctx: EmulatorContext = {
    options: resolved,
    faults,
    variant,
    deviations,
    mutations: new Mutations(switchedOn(faults, variant), state, events),
    origin: resolved.origin,
    state,
    auth,
    events,
    limiter: new FixedWindowLimiter(),
    streams: new Set(),
  };
  seedEventHistory(ctx.events, ctx.state, resolved.now());

  const app = Fastify({
    logger: false,
    bodyLimit: resolved.bodyLimit,
    exposeHeadRoutes: false,
    // Open SSE streams and keep-alive sockets must not hold close() up.
    forceCloseConnections: true,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    // node's HTTP server gives every request its url.
    rewriteUrl: (req) => ctx.deviations.routedUrl(req.url!),
    // Bad percent-encoding and over-long parameters go through the catalogue too.
    frameworkErrors: (err, request, reply) => {
      if (isApiPath(request.url)) limitAnonymous(ctx, request, reply);
      sendApiError(ctx, reply, toApiError(err));
    },
  });
  app.decorate('emulator', ctx);

  // Bodies are JSON or form-urlencoded; every other media type is 415.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { parser: parseForm, bodyLimit: resolved.bodyLimit });
  // JSON bodies: fastify's own parser, through the fault layer for the operations a fault reads them otherwise.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  // The fault layer is asked per request: the control surface switches faults (ctx.deviations) while it runs.
  const conformingJson = utf8Json(defaultJson);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) =>
    ctx.deviations.parseJson(request, bytes as Buffer, done, conformingJson, defaultJson),
  );
  app.setErrorHandler(async (err, request, reply) => {
    const e = toApiError(err);
    if (e.statusCode === 413) await drainUnreadBody(request.raw);
    sendApiError(ctx, reply, e);
    return reply;
  });
  app.setNotFoundHandler((request, reply) => {
    sendApiError(
      ctx,
      reply,
      apiError('not_found', `Route ${request.method} ${request.url.split('?', 1)[0]!.slice(0, 200)} not found`),
    );
  });
  app.addHook('preClose', async () => {
    for (const s of [...ctx.streams]) s.close();
  });

  registerAuth(app, ctx);
  registerApiRoutes(app, ctx);
  if (resolved.control) registerControl(app, ctx);
  return app;
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
  clients: Record<ClientRole, ClientCredentials>;
  fixtures: SeedFixtures;
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
  const creds = (role: ClientRole): ClientCredentials => ({
    clientId: ctx.auth.clients[role].clientId,
    clientSecret: ctx.auth.clients[role].clientSecret,
  });
  const clients = {
    full: creds('full'),
    limited: creds('limited'),
    rateLimited: creds('rateLimited'),
    expiring: creds('expiring'),
  };
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
    env: () =>
      targetEnv({
        baseUrl,
        authUrl,
        audience,
        clients,
        fixtures,
        controlUrl,
        rateLimit: ctx.auth.clients.rateLimited.rateLimit,
      }),
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
