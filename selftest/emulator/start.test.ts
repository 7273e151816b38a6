/**
 * startEmulator() and the CLI: addresses, credentials, fixtures and the
 * dotenv variables the suite reads; clean shutdown.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseDotenv } from 'dotenv';
import { startEmulator } from '../../emulator/index.js';
import { formatErrors, validate } from '../../schemas/index.js';

const ENV_NAMES = [
  'CONFORMANCE_BASE_URL',
  'CONFORMANCE_AUTH_URL',
  'CONFORMANCE_AUDIENCE',
  'CONFORMANCE_CLIENT_ID',
  'CONFORMANCE_CLIENT_SECRET',
  'CONFORMANCE_LIMITED_CLIENT_ID',
  'CONFORMANCE_LIMITED_CLIENT_SECRET',
  'CONFORMANCE_RATE_LIMIT_CLIENT_ID',
  'CONFORMANCE_RATE_LIMIT_CLIENT_SECRET',
  'CONFORMANCE_USER_ID',
  'CONFORMANCE_USER_TOKEN_SET_IDS',
  'CONFORMANCE_USER_IDS',
  'CONFORMANCE_CLIENT_GRANT_ID',
  'CONFORMANCE_CLIENT_GRANT_IDS',
  'CONFORMANCE_SELF_SERVICE_PROFILE_ID',
  'CONFORMANCE_EXPERIMENT_IDS',
  'CONFORMANCE_EVENT_STREAM_IDS',
  'CONFORMANCE_USER_CONNECTION',
  'CONFORMANCE_WRITES',
  'CONFORMANCE_RATE_LIMIT_PROBE',
  'CONFORMANCE_RATE_LIMIT_EXPECTED',
  'CONFORMANCE_EXPIRING_CLIENT_ID',
  'CONFORMANCE_EXPIRING_CLIENT_SECRET',
  'CONFORMANCE_TOKEN_EXPIRY_LEEWAY',
  'CONFORMANCE_EVENTS_TRIGGER',
];

async function tokenFor(env: Record<string, string>, prefix: '' | 'LIMITED_' | 'RATE_LIMIT_' = ''): Promise<Response> {
  return fetch(`${env['CONFORMANCE_AUTH_URL']}/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: env[`CONFORMANCE_${prefix}CLIENT_ID`]!,
      client_secret: env[`CONFORMANCE_${prefix}CLIENT_SECRET`]!,
      audience: env['CONFORMANCE_AUDIENCE']!,
    }),
  });
}

test.describe('startEmulator', () => {
  test('should listen on 127.0.0.1 on a free port and describe itself in env()', async () => {
    const emu = await startEmulator();
    try {
      expect(emu.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emu.baseUrl).toBe(`${emu.authUrl}/api/v2`);
      expect(emu.audience).toBe(`${emu.authUrl}/api/v2/`);
      const env = emu.env();
      expect(Object.keys(env).sort()).toEqual([...ENV_NAMES].sort());
      expect(env['CONFORMANCE_EXPERIMENT_IDS']!.split(',').length).toBeGreaterThanOrEqual(12);
      expect(env['CONFORMANCE_WRITES']).toBe('disposable');
      for (const prefix of ['', 'LIMITED_', 'RATE_LIMIT_'] as const) {
        const res = await tokenFor(env, prefix);
        expect(res.status).toBe(200);
        const r = validate('token-response', await res.json());
        expect(r.valid, formatErrors(r.errors)).toBe(true);
      }
      expect(emu.fixtures.eventStreamIds).toHaveLength(137);
    } finally {
      await emu.close();
    }
  });

  test('should give the same ids for the same seed and fresh secrets every start', async () => {
    const a = await startEmulator({ seed: 7 });
    const b = await startEmulator({ seed: 7 });
    const c = await startEmulator({ seed: 8 });
    try {
      expect(a.fixtures).toEqual(b.fixtures);
      expect(a.clients.full.clientId).toBe(b.clients.full.clientId);
      expect(a.clients.full.clientSecret).not.toBe(b.clients.full.clientSecret);
      expect(c.fixtures.experimentIds).not.toEqual(a.fixtures.experimentIds);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  test('should add CONFORMANCE_CONTROL_URL only with control on, and store fault and variant', async () => {
    const emu = await startEmulator({
      control: true,
      fault: 'json-as-text-plain, token-not-jwt',
      variant: 'validation-422',
    });
    try {
      expect(emu.env()['CONFORMANCE_CONTROL_URL']).toBe(`${emu.authUrl}/__control`);
      expect([...emu.app.emulator.faults]).toEqual(['json-as-text-plain', 'token-not-jwt']);
      expect(emu.app.emulator.variant).toBe('validation-422');
      const state = await fetch(`${emu.authUrl}/__control/state`);
      expect(state.status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  test('should take only its own tokens when emulators share a signing key pair (sharedSigningKey), each with its own kid', async () => {
    const [a, b] = await Promise.all([
      startEmulator({ sharedSigningKey: true }),
      startEmulator({ sharedSigningKey: true }),
    ]);
    try {
      const envA = a.env();
      const envB = b.env();
      const token = ((await (await tokenFor(envA)).json()) as { access_token: string }).access_token;
      const read = (env: Record<string, string>) =>
        fetch(`${env['CONFORMANCE_BASE_URL']}/event-streams`, { headers: { authorization: `Bearer ${token}` } });
      expect((await read(envA)).status).toBe(200);
      // The same key signed it, but for A's audience and issuer, under A's kid: B refuses it.
      expect((await read(envB)).status).toBe(401);
      const kid = async (e: typeof a) =>
        ((await (await fetch(`${e.authUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> })
          .keys[0]!.kid;
      expect(await kid(a)).not.toBe(await kid(b));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('should refuse invalid options', async () => {
    await expect(startEmulator({ heartbeatMs: 0 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ rateLimit: { limit: -1, windowSeconds: 1 } })).rejects.toThrow(RangeError);
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(RangeError);
  });
});

/** Starts the CLI, waits for its banner, answers its stdout and the parsed env file. */
async function runCli(args: string[], envFile: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`CLI did not start: ${out} ${err}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('rateLimited')) {
          clearTimeout(t);
          resolve();
        }
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => reject(new Error(`CLI exited with ${code}: ${out} ${err}`)));
    });
  } catch (e) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw e;
  }
  // Read as the suite reads it: dotenv (values holding + / : are quoted in the file).
  const env = parseDotenv(readFileSync(envFile, 'utf8'));
  return { child, out, env };
}

test.describe('CLI', () => {
  test('should print its addresses, write the env file (--env-out) and close on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
    const envFile = join(dir, '.env.emulator');
    const { child, out, env } = await runCli(
      ['--port', '0', '--rate-limit', '100/10', '--heartbeat-ms', '500', '--control', '--env-out', envFile],
      envFile,
    );
    try {
      expect(out).toMatch(/base URL\s+http:\/\/127\.0\.0\.1:\d+\/api\/v2/);
      expect(Object.keys(env).sort()).toEqual([...ENV_NAMES, 'CONFORMANCE_CONTROL_URL'].sort());
      const res = await tokenFor(env);
      expect(res.status).toBe(200);
      const token = ((await res.json()) as { access_token: string }).access_token;
      const grant = await fetch(`${env['CONFORMANCE_BASE_URL']}/client-grants/${env['CONFORMANCE_CLIENT_GRANT_ID']}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(grant.status).toBe(200);
      expect(grant.headers.get('x-ratelimit-limit')).toBe('100');
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('should take --env-file too (on Node 20 the file must already exist) and close on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
    const envFile = join(dir, '.env.emulator');
    writeFileSync(envFile, '# replaced by the emulator\n');
    const { child, env } = await runCli(['--env-file', envFile], envFile);
    try {
      expect(env['CONFORMANCE_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
      expect(env['CONFORMANCE_CONTROL_URL']).toBeUndefined();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The emulator commands the READMEs document (`npm run emulator -- ...`), as typed. */
function documentedCommands(): string[] {
  const out: string[] = [];
  for (const file of ['README.md', 'emulator/README.md']) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:\| `)?(npm run emulator -- [^`\n]*)/gm))
      out.push(m[1]!.trim());
  }
  return out;
}

