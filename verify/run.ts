/**
 * `npm run verify`: the suite proves itself against its own emulator.
 *
 * 1. Baseline: the whole suite against the fault-free emulator must pass,
 *    and pass again, with the same verdict for every rule, when run a second
 *    time against the same emulator (fixtures used up by the first run).
 * 2. False-positive guards: the whole suite against each variant of the
 *    emulator (differing only where the document is silent) must pass.
 * 3. Mutation sweep: for each fault of the catalogue (emulator/faults/catalogue.ts),
 *    an emulator with that one fault, and only the checks tagged with the
 *    fault's rule (`--grep @rule:<id>`). The fault is caught when the run's
 *    verdict on that rule is fail, from a recorded violation of it
 *    (harness/verdicts/decide.ts: the same decision the report makes).
 * 4. The read-only profile, what a tenant owner runs first (no writes, no
 *    rate-limit probe, passive events): its baseline must pass, and every
 *    fault whose rule that baseline decides (but those marked `needs:
 *    'writes'`) is swept again under it; its score is printed apart.
 * 5. Rule coverage: for every must rule, its checks and faults, gaps named.
 *
 * A check that breaks a rule it does not declare (a suite defect) fails
 * verify wherever it happens.
 *
 * Every emulator runs in this process, each fault and each variant alone on
 * its own. The baselines are one Playwright run (verify/playwright.config.ts)
 * with a project each, on the suite's workers as the conformance run has
 * them; the guards and the faults are checked in shared workers, each check
 * copied per target that selects it (harness/fixtures/targets.ts), a worker
 * start paid per worker, not per target; the read-only faults come after,
 * since which of them are swept depends on the read-only baseline. Each fault's verdicts are
 * decided, and printed, as soon as its last check ends.
 *
 * Writes reports/verify/verify.json and verify.md; exits 1 unless every
 * fault is caught and every guard passes.
 *
 * Faults written blind (`round` in the catalogue) are swept against the
 * whole suite, as an independent server would be, by a round's sweep
 * (`--round N`, or `--whole-suite`); their record (caught before any check
 * changed, verify/blind-rounds.json) is printed beside what this run caught.
 * Every other run sweeps a blind fault with the checks of the rules that
 * caught it when it was last swept whole (verify/blind-caught-by.json, kept
 * by every whole sweep): whether they still catch it, at a catalogue fault's
 * cost. A blind fault that file does not name is swept whole.
 *
 * Options: --fault NAME (repeatable), --round N (the faults of a blind round, swept whole; repeatable),
 * --record-before (with --round: record a round not yet recorded, as caught now), --whole-suite,
 * --variant NAME (repeatable), --quick (one fault per rule, no guards), --no-guards, --guards (with --fault or
 * --round: the second run and every variant too, which those leave out), --no-read-only,
 * --jobs N (Playwright workers, 2), --seed N|random (fast-check's seed for every target).
 *
 * The property checks draw their cases from one fast-check seed for every
 * target (SEED, printed; CONFORMANCE_FC_SEED or --seed another; --seed random
 * draws one): what verify catches is a property of the commit, so a red run
 * is reproduced by running it again, and a fault caught only by a lucky draw
 * shows as missed in every run, not in one of several. A conformance run
 * against a target keeps drawing at random.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { faults, type Fault } from '../emulator/faults/catalogue.ts';
import { startEmulator } from '../emulator/index.ts';
import { AS_EMBEDDED_TARGET } from '../emulator/options.ts';
import { variants } from '../emulator/faults/variants.ts';
import { prepareTarget } from '../harness/run/prepare-target.ts';
import {
  decide,
  defectsOf,
  HELD_ON_EVERY_ANSWER,
  type CheckOutcome,
  type Verdict,
} from '../harness/verdicts/decide.ts';
import { grepForRule } from '../spec/rules.ts';
import { coverage, formatCoverage, listChecks, type Check } from './coverage.ts';
import { sharedTargetsToEnv } from '../harness/fixtures/targets.ts';
import { projectsToEnv } from './projects.ts';
import type { VerifyMessage } from './reporter.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'reports', 'verify');
/** fast-check's seed for every target of a verify run, unless CONFORMANCE_FC_SEED or --seed says another. */
const SEED = 20_251_126;
/** The record of the blind rounds: what each caught when it came, before any check changed. */
const RECORD = join(ROOT, 'verify', 'blind-rounds.json');
/**
 * The rules whose checks caught each fault written blind when it was last
 * swept against the whole suite, per profile. A sweep that is not a round's
 * (`--round`, `--whole-suite`) runs only those checks: it asks whether what
 * caught the fault still does, at the cost of a catalogue fault, not of a
 * whole run. Where one of those rules is held on every answer (decided by
 * checks whose titles do not name it), the file keeps the checks that caught
 * the fault too (`checks`), and those run. A fault it does not list is swept
 * whole, unless it is disputed: then the checks of its own rule run, as for a
 * catalogue fault (it counts for nothing either way; a round's sweep still
 * sweeps it whole).
 */
const CAUGHT_BY = join(ROOT, 'verify', 'blind-caught-by.json');
type Profile = 'writes' | 'read-only';
type ByFault = Record<string, string[]>;
type CaughtByRules = Record<Profile, ByFault> & {
  /** The titles of the checks that caught a fault, where a rule that caught it is held on every answer. */
  checks: Record<Profile, ByFault>;
};

function readCaughtBy(): CaughtByRules {
  const read = existsSync(CAUGHT_BY) ? (JSON.parse(readFileSync(CAUGHT_BY, 'utf8')) as Partial<CaughtByRules>) : {};
  return {
    writes: read.writes ?? {},
    'read-only': read['read-only'] ?? {},
    checks: { writes: read.checks?.writes ?? {}, 'read-only': read.checks?.['read-only'] ?? {} },
  };
}

const isHeld = (id: string) => (HELD_ON_EVERY_ANSWER as readonly string[]).includes(id);
const sorted = (m: ByFault) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Keeps, for each blind fault swept whole in `profile`, the rules that caught it (none: it is dropped), and
 * the checks that caught it where one of those rules is held on every answer.
 */
function recordCaughtBy(profile: Profile, rows: readonly FaultRow[]): void {
  const all = readCaughtBy();
  const map = { ...all[profile] };
  const checks = { ...all.checks[profile] };
  for (const r of rows) {
    if (r.round === undefined || !r.sweptWhole) continue;
    delete map[r.fault];
    delete checks[r.fault];
    if (!r.caughtBy.length) continue;
    map[r.fault] = [...r.failedRules].sort();
    if (r.failedRules.some(isHeld)) checks[r.fault] = [...new Set(r.caughtBy)].sort();
  }
  all[profile] = sorted(map);
  all.checks[profile] = sorted(checks);
  writeFileSync(CAUGHT_BY, `${JSON.stringify(all, null, 2)}\n`);
}

