/**
 * Endpoints 8. Set custom text for a self-service profile:
 * PUT /self-service-profiles/{id}/custom-text/{language}/{page}
 * The allowed text keys are not shown: the suite writes CONFORMANCE_CUSTOM_TEXT_KEY
 * (default `introduction`). Every write runs inside a snapshot/restore.
 */
import type { Api, Exchange } from '../harness/client.ts';
import { must, mustBeJson, mustMatchSchema, mustRefuse, mustSucceed, observe } from '../harness/checks.ts';
import { requireFixture, requireWrites, rules, test } from '../harness/fixtures.ts';
import { authChecks } from '../harness/auth-checks.ts';
import { fc, fcParams } from '../harness/properties.ts';
import { customTextPath, withCustomTextRestored } from '../harness/restore.ts';
import type { Config } from '../harness/config.ts';

// These checks share one resource (the profile's text): run them one after another.
test.describe.configure({ mode: 'default' });

function profile(config: Config): string {
  requireWrites(config);
  return requireFixture(config.selfServiceProfileId, 'CONFORMANCE_SELF_SERVICE_PROFILE_ID');
}

const put = (api: Api, id: string, map: Record<string, string>, language = 'en', page = 'get-started') =>
  api.put(customTextPath(id, language, page), { json: map });

/**
 * The allowed text keys are not shown: a 4xx other than 415 to a plain-text
 * value under the configured key may mean the key is not allowed. That is
 * observed, and the check is skipped with the reason instead of failed.
 * A 415 refuses the media type, which the document allows: that fails.
 */
function skipIfKeyRefused(ex: Exchange, config: Config): void {
  if (ex.status >= 400 && ex.status < 500 && ex.status !== 415) {
    observe('custom-text.put.keys', `key ${config.customTextKey} answered`, String(ex.status));
    test.skip(true, `The target refused a plain-text value under the key ${config.customTextKey} (status ${ex.status}); the allowed keys are not shown: set CONFORMANCE_CUSTOM_TEXT_KEY to one it accepts`);
  }
}

/** A plain-text PUT under the configured key; the check is skipped if the key is refused. */
async function requireAcceptedKey(api: Api, id: string, config: Config): Promise<void> {
  skipIfKeyRefused(await put(api, id, { [config.customTextKey]: 'Conformance plain text' }), config);
}

test.describe('custom text of a self-service profile @custom-text @writes', () => {
  test('should set text sent as JSON and answer the resulting map', rules('custom-text.put.json', 'custom-text.put.resulting-map', 'custom-text.types', 'http.json-bodies'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Welcome to the conformance run.';
      const ex = await put(api, id, { [config.customTextKey]: value });
      skipIfKeyRefused(ex, config);
      observe('custom-text.put.keys', `key ${config.customTextKey} answered`, String(ex.status));
      mustSucceed('custom-text.put.json', ex);
      mustBeJson('http.json-bodies', ex);
      mustMatchSchema('custom-text', ex.json, ex);
      const got = (ex.json as Record<string, unknown>)[config.customTextKey];
      must('custom-text.put.resulting-map', got === value, { expected: `${config.customTextKey}: ${JSON.stringify(value)}`, actual: `${config.customTextKey}: ${JSON.stringify(got)}`, exchange: ex });
      observe('custom-text.put.status', 'JSON PUT answered', String(ex.status));
    });
  });

  test('should set text sent form-encoded', rules('custom-text.put.form'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Form-encoded conformance text';
      await requireAcceptedKey(api, id, config);
      const ex = await api.put(customTextPath(id), { body: new URLSearchParams({ [config.customTextKey]: value }).toString(), contentType: 'application/x-www-form-urlencoded' });
      mustSucceed('custom-text.put.form', ex);
      const got = (ex.json as Record<string, unknown> | undefined)?.[config.customTextKey];
      must('custom-text.put.form', got === value, { expected: `the resulting map holds ${config.customTextKey}: ${JSON.stringify(value)}`, actual: JSON.stringify(got), exchange: ex });
    });
  });

  test('should accept a value of 2000 characters and refuse one of 2001', rules('custom-text.put.value.max-length'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      await requireAcceptedKey(api, id, config);
      mustSucceed('custom-text.put.value.max-length', await put(api, id, { [config.customTextKey]: 'a'.repeat(2000) }));
      mustRefuse('custom-text.put.value.max-length', await put(api, id, { [config.customTextKey]: 'a'.repeat(2001) }), 'a value of 2001 characters');
    });
  });

  test('should refuse values over 2000 characters (property)', rules('custom-text.put.value.max-length'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2001, max: 6000 }), fc.constantFrom('a', 'é', 'Z', ' '), async (n, ch) => {
          mustRefuse('custom-text.put.value.max-length', await put(api, id, { [config.customTextKey]: ch.repeat(n) }), `a value of ${n} characters`);
        }),
        fcParams(10),
      );
    });
  });

  for (const language of ['fr', 'EN', 'en-US']) {
    test(`should refuse the language ${language}`, rules('custom-text.put.language.enum'), async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        mustRefuse('custom-text.put.language.enum', await put(api, id, { [config.customTextKey]: 'x' }, language), 'language allows only en');
      });
    });
  }

  for (const page of ['login', 'Get-Started', 'get_started']) {
    test(`should refuse the page ${page}`, rules('custom-text.put.page.enum'), async ({ api, config }) => {
      const id = profile(config);
      await withCustomTextRestored(api, id, async () => {
        mustRefuse('custom-text.put.page.enum', await put(api, id, { [config.customTextKey]: 'x' }, 'en', page), 'page allows only get-started');
      });
    });
  }

  test('should accept basic styling tags and a hyperlink', rules('custom-text.put.html.basic-allowed'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      await requireAcceptedKey(api, id, config);
      const html = '<b>Bold</b>, <i>italic</i> and <a href="https://example.com/help">a link</a>.';
      mustSucceed('custom-text.put.html.basic-allowed', await put(api, id, { [config.customTextKey]: html }));
    });
  });

  test('should not store a script element as given', rules('custom-text.put.html.restricted'), async ({ api, config }) => {
    const id = profile(config);
    await withCustomTextRestored(api, id, async () => {
      const value = 'Hello<script>alert(1)</script>';
      const ex = await put(api, id, { [config.customTextKey]: value });
      const stored = (ex.json as Record<string, unknown> | undefined)?.[config.customTextKey];
      const refused = ex.status >= 400 && ex.status < 500;
      const sanitised = ex.status >= 200 && ex.status < 300 && typeof stored === 'string' && !/<script/i.test(stored);
      must('custom-text.put.html.restricted', refused || sanitised, {
        expected: 'a 4xx, or a stored value without the script element',
        actual: `status ${ex.status}, stored ${JSON.stringify(stored)?.slice(0, 120)}`,
        exchange: ex,
      });
    });
  });
});

authChecks('custom-text.put', (api, c, auth) => api.put(customTextPath(c.selfServiceProfileId ?? 'conformance-profile'), { auth, json: { [c.customTextKey]: 'conformance' } }), {
  around: (api, c, fn) => (c.selfServiceProfileId ? withCustomTextRestored(api, c.selfServiceProfileId, fn) : fn()),
});
