/**
 * The conformance reporter: turns test results into verdicts per rule.
 *
 * Writes reports/conformance.json and reports/conformance.md, and the same
 * matrix as reports/html/conformance.html, linked from the top of
 * Playwright's html report beside the interface document painted with the
 * verdicts (reports/html/document.html, harness/verdicts/painted.ts). One row per rule: id, requirement, level,
 * verdict (pass / fail / observed / skipped with its reason / not run), the
 * checks that cover it, and the evidence of a failure (the rule violation as
 * the check printed it: expected, actual, request, curl line).
 *
 * Verdicts come from the checks' annotations, never from message text
 * (harness/verdicts/decide.ts `decide()`, which `npm run verify` uses too): a rule
 * passes only where a check evaluated it, and the report names those checks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { operations } from '../../spec/operations.ts';
import { rules, type Rule } from '../../spec/rules.ts';
import { reportSettings } from '../run/config.ts';
import { paintDocument } from './painted.ts';
import { compareWithBaseline, differenceLine, differenceMarkdown, keepRun, type Difference } from './baseline.ts';
import { buildProfile } from '../run/profile.ts';
import {
  ANNOTATION,
  decide,
  defectsOf,
  formatViolationRecord,
  skipReasons,
  type Annotation,
  type CheckOutcome,
  type Verdict,
} from './decide.ts';

export type { Verdict };

export interface RuleRow {
  id: string;
  level: Rule['level'];
  section: string;
  requirement: string;
  operations: readonly string[];
  verdict: Verdict;
  checks: Array<{ title: string; status: string }>;
  /** The checks that evaluated the rule and passed it. */
  decidedBy: string[];
  evidence: string[];
  skipReasons: string[];
  observations: string[];
}

export interface ConformanceReport {
  target: string;
  embedded: boolean;
  startedAt: string;
  durationMs: number;
  status: FullResult['status'];
  headline: Record<Verdict, number>;
  /** Must rules decided (pass or fail) by this run, of all must rules. */
  mustDecided: { decided: number; of: number };
  /** Fixtures the target had used up (e.g. by an earlier run): the checks needing them skipped. */
  usedUpFixtures: string[];
  /** Checks that broke a rule they do not declare: defects of the suite, not of the target. */
  suiteDefects: Array<{ check: string; defect: string }>;
  operations: Record<string, Record<Verdict, number>>;
  rules: RuleRow[];
  observations: Array<{ rule: string; aspect: string; value: string; check: string; data?: unknown }>;
  requests: { total: number; byOperation: Record<string, number> };
  /** Errors outside any check, e.g. a target that could not be reached. */
  errors: string[];
  /** What changed since the baseline (harness/verdicts/baseline.ts); absent when the run did not start. */
  difference?: Difference;
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

interface Options {
  outputFolder?: string;
  htmlFolder?: string;
}

export default class ConformanceReporter implements Reporter {
  private readonly out: string;
  private readonly html: string;
  private readonly results = new Map<TestCase, TestResult>();
  private started = new Date();
  /** Errors outside any test (a broken target in the global setup). */
  private readonly errors: string[] = [];

  constructor(opts: Options = {}) {
    this.out = opts.outputFolder ?? 'reports';
    this.html = opts.htmlFolder ?? join(this.out, 'html');
  }

  onBegin(_config: FullConfig, _suite: Suite): void {
    this.started = new Date();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.results.set(test, result);
  }

  onError(error: { message?: string; value?: string }): void {
    this.errors.push(stripAnsi(error.message ?? error.value ?? 'error'));
  }

