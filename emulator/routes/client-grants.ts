/**
 * Endpoints 3: GET /client-grants/{id} — one client grant; unknown id → 404
 * `inexistent_client_grant`.
 */
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { param, type RouteDef, operationRoute } from './shared.js';

export function clientGrantRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      ...operationRoute('client-grants.get'),
      handler: (request) => {
        const grant = ctx.state.clientGrants.get(param(request, 'id'));
        if (grant === undefined) throw apiError('inexistent_client_grant');
        // The stored grant itself: serialised as it is, no copy per read.
        return grant;
      },
    },
  ];
}
