/**
 * `npm run mutation [-- --mutate FILE ...]`: StrykerJS over the emulator's
 * conforming code (mutation/stryker.config.mjs), then the score per file and
 * overall from its JSON report: killed / (all − listed), where listed are the
 * survivors mutation/survivors.json names with a class and a reason. A listed
 * survivor no longer found as it was written (its code changed, or it is now
 * killed) is flagged, to be checked again.
 *
 * `--report-only` prints the score of the last report without running;
 * `--unlisted` also prints each survivor the list does not name, as an entry
 * of mutation/survivors.json still to be given its class and reason.
 * `--bare` (with `--mutate`) runs mutation/stryker.bare.config.mjs: every
 * mutant, no ignorer, no list, its own report, the standing results untouched.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json');
const BARE_REPORT = join(ROOT, 'reports', 'mutation', 'bare.json');
const SURVIVORS = join(ROOT, 'mutation', 'survivors.json');
/**
 * The suite each file's incremental results were computed with. Stryker's
 * command runner sees one test ("All tests") and cannot tell that a check
 * changed: where the suite's hash differs from the one a file's results were
 * computed with, those results are not reused (--force).
 */
const SUITE_HASHES = join(ROOT, 'mutation', 'suite-hashes.json');
/** What decides whether a mutant is killed: the checks, their machinery, the contract model. */
const SUITE = ['tests', 'harness', 'spec', 'schemas', 'playwright.config.ts'];

/** The files under a path (or the path itself), relative to the root. */
function files(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  return statSync(abs).isDirectory() ? readdirSync(abs).flatMap((n) => files(`${path}/${n}`)) : [path];
}

function suiteHash(): string {
  const h = createHash('sha256');
  for (const f of SUITE.flatMap(files).sort())
    h.update(f)
      .update('\0')
      .update(readFileSync(join(ROOT, f)))
      .update('\0');
  return h.digest('hex').slice(0, 16);
}

/** The files of the emulator Stryker mutates (as mutation/stryker.config.mjs says), relative to the root. */
function mutatedFiles(): string[] {
  const { notMutated } = JSON.parse(readFileSync(join(ROOT, 'mutation', 'not-mutated.json'), 'utf8')) as {
    notMutated: Record<string, string>;
  };
  const excluded = Object.keys(notMutated);
  return files('emulator').filter(
    (f) => f.endsWith('.ts') && !excluded.some((p) => (p.endsWith('/') ? f.startsWith(p) : f === p)),
  );
}

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
}

/**
 * A survivor that is right to survive, with its class and why. It is found
 * by what it changes: its file, its mutator, its lines with the code it
 * replaces marked (mutatedCode) and its replacement; `line` only says where
 * to look, so moving code does not unlist a survivor, and changing the code
 * it mutates does.
 */
export interface ListedSurvivor {
  file: string;
  line: number;
  mutator: string;
  code: string;
  replacement: string;
  class: 'equivalent' | 'left open by the document' | 'not observable';
  why: string;
}

/**
 * The code a mutant replaces, in its lines: from the start of its first line
 * to the end of its last, the replaced part between ⟦ ⟧, white space
 * collapsed (Stryker's lines and columns count from 1).
 */
