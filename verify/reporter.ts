/**
 * The reporter of verify's Playwright run (verify/playwright.config.ts). As
 * soon as every check of a project has ended, it sends that project's
 * outcomes to verify/run.ts over the IPC channel, which decides its verdicts
 * (harness/verdicts/decide.ts), prints its progress line and stops its emulator.
 * In a run of shared targets (harness/fixtures/targets.ts) each target counts
 * as a project: its copies of the checks, under the checks' own titles.
 * Outcomes are read as the JSON report has them: a check that never ran
 * (its dependency failed, the run was stopped) is skipped.
 */
import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckOutcome } from '../harness/verdicts/decide.ts';
import { checkTitle, sharedTargetsFromEnv, TARGET_ANNOTATION } from '../harness/fixtures/targets.ts';

export type VerifyMessage =
  | { type: 'project'; name: string; outcomes: CheckOutcome[]; wallMs: number; checksMs: number }
  | { type: 'end'; status: FullResult['status']; errors: string[] };

interface Pending {
  left: Set<TestCase>;
  sent?: boolean;
  outcomes: CheckOutcome[];
  start?: number;
  end?: number;
  /** The checks' own durations, summed (in shared workers a target's checks interleave with other targets'). */
  checksMs: number;
}

/** The target a check ran against: a shared target's name, or its project's. */
const targetOf = (t: TestCase) =>
  t.annotations.find((a) => a.type === TARGET_ANNOTATION)?.description ?? t.parent.project()?.name ?? '';

// As the JSON report's suites read it: without the project and the file (nor a shared target's name).
const titleOf = (t: TestCase) =>
  [...t.parent.titlePath().slice(3), checkTitle(t.title, targetOf(t))].filter(Boolean).join(' › ');

export default class VerifyReporter implements Reporter {
  private projects = new Map<string, Pending>();
  private errors: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_: unknown, suite: Suite): void {
    // A project, or a shared target, that selects no check is reported too, with no outcome.
    const shared = sharedTargetsFromEnv(process.env);
    for (const name of shared.length ? shared.map((t) => t.name) : suite.suites.map((p) => p.title))
      this.projects.set(name, { left: new Set(), outcomes: [], checksMs: 0 });
    for (const t of suite.allTests()) {
      const name = targetOf(t);
      if (!this.projects.has(name)) this.projects.set(name, { left: new Set(), outcomes: [], checksMs: 0 });
      this.projects.get(name)!.left.add(t);
    }
    for (const [name, p] of this.projects) if (p.left.size === 0) this.send(name, p);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = targetOf(test);
    const p = this.projects.get(name);
    if (!p || !p.left.delete(test)) return;
    // The status itself, not the outcome: a fault's sweep marks a failing check's failure expected (harness/fixtures/fixtures.ts).
    const status = test.outcome() === 'skipped' ? 'skipped' : result.status;
    const error = result.errors
      .map((e) => e.message ?? '')
      .join('\n')
      .split('\n')
      .slice(0, 12)
      .join('\n');
    p.outcomes.push({ title: titleOf(test), status, annotations: [...test.annotations, ...result.annotations], error });
    const start = result.startTime.getTime();
    p.start = Math.min(p.start ?? start, start);
    p.end = Math.max(p.end ?? 0, start + result.duration);
    p.checksMs += result.duration;
    if (p.left.size === 0) this.send(name, p);
  }

  onError(error: TestError): void {
    this.errors.push(error.message ?? error.value ?? 'error');
  }

  async onEnd(result: FullResult): Promise<void> {
    for (const [name, p] of this.projects) {
      if (p.sent) continue;
      for (const t of p.left)
        p.outcomes.push({ title: titleOf(t), status: 'skipped', annotations: t.annotations, error: '' });
      p.left.clear();
      this.send(name, p);
    }
    await new Promise<void>((resolve) =>
      process.send
        ? process.send({ type: 'end', status: result.status, errors: this.errors } satisfies VerifyMessage, () =>
            resolve(),
          )
        : resolve(),
    );
  }

  private send(name: string, p: Pending): void {
    p.sent = true;
    process.send?.({
      type: 'project',
      name,
      outcomes: p.outcomes,
      wallMs: (p.end ?? 0) - (p.start ?? 0),
      checksMs: p.checksMs,
    } satisfies VerifyMessage);
  }
}
