/**
 * Runs once, in Playwright's main process, before any worker starts:
 *
 * 1. With no CONFORMANCE_BASE_URL, starts the embedded reference emulator
 *    on 127.0.0.1 (free port) and fills every CONFORMANCE_* variable from it.
 * 2. Prepares the target (harness/run/prepare-target.ts): configuration,
 *    the run's tokens, a preflight read.
 * 3. Hands what it prepared to the workers, through their environment
 *    (never through a file).
 *
 * Returns the teardown, which stops what this setup started.
 */
import type { FullConfig } from '@playwright/test';
import { handOver, processEnv } from './config.ts';
import { prepareTarget } from './prepare-target.ts';

export default async function globalSetup(_: FullConfig): Promise<() => Promise<void>> {
  let stop: () => Promise<void> = async () => {};
  let env = processEnv();
  if (!env.CONFORMANCE_BASE_URL?.trim()) {
    const { startEmulator } = await import('../../emulator/index.ts');
    const { AS_EMBEDDED_TARGET } = await import('../../emulator/options.ts');
    const emu = await startEmulator({ control: true, ...AS_EMBEDDED_TARGET });
    const embedded = { ...emu.env(), CONFORMANCE_EMBEDDED: '1' };
    handOver(embedded);
    env = { ...env, ...embedded };
    stop = () => emu.close();
  }
  try {
    handOver(await prepareTarget(env));
  } catch (e) {
    await stop();
    throw e;
  }
  return stop;
}
