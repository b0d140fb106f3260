import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startSuite, uniqueName, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * Print templates in the browser, in zh and in en: a purchase order template added on the print template
 * screen (from the type's starter layout, its type's first so its default), copied, the copy made the default.
 */
let suite: Suite;

beforeAll(async () => {
  suite = await startSuite('print-templates');
});
afterAll(async () => {
  await suite?.close();
});

const TEXT = {
  zh: { type: '采购订单', default: '默认' },
  en: { type: 'Purchase order', default: 'Default' },
} as const;

describe.each([
  ['zh', 'zh-CN'],
  ['en', 'en-US'],
] as const)('print templates (%s)', (lang: Lang, locale) => {
  it('adds a template of a bill type, copies it and makes the copy the default', async () => {
    const page = await demoPage(suite, lang, locale);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/system/printTemplate');
    const table = page.getByTestId('print-template-table');
    await table.waitFor();
    const name = uniqueName(lang === 'zh' ? '送货单' : 'Delivery note');
    await page.getByTestId('printTemplate-add').click();
    const dialog = page.getByTestId('print-template-dialog');
    await dialog.getByTestId('print-template-form-billType').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: TEXT[lang].type }).first().click();
    await dialog.getByTestId('print-template-form-name').fill(name);
    await screenshot(page, `print-template-dialog-${lang}`);
    await page.getByTestId('print-template-dialog-submit').click();
    const row = table.locator('tr', { hasText: name });
    await row.waitFor();
    await row.getByTestId(/^row-copy-/).click();
    const copyDialog = page.getByTestId('print-template-copy-dialog');
    const copyName = `${name}-2`;
    await copyDialog.getByTestId('print-template-copy-name').fill(copyName);
    await page.getByTestId('print-template-copy-dialog-submit').click();
    const copyRow = table.locator('tr', { hasText: copyName });
    await copyRow.getByTestId(/^row-default-/).click();
    await copyRow.getByText(TEXT[lang].default, { exact: true }).waitFor();
    await expect(table.locator('tr', { hasText: name }).filter({ hasNotText: copyName }).getByTestId(/^row-default-/).count()).resolves.toBe(1);
    await screenshot(page, `print-template-list-${lang}`);
    expect(errors).toEqual([]);
  });
});
