/**
 * What changed since an earlier run: the run-to-run difference a nightly
 * gate reads first.
 *
 * The baseline is a previous run's `conformance.json`: the one given with
 * `--baseline FILE` (CONFORMANCE_BASELINE), else the last run of the same
 * target kept in the state directory (CONFORMANCE_STATE_DIR, by default the
 * reports folder) as `last-run.json`. The state directory also keeps the
 * verdicts of the last runs of each target (`run-history.json`), from which
 * flapping rules are told: a verdict that went from pass to fail and back
 * (or the other way) over those runs.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from './decide.ts';

/** How many runs of each target the history keeps. */
export const HISTORY_RUNS = 10;

/** What a difference needs of a report (conformance.json). */
export interface ReportLike {
  target: string;
  embedded: boolean;
  startedAt: string;
  rules: Array<{ id: string; verdict: Verdict; evidence: string[] }>;
}

/** One run in the history: its target and the verdict of every rule. */
export interface RunRecord {
  target: string;
  startedAt: string;
  verdicts: Record<string, Verdict>;
}

export interface Difference {
  /** The run compared with; absent when there was none (then `none` says why). */
  baseline?: { file: string; from: 'given' | 'last run'; target: string; startedAt: string; sameTarget: boolean };
  none?: string;
  /** Rules failing now that were not failing in the baseline. */
  newlyFailing: string[];
  /** Rules passing now that were failing or skipped in the baseline (not those it did not run: a selection). */
  newlyPassing: string[];
  /** Rules decided (pass or fail) in the baseline that this run did not decide. */
  newlyUndecided: Array<{ rule: string; was: Verdict; now: Verdict }>;
  /** Rules failing in both runs: known failures. */
  stillFailing: string[];
  /** Known failures whose evidence changed (another check, another expectation). */
  evidenceChanged: string[];
  /** Rules whose verdict went between pass and fail more than once over the kept runs of this target. */
  flapping: Array<{ rule: string; verdicts: Verdict[] }>;
  /** Runs of this target the flapping was judged on, this one included. */
  runsCompared: number;
}

/** The key a target's runs are kept under: the embedded emulator listens on a new port every run. */
export const targetKey = (r: Pick<ReportLike, 'target' | 'embedded'>) => (r.embedded ? 'embedded emulator' : r.target);

export const recordOf = (r: ReportLike): RunRecord => ({
  target: targetKey(r),
  startedAt: r.startedAt,
  verdicts: Object.fromEntries(r.rules.map((x) => [x.id, x.verdict])),
});

/**
 * What a failure's evidence says, without what changes from run to run
 * anyway (generated values, ids, times): the checks that failed it and
 * what they expected, digits blanked.
 */
function evidenceKey(evidence: readonly string[]): string {
  const lines = evidence.flatMap((e) =>
    e
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('Check:') || l.startsWith('Expected:'))
      .map((l) => l.replace(/[0-9]+/g, '#')),
  );
  return [...new Set(lines)].sort().join('\n');
}

const decided = (v: Verdict | undefined) => v === 'pass' || v === 'fail';

/** The difference between this run and a baseline, with flapping judged on the kept runs (oldest first, this one last). */
export function difference(
  current: ReportLike,
  baseline: { report: ReportLike; file: string; from: 'given' | 'last run' } | undefined,
  history: readonly RunRecord[],
  none = 'no earlier run to compare with',
): Difference {
  const flapping: Difference['flapping'] = [];
  for (const rule of current.rules) {
    const verdicts = history.map((h) => h.verdicts[rule.id]).filter((v): v is Verdict => v !== undefined);
    const seq = verdicts.filter(decided);
    let turns = 0;
    for (let i = 1; i < seq.length; i++) if (seq[i] !== seq[i - 1]) turns++;
    if (turns >= 2) flapping.push({ rule: rule.id, verdicts });
  }
  const out: Difference = {
    newlyFailing: [],
    newlyPassing: [],
    newlyUndecided: [],
    stillFailing: [],
    evidenceChanged: [],
    flapping,
    runsCompared: history.length,
  };
  if (!baseline) {
    // No baseline: every failure is new.
    out.none = none;
    out.newlyFailing = current.rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
    return out;
  }
  const before = new Map(baseline.report.rules.map((r) => [r.id, r]));
  out.baseline = {
    file: baseline.file,
    from: baseline.from,
    target: baseline.report.target,
    startedAt: baseline.report.startedAt,
    sameTarget: targetKey(baseline.report) === targetKey(current),
  };
  for (const now of current.rules) {
    const was = before.get(now.id);
    if (now.verdict === 'fail') {
      if (was?.verdict !== 'fail') out.newlyFailing.push(now.id);
      else {
        out.stillFailing.push(now.id);
        if (evidenceKey(was.evidence) !== evidenceKey(now.evidence)) out.evidenceChanged.push(now.id);
      }
    } else if (now.verdict === 'pass' && (was?.verdict === 'fail' || was?.verdict === 'skipped'))
      out.newlyPassing.push(now.id);
    else if (!decided(now.verdict) && decided(was?.verdict)) {
      out.newlyUndecided.push({ rule: now.id, was: was!.verdict, now: now.verdict });
    }
  }
  return out;
}

