/**
 * Runs once, in Playwright's main process, before any worker starts:
 *
 * 1. With no CONFORMANCE_BASE_URL, starts the embedded reference emulator
 *    on 127.0.0.1 (free port) and fills every CONFORMANCE_* variable from it.
 * 2. Reads and checks the configuration, and prints it (never a secret).
 * 3. Fetches the run's tokens once (client credentials), and hands them to
 *    the workers through their environment (never through a file).
 *
 * Returns the teardown, which stops what this setup started.
 * A broken target (unreachable, TLS, refused credentials) ends the run here
 * with one clear message, not as a hundred failed checks.
 */
import type { FullConfig } from '@playwright/test';
import { describeConfig, readConfig, type Config } from './config.ts';
import { describeNetworkError, fetchToken, TargetError } from '../requests/tokens.ts';

/** Environment names the workers read the run's tokens from. */
export const RUN_TOKEN = 'CONFORMANCE_RUN_TOKEN';
export const RUN_LIMITED_TOKEN = 'CONFORMANCE_RUN_LIMITED_TOKEN';

export default async function globalSetup(_: FullConfig): Promise<() => Promise<void>> {
  let stop: () => Promise<void> = async () => {};
  if (!process.env.CONFORMANCE_BASE_URL?.trim()) {
    const { startEmulator } = await import('../../emulator/index.ts');
    const emu = await startEmulator({ control: true, heartbeatMs: 250 });
    Object.assign(process.env, emu.env(), { CONFORMANCE_EMBEDDED: '1' });
    stop = () => emu.close();
  }
  try {
    const config = readConfig();
    console.log(`\nConformance run\n${describeConfig(config)}\n`);
    await resolveTokens(config);
    await preflight(config);
    process.env[SETUP_REQUESTS] = String(setupRequests);
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}


/**
 * One read with the run's token before any check: a target that is
 * unreachable, hangs, or refuses the token on a plain read would otherwise
 * show as a hundred failures. Ends the run with one clear message instead.
 */
async function preflight(config: Config): Promise<void> {
  setupRequests++;
  const url = `${config.baseUrl}/event-streams?take=1`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${process.env[RUN_TOKEN]}`, accept: 'application/json' }, signal: AbortSignal.timeout(config.timeoutMs) });
    await res.arrayBuffer();
  } catch (e) {
    throw new TargetError(describeNetworkError(url, e));
  }
  if (res.status === 401) {
    throw new TargetError(`The target refused the run's token (GET /event-streams answered 401): check CONFORMANCE_AUDIENCE (${config.audience}) and that the token is for this tenant.`);
  }
  if (res.status === 403) {
    throw new TargetError('The run\'s token lacks the in-scope scopes (GET /event-streams answered 403): grant the client read:event_streams, read:client_grants, read:federated_connections_tokens, read:events (and the write scopes for CONFORMANCE_WRITES=restore).');
  }
}

/** Requests sent by the setup itself (token requests, preflight), for the report's request count. */
let setupRequests = 0;
export const SETUP_REQUESTS = 'CONFORMANCE_SETUP_REQUESTS';

async function resolveTokens(config: Config): Promise<void> {
  if (!config.token) setupRequests++;
  const token = config.token ?? (await fetchToken(config, config.credentials!, 'main'));
  process.env[RUN_TOKEN] = token;
  if (!config.limitedToken && config.limitedCredentials) setupRequests++;
  const limited = config.limitedToken ?? (config.limitedCredentials ? await fetchToken(config, config.limitedCredentials, 'limited') : undefined);
  if (limited) process.env[RUN_LIMITED_TOKEN] = limited;
}
