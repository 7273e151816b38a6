/**
 * The control endpoints, mounted only with `control: true` (CLI
 * `--control`), without authentication, under /__control:
 *
 *  - POST /__control/events `{ "type": "<event type>", "count"?: 1..1000 }`
 *    appends synthetic events (201 `{ offsets }`);
 *  - POST /__control/reset restores the seeded state (users, experiments,
 *    keys, custom text, ...) and forgets rate-limit windows (204); the event
 *    log is kept, so cursors stay valid;
 *  - PUT /__control/faults `{ "faults": ["<fault name>", ...] }` switches
 *    exactly those faults on (`[]`: none), as if the emulator had started
 *    with them, and restores the seeded state (200 `{ faults }`); see
 *    faults/switch.ts for the few that act at start only;
 *  - GET /__control/state: a summary of the state, for debugging.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from './context.js';
import { apiError } from './errors.js';
import {
  groupMember,
  groupObject,
  groupRole,
  organizationConnection,
  organizationGroupRole,
  organizationMember,
  organizationMemberRole,
  userObject,
} from './seed/event-objects.js';
import { isEventType, requestContext } from './events.js';
import { switchFaults } from './faults/switch.js';
import { isPlainObject } from './routes/shared.js';
import { fullConnection, type State } from './state.js';

/** Path prefix of the unauthenticated control endpoints (only with `control: true`). */
export const CONTROL_PREFIX = '/__control';

export const CONTROL_EVENT_MAX = 1000;

function syntheticObject(
  ctx: EmulatorContext,
  type: string,
  n: number,
): { object: Record<string, unknown>; resource: string } {
  const resource = type.split('.')[0]!;
  const id = ctx.state.newId('syn_', 'alnum', 16);
  if (type.startsWith('connection.')) {
    return {
      object: fullConnection(id, `synthetic-${n}-${id.slice(4, 10).toLowerCase()}`, 'oidc') as unknown as Record<
        string,
        unknown
      >,
      resource: 'connections',
    };
  }
  const at = new Date().toISOString();
  const name = `synthetic-${resource}-${n}`;
  const user = userObject(`auth0|${id.toLowerCase()}`, 'Username-Password-Authentication', at, {
    email: `synthetic${n}@conformance.test`,
  });
  const group = { id: `grp_${id.slice(4)}`, name };
  const role = { id: `rol_${id.slice(4)}`, name };
  const change = type.endsWith('.deleted') ? 'deleted' : 'assigned';
  const object = (): object => {
    switch (type) {
      case 'user.deleted':
        return { ...user, deleted_at: at };
      case 'group.created':
        return groupObject(group, at);
      case 'group.updated':
      case 'group.deleted':
        return groupObject(group, at, at);
      case 'group.member.added':
      case 'group.member.deleted':
        return groupMember(group, user.user_id);
      case 'group.role.assigned':
      case 'group.role.deleted':
        return groupRole(group, role, change, at);
      case 'organization.connection.added':
      case 'organization.connection.updated':
      case 'organization.connection.removed':
        return organizationConnection(`org_${id.slice(4)}`, `con_${id.slice(4)}`);
      case 'organization.member.added':
      case 'organization.member.deleted':
        return organizationMember(`org_${id.slice(4)}`, user.user_id);
      case 'organization.member.role.assigned':
      case 'organization.member.role.deleted':
        return organizationMemberRole(`org_${id.slice(4)}`, user.user_id, role);
      case 'organization.group.role.assigned':
      case 'organization.group.role.deleted':
        return organizationGroupRole(`org_${id.slice(4)}`, group, role, change, at);
      default:
        return type.startsWith('user.') ? user : { id, name };
    }
  };
  return { object: object() as Record<string, unknown>, resource: `${resource}s` };
}

export function registerControl(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post(`${CONTROL_PREFIX}/events`, (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body) || typeof body['type'] !== 'string' || !isEventType(body['type'])) {
      throw apiError('invalid_body', 'type must be one of the event types');
    }
    const count = body['count'] ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > CONTROL_EVENT_MAX) {
      throw apiError('invalid_body', `count must be an integer from 1 to ${CONTROL_EVENT_MAX}`);
    }
    const offsets: string[] = [];
    for (let n = 1; n <= count; n++) {
      const { object, resource } = syntheticObject(ctx, body['type'], n);
      offsets.push(ctx.events.append(body['type'], object, requestContext(request), resource).offset);
    }
    return reply.code(201).send({ offsets });
  });

  app.post(`${CONTROL_PREFIX}/reset`, (_request, reply) => {
    ctx.state.reset();
    ctx.limiter.clear();
    return reply.code(204).send();
  });

  app.put(`${CONTROL_PREFIX}/faults`, (request) => {
    const body = request.body;
    const names = isPlainObject(body) ? body['faults'] : undefined;
    if (!Array.isArray(names) || !names.every((n): n is string => typeof n === 'string'))
      throw apiError('invalid_body', 'faults must be an array of fault names');
    try {
      return { faults: [...switchFaults(ctx, names)] };
    } catch (e) {
      if (e instanceof RangeError) throw apiError('invalid_body', e.message);
      throw e;
    }
  });

  app.get(`${CONTROL_PREFIX}/state`, () => ({
    ...stateSummary(ctx.state),
    events: { position: ctx.events.position, subscribers: ctx.events.subscriberCount },
    openStreams: ctx.streams.size,
    faults: [...ctx.faults],
    variant: ctx.variant ?? null,
  }));
}

/** A debugging summary of the state (GET /__control/state). */
function stateSummary(state: State): Record<string, unknown> {
  return {
    seed: state.seed,
    fixtures: state.fixtures,
    counts: {
      users: state.users.size,
      connections: state.connections.size,
      organizations: state.organizations.size,
      experiments: state.experiments.size,
      clientGrants: state.clientGrants.size,
      eventStreams: state.eventStreams.length,
      selfServiceProfiles: state.profiles.size,
    },
    experiments: [...state.experiments.values()].map((e) => ({ id: e.id, status: e.status })),
    customSigningKeys: state.customSigningKeys?.length ?? 0,
  };
}
