import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { api, ARTIFACTS, screenshot, startSuite, storedToken, uniqueName, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * Print templates in the browser, in zh and in en: a purchase order template added on the print template
 * screen (from the type's starter layout, its type's first so its default), copied, the copy made the default;
 * a 120-line purchase order printed through it from the bill screen — every page the paper's exact size, the
 * table's header on each, no line cut or lost, subtotals and the total, the print counted on the bill — and
 * printed to PDF by the browser, whose pages are looked at.
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

    // The designer: a barcode dragged onto the footer, moved (snapping to the millimetre grid), undone and
    // redone, its field chosen; the paper turned to A5 landscape; the live preview of a real bill; saved.
    await copyRow.getByTestId(/^row-design-/).click();
    const designer = page.getByTestId('print-designer');
    const footer = designer.getByTestId('designer-band-footer');
    await footer.waitFor();
    // The dialog opens with a zoom: drag once the band has stopped moving.
    let last = '';
    await expect.poll(async () => {
      const now = JSON.stringify(await footer.boundingBox());
      const settled = now === last;
      last = now;
      return settled;
    }).toBe(true);
    await designer.getByTestId('designer-tool-barcode').dragTo(footer, { targetPosition: { x: 200, y: 10 } });
    const props = designer.getByTestId('designer-element-props');
    await props.waitFor();
    // The position field (antd puts the test id on the input itself or on its wrapper, depending on the version).
    const propX = async () => Number(await props.locator('[data-testid="designer-prop-x"]').first().evaluate((el) => (el instanceof HTMLInputElement ? el : el.querySelector('input'))!.value));
    const x = await propX();
    const added = designer.locator('.p8-design-el.selected');
    const box = (await added.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 10 + 3.2 * 20.3, box.y + 5, { steps: 5 });
    await page.mouse.up();
    await expect.poll(propX).toBe(x + 20);
    await designer.getByTestId('designer-undo').click();
    await expect.poll(propX).toBe(x);
    await designer.getByTestId('designer-redo').click();
    await expect.poll(propX).toBe(x + 20);
    await screenshot(page, `print-designer-${lang}`);
    // The page: nothing selected shows the page's properties.
    await designer.getByTestId('designer-page').click({ position: { x: 5, y: 5 } });
    await designer.getByTestId('designer-orientation').getByText(lang === 'zh' ? '横向' : 'landscape').click();
    await designer.getByTestId('designer-mode').getByText(lang === 'zh' ? '预览' : 'Preview').click();
    const sheets = designer.getByTestId('designer-preview').getByTestId('print-page');
    await sheets.first().waitFor();
    await expect(sheets.first().locator('.p8-print-el-barcode svg rect').count()).resolves.toBeGreaterThan(20);
    await expect.poll(async () => sheets.first().boundingBox().then((b) => Math.round(b!.width))).toBe(Math.round((297 * 96) / 25.4));
    await screenshot(page, `print-designer-preview-${lang}`);
    await designer.getByTestId('designer-save').click();
    await designer.waitFor({ state: 'detached' });
    await table.locator('tr', { hasText: copyName }).getByText(lang === 'zh' ? '横向' : 'landscape').waitFor();
    expect(errors).toEqual([]);
  });

  it('prints a 120-line purchase order through its default template, page by page, and counts the print', async () => {
    const page = await demoPage(suite, lang, locale);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The browser's print dialog is not opened in a test: the call is counted, and the PDF made below instead.
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    const token = await storedToken(page);
    const call = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
      const res = await api<T>(suite.server, method, url, body, token);
      if (res.status !== 0) throw new Error(`${method} ${url}: ${res.message} ${JSON.stringify(res.additional ?? '')}`);
      return res.data;
    };
    const supplierId = (await call<Array<{ id: number }>>('GET', '/admin/basic/supplier?current=1&pageSize=1'))[0].id;
    const materials = await call<Array<{ id: number }>>('GET', '/admin/basic/material?current=1&pageSize=5');
    const today = new Date().toISOString().slice(0, 10);
    const lines = Array.from({ length: 120 }, (_, i) => ({ materialId: materials[i % materials.length].id, number: i + 1, unitPrice: 2 }));
    const order = await call<{ id: number; billCode: string }>('POST', '/admin/purchase/order', { billDate: today, supplierId, lines });

    await page.goto('/purchase/order');
    await page.getByTestId('bill-screen-PurchaseOrder').waitFor();
    await page.getByTestId(`bill-open-${order.id}`).click({ timeout: 30_000 });
    await page.getByTestId('bill-print').click();
    const preview = page.getByTestId('bill-print-preview');
    const pages = preview.getByTestId('print-page');
    await pages.first().waitFor();
    const count = await pages.count();
    expect(count).toBeGreaterThan(2);
    // Each page is the paper's size at 96 dpi (once the dialog's opening zoom is over), its table header repeated; every line once, in order.
    // The default template: the one the first test designed (landscape) — the pages are its paper turned its way.
    const [chosen] = await call<Array<{ layout: { paper: { width: number; height: number; orientation: string } } }>>('GET', '/admin/purchase/order/print/templates');
    const { width, height, orientation } = chosen.layout.paper;
    const sheet = orientation === 'landscape' ? [height, width] : [width, height];
    const a4 = sheet.map((v) => Math.round((v * 96) / 25.4));
    await expect.poll(async () => pages.first().boundingBox().then((b) => [Math.round(b!.width), Math.round(b!.height)])).toEqual(a4);
    for (let p = 0; p < count; p++) {
      const box = await pages.nth(p).boundingBox();
      expect([Math.round(box!.width), Math.round(box!.height)]).toEqual(a4);
      await expect(pages.nth(p).locator('thead tr').count()).resolves.toBe(1);
    }
    const numbers = await preview.locator('tr[data-line]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-line'))));
    expect(numbers).toEqual(lines.map((_, i) => i + 1));
    // No row runs past its page's bottom margin.
    const overflow = await preview.getByTestId('print-page').evaluateAll((sheets) =>
      sheets.flatMap((sheet) => {
        const footer = sheet.querySelector('.p8-print-footer')!.getBoundingClientRect().top;
        return Array.from(sheet.querySelectorAll('tbody tr')).filter((row) => row.getBoundingClientRect().bottom > footer + 0.5).map((row) => row.getAttribute('data-line'));
      }),
    );
    expect(overflow).toEqual([]);
    await expect(preview.locator('.p8-print-subtotal').count()).resolves.toBe(count - 1);
    await expect(preview.locator('.p8-print-total').count()).resolves.toBe(1);
    await expect(pages.last().textContent()).resolves.toContain(lang === 'zh' ? `第 ${count} / ${count} 页` : `Page ${count} / ${count}`);
    await expect(preview.locator('.p8-print-el-qrcode svg').count()).resolves.toBe(count);
    await screenshot(page, `print-bill-preview-${lang}`);

    await preview.getByTestId('bill-print-go').click();
    await page.getByTestId('bill-print-root').waitFor({ state: 'attached' });
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await expect.poll(async () => (await call<{ printCount: number }>('GET', `/admin/purchase/order/${order.id}`)).printCount).toBe(1);
    // What the browser prints: only the print root, its sheets one after another.
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, `print-bill-print-${lang}`);
    await page.emulateMedia({ media: null });
    // The browser's own print of the page: as many PDF pages as sheets, each the paper's size.
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    writeFileSync(path.join(ARTIFACTS, `print-bill-${lang}.pdf`), pdf);
    const text = pdf.toString('latin1');
    expect(text.match(/\/Type\s*\/Page[^s]/g)?.length).toBe(count);
    const media = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)/.exec(text)!;
    expect([Math.round(Number(media[1])), Math.round(Number(media[2]))]).toEqual(sheet.map((v) => Math.round((v * 72) / 25.4)));
    expect(errors).toEqual([]);
  });
});
