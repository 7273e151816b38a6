/**
 * Endpoints 1: GET /users/{id}/federated-connections-tokensets — the active
 * token sets held for a user ("active ones": a set whose expires_at has
 * passed is left out when the list is read). id longer than 300 characters
 * → 400 `invalid_uri`; unknown user → 404 `inexistent_user`.
 */
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { TokenSet } from '../state.js';
import { codePoints, param, type RouteDef, operationRoute } from './shared.js';

/** Endpoints 1: "maximum length 300 (user identifier)". */
export const USER_ID_MAX = 300;

export function tokenSetRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      ...operationRoute('token-sets.list'),
      handler: (request) => {
        const id = param(request, 'id');
        if (codePoints(id) > USER_ID_MAX)
          throw apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`);
        if (!ctx.state.users.has(id) && !ctx.deviations.listsDeletedUser(id)) throw apiError('inexistent_user');
        // The emulator's clock (options.now): the seed's dates count from it too.
        const now = ctx.options.now();
        // "(active ones)": expired sets are not listed.
        const active = (t: TokenSet) => t.expires_at === null || Date.parse(t.expires_at) > now;
        return ctx.deviations
          .tokenSetsRead(ctx.state.tokenSets.get(id) ?? [])
          .filter((t) => ctx.deviations.listsTokenSet(active(t)));
      },
    },
  ];
}
