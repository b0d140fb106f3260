import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { errorCatalogue } from '@p8/contract/errors';
import { api, screenshot, startSuite, storedToken, type Suite } from '../harness.ts';
import { demoPage } from '../bill-steps.ts';

/**
 * The one record screen of every declared record kind (web/src/views/records): each kind's menu opens it
 * with its own columns and buttons, and a process (the first kind added by declaration only) is added,
 * refused a negative piece rate on its field before anything is sent, and listed, and another added with its
 * code left empty (generated); a machine is added with its
 * work team picked by name (a field naming another record); a routing (a kind with lines) is opened with its
 * demo steps and another added with two steps in order — in Chinese and English.
 */

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('declared-records');
});
afterAll(() => suite?.close());

const LANGUAGES = [
  { lang: 'zh', locale: 'zh-CN', name: '工序名称', code: 'E2E-ZH' },
  { lang: 'en', locale: 'en-US', name: 'Process', code: 'E2E-EN' },
] as const;

describe.each(LANGUAGES)('declared records in $lang', ({ lang, locale, name, code }) => {
  let page: Page;
  const pageErrors: string[] = [];
  afterEach(() => expect(pageErrors).toEqual([]));

  it('opens every declared kind on its menu path, with its declared columns', async () => {
    page = await demoPage(suite, lang, locale);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    for (const decl of RECORD_KINDS) {
      await page.goto(`/${decl.area}/${decl.kind}`);
      const table = page.getByTestId(`${decl.kind}-table`);
      await table.waitFor();
      for (const field of decl.fields) await table.locator('thead').getByText(field.label[lang], { exact: true }).first().waitFor();
    }
  });

  it('adds a process through the dialog, refusing a negative piece rate on its field', async () => {
    await page.goto('/basic/process');
    // The demo workshop's processes are there.
    await page.locator('tbody').getByText('GX06').waitFor();
    await page.getByTestId('process-add').click();
    const dialog = page.getByTestId('process-dialog');
    await dialog.getByTestId('process-code').fill(code);
    await dialog.getByTestId('process-name').fill(`${name}-${code}`);
    await dialog.getByTestId('process-pieceRate').fill('-2');
    await dialog.getByTestId('process-dialog-submit').click();
    await dialog.getByText(errorCatalogue.NumberMustNotBeNegative[lang]).waitFor();
    await screenshot(page, `declared-process-refused-${lang}`);
    await dialog.getByTestId('process-pieceRate').fill('1.25');
    await dialog.getByTestId('process-standardHours').fill('0.5');
    // A yes / no field: a switch, off for a new record.
    await dialog.getByTestId('process-needsInspection').click();
    await dialog.getByTestId('process-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('tbody').getByText(code, { exact: true }).waitFor();
    await screenshot(page, `declared-process-list-${lang}`);

    const token = await storedToken(page);
    const found = await api<Array<{ code: string; pieceRate: number; standardHours: number; needsInspection: boolean }>>(suite.server, 'GET', `/admin/basic/process?code=${code}`, undefined, token);
    expect(found.data).toEqual([expect.objectContaining({ code, pieceRate: 1.25, standardHours: 0.5, needsInspection: true })]);
  });

  it('adds a process with its code left empty: the field says so, and the code is generated', async () => {
    await page.goto('/basic/process');
    await page.getByTestId('process-add').click();
    const dialog = page.getByTestId('process-dialog');
    const codeField = dialog.getByTestId('process-code');
    expect(await codeField.getAttribute('placeholder')).toBe(lang === 'zh' ? '留空自动生成' : 'Leave empty to generate');
    // Not required: no mark on its label.
    expect(await dialog.locator('.ant-form-item-required', { hasText: lang === 'zh' ? '工序编码' : 'Code' }).count()).toBe(0);
    await dialog.getByTestId('process-name').fill(`${name}-${code}-auto`);
    await screenshot(page, `declared-process-generated-code-${lang}`);
    await dialog.getByTestId('process-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const token = await storedToken(page);
    const found = await api<Array<{ code: string }>>(suite.server, 'GET', `/admin/basic/process?name=${encodeURIComponent(`${name}-${code}-auto`)}`, undefined, token);
    expect(found.data).toHaveLength(1);
    expect(found.data[0].code).toMatch(/^GX\d{6}$/);
    await page.locator('tbody').getByText(found.data[0].code, { exact: true }).waitFor();
  });

  it('adds a machine kept by a demo work team, picked by name; the list names the team', async () => {
    // The demo crews are named in Chinese in both languages (they are the tenant's data).
    const team = '电子装配班';
    await page.goto('/basic/equipment');
    await page.locator('tbody').getByText('SB03').waitFor();
    await page.getByTestId('equipment-add').click();
    const dialog = page.getByTestId('equipment-dialog');
    await dialog.getByTestId('equipment-code').fill(`M-${code}`);
    await dialog.getByTestId('equipment-name').fill(`Press-${code}`);
    await dialog.getByTestId('equipment-teamId').click();
    await page.locator('.ant-select-dropdown').getByText(team, { exact: true }).click();
    await screenshot(page, `declared-equipment-dialog-${lang}`);
    await dialog.getByTestId('equipment-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.locator('tbody tr', { hasText: `M-${code}` });
    await row.getByText(team, { exact: true }).waitFor();
    await page.goto('/basic/team');
    await page.locator('tbody').getByText('BZ02').waitFor();
    await screenshot(page, `declared-team-list-${lang}`);
  });

  it('opens a demo routing with its steps, and adds one with two steps in order', async () => {
    await page.goto('/basic/routing');
    const demo = page.locator('tbody tr', { hasText: 'GYLX03' });
    await demo.waitFor();
    await demo.getByTestId(/^row-view-/).click();
    const dialog = page.getByTestId('routing-dialog');
    // The steps come from the detail (the controller's works): three, the first the sheet-metal cut, each naming its team.
    await dialog.getByTestId('routing-steps-2-processId').waitFor();
    await expect.poll(() => dialog.getByTestId('routing-steps-0-processId').textContent()).toContain('钣金下料');
    await screenshot(page, `declared-routing-view-${lang}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('routing-add').click();
    await dialog.getByTestId('routing-name').fill(`Route-${code}`);
    const pick = async (cell: string, text: string) => {
      await dialog.getByTestId(cell).click();
      await page.locator('.ant-select-dropdown:visible').getByText(text, { exact: true }).click();
      // The list closes with an animation: the next cell's list must be the only one open when it is picked from.
      await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    };
    await pick('routing-steps-0-processId', 'SMT贴片');
    await dialog.getByTestId('routing-steps-add').click();
    await pick('routing-steps-1-processId', '整机装配');
    await pick('routing-steps-1-teamId', '总装测试班');
    await dialog.getByTestId('routing-steps-1-standardHours').fill('0.75');
    await screenshot(page, `declared-routing-dialog-${lang}`);
    await dialog.getByTestId('routing-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });

    const token = await storedToken(page);
    const [made] = (await api<Array<{ id: number; code: string }>>(suite.server, 'GET', `/admin/basic/routing?name=Route-${code}`, undefined, token)).data;
    expect(made.code).toMatch(/^GYLX\d{6}$/);
    const detail = await api<{ steps: Array<{ processName: string; teamName: string | null; standardHours: number | null }> }>(suite.server, 'GET', `/admin/basic/routing/${made.id}`, undefined, token);
    expect(detail.data.steps).toEqual([
      expect.objectContaining({ processName: 'SMT贴片', teamName: null, standardHours: null }),
      expect.objectContaining({ processName: '整机装配', teamName: '总装测试班', standardHours: 0.75 }),
    ]);
  });
});
