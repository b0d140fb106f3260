import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '../bills/catalogue.ts';
import { FONT_STACKS, fontStack, layoutRefusal, layoutSchema, pageSize, presetPaper, starterTemplate } from './template.ts';

describe('print templates', () => {
  it('gives every declared bill type a starter template that fits its paper and names only its own fields', () => {
    for (const decl of BILL_TYPES) {
      for (const lang of ['zh', 'en'] as const) {
        const layout = starterTemplate(decl, lang);
        expect(layoutSchema.parse(layout), decl.type).toEqual(layout);
        expect(layoutRefusal(decl, layout), decl.type).toBeUndefined();
        const inner = pageSize(layout.paper).width - layout.paper.margin.left - layout.paper.margin.right;
        expect(layout.table.columns.reduce((s, c) => s + c.width, 0), decl.type).toBeLessThanOrEqual(inner);
      }
    }
  });

  it("refuses another type's field, an unknown column, a repeated id, an element off its band, bands that fill the page", () => {
    const order = BILL_TYPES.find((d) => d.type === 'PurchaseOrder')!;
    const sale = BILL_TYPES.find((d) => d.type === 'SaleOrder')!;
    const base = () => starterTemplate(order, 'zh');
    const foreign = base();
    foreign.header.elements[3].field = 'customerId';
    expect(layoutRefusal(order, foreign)).toBe('PrintFieldUnknown');
    expect(layoutRefusal(sale, starterTemplate(sale, 'zh'))).toBeUndefined();
    const column = base();
    column.table.columns[1].key = 'customerId';
    expect(layoutRefusal(order, column)).toBe('PrintFieldUnknown');
    const twice = base();
    twice.footer.elements[1].id = twice.header.elements[0].id;
    expect(layoutRefusal(order, twice)).toBe('PrintTemplateInvalid');
    const low = base();
    low.footer.elements[0].y = low.footer.height;
    expect(layoutRefusal(order, low)).toBe('PrintElementOutside');
    const full = base();
    full.header.height = 270;
    expect(layoutRefusal(order, full)).toBe('PrintPaperTooSmall');
    // A receipt roll grows with its content: tall bands are fine there, a wide element is not.
    const roll = { ...base(), paper: presetPaper('Receipt58') };
    roll.header.height = 400;
    roll.header.elements = [];
    roll.footer.elements = [];
    roll.table.columns = [{ key: 'materialId', width: 30 }];
    expect(layoutRefusal(order, roll)).toBeUndefined();
    roll.footer.elements = [{ ...base().footer.elements[0], w: 60 }];
    expect(layoutRefusal(order, roll)).toBe('PrintElementOutside');
  });

  it('turns the paper for landscape', () => {
    expect(pageSize({ ...presetPaper('A4'), orientation: 'landscape' })).toEqual({ width: 297, height: 210 });
    expect(pageSize(presetPaper('A4Third'))).toEqual({ width: 241, height: 93 });
  });

  it('keeps a font per text element and for the table, one of the installed CJK families, each falling back to a generic one', () => {
    const order = BILL_TYPES.find((d) => d.type === 'PurchaseOrder')!;
    const layout = starterTemplate(order, 'zh');
    layout.header.elements[4] = { ...layout.header.elements[4], font: 'serif' };
    layout.table.font = 'mono';
    const parsed = layoutSchema.parse(layout);
    expect([parsed.header.elements[4].font, parsed.table.font, parsed.header.elements[0].font]).toEqual(['serif', 'mono', undefined]);
    expect(layoutSchema.safeParse({ ...layout, table: { ...layout.table, font: 'Comic Sans' } }).success).toBe(false);
    expect(fontStack(undefined)).toBe(FONT_STACKS.sans);
    expect(FONT_STACKS.sans.startsWith("'Noto Sans CJK SC'")).toBe(true);
    expect(FONT_STACKS.serif.startsWith("'Noto Serif CJK SC'")).toBe(true);
    for (const stack of Object.values(FONT_STACKS)) expect(stack).toMatch(/, (sans-serif|serif|monospace)$/);
  });
});