/** One blind round as recorded when its faults came. */
export interface BlindRound {
  round: number;
  faults: number;
  /** Caught by the suite as it stood when the round came, before any check changed. */
  caughtBefore: number;
  missedBefore: string[];
  /** The commit of the suite the round was measured against, and when. */
  suite: string;
  measured: string;
  /** Caught by the suite at its last whole sweep of the round, once its checks changed (a round's "after"). */
  caughtAfter?: number;
  missedAfter?: string[];
  suiteAfter?: string;
  measuredAfter?: string;
}

/** Adds to the record the blind rounds this run swept that it does not hold yet (a round's "before" is written once). */
function recordRounds(rows: readonly FaultRow[]): void {
  const rounds = readRecord();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  for (const round of [...new Set(rows.flatMap((r) => (r.round !== undefined ? [r.round] : [])))].sort()) {
    if (rounds.some((r) => r.round === round)) continue;
    const swept = rows.filter((r) => r.round === round);
    if (swept.length !== faults.filter((f) => 'round' in f && f.round === round).length) continue;
    rounds.push({
      round,
      faults: swept.length,
      caughtBefore: swept.filter((r) => r.caughtBy.length > 0).length,
      missedBefore: swept.filter((r) => !r.caughtBy.length).map((r) => r.fault),
      suite: commit,
      measured: new Date().toISOString().slice(0, 10),
    });
    console.log(`recorded blind round ${round} in ${relative(ROOT, RECORD)}`);
  }
  writeFileSync(RECORD, `${JSON.stringify({ rounds: rounds.sort((a, b) => a.round - b.round) }, null, 2)}\n`);
}

/**
 * Keeps, for each recorded round this run swept whole (every fault of it, against the whole suite), what
 * it caught as its "after"; the "before" is never rewritten. Not for a run that records the round's before.
 */
function recordAfter(rows: readonly FaultRow[]): void {
  const rounds = readRecord();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  let changed = false;
  for (const r of rounds) {
    const swept = rows.filter((x) => x.round === r.round && x.sweptWhole);
    if (swept.length === 0 || swept.length !== faults.filter((f) => 'round' in f && f.round === r.round).length)
      continue;
    r.caughtAfter = swept.filter((x) => x.caughtBy.length > 0).length;
    r.missedAfter = swept.filter((x) => !x.caughtBy.length).map((x) => x.fault);
    r.suiteAfter = commit;
    r.measuredAfter = new Date().toISOString().slice(0, 10);
    changed = true;
    console.log(`recorded what the suite catches of blind round ${r.round} now: ${r.caughtAfter}/${r.faults}`);
  }
  if (changed) writeFileSync(RECORD, `${JSON.stringify({ rounds }, null, 2)}\n`);
}

function readRecord(): BlindRound[] {
  return existsSync(RECORD) ? (JSON.parse(readFileSync(RECORD, 'utf8')) as { rounds: BlindRound[] }).rounds : [];
}

interface RunResult {
  passed: number;
  failed: number;
  skipped: number;
  /** Failed checks: title and the rules whose violations they recorded. */
  failures: Array<{ title: string; rules: string[] }>;
  /** The verdict of every rule, as the report decides it. */
  verdicts: Record<string, Verdict>;
  /** Each check's outcome (passed, failed, skipped, ...), by its title. */
  outcomes: Record<string, string>;
  /** Checks that broke a rule they do not declare. */
  defects: string[];
  /** From the project's first check to its last. */
  wallMs: number;
  /** Its checks' own durations, summed. */
  checksMs: number;
}

/**
 * The settings of the read-only run a tenant owner starts with. Nothing causes events on an emulator no
 * check writes to: the passive checks judge the heartbeats of their wait (four at the embedded 250 ms)
 * and skip, so the wait is a second, not a tenant's 30.
 */
const READ_ONLY_ENV = {
  CONFORMANCE_WRITES: 'none',
  CONFORMANCE_RATE_LIMIT_PROBE: 'off',
  CONFORMANCE_EVENTS_TRIGGER: 'none',
  CONFORMANCE_EVENTS_WAIT_MS: '1000',
};

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** An emulator and what the checks need to run against it (its CONFORMANCE_* variables and tokens). */
interface Target {
  emulator: Emulator;
  env: Record<string, string>;
  /**
   * Why the run could not start against a fault written blind (its preparation refused the target, as the
   * global setup would end a conformance run): no check runs, and the run counts as failed at its setup.
   */
  refused?: string;
}

/** The result of a run that ended in its setup: one failure, named after the setup, deciding no rule. */
const refusedRun = (why: string): RunResult => ({
  passed: 0,
  failed: 1,
  skipped: 0,
  failures: [{ title: `the run could not start: ${why}`, rules: [SETUP] }],
  verdicts: {},
  outcomes: {},
  defects: [],
  wallMs: 0,
  checksMs: 0,
});

/** What a run that ended in its setup failed, in place of a rule. */
const SETUP = '(setup)';

/** Starts an emulator with the given fault or variant (never two faults on one) and prepares it as the global setup would. */
async function startTarget(opts: { fault?: string; variant?: string; readOnly?: boolean }): Promise<Target> {
  // '' rather than undefined: an EMULATOR_FAULT or EMULATOR_VARIANT in the environment must not reach the baseline.
  const emulator = await startEmulator({
    control: true,
    ...AS_EMBEDDED_TARGET,
    // Hundreds of emulators in this process: one signing key pair for them all (each its own kid and audience).
    sharedSigningKey: true,
    fault: opts.fault ?? '',
    variant: opts.variant ?? '',
  });
  try {
    const env = {
      ...emulator.env(),
      ...(opts.readOnly ? READ_ONLY_ENV : {}),
      CONFORMANCE_EMBEDDED: '1',
      // A fault's checks are there to fail: their workers go on after a failure, their properties unshrunk.
      ...(opts.fault ? { CONFORMANCE_VERIFY_SWEEP: '1', CONFORMANCE_FC_SHRINK: 'off' } : {}),
    };
    // The configuration printed once, for the baseline: every other target is the same emulator but its fault or variant.
    const banner = !opts.fault && !opts.variant && !opts.readOnly;
    return { emulator, env: { ...env, ...(await prepareTarget({ ...process.env, ...env }, { banner })) } };
  } catch (e) {
    await emulator.close();
    // Against an independent server a fault written blind that the setup refuses ends the run in error:
    // the run fails, though no rule decided it. A baseline, a guard or a catalogue fault that cannot be prepared is broken.
    const blind = (faults as readonly Fault[]).find((f) => f.name === opts.fault)?.round !== undefined;
    if (blind) return { emulator, env: {}, refused: (e as Error).message };
    throw new Error(
      `${opts.fault ?? opts.variant ?? 'baseline'}: the target could not be prepared: ${(e as Error).message}`,
    );
  }
}

