import type { BillTypeDecl } from '../bills/registry.ts';
import type { Label } from '../bills/status.ts';
import { elementMaker, presetPaper, type PrintElement, type PrintLayout } from './template.ts';

/*
 * Export documents (docs/cross-border.md): built-in print templates, in English, of the commercial bills a
 * foreign customer receives — the commercial invoice and the packing list of a sale out-stock, the proforma
 * invoice of a sale order or quotation. They are offered in the print dialog beside the tenant's own templates
 * (and the starter), and a tenant may copy one into its templates to design it further. Prices and amounts are
 * the bill's, in its currency; the lines' descriptions, HS codes, origin and weights come from the materials
 * (EXPORT_LINE_FIELDS).
 */

export interface ExportDocument {
  /** Stable key (`commercialInvoice`…). */
  key: string;
  name: Label;
  layout: PrintLayout;
}

type Column = { key: string; width: number; title: string };

function document(title: string, fields: ReadonlyArray<[string, string]>, columns: readonly Column[], amount: boolean): PrintLayout {
  const paper = presetPaper('A4');
  const inner = paper.width - paper.margin.left - paper.margin.right;
  const el = elementMaker();
  const header: PrintElement[] = [
    el('field', 0, 0, inner, 8, { field: 'companyName', fontSize: 14, bold: true, align: 'center' }),
    el('field', 0, 8, inner, 5, { field: 'companyPhone', fontSize: 9, align: 'center' }),
    el('text', 0, 14, inner, 10, { text: title, fontSize: 18, bold: true, align: 'center' }),
    el('line', 0, 26, inner, 0.3, { thickness: 0.3 }),
  ];
  const half = inner / 2;
  fields.forEach(([label, field], i) => {
    const x = (i % 2) * half;
    const y = 29 + Math.floor(i / 2) * 6;
    header.push(el('text', x, y, 32, 5, { text: label, bold: true }));
    header.push(el('field', x + 32, y, half - 34, 5, { field }));
  });
  const headerHeight = 29 + Math.ceil(fields.length / 2) * 6 + 2;
  const footer: PrintElement[] = [
    ...(amount ? [el('text', half, 0, 40, 6, { text: 'Total amount:', bold: true }), el('field', half + 40, 0, half - 40, 6, { field: 'priceTotal', bold: true, align: 'right' })] : []),
    el('text', 0, 7, 20, 5, { text: 'Remark:', bold: true }),
    el('field', 20, 7, inner - 20, 5, { field: 'remark' }),
    el('text', half, 15, half, 5, { text: 'Authorised signature: ____________________', align: 'right' }),
    el('line', 0, 22, inner, 0.3, { thickness: 0.2 }),
    el('printTime', 0, 23, half, 5, { fontSize: 8 }),
    el('pageNumber', half, 23, half, 5, { fontSize: 8, align: 'right' }),
  ];
  const sum = columns.reduce((s, c) => s + c.width, 0);
  return {
    version: 1,
    paper,
    header: { height: headerHeight, elements: header },
    // Widths in proportion, filling the paper's inner width.
    table: { columns: columns.map((c) => ({ ...c, width: Math.floor((c.width / sum) * inner * 10) / 10 })), fontSize: 9, subtotals: true, total: true },
    footer: { height: 29, elements: footer },
  };
}

const INVOICE_COLUMNS: readonly Column[] = [
  { key: '#', width: 10, title: 'No.' },
  { key: 'englishName', width: 52, title: 'Description of goods' },
  { key: 'hsCode', width: 22, title: 'HS code' },
  { key: 'originCountry', width: 18, title: 'Origin' },
  { key: 'number', width: 20, title: 'Quantity' },
  { key: 'unitId', width: 14, title: 'Unit' },
  { key: 'unitPrice', width: 24, title: 'Unit price' },
  { key: 'priceTotal', width: 30, title: 'Amount' },
];

const PACKING_COLUMNS: readonly Column[] = [
  { key: '#', width: 10, title: 'No.' },
  { key: 'englishName', width: 60, title: 'Description of goods' },
  { key: 'hsCode', width: 26, title: 'HS code' },
  { key: 'number', width: 22, title: 'Quantity' },
  { key: 'unitId', width: 16, title: 'Unit' },
  { key: 'netWeight', width: 28, title: 'Net weight (kg)' },
  { key: 'grossWeight', width: 28, title: 'Gross weight (kg)' },
];

/** The export documents a bill type prints with (none for a type that is not a commercial sale bill). */
export function exportDocuments(decl: BillTypeDecl): ExportDocument[] {
  if (!decl.currency) return [];
  if (decl.type === 'SaleOutstock') {
    const fields: Array<[string, string]> = [
      ['Invoice No.:', 'billCode'],
      ['Date:', 'billDate'],
      ['Buyer:', 'customerId'],
      ['Currency:', 'currencyId'],
      ['Payment due:', 'receiptDate'],
      ['Shipped from:', 'warehouseId'],
    ];
    return [
      { key: 'commercialInvoice', name: { zh: '商业发票 Commercial invoice', en: 'Commercial invoice' }, layout: document('COMMERCIAL INVOICE', fields, INVOICE_COLUMNS, true) },
      {
        key: 'packingList',
        name: { zh: '装箱单 Packing list', en: 'Packing list' },
        layout: document('PACKING LIST', [['Packing list No.:', 'billCode'], ['Date:', 'billDate'], ['Consignee:', 'customerId'], ['Shipped from:', 'warehouseId']], PACKING_COLUMNS, false),
      },
    ];
  }
  if (decl.type === 'SaleOrder' || decl.type === 'SaleQuotation') {
    const fields: Array<[string, string]> = [
      ['Proforma No.:', 'billCode'],
      ['Date:', 'billDate'],
      ['Buyer:', 'customerId'],
      ['Currency:', 'currencyId'],
      ['Delivery date:', 'deliveryDate'],
    ];
    return [{ key: 'proformaInvoice', name: { zh: '形式发票 Proforma invoice', en: 'Proforma invoice' }, layout: document('PROFORMA INVOICE', fields, INVOICE_COLUMNS, true) }];
  }
  return [];
}
