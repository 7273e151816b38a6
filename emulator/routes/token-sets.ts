/**
 * Endpoints 1: GET /users/{id}/federated-connections-tokensets — the active
 * token sets held for a user ("active ones": a set whose expires_at has
 * passed is left out when the list is read). id longer than 300 characters
 * → 400 `invalid_uri`; unknown user → 404 `inexistent_user`.
 */
import { operation } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { TokenSet } from '../state.js';
import { codePoints, param, type RouteDef } from './shared.js';

/** Endpoints 1: "maximum length 300 (user identifier)". */
export const USER_ID_MAX = 300;

/** A token set as answered (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, t: TokenSet): Record<string, unknown> {
  // Variant optional-members-absent: no member of a token set is marked required.
  const out: Record<string, unknown> = ctx.variant === 'optional-members-absent' ? { id: t.id } : { ...t };
  // Fault token-set-scope-array: scope as a list instead of a string.
  if (ctx.faults.has('token-set-scope-array')) out['scope'] = t.scope.split(' ');
  // Fault token-set-issued-at-date-only: a date, not a date-time.
  if (ctx.faults.has('token-set-issued-at-date-only')) out['issued_at'] = t.issued_at.slice(0, 10);
  return out;
}

export function tokenSetRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'GET',
      url: '/api/v2/users/:id/federated-connections-tokensets',
      scopes: operation('token-sets.list').scopes,
      handler: (request, reply) => {
        const id = param(request, 'id');
        const length = codePoints(id);
        // Fault user-id-301-accepted: an over-long id skips the check and the lookup.
        if (length > USER_ID_MAX && ctx.faults.has('user-id-301-accepted')) return [];
        // Fault user-id-300-refused: the limit off by one.
        const max = ctx.faults.has('user-id-300-refused') ? USER_ID_MAX - 1 : USER_ID_MAX;
        if (length > max) throw apiError('invalid_uri', `Path parameter id must be at most ${max} characters`);
        if (!ctx.state.users.has(id)) {
          // Fault unknown-user-empty-list: 200 [] instead of the documented 404.
          if (ctx.faults.has('unknown-user-empty-list')) return [];
          throw apiError('inexistent_user');
        }
        // The emulator's clock (options.now): the seed's dates count from it too.
        const now = ctx.options.now();
        // "(active ones)": expired sets are not listed. Fault token-sets-expired-listed: they are.
        const active = (t: TokenSet) => ctx.faults.has('token-sets-expired-listed') || t.expires_at === null || Date.parse(t.expires_at) > now;
        const list = (ctx.state.tokenSets.get(id) ?? []).filter(active).map((t) => render(ctx, t));
        // Fault token-sets-status-201: the documented 200 answered 201.
        if (ctx.faults.has('token-sets-status-201')) void reply.code(201);
        // Fault token-sets-wrapped: an object instead of the documented array.
        if (ctx.faults.has('token-sets-wrapped')) return { token_sets: list };
        return list;
      },
    },
  ];
}
