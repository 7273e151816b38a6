/**
 * `npm run conformance [-- options]`: the conformance run.
 *
 * Runs `playwright test` with every argument passed through
 * (`--grep @sse`, `--shard 1/2`, ...), plus the suite's own options:
 *
 *   --record-profile FILE  store this run's observations as a profile
 *   --profile FILE         fail where an observation differs from the profile
 *                          (a strict tier for what the document leaves unspecified)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROFILE, RECORD_PROFILE } from './profile.ts';

const args = process.argv.slice(2);
const env: Record<string, string | undefined> = { ...process.env };
const rest: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
  if (flag === '--record-profile' || flag === '--profile') {
    const file = inline ?? args[++i];
    if (!file) {
      console.error(`${flag} needs a file`);
      process.exit(2);
    }
    if (flag === '--profile' && !existsSync(file)) {
      console.error(`--profile ${file}: no such file (record one with --record-profile)`);
      process.exit(2);
    }
    env[flag === '--profile' ? PROFILE : RECORD_PROFILE] = resolve(file);
  } else rest.push(a);
}

const child = spawn('npx', ['playwright', 'test', ...rest], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
