import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { api, ARTIFACTS, screenshot, startSuite, storedToken, uniqueName, type Suite } from '../harness.ts';
import { demoPage, type Lang } from '../bill-steps.ts';

/**
 * Print templates in the browser, in zh and in en: a purchase order template added on the print template
 * screen (from the type's starter layout, its type's first so its default), copied, the copy made the default,
 * designed (a barcode, a serif title); a 120-line purchase order printed through it from the bill screen — every
 * page the paper's exact size, the table's header on each, no line cut or lost, subtotals and the total, the
 * print counted on the bill — and printed to PDF by the browser, whose pages are looked at; three bills of the
 * list printed as one job; the preview, the printed sheet and the downloaded PDF compared pixel by pixel; labels
 * of materials, boxes and locations.
 */
let suite: Suite;

beforeAll(async () => {
  suite = await startSuite('print-templates');
});
afterAll(async () => {
  await suite?.close();
});

/**
 * A signed-in page whose browser print is counted rather than opened (the PDF and the screenshots stand in for
 * the paper), its page errors collected, an API caller with its token, and purchase orders of `n` lines each.
 */
async function printingPage(lang: Lang, locale: string) {
  const page = await demoPage(suite, lang, locale);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
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
  const printed = () => page.evaluate(() => (window as unknown as { printed: number }).printed);
  const order = async (n: number, unitPrice: number) => {
    const supplierId = (await call<Array<{ id: number }>>('GET', '/admin/basic/supplier?current=1&pageSize=1'))[0].id;
    const materials = await call<Array<{ id: number }>>('GET', '/admin/basic/material?current=1&pageSize=5');
    const lines = Array.from({ length: n }, (_, i) => ({ materialId: materials[i % materials.length].id, number: i + 1, unitPrice }));
    return { lines, ...(await call<{ id: number; billCode: string }>('POST', '/admin/purchase/order', { billDate: new Date().toISOString().slice(0, 10), supplierId, lines })) };
  };
  return { page, errors, call, printed, order };
}

/**
 * A sheet's picture in grey, slightly blurred (a line's edge falls on one pixel or its neighbour), cut to
 * `cut`; scaled first to `size` (a PDF page's finer picture to the preview's) when `scale`.
 */
async function greyPixels(png: Buffer, size: { width: number; height: number }, cut: { width: number; height: number }, scale = false): Promise<Buffer> {
  const source = scale ? await sharp(png).resize(size.width, size.height, { fit: 'fill' }).png().toBuffer() : png;
  return sharp(source).flatten({ background: '#ffffff' }).greyscale().extract({ left: 0, top: 0, ...cut }).blur(1).raw().toBuffer();
}

/**
 * The share of pixels two grey pictures differ in by more than a quarter of the grey scale, at the best of the
 * shifts by up to 2 px either way (the screenshots' clips fall on whole pixels of pages placed at fractions of one).
 */
function differingShare(x: Buffer, y: Buffer, width: number, height: number): number {
  let best = 1;
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) {
      let n = 0;
      for (let r = 2; r < height - 2; r++) for (let c = 2; c < width - 2; c++) if (Math.abs(x[r * width + c] - y[(r + dy) * width + c + dx]) > 64) n++;
      best = Math.min(best, n / ((width - 4) * (height - 4)));
    }
  return best;
}

/** Every page's picture of a PDF the print dialog wrote (one RGB picture per page, FlateDecode), as PNGs. */
async function pdfPages(pdf: Buffer): Promise<Buffer[]> {
  const text = pdf.toString('latin1');
  const pictures: Buffer[] = [];
  for (const stream of text.matchAll(/\/Width (\d+) \/Height (\d+) [^>]*\/Length (\d+) >>\nstream\n/g)) {
    const start = stream.index + stream[0].length;
    const pixels = inflateSync(pdf.subarray(start, start + Number(stream[3])));
    pictures.push(await sharp(pixels, { raw: { width: Number(stream[1]), height: Number(stream[2]), channels: 3 } }).png().toBuffer());
  }
  return pictures;
}

