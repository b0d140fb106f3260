import type { BillView } from '@p8/contract/bills/api';
import { EXPORT_LINE_FIELDS } from '@p8/contract/bills/currency';
import { microText, sum, toMicro } from '@p8/contract/bills/decimal';
import { nameKey, staffListNamesKey } from '@p8/contract/bills/fields';
import { headerFields, lineFields, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BILL_STATUS_LABELS } from '@p8/contract/bills/status';
import { CELL_BORDER, CELL_PADDING, clampRowHeight, headerRow, linesHeight, paginate, rowHeight, type PageSlice } from '@p8/contract/print/paginate';
import { EXTRA_FIELDS, LINE_NO_COLUMN, isRoll, pageSize, printableLineFields, type PrintElement, type PrintLayout } from '@p8/contract/print/template';
import { amountInCapitals } from '@p8/contract/print/capitals';
import { receiptTable, type ReceiptLine } from '@p8/contract/print/receipt';
import { formatNumber } from '../ProTable/number-format.ts';

/**
 * What a bill prints as through a template, worked out before anything is drawn: every field's text, the
 * table's cells, each line's height and the pages (contract print/paginate.ts), the per-page subtotals and
 * the grand total. Pure, so the preview, the print and the tests agree.
 */

export interface PrintContext {
  lang: 'zh' | 'en';
  digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number };
  /** The tenant's title and phone (tenant config). */
  company: { name: string; slogan: string; phone: string };
  /** Who prints, and when (`YYYY-MM-DD HH:mm`). */
  user: string;
  printedAt: string;
}

export interface PrintColumn {
  key: string;
  label: string;
  width: number;
  numeric: boolean;
  sum: boolean;
}

export interface PrintModel {
  /** The printed page (orientation applied; a roll as long as the bill). */
  page: { width: number; height: number };
  inner: { width: number; height: number };
  columns: PrintColumn[];
  /** The cells of each line, as printed. */
  rows: string[][];
  rowHeights: number[];
  headHeight: number;
  /** Each column's header at its font size (points): the table's, or smaller for a long word in a narrow column. */
  headFontSizes: number[];
  footHeight: number;
  pages: PageSlice[];
  /** Per page: the subtotal cells (summed columns only) of its lines. */
  subtotals: string[][];
  total: string[];
}

type Kind = string;
const numericKinds = new Set(['quantity', 'number', 'percent', 'price', 'amount']);
const amountKinds = new Set(['price', 'amount']);

/** A value as printed: a number with the tenant's places, a list joined, an enum by its label. */
function shown(value: unknown, kind: Kind, options: ReadonlyArray<{ value: string; label: { zh: string; en: string } }> | undefined, ctx: PrintContext): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (options) {
    const option = options.find((o) => o.value === value);
    if (option) return option.label[ctx.lang];
  }
  if (numericKinds.has(kind)) return formatNumber(value, amountKinds.has(kind) ? ctx.digits.amountRetainsSmallDigit : ctx.digits.numberRetainsSmallDigit);
  if (kind === 'date' && typeof value === 'string' && value.includes('T')) return value.slice(0, 16).replace('T', ' ');
  return String(value);
}

/** The company a print shows, from the tenant's settings: its title, slogan and phone. */
export const companyOf = (config: { title?: string; slogan?: string; phone?: string } | undefined): PrintContext['company'] => ({
  name: config?.title ?? '',
  slogan: config?.slogan ?? '',
  phone: config?.phone ?? '',
});

/** The label of a header field (or one every bill has). */
export function headerLabel(decl: BillTypeDecl, key: string, lang: 'zh' | 'en'): string {
  const field = headerFields(decl).find((f) => f.key === key);
  return (field?.label ?? EXTRA_FIELDS[key])?.[lang] ?? key;
}

/** A header field's value as printed: a record by its name, an enum by its label, the status by its label. */
export function headerText(decl: BillTypeDecl, bill: Record<string, unknown>, key: string, ctx: PrintContext): string {
  if (key === 'companyName') return ctx.company.name;
  if (key === 'companySlogan') return ctx.company.slogan;
  if (key === 'companyPhone') return ctx.company.phone;
  if (key === 'billStatus') return BILL_STATUS_LABELS[bill.billStatus as keyof typeof BILL_STATUS_LABELS]?.[ctx.lang] ?? String(bill.billStatus ?? '');
  if (key === 'printCount') return String(bill.printCount ?? 0);
  const field = headerFields(decl).find((f) => f.key === key);
  if (!field) return shown(bill[key], key.endsWith('At') || key.endsWith('Time') ? 'date' : 'text', undefined, ctx);
  if (field.kind === 'record') return String(bill[nameKey(key)] ?? '');
  // Several staff by their names (a task's assignees); rich text as its text.
  if (field.kind === 'staffList') return ((bill[staffListNamesKey(key)] as string[] | undefined) ?? []).join('、');
  if (field.kind === 'richText') return richTextAsText(String(bill[key] ?? ''));
  return shown(bill[key], field.kind, field.options, ctx);
}

