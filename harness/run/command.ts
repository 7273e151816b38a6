/**
 * The conformance command: `npm run conformance [-- options]` in this
 * repository, `mgmt-api-conformance [options]` where the package is
 * installed (bin/mgmt-api-conformance). One code path for both.
 *
 *   [run]                  the suite (the default); every option it does not
 *                          know passes to `playwright test` (--grep, --shard 2/4, --workers N)
 *   rules [--json]         the rule catalogue (spec/rules.ts)
 *   emulator [options]     the reference emulator, options as `npm run emulator`
 *
 * Exit codes: 0 conformant, 1 a rule failed, 2 a configuration error or an
 * unreachable target (no check ran), or a selection that matched no check.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '../../spec/operations.ts';
import { grepForRule, grepForTag, isRuleId, rules, type Rule } from '../../spec/rules.ts';
import { BASELINE, ENV_FILE, PROFILE, RECORD_PROFILE, REPORTS_DIR, commandEnv, type Env } from './config.ts';
import type { Difference } from '../verdicts/baseline.ts';

/** The package's root (this repository, or node_modules/mgmt-api-conformance). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const EXIT = { conformant: 0, failed: 1, error: 2 } as const;

const USAGE = `usage: mgmt-api-conformance [run] [options] [playwright options]
       mgmt-api-conformance gate [--reports DIR] [--fail-on new|any] [--summary FILE]
       mgmt-api-conformance rules [--json] [--operation NAME]
       mgmt-api-conformance emulator [--port N] [--control] [--fault NAME] [--env-file PATH] ...

Runs the conformance suite against the target named by --env-file FILE, or by
the environment and ./.env (CONFORMANCE_*), or, when neither names one
(no CONFORMANCE_BASE_URL), against the embedded reference emulator.

  --env-file FILE        read the CONFORMANCE_* variables from FILE instead of ./.env
                         (the environment still wins over the file, as with .env)
  --reports DIR          where every report goes (default ./reports)
  --rule ID              only the checks of this rule (repeatable; see \`rules\`)
  --operation NAME       only the checks of this operation: its id (event-streams.list)
                         or its tag (event-streams, sse); repeatable
  --baseline FILE        compare with this earlier run's conformance.json (default: the last
                         run of the same target kept in CONFORMANCE_STATE_DIR, ./reports by default)
  --fail-on new|any      new: exit 1 only for rules failing now that did not fail in the
                         baseline (known failures are reported, and exit 0); any (default): every failure
  --profile FILE         fail where an observation differs from the profile
  --record-profile FILE  store this run's observations as a profile
  --json                 print a one-line JSON summary on stdout (the run's output goes to stderr)
  -h, --help             this text

Anything else goes to \`playwright test\`: --grep, --grep-invert, --shard 2/4, --workers N, --project NAME
(--reporter replaces the suite's reports, and then the exit code is playwright's).
Exit codes: 0 conformant, 1 a rule failed, 2 configuration error, unreachable target, or nothing selected.
`;

/** A flag's value, from `--flag value` or `--flag=value`. */
function takeValue(args: string[], i: number, flag: string, inline: string | undefined): [string, number] {
  if (inline !== undefined) return [inline, i];
  const v = args[i + 1];
  if (v === undefined || v === '') fail(`${flag} needs a value`);
  return [v, i + 1];
}

function fail(message: string): never {
  process.stderr.write(`mgmt-api-conformance: ${message}\n`);
  process.exit(EXIT.error);
}

function operationTag(name: string): string {
  const bare = name.replace(/^@/, '');
  const op = operations.find((o) => o.id === bare || o.tag === `@${bare}`);
  if (!op) fail(`--operation ${name}: not an operation (${operations.map((o) => o.id).join(', ')}) nor its tag`);
  return op.tag;
}

interface RunOptions {
  envFile?: string;
  failOn: 'new' | 'any';
  reports: string;
  json: boolean;
  selections: string[];
  playwright: string[];
  env: Env;
}

