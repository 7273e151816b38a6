/**
 * Registers every /api/v2 route of the area files, then answers the other
 * methods of each known path with 405 `method_not_allowed` (and an Allow
 * header). Unknown paths fall to the not-found handler (404 `not_found`).
 */
import type { FastifyInstance } from 'fastify';
import { runner } from '../faults/answers.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { clientGrantRoutes } from './client-grants.js';
import { connectionRoutes } from './connections.js';
import { customSigningKeyRoutes } from './custom-signing-keys.js';
import { customTextRoutes } from './custom-text.js';
import { eventStreamRoutes } from './event-streams.js';
import { eventRoutes } from './events.js';
import { experimentRoutes } from './experiments.js';
import { organizationRoutes } from './organizations.js';
import { JSON_ONLY, type RouteDef } from './shared.js';
import { tokenSetRoutes } from './token-sets.js';
import { userRoutes } from './users.js';

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function apiRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    ...tokenSetRoutes(ctx),
    ...experimentRoutes(ctx),
    ...clientGrantRoutes(ctx),
    ...eventRoutes(ctx),
    ...eventStreamRoutes(ctx),
    ...customSigningKeyRoutes(ctx),
    ...customTextRoutes(ctx),
    ...userRoutes(ctx),
    ...organizationRoutes(ctx),
    ...connectionRoutes(ctx),
  ];
}

export function registerApiRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const methodsByUrl = new Map<string, string[]>();
  const served = ctx.deviations.servedRoutes(apiRoutes(ctx));
  for (const def of served) {
    app.route({
      method: def.method,
      url: def.url,
      config: { operation: def.operation, scopes: def.scopes, contentTypes: def.contentTypes ?? JSON_ONLY },
      handler: runner(ctx, def.operation, def.handler),
    });
    methodsByUrl.set(def.url, [...(methodsByUrl.get(def.url) ?? []), def.method]);
  }
  for (const [url, methods] of methodsByUrl) {
    const others = ALL_METHODS.filter((m) => !methods.includes(m));
    const accepts = methods.join(', ');
    app.route({
      method: others,
      url,
      handler: (request, reply) => {
        // blind round 36: the method a method-override header names, for the fault layer (`method-override-after-scope-check`).
        const overridden = ctx.deviations.overriddenMethod(
          request.method,
          request.headers['x-http-method-override'],
          methods,
        );
        const def = overridden === undefined ? undefined : served.find((d) => d.url === url && d.method === overridden);
        if (def !== undefined) return runner(ctx, def.operation, def.handler)(request, reply);
        const allow = ctx.deviations.allowOf(accepts, methodsByUrl);
        throw apiError('method_not_allowed', `Method not allowed; this path accepts ${allow}`, { allow });
      },
    });
  }
}