/** Rich text's HTML as printed text: paragraphs and breaks as line breaks, the tags dropped, entities read. */
function richTextAsText(html: string): string {
  const doc = new DOMParser().parseFromString(html.replace(/<\/(p|div|h[1-6]|li)>|<br\s*\/?>/gi, '\n'), 'text/html');
  return (doc.body.textContent ?? '').trim();
}

/** A line's cell as printed: the material by code, name and specification, a record by its name. */
function cellText(decl: BillTypeDecl, line: Record<string, unknown>, index: number, key: string, ctx: PrintContext): string {
  if (key === LINE_NO_COLUMN) return String(index + 1);
  if (key === 'materialId') return [line.materialCode, line.materialName, line.specification].filter(Boolean).join(' ');
  if (key === 'unitId') return String(line.unitName ?? '');
  if (key === 'sourceBillId') return String(line.sourceBillCode ?? '');
  const field = lineFields(decl).find((f) => f.key === key) ?? (decl.currency ? EXPORT_LINE_FIELDS.find((f) => f.key === key) : undefined);
  if (!field) return '';
  if (field.kind === 'record') return String(line[nameKey(key)] ?? '');
  return shown(line[key], field.kind, field.options, ctx);
}

/** The height of a row of one line of text at the table's font size. */
export const singleRowHeight = (fontSize: number) => linesHeight(1, fontSize);

/** What a cell's content box is given of its row's height (the rest is its padding and ruling). */
export const cellContentHeight = (rowHeight: number) => rowHeight - CELL_PADDING.vertical - CELL_BORDER;

/** Millimetres kept free below the table on each page: borders and rounding never push a row over. */
const SAFETY = 1.5;

export function buildPrintModel(layout: PrintLayout, decl: BillTypeDecl, bill: Pick<BillView, 'lines'> & Record<string, unknown>, ctx: PrintContext): PrintModel {
  const known = new Map(printableLineFields(decl).map((f) => [f.key, f]));
  const columns: PrintColumn[] = layout.table.columns
    .filter((c) => known.has(c.key))
    .map((c) => {
      const f = known.get(c.key)!;
      return { key: c.key, label: c.title ?? f.label[ctx.lang], width: c.width, numeric: numericKinds.has(f.kind) && c.key !== LINE_NO_COLUMN, sum: f.sum };
    });
  const widths = columns.map((c) => c.width);
  const fontSize = layout.table.fontSize;
  const lines = bill.lines as unknown as Array<Record<string, unknown>>;
  const rows = lines.map((line, i) => columns.map((c) => cellText(decl, line, i, c.key, ctx)));
  // Headers break between words only, an English one shrunk where its longest word would not fit its column.
  const head = headerRow(columns.map((c) => c.label), widths, fontSize);
  const headHeight = head.height;
  const footHeight = singleRowHeight(fontSize);
  const { paper, header, footer } = layout;
  const roll = isRoll(paper);
  const size = pageSize(paper);
  const inner = { width: size.width - paper.margin.left - paper.margin.right, height: size.height - paper.margin.top - paper.margin.bottom };
  const bodyHeight = inner.height - header.height - footer.height - SAFETY;
  const feet = { bodyHeight, headHeight, subtotalHeight: layout.table.subtotals ? footHeight : 0, totalHeight: layout.table.total ? footHeight : 0 };
  const rowHeights = rows.map((cells) => {
    const h = rowHeight(cells, widths, fontSize);
    return roll ? h : clampRowHeight(h, feet);
  });
  const pages = paginate({ rowHeights, ...feet, roll });
  const sumOf = (from: number, to: number) =>
    columns.map((c) => {
      if (!c.sum) return '';
      const kind = known.get(c.key)!.kind;
      const total = sum(lines.slice(from, to).map((l) => toMicro((l[c.key] as number | string | null | undefined) ?? 0)));
      return formatNumber(microText(total), amountKinds.has(kind) ? ctx.digits.amountRetainsSmallDigit : ctx.digits.numberRetainsSmallDigit);
    });
  // A roll is as long as what it prints.
  const page = roll
    ? { width: size.width, height: paper.margin.top + header.height + headHeight + rowHeights.reduce((s, h) => s + h, 0) + feet.totalHeight + footer.height + paper.margin.bottom + SAFETY }
    : size;
  return {
    page,
    inner: { width: inner.width, height: page.height - paper.margin.top - paper.margin.bottom },
    columns,
    rows,
    rowHeights,
    headHeight,
    headFontSizes: head.fontSizes,
    footHeight,
    pages,
    subtotals: pages.map((p) => sumOf(p.from, p.to)),
    total: sumOf(0, lines.length),
  };
}