function mutatedCode(source: string, m: Pick<Mutant, 'location'>): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  const text = lines.slice(start.line - 1, end.line).join('\n');
  const from = start.column - 1;
  const to = text.length - (lines[end.line - 1]!.length - (end.column - 1));
  return `${text.slice(0, from)}⟦${text.slice(from, to)}⟧${text.slice(to)}`.replace(/\s+/g, ' ').trim();
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** The score of a report; `bare`, with no survivor counted as listed. */
function score(path = REPORT, bare = false): number {
  if (!existsSync(path)) {
    console.error(`mutation: no report at ${path}: run npm run mutation first`);
    return 2;
  }
  const report = JSON.parse(readFileSync(path, 'utf8')) as {
    files: Record<string, { source: string; mutants: Mutant[] }>;
  };
  const listed =
    !bare && existsSync(SURVIVORS) ? (JSON.parse(readFileSync(SURVIVORS, 'utf8')) as ListedSurvivor[]) : [];
  // A survivor takes one entry that names it, the nearest to its line: code written twice (the same
  // line in two handlers) has an entry, and a reason, for each place.
  const used = new Set<ListedSurvivor>();
  const isListed = (file: string, m: Mutant) => {
    const code = mutatedCode(report.files[file]!.source, m);
    const line = m.location.start.line;
    const entry = listed
      .filter(
        (l) =>
          !used.has(l) &&
          l.file === file &&
          l.mutator === m.mutatorName &&
          l.code === code &&
          l.replacement === (m.replacement ?? ''),
      )
      .sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line))[0];
    if (entry) used.add(entry);
    return entry;
  };
  const rows: string[] = [];
  const unlisted: Omit<ListedSurvivor, 'class' | 'why'>[] = [];
  const total = { all: 0, killed: 0, survived: 0, listed: 0 };
  // A file no longer mutated (mutation/not-mutated.json) may keep results in the incremental file: not counted.
  const mutated = new Set(mutatedFiles());
  for (const [file, { mutants }] of Object.entries(report.files).sort()) {
    if (!mutated.has(file)) continue;
    const counted = mutants.filter((m) => DETECTED.has(m.status) || UNDETECTED.has(m.status));
    const killed = counted.filter((m) => DETECTED.has(m.status)).length;
    const survivors = counted.filter((m) => UNDETECTED.has(m.status));
    const unlistedHere = survivors.filter((m) => !isListed(file, m));
    const onList = survivors.length - unlistedHere.length;
    for (const m of unlistedHere)
      unlisted.push({
        file,
        line: m.location.start.line,
        mutator: m.mutatorName,
        code: mutatedCode(report.files[file]!.source, m),
        replacement: m.replacement ?? '',
      });
    const denominator = counted.length - onList;
    rows.push(
      `${file.padEnd(44)} ${String(counted.length).padStart(5)} ${String(killed).padStart(7)} ${String(survivors.length - onList).padStart(9)} ${String(onList).padStart(7)} ${denominator ? ((100 * killed) / denominator).toFixed(1).padStart(7) : '      —'}%`,
    );
    total.all += counted.length;
    total.killed += killed;
    total.survived += survivors.length - onList;
    total.listed += onList;
  }
  console.log(`\n${'file'.padEnd(44)} ${'mutants'} ${'killed'} ${'survived'} ${'listed'}   score`);
  rows.forEach((r) => console.log(r));
  const denominator = total.all - total.listed;
  console.log(
    `${'all'.padEnd(44)} ${String(total.all).padStart(5)} ${String(total.killed).padStart(7)} ${String(total.survived).padStart(9)} ${String(total.listed).padStart(7)} ${denominator ? ((100 * total.killed) / denominator).toFixed(1).padStart(7) : '      —'}%`,
  );
  console.log(
    `score: killed / (all − listed) = ${total.killed}/${denominator}; listed: ${total.listed} of ${total.all} (${total.all ? ((100 * total.listed) / total.all).toFixed(1) : 0}%)`,
  );
  // --unlisted: the survivors not on the list, as entries of mutation/survivors.json still to be given a class
  // and a reason (or a check that kills them).
  if (!bare && process.argv.includes('--unlisted'))
    console.log(`\nunlisted survivors:\n${JSON.stringify(unlisted, null, 2)}`);
  else if (total.survived)
    console.log(`${total.survived} survivor(s) not listed: --report-only --unlisted prints them`);
  const files = new Set(Object.keys(report.files));
  const stale = listed.filter((l) => files.has(l.file) && !used.has(l));
  if (stale.length)
    console.log(
      `listed survivors to check again (their code changed, or they are now killed): ${stale.map((l) => `${l.file}:${l.line} ${l.mutator} ${JSON.stringify(l.code)} → ${JSON.stringify(l.replacement)}`).join('; ')}`,
    );
  return 0;
}

/** Runs StrykerJS with a configuration of mutation/ and the arguments given; exits with its status if it fails. */
function stryker(config: string, strykerArgs: readonly string[]): void {
  const bin = join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const run = spawnSync(process.execPath, [bin, 'run', join('mutation', config), ...strykerArgs], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const args = process.argv.slice(2).filter((a) => a !== '--unlisted');
if (args.includes('--bare')) {
  if (!args.includes('--mutate')) {
    console.error('mutation: --bare needs --mutate FILE,... (every mutant of the whole emulator would take hours)');
    process.exit(2);
  }
  stryker(
    'stryker.bare.config.mjs',
    args.filter((a) => a !== '--bare'),
  );
  console.log('\nbare: no ignorer, no listed survivor');
  process.exit(score(BARE_REPORT, true));
}
if (!args.includes('--report-only')) {
  const at = args.indexOf('--mutate');
  const targets =
    at >= 0 ? (args[at + 1] ?? '').split(',').map((f) => relative(ROOT, resolve(ROOT, f))) : mutatedFiles();
  const hashes = existsSync(SUITE_HASHES)
    ? (JSON.parse(readFileSync(SUITE_HASHES, 'utf8')) as Record<string, string>)
    : {};
  const now = suiteHash();
  const stale = targets.filter((f) => hashes[f] !== now);
  if (stale.length && !args.includes('--force'))
    console.log(
      `mutation: the checks changed since ${stale.length} file(s) were last run: their results are not reused`,
    );
  stryker('stryker.config.mjs', [...args, ...(stale.length && !args.includes('--force') ? ['--force'] : [])]);
  for (const f of targets) hashes[f] = now;
  writeFileSync(SUITE_HASHES, `${JSON.stringify(Object.fromEntries(Object.entries(hashes).sort()), null, 2)}\n`);
}
process.exit(score());
