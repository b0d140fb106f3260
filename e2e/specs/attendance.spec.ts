import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { errorCatalogue } from '@p8/contract/errors';
import { api, DEMO, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Attendance (docs/people.md) as the demo administrator, a member of the demo's office group: a clock-in with
 * the browser's position granted at the office (a punch today), one granted far away (refused "outside the
 * clock range" once the group no longer records outside punches), one with the position refused (the screen
 * says so, nothing is sent); the month's days with their results; the month's report with the demo's late and
 * absent days — in Chinese and English.
 */

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('attendance');
});
afterAll(() => suite?.close());

const OFFICE = { latitude: 22.540503, longitude: 113.934528 };
const FAR = { latitude: 22.6, longitude: 114.05 };

const LANGUAGES = [
  { lang: 'zh', locale: 'zh-CN', clocked: '打卡成功', geoDenied: '无法获取定位', late: '迟到', absent: '旷工' },
  { lang: 'en', locale: 'en-US', clocked: 'Clocked in at', geoDenied: 'No position', late: 'Late', absent: 'Absent' },
] as const;

async function clockPage(lang: 'zh' | 'en', locale: string, options: BrowserContextOptions): Promise<Page> {
  const page = await suite.signedInPage(DEMO, { locale, viewport: { width: 1440, height: 900 }, ...options });
  if (lang === 'en') {
    await page.getByTestId('header-lang').click();
    await page.getByTestId('lang-en').click();
    await waitUntil(() => page.getByTestId('menu-item-/home/index').textContent(), (text) => text === 'Home', 'the English menu');
  }
  await page.goto('/people/clock');
  await page.getByTestId('my-days').waitFor();
  return page;
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe.each(LANGUAGES)('attendance in $lang', ({ lang, locale, clocked, geoDenied, late, absent }) => {
  it('clocks in at the office with the position granted: a punch on today’s row', async () => {
    const page = await clockPage(lang, locale, { geolocation: OFFICE, permissions: ['geolocation'] });
    // A punch belongs to the day whose shift window holds it (09:00–18:00 and its windows): at night, when CI may
    // run, it would belong to no day. The office group works a shift of the whole day while this test clocks in.
    const token = await storedToken(page);
    const groups = await api<Array<{ id: number; shiftId: number }>>(suite.server, 'GET', '/admin/people/attendanceGroup?name=' + encodeURIComponent('行政办公室'), undefined, token);
    const group = groups.data[0];
    const allDay = await api<{ id: number }>(suite.server, 'POST', '/admin/people/shift', { name: `全天班 ${lang}`, lateGrace: 0, earlyGrace: 0, inWindow: 0, outWindow: 0, periods: [{ start: '00:00', end: '23:59' }] }, token);
    expect(allDay.status).toBe(0);
    expect((await api(suite.server, 'PUT', '/admin/people/attendanceGroup', { id: group.id, shiftId: allDay.data.id }, token)).status).toBe(0);
    try {
      await page.reload();
      const row = page.getByTestId(`my-days-${today()}`);
      await row.waitFor();
      const before = await row.locator('.ant-tag').count();
      await page.getByTestId('clock-in').click();
      await page.locator('.ant-message').getByText(clocked).first().waitFor();
      await waitUntil(() => row.locator('.ant-tag').count(), (n) => n > before, 'the punch on today’s row');
      await screenshot(page, `attendance-clock-${lang}`);
    } finally {
      await api(suite.server, 'PUT', '/admin/people/attendanceGroup', { id: group.id, shiftId: group.shiftId }, token);
    }
  });

  it('refuses a punch far from every address once the group no longer records outside ones', async () => {
    const page = await clockPage(lang, locale, { geolocation: FAR, permissions: ['geolocation'] });
    const token = await storedToken(page);
    const groups = await api<Array<{ id: number; name: string }>>(suite.server, 'GET', '/admin/people/attendanceGroup?name=' + encodeURIComponent('行政办公室'), undefined, token);
    expect((await api(suite.server, 'PUT', '/admin/people/attendanceGroup', { id: groups.data[0].id, allowOutside: false }, token)).status).toBe(0);
    await page.getByTestId('clock-in').click();
    await page.locator('.ant-message').getByText(errorCatalogue.NotInClockRange[lang]).waitFor();
    expect((await api(suite.server, 'PUT', '/admin/people/attendanceGroup', { id: groups.data[0].id, allowOutside: true }, token)).status).toBe(0);
  });

  it('says so when the browser refuses the position, and sends nothing', async () => {
    const page = await clockPage(lang, locale, { permissions: [] });
    let sent = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/admin/people/clock')) sent += 1;
    });
    await page.getByTestId('clock-in').click();
    await page.locator('.ant-message').getByText(geoDenied).waitFor();
    expect(sent).toBe(0);
  });

  it('reports the month: the demo’s late and absent days, and a person’s days', async () => {
    const page = await clockPage(lang, locale, {});
    await page.goto('/people/report');
    const table = page.getByTestId('people-report');
    await table.locator('tbody tr.ant-table-row').first().waitFor();
    // Last month: whole, with the demo's punches.
    await page.getByTestId('report-month').click();
    const d = new Date();
    const last = new Date(d.getFullYear(), d.getMonth() - 1, 1);
    if (last.getFullYear() !== d.getFullYear()) await page.locator('.ant-picker-dropdown:visible .ant-picker-header-super-prev-btn').click();
    await page.locator('.ant-picker-dropdown:visible .ant-picker-cell').nth(last.getMonth()).click();
    await table.locator('thead').getByText(late, { exact: true }).waitFor();
    await table.locator('thead').getByText(absent, { exact: true }).waitFor();
    await table.locator('tbody tr.ant-table-row').first().locator('.ant-table-row-expand-icon').click();
    await page.locator('[data-testid^="days-"]').first().waitFor();
    await screenshot(page, `attendance-report-${lang}`);
  });
});
