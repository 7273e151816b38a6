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
import { describeNetworkError, fallbackWarning, fetchToken, TargetError, TOKEN_FALLBACK } from './tokens.ts';

/** Environment names the workers read the run's tokens from. */
export const RUN_TOKEN = 'CONFORMANCE_RUN_TOKEN';
export const RUN_LIMITED_TOKEN = 'CONFORMANCE_RUN_LIMITED_TOKEN';

export default async function globalSetup(_: FullConfig): Promise<() => Promise<void>> {
  let stop: () => Promise<void> = async () => {};
  if (!process.env.CONFORMANCE_BASE_URL?.trim()) {
    const { startEmulator } = await import('../emulator/index.ts');
    const emu = await startEmulator({ control: true, heartbeatMs: 250 });
    Object.assign(process.env, emu.env(), { CONFORMANCE_EMBEDDED: '1' });
    stop = () => emu.close();
  }
  try {
    console.log(`\nConformance run\n${describeConfig(readConfig())}\n`);
    Object.assign(process.env, await prepareTarget(process.env, (m) => console.warn(m)));
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}

/**
 * What the workers need beyond a target's configuration, as environment
 * variables: the run's tokens (with the note when only an undocumented token
 * request had them, said on the console), after one preflight read, and the
 * number of requests this took. Throws a TargetError or ConfigError that ends
 * the run. Reads only `env` and writes no process.env: `npm run verify` calls
 * it for each of its targets in one process.
 */
export async function prepareTarget(env: Record<string, string | undefined>, warn: (message: string) => void = () => {}): Promise<Record<string, string>> {
  const config = readConfig(env);
  const out: Record<string, string> = {};
  const fallbacks: Array<{ which: string; note: string }> = [];
  let requests = 0;
  if (!config.token) requests++;
  out[RUN_TOKEN] = config.token ?? (await fetchToken(config, config.credentials!, 'main', fallbacks));
  if (!config.limitedToken && config.limitedCredentials) requests++;
  const limited = config.limitedToken ?? (config.limitedCredentials ? await fetchToken(config, config.limitedCredentials, 'limited', fallbacks) : undefined);
  if (limited) out[RUN_LIMITED_TOKEN] = limited;
  if (fallbacks.length) out[TOKEN_FALLBACK] = fallbacks.map((f) => `${f.which}: ${f.note}`).join('; ');
  for (const f of fallbacks) warn(fallbackWarning(f.which, f.note));
  requests++;
  await preflight(config, out[RUN_TOKEN]);
  out[SETUP_REQUESTS] = String(requests);
  return out;
}

/**
 * One read with the run's token before any check: a target that is
 * unreachable, hangs, or refuses the token on a plain read would otherwise
 * show as a hundred failures. Ends the run with one clear message instead.
 */
async function preflight(config: Config, token: string): Promise<void> {
  const url = `${config.baseUrl}/event-streams?take=1`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(config.timeoutMs) });
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
export const SETUP_REQUESTS = 'CONFORMANCE_SETUP_REQUESTS';
