import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 9 ("districts are empty"): a fresh start shows China's administrative divisions on the district
 * screen (opened level by level, searched by name) and in a supplier address, where a region is picked
 * level by level and saved by its code.
 */
let suite: Suite;
beforeAll(async () => {
  suite = await startSuite('regions');
});
afterAll(async () => {
  await suite?.close();
});

/** Clicks an entry of the open cascader's menu column `column` (0 = provinces) and waits for the next column when it has one. */
async function pickLevel(page: Page, column: number, text: string, opensNext: boolean) {
  const menus = page.locator('.ant-cascader-dropdown').filter({ visible: true }).locator('.ant-cascader-menu');
  await menus.nth(column).locator('.ant-cascader-menu-item').filter({ hasText: text }).first().click();
  if (opensNext) await waitUntil(() => menus.nth(column + 1).locator('.ant-cascader-menu-item').count(), (n) => n > 0, `the level below ${text}`);
}

async function switchLanguage(page: Page, lang: 'en' | 'zh') {
  await page.getByTestId('header-lang').click();
  await page.getByTestId(`lang-${lang}`).click();
}

describe('national regions', () => {
  it('shows the regions on the district screen, level by level and by search, in zh and en', async () => {
    const page = await suite.signedInPage(DEMO, { viewport: { width: 1440, height: 900 } });
    await page.goto('/basic/district');
    const tree = page.getByTestId('region-tree');
    await tree.getByText('广东省').waitFor();
    expect(await tree.locator('tbody tr.ant-table-row').count()).toBe(34);
    // Open 广东省 and 深圳市: each level is asked for as it opens.
    await tree.locator('tr', { hasText: '广东省' }).locator('.ant-table-row-expand-icon').click();
    await tree.getByText('深圳市').waitFor();
    await tree.locator('tr', { hasText: '深圳市' }).locator('.ant-table-row-expand-icon').click();
    await tree.getByText('南山区').waitFor();
    // The package's placeholder "市辖区" is not offered: the city goes straight to its districts.
    expect(await tree.locator('tr', { hasText: '市辖区' }).count()).toBe(0);
    await screenshot(page, 'regions-zh-tree');

    await page.getByTestId('region-search').locator('input').fill('南山区');
    await page.getByTestId('region-search').locator('input').press('Enter');
    const matches = page.getByTestId('region-matches');
    await matches.getByText('广东省 / 深圳市 / 南山区').waitFor();
    await screenshot(page, 'regions-zh-search');

    await switchLanguage(page, 'en');
    await page.getByRole('tab', { name: 'National regions' }).waitFor();
    // English names where known (every province; the other levels with the pinyin package), else Chinese.
    await matches.getByText(/^Guangdong \/ (Shenzhen|深圳市) \/ (Nanshan District|南山区)$/).waitFor();
    await screenshot(page, 'regions-en-search');
    await page.getByTestId('region-search').locator('input').fill('');
    await page.getByTestId('region-search').locator('input').press('Enter');
    await tree.getByText('Guangdong', { exact: true }).waitFor();
    await tree.getByText('Beijing', { exact: true }).waitFor();
    await screenshot(page, 'regions-en-tree');
    await page.getByRole('tab', { name: 'Own districts' }).click();
    await screenshot(page, 'regions-en-own');
    await switchLanguage(page, 'zh');
  });

  it('picks a region level by level in a supplier address and saves its code', async () => {
    const page = await suite.signedInPage(DEMO, { viewport: { width: 1440, height: 900 } });
    await page.goto('/basic/supplier');
    await page.getByTestId('supplier-add').click();
    const dialog = page.getByTestId('partner-dialog');
    const name = `区划供应商${Date.now()}`;
    await dialog.getByTestId('partner-form-name').fill(name);
    await dialog.getByTestId('partner-tab-addresses').click();
    await dialog.getByTestId('partner-address-add').click();
    await dialog.getByTestId('partner-address-district-0').click();
    await pickLevel(page, 0, '广东省', true);
    await pickLevel(page, 1, '深圳市', true);
    const districts = page.locator('.ant-cascader-dropdown').filter({ visible: true }).locator('.ant-cascader-menu').nth(2);
    expect(await districts.locator('.ant-cascader-menu-item').filter({ hasText: '市辖区' }).count()).toBe(0);
    await pickLevel(page, 2, '南山区', true);
    await screenshot(page, 'regions-zh-supplier-cascader');
    await page.keyboard.press('Escape');
    await dialog.getByTestId('partner-address-detail-0').fill('科技园 1 号');
    await expect.poll(() => dialog.getByTestId('partner-address-district-0').textContent()).toContain('南山区');
    await dialog.getByTestId('partner-dialog-submit').click();
    await dialog.waitFor({ state: 'hidden' });

    const token = await storedToken(page);
    const list = await api<Array<{ id: number }>>(suite.server, 'GET', `/admin/basic/supplier?name=${encodeURIComponent(name)}`, undefined, token);
    expect(list.data).toHaveLength(1);
    const detail = await api<{ addresses: Array<{ regionCode: string | null; regionPath: Array<{ name: string }>; address: string }> }>(
      suite.server,
      'GET',
      `/admin/basic/supplier/${list.data[0].id}`,
      undefined,
      token,
    );
    expect(detail.data.addresses).toEqual([expect.objectContaining({ regionCode: '440305', address: '科技园 1 号' })]);
    expect(detail.data.addresses[0].regionPath.map((p) => p.name)).toEqual(['广东省', '深圳市', '南山区']);

    // Opening it again shows the stored region's names.
    await page.getByTestId('supplier-table').getByText(name).waitFor();
  });
});
