/**
 * A person reading the report: runs the suite against the emulator with one
 * fault, opens the html report in a real browser (Debian's chromium, headless,
 * through playwright-core), follows the link to the rule matrix, and finds the
 * failing rule, its evidence and the curl line that reproduces it.
 * Keeps a screenshot: reports/selftest/rule-matrix.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
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
  } finally {
    await browser.close();
  }
});
