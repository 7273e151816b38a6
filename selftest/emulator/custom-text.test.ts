/**
 * Endpoints 8: PUT /self-service-profiles/{id}/custom-text/{language}/{page},
 * and the HTML policy of custom text values (emulator/html-policy.ts).
 */
import { expect, test } from '@playwright/test';
import { formatErrors, validate } from '../../schemas/index.js';
import { htmlViolation } from '../../emulator/html-policy.js';
import { body, harnessPerFile } from './helpers.js';

const h = harnessPerFile();

const path = (id?: string, lang = 'en', page = 'get-started') =>
  `/self-service-profiles/${encodeURIComponent(id ?? h.app.emulator.state.fixtures.selfServiceProfileId)}/custom-text/${lang}/${page}`;

test.describe('custom text @custom-text', () => {
  test('should replace the map from JSON and answer the result', async () => {
    const text = { introduction: 'Hello <b>there</b>', 'button.label': 'Go' };
    const res = await h.api('PUT', path(), { body: text });
    expect(res.statusCode).toBe(200);
    const r = validate('custom-text', res.json());
    expect(r.valid, formatErrors(r.errors)).toBe(true);
    expect(body(res)).toEqual(text);
    expect(body(await h.api('GET', path()))).toEqual(text);
    const replaced = await h.api('PUT', path(), { body: { other: 'x' } });
    expect(body(replaced)).toEqual({ other: 'x' });
  });

  test('should accept form-urlencoded bodies', async () => {
    const res = await h.api('PUT', path(), {
      rawBody: 'introduction=Hello+%3Cb%3Eworld%3C%2Fb%3E&footer=bye',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toEqual({ introduction: 'Hello <b>world</b>', footer: 'bye' });
  });

  test('should accept an empty map (clears the text) and read {} back', async () => {
    expect((await h.api('PUT', path(), { body: {} })).statusCode).toBe(200);
    expect(body(await h.api('GET', path()))).toEqual({});
  });

  test('should accept values of exactly 2000 characters and refuse 2001', async () => {
    expect((await h.api('PUT', path(), { body: { a: 'x'.repeat(2000) } })).statusCode).toBe(200);
    const over = await h.api('PUT', path(), { body: { a: 'x'.repeat(2001) } });
    expect(over.statusCode).toBe(400);
    expect(body(over)['errorCode']).toBe('invalid_body');
    expect(body(await h.api('GET', path()))).toEqual({ a: 'x'.repeat(2000) });
  });

  for (const [lang, page] of [
    ['fr', 'get-started'],
    ['EN', 'get-started'],
    ['en', 'login'],
    ['en', 'GET-STARTED'],
  ]) {
    test(`should answer 400 invalid_uri to language ${lang}, page ${page}`, async () => {
      const res = await h.api('PUT', path(undefined, lang, page), { body: { a: 'b' } });
      expect(res.statusCode).toBe(400);
      expect(body(res)['errorCode']).toBe('invalid_uri');
    });
  }

  test('should answer 404 inexistent_self_service_profile for an unknown profile', async () => {
    for (const method of ['PUT', 'GET'] as const) {
      const res = await h.api(method, path('ssp_unknown'), method === 'PUT' ? { body: { a: 'b' } } : {});
      expect(res.statusCode).toBe(404);
      expect(body(res)['errorCode']).toBe('inexistent_self_service_profile');
    }
  });

  const badBodies: [string, string, string?][] = [
    ['a non-string value', '{"a":1}'],
    ['a nested object', '{"a":{"b":"c"}}'],
    ['a null value', '{"a":null}'],
    ['an array body', '["a"]'],
    ['an empty key', '{"":"x"}'],
    ['a script tag', '{"a":"<script>alert(1)</script>"}'],
    ['a form with a repeated key', 'a=1&a=2', 'application/x-www-form-urlencoded'],
    ['a form with bracket nesting', 'a[b]=c', 'application/x-www-form-urlencoded'],
  ];
  for (const [name, raw, ct] of badBodies) {
    test(`should answer 400 to ${name} and keep the text`, async () => {
      const before = body(await h.api('GET', path()));
      const res = await h.api('PUT', path(), { rawBody: raw, ...(ct ? { contentType: ct } : {}) });
      expect(res.statusCode, res.body).toBe(400);
      expect(body(await h.api('GET', path()))).toEqual(before);
    });
  }
});

test.describe('custom text HTML policy @custom-text', () => {
  const allowed = [
    'plain text',
    'a < b and c > d',
    'Fish &amp; chips',
    '<b>bold</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <small>s</small> <sup>1</sup> <sub>2</sub>',
    '<p>para</p><div><span class="x">span</span></div><br><br/>',
    '<ul><li>one</li></ul><ol><li>two</li></ol>',
    '<a href="https://example.com/x?y=1">link</a>',
    '<a href="http://example.com" target="_blank" rel="noopener">link</a>',
    '<a href="mailto:help@example.com">mail</a>',
    '<span style="color: red; font-weight: bold">styled</span>',
    'javascript: is just text here',
  ];
  for (const v of allowed) {
    test(`should allow ${JSON.stringify(v).slice(0, 60)}`, () => {
      expect(htmlViolation(v)).toBeUndefined();
    });
  }
  const refused = [
    '<script>alert(1)</script>',
    '<SCRIPT>alert(1)</SCRIPT>',
    '<style>body{}</style>',
    '<iframe src="https://x"></iframe>',
    '<img src=x onerror=alert(1)>',
    '<svg onload=alert(1)>',
    '<b onclick="alert(1)">x</b>',
    '<b ONMOUSEOVER="alert(1)">x</b>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="java\tscript:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>',
    '<a href="data:text/html,<script>">x</a>',
    '<a href="/relative">x</a>',
    '<a href="ftp://x">x</a>',
    '<a>no href is fine</a><form></form>',
    '<span style="background:url(javascript:alert(1))">x</span>',
    '<span style="width: expression(alert(1))">x</span>',
    '<span id="x">x</span>',
    '<b title="javascript:alert(1)">x</b>',
    '<!-- comment -->',
    '<!DOCTYPE html>',
    '<object data="x"></object>',
    '<math><mi>x</mi></math>',
    '<input value="x">',
    '</script>',
  ];
  for (const v of refused) {
    test(`should refuse ${JSON.stringify(v).slice(0, 60)}`, () => {
      expect(htmlViolation(v)).toBeDefined();
    });
  }
});