/** The `@page` rule of a print: the sheet exactly the page's size, no margin of the browser's own. */
export const pageRule = (model: PrintModel) => `@page { size: ${model.page.width}mm ${model.page.height}mm; margin: 0; }`;

/**
 * The `@page` rules of one job of several bills: one rule when every sheet has one size; else a named page
 * per size (receipt rolls are as long as their bill), each bill's sheets printed on its own size's name.
 */
export function pageRules(models: readonly PrintModel[]): { css: string; names: Array<string | undefined> } {
  const sizes = [...new Set(models.map((m) => `${m.page.width}mm ${m.page.height}mm`))];
  if (sizes.length <= 1) return { css: models.length ? pageRule(models[0]) : '', names: models.map(() => undefined) };
  return {
    css: sizes.map((size, i) => `@page p8-sheet-${i} { size: ${size}; margin: 0; }`).join('\n'),
    names: models.map((m) => `p8-sheet-${sizes.indexOf(`${m.page.width}mm ${m.page.height}mm`)}`),
  };
}

/** The words around printed values, in the print's language (the page, the receipt). */
export const PRINT_WORDS = {
  zh: { colon: '：', page: (x: number, y: number) => `第 ${x} / ${y} 页`, printedAt: '打印时间：', printedBy: '打印人：', capitals: '大写金额：', subtotal: '本页小计', total: '合计' },
  en: { colon: ': ', page: (x: number, y: number) => `Page ${x} / ${y}`, printedAt: 'Printed at ', printedBy: 'Printed by ', capitals: 'In capitals: ', subtotal: 'Page subtotal', total: 'Total' },
};

/** What a text element says (a page number its page's), as plain text; undefined for pictures, codes and rules. */
export function elementText(e: PrintElement, decl: BillTypeDecl, bill: Record<string, unknown>, ctx: PrintContext, page = 1, pages = 1): string | undefined {
  const words = PRINT_WORDS[ctx.lang];
  const value = () => headerText(decl, bill, e.field ?? '', ctx);
  switch (e.type) {
    case 'text':
      return e.text ?? '';
    case 'field':
      return e.label ? `${headerLabel(decl, e.field ?? '', ctx.lang)}${words.colon}${value()}` : value();
    case 'capitals':
      return `${words.capitals}${amountInCapitals(String(bill[e.field ?? ''] ?? '0'))}`;
    case 'pageNumber':
      return words.page(page, pages);
    case 'printTime':
      return `${words.printedAt}${ctx.printedAt}`;
    case 'printUser':
      return `${words.printedBy}${ctx.user}`;
    default:
      return undefined;
  }
}

/**
 * A bill on a receipt printer through a receipt template, as lines of text (contract print/receipt.ts): each
 * band's elements top to bottom (left to right on one row), texts with their alignment, boldness and size
 * (14 pt and more doubled), a line as a rule, QR codes and barcodes of their values; the table between them
 * (`receiptTable`), with its total. Pictures and page numbers have no place on a roll of text.
 */
export function receiptLinesOf(layout: PrintLayout, decl: BillTypeDecl, bill: Pick<BillView, 'lines'> & Record<string, unknown>, ctx: PrintContext, model: PrintModel, chars: number): ReceiptLine[] {
  const band = (elements: readonly PrintElement[]): ReceiptLine[] =>
    [...elements]
      .sort((a, b) => a.y - b.y || a.x - b.x)
      .flatMap((e): ReceiptLine[] => {
        if (e.type === 'line') return [{ type: 'rule' }];
        if (e.type === 'qrcode' || e.type === 'barcode') {
          const text = headerText(decl, bill, e.field ?? '', ctx);
          if (!text) return [];
          return e.type === 'qrcode' ? [{ type: 'qrcode', text }] : /^[\x20-\x7e]{1,40}$/.test(text) ? [{ type: 'barcode', text }] : [];
        }
        if (e.type === 'pageNumber') return [];
        const text = elementText(e, decl, bill, ctx);
        return text ? [{ type: 'text', text, align: e.align, bold: e.bold, big: e.fontSize >= 14 }] : [];
      });
  return [
    ...band(layout.header.elements),
    ...receiptTable(model.columns, model.rows, layout.table.total ? model.total : null, chars, PRINT_WORDS[ctx.lang].total),
    ...band(layout.footer.elements),
  ];
}
