/**
 * The event history: a tenant's recent events, so that a subscription with a
 * from_timestamp in the past (and every read-only check) has real events,
 * offsets and times to work on.
 */
import type { EventContextInput, EventLog } from '../events.js';
import type { Connection, State } from '../state.js';
import { fullConnection } from './connections.js';
import { ALNUM, HEX, MINUTE, Rng } from './shared.js';

/** How many events the history holds, and how far apart (each within the first half of its slot). */
export const HISTORY_EVENTS = 36;
const HISTORY_SLOT = 10 * MINUTE;

/**
 * Appends the seeded history to an empty log: HISTORY_EVENTS events of
 * several documented types over the last six hours before `nowMs` (the
 * newest at least five minutes old), three of them connection.created with
 * the full documented object, of enterprise connections. Ids come from their own PRNG, so the state's
 * ids do not depend on the history.
 */
export function seedEventHistory(log: EventLog, state: State, nowMs: number): void {
  const rng = new Rng(state.seed ^ 0x5eed);
  const first = nowMs - HISTORY_EVENTS * HISTORY_SLOT;
  let i = 0;
  const client = { id: state.ids.fullClientId, name: 'Tenant administration' };
  const request = (method: string) => ({
    hostname: 'manage.conformance.test',
    ip: `203.0.113.${10 + rng.int(200)}`,
    method,
    user_agent: 'node-fetch/1.0',
  });
  const push = (
    type: string,
    object: object,
    method: string,
    resource: string,
    connection?: EventContextInput['connection'],
  ) => {
    const timeMs = first + i * HISTORY_SLOT + rng.int(HISTORY_SLOT / 2);
    i++;
    log.append(
      type,
      structuredClone(object) as Record<string, unknown>,
      { client, request: request(method), ...(connection ? { connection } : {}) },
      resource,
      timeMs,
    );
  };
  const connRef = (c: Connection) => ({ id: c.id, name: c.name, strategy: c.strategy });
  const connectionCreated = (c: Connection) => push('connection.created', c, 'POST', 'connections', connRef(c));
  const [db] = [...state.connections.values()] as [Connection];
  // connection.created names enterprise connections, of the strategies the real stream reports (those
  // the official SDK types that field with: oidc, okta, samlp, pingfederate, adfs, ad, google-apps, waad).
  const partner = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'partner-idp', 'oidc', {
    display_name: 'Partner IdP',
    show_as_button: true,
  });
  const saml = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'acme-saml', 'samlp', { display_name: 'Acme SAML' });
  const okta = fullConnection(`con_${rng.chars(ALNUM, 16)}`, 'workforce-okta', 'okta', {
    display_name: 'Workforce',
  });
  const mkUser = (n: number) => {
    const user_id = `auth0|${rng.chars(HEX, 24)}`;
    return { user_id, email: `history${n}@conformance.test`, name: `History User ${n}`, connection: db.name };
  };
  const mkOrg = (name: string) => ({ id: `org_${rng.chars(ALNUM, 16)}`, name, display_name: name.replace(/-/g, ' ') });
  const mkGroup = (name: string) => ({ id: `grp_${rng.chars(ALNUM, 16)}`, name });
  const role = { id: `rol_${rng.chars(ALNUM, 16)}`, name: 'Support' };

  connectionCreated(saml);
  connectionCreated(okta);
  const [u1, u2, u3, u4, u5] = [1, 2, 3, 4, 5].map(mkUser) as [
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
  ];
  push('user.created', u1, 'POST', 'users', connRef(db));
  push('user.created', u2, 'POST', 'users', connRef(db));
  const acme = mkOrg('acme-corp');
  push('organization.created', acme, 'POST', 'organizations');
  push('organization.member.added', { organization_id: acme.id, user_id: u1.user_id }, 'POST', 'organizations');
  const support = mkGroup('support');
  push('group.created', support, 'POST', 'groups');
  push('group.member.added', { group_id: support.id, user_id: u2.user_id }, 'POST', 'groups');
  push('user.updated', { ...u1, name: 'History User 1 (renamed)' }, 'PATCH', 'users', connRef(db));
  connectionCreated(partner);
  push(
    'connection.updated',
    { ...partner, display_name: 'Partner IdP (EU)' },
    'PATCH',
    'connections',
    connRef(partner),
  );
  push(
    'organization.connection.added',
    { organization_id: acme.id, connection_id: partner.id, assign_membership_on_login: false },
    'POST',
    'organizations',
  );
  push('organization.updated', { ...acme, display_name: 'Acme Corporation' }, 'PATCH', 'organizations');
  push('user.created', u3, 'POST', 'users', connRef(db));
  push('user.updated', { ...u3, email_verified: true }, 'PATCH', 'users', connRef(db));
  push('group.role.assigned', { group_id: support.id, role_id: role.id }, 'POST', 'groups');
  push(
    'organization.member.role.assigned',
    { organization_id: acme.id, user_id: u1.user_id, role_id: role.id },
    'POST',
    'organizations',
  );
  const beta = mkOrg('beta-trial');
  push('organization.created', beta, 'POST', 'organizations');
  push('organization.member.added', { organization_id: beta.id, user_id: u3.user_id }, 'POST', 'organizations');
  push('organization.member.deleted', { organization_id: beta.id, user_id: u3.user_id }, 'DELETE', 'organizations');
  push('organization.deleted', beta, 'DELETE', 'organizations');
  push('group.updated', { ...support, name: 'support-tier-1' }, 'PATCH', 'groups');
  push('group.member.deleted', { group_id: support.id, user_id: u2.user_id }, 'DELETE', 'groups');
  push('user.deleted', u3, 'DELETE', 'users', connRef(db));
  push('user.created', u4, 'POST', 'users', connRef(db));
  push('organization.member.added', { organization_id: acme.id, user_id: u4.user_id }, 'POST', 'organizations');
  push(
    'organization.connection.updated',
    { organization_id: acme.id, connection_id: partner.id, assign_membership_on_login: true },
    'PATCH',
    'organizations',
  );
  push('group.role.deleted', { group_id: support.id, role_id: role.id }, 'DELETE', 'groups');
  push(
    'organization.connection.removed',
    { organization_id: acme.id, connection_id: partner.id },
    'DELETE',
    'organizations',
  );
  push('connection.deleted', partner, 'DELETE', 'connections', connRef(partner));
  push('user.updated', { ...u2, name: 'History User 2 (renamed)' }, 'PATCH', 'users', connRef(db));
  push('user.created', u5, 'POST', 'users', connRef(db));
  push('group.deleted', support, 'DELETE', 'groups');
  push(
    'organization.member.role.deleted',
    { organization_id: acme.id, user_id: u1.user_id, role_id: role.id },
    'DELETE',
    'organizations',
  );
  push('user.updated', { ...u4, name: 'History User 4 (renamed)' }, 'PATCH', 'users', connRef(db));
  push('user.deleted', u5, 'DELETE', 'users', connRef(db));
  if (i !== HISTORY_EVENTS) throw new Error(`the seeded history holds ${i} events, not ${HISTORY_EVENTS}`);
  log.historyPosition = log.position;
}
