/**
 * Rate limits (Errors 429; Limits): a fixed window per token, with the
 * three X-RateLimit-* headers on every /api/v2 response.
 */
import { expect, test } from '@playwright/test';
import { FixedWindowLimiter } from '../../emulator/rate-limit.js';
import { body, harness } from './helpers.js';

test.describe('rate limits @rate-limit', () => {
  test('should count down X-RateLimit-Remaining and answer 429 too_many_requests past the limit', async () => {
    const h = await harness({ rateLimitedClient: { limit: 5, windowSeconds: 60 } });
    try {
      const token = await h.token('rateLimited');
      const path = `/client-grants/${h.app.emulator.state.fixtures.clientGrantId}`;
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await h.api('GET', path, { token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        remaining.push(Number(res.headers['x-ratelimit-remaining']));
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      const over = await h.api('GET', path, { token });
      expect(over.statusCode).toBe(429);
      expect(body(over)).toMatchObject({ statusCode: 429, error: 'Too Many Requests', errorCode: 'too_many_requests' });
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      const reset = Number(over.headers['x-ratelimit-reset']);
      const now = Date.now() / 1000;
      expect(reset).toBeGreaterThan(now);
      expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // Other tokens keep their own windows.
      expect((await h.api('GET', path)).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  test('should carry the headers on 401, 403, 404 and 405 answers too', async () => {
    const h = await harness();
    try {
      const limited = await h.token('limited');
      const answers = [
        await h.api('GET', '/client-grants/x', { token: '' }),
        await h.api('GET', '/client-grants/x', { token: limited }),
        await h.api('GET', '/client-grants/x'),
        await h.api('DELETE', '/client-grants/x'),
        await h.api('GET', '/nowhere'),
      ];
      expect(answers.map((a) => a.statusCode)).toEqual([401, 403, 404, 405, 404]);
      for (const a of answers) {
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
          expect(a.headers[name], `${a.statusCode} ${name}`).toMatch(/^\d+$/);
      }
    } finally {
      await h.close();
    }
  });

  test('should open a new window when the old one ends', () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(() => now);
    const rate = { limit: 2, windowSeconds: 10 };
    expect(limiter.hit('k', rate).allowed).toBe(true);
    expect(limiter.hit('k', rate).allowed).toBe(true);
    const third = limiter.hit('k', rate);
    expect(third.allowed).toBe(false);
    expect(third.reset).toBe(Math.ceil((1_000_000 + 10_000) / 1000));
    now += 10_000;
    const fresh = limiter.hit('k', rate);
    expect(fresh).toMatchObject({ allowed: true, remaining: 1 });
  });
});
