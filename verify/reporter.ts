/**
 * The reporter of verify's Playwright run (verify/playwright.config.ts). As
 * soon as every check of a project has ended, it sends that project's
 * outcomes to verify/run.ts over the IPC channel, which decides its verdicts
 * (harness/verdicts/decide.ts), prints its progress line and stops its emulator.
 * Outcomes are read as the JSON report has them: a check that never ran
 * (its dependency failed, the run was stopped) is skipped.
 */
import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckOutcome } from '../harness/verdicts/decide.ts';

export type VerifyMessage =
  | { type: 'project'; name: string; outcomes: CheckOutcome[]; wallMs: number }
  | { type: 'end'; status: FullResult['status']; errors: string[] };

interface Pending {
  left: Set<TestCase>;
  sent?: boolean;
  outcomes: CheckOutcome[];
  start?: number;
  end?: number;
}

// As the JSON report's suites read it: without the project and the file.
const titleOf = (t: TestCase) => t.titlePath().slice(3).filter(Boolean).join(' › ');

export default class VerifyReporter implements Reporter {
  private projects = new Map<string, Pending>();
  private errors: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_: unknown, suite: Suite): void {
    for (const p of suite.suites) this.projects.set(p.title, { left: new Set(p.allTests()), outcomes: [] });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = test.parent.project()?.name ?? '';
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
    } satisfies VerifyMessage);
  }
}