/** A previous run's conformance.json, or why it cannot be read. */
export function readReport(file: string): ReportLike | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return `${file} cannot be read as JSON (${(e as Error).message.split('\n')[0]})`;
  }
  const r = parsed as Partial<ReportLike> | null;
  if (!r || typeof r.target !== 'string' || typeof r.startedAt !== 'string' || !Array.isArray(r.rules))
    return `${file} is not a conformance.json (no target, startedAt and rules)`;
  return { target: r.target, embedded: r.embedded === true, startedAt: r.startedAt, rules: r.rules };
}

const LAST_RUN = 'last-run.json';
const HISTORY = 'run-history.json';

function readHistory(stateDir: string): RunRecord[] {
  try {
    const h = JSON.parse(readFileSync(join(stateDir, HISTORY), 'utf8')) as unknown;
    return Array.isArray(h) ? (h as RunRecord[]) : [];
  } catch {
    return [];
  }
}

/** Writes a file whole or not at all (a run stopped half-way must not leave a torn baseline). */
function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/**
 * The difference of this run: with the given baseline, else with the last
 * run of the same target in the state directory.
 */
export function compareWithBaseline(current: ReportLike, stateDir: string, given: string | undefined): Difference {
  const history = [...readHistory(stateDir).filter((h) => h.target === targetKey(current)), recordOf(current)].slice(
    -HISTORY_RUNS,
  );
  if (given !== undefined) {
    const report = readReport(given);
    if (typeof report === 'string') return difference(current, undefined, history, report);
    return difference(current, { report, file: given, from: 'given' }, history);
  }
  const last = join(stateDir, LAST_RUN);
  if (!existsSync(last)) return difference(current, undefined, history, `no earlier run kept in ${stateDir}`);
  const report = readReport(last);
  if (typeof report === 'string') return difference(current, undefined, history, report);
  if (targetKey(report) !== targetKey(current))
    return difference(
      current,
      undefined,
      history,
      `the last run kept in ${stateDir} was of another target (${report.target})`,
    );
  return difference(current, { report, file: last, from: 'last run' }, history);
}

/** Keeps this run as the next run's baseline, and its verdicts in the history. */
export function keepRun(current: ReportLike & Record<string, unknown>, stateDir: string): void {
  mkdirSync(stateDir, { recursive: true });
  writeWhole(join(stateDir, LAST_RUN), JSON.stringify(current, null, 2));
  const key = targetKey(current);
  const all = readHistory(stateDir);
  const mine = [...all.filter((h) => h.target === key), recordOf(current)].slice(-HISTORY_RUNS);
  writeWhole(join(stateDir, HISTORY), JSON.stringify([...all.filter((h) => h.target !== key), ...mine], null, 1));
}

/** The difference as the reports show it (markdown); `rows` links a rule to its row. */
export function differenceMarkdown(d: Difference, requirement: (id: string) => string): string[] {
  const lines: string[] = ['## Since the baseline', ''];
  if (!d.baseline) {
    lines.push(`No baseline: ${d.none}. Every failure counts as new; give one with \`--baseline FILE\`.`, '');
  } else {
    lines.push(
      `Compared with ${d.baseline.from === 'given' ? 'the given baseline' : 'the last run'}: ${d.baseline.file} (${d.baseline.startedAt}${d.baseline.sameTarget ? '' : `, another target: ${d.baseline.target}`}).`,
      '',
    );
  }
  const list = (title: string, ids: readonly string[]) => {
    if (!ids.length) return;
    lines.push(`**${title}** (${ids.length}):`, '', ...ids.map((id) => `- ${id}: ${requirement(id)}`), '');
  };
  list('Newly failing', d.newlyFailing);
  if (d.baseline) {
    list('Newly passing', d.newlyPassing);
    if (d.newlyUndecided.length)
      lines.push(
        `**No longer decided** (${d.newlyUndecided.length}):`,
        '',
        ...d.newlyUndecided.map((u) => `- ${u.rule}: ${u.was} before, ${u.now} now`),
        '',
      );
    list('Still failing (known, not new)', d.stillFailing);
    list('Known failures whose evidence changed', d.evidenceChanged);
    if (
      !d.newlyFailing.length &&
      !d.newlyPassing.length &&
      !d.newlyUndecided.length &&
      !d.stillFailing.length &&
      !d.evidenceChanged.length
    )
      lines.push('No verdict changed.', '');
  }
  if (d.flapping.length)
    lines.push(
      `**Flapping** over the last ${d.runsCompared} runs of this target (oldest first):`,
      '',
      ...d.flapping.map((f) => `- ${f.rule}: ${f.verdicts.join(' → ')}`),
      '',
    );
  return lines;
}

/** One line for the console and the CI summary. */
export function differenceLine(d: Difference): string {
  if (!d.baseline) return `Since the baseline: none (${d.none}); ${d.newlyFailing.length} failing rules count as new.`;
  return `Since the baseline (${d.baseline.startedAt}): ${d.newlyFailing.length} newly failing${d.newlyFailing.length ? ` (${d.newlyFailing.join(', ')})` : ''}, ${d.newlyPassing.length} newly passing, ${d.newlyUndecided.length} no longer decided, ${d.stillFailing.length} still failing, ${d.flapping.length} flapping.`;
}
