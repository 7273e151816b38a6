/**
 * Client grants: the fixture grant of the full client (every documented
 * member the exclusive pair allows, so a read decides each of their rules),
 * a default_for grant without client_id, a system grant, and one more.
 */
import type * as Schema from '../../schemas/types.js';
import type { ClientGrant, Stored } from '../state.js';
import { ALNUM, type Rng } from './shared.js';

export function seedClientGrants(
  rng: Rng,
  fullClientId: string,
): { clientGrants: Map<string, ClientGrant>; fixtureGrant: ClientGrant; otherGrants: ClientGrant[] } {
  const clientGrants = new Map<string, ClientGrant>();
  const grant = (g: Stored<Schema.ClientGrant, 'audience' | 'scope'>): ClientGrant => {
    const full = { id: `cgr_${rng.chars(ALNUM, 16)}`, ...g };
    clientGrants.set(full.id, full);
    return full;
  };
  const fixtureGrant = grant({
    client_id: fullClientId,
    audience: 'https://api.conformance.test/orders',
    scope: ['read:orders', 'create:orders'],
    organization_usage: 'deny',
    allow_any_organization: false,
    is_system: false,
    subject_type: 'client',
    // default_for is on the grant below.
    authorization_details_types: ['order_details'],
  });
  const defaultGrant = grant({
    audience: 'https://api.conformance.test/payments',
    scope: ['read:payments'],
    default_for: 'third_party_clients',
    is_system: false,
    subject_type: 'user',
    authorization_details_types: ['payment_initiation', 'account_information'],
    allow_all_scopes: false,
  });
  const systemGrant = grant({
    client_id: `client_${rng.chars(ALNUM, 20)}`,
    audience: 'https://api.conformance.test/system',
    scope: [],
    is_system: true,
    subject_type: 'client',
    allow_all_scopes: true,
  });
  const organisationGrant = grant({
    client_id: `client_${rng.chars(ALNUM, 20)}`,
    audience: 'https://api.conformance.test/orders',
    scope: ['read:orders'],
    organization_usage: 'require',
    allow_any_organization: true,
    subject_type: 'user',
  });
  // Every grant but the fixture's, told to the suite (CONFORMANCE_CLIENT_GRANT_IDS) so that each kind is read: the
  // default_for grant (its enum), the system grant, a grant organisations must use.
  return { clientGrants, fixtureGrant, otherGrants: [defaultGrant, systemGrant, organisationGrant] };
}
