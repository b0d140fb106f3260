import { describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { microText, sum, toMicro } from '@p8/contract/bills/decimal';
import { presetPaper, starterTemplate, type PrintLayout } from '@p8/contract/print/template';
import { buildPrintModel, headerText, pageRules, receiptLinesOf, type PrintContext } from './print-model.ts';

const ORDER = billType('PurchaseOrder')!;
const ctx: PrintContext = { lang: 'zh', digits: { numberRetainsSmallDigit: 2, amountRetainsSmallDigit: 2 }, company: { name: '测试公司', slogan: '品质第一', phone: '010-1' }, user: '张三', printedAt: '2026-11-28 10:00' };

/** A purchase order of `n` lines, some with long material names. */
function order(n: number) {
  return {
    id: 1,
    billCode: 'CGDD-1',
    billStatus: 'Audit',
    supplierName: '供应商甲',
    priceTotal: 0,
    lines: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      materialCode: `M${i}`,
      materialName: i % 7 === 0 ? '不锈钢六角螺栓组件（含垫片、弹簧垫圈与防松螺母）'.repeat(2) : '螺丝',
      specification: 'M8',
      unitName: '个',
      number: i + 1,
      unitPrice: 1.5,
      priceTotal: (i + 1) * 1.5,
    })),
  };
}