/** Starts targets a few at a time (an emulator's start is mostly its signing key, made on the thread pool). */
async function startTargets<T>(
  items: readonly T[],
  opts: (t: T) => Parameters<typeof startTarget>[0],
): Promise<Target[]> {
  const out: Target[] = [];
  try {
    await pool(items, 4, async (t, i) => (out[i] = await startTarget(opts(t))));
  } catch (e) {
    await Promise.all(out.filter(Boolean).map((t) => t.emulator.close()));
    throw e;
  }
  return out;
}

async function pool<T>(items: readonly T[], jobs: number, fn: (t: T, i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** Where the run's wall time went, phase by phase, in the order they ended (printed and kept in verify.json). */
const phases: Array<{ phase: string; ms: number }> = [];

async function timed<T>(phase: string, fn: () => Promise<T>): Promise<T> {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    phases.push({ phase, ms: Date.now() - t });
  }
}

/** One project of the Playwright run: a target, the checks to run on it, and what to do with its result. */
interface Plan {
  name: string;
  target: Target;
  grep?: string;
  dependencies?: string[];
  /** Called as soon as the project's last check has ended. */
  done: (r: RunResult) => void;
  /** Stop the target's emulator once the project is done (not when another project still uses it). */
  close: boolean;
  /** Checked in shared workers, with other faults' targets (harness/fixtures/targets.ts), not a project of its own. */
  shared?: boolean;
}

/**
 * The most of the projects' variables one Playwright process is handed. Each
 * project is a variable of its own, its target's tokens included (a few KiB),
 * and Linux refuses to start a process whose environment and arguments pass
 * ARG_MAX (2 MiB; E2BIG): past this, the projects go to several processes in
 * turn, each paying Playwright's start once.
 */
const PROJECTS_ENV_BYTES = 1024 * 1024;

/**
 * Runs every plan: those with a project of their own in as few Playwright
 * processes as their variables allow (PROJECTS_ENV_BYTES), one after
 * another, a plan with the plans it depends on; then the shared ones.
 */
async function runProjects(plans: readonly Plan[], workers: number): Promise<Map<string, RunResult>> {
  const size = (p: Plan) =>
    JSON.stringify({ name: p.name, grep: p.grep, dependencies: p.dependencies, targetEnv: p.target.env }).length + 64;
  // Groups: a plan with dependencies joins the group of the first plan it depends on.
  const groups: Plan[][] = [];
  const groupOf = new Map<string, Plan[]>();
  for (const p of plans.filter((x) => !x.shared)) {
    const g = p.dependencies?.map((d) => groupOf.get(d)).find(Boolean) ?? [];
    if (!g.length) groups.push(g);
    g.push(p);
    groupOf.set(p.name, g);
  }
  const batches: Plan[][] = [];
  let bytes = 0;
  for (const g of groups) {
    const b = g.reduce((n, p) => n + size(p), 0);
    if (!batches.length || bytes + b > PROJECTS_ENV_BYTES) {
      batches.push([]);
      bytes = 0;
    }
    batches.at(-1)!.push(...g);
    bytes += b;
  }
  const results = new Map<string, RunResult>();
  for (const batch of batches) for (const [k, v] of await runBatch(batch, workers)) results.set(k, v);
  await runShared(
    plans.filter((x) => x.shared),
    size,
    workers,
    results,
  );
  return results;
}

/**
 * The shared plans, in `workers` Playwright processes side by side, each
 * with one worker: a fault's checks then run as they did in a project of
 * its own, one after another in file order, never two at once against its
 * emulator (what a check reads of a target's event history, once per worker,
 * stays one read). The plans are dealt in turn to SHARED_CHUNKS chunks per
 * process (more where their variables pass PROJECTS_ENV_BYTES), which the
 * processes take as they finish: none waits long on the other's last chunk.
 */
async function runShared(
  plans: readonly Plan[],
  size: (p: Plan) => number,
  workers: number,
  results: Map<string, RunResult>,
): Promise<void> {
  if (!plans.length) return;
  const bytes = plans.reduce((n, p) => n + size(p), 0);
  const count = Math.min(plans.length, Math.max(workers * SHARED_CHUNKS, Math.ceil((2 * bytes) / PROJECTS_ENV_BYTES)));
  const chunks = Array.from({ length: count }, (_, c) => plans.filter((_, i) => i % count === c));
  await pool(chunks, workers, async (chunk) => {
    for (const [k, v] of await runBatch(chunk, 1)) results.set(k, v);
  });
}

/** Chunks of the shared plans per Playwright process: a start of Playwright each, against a balanced end. */
const SHARED_CHUNKS = 2;

/**
 * Runs plans in one Playwright process (verify/playwright.config.ts), on
 * `workers` workers: a project each, or (shared plans, all or none of the
 * batch) their targets checked in the same workers. Each plan's result
 * arrives, and is handed to its `done`, as soon as its last check ends
 * (verify/reporter.ts).
 */
async function runBatch(plans: readonly Plan[], workers: number): Promise<Map<string, RunResult>> {
  const results = new Map<string, RunResult>();
  if (!plans.length) return results;
  const output = mkdtempSync(join(tmpdir(), 'conformance-verify-'));
  const byName = new Map(plans.map((p) => [p.name, p]));
  let end: Extract<VerifyMessage, { type: 'end' }> | undefined;
  try {
    const env = {
      ...process.env,
      ...(plans[0]!.shared
        ? sharedTargetsToEnv(plans.map((p) => ({ name: p.name, grep: p.grep, env: p.target.env })))
        : projectsToEnv(
            plans.map((p) => ({ name: p.name, grep: p.grep, dependencies: p.dependencies, targetEnv: p.target.env })),
          )),
      FORCE_COLOR: '0',
    };
    const cli = fileURLToPath(import.meta.resolve('@playwright/test/cli'));
    const args = [
      cli,
      'test',
      '--config',
      join(ROOT, 'verify', 'playwright.config.ts'),
      `--workers=${workers}`,
      '--output',
      output,
      // Shared targets none of whose checks were selected are reported empty, as an empty project would be.
      ...(plans[0]!.shared ? ['--pass-with-no-tests'] : []),
    ];
    const code = await new Promise<number>((res, rej) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let err = '';
      child.stderr!.on('data', (d) => (err = (err + String(d)).slice(-4000)));
      child.on('message', (m: VerifyMessage) => {
        if (m.type === 'end') {
          end = m;
          return;
        }
        const plan = byName.get(m.name);
        if (!plan || results.has(m.name)) return;
        const r = summarise(m.outcomes, m.wallMs, m.checksMs);
        results.set(m.name, r);
        if (plan.close) void plan.target.emulator.close();
        plan.done(r);
      });
      child.on('error', rej);
      child.on('exit', (c) => {
        if (c !== 0 && c !== 1) rej(new Error(`playwright exited ${c}: ${err}`));
        else res(c ?? 1);
      });
    });
    // A run that errs (no check found, a check file that does not load) and fails no check did not run.
    const missing = plans.filter((p) => !results.has(p.name));
    if (missing.length || (code === 1 && end?.errors.length && [...results.values()].every((r) => r.failed === 0))) {
      throw new Error(
        `the suite did not run${
          missing.length
            ? ` for ${missing
                .map((p) => p.name)
                .join(', ')
                .slice(0, 200)}`
            : ''
        }: ${(end?.errors ?? ['no report']).join('; ').slice(0, 500)}`,
      );
    }
    return results;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/** The run as the report reads it: outcomes from the annotations, never from message text. */
function summarise(outcomes: CheckOutcome[], wallMs: number, checksMs: number): RunResult {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const o of outcomes) counts[o.status === 'skipped' ? 'skipped' : o.status === 'passed' ? 'passed' : 'failed']++;
  const decisions = decide(outcomes);
  const failures = outcomes
    .filter((o) => o.status !== 'passed' && o.status !== 'skipped')
    .map((o) => ({
      title: o.title,
      rules: [...decisions]
        .filter(([, d]) => d.failedBy.some((f) => f.title === o.title && f.violation))
        .map(([id]) => id),
    }));
  return {
    ...counts,
    failures,
    verdicts: Object.fromEntries([...decisions].map(([id, d]) => [id, d.verdict])),
    outcomes: Object.fromEntries(outcomes.map((o) => [o.title, o.status])),
    defects: outcomes.flatMap((o) => defectsOf(o).map((d) => `${o.title}: ${d}`)),
    wallMs,
    checksMs,
  };
}

/**
 * A fault is caught when the run fails its rule on a recorded violation of it.
 * A fault written blind (`round`) runs the whole suite, as against an
 * independent server: it is caught when any rule fails on a recorded violation.
 */
const caughtBy = (r: RunResult, f: Fault) =>
  r.failures.filter((x) => (f.round !== undefined ? x.rules.length > 0 : x.rules.includes(f.rule)));

/** What `playwright --grep` matches of a check, from its title as the reports give it (`describe › title`). */
const grepForTitle = (title: string) =>
  title
    .split(' › ')
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');

/**
 * The checks a fault's project runs: its rule's; for a fault written blind,
 * the whole suite, or (outside a round's sweep) the checks of the rules that
 * caught it when it was last swept whole, with the very checks that caught it
 * where such a rule is held on every answer (those still in the suite; the
 * whole suite if none is, or if the fault says `sweep: 'whole'`). A disputed fault that caught nothing then: its own
 * rule's, where a check names it.
 */
function grepFor(f: Fault, whole: boolean, caught: CaughtByRules, profile: Profile, o: Options) {
  if (f.round === undefined) return grepForRule(f.rule);
  if (whole || ('sweep' in f && f.sweep === 'whole')) return undefined;
  const rules = caught[profile][f.name];
  if (!rules?.length)
    return 'disputed' in f && f.disputed && o.checkedRules.has(f.rule) ? grepForRule(f.rule) : undefined;
  const byRule = rules.filter((id) => !isHeld(id)).map((id) => `(?:${grepForRule(id)})`);
  if (rules.length === byRule.length) return byRule.join('|');
  // Such a rule is decided by checks whose titles do not name it: the checks that caught the fault run, those
  // still in the suite (each caught it alone when it was last swept whole; a check since renamed is not looked
  // for), or the whole suite where none is.
  const checks = (caught.checks[profile][f.name] ?? []).filter((t) => o.titles.has(t));
  if (!checks.length) return undefined;
  return [...byRule, ...checks.map((t) => `(?:${grepForTitle(t)})`)].join('|');
}

interface FaultRow {
  fault: string;
  rule: string;
  how: string;
  /** The blind round it was written in, if any. */
  round?: number;
  /** Why the suite does not hold the reading this fault breaks: reported, never gating. */
  disputed?: string;
  caughtBy: string[];
  /** The rules that failed (a fault written blind may be caught under another rule than the one its writer named). */
  failedRules: string[];
  otherFailures: string[];
  checksRun: number;
  /** Its checks' own durations, summed. */
  checksMs: number;
  /** A blind fault swept against the whole suite (not only the checks that caught it before). */
  sweptWhole?: boolean;
}

const sweepRow = (f: Fault, r: RunResult, grep?: string): FaultRow => ({
  fault: f.name,
  rule: f.rule,
  how: f.how,
  ...(f.round !== undefined ? { round: f.round } : {}),
  ...('disputed' in f && f.disputed ? { disputed: f.disputed } : {}),
  caughtBy: caughtBy(r, f).map((x) => x.title),
  failedRules: Object.entries(r.verdicts)
    .filter(([, v]) => v === 'fail')
    .map(([id]) => id),
  otherFailures: r.failures.filter((x) => !x.rules.includes(f.rule)).map((x) => x.title),
  checksRun: r.passed + r.failed,
  checksMs: r.checksMs,
  ...(f.round !== undefined ? { sweptWhole: grep === undefined } : {}),
});

const progress = (label: string, total: number) => (f: Fault, r: RunResult, i: number) => {
  const hit = caughtBy(r, f).length > 0;
  console.log(
    `${label}[${String(i).padStart(3)}/${total}] ${hit ? 'caught ' : 'MISSED '} ${f.name.padEnd(40)} ${f.rule}${hit ? '' : `  (${r.passed} passed, ${r.failed} failed: ${r.failures.map((x) => x.rules.join('+')).join('; ') || 'no failure'})`}`,
  );
};

const failuresText = (r: RunResult) =>
  [
    ...r.failures.map((f) => `  ✗ ${f.title} [${f.rules.join(', ')}]`),
    ...r.defects.map((d) => `  suite defect: ${d}`),
  ].join('\n');

/** Rules whose verdicts differ between two runs. */
function differences(a: RunResult, b: RunResult): string[] {
  return Object.keys(a.verdicts)
    .filter((id) => a.verdicts[id] !== b.verdicts[id])
    .map((id) => `${id}: ${a.verdicts[id]} then ${b.verdicts[id]}`);
}

/**
 * The checks whose outcome differs between two runs of one target (a check skipped in one and passed in the
 * other): no rule's verdict need change with them, but a check that decides whether to run from something that
 * varies between runs is named, to be made steady.
 */
function checkDifferences(a: RunResult, b: RunResult): string[] {
  return [...new Set([...Object.keys(a.outcomes), ...Object.keys(b.outcomes)])]
    .filter((t) => a.outcomes[t] !== b.outcomes[t])
    .map((t) => `${t}: ${a.outcomes[t] ?? 'not run'} then ${b.outcomes[t] ?? 'not run'}`);
}

/** The seed of a run: SEED unless another is given; `random` draws one (a 32-bit integer, as fast-check's). */
function seedOf(given: string | undefined): number {
  if (given === undefined) return SEED;
  if (given === 'random') return (Math.random() * 2 ** 31) | 0;
  const n = Number(given);
  if (!Number.isInteger(n)) throw new Error(`--seed: an integer or random, not ${given}`);
  return n;
}

/** What this run of verify covers, from its command line. */
interface Options {
  /** Playwright workers. */
  jobs: number;
  /** fast-check's seed, the same for every target (SEED). */
  seed: number;
  /** The faults swept. */
  selected: readonly Fault[];
  selectedVariants: ReadonlyArray<(typeof variants)[number]>;
  /** The second run of the baseline, and every variant unless --variant names some. */
  runGuards: boolean;
  readOnly: boolean;
  /** Record each swept blind round not yet in the record: what the suite catches of it before any check changes. */
  recordBefore: boolean;
  /** Sweep every blind fault against the whole suite (a round's sweep), not only the checks that caught it. */
  wholeSuite: boolean;
  /** The rules that caught each blind fault when last swept whole, per profile (verify/blind-caught-by.json). */
  caughtBy: CaughtByRules;
  /** Every check's title (`describe › title`), once listed: a recorded check no longer in the suite is not run by title. */
  titles: Set<string>;
  /** The suite's checks (listed while the emulators start). */
  checks: Check[];
  /** Every rule some check names, once listed. */
  checkedRules: Set<string>;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', multiple: true },
      round: { type: 'string', multiple: true },
      'record-before': { type: 'boolean', default: false },
      variant: { type: 'string', multiple: true },
      quick: { type: 'boolean', default: false },
      'no-guards': { type: 'boolean', default: false },
      guards: { type: 'boolean', default: false },
      'no-read-only': { type: 'boolean', default: false },
      'whole-suite': { type: 'boolean', default: false },
      jobs: { type: 'string', default: '2' },
      seed: { type: 'string' },
    },
  });
  let selected: readonly Fault[] = faults;
  if (values.fault?.length) {
    const unknown = values.fault.filter((f) => !faults.some((x) => x.name === f));
    if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')}`);
    selected = faults.filter((f) => values.fault!.includes(f.name));
  } else if (values.round?.length) {
    const rounds = values.round.map(Number);
    selected = faults.filter((f) => 'round' in f && rounds.includes(f.round));
    if (!selected.length) throw new Error(`no fault of round(s) ${values.round.join(', ')}`);
  } else if (values.quick) {
    const seen = new Set<string>();
    selected = faults.filter((f) => !seen.has(f.rule) && seen.add(f.rule));
  }
  if (values.guards && values['no-guards']) throw new Error('--guards and --no-guards: choose one');
  const runGuards =
    values.guards || (!values['no-guards'] && !values.quick && !values.fault?.length && !values.round?.length);
  const selectedVariants = values.variant?.length
    ? variants.filter((v) => values.variant!.includes(v.name))
    : runGuards
      ? variants
      : [];
  return {
    jobs: Math.max(1, Number(values.jobs) || 2),
    seed: seedOf(values.seed ?? process.env.CONFORMANCE_FC_SEED),
    selected,
    selectedVariants,
    runGuards,
    readOnly: !values['no-read-only'],
    recordBefore: values['record-before'],
    wholeSuite: values['whole-suite'] || !!values.round?.length,
    caughtBy: readCaughtBy(),
    titles: new Set(),
    checks: [],
    checkedRules: new Set(),
  };
}

