/**
 * Errors 429 and Limits: over the rate limit, the token-set listing answers
 * 429 with X-RateLimit-Limit, -Remaining and -Reset. Numeric limits are not
 * shown: the probe sends at most CONFORMANCE_RATE_LIMIT_PROBE_MAX requests,
 * and reaching no limit within them is an observation, not a failure.
 * Runs after every other check (its own Playwright project), and only with
 * CONFORMANCE_RATE_LIMIT_PROBE=on.
 */
import { request as playwrightRequest } from '@playwright/test';
import { Api, type Exchange } from '../harness/client.ts';
import { must, mustStatus, observe } from '../harness/checks.ts';
import { rules, test } from '../harness/fixtures.ts';
import { RUN_TOKEN } from '../harness/global-setup.ts';
import { fetchToken } from '../harness/tokens.ts';

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
const isUint = (v: string | undefined) => v !== undefined && /^\d+$/.test(v.trim());

test.describe('rate limit of the token-set listing @rate-limit @token-sets', () => {
  test.describe.configure({ mode: 'serial' });
  let limited: Exchange | undefined;
  const seen: Exchange[] = [];

  test.beforeAll(async ({ config }) => {
    test.skip(!config.rateLimitProbe, 'CONFORMANCE_RATE_LIMIT_PROBE is off: the probe would spend the tenant\'s rate limit');
    const token = config.rateLimitCredentials ? await fetchToken(config, config.rateLimitCredentials, 'rate-limit') : process.env[RUN_TOKEN]!;
    const ctx = await playwrightRequest.newContext();
    const api = new Api(ctx, config, token);
    const path = `/users/${encodeURIComponent(config.userId ?? 'conformance-nobody')}/federated-connections-tokensets`;
    try {
      for (let i = 0; i < config.rateLimitProbeMax && !limited; i++) {
        const ex = await api.get(path, { see429: true });
        seen.push(ex);
        if (ex.status === 429) limited = ex;
      }
    } finally {
      await ctx.dispose();
    }
  });

  test('should answer 429 over the limit', rules('token-sets.list.rate-limit.status'), async ({ config }) => {
    const last = seen.at(-1)!;
    const remaining = last.headers['x-ratelimit-remaining'];
    if (!limited) {
      // A target that says it has no budget left must refuse; one that says nothing may have a limit above the probe.
      must('token-sets.list.rate-limit.status', remaining !== '0', { expected: 'a 429 once X-RateLimit-Remaining reached 0', actual: `status ${last.status} with Remaining 0`, exchange: last });
      observe('rate-limit.values', 'limit reached within the probe', 'no', { requests: config.rateLimitProbeMax, lastRemaining: remaining ?? null });
      return;
    }
    mustStatus('token-sets.list.rate-limit.status', limited, 429);
    observe('rate-limit.values', 'limit reached within the probe', 'yes', { requests: seen.length, limit: limited.headers['x-ratelimit-limit'], reset: limited.headers['x-ratelimit-reset'] });
  });

  test('should describe the limit in X-RateLimit-Limit, -Remaining and -Reset on the 429', rules('token-sets.list.rate-limit.headers'), async () => {
    test.skip(!limited, 'No 429 within the probe budget');
    const missing = HEADERS.filter((h) => limited!.headers[h] === undefined);
    must('token-sets.list.rate-limit.headers', missing.length === 0, { expected: HEADERS.join(', '), actual: `missing ${missing.join(', ')}`, exchange: limited });
  });

  test('should send sane rate-limit values', rules('rate-limit.header-values'), async () => {
    test.skip(seen.length === 0, 'The probe sent nothing');
    for (const ex of seen) {
      const [limit, remaining, reset] = HEADERS.map((h) => ex.headers[h]);
      if (limit === undefined && remaining === undefined && reset === undefined) continue;
      const bad = HEADERS.filter((h) => ex.headers[h] !== undefined && !isUint(ex.headers[h]));
      must('rate-limit.header-values', bad.length === 0, { expected: 'non-negative integers', actual: bad.map((h) => `${h}: ${ex.headers[h]}`).join(', '), exchange: ex });
      if (isUint(limit) && isUint(remaining)) {
        must('rate-limit.header-values', Number(remaining) <= Number(limit), { expected: `Remaining ≤ Limit`, actual: `Remaining ${remaining}, Limit ${limit}`, exchange: ex });
      }
      if (ex.status === 429 && isUint(remaining)) {
        must('rate-limit.header-values', Number(remaining) === 0, { expected: 'Remaining 0 on a 429', actual: `Remaining ${remaining}`, exchange: ex });
      }
    }
    const first = seen[0]!.headers;
    observe('rate-limit.values', 'headers on a non-429 answer', HEADERS.filter((h) => first[h] !== undefined).join(', ') || 'none', { reset: first['x-ratelimit-reset'] ?? null });
  });
});
