/**
 * The interface document, painted with the run's verdicts: every line of
 * spec/document.md (a copy of the interface document) that a rule of the
 * catalogue quotes is highlighted by the verdict of its rules and links to
 * their rows of the rule matrix (conformance.html); lines that state
 * something no rule covers are shown as such. Written beside the matrix as
 * reports/html/document.html.
 *
 * A rule's line is found from its section and its quoted requirement: the
 * line of that section holding the most of the requirement's words (the
 * quotes condense the document, so they are rarely verbatim).
 */
import { readFileSync } from 'node:fs';
import { rules, type Rule } from '../../spec/rules.ts';
import type { Difference } from './baseline.ts';
import type { Verdict } from './decide.ts';

export const DOCUMENT = new URL('../../spec/document.md', import.meta.url);

export interface DocLine {
  /** 1-based line number in the document. */
  n: number;
  text: string;
  /** The section the line is in, as the rules name sections ("Resources: Experiment", "Endpoints 2. …"). */
  section: string;
  kind: 'h1' | 'h2' | 'h3' | 'head' | 'row' | 'text' | 'blank' | 'rule';
}

/** The document's lines, each with its section. */
export function documentLines(text: string): DocLine[] {
  let h2 = '';
  let h3 = '';
  const out = text.split('\n').map((raw, i): DocLine => {
    const line = raw.trimEnd();
    const m = /^(#{1,3}) (.*)$/.exec(line);
    if (m) {
      if (m[1] === '##') [h2, h3] = [m[2]!, ''];
      if (m[1] === '###') h3 = m[2]!;
    }
    // The rules name "Resources and their fields: Experiment" as "Resources: Experiment".
    const parent = h2 === 'Resources and their fields' ? 'Resources' : h2;
    const section = h3 ? (h2 === 'Endpoints' ? `Endpoints ${h3}` : `${parent}: ${h3}`) : h2;
    const kind: DocLine['kind'] = m
      ? (['h1', 'h2', 'h3'] as const)[m[1]!.length - 1]!
      : line === ''
        ? 'blank'
        : /^\|[-| :]+\|$/.test(line)
          ? 'rule'
          : line.startsWith('|')
            ? 'row'
            : 'text';
    return { n: i + 1, text: line, section, kind };
  });
  // A table's first row, above its separator, names its columns.
  out.forEach((l, i) => {
    if (l.kind === 'row' && out[i + 1]?.kind === 'rule') l.kind = 'head';
  });
  return out;
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'are',
  'is',
  'of',
  'a',
  'an',
  'to',
  'in',
  'or',
  'on',
  'be',
  'as',
  'by',
]);
const words = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9_:.\-/]+/)
      .map((w) => w.replace(/^[.\-/:]+|[.\-/:]+$/g, ''))
      .filter((w) => w.length >= 2 && !STOP.has(w)),
  );

/** The line a rule quotes: the best-matching line of its section (of the whole document if its section has none). */
export function anchorOf(
  rule: Pick<Rule, 'id' | 'section' | 'requirement'>,
  lines: readonly DocLine[],
): DocLine | undefined {
  const want = words(rule.requirement);
  const score = (l: DocLine) => {
    const have = words(l.text);
    let n = 0;
    for (const w of want) if (have.has(w)) n++;
    return n / Math.max(1, want.size);
  };
  const best = (pool: readonly DocLine[]) => {
    let found: DocLine | undefined;
    let bestScore = 0;
    for (const l of pool) {
      const s = score(l);
      if (s > bestScore) [found, bestScore] = [l, s];
    }
    return found && bestScore >= 0.25 ? found : undefined;
  };
  const body = lines.filter((l) => l.kind === 'row' || l.kind === 'text');
  const inSection = body.filter((l) => l.section === rule.section || l.section.startsWith(`${rule.section}: `));
  // A rule over a whole section (a table of fields, say) that no one line holds: the section's heading.
  const heading = lines.find((l) => (l.kind === 'h2' || l.kind === 'h3') && l.section === rule.section);
  // The types (or required members) of a resource's fields: its whole table, so its heading.
  if (heading && /\.(types|required)$/.test(rule.id) && rule.section.startsWith('Resources: ')) return heading;
  return best(inSection) ?? heading ?? best(body.filter((l) => l.section.startsWith(rule.section))) ?? best(body);
}

/** Each rule's line, by rule id. */
export function anchors(lines: readonly DocLine[]): Map<string, DocLine> {
  const out = new Map<string, DocLine>();
  for (const r of rules as readonly Rule[]) {
    const a = anchorOf(r, lines);
    if (a) out.set(r.id, a);
  }
  return out;
}

/** What the page needs of a report. */
export interface PaintInput {
  target: string;
  startedAt: string;
  rules: Array<{ id: string; verdict: Verdict; level: string }>;
  difference?: Difference;
}