/** The targets of the one Playwright run: the baseline's, each variant's, each fault's, the read-only profile's. */
interface Targets {
  base: Target;
  guards: Target[];
  faults: Target[];
  readOnly?: Target;
}

/** Every target first (each fault alone on its own emulator), then one Playwright run for them all. */
async function startAllTargets(o: Options): Promise<Targets> {
  const [base, guards, faultTargets, readOnly] = await Promise.all([
    startTarget({}),
    startTargets(o.selectedVariants, (v) => ({ variant: v.name })),
    startTargets(o.selected, (f) => ({ fault: f.name })),
    o.readOnly ? startTarget({ readOnly: true }) : undefined,
  ]);
  return { base, guards, faults: faultTargets, readOnly };
}

/**
 * 1. The baseline, and (with the guards) a second run against the same emulator once the first is over:
 *    same verdicts, nothing used up.
 * 2. False-positive guards: the whole suite against each variant.
 * 3. The mutation sweep: the checks of each fault's rule.
 * 4. The read-only profile: its baseline here, its faults (those whose rule it decides) in a second run.
 */
function planProjects(o: Options, t: Targets): Plan[] {
  let done = 0;
  return [
    {
      name: 'baseline',
      target: t.base,
      close: false,
      done: (r) => {
        console.log(
          `baseline (fault-free emulator): ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped (${(r.wallMs / 1000).toFixed(1)} s)`,
        );
        if (r.failures.length || r.defects.length) console.log(failuresText(r));
      },
    },
    ...(o.runGuards
      ? [{ name: 'second-run', target: t.base, dependencies: ['baseline'], close: true, done: () => {} }]
      : []),
    ...o.selectedVariants.map((v, i): Plan => ({
      name: `guard:${v.name}`,
      target: t.guards[i]!,
      close: true,
      shared: true,
      done: (r) =>
        console.log(
          `guard ${v.name.padEnd(28)} ${r.failed === 0 && !r.defects.length ? 'pass' : 'FAIL'}: ${r.passed} passed, ${r.failed} failed${r.failures.length || r.defects.length ? `\n${failuresText(r)}` : ''}`,
        ),
    })),
    ...o.selected.flatMap((f, i): Plan[] =>
      t.faults[i]!.refused
        ? []
        : [
            {
              name: `fault:${f.name}`,
              target: t.faults[i]!,
              grep: grepFor(f, o.wholeSuite, o.caughtBy, 'writes', o),
              close: true,
              shared: true,
              done: (r) => progress('', o.selected.length)(f, r, ++done),
            },
          ],
    ),
    ...(t.readOnly ? [{ name: 'read-only', target: t.readOnly, close: true, done: () => {} }] : []),
  ];
}

