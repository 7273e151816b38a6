/**
 * Causing events for the SSE checks.
 *
 * With CONFORMANCE_EVENTS_TRIGGER=management-api (and writes allowed), the
 * suite creates, updates and deletes a user (in CONFORMANCE_USER_CONNECTION)
 * and creates and deletes an organization, and removes whatever it made.
 * It also creates and deletes a database connection, for the one payload the
 * document shows in full (connection.created).
 *
 * Every object carries a nonce in its name, and the events it causes are
 * recognised by that nonce anywhere in their JSON (the payload shapes of
 * user and organization events are not shown, so no field is assumed).
 */
import { randomBytes } from 'node:crypto';
import { test } from '@playwright/test';
import type { Api, Exchange } from './client.ts';
import type { Config } from './config.ts';
import type { SseMessage } from './sse.ts';

export function nonce(): string {
  return `c${randomBytes(6).toString('hex')}`;
}

/** Whether a message is an event caused with this nonce. */
export function causedBy(n: string): (m: SseMessage) => boolean {
  return (m) => m.data.includes(n);
}

export class TriggerError extends Error {
  override name = 'TriggerError';
}

function ok(ex: Exchange, what: string): Record<string, unknown> {
  if (ex.status < 200 || ex.status >= 300) {
    throw new TriggerError(`Could not ${what} to cause events: ${ex.method} ${ex.target} answered ${ex.status} ${ex.text.slice(0, 200)}`);
  }
  return (ex.json ?? {}) as Record<string, unknown>;
}

/** Skips the test (with the reason) unless this run may cause events. */
export function requireTrigger(config: Config): void {
  test.skip(config.eventsTrigger !== 'management-api', 'CONFORMANCE_EVENTS_TRIGGER=none: the suite does not cause events; this check needs events it caused');
  test.skip(config.writes === 'none', 'CONFORMANCE_WRITES=none: causing events needs writes (a user and an organization, removed afterwards)');
  test.skip(!config.userConnection, 'CONFORMANCE_USER_CONNECTION is not set: no connection to create the user in');
}

/** Whether this run may cause an organization event (the trigger is on and writes are allowed), for checks that do without one otherwise. */
export function canTrigger(config: Config): boolean {
  return config.eventsTrigger === 'management-api' && config.writes !== 'none';
}

/** Causes events through the management interface and cleans up after itself. */
export class EventCauser {
  /** What is left to delete, by path, in creation order. */
  private readonly created = new Map<string, true>();

  constructor(private readonly api: Api, private readonly config: Config) {}

  async createUser(n: string): Promise<string> {
    const body = ok(
      await this.api.post('/users', {
        json: { connection: this.config.userConnection, email: `conformance+${n}@example.com`, password: `Cf-${randomBytes(12).toString('base64url')}!9a`, name: `conformance ${n}` },
      }),
      'create a user',
    );
    const id = String(body.user_id ?? body.id);
    this.created.set(`/users/${encodeURIComponent(id)}`, true);
    return id;
  }

  async updateUser(id: string, n: string): Promise<void> {
    ok(await this.api.send('PATCH', `/users/${encodeURIComponent(id)}`, { json: { name: `conformance ${n} updated` } }), 'update a user');
  }

  async deleteUser(id: string): Promise<void> {
    ok(await this.api.delete(`/users/${encodeURIComponent(id)}`), 'delete a user');
    this.created.delete(`/users/${encodeURIComponent(id)}`);
  }

  async createOrganization(n: string): Promise<string> {
    const body = ok(await this.api.post('/organizations', { json: { name: `conformance-${n}`, display_name: `conformance ${n}` } }), 'create an organization');
    const id = String(body.id);
    this.created.set(`/organizations/${encodeURIComponent(id)}`, true);
    return id;
  }

  async deleteOrganization(id: string): Promise<void> {
    ok(await this.api.delete(`/organizations/${encodeURIComponent(id)}`), 'delete an organization');
    this.created.delete(`/organizations/${encodeURIComponent(id)}`);
  }

  /**
   * connection.created: a database connection, which a real tenant creates
   * without contacting any identity provider.
   */
  async createConnection(n: string): Promise<string> {
    const body = ok(await this.api.post('/connections', { json: { name: `conformance-${n}`, strategy: 'auth0', display_name: `conformance ${n}` } }), 'create a connection');
    const id = String(body.id);
    this.created.set(`/connections/${encodeURIComponent(id)}`, true);
    return id;
  }

  /**
   * One of each management event the suite can cause, in order:
   * user.created, user.updated, user.deleted, organization.created, organization.deleted.
   */
  async causeSequence(n: string): Promise<string[]> {
    const user = await this.createUser(n);
    await this.updateUser(user, n);
    await this.deleteUser(user);
    const org = await this.createOrganization(n);
    await this.deleteOrganization(org);
    return ['user.created', 'user.updated', 'user.deleted', 'organization.created', 'organization.deleted'];
  }

  /** Deletes whatever is left, newest first. */
  async cleanup(): Promise<void> {
    const paths = [...this.created.keys()].reverse();
    this.created.clear();
    for (const path of paths) await this.api.delete(path).catch(() => undefined);
  }
}
