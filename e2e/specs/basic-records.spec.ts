import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Bom } from '@p8/contract/basic';
// exceljs is a dependency of the server workspace, hoisted to the repository's node_modules.
import ExcelJS from 'exceljs';
import { errorCatalogue } from '@p8/contract/errors';
import { api, DEMO, flatten, screenshot, startSuite, storedToken, waitUntil, type Suite } from '../harness.ts';

/**
 * Issue 4 evidence: basic records through the screens as the administrator — a three-level category
 * tree, a material with a conversion unit and batch tracking, a two-level BOM and its explosion, and an
 * Excel import whose bad rows come back in the batch result notice. Units and the other materials are
 * set up through the API.
 */
let suite: Suite;
let tmp: string;
beforeAll(async () => {
  suite = await startSuite('basic-records');
  tmp = mkdtempSync(path.join(tmpdir(), 'p8-e2e-basic-'));
});
afterAll(async () => {
  await suite?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface CategoryNode {
  id: number;
  name: string;
  level: number;
  children?: CategoryNode[];
}
interface Material {
  id: number;
  code: string;
  name: string;
  batchNumber: boolean;
  units: Array<{ unitId: number; unitName: string; ratio: number; isMain: boolean }>;
}


async function submitDialog(dialog: Locator, testId: string) {
  await dialog.getByTestId(`${testId}-submit`).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Picks an option of the open antd Select / TreeSelect dropdown by its text. */
async function pickOption(page: Page, text: string, tree = false) {
  // Closed dropdowns stay in the DOM, hidden: only a visible option will do.
  const options = page.locator(`.ant-select-dropdown ${tree ? '.ant-select-tree-node-content-wrapper' : '.ant-select-item-option'}`);
  await options.filter({ hasText: text, visible: true }).first().click();
  // Let the dropdown finish closing, so that the next select's options are the only visible ones.
  await waitUntil(() => page.locator('.ant-select-dropdown').filter({ visible: true }).count(), (n) => n === 0, 'the dropdown to close');
}

/** Chooses materials in the open MaterialPicker by code (searched by a keyword). */
async function pickMaterials(page: Page, keyword: string, ids: number[]) {
  const picker = page.getByTestId('material-picker');
  await picker.getByTestId('material-picker-keyword').fill(keyword);
  for (const id of ids) await picker.getByTestId(`material-picker-row-${id}`).click();
  await picker.getByTestId('material-picker-ok').click();
  await picker.waitFor({ state: 'hidden' });
}

/** Exploded requirement shown in the drawer: material code → quantity. */
async function explodedQuantities(page: Page): Promise<Record<string, number>> {
  const rows = page.locator('[data-testid="bom-explode-table"] tbody tr[data-row-key]');
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '')));
  return Object.fromEntries(cells.map((c) => [c[1], Number(c[c.length - 1].replace(/,/g, ''))]));
}

