/**
 * Endpoints 7: PUT /keys/custom-signing (JSON and form-urlencoded), and the
 * emulator's GET/DELETE for snapshot and restore.
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { body, harnessPerFile } from './helpers.js';

const h = harnessPerFile();

const EC_KEY = {
  kty: 'EC',
  kid: 'k1',
  use: 'sig',
  key_ops: ['verify'],
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  x5c: ['MIIB'],
};

test.describe('custom signing keys @custom-signing-keys', () => {
  test('should answer 404 inexistent_custom_signing_keys before any key is set', async () => {
    const res = await h.api('GET', '/keys/custom-signing');
    expect(res.statusCode).toBe(404);
    expect(body(res)['errorCode']).toBe('inexistent_custom_signing_keys');
  });

  test('should replace the whole set with a JSON JWKS and answer it', async () => {
    const first = await h.api('PUT', '/keys/custom-signing', {
      body: { keys: [EC_KEY, { kty: 'RSA', kid: 'r1', n: 'AQAB', e: 'AQAB' }] },
    });
    expect(first.statusCode).toBe(200);
    const r = validate('jwks', first.json());
    expect(r.valid, formatErrors(r.errors)).toBe(true);
    expect(body<{ keys: unknown[] }>(first).keys).toHaveLength(2);
    const second = await h.api('PUT', '/keys/custom-signing', { body: { keys: [EC_KEY] } });
    expect(body(second)).toEqual({ keys: [EC_KEY] });
    expect(body(await h.api('GET', '/keys/custom-signing'))).toEqual({ keys: [EC_KEY] });
  });

  test('should accept form-urlencoded bracket notation', async () => {
    const form =
      'keys[0][kty]=EC&keys[0][kid]=k1&keys[0][key_ops][0]=verify&keys[0][x5c][0]=MIIB&keys[0][x5c][1]=MIIC&keys[1][kty]=RSA&keys[1][n]=AQAB&keys[1][e]=AQAB';
    const res = await h.api('PUT', '/keys/custom-signing', {
      rawBody: form,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toEqual({
      keys: [
        { kty: 'EC', kid: 'k1', key_ops: ['verify'], x5c: ['MIIB', 'MIIC'] },
        { kty: 'RSA', n: 'AQAB', e: 'AQAB' },
      ],
    });
  });

  test('should delete the set so a careful client can restore the state it found', async () => {
    await h.api('PUT', '/keys/custom-signing', { body: { keys: [EC_KEY] } });
    const del = await h.api('DELETE', '/keys/custom-signing');
    expect(del.statusCode).toBe(204);
    expect((await h.api('GET', '/keys/custom-signing')).statusCode).toBe(404);
  });

  const bad: [string, string, string?][] = [
    ['an empty key list', '{"keys":[]}'],
    ['no keys member', '{}'],
    ['keys not an array', '{"keys":{"kty":"EC"}}'],
    ['a key without kty', '{"keys":[{"kid":"a"}]}'],
    ['a non-string kty', '{"keys":[{"kty":1}]}'],
    ['an empty kty', '{"keys":[{"kty":""}]}'],
    ['a key that is a string', '{"keys":["EC"]}'],
    ['a symmetric oct key', '{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}'],
    ['a private member d', '{"keys":[{"kty":"EC","d":"secret"}]}'],
    ['x5c not an array', '{"keys":[{"kty":"EC","x5c":"MIIB"}]}'],
    ['a JSON array', '[{"kty":"EC"}]'],
    ['JSON null', 'null'],
    ['form keys as a plain string', 'keys=EC', 'application/x-www-form-urlencoded'],
    ['form key without kty', 'keys[0][kid]=a', 'application/x-www-form-urlencoded'],
    ['form with an empty body', '', 'application/x-www-form-urlencoded'],
  ];
  for (const [name, raw, ct] of bad) {
    test(`should answer 400 to ${name} and keep the set`, async () => {
      await h.api('PUT', '/keys/custom-signing', { body: { keys: [EC_KEY] } });
      const res = await h.api('PUT', '/keys/custom-signing', { rawBody: raw, ...(ct ? { contentType: ct } : {}) });
      expect(res.statusCode, res.body).toBe(400);
      expect(['invalid_body', 'invalid_json']).toContain(body(res)['errorCode']);
      expect(h.app.emulator.state.customSigningKeys).toEqual([EC_KEY]);
    });
  }

  test('should answer 415 to other media types', async () => {
    for (const ct of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await h.api('PUT', '/keys/custom-signing', { rawBody: '{"keys":[{"kty":"EC"}]}', contentType: ct });
      expect(res.statusCode, ct).toBe(415);
      expect(body(res)['errorCode']).toBe('unsupported_media_type');
    }
    expect(h.app.emulator.state.customSigningKeys).toBeNull();
  });

  test('should answer 413 payload_too_large to a body over the limit', async () => {
    const res = await h.api('PUT', '/keys/custom-signing', {
      rawBody: JSON.stringify({ keys: [{ kty: 'EC', x: 'a'.repeat(1024 * 1024 + 10) }] }),
    });
    expect(res.statusCode).toBe(413);
    expect(body(res)['errorCode']).toBe('payload_too_large');
  });

  test('should ignore __proto__ in form bodies and refuse it in JSON bodies', async () => {
    const form = await h.api('PUT', '/keys/custom-signing', {
      rawBody: 'keys[0][kty]=EC&keys[0][__proto__][polluted]=1&__proto__[polluted]=1',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(200);
    expect(body(form)).toEqual({ keys: [{ kty: 'EC' }] });
    const json = await h.api('PUT', '/keys/custom-signing', {
      rawBody: '{"keys":[{"kty":"EC"}],"__proto__":{"polluted":1}}',
    });
    expect(json.statusCode).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
