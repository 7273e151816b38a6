/**
 * The emulator's management routes (users, organizations, connections):
 * not among the eight operations, they make events come from real state
 * changes. Events themselves are checked in events.test.ts.
 */
import { expect, test } from '@playwright/test';
import { body, harnessPerFile } from './helpers.js';

const h = harnessPerFile();

test.describe('users', () => {
  test('should create, update and delete a user, appending one event each', async () => {
    const start = h.app.emulator.events.position;
    const created = await h.api('POST', '/users', {
      body: {
        connection: h.app.emulator.state.fixtures.userConnection,
        email: 'new@conformance.test',
        password: 'pw',
        verify_email: false,
        username: 'newbie',
        email_verified: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const user = body<{ user_id: string; email: string; password?: string }>(created);
    expect(user.email).toBe('new@conformance.test');
    expect(user.password).toBeUndefined();
    const id = encodeURIComponent(user.user_id);
    // A new user has no token sets.
    expect(body<unknown[]>(await h.api('GET', `/users/${id}/federated-connections-tokensets`))).toEqual([]);
    expect((await h.api('PATCH', `/users/${id}`, { body: { name: 'N' } })).statusCode).toBe(200);
    expect((await h.api('DELETE', `/users/${id}`)).statusCode).toBe(204);
    expect((await h.api('DELETE', `/users/${id}`)).statusCode).toBe(404);
    expect(h.app.emulator.events.position - start).toBe(3);
  });

  const bad: [string, unknown][] = [
    ['no connection', { email: 'a@b.c' }],
    ['an unknown connection', { connection: 'nope', email: 'a@b.c' }],
    ['a social connection', { connection: 'google-oauth2', email: 'a@b.c' }],
    ['a malformed email', { connection: 'Username-Password-Authentication', email: 'nope' }],
    ['an unknown property', { connection: 'Username-Password-Authentication', admin: true }],
    ['a wrong type', { connection: 'Username-Password-Authentication', blocked: 'yes' }],
  ];
  for (const [name, b] of bad) {
    test(`should answer 400 invalid_body to a user with ${name}`, async () => {
      const before = h.app.emulator.state.users.size;
      const res = await h.api('POST', '/users', { body: b });
      expect(res.statusCode).toBe(400);
      expect(body(res)['errorCode']).toBe('invalid_body');
      expect(h.app.emulator.state.users.size).toBe(before);
    });
  }

  test('should answer 409 to a duplicate email and 404 to unknown users', async () => {
    const conn = h.app.emulator.state.fixtures.userConnection;
    expect(
      (await h.api('POST', '/users', { body: { connection: conn, email: 'dup@conformance.test' } })).statusCode,
    ).toBe(201);
    const dup = await h.api('POST', '/users', { body: { connection: conn, email: 'dup@conformance.test' } });
    expect(dup.statusCode).toBe(409);
    expect(body(dup)['errorCode']).toBe('already_exists');
    expect((await h.api('PATCH', '/users/nobody', { body: { name: 'x' } })).statusCode).toBe(404);
    expect(
      (await h.api('PATCH', `/users/${encodeURIComponent(h.app.emulator.state.fixtures.userId)}`, { body: {} }))
        .statusCode,
    ).toBe(400);
  });

  test('should require the users scopes', async () => {
    const limited = await h.token('limited');
    expect((await h.api('POST', '/users', { token: limited, body: {} })).statusCode).toBe(403);
    expect((await h.api('DELETE', '/users/x', { token: limited })).statusCode).toBe(403);
  });
});

test.describe('organizations and connections', () => {
  test('should create and delete an organization, refusing duplicates and bad names', async () => {
    const res = await h.api('POST', '/organizations', { body: { name: 'acme', display_name: 'Acme' } });
    expect(res.statusCode).toBe(201);
    expect((await h.api('POST', '/organizations', { body: { name: 'acme' } })).statusCode).toBe(409);
    expect((await h.api('POST', '/organizations', { body: { name: 'Not Valid!' } })).statusCode).toBe(400);
    const id = body<{ id: string }>(res).id;
    expect((await h.api('DELETE', `/organizations/${id}`)).statusCode).toBe(204);
    expect((await h.api('DELETE', `/organizations/${id}`)).statusCode).toBe(404);
  });

  test('should create and delete a connection, refusing duplicates and options that break the object', async () => {
    const res = await h.api('POST', '/connections', { body: { name: 'my-oidc', strategy: 'oidc' } });
    expect(res.statusCode).toBe(201);
    expect((await h.api('POST', '/connections', { body: { name: 'my-oidc', strategy: 'oidc' } })).statusCode).toBe(409);
    const secret = await h.api('POST', '/connections', {
      body: { name: 'with-secret', strategy: 'oidc', options: { client_id: 'c', client_secret: 'TOP-SECRET' } },
    });
    expect(secret.statusCode).toBe(201);
    expect(secret.body).not.toContain('TOP-SECRET');
    expect(JSON.stringify(h.app.emulator.events.after(0))).not.toContain('TOP-SECRET');
    const broken = await h.api('POST', '/connections', {
      body: { name: 'other', strategy: 'oidc', options: { oidc_metadata: 'x' } },
    });
    expect(broken.statusCode).toBe(400);
    const id = body<{ id: string }>(res).id;
    expect((await h.api('DELETE', `/connections/${id}`)).statusCode).toBe(204);
    expect((await h.api('DELETE', `/connections/${id}`)).statusCode).toBe(404);
  });
});