// The tests run in order as one scenario: each builds on the records of the one before.
describe('basic records', () => {
  let token = '';
  let page: Page;
  beforeAll(async () => {
    page = await suite.signedInPage(DEMO);
    token = await storedToken(page);
  });
  const call = async <T,>(method: string, url: string, body?: unknown) => {
    const res = await api<T>(suite.server, method, url, body, token);
    if (res.status !== 0) throw new Error(`${method} ${url}: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
    return res.data;
  };
  const categories: Record<string, CategoryNode> = {};
  const materials: Record<string, Material> = {};
  let pcs = 0;

  it('builds a three-level category tree', async () => {
    await page.goto('/basic/category');
    const dialog = page.getByTestId('category-dialog');
    const names = ['E2E整机', 'E2E部件', 'E2E紧固件'];

    await page.getByTestId('category-add').click();
    await dialog.getByTestId('category-name').fill(names[0]);
    await submitDialog(dialog, 'category-dialog');
    for (const [index, name] of names.entries()) {
      const tree = flatten(await waitUntil(() => call<CategoryNode[]>('GET', '/admin/basic/category/tree'), (t) => flatten(t).some((c) => c.name === name), `category ${name}`));
      categories[name] = tree.find((c) => c.name === name)!;
      expect(categories[name].level).toBe(index + 1);
      const next = names[index + 1];
      if (!next) break;
      // "Add below" on the row just made.
      await page.getByTestId(`row-add-${categories[name].id}`).click();
      await dialog.getByTestId('category-name').fill(next);
      await submitDialog(dialog, 'category-dialog');
    }
    const table = page.getByTestId('category-table');
    for (const name of names) await table.locator('tbody').getByText(name, { exact: true }).waitFor();
    // Three levels at most: the level-3 row offers no "add below".
    expect(await page.getByTestId(`row-add-${categories[names[2]].id}`).isDisabled()).toBe(true);
    await screenshot(page, 'basic-category-tree');
  });

  it('adds a material with a conversion unit and batch tracking', async () => {
    pcs = (await call<{ id: number }>('POST', '/admin/basic/unit', { name: 'E2E个' })).id;
    await call('POST', '/admin/basic/unit', { name: 'E2E箱' });

    await page.goto('/basic/material');
    await page.getByTestId('material-add').click();
    const dialog = page.getByTestId('material-dialog');
    await dialog.getByTestId('material-code').fill('E2E-L1');
    await dialog.getByTestId('material-name').fill('E2E螺钉');
    await dialog.getByTestId('material-category').click();
    await pickOption(page, 'E2E紧固件', true);

    await dialog.getByTestId('material-tab-units').click();
    await dialog.getByTestId('material-unit-0-unit').click();
    await pickOption(page, 'E2E个');
    await dialog.getByTestId('material-unit-add').click();
    await dialog.getByTestId('material-unit-1-unit').click();
    await pickOption(page, 'E2E箱');
    await dialog.getByTestId('material-unit-1-ratio').fill('12');
    await dialog.getByText('1 E2E箱 = 12 E2E个').or(dialog.getByText(/E2E箱.*12.*E2E个/)).first().waitFor();
    await screenshot(page, 'basic-material-units');

    await dialog.getByTestId('material-tab-stock').click();
    await dialog.getByTestId('material-batch-switch').click();
    expect(await dialog.getByTestId('material-batch-switch').getAttribute('aria-checked')).toBe('true');
    await submitDialog(dialog, 'material-dialog');

    const list = await waitUntil(() => call<Material[]>('GET', '/admin/basic/material?current=1&pageSize=50&code=E2E-L1'), (l) => l.length > 0, 'the new material');
    const detail = await call<Material>('GET', `/admin/basic/material/${list[0].id}`);
    expect(detail.batchNumber).toBe(true);
    expect(detail.units.map((u) => [u.unitName, u.ratio, u.isMain])).toEqual([
      ['E2E个', 1, true],
      ['E2E箱', 12, false],
    ]);
    materials['E2E-L1'] = detail;
    await page.locator('[data-testid="material-table"] tbody').getByText('E2E-L1').waitFor();
  });

  it('builds a two-level BOM and explodes it', async () => {
    const base = { partKind: 'standard', batchNumber: false, serialNumber: false, units: [{ unitId: pcs, ratio: 1, isMain: true }] };
    for (const [code, name] of [
      ['E2E-L2', 'E2E垫片'],
      ['E2E-L3', 'E2E外壳'],
      ['E2E-SUB', 'E2E组件'],
      ['E2E-TOP', 'E2E整机'],
    ])
      materials[code] = await call<Material>('POST', '/admin/basic/material', { ...base, code, name });

    // The routing the top level is made by (a declared record with one step).
    const processId = (await call<{ id: number }>('POST', '/admin/basic/process', { code: 'E2E-GX', name: 'E2E总装' })).id;
    await call('POST', '/admin/basic/routing', { code: 'E2E-GY', name: 'E2E总装路线', steps: [{ processId }] });

    await page.goto('/basic/bom');
    const dialog = page.getByTestId('bom-dialog');
    const addBom = async (parent: string, lines: Array<[string, string, string?]>, routing?: string) => {
      await page.getByTestId('bom-add').click();
      await dialog.getByTestId('bom-material-pick').click();
      await pickMaterials(page, parent, [materials[parent].id]);
      await dialog.getByTestId('bom-line-add').click();
      await pickMaterials(
        page,
        'E2E-',
        lines.map(([code]) => materials[code].id),
      );
      for (const [index, [, quantity, itemType]] of lines.entries()) {
        await dialog.getByTestId(`bom-line-${index}-quantity`).fill(quantity);
        if (!itemType) continue;
        // 子项类型: a consumable line (耗材).
        await dialog.getByTestId(`bom-line-${index}-itemType`).click();
        await page.locator('.ant-select-dropdown:visible').getByText(itemType, { exact: true }).click();
        await screenshot(page, 'basic-bom-item-type');
      }
      if (routing) {
        await dialog.getByTestId('bom-routing').click();
        await page.locator('.ant-select-dropdown:visible').getByText(routing, { exact: true }).click();
        await screenshot(page, 'basic-bom-routing');
      }
      await submitDialog(dialog, 'bom-dialog');
    };
    // The sub-assembly first (4 × L1 and 0.5 × L2 per one), then the top level (2 × SUB, 3 × L3).
    await addBom('E2E-SUB', [
      ['E2E-L1', '4'],
      ['E2E-L2', '0.5', '耗材'],
    ]);
    await addBom(
      'E2E-TOP',
      [
        ['E2E-SUB', '2'],
        ['E2E-L3', '3'],
      ],
      'E2E总装路线',
    );

    const boms = await waitUntil(() => call<Bom[]>('GET', '/admin/basic/bom?current=1&pageSize=50'), (l) => l.length >= 2, 'both BOMs');
    const top = boms.find((b) => b.materialCode === 'E2E-TOP')!;
    expect(top).toBeTruthy();
    const sub = await call<{ lines: Array<{ materialCode: string; itemType: string }> }>('GET', `/admin/basic/bom/${boms.find((b) => b.materialCode === 'E2E-SUB')!.id}`);
    expect(sub.lines.map((l) => [l.materialCode, l.itemType])).toEqual([
      ['E2E-L1', 'Standard'],
      ['E2E-L2', 'Consumable'],
    ]);
    expect(top.routingName).toBe('E2E总装路线');
    await page.getByTestId(`row-explode-${top.id}`).click();
    const explode = page.getByTestId('bom-explode');
    await explode.waitFor();
    const forOne = { 'E2E-L1': 8, 'E2E-L2': 1, 'E2E-L3': 3 };
    await waitUntil(() => explodedQuantities(page), (q) => JSON.stringify(q) === JSON.stringify(forOne), 'the requirement for one');
    // For the screenshot: the drawer has finished sliding in (its right edge at the viewport's).
    const drawer = page.locator('.ant-drawer-content-wrapper').filter({ visible: true });
    await waitUntil(async () => (await drawer.boundingBox())?.x ?? 9999, (x) => x <= 1440 - 900, 'the drawer to slide in');
    await screenshot(page, 'basic-bom-explode');

    await explode.getByTestId('bom-explode-quantity').fill('10');
    await explode.getByTestId('bom-explode-run').click();
    const forTen = { 'E2E-L1': 80, 'E2E-L2': 10, 'E2E-L3': 30 };
    await waitUntil(() => explodedQuantities(page), (q) => JSON.stringify(q) === JSON.stringify(forTen), 'the requirement for ten');

    // The multi-level tree follows the sub-assembly's default BOM.
    await page.getByTestId('bom-tab-tree').click();
    const tree = page.getByTestId('bom-tree-table');
    for (const code of ['E2E-TOP', 'E2E-SUB', 'E2E-L1', 'E2E-L2', 'E2E-L3']) await tree.getByText(code, { exact: true }).waitFor();
  });

  it('imports brands from Excel and lists the bad rows in the result notice', async () => {
    // The template's columns (header row only).
    const res = await fetch(`${suite.server.baseURL}/api/base/template/brand.xlsx`);
    expect(res.ok).toBe(true);
    const template = new ExcelJS.Workbook();
    await template.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const header = (template.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    expect(header[0]).toMatch(/名称|name/i);

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sheet1');
    sheet.addRow(header);
    sheet.addRow(['E2E导入品牌A', 1, 'good']);
    sheet.addRow(['', 2, 'no name']); // row 3: the required name is missing
    sheet.addRow(['E2E导入品牌B', 3, 'good']);
    sheet.addRow(['E2E导入品牌C', '第四', 'bad sort']); // row 5: the sort is no number — named by column and text
    const file = path.join(tmp, 'brands.xlsx');
    await book.xlsx.writeFile(file);

    await page.goto('/basic/brand');
    await page.getByTestId('brand-import').click();
    const dialog = page.getByTestId('import-excel');
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.getByTestId('import-excel-submit').click();
    const notice = page.getByTestId('import-result');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain(errorCatalogue.PleaseInputName.zh);
    expect(text).toMatch(/3/);
    expect(text).toMatch(/4[^\d]+2[^\d]+2/); // total 4, 2 in, 2 errors
    expect(text).toContain(`第 5 行「排序」“第四”：${errorCatalogue.ImportCellNotNumber.zh}`);
    await screenshot(page, 'basic-brand-import-result');

    const brands = await call<Array<{ name: string }>>('GET', '/admin/basic/brand?current=1&pageSize=100');
    expect(brands.map((b) => b.name).filter((n) => n.startsWith('E2E导入')).sort()).toEqual(['E2E导入品牌A', 'E2E导入品牌B']);
    await page.locator('tbody').getByText('E2E导入品牌B').waitFor();
    // The import ran as a background job: the job list names it by its screen and workbook, with its counts.
    await page.goto('/system/job');
    const row = page.getByTestId('job-table').locator('tbody tr.ant-table-row').first();
    await waitUntil(() => row.textContent(), (text) => /导入：.+（brands\.xlsx）/.test(text ?? '') && (text ?? '').includes('成功'), 'the import job on the job list');
    await screenshot(page, 'system-jobs-import-zh');
  });
});
