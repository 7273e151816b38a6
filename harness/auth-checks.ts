/**
 * Authentication checks, the same for every operation (Authentication 1-4,
 * Errors): no token, a malformed header, a tampered signature and a token
 * without the in-scope scopes are refused; the run's token is accepted.
 * Which status each operation uses (beyond token sets: 401/403) is not shown
 * and is observed.
 *
 * Each operation's spec file calls `authChecks()` with one representative
 * request, so that writes stay inside that file's snapshot/restore and run
 * one after another with the file's other writes.
 */
import type { Api, Exchange } from './client.ts';
import { must, mustRefuse, observe } from './checks.ts';
import type { Config } from './config.ts';
import { rules, test } from './fixtures.ts';
import { RUN_TOKEN } from './global-setup.ts';
import { tamperSignature } from './tokens.ts';
import { operation, type OperationId } from '../spec/operations.ts';

export type Auth = 'token' | 'none' | { header: string };
export type Probe = (api: Api, config: Config, auth: Auth) => Promise<Exchange>;

export interface AuthCheckOptions {
  /** Runs each probe inside a snapshot/restore (for writes). */
  around?: (api: Api, config: Config, fn: () => Promise<void>) => Promise<void>;
}

export function authChecks(id: Exclude<OperationId, 'oauth.token'>, probe: Probe, opts: AuthCheckOptions = {}): void {
  const op = operation(id);
  const around = opts.around ?? ((_a, _c, fn) => fn());
  test.describe(`authentication of ${op.method} ${op.path} @auth ${op.tag}`, () => {
    test.beforeEach(({ config }) => {
      test.skip(op.writes && config.writes === 'none', 'CONFORMANCE_WRITES=none: no write is sent, not even one meant to be refused');
    });

    test('should refuse a request without a token', rules('auth.bearer.required'), async ({ api, anonApi, config }) => {
      await around(api, config, async () => {
        const ex = await probe(anonApi, config, 'none');
        mustRefuse('auth.bearer.required', ex, 'no Authorization header');
        if (id !== 'token-sets.list') observe('auth.unauthenticated.status', `${id}: no token answered`, String(ex.status));
      });
    });

    test('should refuse a malformed Authorization header', rules('auth.bearer.malformed'), async ({ api, anonApi, config }) => {
      await around(api, config, async () => {
        for (const header of ['Basic Y29uZm9ybWFuY2U6c2VjcmV0', 'Bearer ', 'Bearer conformance-not-a-jwt']) {
          mustRefuse('auth.bearer.malformed', await probe(anonApi, config, { header }), `Authorization: ${JSON.stringify(header.replace(/ .+/, ' …'))}`);
        }
      });
    });

    test('should refuse a JWT whose signature was altered', rules('auth.jwt.signature'), async ({ api, anonApi, config }) => {
      await around(api, config, async () => {
        const ex = await probe(anonApi, config, { header: `Bearer ${tamperSignature(process.env[RUN_TOKEN]!)}` });
        mustRefuse('auth.jwt.signature', ex, 'the JWT signature is invalid');
        if (id !== 'token-sets.list') observe('auth.unauthenticated.status', `${id}: tampered signature answered`, String(ex.status));
      });
    });

    test('should refuse a token without the in-scope scopes', rules('auth.scope.enforced'), async ({ api, limitedApi, config }) => {
      await around(api, config, async () => {
        const ex = await probe(limitedApi, config, 'token');
        mustRefuse('auth.scope.enforced', ex, `the token holds none of the in-scope scopes (e.g. ${op.scopes.join(', ')})`);
        if (id !== 'token-sets.list') observe('auth.forbidden.status', `${id}: token without the scopes answered`, String(ex.status));
      });
    });

    test('should accept the run\'s token', rules('oauth.token.accepted'), async ({ api, config }) => {
      await around(api, config, async () => {
        const ex = await probe(api, config, 'token');
        must('oauth.token.accepted', ex.status !== 401 && ex.status !== 403, { expected: 'not refused for its token (no 401 or 403)', actual: `status ${ex.status}`, exchange: ex });
      });
    });
  });
}
