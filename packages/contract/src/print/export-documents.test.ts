import { describe, expect, it } from 'vitest';
import { BILL_TYPES, billType } from '../bills/catalogue.ts';
import { exportDocuments } from './export-documents.ts';
import { layoutRefusal, layoutSchema, printableLineFields } from './template.ts';

describe('export documents (docs/cross-border.md)', () => {
  it('a sale out-stock prints a commercial invoice and a packing list, sale orders and quotations a proforma invoice', () => {
    expect(exportDocuments(billType('SaleOutstock')!).map((d) => d.key)).toEqual(['commercialInvoice', 'packingList']);
    expect(exportDocuments(billType('SaleOrder')!).map((d) => d.key)).toEqual(['proformaInvoice']);
    expect(exportDocuments(billType('SaleQuotation')!).map((d) => d.key)).toEqual(['proformaInvoice']);
    expect(exportDocuments(billType('PurchaseOrder')!)).toEqual([]);
  });

  it.each(BILL_TYPES.flatMap((decl) => exportDocuments(decl).map((d) => [decl.type, d.key, d] as const)))('%s %s: a valid layout naming only the type’s fields, headed in English', (type, _key, doc) => {
    const decl = billType(type)!;
    expect(layoutSchema.parse(doc.layout)).toEqual(doc.layout);
    expect(layoutRefusal(decl, doc.layout)).toBeUndefined();
    const fields = new Set(printableLineFields(decl).map((f) => f.key));
    for (const c of doc.layout.table.columns) {
      expect(fields.has(c.key)).toBe(true);
      expect(c.title).toMatch(/^[A-Za-z. ()]+$/);
    }
  });

  it('only commercial bills have the export line fields', () => {
    for (const decl of BILL_TYPES) expect(printableLineFields(decl).some((f) => f.key === 'hsCode')).toBe(decl.currency === true);
  });
});
