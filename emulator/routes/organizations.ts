/**
 * Organizations: POST /organizations and DELETE /organizations/{id}, so that
 * organization.created and organization.deleted come from real state
 * changes. Scopes create:organizations, delete:organizations.
 */
import { managementScopes } from '../auth.js';
import type { EmulatorContext } from '../context.js';
import { apiError } from '../errors.js';
import { requestContext } from '../events.js';
import type { Organization } from '../state.js';
import { checkFields, type FieldSpec } from './fields.js';
import { param, type RouteDef } from './shared.js';

const fields: Record<string, FieldSpec> = {
  name: { type: 'string', required: true, min: 1, max: 50, pattern: /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/ },
  display_name: { type: 'string', min: 1, max: 255 },
  metadata: { type: 'object' },
};

export function organizationRoutes(ctx: EmulatorContext): RouteDef[] {
  return [
    {
      method: 'POST',
      url: '/api/v2/organizations',
      scopes: managementScopes.createOrganizations,
      handler: (request, reply) => {
        const body = checkFields(request.body, fields);
        const name = body['name'] as string;
        for (const o of ctx.state.organizations.values())
          if (o.name === name) throw apiError('already_exists', 'An organization with this name already exists.');
        let id: string;
        do id = ctx.state.newId('org_', 'alnum', 16);
        while (ctx.state.organizations.has(id));
        const org: Organization = { id, name, display_name: (body['display_name'] as string | undefined) ?? name };
        if (body['metadata'] !== undefined) org.metadata = structuredClone(body['metadata']) as Record<string, string>;
        ctx.state.organizations.set(id, org);
        ctx.events.append(
          'organization.created',
          structuredClone(org) as unknown as Record<string, unknown>,
          requestContext(request),
          'organizations',
        );
        void reply.code(201);
        return org;
      },
    },
    {
      method: 'DELETE',
      url: '/api/v2/organizations/:id',
      scopes: managementScopes.deleteOrganizations,
      handler: (request, reply) => {
        const id = param(request, 'id');
        const org = ctx.state.organizations.get(id);
        if (org === undefined) throw apiError('inexistent_organization');
        ctx.state.organizations.delete(id);
        ctx.events.append(
          'organization.deleted',
          structuredClone(org) as unknown as Record<string, unknown>,
          requestContext(request),
          'organizations',
        );
        return reply.code(204).send();
      },
    },
  ];
}