/** Runs the plans, then stops every one of `targets` whatever happened. */
async function runAndClose(
  plans: readonly Plan[],
  targets: readonly Target[],
  jobs: number,
): Promise<Map<string, RunResult>> {
  try {
    return await runProjects(plans, jobs);
  } finally {
    await Promise.all(targets.map((t) => t.emulator.close()));
  }
}

/** The second run passes when it fails nothing and every rule keeps the baseline's verdict. */
function printSecondRun(baseline: RunResult, second: RunResult): void {
  const diff = differences(baseline, second);
  console.log(
    `guard second-run (same emulator) ${second.failed === 0 && !diff.length ? 'pass' : 'FAIL'}: ${second.passed} passed, ${second.failed} failed${diff.length ? `; verdicts changed: ${diff.join('; ')}` : ''}`,
  );
  if (second.failures.length || second.defects.length) console.log(failuresText(second));
}

interface ReadOnlyResult {
  baseline: RunResult;
  /** The rules its baseline decides (pass or fail). */
  decided: string[];
  rows: FaultRow[];
  score: number;
}

/** 4. The read-only faults, in a second Playwright run: which of them are swept depends on the read-only baseline. */
async function sweepReadOnly(o: Options, roBaseline: RunResult): Promise<ReadOnlyResult> {
  const decided = Object.entries(roBaseline.verdicts)
    .filter(([, v]) => v === 'pass' || v === 'fail')
    .map(([id]) => id);
  console.log(
    `\nread-only baseline (no writes, no probe, passive events): ${roBaseline.passed} passed, ${roBaseline.failed} failed, ${roBaseline.skipped} skipped; ${decided.length} rules decided`,
  );
  if (roBaseline.failures.length || roBaseline.defects.length) console.log(failuresText(roBaseline));
  // Faults whose rule the read-only run decides, but for those that show only through a write, a caused event or a 429.
  const roFaults = o.selected.filter((f) => decided.includes(f.rule) && f.needs === undefined);
  const roTargets = await timed('read-only fault targets started', () =>
    startTargets(roFaults, (f) => ({ fault: f.name, readOnly: true })),
  );
  let roDone = 0;
  const roResults = await timed('read-only faults swept', () =>
    runAndClose(
      roFaults.flatMap((f, i) =>
        roTargets[i]!.refused
          ? []
          : [
              {
                name: `read-only:${f.name}`,
                target: roTargets[i]!,
                grep: grepFor(f, o.wholeSuite, o.caughtBy, 'read-only', o),
                close: true,
                shared: true,
                done: (r: RunResult) => progress('read-only ', roFaults.length)(f, r, ++roDone),
              },
            ],
      ),
      roTargets,
      o.jobs,
    ),
  );
  roFaults.forEach((f, i) => {
    const why = roTargets[i]!.refused;
    if (why) roResults.set(`read-only:${f.name}`, refusedRun(why));
  });
  const roRows = roFaults.map((f) =>
    sweepRow(f, roResults.get(`read-only:${f.name}`)!, grepFor(f, o.wholeSuite, o.caughtBy, 'read-only', o)),
  );
  const roCaught = roRows.filter((r) => r.caughtBy.length > 0).length;
  return {
    baseline: roBaseline,
    decided,
    rows: roRows,
    score: roFaults.length ? (100 * roCaught) / roFaults.length : 100,
  };
}