  async onEnd(result: FullResult): Promise<void> {
    const report = this.build(result);
    const settings = reportSettings();
    const started = !(this.errors.length && this.results.size === 0);
    // Read before this run's reports are written: the baseline may be the conformance.json they replace.
    if (started) report.difference = compareWithBaseline(report, settings.stateDir, settings.baseline);
    mkdirSync(this.out, { recursive: true });
    writeFileSync(join(this.out, 'conformance.json'), JSON.stringify(report, null, 2));
    const md = toMarkdown(report);
    writeFileSync(join(this.out, 'conformance.md'), md);
    this.writeHtml(report);
    if (started) keepRun(report as ConformanceReport & Record<string, unknown>, settings.stateDir);
    const record = settings.recordProfile;
    if (record && !(this.errors.length && this.results.size === 0)) {
      writeFileSync(record, `${JSON.stringify(buildProfile(report.target, report.observations), null, 2)}\n`);
      console.log(
        `Profile recorded: ${record} (${Object.keys(buildProfile(report.target, report.observations).observations).length} observed aspects)`,
      );
    }
    const h = report.headline;
    if (this.errors.length && this.results.size === 0) {
      console.log(`\nThe run did not start: ${this.errors[0]!.split('\n')[0]}`);
      return;
    }
    console.log(
      `\nConformance: ${h.pass} rules passed, ${h.fail} failed, ${h.observed} observed, ${h.skipped} skipped, ${h['not run']} not run; ${report.mustDecided.decided}/${report.mustDecided.of} must rules decided. Requests sent: ${report.requests.total}. Report: ${join(this.out, 'conformance.md')}`,
    );
    if (report.difference) console.log(differenceLine(report.difference));
    if (report.usedUpFixtures.length)
      console.log(`Used-up fixtures (their checks skipped): ${report.usedUpFixtures.join('; ')}`);
    if (report.suiteDefects.length)
      console.log(`Defects of the suite: ${report.suiteDefects.length} (see ${join(this.out, 'conformance.md')})`);
  }

  build(result: FullResult): ConformanceReport {
    const observations: ConformanceReport['observations'] = [];
    const requests: Record<string, number> = {};
    const settings = reportSettings();
    const setup = settings.setupRequests;
    if (setup) requests.setup = setup;
    const outcomes: CheckOutcome[] = [];
    const statusOf = new Map<string, Array<{ title: string; status: string }>>();
    const usedUp = new Set<string>();
    const suiteDefects: ConformanceReport['suiteDefects'] = [];

    for (const [test, res] of this.results) {
      const title = test.titlePath().filter(Boolean).slice(2).join(' › ');
      const annotations = dedupe([...test.annotations, ...res.annotations]);
      const error = stripAnsi(res.errors.map((e) => e.message ?? e.value ?? '').join('\n'))
        .split('\n')
        .slice(0, 12)
        .join('\n');
      const outcome: CheckOutcome = { title, status: res.status, annotations, error: error || undefined };
      outcomes.push(outcome);
      for (const a of annotations) {
        if (a.type === ANNOTATION.requests && a.description) {
          for (const [op, n] of Object.entries(JSON.parse(a.description) as Record<string, number>))
            requests[op] = (requests[op] ?? 0) + n;
        }
        if (a.type === ANNOTATION.observation && a.description) {
          const o = JSON.parse(a.description) as { rule: string; aspect: string; value: string; data?: unknown };
          observations.push({ rule: o.rule, aspect: o.aspect, value: o.value, check: title, data: o.data });
        }
        if (a.type === ANNOTATION.usedUp && a.description) usedUp.add(a.description);
        if (a.type === ANNOTATION.rule && a.description)
          statusOf.set(a.description, [...(statusOf.get(a.description) ?? []), { title, status: res.status }]);
      }
      for (const d of defectsOf(outcome)) suiteDefects.push({ check: title, defect: d });
    }

    const decisions = decide(outcomes);
    const list: RuleRow[] = (rules as readonly Rule[]).map((r) => {
      const d = decisions.get(r.id)!;
      return {
        id: r.id,
        level: r.level,
        section: r.section,
        requirement: r.requirement,
        operations: r.operations,
        verdict: d.verdict,
        checks: statusOf.get(r.id) ?? [],
        decidedBy: d.decidedBy,
        evidence: d.failedBy.map((f) =>
          f.violation
            ? `${formatViolationRecord(f.violation)}\n  Check:       ${f.title}`
            : `${f.title}: the check failed without naming a rule\n${f.error ?? ''}`,
        ),
        skipReasons: skipReasons(d),
        observations: d.observations,
      };
    });
    const count = (xs: RuleRow[]) => {
      const c: Record<Verdict, number> = { pass: 0, fail: 0, observed: 0, skipped: 0, 'not run': 0 };
      xs.forEach((x) => c[x.verdict]++);
      return c;
    };
    const byOp: ConformanceReport['operations'] = {};
    for (const op of operations) byOp[op.id] = count(list.filter((r) => r.operations.includes(op.id)));
    const must = list.filter((r) => r.level === 'must');
    return {
      target: settings.target,
      embedded: settings.embedded,
      startedAt: this.started.toISOString(),
      durationMs: result.duration,
      status: result.status,
      headline: count(list),
      mustDecided: {
        decided: must.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').length,
        of: must.length,
      },
      usedUpFixtures: [...usedUp].sort(),
      suiteDefects,
      operations: byOp,
      rules: list,
      observations,
      requests: { total: Object.values(requests).reduce((a, b) => a + b, 0), byOperation: requests },
      errors: this.errors,
    };
  }