describe('print model', () => {
  it('splits a long bill into pages whose lines fit, repeats nothing and loses nothing, sums each page and the whole', () => {
    const layout = starterTemplate(ORDER, 'zh');
    const bill = order(300);
    const model = buildPrintModel(layout, ORDER, bill as never, ctx);
    expect(model.pages.length).toBeGreaterThan(5);
    expect(model.pages.flatMap((p) => Array.from({ length: p.to - p.from }, (_, i) => p.from + i))).toEqual(bill.lines.map((_, i) => i));
    const room = model.inner.height - layout.header.height - layout.footer.height;
    for (const p of model.pages) {
      const used = model.headHeight + model.rowHeights.slice(p.from, p.to).reduce((s, h) => s + h, 0) + model.footHeight;
      expect(used).toBeLessThanOrEqual(room);
    }
    // The amount column (priceTotal): the page subtotals add up to the total, which is the lines' sum.
    const col = model.columns.findIndex((c) => c.key === 'priceTotal');
    expect(col).toBeGreaterThan(0);
    const plain = (text: string) => toMicro(text.replace(/,/g, ''));
    expect(microText(sum(model.subtotals.map((cells) => plain(cells[col]))))).toBe(microText(plain(model.total[col])));
    expect(model.total[col]).toBe('67,725.00');
    // A long name wraps: its row is taller than a one-line row.
    expect(model.rowHeights[0]).toBeGreaterThan(model.rowHeights[1]);
    expect(model.rows[1][model.columns.findIndex((c) => c.key === 'materialId')]).toBe('M1 螺丝 M8');
  });

  it('prints a receipt roll as one page as long as the bill', () => {
    const layout: PrintLayout = { ...starterTemplate(ORDER, 'zh'), paper: presetPaper('Receipt80'), header: { height: 10, elements: [] }, footer: { height: 10, elements: [] } };
    layout.table.columns = [{ key: 'materialId', width: 40 }, { key: 'number', width: 16 }, { key: 'priceTotal', width: 18 }];
    const model = buildPrintModel(layout, ORDER, order(80) as never, ctx);
    expect(model.pages).toEqual([{ from: 0, to: 80, last: true }]);
    expect(model.page.height).toBeGreaterThan(200);
  });

  it('writes header fields as printed: records by name, the status by its label, the company from the tenant', () => {
    const bill = order(1) as unknown as Record<string, unknown>;
    expect(headerText(ORDER, bill, 'supplierId', ctx)).toBe('供应商甲');
    expect(headerText(ORDER, bill, 'billStatus', ctx)).toBe('已审核');
    expect(headerText(ORDER, bill, 'billStatus', { ...ctx, lang: 'en' })).toBe('Audited');
    expect(headerText(ORDER, bill, 'companyName', ctx)).toBe('测试公司');
    expect(headerText(ORDER, bill, 'companySlogan', ctx)).toBe('品质第一');
    expect(headerText(ORDER, bill, 'companyPhone', ctx)).toBe('010-1');
  });

  it('prints a job of several bills on one page rule when their sheets agree, on named pages per size when rolls differ', () => {
    const a4 = starterTemplate(ORDER, 'zh');
    const models = [order(3), order(40)].map((bill) => buildPrintModel(a4, ORDER, bill as never, ctx));
    expect(pageRules(models)).toEqual({ css: '@page { size: 210mm 297mm; margin: 0; }', names: [undefined, undefined] });
    const roll: PrintLayout = { ...a4, paper: presetPaper('Receipt80'), header: { height: 10, elements: [] }, footer: { height: 5, elements: [] }, table: { ...a4.table, columns: [{ key: '#', width: 8 }, { key: 'materialId', width: 60 }] } };
    const rolls = [order(3), order(40), order(3)].map((bill) => buildPrintModel(roll, ORDER, bill as never, ctx));
    const rules = pageRules(rolls);
    expect(rules.names).toEqual(['p8-sheet-0', 'p8-sheet-1', 'p8-sheet-0']);
    expect(rules.css.split('\n')).toEqual([`@page p8-sheet-0 { size: 80mm ${rolls[0].page.height}mm; margin: 0; }`, `@page p8-sheet-1 { size: 80mm ${rolls[1].page.height}mm; margin: 0; }`]);
    expect(rolls[1].page.height).toBeGreaterThan(rolls[0].page.height);
  });

  it('turns a receipt template into lines of text for a cloud printer: bands top to bottom, the table within the width, no picture or page number', () => {
    const layout: PrintLayout = {
      ...starterTemplate(ORDER, 'zh'),
      paper: presetPaper('Receipt58'),
      header: {
        height: 20,
        elements: [
          { id: 'code', type: 'field', field: 'billCode', label: true, x: 0, y: 8, w: 50, h: 4, fontSize: 9, bold: false, align: 'left' },
          { id: 'title', type: 'text', text: '采购订单', x: 0, y: 0, w: 54, h: 8, fontSize: 16, bold: true, align: 'center' },
          { id: 'logo', type: 'image', x: 0, y: 12, w: 10, h: 6, fontSize: 9, bold: false, align: 'left' },
        ],
      },
      table: { columns: [{ key: 'materialId', width: 30 }, { key: 'number', width: 10 }, { key: 'priceTotal', width: 14 }], fontSize: 8, subtotals: false, total: true },
      footer: {
        height: 12,
        elements: [
          { id: 'qr', type: 'qrcode', field: 'billCode', x: 0, y: 4, w: 20, h: 20, fontSize: 9, bold: false, align: 'left' },
          { id: 'rule', type: 'line', x: 0, y: 0, w: 54, h: 0.3, fontSize: 9, bold: false, align: 'left' },
          { id: 'page', type: 'pageNumber', x: 30, y: 4, w: 20, h: 4, fontSize: 9, bold: false, align: 'right' },
        ],
      },
    };
    const bill = order(3) as never;
    const model = buildPrintModel(layout, ORDER, bill, ctx);
    const lines = receiptLinesOf(layout, ORDER, bill, ctx, model, 32);
    expect(lines.slice(0, 2)).toEqual([
      { type: 'text', text: '采购订单', align: 'center', bold: true, big: true },
      { type: 'text', text: '单据编号：CGDD-1', align: 'left', bold: false, big: false },
    ]);
    expect(lines.slice(-2)).toEqual([{ type: 'rule' }, { type: 'qrcode', text: 'CGDD-1' }]);
    const texts = lines.flatMap((l) => (l.type === 'text' ? [l.text] : []));
    expect(texts).toContain('合计');
    expect(texts.some((t) => t.startsWith('M1 螺丝 M8'))).toBe(true);
    expect(texts.some((t) => t.startsWith('M0 不锈钢'))).toBe(true);
    expect(texts.at(-1)!.endsWith('9.00')).toBe(true);
  });
});