test.describe('documented commands', () => {
  const commands = documentedCommands();
  test("should document at least the README's and emulator/README's command, with --env-out", () => {
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const c of commands) expect(c).toContain('--env-out .env.emulator');
  });

  // As typed, through npm, on a fresh clone (no env file yet); only the port (a free one) and the env file's folder differ.
  const asTyped = [...commands, ...commands.map((c) => c.replace('--env-out', '--env-file'))];
  for (const command of asTyped) {
    test(`should start, write the env file and stop: ${command}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'emulator-doc-'));
      const envFile = join(dir, '.env.emulator');
      const typed = command.replace(/--port \d+/, '--port 0').replace(/ \.env\.emulator\b/, ` ${envFile}`);
      const child = spawn('sh', ['-c', typed], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      let out = '';
      let err = '';
      try {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`no banner: ${out} ${err}`)), 30_000);
          child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            if (out.includes('rateLimited')) {
              clearTimeout(t);
              resolve();
            }
          });
          child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code) => reject(new Error(`exited with ${code}: ${err.replace(/\S*secret\S*/gi, '')}`)));
        });
        const env = parseDotenv(readFileSync(envFile, 'utf8'));
        const res = await tokenFor(env);
        expect(res.status).toBe(200);
      } finally {
        // The whole group this test started: sh, npm and node.
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
