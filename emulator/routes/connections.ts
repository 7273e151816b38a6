/**
 * Connections: POST /connections and DELETE /connections/{id}, so that
 * connection.created (with the full object: options, oidc_metadata, ...) and
 * connection.deleted come from real state changes. Scopes
 * create:connections, delete:connections.
 */
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { requestContext } from '../events.js';
import { formatErrors, validate } from '../../schemas/index.js';
import { fullConnection, type Connection } from '../state.js';
import { checkFields, type FieldSpec } from './fields.js';
import { param, type RouteDef } from './shared.js';

const fields: Record<string, FieldSpec> = {
  name: { type: 'string', required: true, min: 1, max: 128, pattern: /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/ },
  strategy: { type: 'string', required: true, min: 1, max: 64, pattern: /^[a-z0-9-]+$/ },
  display_name: { type: 'string', min: 1, max: 128 },
  options: { type: 'object' },
  enabled_clients: { type: 'string[]' },
  is_domain_connection: { type: 'boolean' },
  show_as_button: { type: 'boolean' },
  metadata: { type: 'object' },
  realms: { type: 'string[]' },
};

export function connectionRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/api/v2/connections',
      scopes: managementScopes.createConnections,
      handler: (request, reply) => {
        const body = checkFields(request.body, fields);
        const name = body['name'] as string;
        if (ctx.state.connectionByName(name) !== undefined)
          throw apiError('already_exists', 'A connection with this name already exists.');
        let id: string;
        do id = ctx.state.newId('con_', 'alnum', 16);
        while (ctx.state.connections.has(id));
        const extra = structuredClone(body) as Partial<Connection>;
        delete extra.name;
        delete extra.strategy;
        // A client secret given in options is never kept, answered or put in an event.
        if (extra.options) delete (extra.options as Record<string, unknown>)['client_secret'];
        const connection = fullConnection(id, name, body['strategy'] as string, extra);
        // The options given merge over the defaults; the result must still be a connection.created object.
        const check = validate('connection-created-object', connection);
        if (!check.valid)
          throw apiError(
            'invalid_body',
            `Payload validation error: ${formatErrors(check.errors).replace(/\n/g, '; ')}`,
          );
        ctx.state.connections.set(id, connection);
        const conn = { id, name, strategy: connection.strategy };
        ctx.events.append(
          'connection.created',
          structuredClone(connection) as unknown as Record<string, unknown>,
          requestContext(request, conn),
          'connections',
        );
        void reply.code(201);
        return connection;
      },
    },
    {
      method: 'DELETE',
      url: '/api/v2/connections/:id',
      scopes: managementScopes.deleteConnections,
      handler: (request, reply) => {
        const id = param(request, 'id');
        const connection = ctx.state.connections.get(id);
        if (connection === undefined) throw apiError('inexistent_connection');
        ctx.state.connections.delete(id);
        const conn = { id, name: connection.name, strategy: connection.strategy };
        ctx.events.append(
          'connection.deleted',
          structuredClone(connection) as unknown as Record<string, unknown>,
          requestContext(request, conn),
          'connections',
        );
        return reply.code(204).send();
      },
    },
  ];
}
