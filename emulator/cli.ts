/**
 * `npm run emulator -- [options]`: start the emulator and print where it is.
 *
 *   --port N                 port (default 0: a free port)
 *   --host H                 interface (default 127.0.0.1)
 *   --rate-limit L/W         full and limited clients: L requests per W seconds (default 100000/10)
 *   --rate-limited-client L/W  the rate-limited client (default 10/60)
 *   --heartbeat-ms N         offset-only heartbeat interval on /events (default 1000)
 *   --control                mount the unauthenticated /__control endpoints
 *   --seed N                 seed of the initial state
 *   --fault NAME[,NAME]      switch faults on (emulator/faults/catalogue.ts; default: EMULATOR_FAULT)
 *   --variant NAME           false-positive variant (emulator/faults/variants.ts; default: EMULATOR_VARIANT)
 *   --env-out PATH           write the CONFORMANCE_* variables as a dotenv file
 *   --env-file PATH          the same, kept for older commands. Node 20 claims
 *                            --env-file anywhere on its command line (and exits
 *                            with code 9 when the file does not exist yet), except
 *                            after a `--`: the npm script ends with one, so
 *                            `npm run emulator -- --env-file PATH` works as typed
 *
 * It prints the emulator's own demo credentials (local use only). SIGINT and
 * SIGTERM close it cleanly.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator, type EmulatorOptions } from './index.js';
import { parseRate } from './options.js';

function intArg(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new RangeError(`--${name} must be an integer, got ${v}`);
  return Number(v);
}

/** A dotenv file that a POSIX shell can source too (`set -a; . FILE`): a value with `|` or spaces is single-quoted. */
function dotenv(vars: Record<string, string>): string {
  return (
    Object.entries(vars)
      .map(([k, v]) => `${k}=${/^[A-Za-z0-9_./:,@-]*$/.test(v) ? v : v.includes("'") ? JSON.stringify(v) : `'${v}'`}`)
      .join('\n') + '\n'
  );
}

async function main(): Promise<void> {
  // The npm script ends with `--` (node stops reading its own options there): drop it.
  const args = process.argv.slice(2);
  if (args[0] === '--') args.shift();
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-limited-client': { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      control: { type: 'boolean' },
      seed: { type: 'string' },
      fault: { type: 'string' },
      variant: { type: 'string' },
      'env-file': { type: 'string' },
      'env-out': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run emulator -- [--port N] [--host H] [--rate-limit L/W] [--rate-limited-client L/W] [--heartbeat-ms N] [--control] [--seed N] [--fault NAME] [--variant NAME] [--env-out PATH]\n',
    );
    return;
  }
  const options: EmulatorOptions = {
    port: intArg('port', values.port),
    host: values.host,
    rateLimit: values['rate-limit'] !== undefined ? parseRate(values['rate-limit']) : undefined,
    rateLimitedClient:
      values['rate-limited-client'] !== undefined ? parseRate(values['rate-limited-client']) : undefined,
    heartbeatMs: intArg('heartbeat-ms', values['heartbeat-ms']),
    control: values.control ?? false,
    seed: intArg('seed', values.seed),
    fault: values.fault,
    variant: values.variant,
  };
  const envPath = values['env-out'] ?? values['env-file'];
  const emu = await startEmulator(options);
  const env = emu.env();
  // Handlers first: whoever reads the banner may signal at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`emulator: ${signal}, closing\n`);
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (envPath !== undefined) writeFileSync(envPath, dotenv(env), { mode: 0o600 });

  process.stdout.write(
    [
      `emulator listening`,
      `  base URL   ${emu.baseUrl}`,
      `  auth URL   ${emu.authUrl} (token endpoint ${emu.authUrl}/oauth/token/)`,
      `  audience   ${emu.audience}`,
      ...(emu.controlUrl ? [`  control    ${emu.controlUrl}`] : []),
      `  full         ${emu.clients.full.clientId} / ${emu.clients.full.clientSecret}`,
      `  limited      ${emu.clients.limited.clientId} / ${emu.clients.limited.clientSecret}`,
      `  rateLimited  ${emu.clients.rateLimited.clientId} / ${emu.clients.rateLimited.clientSecret}`,
      ...(envPath !== undefined ? [`  env file   ${envPath}`] : []),
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