function parseRun(args: string[]): RunOptions {
  const env = commandEnv();
  const opts: RunOptions = {
    reports: env[REPORTS_DIR] || 'reports',
    failOn: 'any',
    json: false,
    selections: [],
    playwright: [],
    env,
  };
  let grep: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    let v: string;
    switch (flag) {
      case '-h':
      case '--help':
        process.stdout.write(USAGE);
        return process.exit(0);
      case '--json':
        opts.json = true;
        break;
      case '--env-file':
        [v, i] = takeValue(args, i, flag, inline);
        opts.envFile = resolve(v);
        if (!existsSync(opts.envFile) || !statSync(opts.envFile).isFile()) fail(`--env-file ${v}: no such file`);
        break;
      case '--baseline':
        [v, i] = takeValue(args, i, flag, inline);
        if (!existsSync(v) || !statSync(v).isFile())
          fail(`--baseline ${v}: no such file (a conformance.json of an earlier run)`);
        env[BASELINE] = resolve(v);
        break;
      case '--fail-on':
        [v, i] = takeValue(args, i, flag, inline);
        if (v !== 'new' && v !== 'any') fail(`--fail-on ${v}: new or any`);
        opts.failOn = v;
        break;
      case '--reports':
        [v, i] = takeValue(args, i, flag, inline);
        opts.reports = v;
        break;
      case '--rule':
        [v, i] = takeValue(args, i, flag, inline);
        if (!isRuleId(v)) fail(`--rule ${v}: no such rule (list them with \`rules\`)`);
        opts.selections.push(grepForRule(v));
        break;
      case '--operation':
        [v, i] = takeValue(args, i, flag, inline);
        opts.selections.push(grepForTag(operationTag(v)));
        break;
      case '--profile':
      case '--record-profile':
        [v, i] = takeValue(args, i, flag, inline);
        if (flag === '--profile' && !existsSync(v))
          fail(`--profile ${v}: no such file (record one with --record-profile)`);
        env[flag === '--profile' ? PROFILE : RECORD_PROFILE] = resolve(v);
        break;
      case '-g':
      case '--grep':
        [v, i] = takeValue(args, i, flag, inline);
        grep = v;
        break;
      default:
        opts.playwright.push(a);
    }
  }
  // --rule and --operation select any of theirs; a --grep beside them narrows that further.
  const any = opts.selections.length ? `(?:${opts.selections.join('|')})` : undefined;
  const pattern = any && grep ? `^(?=.*${any})(?=.*(?:${grep}))` : (any ?? grep);
  if (pattern !== undefined) opts.playwright.unshift('--grep', pattern);
  return opts;
}

interface Summary {
  result: 'conformant' | 'failed' | 'error';
  exitCode: number;
  target?: string;
  embedded?: boolean;
  pass?: number;
  fail?: number;
  observed?: number;
  skipped?: number;
  notRun?: number;
  failedRules?: string[];
  /** Checks (tests) that failed, from playwright's results.json. */
  failedChecks?: number;
  error?: string;
  reports: string;
  durationMs?: number;
  /** What changed since the baseline (the report's `difference`). */
  difference?: Difference;
  /** With --fail-on new: every failing rule failed in the baseline too, so the run exits 0. */
  knownFailuresOnly?: boolean;
}

/** Reads the run's conformance.json (written by harness/verdicts/reporter.ts) into a verdict. */
export function summarize(
  reports: string,
  startedAt: number,
  playwrightCode: number,
  failOn: 'new' | 'any' = 'any',
): Summary {
  const file = resolve(reports, 'conformance.json');
  let report:
    | {
        target?: string;
        embedded?: boolean;
        startedAt?: string;
        durationMs?: number;
        headline?: Record<'pass' | 'fail' | 'observed' | 'skipped' | 'not run', number>;
        errors?: string[];
        rules?: Array<{ id: string; verdict: string }>;
        difference?: Difference;
      }
    | undefined;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    report = undefined;
  }
  // A report left by an earlier run is not this run's.
  if (report && !(Date.parse(report.startedAt ?? '') >= startedAt - 1000)) report = undefined;
  const where = { reports };
  if (!report?.headline) {
    return {
      result: 'error',
      exitCode: EXIT.error,
      error: `the run wrote no report (playwright exited ${playwrightCode}): see its output above`,
      ...where,
    };
  }
  const h = report.headline;
  const counts = {
    target: report.target,
    embedded: report.embedded,
    pass: h.pass,
    fail: h.fail,
    observed: h.observed,
    skipped: h.skipped,
    notRun: h['not run'],
    durationMs: report.durationMs === undefined ? undefined : Math.round(report.durationMs),
    ...(report.difference ? { difference: report.difference } : {}),
  };
  const failedRules = (report.rules ?? []).filter((r) => r.verdict === 'fail').map((r) => r.id);
  const errors = report.errors ?? [];
  if (errors.length && h.pass + h.fail + h.observed === 0) {
    return {
      result: 'error',
      exitCode: EXIT.error,
      error: errors[0]!.split('\n')[0],
      ...counts,
      failedRules,
      ...where,
    };
  }
  const failedChecks = unexpectedTests(reports);
  if (h.fail > 0) {
    // --fail-on new: rules that failed in the baseline too are known, reported, and do not fail the run.
    const knownFailuresOnly =
      failOn === 'new' &&
      report.difference !== undefined &&
      report.difference.newlyFailing.length === 0 &&
      failedRules.every((id) => report.difference!.stillFailing.includes(id));
    return {
      result: 'failed',
      exitCode: knownFailuresOnly ? EXIT.conformant : EXIT.failed,
      ...counts,
      failedRules,
      failedChecks,
      ...(knownFailuresOnly ? { knownFailuresOnly } : {}),
      ...where,
    };
  }
  if (playwrightCode !== 0) {
    // A check failed without a rule verdict to show for it (say, a profile difference under a rule its
    // test does not declare): still a failed run. No check ran at all: the selection matched nothing.
    if (h.pass + h.observed > 0 || failedChecks)
      return { result: 'failed', exitCode: EXIT.failed, ...counts, failedRules, failedChecks, ...where };
    const error = errors[0]?.split('\n')[0] ?? 'no check ran (does the selection match any check?)';
    return { result: 'error', exitCode: EXIT.error, error, ...counts, failedRules, ...where };
  }
  return { result: 'conformant', exitCode: EXIT.conformant, ...counts, failedRules, failedChecks, ...where };
}

