/**
 * The suite's Playwright fixtures: `test` and `expect` for every check.
 *
 * - `config`: the run's configuration (harness/config.ts).
 * - `api`: a client holding the run's main token.
 * - `limitedApi`: a client holding a token without the in-scope scopes
 *   (the test is skipped, with the reason, when none is configured).
 * - `anonApi`: a client with no token.
 *
 * Every test declares the rules it checks with `rules(...)`, which tags it
 * `@rule:<id>` (so `--grep @rule:<id>` runs one rule's checks) and with
 * its operations' tags (`@token-sets`, `@sse`, …).
 *
 * After each test, the requests it sent are added to its annotations, per
 * operation, for the request budget of the report.
 */
import { test as base, expect, request as playwrightRequest } from '@playwright/test';
import { operation, type OperationId } from '../spec/operations.ts';
import { rule, type RuleId } from '../spec/rules.ts';
import { Api } from './client.ts';
import { readConfig, type Config } from './config.ts';
import { RUN_LIMITED_TOKEN, RUN_TOKEN } from './global-setup.ts';
import { takeCounts } from './request-log.ts';
import { subscribe, type SseConnection, type SubscribeOptions } from './sse.ts';
import { EventCauser } from './triggers.ts';

/** The SSE harness of one test: its subscriptions are all closed after it, and what it caused is removed. */
export interface EventsHarness {
  subscribe(opts?: SubscribeOptions): Promise<SseConnection>;
  causer: EventCauser;
}

export interface Fixtures {
  config: Config;
  api: Api;
  limitedApi: Api;
  anonApi: Api;
  events: EventsHarness;
  requestBudget: void;
}

export interface WorkerFixtures {
  /**
   * A project's target, as CONFORMANCE_* variables overlaid on process.env
   * in each of its workers before anything reads the configuration (each
   * worker serves one project): `npm run verify` runs many targets in one
   * Playwright run. Empty for the suite's own projects.
   */
  targetEnv: Record<string, string>;
  applyTargetEnv: void;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  targetEnv: [{}, { scope: 'worker', option: true }],
  applyTargetEnv: [
    async ({ targetEnv }, use) => {
      Object.assign(process.env, targetEnv);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  config: async ({}, use) => {
    await use(readConfig());
  },
  api: async ({ config }, use, info) => {
    const ctx = await playwrightRequest.newContext();
    await use(new Api(ctx, config, process.env[RUN_TOKEN], info.config.workers));
    await ctx.dispose();
  },
  limitedApi: async ({ config }, use, info) => {
    const token = process.env[RUN_LIMITED_TOKEN];
    info.skip(!token, 'No limited token: set CONFORMANCE_LIMITED_TOKEN or CONFORMANCE_LIMITED_CLIENT_ID/SECRET');
    const ctx = await playwrightRequest.newContext();
    await use(new Api(ctx, config, token, info.config.workers));
    await ctx.dispose();
  },
  anonApi: async ({ config }, use, info) => {
    const ctx = await playwrightRequest.newContext();
    await use(new Api(ctx, config, undefined, info.config.workers));
    await ctx.dispose();
  },
  events: async ({ api, config }, use) => {
    const open: SseConnection[] = [];
    const causer = new EventCauser(api, config);
    try {
      await use({
        subscribe: async (opts) => {
          const c = await subscribe(config.baseUrl, process.env[RUN_TOKEN], opts);
          open.push(c);
          return c;
        },
        causer,
      });
    } finally {
      open.forEach((c) => c.close());
      await causer.cleanup();
    }
  },
  requestBudget: [
    async ({}, use, info) => {
      takeCounts();
      await use();
      const counts = takeCounts();
      if (Object.keys(counts).length) info.annotations.push({ type: 'requests', description: JSON.stringify(counts) });
    },
    { auto: true },
  ],
});

export { expect };

/** Test details naming the rules a test checks: tags for --grep, annotations for the report. */
export function rules(...ids: RuleId[]): { tag: string[]; annotation: Array<{ type: string; description: string }> } {
  const ops = new Set<OperationId>(ids.flatMap((id) => rule(id).operations));
  const opTags = ops.size <= 2 ? [...ops].map((o) => operation(o).tag) : [];
  return {
    tag: [...new Set([...opTags, ...ids.map((id) => `@rule:${id}`)])],
    annotation: ids.map((id) => ({ type: 'rule', description: id })),
  };
}

/** Skips the test, with the reason in the report, when writes are off. */
export function requireWrites(config: Config): void {
  test.skip(config.writes === 'none', 'CONFORMANCE_WRITES=none: this check sends writes');
}

/** Skips the test, with the reason in the report, when a fixture is not configured. */
export function requireFixture<T>(value: T | undefined, variable: string): T {
  test.skip(value === undefined || value === '', `${variable} is not set: this check needs it`);
  return value as T;
}