/** The verdict a line shows for its rules: a failure first, then what is still open, then passes. */
const ORDER: Verdict[] = ['fail', 'skipped', 'not run', 'observed', 'pass'];
const COLOR: Record<Verdict, string> = {
  pass: '#dafbe1',
  fail: '#ffebe9',
  observed: '#fbefff',
  skipped: '#fff8c5',
  'not run': '#eaeef2',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The painted document as one HTML page (no script, no outside resource). */
export function paintDocument(report: PaintInput, text = readFileSync(DOCUMENT, 'utf8')): string {
  const lines = documentLines(text);
  const byLine = new Map<number, string[]>();
  for (const [id, l] of anchors(lines)) byLine.set(l.n, [...(byLine.get(l.n) ?? []), id]);
  const verdictOf = new Map(report.rules.map((r) => [r.id, r.verdict]));
  const d = report.difference;
  const change = (id: string) =>
    d?.newlyFailing.includes(id)
      ? ' (newly failing)'
      : d?.newlyPassing.includes(id)
        ? ' (newly passing)'
        : d?.newlyUndecided.some((u) => u.rule === id)
          ? ' (no longer decided)'
          : '';
  let uncovered = 0;
  const body: string[] = [];
  let table: string[] = [];
  const flush = () => {
    if (table.length) body.push(`<table>${table.join('')}</table>`);
    table = [];
  };
  for (const l of lines) {
    if (l.kind !== 'row' && l.kind !== 'rule' && l.kind !== 'head') flush();
    if (l.kind === 'head') {
      flush();
      const cells = l.text
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => `<th>${esc(c.trim())}</th>`)
        .join('');
      table.push(`<tr id="line-${l.n}">${cells}<th>rules</th></tr>`);
      continue;
    }
    if (l.kind === 'blank' || l.kind === 'rule') continue;
    const ids = byLine.get(l.n) ?? [];
    const verdicts = ids.map((id) => verdictOf.get(id) ?? 'not run');
    const shown = ORDER.find((v) => verdicts.includes(v));
    const marks = ids
      .map((id) => {
        const v = verdictOf.get(id) ?? 'not run';
        return `<a class="rule ${v.replace(' ', '-')}" href="conformance.html#rule-${esc(id)}" title="${esc(`${id}: ${v}${change(id)}`)}">${esc(id)}: ${v}${esc(change(id))}</a>`;
      })
      .join(' ');
    if (l.kind === 'h1' || l.kind === 'h2' || l.kind === 'h3') {
      const tag = l.kind;
      const style = shown ? ` class="covered ${shown.replace(' ', '-')}" style="background:${COLOR[shown]}"` : '';
      body.push(
        `<${tag} id="line-${l.n}"${style}>${esc(l.text.replace(/^#+ /, ''))}${marks ? ` <small>${marks}</small>` : ''}</${tag}>`,
      );
      continue;
    }
    if (!ids.length) uncovered++;
    const cls = shown ? `covered ${shown.replace(' ', '-')}` : 'uncovered';
    const style = shown ? ` style="background:${COLOR[shown]}"` : '';
    const title = shown ? '' : ' title="no rule of the catalogue quotes this line"';
    if (l.kind === 'row') {
      const cells = l.text
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => `<td>${esc(c.trim())}</td>`)
        .join('');
      table.push(`<tr id="line-${l.n}" class="${cls}"${style}${title}>${cells}<td class="marks">${marks}</td></tr>`);
    } else {
      body.push(`<p id="line-${l.n}" class="${cls}"${style}${title}>${esc(l.text)}${marks ? `<br>${marks}` : ''}</p>`);
    }
  }
  flush();
  const count = (v: Verdict) => report.rules.filter((r) => r.verdict === v).length;
  return `<!doctype html><html><head><meta charset="utf-8"><title>The interface document, painted</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1200px}table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border:1px solid #d0d7de;padding:3px 6px;vertical-align:top;text-align:left}th{background:#f6f8fa}p{padding:4px 6px;margin:4px 0}.uncovered{border-left:4px dashed #8c959f}.covered{border-left:4px solid #57606a}.fail{border-left-color:#cf222e}.pass{border-left-color:#1a7f37}a.rule{font-size:12px;white-space:nowrap;margin-right:6px}a.rule.fail{color:#cf222e;font-weight:600}.marks{width:22%}#legend span{padding:2px 6px;margin-right:6px}</style></head>
<body><h1>The interface document, painted with the run's verdicts</h1>
<p>Target: ${esc(report.target)}. Run: ${esc(report.startedAt)}. <a href="conformance.html">Rule matrix</a> · <a href="index.html">Test report</a></p>
<p id="legend"><span style="background:${COLOR.fail}">fail (${count('fail')})</span><span style="background:${COLOR.pass}">pass (${count('pass')})</span><span style="background:${COLOR.observed}">observed (${count('observed')})</span><span style="background:${COLOR.skipped}">skipped (${count('skipped')})</span><span style="background:${COLOR['not run']}">not run (${count('not run')})</span><span style="border-left:4px dashed #8c959f">no rule quotes it (${uncovered} lines)</span></p>
${body.join('\n')}
</body></html>`;
}
