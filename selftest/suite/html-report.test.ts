/**
 * A person reading the report: runs the suite against the emulator with one
 * fault, opens the html report in a real browser (Debian's chromium, headless,
 * through playwright-core), follows the link to the rule matrix, and finds the
 * failing rule, its evidence and the curl line that reproduces it; then the
 * interface document painted with the verdicts, the failing requirement
 * highlighted and linked to its row. Keeps screenshots:
 * reports/selftest/rule-matrix.png, reports/selftest/painted-document.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, expect, test } from '@playwright/test';
import { startEmulator } from '../../emulator/index.ts';
import { faults } from '../../emulator/faults/catalogue.ts';
import { ROOT, runSuite } from './run-suite.ts';

const CHROMIUM = '/usr/bin/chromium';
const RULE = 'event-streams.list.take.range';

test.setTimeout(120_000);

test('should show the failing rule, its evidence and its reproduction in the html report', async () => {
  test.skip(!existsSync(CHROMIUM), `${CHROMIUM} is not installed (apt-get install chromium); .ci/run installs it`);
  const fault = faults.find((f) => f.rule === RULE);
  expect(fault, `a fault breaking ${RULE}`).toBeTruthy();
  const emu = await startEmulator({ control: true, heartbeatMs: 250, fault: fault!.name });
  let reports: string;
  try {
    const run = await runSuite({ ...emu.env(), CONFORMANCE_EMBEDDED: '1' }, ['--grep', '@event-streams']);
    expect(run.code, 'the suite fails on the fault').toBe(1);
    reports = run.reports;
  } finally {
    await emu.close();
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(join(reports, 'html', 'index.html')).href);
    const banner = page.locator('#conformance-matrix-link');
    await expect(banner).toContainText(/[1-9]\d* failed/);
    await banner.getByRole('link', { name: 'Rule matrix' }).click();
    const row = page.locator('#matrix tr.fail', { hasText: RULE });
    await expect(row).toBeVisible();
    await expect(row).toContainText('fail');
    await row.locator('summary', { hasText: 'evidence' }).click();
    await expect(row.locator('pre')).toContainText('Expected:');
    await expect(row.locator('pre')).toContainText('Reproduce:   curl');
    await expect(row.locator('pre')).toContainText('$CONFORMANCE_TOKEN');
    mkdirSync(join(ROOT, 'reports', 'selftest'), { recursive: true });
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ROOT, 'reports', 'selftest', 'rule-matrix.png') });

    // The document, painted: from the html report's banner, with no console error; the failing
    // requirement highlighted, and every highlighted requirement linked to a row of the matrix.
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(reports, 'html', 'index.html')).href);
    await page.locator('#conformance-matrix-link').getByRole('link', { name: 'The document, painted' }).click();
    await expect(page.locator('h1').first()).toContainText('painted');
    const failing = page.locator('a.rule.fail', { hasText: RULE });
    await expect(failing).toBeVisible();
    const links = await page.locator('a.rule').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(50);
    const matrix = readFileSync(join(reports, 'html', 'conformance.html'), 'utf8');
    const missing = links.filter((h) => !matrix.includes(`id="${h.replace(/^conformance\.html#/, '')}"`));
    expect(missing, 'highlighted requirements whose row is not in the matrix').toEqual([]);
    await failing.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ROOT, 'reports', 'selftest', 'painted-document.png') });
    await failing.click();
    await expect(page.locator(`#matrix tr.fail`, { hasText: RULE })).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