/** What one printed sheet of the preview shows. */
interface SheetFacts {
  /** Its size in CSS pixels, rounded. */
  size: number[];
  headRows: number;
  /** Its lines' numbers, in order. */
  lines: number[];
  /** Rows whose bottom is past the footer band's top. */
  cut: number;
  subtotals: number;
  totals: number;
  totalText: string;
  pageNumber: string;
  qrcodes: number;
  texts: string[];
  /** Table headers broken inside a word: the word, as `Quanti/ty`. */
  brokenHeaders: string[];
}

/**
 * Every sheet of the print dialog's preview, each scrolled into view until it is drawn (the preview draws only
 * the sheets near its view), and what it shows — read in one round trip a sheet.
 */
async function sheetsOf(preview: Locator): Promise<SheetFacts[]> {
  const sheets = preview.getByTestId('print-page');
  const count = await sheets.count();
  const facts: SheetFacts[] = [];
  for (let p = 0; p < count; p++) {
    const sheet = sheets.nth(p);
    await sheet.scrollIntoViewIfNeeded();
    await expect.poll(() => sheet.getAttribute('data-drawn'), { message: `sheet ${p + 1} drawn` }).toBe('true');
    facts.push(
      await sheet.evaluate((el): SheetFacts => {
        const box = el.getBoundingClientRect();
        const footer = el.querySelector('.p8-print-footer')!.getBoundingClientRect().top;
        const rows = Array.from(el.querySelectorAll('tbody tr'));
        // A header word is broken when its letters lie on more than one line.
        const brokenHeaders: string[] = [];
        for (const th of Array.from(el.querySelectorAll('thead th div'))) {
          const node = th.firstChild;
          if (!node || node.nodeType !== Node.TEXT_NODE) continue;
          const text = node.textContent ?? '';
          for (const word of text.matchAll(/[A-Za-z0-9.()%/-]{2,}/g)) {
            const tops = new Set<number>();
            for (let i = word.index; i < word.index + word[0].length; i++) {
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const rect = range.getBoundingClientRect();
              if (rect.height) tops.add(Math.round(rect.top));
            }
            if (tops.size > 1) brokenHeaders.push(word[0]);
          }
        }
        return {
          size: [Math.round(box.width), Math.round(box.height)],
          headRows: el.querySelectorAll('thead tr').length,
          lines: Array.from(el.querySelectorAll('tr[data-line]')).map((r) => Number(r.getAttribute('data-line'))),
          cut: rows.filter((r) => r.getBoundingClientRect().bottom > footer + 0.5).length,
          subtotals: el.querySelectorAll('.p8-print-subtotal').length,
          totals: el.querySelectorAll('.p8-print-total').length,
          totalText: el.querySelector('.p8-print-total')?.textContent ?? '',
          pageNumber: el.querySelector('.p8-print-el-pageNumber')?.textContent ?? '',
          qrcodes: el.querySelectorAll('.p8-print-el-qrcode svg').length,
          texts: Array.from(el.querySelectorAll('.p8-print-el-text')).map((t) => t.textContent ?? ''),
          brokenHeaders,
        };
      }),
    );
  }
  return facts;
}

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
    // The title in the serif CJK face, the table in monospace: the designer, the preview and the print draw them so.
    const title = designer.locator('div.p8-design-el.p8-design-el-text').first();
    await title.click();
    await designer.getByTestId('designer-prop-family').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(1).click();
    await expect.poll(() => title.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Noto Serif CJK SC');
    await screenshot(page, `print-designer-${lang}`);
    // The page: nothing selected shows the page's properties.
    await designer.getByTestId('designer-page').click({ position: { x: 5, y: 5 } });
    await designer.getByTestId('designer-orientation').getByText(lang === 'zh' ? '横向' : 'landscape').click();
    await designer.getByTestId('designer-mode').getByText(lang === 'zh' ? '预览' : 'Preview').click();
    const sheets = designer.getByTestId('designer-preview').getByTestId('print-page');
    await sheets.first().waitFor();
    await expect(sheets.first().locator('.p8-print-el-barcode svg rect').count()).resolves.toBeGreaterThan(20);
    await expect(sheets.first().locator('div.p8-print-el-text').first().evaluate((el) => getComputedStyle(el).fontFamily)).resolves.toContain('Noto Serif CJK SC');
    await expect.poll(async () => sheets.first().boundingBox().then((b) => Math.round(b!.width))).toBe(Math.round((297 * 96) / 25.4));
    await screenshot(page, `print-designer-preview-${lang}`);
    await designer.getByTestId('designer-save').click();
    await designer.waitFor({ state: 'detached' });
    await table.locator('tr', { hasText: copyName }).getByText(lang === 'zh' ? '横向' : 'landscape').waitFor();
    expect(errors).toEqual([]);
  });

  it('prints a 120-line purchase order through its default template, page by page, and counts the print', async () => {
    const { page, errors, call, printed, order: make } = await printingPage(lang, locale);
    const order = await make(120, 2);
    const { lines } = order;

    await page.goto('/purchase/order');
    await page.getByTestId('bill-screen-PurchaseOrder').waitFor();
    await page.getByTestId(`bill-open-${order.id}`).click({ timeout: 30_000 });
    // The bill form settles first (slow on a busy machine).
    await page.getByTestId('bill-print').click({ timeout: 45_000 });
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
    await screenshot(page, `print-bill-preview-${lang}`);
    const facts = await sheetsOf(preview);
    expect(facts.map((f) => f.size)).toEqual(facts.map(() => a4));
    expect(facts.map((f) => f.headRows)).toEqual(facts.map(() => 1));
    expect(facts.flatMap((f) => f.lines)).toEqual(lines.map((_, i) => i + 1));
    // No row runs past its page's bottom margin; no header broken inside a word.
    expect(facts.map((f) => f.cut)).toEqual(facts.map(() => 0));
    expect(facts.flatMap((f) => f.brokenHeaders)).toEqual([]);
    expect(facts.map((f) => [f.subtotals, f.totals])).toEqual(facts.map((_, p) => (p < count - 1 ? [1, 0] : [0, 1])));
    expect(facts[count - 1].pageNumber).toBe(lang === 'zh' ? `第 ${count} / ${count} 页` : `Page ${count} / ${count}`);
    expect(facts.map((f) => f.qrcodes)).toEqual(facts.map(() => 1));

    await preview.getByTestId('bill-print-go').click();
    await page.getByTestId('bill-print-root').waitFor({ state: 'attached' });
    await expect.poll(printed).toBe(1);
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

  it('designs a delivery note for sale out-stocks with a QR code of the customer, prints a 120-line out-stock to PDF and looks at every page', async () => {
    const { page, errors, call } = await printingPage(lang, locale);
    // Tall enough for a whole sheet inside the dialog: each page's element screenshot is not clipped.
    await page.setViewportSize({ width: 1440, height: 2000 });
    const words = lang === 'zh' ? { type: '销售出库', note: '送货单', customer: '客户', page: (x: number, y: number) => `第 ${x} / ${y} 页` } : { type: 'Sale out-stock', note: 'Delivery note', customer: 'Customer', page: (x: number, y: number) => `Page ${x} / ${y}` };

    // The template: added for the sale out-stock from its starter, titled a delivery note, a QR code of the
    // customer dropped on its header beside the code's, saved.
    await page.goto('/system/printTemplate');
    const table = page.getByTestId('print-template-table');
    await table.waitFor();
    const name = uniqueName(words.note);
    await page.getByTestId('printTemplate-add').click();
    const dialog = page.getByTestId('print-template-dialog');
    // The types are many (a virtual list): the one wanted is searched for.
    await dialog.getByTestId('print-template-form-billType').click();
    await page.keyboard.type(words.type);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: words.type }).first().click();
    await dialog.getByTestId('print-template-form-name').fill(name);
    await page.getByTestId('print-template-dialog-submit').click();
    const row = table.locator('tr', { hasText: name });
    await row.waitFor();
    await row.getByTestId(/^row-design-/).click();
    const designer = page.getByTestId('print-designer');
    const header = designer.getByTestId('designer-band-header');
    await header.waitFor();
    let last = '';
    await expect.poll(async () => {
      const now = JSON.stringify(await header.boundingBox());
      const settled = now === last;
      last = now;
      return settled;
    }).toBe(true);
    const title = designer.locator('div.p8-design-el.p8-design-el-text').first();
    await title.click();
    await designer.getByTestId('designer-prop-text').fill(words.note);
    const headerBox = (await header.boundingBox())!;
    await designer.getByTestId('designer-tool-qrcode').dragTo(header, { targetPosition: { x: headerBox.width - 40 * 3.2, y: 10 } });
    const props = designer.getByTestId('designer-element-props');
    await props.waitFor();
    await props.getByTestId('designer-prop-field').click();
    await page.keyboard.type(words.customer);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${words.customer}$`) }).first().click();
    await expect.poll(() => designer.locator('.p8-design-el-qrcode').count()).toBe(2);
    await screenshot(page, `print-delivery-designer-${lang}`);
    await designer.getByTestId('designer-save').click();
    await designer.waitFor({ state: 'detached' });
    const [saved] = (await call<Array<{ id: number; name: string; layout: { header: { elements: Array<{ type: string; field?: string; text?: string }> } } }>>('GET', '/admin/sale/outstock/print/templates')).filter((c) => c.name === name);
    expect(saved.layout.header.elements.filter((e) => e.type === 'qrcode').map((e) => e.field).sort()).toEqual(['billCode', 'customerId']);
    expect(saved.layout.header.elements.some((e) => e.type === 'text' && e.text === words.note)).toBe(true);

    // A 120-line sale out-stock (a direct one: the tenant's switch), its lines' materials in turn.
    await call('PUT', '/admin/admin/tenant', { openDirectOutstock: true });
    const [customer] = await call<Array<{ id: number; name: string }>>('GET', '/admin/basic/customer?current=1&pageSize=1');
    const [warehouse] = await call<Array<{ id: number }>>('GET', '/admin/basic/stock?current=1&pageSize=1');
    const materials = await call<Array<{ id: number }>>('GET', '/admin/basic/material?current=1&pageSize=5');
    const lines = Array.from({ length: 120 }, (_, i) => ({ materialId: materials[i % materials.length].id, number: (i % 7) + 1, unitPrice: 3, warehouseId: warehouse.id }));
    const outstock = await call<{ id: number; billCode: string }>('POST', '/admin/sale/outstock', { billDate: new Date().toISOString().slice(0, 10), customerId: customer.id, warehouseId: warehouse.id, lines });

    await page.goto('/sale/outstock');
    await page.getByTestId('bill-screen-SaleOutstock').waitFor();
    await page.getByTestId(`bill-open-${outstock.id}`).click({ timeout: 30_000 });
    // The bill form settles first (slow on a busy machine).
    await page.getByTestId('bill-print').click({ timeout: 45_000 });
    const preview = page.getByTestId('bill-print-preview');
    const sheets = preview.getByTestId('print-page');
    await sheets.first().waitFor();
    await preview.getByTestId('bill-print-template').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).click();
    await expect.poll(() => preview.locator('.p8-print-el-text').filter({ hasText: words.note }).count()).toBeGreaterThan(0);
    last = '';
    await expect.poll(async () => {
      const now = JSON.stringify(await sheets.first().boundingBox());
      const settled = now === last;
      last = now;
      return settled;
    }).toBe(true);
    const count = await sheets.count();
    expect(count).toBeGreaterThan(2);

    // Every page: A4 portrait; the header band with both QR codes and the delivery note's title; the table's
    // header row, no header broken inside a word; whole rows only, none past the footer; a subtotal at the foot
    // of every page but the last, the grand total on the last only; "page x / y" in the footer.
    const a4 = [Math.round((210 * 96) / 25.4), Math.round((297 * 96) / 25.4)];
    const facts = await sheetsOf(preview);
    for (const [p, f] of facts.entries()) {
      expect(f.size, `page ${p + 1}`).toEqual(a4);
      expect(f.qrcodes, `page ${p + 1}`).toBe(2);
      expect(f.texts.filter((t) => t.includes(words.note)).length, `page ${p + 1}`).toBe(1);
      expect(f.headRows, `page ${p + 1}`).toBe(1);
      expect(f.brokenHeaders, `page ${p + 1}`).toEqual([]);
      expect([f.subtotals, f.totals], `page ${p + 1}`).toEqual(p < count - 1 ? [1, 0] : [0, 1]);
      expect(f.pageNumber).toBe(words.page(p + 1, count));
      expect(f.cut, `page ${p + 1}: rows past the footer`).toBe(0);
    }
    expect(facts.flatMap((f) => f.lines)).toEqual(lines.map((_, i) => i + 1));
    // The grand total is the bill's quantity.
    const quantity = lines.reduce((s, l) => s + l.number, 0);
    expect(facts[count - 1].totalText).toContain(String(quantity));
    const shown: Buffer[] = [];
    for (let p = 0; p < count; p++) {
      await sheets.nth(p).scrollIntoViewIfNeeded();
      await expect.poll(() => sheets.nth(p).getAttribute('data-drawn')).toBe('true');
      shown.push(await sheets.nth(p).screenshot({ animations: 'disabled' }));
      writeFileSync(path.join(ARTIFACTS, `print-delivery-${lang}-sheet-${p + 1}.png`), shown[p]);
    }

    // The PDF: a page per sheet, each A4, each page's picture the sheet it was drawn from.
    // Drawing every page at 200 dpi takes a while on a busy machine.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 180_000 }), preview.getByTestId('bill-print-pdf').click()]);
    expect(download.suggestedFilename()).toBe(`${outstock.billCode}.pdf`);
    const pdf = readFileSync((await download.path())!);
    writeFileSync(path.join(ARTIFACTS, `print-delivery-${lang}.pdf`), pdf);
    const text = pdf.toString('latin1');
    expect(text.match(/\/Type \/Page\b/g)?.length).toBe(count);
    for (const media of text.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)) expect([Math.round(Number(media[1])), Math.round(Number(media[2]))]).toEqual([595, 842]);
    const pictures = await pdfPages(pdf);
    expect(pictures.length).toBe(count);
    for (let p = 0; p < count; p++) {
      writeFileSync(path.join(ARTIFACTS, `print-delivery-${lang}-pdf-${p + 1}.png`), pictures[p]);
      const size = await sharp(shown[p]).metadata();
      const cut = { width: size.width!, height: size.height! };
      const share = differingShare(await greyPixels(shown[p], cut, cut), await greyPixels(pictures[p], cut, cut, true), cut.width, cut.height);
      expect(share, `PDF page ${p + 1} against its sheet`).toBeLessThan(0.025);
    }
    await expect.poll(async () => (await call<{ printCount: number }>('GET', `/admin/sale/outstock/${outstock.id}`)).printCount).toBe(1);
    expect(errors).toEqual([]);
  }, 400_000);

  it("prints a selection of the list as one job, each bill on pages of its own numbered by themselves, and counts each bill's print", async () => {
    const { page, errors, call, printed, order: make } = await printingPage(lang, locale);
    const orders = [];
    for (const n of [2, 70, 5]) orders.push(await make(n, 3));

    await page.goto('/purchase/order');
    await page.getByTestId('bill-screen-PurchaseOrder').waitFor();
    for (const order of orders) await page.locator(`tr[data-row-key="${order.id}"] .ant-checkbox-input`).click({ timeout: 30_000 });
    await page.getByTestId('bill-print-batch').click();
    const preview = page.getByTestId('bill-print-preview');
    await expect.poll(() => preview.getByTestId('bill-print-caption').count(), { timeout: 20_000 }).toBe(3);
    await screenshot(page, `print-batch-preview-${lang}`);
    // Each bill starts on a page of its own and numbers its pages by itself: 1 / 1, then 1 / n … n / n, then 1 / 1.
    const facts = await sheetsOf(preview);
    const numbers = facts.map((f) => f.pageNumber);
    const pageOf = (text: string) => /(\d+) \/ (\d+)/.exec(text)!.slice(1).map(Number);
    const runs: number[][] = [];
    for (const [x, y] of numbers.map(pageOf)) {
      if (x === 1) runs.push([]);
      runs[runs.length - 1].push(y);
    }
    expect(runs.length).toBe(3);
    expect(runs[0]).toEqual([1]);
    expect(runs[1].length).toBeGreaterThan(1);
    expect(runs[1].every((y) => y === runs[1].length)).toBe(true);
    expect(runs[2]).toEqual([1]);
    const count = numbers.length;
    await expect(preview.getByTestId('bill-print-pages').textContent()).resolves.toContain(String(count));
    // Every bill's own lines, each once, and its own code on its own pages.
    const lineNumbers = facts.flatMap((f) => f.lines);
    expect(lineNumbers).toEqual([2, 70, 5].flatMap((n) => Array.from({ length: n }, (_, i) => i + 1)));

    await preview.getByTestId('bill-print-go').click();
    const root = page.getByTestId('bill-print-root');
    await root.waitFor({ state: 'attached' });
    await expect.poll(printed).toBe(1);
    await expect(root.getByTestId('print-page').count()).resolves.toBe(count);
    for (const order of orders) await expect.poll(async () => (await call<{ printCount: number }>('GET', `/admin/purchase/order/${order.id}`)).printCount).toBe(1);
    expect(errors).toEqual([]);
  });

  it('draws the same page in the preview, on the printed sheet and in the downloaded PDF', async () => {
    const { page, errors, call, order: make } = await printingPage(lang, locale);
    // Tall enough for a whole sheet inside the dialog: element screenshots of the pages are not clipped.
    await page.setViewportSize({ width: 1440, height: 2000 });
    const order = await make(30, 4);

    await page.goto('/purchase/order');
    await page.getByTestId(`bill-open-${order.id}`).click({ timeout: 30_000 });
    // The bill form settles first (slow on a busy machine).
    await page.getByTestId('bill-print').click({ timeout: 45_000 });
    const preview = page.getByTestId('bill-print-preview');
    const sheets = preview.getByTestId('print-page');
    await sheets.first().waitFor();
    let last = '';
    await expect.poll(async () => {
      const now = JSON.stringify(await sheets.first().boundingBox());
      const settled = now === last;
      last = now;
      return settled;
    }).toBe(true);
    const pageCount = await sheets.count();
    const shown = await sheets.first().screenshot({ animations: 'disabled' });
    writeFileSync(path.join(ARTIFACTS, `print-same-preview-${lang}.png`), shown);

    // The PDF: a real download, one page per sheet, each page the sheet's size, its picture the sheet.
    const [download] = await Promise.all([page.waitForEvent('download'), preview.getByTestId('bill-print-pdf').click()]);
    expect(download.suggestedFilename()).toBe(`${order.billCode}.pdf`);
    const pdf = readFileSync((await download.path())!);
    writeFileSync(path.join(ARTIFACTS, `print-same-${lang}.pdf`), pdf);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)?.length).toBe(pageCount);
    const box = (await sheets.first().boundingBox())!;
    const media = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(text)!;
    expect([Math.round(Number(media[1])), Math.round(Number(media[2]))]).toEqual([Math.round((box.width * 72) / 96), Math.round((box.height * 72) / 96)]);
    const stream = /\/Width (\d+) \/Height (\d+) [^>]*\/Length (\d+) >>\nstream\n/.exec(text)!;
    const start = stream.index + stream[0].length;
    const pixels = inflateSync(pdf.subarray(start, start + Number(stream[3])));
    const pdfPicture = await sharp(pixels, { raw: { width: Number(stream[1]), height: Number(stream[2]), channels: 3 } }).png().toBuffer();
    writeFileSync(path.join(ARTIFACTS, `print-same-pdf-${lang}.png`), pdfPicture);
    await expect.poll(async () => (await call<{ printCount: number }>('GET', `/admin/purchase/order/${order.id}`)).printCount).toBe(1);

    // The printed sheet: what the browser prints (print media, only the print root).
    await preview.getByTestId('bill-print-go').click();
    const root = page.getByTestId('bill-print-root');
    await root.waitFor({ state: 'attached' });
    await page.emulateMedia({ media: 'print' });
    const printed = await root.getByTestId('print-page').first().screenshot({ animations: 'disabled' });
    await page.emulateMedia({ media: null });
    writeFileSync(path.join(ARTIFACTS, `print-same-printed-${lang}.png`), printed);

    // Pixel by pixel in grey, slightly blurred (a line's edge falls on one pixel or its neighbour), at the best of
    // the shifts by up to 2 px either way (the screenshots' clips fall on whole pixels of pages placed at
    // fractions of one): the printed sheet differs from the preview in at most 1.5% of its pixels, the PDF's page
    // (its finer picture scaled down to the preview's size) in at most 2.5% — by more than a quarter of the grey
    // scale. The preview moved down by 2 mm differs in far more.
    const size = await sharp(shown).metadata();
    const printedSize = await sharp(printed).metadata();
    const [width, height] = [Math.min(size.width!, printedSize.width!), Math.min(size.height!, printedSize.height!)];
    const grey = (png: Buffer, scale = false) => greyPixels(png, { width: size.width!, height: size.height! }, { width, height }, scale);
    const differing = (x: Buffer, y: Buffer) => differingShare(x, y, width, height);
    const base = await grey(shown);
    expect(differing(base, await grey(printed)), 'the printed sheet against the preview').toBeLessThan(0.015);
    expect(differing(base, await grey(pdfPicture, true)), "the PDF's page against the preview").toBeLessThan(0.025);
    const moved = await sharp(shown).extend({ top: 8, background: '#ffffff' }).extract({ left: 0, top: 0, width: size.width!, height: size.height! }).png().toBuffer();
    expect(differing(base, await grey(moved))).toBeGreaterThan(0.05);
    expect(errors).toEqual([]);
  });

  it('prints labels of selected materials N-up (copies per record), box labels numbered, and labels of locations', async () => {
    const { page, errors, printed } = await printingPage(lang, locale);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto('/basic/material');
    const table = page.getByTestId('material-table');
    const rows = table.locator('tbody tr[data-row-key]');
    await rows.first().waitFor();
    const ids = await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.getAttribute('data-row-key')!));
    for (const id of ids) await table.locator(`tr[data-row-key="${id}"] .ant-checkbox-input`).click();
    await page.getByTestId('material-labels').click();
    const dialog = page.getByTestId('label-print');
    const sheets = dialog.getByTestId('label-print-sheets');
    // A number box by its test id (antd puts it on the input itself or on its wrapper, depending on the version).
    const box = (id: string) => dialog.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
    await sheets.locator('[data-label]').first().waitFor();
    // The starter sheet: 3 × 8 labels of 70 × 36 mm on A4, a barcode of each material's code.
    await expect(sheets.locator('[data-label]').count()).resolves.toBe(2);
    await expect(sheets.locator('.p8-print-barcode').count()).resolves.toBe(2);
    const a4 = [Math.round((210 * 96) / 25.4), Math.round((297 * 96) / 25.4)];
    await expect.poll(async () => sheets.getByTestId('print-page').first().boundingBox().then((b) => [Math.round(b!.width), Math.round(b!.height)])).toEqual(a4);
    // 30 copies of the first: 31 labels over two sheets of 24.
    await box(`label-copies-${ids[0]}`).fill('30');
    await expect.poll(() => sheets.locator('[data-label]').count()).toBe(31);
    await expect(sheets.getByTestId('print-page').count()).resolves.toBe(2);
    const slots = await sheets.locator('.p8-label-slot').evaluateAll((els) => els.slice(0, 4).map((el) => [(el as HTMLElement).style.left, (el as HTMLElement).style.top]));
    expect(slots).toEqual([
      ['0mm', '4.5mm'],
      ['70mm', '4.5mm'],
      ['140mm', '4.5mm'],
      ['0mm', '40.5mm'],
    ]);
    await screenshot(page, `print-labels-material-${lang}`);
    await dialog.getByTestId('label-print-go').click();
    const root = page.getByTestId('label-print-root');
    await root.waitFor({ state: 'attached' });
    await expect.poll(printed).toBe(1);
    await expect(root.getByTestId('print-page').count()).resolves.toBe(2);
    // The PDF of the same sheets.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('label-print-pdf').click()]);
    const pdf = readFileSync((await download.path())!).toString('latin1');
    expect(pdf.match(/\/Type \/Page\b/g)?.length).toBe(2);

    // Box labels: three boxes of the second material, 50 a box, numbered 1 / 3 … 3 / 3 under a QR code.
    await dialog.getByTestId('label-print-kind').getByText(lang === 'zh' ? '箱标签' : 'Box label').click();
    await box(`label-copies-${ids[0]}`).fill('0');
    await box(`label-copies-${ids[1]}`).fill('3');
    await dialog.getByTestId(`label-per-box-${ids[1]}`).fill('50');
    await expect.poll(() => sheets.locator('[data-label]').count()).toBe(3);
    await expect(sheets.locator('[data-field="boxNo"]').allTextContents()).resolves.toEqual(['1 / 3', '2 / 3', '3 / 3'].map((n) => `${lang === 'zh' ? '箱号：' : 'Box: '}${n}`));
    await expect(sheets.locator('[data-field="perBox"]').first().textContent()).resolves.toContain('50');
    await expect(sheets.locator('.p8-label-qrcode svg').count()).resolves.toBe(3);
    // Kept as a template of the tenant: saved under a name, offered next time, the default of its kind.
    await dialog.getByTestId('label-print-save-as').click();
    const name = uniqueName(lang === 'zh' ? '大箱' : 'Big box');
    await dialog.getByTestId('label-print-save-as-name').fill(name);
    await dialog.getByTestId('label-print-save-as-ok').click();
    await dialog.getByTestId('label-print-template').getByText(name).waitFor();
    await screenshot(page, `print-labels-box-${lang}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/basic/location');
    const locations = page.getByTestId('location-table');
    const first = locations.locator('tbody tr[data-row-key]').first();
    await first.waitFor();
    await first.locator('.ant-checkbox-input').click();
    await page.getByTestId('location-labels').click();
    await page.getByTestId('label-print-sheets').locator('.p8-label-qrcode svg').first().waitFor();
    await screenshot(page, `print-labels-location-${lang}`);
    expect(errors).toEqual([]);
  });

  it("offers a receipt template's bill to the tenant's cloud printers, and shows the provider's refusal in the user's language", async () => {
    const { page, errors, call, order: make } = await printingPage(lang, locale);
    const order = await make(4, 5);
    const name = uniqueName(lang === 'zh' ? '小票' : 'Receipt');
    const text = (id: string, words: string, y: number) => ({ id, type: 'text', text: words, x: 0, y, w: 72, h: 6, fontSize: 12, bold: true, align: 'center' });
    await call('POST', '/admin/system/printTemplate', {
      billType: 'PurchaseOrder',
      name,
      layout: {
        version: 1,
        paper: { kind: 'Receipt80', width: 80, height: 200, orientation: 'portrait', margin: { top: 2, right: 2, bottom: 2, left: 2 } },
        header: { height: 8, elements: [text('title', name, 0)] },
        table: { columns: [{ key: '#', width: 8 }, { key: 'materialId', width: 40 }, { key: 'number', width: 14 }], fontSize: 8, subtotals: false, total: true },
        footer: { height: 8, elements: [text('thanks', lang === 'zh' ? '谢谢惠顾' : 'Thank you', 0)] },
      },
    });
    const printer = await call<{ id: number; name: string }>('POST', '/admin/system/printer', { name: uniqueName('Till'), provider: 'feie', sn: uniqueName('SN'), printerKey: 'key-1', copies: 1 });

    await page.goto('/purchase/order');
    await page.getByTestId(`bill-open-${order.id}`).click({ timeout: 30_000 });
    // The bill form settles first (slow on a busy machine).
    await page.getByTestId('bill-print').click({ timeout: 45_000 });
    const preview = page.getByTestId('bill-print-preview');
    await preview.getByTestId('print-page').first().waitFor();
    // The receipt template offers the tenant's cloud printers, its roll one page as long as the bill.
    await preview.getByTestId('bill-print-template').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).click();
    await preview.getByTestId('bill-print-cloud').waitFor();
    await expect(preview.getByTestId('bill-print-printer').textContent()).resolves.toContain(printer.name);
    await expect(preview.getByTestId('print-page').count()).resolves.toBe(1);
    // The test server has no cloud printing account: the refusal comes back catalogued, and nothing is counted.
    await preview.getByTestId('bill-print-cloud').click();
    await page.getByText(lang === 'zh' ? '未配置云打印服务' : 'No cloud printing service is configured').first().waitFor();
    await screenshot(page, `print-receipt-cloud-${lang}`);
    expect((await call<{ printCount: number }>('GET', `/admin/purchase/order/${order.id}`)).printCount).toBe(0);
    expect(errors).toEqual([]);
  });
});
