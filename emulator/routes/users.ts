/**
 * Users: POST /users, PATCH /users/{id}, DELETE /users/{id}. Not among the
 * eight operations; they exist so that user.created, user.updated and
 * user.deleted events come from real state changes
 * (CONFORMANCE_EVENTS_TRIGGER=management-api). Users are created in the
 * fixture database connection (`connection` must name it). Scopes
 * create:users, update:users, delete:users.
 */
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { requestContext } from '../events.js';
import type { User } from '../state.js';
import { checkFields, type FieldSpec } from './fields.js';
import { codePoints, nowIso, param, type RouteDef } from './shared.js';
import { USER_ID_MAX } from './token-sets.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const profileFields: Record<string, FieldSpec> = {
  email: { type: 'string', min: 3, max: 254, pattern: EMAIL },
  email_verified: { type: 'boolean' },
  name: { type: 'string', min: 1, max: 300 },
  nickname: { type: 'string', min: 1, max: 300 },
  given_name: { type: 'string', min: 1, max: 150 },
  family_name: { type: 'string', min: 1, max: 150 },
  picture: { type: 'string', min: 1, max: 2000 },
  blocked: { type: 'boolean' },
  user_metadata: { type: 'object' },
  app_metadata: { type: 'object' },
  username: { type: 'string', min: 1, max: 128 },
  phone_number: { type: 'string', min: 1, max: 32 },
  phone_verified: { type: 'boolean' },
  // Accepted and not kept: the emulator sends no mail and keeps no password.
  password: { type: 'string', min: 1, max: 1024 },
  verify_email: { type: 'boolean' },
};

const NOT_KEPT: ReadonlySet<string> = new Set(['password', 'verify_email']);

const createFields: Record<string, FieldSpec> = {
  ...profileFields,
  connection: { type: 'string', required: true, min: 1, max: 128 },
};

/** What a user looks like in answers and events (the password is never kept). */
function pick(body: Record<string, unknown>): Partial<User> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(profileFields))
    if (!NOT_KEPT.has(k) && body[k] !== undefined) out[k] = structuredClone(body[k]);
  return out as Partial<User>;
}

function userId(request: Parameters<RouteDef['handler']>[0]): string {
  const id = param(request, 'id');
  if (codePoints(id) > USER_ID_MAX)
    throw apiError('invalid_uri', `Path parameter id must be at most ${USER_ID_MAX} characters`);
  return id;
}

export function userRoutes(ctx: EmulatorContext): RouteDef[] {
  const connectionOf = (name: string) => {
    const c = ctx.state.connectionByName(name);
    return c && { id: c.id, name: c.name, strategy: c.strategy };
  };
  return [
    {
      method: 'POST',
      url: '/api/v2/users',
      scopes: managementScopes.createUsers,
      handler: (request, reply) => {
        const body = checkFields(request.body, createFields);
        const connection = ctx.state.connectionByName(body['connection'] as string);
        if (connection === undefined || connection.strategy !== 'auth0')
          throw apiError('invalid_body', 'Payload validation error: connection must name a database connection');
        const profile = pick(body);
        if (profile.email !== undefined) {
          for (const u of ctx.state.users.values()) {
            if (u.email === profile.email && u.identities[0]?.connection === connection.name)
              throw apiError('already_exists', 'The user already exists.');
          }
        }
        let id: string;
        do id = ctx.state.newId('auth0|', 'hex', 24);
        while (ctx.state.users.has(id));
        const now = nowIso();
        const user: User = {
          user_id: id,
          ...profile,
          identities: [{ connection: connection.name, provider: 'auth0', user_id: id.slice(6), isSocial: false }],
          created_at: now,
          updated_at: now,
        };
        ctx.state.users.set(id, user);
        ctx.state.tokenSets.set(id, []);
        ctx.events.append(
          'user.created',
          structuredClone(user) as unknown as Record<string, unknown>,
          requestContext(request, connectionOf(connection.name)),
          'users',
        );
        void reply.code(201);
        return user;
      },
    },
    {
      method: 'PATCH',
      url: '/api/v2/users/:id',
      scopes: managementScopes.updateUsers,
      handler: (request) => {
        const id = userId(request);
        const body = checkFields(request.body, profileFields, true);
        const user = ctx.state.users.get(id);
        if (user === undefined) throw apiError('inexistent_user');
        Object.assign(user, pick(body), { updated_at: nowIso() });
        const conn = user.identities[0]?.connection;
        ctx.events.append(
          'user.updated',
          structuredClone(user) as unknown as Record<string, unknown>,
          requestContext(request, conn ? connectionOf(conn) : undefined),
          'users',
        );
        return user;
      },
    },
    {
      method: 'DELETE',
      url: '/api/v2/users/:id',
      scopes: managementScopes.deleteUsers,
      handler: (request, reply) => {
        const id = userId(request);
        const user = ctx.state.users.get(id);
        if (user === undefined) throw apiError('inexistent_user');
        ctx.state.users.delete(id);
        ctx.state.tokenSets.delete(id);
        ctx.deviations.userDeleted(id);
        const conn = user.identities[0]?.connection;
        ctx.events.append(
          'user.deleted',
          { ...(structuredClone(user) as unknown as Record<string, unknown>), deleted_at: nowIso() },
          requestContext(request, conn ? connectionOf(conn) : undefined),
          'users',
        );
        return reply.code(204).send();
      },
    },
  ];
}
