/**
 * The `data.object` of every event type but connection.created, whose
 * payload shapes the document leaves open ("Payload shapes of all event
 * types other than connection.created: not shown"). They are built as the
 * real stream sends them: the shapes the official SDK (`auth0` on npm, whose
 * types come from the real deployment's API definition) declares, so that a
 * real client reads every event the emulator sends within its own types
 * (selftest/emulator/sdk.test.ts holds them to it).
 */

/** A user as the user events carry it: its identities and times. */
export interface UserObject {
  user_id: string;
  email?: string;
  name?: string;
  identities: Array<{ connection: string; provider: string; user_id: string; isSocial: boolean }>;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
  [member: string]: unknown;
}

/** A user of a database connection (provider `auth0`), as created at `at`. */
export function userObject(
  user_id: string,
  connection: string,
  at: string,
  profile: { email?: string; name?: string } = {},
): UserObject {
  return {
    user_id,
    ...profile,
    identities: [{ connection, provider: 'auth0', user_id: user_id.replace(/^auth0\|/, ''), isSocial: false }],
    created_at: at,
    updated_at: at,
  };
}

/** A tenant-level group (the group events' `type: tenant`). */
export interface Group {
  id: string;
  name: string;
}

export const groupRef = (g: Group) => ({ id: g.id, type: 'tenant' as const });

/** group.created (no updated_at), group.updated and group.deleted (with it). */
export function groupObject(g: Group, created_at: string, updated_at?: string) {
  return { id: g.id, name: g.name, type: 'tenant' as const, created_at, ...(updated_at ? { updated_at } : {}) };
}

/** group.member.added and .deleted: the group and the user member. */
export const groupMember = (g: Group, user_id: string) => ({
  group: groupRef(g),
  member: { member_type: 'user' as const, id: user_id },
});

export interface Role {
  id: string;
  name: string;
}

/** group.role.assigned (at: created_at) and group.role.deleted (at: deleted_at, the role by id only). */
export function groupRole(g: Group, role: Role, change: 'assigned' | 'deleted', at: string) {
  return change === 'assigned'
    ? { group: groupRef(g), role: { id: role.id, name: role.name }, created_at: at }
    : { group: groupRef(g), role: { id: role.id }, deleted_at: at };
}

/** organization.member.added and .deleted. */
export const organizationMember = (organization_id: string, user_id: string) => ({
  organization: { id: organization_id },
  user: { user_id },
});

/** organization.member.role.assigned and .deleted. */
export const organizationMemberRole = (organization_id: string, user_id: string, role: Role) => ({
  ...organizationMember(organization_id, user_id),
  role: { id: role.id, name: role.name },
});

/** organization.connection.added, .updated and .removed. */
export const organizationConnection = (organization_id: string, connection_id: string, extra: object = {}) => ({
  organization: { id: organization_id },
  connection: { id: connection_id },
  ...extra,
});

/** organization.group.role.assigned (at: created_at) and .deleted (at: deleted_at). */
export function organizationGroupRole(
  organization_id: string,
  g: Group,
  role: Role,
  change: 'assigned' | 'deleted',
  at: string,
) {
  return { organization: { id: organization_id }, ...groupRole(g, role, change, at) };
}
