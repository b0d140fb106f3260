import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_RESULT_LABELS, type PersonMonth } from '@p8/contract/people';
import { screenshot, startSuite, waitUntil, type Suite } from '../harness.ts';
import { demoPage, pageCaller, submitAuditAndClose, type Lang } from '../bill-steps.ts';

/**
 * Replacement clock-in (docs/people.md) as the demo administrator, a member of the office group who missed two
 * recent clock-outs (the demo leaves them): a request for one of them entered on the bill kit's screen, saved,
 * submitted and approved; the clock-in screen then shows the day normal with the replacement punch — in
 * Chinese and English (each takes one of the two days).
 */

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('replacement');
});
afterAll(() => suite?.close());

const monthOf = (daysAgo: number) => {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

describe('replacement clock-in (browser)', () => {
  it.each<[Lang, string]>([
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
  ])('a request for a missing clock-out, approved: the day turns normal (%s)', async (lang, locale) => {
    const page = await demoPage(suite, lang, locale);
    const call = await pageCaller(suite, page);
    // The administrator's missing days within the group's seven days, latest first.
    const months = [...new Set([monthOf(7), monthOf(0)])];
    const days = (await Promise.all(months.map((m) => call<PersonMonth>('GET', `/admin/people/clock?month=${m}`)))).flatMap((m) => m.days);
    const earliest = new Date();
    earliest.setDate(earliest.getDate() - 6);
    const missing = days.filter((d) => d.result === 'missing' && new Date(`${d.date}T00:00:00`) >= new Date(earliest.toDateString())).reverse();
    // The demo leaves two: Chinese replaces one, English the other.
    expect(missing.length, 'a missing clock-out the demo left').toBeGreaterThanOrEqual(1);
    const date = missing[0].date;

    await page.goto('/people/replacement');
    await page.getByTestId('bill-status-tabs').waitFor();
    await page.getByTestId('bill-add').click();
    const form = page.getByTestId('bill-form');
    const dateInput = form.getByTestId('bill-field-replaceDate');
    await dateInput.click();
    await dateInput.fill(date);
    await dateInput.press('Enter');
    await form.getByTestId('bill-field-replaceTime').fill('18:05');
    await form.getByTestId('bill-field-replaceReason').fill(lang === 'zh' ? '外出拜访客户，忘记打下班卡' : 'Out at a customer, forgot to clock out');
    await screenshot(page, `replacement-form-${lang}`);
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/people/replacement')), form.getByTestId('bill-save').click()]);
    await submitAuditAndClose(form);
    await screenshot(page, `replacement-list-${lang}`);

    await page.goto('/people/clock');
    const row = page.getByTestId(`my-days-${date}`);
    await row.waitFor();
    await waitUntil(() => row.getByTestId('day-result').textContent(), (text) => text === DAY_RESULT_LABELS.normal[lang], 'the day normal');
    expect(await row.innerText()).toContain(lang === 'zh' ? '补' : 'replace');
    await screenshot(page, `replacement-day-${lang}`);
  }, 240_000);
});