/** What verify.json holds (and verify.md shows). */
function summaryOf(
  o: Options,
  results: Map<string, RunResult>,
  ro: ReadOnlyResult | undefined,
  cov: ReturnType<typeof coverage>,
  wallMs: number,
) {
  const baseline = results.get('baseline')!;
  const second = results.get('second-run');
  const rows = o.selected.map((f) =>
    sweepRow(f, results.get(`fault:${f.name}`)!, grepFor(f, o.wholeSuite, o.caughtBy, 'writes', o)),
  );
  const caught = rows.filter((r) => r.caughtBy.length > 0).length;
  const pick = (r: RunResult) => ({
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped,
    failures: r.failures,
    defects: r.defects,
  });
  return {
    baseline: pick(baseline),
    secondRun: second
      ? {
          ...pick(second),
          changedVerdicts: differences(baseline, second),
          changedChecks: checkDifferences(baseline, second),
        }
      : undefined,
    guards: o.selectedVariants.map((v) => ({
      variant: v.name,
      differs: v.differs,
      ...pick(results.get(`guard:${v.name}`)!),
    })),
    faults: rows,
    mutationScore: o.selected.length ? (100 * caught) / o.selected.length : 100,
    readOnly: ro
      ? {
          baseline: pick(ro.baseline),
          mustRulesDecided: ro.decided.filter((id) => (cov.rules.find((c) => c.id === id)?.level ?? '') === 'must')
            .length,
          faults: ro.rows,
          mutationScore: ro.score,
        }
      : undefined,
    blindRounds: blindRounds(rows),
    coverage: cov,
    seed: o.seed,
    wallMs,
    phases: [...phases],
  };
}

type VerifySummary = ReturnType<typeof summaryOf>;

/** Each guard run (every variant, and the second run), bad when it failed a check, broke a rule it does not declare or changed a verdict. */
const guardRunsOf = (s: VerifySummary) => [
  ...s.guards.map((g) => ({ name: g.variant, bad: g.failed > 0 || g.defects.length > 0 })),
  ...(s.secondRun
    ? [
        {
          name: 'second-run',
          bad: s.secondRun.failed > 0 || s.secondRun.changedVerdicts.length > 0 || s.secondRun.defects.length > 0,
        },
      ]
    : []),
];

/** Each blind round: as recorded when it came (caught before any check changed), and as caught by this run. */
function blindRounds(rows: readonly FaultRow[]) {
  return readRecord().map((r) => {
    const swept = rows.filter((x) => x.round === r.round);
    return {
      ...r,
      sweptNow: swept.length,
      caughtNow: swept.filter((x) => x.caughtBy.length > 0).length,
      missedNow: swept.filter((x) => !x.caughtBy.length).map((x) => `${x.fault}${x.disputed ? ' (disputed)' : ''}`),
    };
  });
}

function printBlindRounds(s: VerifySummary): void {
  if (!s.blindRounds.length) return;
  console.log(
    `\nfaults written blind (${relative(ROOT, RECORD)}): round, faults, caught before its checks changed, after (its last whole sweep), now`,
  );
  for (const r of s.blindRounds)
    console.log(
      `  round ${r.round}: ${String(r.faults).padStart(3)} faults   before ${r.caughtBefore}/${r.faults} (${r.suite})   after ${r.caughtAfter === undefined ? 'not swept whole yet' : `${r.caughtAfter}/${r.faults} (${r.suiteAfter})`}   now ${r.sweptNow ? `${r.caughtNow}/${r.sweptNow}${r.missedNow.length ? `  (missed: ${r.missedNow.join(', ')})` : ''}` : 'not swept in this run'}`,
    );
}

/**
 * The checks that caught a fault, by their own title: a check of the vocabulary that runs once per operation
 * (harness/vocabulary/) is named once, with the number of operations it caught the fault on.
 */
function leafTitles(caughtBy: readonly string[], separator = '; '): string {
  const counts = new Map<string, number>();
  for (const t of caughtBy) {
    const leaf = t.split(' › ').at(-1)!;
    counts.set(leaf, (counts.get(leaf) ?? 0) + 1);
  }
  return [...counts].map(([leaf, n]) => (n > 1 ? `${leaf} (×${n})` : leaf)).join(separator);
}

