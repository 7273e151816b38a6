/**
 * Endpoints 3: GET /client-grants/{id} — one client grant; unknown id → 404
 * `inexistent_client_grant`.
 */
import { operation } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { param, type RouteDef } from './shared.js';

export function clientGrantRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/client-grants/:id',
      scopes: operation('client-grants.get').scopes,
      handler: (request) => {
        const grant = ctx.state.clientGrants.get(param(request, 'id'));
        if (grant === undefined) throw apiError('inexistent_client_grant');
        return grant;
      },
    },
  ];
}
