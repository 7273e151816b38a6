/**
 * Rule coverage: for every rule of the catalogue, the checks that name it
 * (tests tagged @rule:<id>) and the faults that break it. A must rule with
 * no check or no fault is a gap, and the report names it with its reason.
 */
import { spawn } from 'node:child_process';
import { unfaulted, type Fault } from '../emulator/faults/catalogue.ts';
import { rules, type Rule } from '../spec/rules.ts';

export interface Check {
  title: string;
  file: string;
  rules: string[];
  /** What a project's grep is matched against: the describe titles, the check's title, its tags. */
  grepTitle: string;
}

export interface RuleCoverage {
  id: string;
  level: Rule['level'];
  checks: number;
  checkTitles: string[];
  faults: string[];
  /** Why a must rule has no check or no fault, where it has none. */
  gap?: string;
  /** Whether the gap has a stated reason (not observable, or in `unfaulted`). */
  justified?: boolean;
}

/** Every check of the suite with the rules it names, from `playwright test --list`. */
export async function listChecks(root: string): Promise<Check[]> {
  const out = await new Promise<string>((res, rej) => {
    const child = spawn('npx', ['playwright', 'test', '--list', '--reporter=json'], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d) => (text += String(d)));
    child.on('error', rej);
    child.on('exit', (c) => (c === 0 ? res(text) : rej(new Error(`playwright --list exited ${c}`))));
  });
  type S = {
    title: string;
    file?: string;
    specs?: Array<{ title: string; file: string; tags?: string[] }>;
    suites?: S[];
  };
  const report = JSON.parse(out.slice(out.indexOf('{'))) as { suites: S[] };
  const checks: Check[] = [];
  const walk = (s: S, path: string[]) => {
    for (const spec of s.specs ?? []) {
      checks.push({
        title: [...path, spec.title].join(' › '),
        file: spec.file,
        // The JSON report gives the tags without their @.
        grepTitle: [...path, spec.title, ...(spec.tags ?? []).map((t) => `@${t}`)].join(' '),
        rules: (spec.tags ?? [])
          .map((t) => t.replace(/^@/, ''))
          .filter((t) => t.startsWith('rule:'))
          .map((t) => t.slice(5)),
      });
    }
    for (const sub of s.suites ?? []) walk(sub, [...path, sub.title].filter(Boolean));
  };
  report.suites.forEach((s) => walk(s, []));
  return checks;
}

export function coverage(checks: Check[], faults: readonly Fault[]): { rules: RuleCoverage[]; gaps: RuleCoverage[] } {
  const all = (rules as readonly Rule[]).map((r): RuleCoverage => {
    const named = checks.filter((c) => c.rules.includes(r.id));
    const f = faults.filter((x) => x.rule === r.id).map((x) => x.name);
    const c: RuleCoverage = {
      id: r.id,
      level: r.level,
      checks: named.length,
      checkTitles: named.map((x) => x.title),
      faults: f,
    };
    if (r.level === 'must') {
      const reason = unfaulted[r.id as keyof typeof unfaulted];
      if (r.observable === false)
        Object.assign(c, { gap: `not observable from outside: ${r.note ?? ''}`, justified: true });
      else if (named.length === 0) Object.assign(c, { gap: 'no check names this rule', justified: false });
      else if (f.length === 0)
        Object.assign(c, { gap: reason ? `no fault: ${reason}` : 'no fault breaks this rule', justified: !!reason });
    }
    return c;
  });
  return { rules: all, gaps: all.filter((c) => c.gap) };
}

export function formatCoverage(cov: { rules: RuleCoverage[]; gaps: RuleCoverage[] }): string {
  const must = cov.rules.filter((r) => r.level === 'must');
  const covered = must.filter((r) => !r.gap);
  const lines = [
    `rule coverage: ${covered.length}/${must.length} must rules have both a check and a fault; ${cov.rules.length - must.length} observe rules`,
  ];
  for (const g of cov.gaps) lines.push(`  ${g.justified ? 'justified' : 'GAP'} ${g.id}: ${g.gap}`);
  return lines.join('\n');
}