function printSummary(s: VerifySummary): void {
  console.log(`\n${'fault'.padEnd(40)} ${'rule'.padEnd(46)} caught by`);
  for (const r of s.faults)
    console.log(
      `${r.fault.padEnd(40)} ${r.rule.padEnd(46)} ${r.caughtBy.length ? leafTitles(r.caughtBy) : `— MISSED${r.disputed ? ` (disputed: ${r.disputed})` : ''}`}`,
    );
  console.log(`\n${formatCoverage(s.coverage)}`);
  printBlindRounds(s);
  const caught = s.faults.filter((r) => r.caughtBy.length > 0).length;
  console.log(`\nmutation score: ${caught}/${s.faults.length} faults caught (${s.mutationScore.toFixed(1)}%)`);
  if (s.readOnly) {
    const roCaught = s.readOnly.faults.filter((r) => r.caughtBy.length).length;
    console.log(
      `read-only profile: ${s.readOnly.mustRulesDecided} must rules decided; ${roCaught}/${s.readOnly.faults.length} of the faults observable without writes caught (${s.readOnly.mutationScore.toFixed(1)}%)`,
    );
  }
  const guardRuns = guardRunsOf(s);
  console.log(`false-positive guards: ${guardRuns.filter((g) => !g.bad).length}/${guardRuns.length} pass`);
  if (s.secondRun?.changedChecks.length)
    console.log(
      `checks whose outcome changed between the baseline and the second run (no rule's verdict with them): ${s.secondRun.changedChecks.join('; ')}`,
    );
  printPhases(s);
  console.log(`wall time: ${(s.wallMs / 1000).toFixed(1)} s   report: reports/verify/verify.md`);
}

/**
 * Outside a round's sweep, a blind fault with no record of the rules that caught it runs the whole suite:
 * said once, with what it cost, because the record this run wrote ends that only once it is committed.
 */
