/**
 * The fixture ledger: which status this suite left each experiment of
 * CONFORMANCE_EXPERIMENT_IDS in, per target. Experiments are used up by
 * moves (a table may make completed or archived final), so a later run may
 * find one that refuses every move. Only the ledger can tell "left in a
 * final status by an earlier run of this suite" (a used-up fixture, skipped
 * with the reason) from "refuses every move" (a failure): the suite trusts an
 * experiment to be used up only when it itself recorded leaving it there.
 *
 * One JSON line per accepted move, appended to
 * `$CONFORMANCE_STATE_DIR/fixture-ledger.jsonl` (default: the reports folder).
 * Keep that folder between runs (a CI cache) to keep the verdicts of later runs.
 * The embedded emulator is fresh on every run: no ledger is read or written.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface LedgerEntry {
  /** The target's {base_url}. */
  target: string;
  /** The variable the fixture comes from, e.g. CONFORMANCE_EXPERIMENT_IDS. */
  variable: string;
  id: string;
  /** The status the suite left it in. */
  status: string;
  /** When the suite found it refusing every move (set on a later run). */
  usedUp?: boolean;
  at: string;
}

export function ledgerFile(): string {
  const dir = process.env.CONFORMANCE_STATE_DIR || process.env.CONFORMANCE_REPORTS_DIR || 'reports';
  return join(dir, 'fixture-ledger.jsonl');
}

const enabled = () => process.env.CONFORMANCE_EMBEDDED !== '1';

function read(): LedgerEntry[] {
  const file = ledgerFile();
  if (!enabled() || !existsSync(file)) return [];
  const out: LedgerEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      if (line.trim()) out.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // A torn line (two runs writing at once) is skipped, not fatal.
    }
  }
  return out;
}

/** The last entry of a fixture on a target, if this suite ever moved it there. */
export function lastEntry(target: string, variable: string, id: string): LedgerEntry | undefined {
  return read().filter((e) => e.target === target && e.variable === variable && e.id === id).at(-1);
}

/** Appends an entry (one line: appends of this size do not interleave). */
export function record(entry: Omit<LedgerEntry, 'at'>): void {
  if (!enabled()) return;
  const file = ledgerFile();
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`);
}
