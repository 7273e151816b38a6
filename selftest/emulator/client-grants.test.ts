/**
 * Endpoints 3: GET /client-grants/{id}.
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { body, harness, type Harness } from './helpers.js';

let h: Harness;
test.beforeAll(async () => {
  h = await harness();
});
test.afterAll(async () => {
  await h.close();
});

test.describe('client grant read @client-grants', () => {
  test('should answer every seeded grant as a schema-valid client grant', async () => {
    const ids = [...h.app.emulator.state.clientGrants.keys()];
    expect(ids.length).toBeGreaterThanOrEqual(4);
    for (const id of ids) {
      const res = await h.api('GET', `/client-grants/${id}`);
      expect(res.statusCode).toBe(200);
      const r = validate('client-grant', res.json());
      expect(r.valid, formatErrors(r.errors)).toBe(true);
      expect(body(res)['id']).toBe(id);
    }
  });

  test('should seed a third-party default grant without client_id, with authorization_details_types', async () => {
    const grants = [...h.app.emulator.state.clientGrants.values()];
    const d = grants.find((g) => g.default_for === 'third_party_clients');
    expect(d).toBeDefined();
    expect(d!.client_id).toBeUndefined();
    expect(d!.authorization_details_types!.length).toBeGreaterThan(0);
  });

  test('should answer the fixture grant', async () => {
    const res = await h.api('GET', `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`);
    expect(res.statusCode).toBe(200);
  });

  for (const id of ['cgr_doesnotexist', 'x', '%E2%9C%93', 'a'.repeat(1000)]) {
    test(`should answer 404 inexistent_client_grant for ${id.slice(0, 20)}`, async () => {
      const res = await h.api('GET', `/client-grants/${id}`);
      expect(res.statusCode).toBe(404);
      expect(body(res)['errorCode']).toBe('inexistent_client_grant');
    });
  }
});