/** Failed checks (tests), from playwright's own results.json; undefined when it is not there. */
function unexpectedTests(reports: string): number | undefined {
  try {
    const stats = (
      JSON.parse(readFileSync(resolve(reports, 'results.json'), 'utf8')) as { stats?: { unexpected?: number } }
    ).stats;
    return stats?.unexpected;
  } catch {
    return undefined;
  }
}

/** `import.meta.resolve` of tsx's loader, for playwright's processes when the suite lives under node_modules. */
function tsxLoaderOptions(): string | undefined {
  // Playwright does not compile TypeScript under node_modules: the installed suite needs tsx in every process.
  if (!`${ROOT}${sep}`.includes(`${sep}node_modules${sep}`)) return undefined;
  return `--import ${import.meta.resolve('tsx')}`;
}

async function runSuite(args: string[]): Promise<number> {
  const opts = parseRun(args);
  const env = opts.env;
  const reports = resolve(opts.reports);
  env[REPORTS_DIR] = reports;
  if (opts.envFile) env[ENV_FILE] = opts.envFile;
  const loader = tsxLoaderOptions();
  if (loader) env.NODE_OPTIONS = [env.NODE_OPTIONS, loader].filter(Boolean).join(' ');
  const hasConfig = opts.playwright.some((a) => a === '-c' || a === '--config' || a.startsWith('--config='));
  const cli = fileURLToPath(import.meta.resolve('@playwright/test/cli'));
  const argv = [
    '--',
    cli,
    'test',
    ...(hasConfig ? [] : ['--config', resolve(ROOT, 'playwright.config.ts')]),
    ...opts.playwright,
  ];
  const startedAt = Date.now();
  // With --json, stdout carries the summary only: playwright's own output goes to stderr.
  const child = spawn(process.execPath, argv, {
    stdio: ['inherit', opts.json ? process.stderr : 'inherit', 'inherit'],
    env,
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  const code = await new Promise<number>((res) => child.on('exit', (c, signal) => res(c ?? (signal ? 1 : 0))));
  if (opts.playwright.some((a) => a === '--reporter' || a.startsWith('--reporter='))) {
    // --reporter replaces the suite's reporters: no conformance.json to read, playwright's own exit code.
    process.stderr.write(
      "mgmt-api-conformance: --reporter replaces the suite's reports; the exit code is playwright's\n",
    );
    return code;
  }
  const summary = summarize(reports, startedAt, code, opts.failOn);
  if (summary.result === 'error') process.stderr.write(`\nmgmt-api-conformance: ${summary.error}\n`);
  if (summary.knownFailuresOnly)
    process.stderr.write(
      `\nmgmt-api-conformance: --fail-on new: ${summary.failedRules!.length} rules fail, none of them new since the baseline; exit 0\n`,
    );
  if (opts.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return summary.exitCode;
}

function listRules(args: string[]): number {
  let json = false;
  let op: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--operation' || a.startsWith('--operation=')) {
      op = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (!op) fail('--operation needs a value');
    } else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: mgmt-api-conformance rules [--json] [--operation NAME]\n');
      return 0;
    } else fail(`rules: unknown option ${a}`);
  }
  const tag = op === undefined ? undefined : operationTag(op);
  const list = (rules as readonly Rule[]).filter(
    (r) => tag === undefined || r.operations.some((o) => operations.find((x) => x.id === o)?.tag === tag),
  );
  if (json) {
    process.stdout.write(
      `${JSON.stringify(list.map((r) => ({ id: r.id, level: r.level, operations: r.operations, requirement: r.requirement, section: r.section, ...(r.note ? { note: r.note } : {}), ...(r.observable === false ? { observable: false } : {}) })))}\n`,
    );
    return 0;
  }
  for (const r of list) {
    process.stdout.write(
      `${r.id}  [${r.level}]  ${r.operations.join(', ')}${r.observable === false ? '  (not observable)' : ''}\n    ${r.requirement}\n`,
    );
  }
  process.stdout.write(
    `${list.length} rules (${list.filter((r) => r.level === 'must').length} must, ${list.filter((r) => r.level === 'observe').length} observe)\n`,
  );
  return 0;
}

