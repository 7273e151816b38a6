/**
 * Endpoints 3: GET /client-grants/{id} — one client grant; unknown id → 404
 * `inexistent_client_grant`.
 */
import { operation } from '../../spec/operations.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import type { ClientGrant } from '../state.js';
import { param, type RouteDef } from './shared.js';

/** A client grant as answered (a copy; faults change only the copy). */
function render(ctx: EmulatorContext, g: ClientGrant): Record<string, unknown> {
  // Variant optional-members-absent: which fields are required is not shown.
  if (ctx.variant === 'optional-members-absent') return { id: g.id };
  // A shallow copy (a deep clone per read costs throughput): faults below replace members, never change the stored arrays.
  const out: Record<string, unknown> = { ...g };
  // Fault client-grant-is-system-string: a boolean answered as a string.
  if (ctx.faults.has('client-grant-is-system-string')) out['is_system'] = String(g.is_system ?? false);
  // Fault client-grant-audience-empty: audience has minimum length 1.
  if (ctx.faults.has('client-grant-audience-empty')) out['audience'] = '';
  // Fault client-grant-scope-empty-item: scope items have minimum length 1.
  if (ctx.faults.has('client-grant-scope-empty-item')) out['scope'] = [...g.scope, ''];
  // Fault client-grant-organization-usage-unknown: outside deny, allow, require.
  if (ctx.faults.has('client-grant-organization-usage-unknown')) out['organization_usage'] = 'forbid';
  // Fault client-grant-default-for-unknown: the only accepted value is third_party_clients.
  if (ctx.faults.has('client-grant-default-for-unknown')) {
    delete out['client_id'];
    out['default_for'] = 'first_party_clients';
  }
  // Fault client-grant-subject-type-unknown: outside client, user.
  if (ctx.faults.has('client-grant-subject-type-unknown')) out['subject_type'] = 'machine';
  // Fault client-grant-authorization-details-type-256: items are 1 to 255 characters.
  if (ctx.faults.has('client-grant-authorization-details-type-256')) out['authorization_details_types'] = [...(g.authorization_details_types ?? []), 'x'.repeat(256)];
  // Fault client-grant-client-id-and-default-for: the two are mutually exclusive.
  if (ctx.faults.has('client-grant-client-id-and-default-for') && g.client_id !== undefined) out['default_for'] = 'third_party_clients';
  return out;
}

export function clientGrantRoutes(ctx: EmulatorContext): RouteDef[] {
  /** Grants already read once (fault client-grant-cached-wrong). */
  const cached = new Set<string>();
  return [
    {
      method: 'GET',
      url: '/api/v2/client-grants/:id',
      scopes: operation('client-grants.get').scopes,
      handler: (request) => {
        let grant = ctx.state.clientGrants.get(param(request, 'id'));
        if (grant === undefined) throw apiError('inexistent_client_grant');
        // Fault client-grant-other-grant: the next grant instead of the one asked for.
        if (ctx.faults.has('client-grant-other-grant')) {
          const all = [...ctx.state.clientGrants.values()];
          grant = all[(all.indexOf(grant) + 1) % all.length]!;
        }
        const answer = render(ctx, grant);
        // Fault client-grant-cached-wrong: right the first time; once cached, scope comes back as one space-separated string.
        if (ctx.faults.has('client-grant-cached-wrong')) {
          if (cached.has(grant.id)) answer['scope'] = grant.scope.join(' ');
          cached.add(grant.id);
        }
        // Fault client-grant-in-array: not the grant object but a list.
        if (ctx.faults.has('client-grant-in-array')) return [answer];
        return answer;
      },
    },
  ];
}
