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
import { fetchToken } from './tokens.ts';

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
    const config = readConfig();
    console.log(`\nConformance run\n${describeConfig(config)}\n`);
    await resolveTokens(config);
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}

async function resolveTokens(config: Config): Promise<void> {
  const token = config.token ?? (await fetchToken(config, config.credentials!, 'main'));
  process.env[RUN_TOKEN] = token;
  const limited = config.limitedToken ?? (config.limitedCredentials ? await fetchToken(config, config.limitedCredentials, 'limited') : undefined);
  if (limited) process.env[RUN_LIMITED_TOKEN] = limited;
}