/**
 * `gate`: the verdict of a run already made (merged shards, say), from its
 * reports: the exit code a run would have had, and with --summary the
 * difference first, then the headline, as markdown (a CI job's summary page).
 */
function gate(args: string[]): number {
  let reports = 'reports';
  let failOn: 'new' | 'any' = 'any';
  let summaryFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    let v: string;
    if (flag === '--reports') [reports, i] = takeValue(args, i, flag, inline);
    else if (flag === '--summary') [summaryFile, i] = takeValue(args, i, flag, inline);
    else if (flag === '--fail-on') {
      [v, i] = takeValue(args, i, flag, inline);
      if (v !== 'new' && v !== 'any') fail(`--fail-on ${v}: new or any`);
      failOn = v;
    } else if (flag === '-h' || flag === '--help') {
      process.stdout.write('usage: mgmt-api-conformance gate [--reports DIR] [--fail-on new|any] [--summary FILE]\n');
      return 0;
    } else fail(`gate: unknown option ${a}`);
  }
  const failedChecks = unexpectedTests(resolve(reports)) ?? 0;
  const summary = summarize(resolve(reports), 0, failedChecks > 0 ? 1 : 0, failOn);
  if (summary.result === 'error') {
    process.stderr.write(`mgmt-api-conformance: ${summary.error}\n`);
    return summary.exitCode;
  }
  const md = readFileSync(resolve(reports, 'conformance.md'), 'utf8');
  const section = (title: string) => {
    const at = md.indexOf(`\n## ${title}\n`);
    if (at < 0) return '';
    const next = md.indexOf('\n## ', at + 4);
    return md.slice(at + 1, next < 0 ? undefined : next).trim();
  };
  const head = md.slice(0, md.indexOf('\n## ')).trim();
  const verdict =
    summary.exitCode === EXIT.conformant
      ? summary.knownFailuresOnly
        ? `Gate (--fail-on ${failOn}): passed; ${summary.failedRules!.length} rules fail, none new since the baseline.`
        : `Gate (--fail-on ${failOn}): passed.`
      : `Gate (--fail-on ${failOn}): FAILED; ${summary.difference?.newlyFailing.length ?? summary.failedRules?.length ?? 0} rules newly failing.`;
  const text = [verdict, section('Since the baseline'), head, section('Failed rules')].filter(Boolean).join('\n\n');
  if (summaryFile) writeFileSync(summaryFile, `${text}\n`, { flag: 'a' });
  process.stdout.write(`${verdict}\n`);
  return summary.exitCode;
}

/** The exit code, or undefined while the emulator runs (it exits on a signal). */
async function main(argv: string[]): Promise<number | undefined> {
  const [first, ...rest] = argv;
  if (first === 'rules') return listRules(rest);
  if (first === 'gate') return gate(rest);
  if (first === 'emulator') {
    // emulator/cli.ts reads process.argv itself: hand it the emulator's options only.
    process.argv = [process.argv[0]!, resolve(ROOT, 'emulator/cli.ts'), ...rest];
    await import('../../emulator/cli.ts');
    return undefined;
  }
  return runSuite(first === 'run' ? rest : argv);
}

const code = await main(process.argv.slice(2));
if (code !== undefined) process.exit(code);