function noteUnrecorded(s: VerifySummary): void {
  for (const [label, rows] of [
    ['with writes', s.faults],
    ['read-only', s.readOnly?.faults ?? []],
  ] as const) {
    // A fault caught at set-up fails no rule (its record is empty) and its run ends before any check.
    const whole = rows.filter((r) => r.sweptWhole && r.caughtBy.length && r.failedRules.length);
    if (whole.length)
      console.log(
        `${whole.length} blind fault(s) ${label} had no record of the rules that catch them and ran the whole suite (${seconds(whole.reduce((n, r) => n + r.checksMs, 0))} of checks): recorded now in ${relative(ROOT, CAUGHT_BY)}; commit it and later runs sweep only those rules`,
      );
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Where the wall time went: each phase, and the faults' checks summed over the workers that ran them
 * (what is left of a phase beyond them is fixed cost: Playwright's and its workers' start, the checks'
 * loading, the targets' fixtures), with the slowest fault targets.
 */
function printPhases(s: VerifySummary): void {
  const rest = s.wallMs - s.phases.reduce((n, p) => n + p.ms, 0);
  console.log(
    `\nwhere the time went: ${[...s.phases.map((p) => `${p.phase} ${seconds(p.ms)}`), `the rest (reports, records) ${seconds(rest)}`].join('; ')}`,
  );
  const sweeps = [
    { label: 'with writes', rows: s.faults },
    { label: 'read-only', rows: s.readOnly?.faults ?? [] },
  ].filter((x) => x.rows.length);
  for (const { label, rows } of sweeps) {
    const whole = rows.filter((r) => r.sweptWhole);
    const slowest = [...rows].sort((a, b) => b.checksMs - a.checksMs).slice(0, 5);
    console.log(
      `  faults ${label}: their checks ${seconds(rows.reduce((n, r) => n + r.checksMs, 0))} summed over the workers (${rows.length} targets, ${rows.reduce((n, r) => n + r.checksRun, 0)} checks; ${whole.length} blind against the whole suite, ${seconds(whole.reduce((n, r) => n + r.checksMs, 0))}); slowest: ${slowest.map((r) => `${r.fault} ${seconds(r.checksMs)} (${r.checksRun} checks)`).join(', ')}`,
    );
  }
}

/** The counts line CI reads (counts.json): each baseline, guard and fault is one verdict; so is coverage. Answers how many failed. */
function writeCounts(s: VerifySummary): number {
  const unjustified = s.coverage.gaps.filter((g) => !g.justified);
  if (unjustified.length) console.log(`unjustified coverage gaps: ${unjustified.length}`);
  const guardRuns = guardRunsOf(s);
  const guardFailures = guardRuns.filter((g) => g.bad);
  const baselines = [s.baseline, ...(s.readOnly ? [s.readOnly.baseline] : [])];
  const badBaselines = baselines.filter((b) => b.failed > 0 || b.defects.length > 0).length;
  // A disputed fault is reported, never gating: the reading it breaks is a question for the document's owner.
  const sweeps = [...s.faults, ...(s.readOnly?.faults ?? [])].filter((r) => !r.disputed);
  const sweepCaught = sweeps.filter((r) => r.caughtBy.length > 0).length;
  const passed =
    baselines.length -
    badBaselines +
    (guardRuns.length - guardFailures.length) +
    sweepCaught +
    (unjustified.length ? 0 : 1);
  const failed = badBaselines + guardFailures.length + (sweeps.length - sweepCaught) + (unjustified.length ? 1 : 0);
  // Each failure named, for the end of a CI log (.ci/counts.mjs).
  const failures = [
    ...(s.baseline.failed || s.baseline.defects.length ? ['the baseline failed'] : []),
    ...(s.readOnly && (s.readOnly.baseline.failed || s.readOnly.baseline.defects.length)
      ? ['the read-only baseline failed']
      : []),
    ...guardFailures.map((g) => `false-positive guard ${g.name} failed`),
    ...[
      ...s.faults.map((r) => ({ r, profile: '' })),
      ...(s.readOnly?.faults ?? []).map((r) => ({ r, profile: ' read-only' })),
    ]
      .filter(({ r }) => !r.disputed && !r.caughtBy.length)
      .map(
        ({ r, profile }) =>
          `fault ${r.fault} (${r.rule}${r.round !== undefined ? `, blind round ${r.round}` : ''}) missed${profile}`,
      ),
    ...(unjustified.length ? [`unjustified coverage gaps: ${unjustified.map((g) => g.id).join(', ')}`] : []),
  ];
  writeFileSync(join(OUT, 'counts.json'), JSON.stringify({ passed, failed, failures }));
  return failed;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const o = parseOptions();
  mkdirSync(OUT, { recursive: true });
  // Every target's checks inherit it (the Playwright run's environment is this process's).
  process.env.CONFORMANCE_FC_SEED = String(o.seed);
  console.log(
    `verify: baseline${o.runGuards ? ' and its second run' : ''}, ${o.selectedVariants.length} false-positive guards${o.selectedVariants.length ? '' : ' (--guards runs them)'}, ${o.selected.length} faults${o.readOnly ? ', the read-only profile' : ''} (${o.jobs} workers; fast-check seed ${o.seed}${o.seed === SEED ? ', the fixed one: --seed random draws one' : ''})\n`,
  );

  // The suite's checks, listed while the emulators start: the titles grepFor runs by, and rule coverage.
  const [targets, checks] = await timed('targets started, checks listed', () =>
    Promise.all([startAllTargets(o), listChecks(ROOT)]),
  );
  o.checks = checks;
  for (const c of checks) {
    o.titles.add(c.title);
    for (const id of c.rules) o.checkedRules.add(id);
  }
  const all = [targets.base, ...targets.guards, ...targets.faults, ...(targets.readOnly ? [targets.readOnly] : [])];
  const plans = planProjects(o, targets);
  const results = await timed('baselines, second run, guards and faults', () => runAndClose(plans, all, o.jobs));
  o.selected.forEach((f, i) => {
    const why = targets.faults[i]!.refused;
    if (!why) return;
    console.log(`caught   ${f.name.padEnd(40)} ${f.rule}  (the run could not start: ${why})`);
    results.set(`fault:${f.name}`, refusedRun(why));
  });
  const second = results.get('second-run');
  if (second) printSecondRun(results.get('baseline')!, second);
  const ro = o.readOnly ? await sweepReadOnly(o, results.get('read-only')!) : undefined;

  const cov = coverage(checks, faults);
  const summary = summaryOf(o, results, ro, cov, Date.now() - t0);
  if (o.recordBefore) recordRounds(summary.faults);
  else recordAfter(summary.faults);
  recordCaughtBy('writes', summary.faults);
  if (summary.readOnly) recordCaughtBy('read-only', summary.readOnly.faults);
  if (!o.wholeSuite) noteUnrecorded(summary);
  writeFileSync(join(OUT, 'verify.json'), JSON.stringify(summary, null, 2));
  writeFileSync(join(OUT, 'verify.md'), markdown(summary));
  printSummary(summary);
  process.exitCode = writeCounts(summary) === 0 ? 0 : 1;
}

type Summary = {
  baseline: { passed: number; failed: number; defects: string[] };
  secondRun?: { passed: number; failed: number; changedVerdicts: string[]; changedChecks: string[] };
  guards: Array<{ variant: string; differs: string; passed: number; failed: number }>;
  faults: FaultRow[];
  mutationScore: number;
  readOnly?: {
    baseline: { passed: number; failed: number };
    mustRulesDecided: number;
    faults: FaultRow[];
    mutationScore: number;
  };
  blindRounds: ReturnType<typeof blindRounds>;
  coverage: ReturnType<typeof coverage>;
  seed: number;
  wallMs: number;
};

const faultTable = (rows: FaultRow[]) => [
  '| fault | rule | how | caught by |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.fault} | ${r.rule} | ${r.how} | ${r.caughtBy.length ? leafTitles(r.caughtBy, '<br>') : '**missed**'} |`,
  ),
];

function markdown(s: Summary): string {
  const caught = (rows: FaultRow[]) => rows.filter((r) => r.caughtBy.length).length;
  const lines = [
    '# Verify: the suite against its own emulator',
    '',
    `Baseline (fault-free): ${s.baseline.passed} passed, ${s.baseline.failed} failed${s.baseline.defects.length ? `, ${s.baseline.defects.length} suite defects` : ''}.`,
    s.secondRun
      ? `Second run against the same emulator: ${s.secondRun.passed} passed, ${s.secondRun.failed} failed; ${s.secondRun.changedVerdicts.length ? `verdicts changed: ${s.secondRun.changedVerdicts.join('; ')}` : 'every rule kept its verdict'}${s.secondRun.changedChecks.length ? `; checks whose outcome changed: ${s.secondRun.changedChecks.join('; ')}` : ''}.`
      : '',
    `Mutation score: **${s.mutationScore.toFixed(1)}%** (${caught(s.faults)}/${s.faults.length} faults caught).`,
    s.readOnly
      ? `Read-only profile (no writes, no probe, passive events): baseline ${s.readOnly.baseline.passed} passed, ${s.readOnly.baseline.failed} failed; ${s.readOnly.mustRulesDecided} must rules decided; score **${s.readOnly.mutationScore.toFixed(1)}%** (${caught(s.readOnly.faults)}/${s.readOnly.faults.length} faults observable without writes caught).`
      : '',
    `Wall time: ${(s.wallMs / 1000).toFixed(1)} s. The property checks' fast-check seed: ${s.seed} (\`npm run verify -- --seed ${s.seed}\` draws the same cases).`,
    '',
    '## False-positive guards',
    '',
    '| variant | differs where the document is silent | result |',
    '|---|---|---|',
    ...s.guards.map((g) => `| ${g.variant} | ${g.differs} | ${g.failed === 0 ? 'pass' : `**${g.failed} failed**`} |`),
    '',
    '## Faults',
    '',
    ...faultTable(s.faults),
    '',
    ...(s.readOnly ? ['## Faults under the read-only profile', '', ...faultTable(s.readOnly.faults), ''] : []),
    ...(s.blindRounds.length
      ? [
          '## Faults written blind',
          '',
          'Written by someone who read the document, the standards and the emulator, never the checks; each swept against the whole suite. "Before": as the suite stood when the round came, before any check changed (verify/blind-rounds.json).',
          '',
          '| round | faults | caught before (suite) | caught after (suite) | caught now | missed now |',
          '|---|---|---|---|---|---|',
          ...s.blindRounds.map(
            (r) =>
              `| ${r.round} | ${r.faults} | ${r.caughtBefore} (${r.suite}) | ${r.caughtAfter === undefined ? '—' : `${r.caughtAfter} (${r.suiteAfter})`} | ${r.sweptNow ? r.caughtNow : 'not swept'} | ${r.missedNow.join(', ') || '—'} |`,
          ),
          '',
        ]
      : []),
    '## Rule coverage',
    '',
    '| rule | level | checks | faults |',
    '|---|---|---|---|',
    ...s.coverage.rules.map(
      (c) =>
        `| ${c.id} | ${c.level} | ${c.checks} | ${c.faults.join(', ') || (c.level === 'must' ? `**none**${c.gap ? `: ${c.gap}` : ''}` : '—')} |`,
    ),
    '',
  ];
  return lines.filter((l, i) => l !== '' || lines[i - 1] !== '').join('\n');
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  main().catch((e) => {
    console.error(`verify: ${(e as Error).stack ?? e}`);
    process.exit(2);
  });
}
