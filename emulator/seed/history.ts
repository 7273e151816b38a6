/**
 * The event history: a tenant's recent events, so that a subscription with a
 * from_timestamp in the past (and every read-only check) has real events,
 * offsets and times to work on.
 */
import {
  groupMember,
  groupObject,
  groupRole,
  organizationConnection,
  organizationMember,
  organizationMemberRole,
  userObject,
  type UserObject,
} from './event-objects.js';
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
  /** One event; its object may depend on the event's time (ISO 8601), as created_at, updated_at and deleted_at do. */
  const push = (
    type: string,
    object: object | ((at: string) => object),
    method: string,
    resource: string,
    connection?: EventContextInput['connection'],
  ) => {
    const timeMs = first + i * HISTORY_SLOT + rng.int(HISTORY_SLOT / 2);
    i++;
    const at = new Date(timeMs).toISOString();
    log.append(
      type,
      structuredClone(typeof object === 'function' ? object(at) : object) as Record<string, unknown>,
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
  const since = new Date(first - 30 * MINUTE).toISOString();
  const mkUser = (n: number) =>
    userObject(`auth0|${rng.chars(HEX, 24)}`, db.name, since, {
      email: `history${n}@conformance.test`,
      name: `History User ${n}`,
    });
  const createdAt = new Map<string, string>();
  /** user.created: created and updated at the event's time. */
  const userCreated = (u: UserObject) => (at: string) => {
    createdAt.set(u.user_id, at);
    return { ...u, created_at: at, updated_at: at };
  };
  /** user.updated: `change` applied, updated at the event's time. */
  const userUpdated =
    (u: UserObject, change: Partial<UserObject> = {}) =>
    (at: string) => ({ ...u, ...change, created_at: createdAt.get(u.user_id) ?? since, updated_at: at });
  const userDeleted = (u: UserObject) => (at: string) => ({ ...userUpdated(u)(at), deleted_at: at });
  const mkOrg = (name: string) => ({ id: `org_${rng.chars(ALNUM, 16)}`, name, display_name: name.replace(/-/g, ' ') });
  const mkGroup = (name: string) => ({ id: `grp_${rng.chars(ALNUM, 16)}`, name });
  const role = { id: `rol_${rng.chars(ALNUM, 16)}`, name: 'Support' };

  connectionCreated(saml);
  connectionCreated(okta);
  const [h1, h2, u3, h4, u5] = [1, 2, 3, 4, 5].map(mkUser) as [
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
    ReturnType<typeof mkUser>,
  ];
  // The users the history does not delete are the store's users (their ids and emails): the events name users
  // that exist, as a tenant's recent history does. The others (u3, u5) are deleted in it.
  const stored = [...state.users.values()];
  const asStored = (u: ReturnType<typeof mkUser>, k: number) => {
    const real = stored[k];
    return real === undefined
      ? u
      : userObject(real.user_id, db.name, since, { email: real.email ?? u.email ?? '', name: u.name ?? '' });
  };
  const [u1, u2, u4] = [asStored(h1, 0), asStored(h2, 1), asStored(h4, 2)];
  push('user.created', userCreated(u1), 'POST', 'users', connRef(db));
  push('user.created', userCreated(u2), 'POST', 'users', connRef(db));
  const acme = mkOrg('acme-corp');
  push('organization.created', acme, 'POST', 'organizations');
  push('organization.member.added', organizationMember(acme.id, u1.user_id), 'POST', 'organizations');
  const support = mkGroup('support');
  let groupCreatedAt = since;
  push('group.created', (at: string) => groupObject(support, (groupCreatedAt = at)), 'POST', 'groups');
  push('group.member.added', groupMember(support, u2.user_id), 'POST', 'groups');
  push('user.updated', userUpdated(u1, { name: 'History User 1 (renamed)' }), 'PATCH', 'users', connRef(db));
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
    organizationConnection(acme.id, partner.id, { assign_membership_on_login: false }),
    'POST',
    'organizations',
  );
  push('organization.updated', { ...acme, display_name: 'Acme Corporation' }, 'PATCH', 'organizations');
  push('user.created', userCreated(u3), 'POST', 'users', connRef(db));
  push('user.updated', userUpdated(u3, { email_verified: true }), 'PATCH', 'users', connRef(db));
  push('group.role.assigned', (at: string) => groupRole(support, role, 'assigned', at), 'POST', 'groups');
  push('organization.member.role.assigned', organizationMemberRole(acme.id, u1.user_id, role), 'POST', 'organizations');
  const beta = mkOrg('beta-trial');
  push('organization.created', beta, 'POST', 'organizations');
  push('organization.member.added', organizationMember(beta.id, u3.user_id), 'POST', 'organizations');
  push('organization.member.deleted', organizationMember(beta.id, u3.user_id), 'DELETE', 'organizations');
  push('organization.deleted', beta, 'DELETE', 'organizations');
  const renamed = { ...support, name: 'support-tier-1' };
  push('group.updated', (at: string) => groupObject(renamed, groupCreatedAt, at), 'PATCH', 'groups');
  push('group.member.deleted', groupMember(renamed, u2.user_id), 'DELETE', 'groups');
  push('user.deleted', userDeleted(u3), 'DELETE', 'users', connRef(db));
  push('user.created', userCreated(u4), 'POST', 'users', connRef(db));
  push('organization.member.added', organizationMember(acme.id, u4.user_id), 'POST', 'organizations');
  push(
    'organization.connection.updated',
    organizationConnection(acme.id, partner.id, { assign_membership_on_login: true }),
    'PATCH',
    'organizations',
  );
  push('group.role.deleted', (at: string) => groupRole(renamed, role, 'deleted', at), 'DELETE', 'groups');
  push('organization.connection.removed', organizationConnection(acme.id, partner.id), 'DELETE', 'organizations');
  push('connection.deleted', partner, 'DELETE', 'connections', connRef(partner));
  push('user.updated', userUpdated(u2, { name: 'History User 2 (renamed)' }), 'PATCH', 'users', connRef(db));
  push('user.created', userCreated(u5), 'POST', 'users', connRef(db));
  push('group.deleted', (at: string) => groupObject(renamed, groupCreatedAt, at), 'DELETE', 'groups');
  push(
    'organization.member.role.deleted',
    organizationMemberRole(acme.id, u1.user_id, role),
    'DELETE',
    'organizations',
  );
  push('user.updated', userUpdated(u4, { name: 'History User 4 (renamed)' }), 'PATCH', 'users', connRef(db));
  push('user.deleted', userDeleted(u5), 'DELETE', 'users', connRef(db));
  if (i !== HISTORY_EVENTS) throw new Error(`the seeded history holds ${i} events, not ${HISTORY_EVENTS}`);
  log.historyPosition = log.position;
}
