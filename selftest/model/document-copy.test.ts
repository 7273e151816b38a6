/**
 * spec/document.md is the interface document the rules quote, kept in the
 * contract model so that the painted document (harness/verdicts/painted.ts)
 * can be written wherever the suite runs. It stays a true copy of the
 * document the team is given (../shared), and every rule finds its line in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { rules } from '../../spec/rules.ts';
import { anchorOf, DOCUMENT, documentLines } from '../../harness/verdicts/painted.ts';

const GIVEN = resolve(import.meta.dirname, '../../../shared/000_dc00851a5b66de2b.txt');

test('should be a true copy of the interface document given to the team', () => {
  test.skip(!existsSync(GIVEN), `${GIVEN} is not beside this clone: nothing to compare the copy with`);
  expect(readFileSync(DOCUMENT, 'utf8')).toBe(readFileSync(GIVEN, 'utf8'));
});

test("should hold a line for every rule, in the rule's own section", () => {
  const lines = documentLines(readFileSync(DOCUMENT, 'utf8'));
  const unplaced = rules.filter((r) => anchorOf(r, lines) === undefined).map((r) => r.id);
  expect(unplaced).toEqual([]);
  // A rule's line lies in its section (or, for a rule over a whole part of the document, is its heading).
  const elsewhere = rules
    .map((r) => ({ id: r.id, section: r.section, at: anchorOf(r, lines)! }))
    .filter((x) => !x.at.section.startsWith(x.section.split(':')[0]!))
    .map((x) => `${x.id} (${x.section}) → line ${x.at.n} (${x.at.section})`);
  expect(elsewhere).toEqual([]);
});