  private writeHtml(report: ConformanceReport): void {
    if (!existsSync(this.html)) mkdirSync(this.html, { recursive: true });
    writeFileSync(join(this.html, 'conformance.html'), toHtml(report));
    writeFileSync(join(this.html, 'document.html'), paintDocument(report));
    const index = join(this.html, 'index.html');
    if (!existsSync(index)) return;
    const page = readFileSync(index, 'utf8');
    if (page.includes('id="conformance-matrix-link"')) return;
    const h = report.headline;
    const banner = `<div id="conformance-matrix-link" style="font:14px system-ui,sans-serif;padding:8px 16px;background:${h.fail ? '#ffebe9' : '#dafbe1'};border-bottom:1px solid #d0d7de"><a href="conformance.html"><b>Rule matrix</b></a>: ${h.pass} rules passed, ${h.fail} failed, ${h.observed} observed, ${h.skipped} skipped, ${h['not run']} not run · <a href="document.html"><b>The document, painted</b></a></div>`;
    writeFileSync(index, page.replace(/<body([^>]*)>/, `<body$1>${banner}`));
  }
}

/** Static and runtime annotations, each once. */
function dedupe(xs: Annotation[]): Annotation[] {
  const seen = new Set<string>();
  return xs.filter((a) => {
    const k = `${a.type}\u0000${a.description ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, '<br>');

export function toMarkdown(r: ConformanceReport): string {
  const h = r.headline;
  const lines = [
    `# Conformance report`,
    '',
    `Target: ${r.target}${r.embedded ? ' (embedded emulator)' : ''}  `,
    `Run: ${r.startedAt}, ${(r.durationMs / 1000).toFixed(1)} s, ${r.requests.total} requests`,
    '',
    `**${h.fail ? 'NOT CONFORMANT' : 'No rule failed'}**: ${h.pass} rules passed, ${h.fail} failed, ${h.observed} observed, ${h.skipped} skipped, ${h['not run']} not run.`,
    '',
    `This run decided ${r.mustDecided.decided} of the ${r.mustDecided.of} must rules (pass or fail); the others were skipped, with their reasons below, or not run.`,
    '',
  ];
  if (r.difference) {
    const requirement = (id: string) => r.rules.find((x) => x.id === id)?.requirement ?? '';
    lines.push(...differenceMarkdown(r.difference, requirement));
  }
  if (r.usedUpFixtures.length)
    lines.push(
      '**Used-up fixtures** (the checks that need them skipped; give fresh ones):',
      '',
      ...r.usedUpFixtures.map((f) => `- ${f}`),
      '',
    );
  if (r.suiteDefects.length)
    lines.push(
      '**Defects of the suite** (a check broke a rule it does not declare; no verdict on the target):',
      '',
      ...r.suiteDefects.map((d) => `- ${d.check}: ${d.defect}`),
      '',
    );
  if (r.errors.length)
    lines.push(
      '## The run did not complete',
      '',
      '```',
      ...r.errors.map((e) => e.split('\n').slice(0, 3).join('\n')),
      '```',
      '',
    );
  const failed = r.rules.filter((x) => x.verdict === 'fail');
  if (failed.length) {
    lines.push('## Failed rules', '');
    for (const f of failed) {
      lines.push(
        `### ${f.id}`,
        '',
        `> ${f.requirement}`,
        '',
        `Section: ${f.section}. Checks: ${f.checks
          .filter((c) => c.status !== 'passed' && c.status !== 'skipped')
          .map((c) => c.title)
          .join('; ')}`,
        '',
        '```',
        ...f.evidence.slice(0, 3),
        '```',
        '',
      );
    }
  }
  lines.push(
    '## By operation',
    '',
    '| operation | pass | fail | observed | skipped | not run | requests |',
    '|---|---|---|---|---|---|---|',
  );
  for (const [op, c] of Object.entries(r.operations))
    lines.push(
      `| ${op} | ${c.pass} | ${c.fail} | ${c.observed} | ${c.skipped} | ${c['not run']} | ${r.requests.byOperation[op] ?? 0} |`,
    );
  if (r.requests.byOperation.setup)
    lines.push(`| (setup: token requests, preflight) | | | | | | ${r.requests.byOperation.setup} |`);
  if (r.requests.byOperation.other)
    lines.push(`| (other calls: causing events, snapshots and restores) | | | | | | ${r.requests.byOperation.other} |`);
  lines.push('', '## Rules', '', '| rule | level | verdict | decided by | requirement |', '|---|---|---|---|---|');
  for (const x of r.rules) {
    const why = x.verdict === 'skipped' ? ` (${[...new Set(x.skipReasons)].join('; ')})` : '';
    const by = x.decidedBy.length
      ? `${x.decidedBy.length} of ${x.checks.length}: ${x.decidedBy.slice(0, 3).join('; ')}${x.decidedBy.length > 3 ? '; …' : ''}`
      : `0 of ${x.checks.length}`;
    lines.push(`| ${x.id} | ${x.level} | ${x.verdict}${cell(why)} | ${cell(by)} | ${cell(x.requirement)} |`);
  }
  lines.push('', '## Observations (where the document is silent)', '');
  const byRule = new Map<string, string[]>();
  for (const o of r.observations) byRule.set(o.rule, [...(byRule.get(o.rule) ?? []), `${o.aspect}: ${o.value}`]);
  for (const [rule, xs] of byRule) {
    lines.push(`- **${rule}**`);
    for (const s of [...new Set(xs)].slice(0, 12)) lines.push(`  - ${s}`);
  }
  lines.push('');
  return lines.join('\n');
}

export function toHtml(r: ConformanceReport): string {
  const h = r.headline;
  const color: Record<Verdict, string> = {
    pass: '#1a7f37',
    fail: '#cf222e',
    observed: '#8250df',
    skipped: '#9a6700',
    'not run': '#57606a',
  };
  const rows = r.rules
    .map((x) => {
      const ev = x.evidence.length
        ? `<details><summary>evidence</summary><pre>${esc(x.evidence.join('\n\n'))}</pre></details>`
        : '';
      const extra =
        x.verdict === 'skipped'
          ? `<br><small>${esc([...new Set(x.skipReasons)].join('; '))}</small>`
          : x.observations.length
            ? `<br><small>${esc([...new Set(x.observations)].slice(0, 4).join('; '))}</small>`
            : '';
      const by = x.decidedBy.length
        ? `<details><summary>${x.decidedBy.length} of ${x.checks.length}</summary><small>${x.decidedBy.map(esc).join('<br>')}</small></details>`
        : `0 of ${x.checks.length}`;
      return `<tr id="rule-${esc(x.id)}" class="${x.verdict.replace(' ', '-')}"><td><code>${esc(x.id)}</code></td><td>${x.level}</td><td style="color:${color[x.verdict]};font-weight:600">${x.verdict}${extra}</td><td>${by}</td><td>${esc(x.requirement)}${ev}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Conformance rule matrix</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}th{background:#f6f8fa}pre{white-space:pre-wrap;background:#f6f8fa;padding:8px}tr.fail{background:#ffebe9}</style></head>
<body><h1>Conformance rule matrix</h1>
<p>Target: ${esc(r.target)}${r.embedded ? ' (embedded emulator)' : ''}. ${r.requests.total} requests, ${(r.durationMs / 1000).toFixed(1)} s.</p>
<p id="headline"><b>${h.pass}</b> rules passed, <b>${h.fail}</b> failed, <b>${h.observed}</b> observed, <b>${h.skipped}</b> skipped, <b>${h['not run']}</b> not run. This run decided <b>${r.mustDecided.decided}</b> of ${r.mustDecided.of} must rules. <a href="index.html">Test report</a> · <a href="document.html">The document, painted</a></p>
${r.difference ? differenceHtml(r.difference) : ''}
${r.usedUpFixtures.length ? `<p id="used-up"><b>Used-up fixtures</b> (their checks skipped): ${r.usedUpFixtures.map(esc).join('; ')}</p>` : ''}
${r.suiteDefects.length ? `<p id="suite-defects"><b>Defects of the suite</b>: ${r.suiteDefects.map((d) => esc(`${d.check}: ${d.defect}`)).join('<br>')}</p>` : ''}
<table id="matrix"><thead><tr><th>rule</th><th>level</th><th>verdict</th><th>decided by</th><th>requirement</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

/** The difference since the baseline, each rule linked to its row of the matrix. */
function differenceHtml(d: Difference): string {
  const link = (id: string) => `<a href="#rule-${esc(id)}"><code>${esc(id)}</code></a>`;
  const part = (title: string, ids: readonly string[], cls: string) =>
    ids.length ? `<p class="${cls}"><b>${title}</b> (${ids.length}): ${ids.map(link).join(', ')}</p>` : '';
  const head = d.baseline
    ? `Compared with ${d.baseline.from === 'given' ? 'the given baseline' : 'the last run'}, ${esc(d.baseline.file)} (${esc(d.baseline.startedAt)}${d.baseline.sameTarget ? '' : `, another target: ${esc(d.baseline.target)}`}).`
    : `No baseline: ${esc(d.none ?? '')}. Every failure counts as new.`;
  return `<section id="difference" style="border:1px solid #d0d7de;padding:8px 16px;margin:8px 0"><h2>Since the baseline</h2><p>${head}</p>
${part('Newly failing', d.newlyFailing, 'newly-failing')}
${d.baseline ? part('Newly passing', d.newlyPassing, 'newly-passing') : ''}
${d.newlyUndecided.length ? `<p class="newly-undecided"><b>No longer decided</b>: ${d.newlyUndecided.map((u) => `${link(u.rule)} (${u.was} before, ${u.now} now)`).join(', ')}</p>` : ''}
${d.baseline ? part('Still failing (known, not new)', d.stillFailing, 'still-failing') : ''}
${part('Known failures whose evidence changed', d.evidenceChanged, 'evidence-changed')}
${d.flapping.length ? `<p class="flapping"><b>Flapping</b> over the last ${d.runsCompared} runs: ${d.flapping.map((f) => `${link(f.rule)} ${f.verdicts.join(' → ')}`).join('; ')}</p>` : ''}
</section>`;
}
