import { z } from 'zod';
import { billType } from '../bills/catalogue.ts';
import { headerFields, lineFields, lineKindOf, type BillTypeDecl } from '../bills/registry.ts';
import { EXPORT_LINE_FIELDS } from '../bills/currency.ts';
import type { Label } from '../bills/status.ts';
import type { ErrorKey } from '../errors.ts';
import { nameText, storableText } from '../text.ts';

/**
 * Print templates: how a bill of one type is laid out on paper. A template is a page (paper size,
 * orientation, margins), a header band and a footer band printed on every page, and between them the bill's
 * line table, which flows over as many pages as it needs (paginate.ts). Every measure is in millimetres.
 *
 * A tenant keeps several templates per bill type, one of them the default. A type without any prints with
 * its starter template (`starterTemplate`), built here from the type's declaration, so a bill type prints
 * the day it is declared. The server stores the layout as sent (after `layoutRefusal`); the web draws it.
 */

const id = z.number().int().positive();
const mm = (max: number) => z.number().finite().min(0).max(max);

/** Paper sizes (width × height in portrait, millimetres); receipts are continuous rolls. */
export const PaperKind = ['A4', 'A5', 'A4Third', 'Receipt80', 'Receipt58', 'Custom'] as const;
export type PaperKind = (typeof PaperKind)[number];
export const PAPER_SIZES: Record<Exclude<PaperKind, 'Custom'>, { width: number; height: number; roll?: true }> = {
  A4: { width: 210, height: 297 },
  A5: { width: 148, height: 210 },
  /** The dot-matrix continuous form: an A4 width cut in three (241 × 93 mm). */
  A4Third: { width: 241, height: 93 },
  Receipt80: { width: 80, height: 200, roll: true },
  Receipt58: { width: 58, height: 200, roll: true },
};

export const Orientation = ['portrait', 'landscape'] as const;
export type Orientation = (typeof Orientation)[number];

export const paperSchema = z.object({
  kind: z.enum(PaperKind),
  /** Portrait width and height; a preset's own size unless `Custom`. */
  width: z.number().finite().min(30).max(600),
  height: z.number().finite().min(30).max(2000),
  orientation: z.enum(Orientation),
  margin: z.object({ top: mm(50), right: mm(50), bottom: mm(50), left: mm(50) }),
});
export type Paper = z.infer<typeof paperSchema>;

/**
 * What an element draws:
 * text (its own words), field (a header field of the bill, optionally with its label), image (an uploaded
 * picture, or the tenant's logo when `src` is empty), line and box (borders), barcode and qrcode (of a
 * field's value), capitals (an amount field in Chinese capitals, 大写金额), pageNumber (第 x / y 页),
 * printTime and printUser (when and by whom it is printed).
 */
export const ElementType = ['text', 'field', 'image', 'line', 'box', 'barcode', 'qrcode', 'capitals', 'pageNumber', 'printTime', 'printUser'] as const;
export type ElementType = (typeof ElementType)[number];
/** The element types that show a field's value: they name it in `field`. */
export const FIELD_ELEMENTS: readonly ElementType[] = ['field', 'barcode', 'qrcode', 'capitals'];

/**
 * The font of a text element or of the table: the CJK families installed with the product (Noto Sans CJK and
 * Noto Serif CJK, Debian's fonts-noto-cjk) and a monospace one, each falling back to what the platform has
 * (PingFang / Microsoft YaHei, Songti / SimSun…). Absent: sans.
 */
export const FontFamily = ['sans', 'serif', 'mono'] as const;
export type FontFamily = (typeof FontFamily)[number];
export const FONT_STACKS: Record<FontFamily, string> = {
  sans: "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans', sans-serif",
  serif: "'Noto Serif CJK SC', 'Source Han Serif SC', 'Songti SC', 'SimSun', 'Noto Serif', serif",
  mono: "'DejaVu Sans Mono', 'Liberation Mono', Consolas, 'Courier New', 'Noto Sans Mono CJK SC', 'Noto Sans CJK SC', monospace",
};
/** The CSS font family of an element or table (sans when none is chosen). */
export const fontStack = (font: FontFamily | undefined) => FONT_STACKS[font ?? 'sans'];

export const elementSchema = z.object({
  /** Unique in the template (the designer's handle). */
  id: z.string().min(1).max(40),
  type: z.enum(ElementType),
  /** Position and size inside its band, millimetres from the band's top-left corner. */
  x: mm(2000),
  y: mm(2000),
  w: z.number().finite().min(0.2).max(2000),
  h: z.number().finite().min(0.2).max(2000),
  fontSize: z.number().finite().min(5).max(72).default(10),
  font: z.enum(FontFamily).optional(),
  bold: z.boolean().default(false),
  align: z.enum(['left', 'center', 'right']).default('left'),
  text: storableText().max(500).optional(),
  /** A header field key of the bill type (or one of `EXTRA_FIELDS`). */
  field: z.string().max(60).optional(),
  /** `field`: show the field's label before its value. */
  label: z.boolean().optional(),
  /** `image`: the picture's address; empty = the tenant's logo. */
  src: storableText().max(1000).optional(),
  /** `line`, `box`: border width in millimetres. */
  thickness: z.number().finite().min(0.1).max(5).optional(),
});
export type PrintElement = z.infer<typeof elementSchema>;

const bandSchema = z.object({ height: mm(1000), elements: z.array(elementSchema).max(200) });
export type PrintBand = z.infer<typeof bandSchema>;

/** The line table: its columns (line field keys, or `#` for the line number) in order, with widths. */
export const tableSchema = z.object({
  /** `title`: the column's own header text (an export document's English headers); the field's label without. */
  columns: z.array(z.object({ key: z.string().min(1).max(60), width: z.number().finite().min(3).max(600), title: storableText().max(60).optional() })).min(1).max(40),
  fontSize: z.number().finite().min(5).max(36).default(9),
  font: z.enum(FontFamily).optional(),
  /** A subtotal row at the foot of every page but the last (summed columns only). */
  subtotals: z.boolean().default(true),
  /** The grand total row on the last page. */
  total: z.boolean().default(true),
});
export type PrintTable = z.infer<typeof tableSchema>;

export const layoutSchema = z.object({
  version: z.literal(1),
  paper: paperSchema,
  header: bandSchema,
  table: tableSchema,
  footer: bandSchema,
});
export type PrintLayout = z.infer<typeof layoutSchema>;

/** The line number column of a table. */
export const LINE_NO_COLUMN = '#';

/** Fields every bill has beyond its declared header fields, shown by `field` elements. */
export const EXTRA_FIELDS: Record<string, Label> = {
  billStatus: { zh: '单据状态', en: 'Status' },
  createdByName: { zh: '制单人', en: 'Created by' },
  createdAt: { zh: '制单时间', en: 'Created at' },
  auditName: { zh: '审核人', en: 'Audited by' },
  auditTime: { zh: '审核时间', en: 'Audited at' },
  printCount: { zh: '打印次数', en: 'Times printed' },
  /** The tenant's title, slogan and phone (tenant config), not the bill's. */
  companyName: { zh: '公司名称', en: 'Company' },
  companySlogan: { zh: '公司标语', en: 'Company slogan' },
  companyPhone: { zh: '公司电话', en: 'Company phone' },
};

/** The header fields a template of the type may show, with their labels. */
export function printableHeaderFields(decl: BillTypeDecl): Array<{ key: string; label: Label; kind: string }> {
  return [
    ...headerFields(decl)
      .filter((f) => f.kind !== 'attachments')
      .map((f) => ({ key: f.key, label: f.label, kind: f.kind })),
    ...Object.entries(EXTRA_FIELDS).map(([key, label]) => ({ key, label, kind: key.endsWith('At') || key.endsWith('Time') ? 'date' : key === 'printCount' ? 'number' : 'text' })),
  ];
}

/** The line fields a template's table may show, with their labels and whether the table sums them. */
export function printableLineFields(decl: BillTypeDecl): Array<{ key: string; label: Label; kind: string; sum: boolean }> {
  return [
    { key: LINE_NO_COLUMN, label: { zh: '序号', en: 'No.' }, kind: 'number', sum: false },
    ...[...lineFields(decl), ...(decl.currency ? EXPORT_LINE_FIELDS : [])]
      .filter((f) => f.kind !== 'attachments' && f.kind !== 'serials' && f.kind !== 'readings')
      .map((f) => ({ key: f.key, label: f.label, kind: f.kind, sum: f.sum === true })),
  ];
}

/** The paper's printed width and height (orientation applied). */
export function pageSize(paper: Paper): { width: number; height: number } {
  return paper.orientation === 'landscape' ? { width: paper.height, height: paper.width } : { width: paper.width, height: paper.height };
}

/** Whether the paper is a continuous roll: the whole bill on one page as long as it needs. */
export const isRoll = (paper: Paper) => paper.kind !== 'Custom' && PAPER_SIZES[paper.kind].roll === true;

/**
 * Why a layout cannot be stored for a bill type, or undefined: a field or column the type does not have,
 * two elements of one id, bands that leave no room for the table, an element outside its band's width.
 */
export function layoutRefusal(decl: BillTypeDecl, layout: PrintLayout): ErrorKey | undefined {
  const heads = new Set(printableHeaderFields(decl).map((f) => f.key));
  const cols = new Set(printableLineFields(decl).map((f) => f.key));
  const elements = [...layout.header.elements, ...layout.footer.elements];
  if (new Set(elements.map((e) => e.id)).size !== elements.length) return 'PrintTemplateInvalid';
  for (const e of elements) if (FIELD_ELEMENTS.includes(e.type) && (!e.field || !heads.has(e.field))) return 'PrintFieldUnknown';
  if (layout.table.columns.some((c) => !cols.has(c.key))) return 'PrintFieldUnknown';
  if (new Set(layout.table.columns.map((c) => c.key)).size !== layout.table.columns.length) return 'PrintTemplateInvalid';
  const page = pageSize(layout.paper);
  const { margin } = layout.paper;
  const inner = { width: page.width - margin.left - margin.right, height: page.height - margin.top - margin.bottom };
  if (inner.width < 20 || inner.height < 20) return 'PrintPaperTooSmall';
  if (!isRoll(layout.paper) && layout.header.height + layout.footer.height > inner.height - 15) return 'PrintPaperTooSmall';
  for (const e of elements) if (e.x + e.w > inner.width + 0.01) return 'PrintElementOutside';
  for (const band of [layout.header, layout.footer]) for (const e of band.elements) if (e.y + e.h > band.height + 0.01) return 'PrintElementOutside';
  return undefined;
}

/** A paper of a preset kind, portrait, with margins that suit it. */
export function presetPaper(kind: Exclude<PaperKind, 'Custom'>): Paper {
  const size = PAPER_SIZES[kind];
  const small = size.width < 100;
  const m = small ? 2 : kind === 'A4Third' ? 5 : 10;
  return { kind, width: size.width, height: size.height, orientation: 'portrait', margin: { top: m, right: m, bottom: m, left: m } };
}

/** Makes a built-in layout's elements, numbered in order (`text-1`, `field-2`…), 10 pt, left, unless told. */
export function elementMaker() {
  let serial = 0;
  return (type: ElementType, x: number, y: number, w: number, h: number, rest: Partial<PrintElement> = {}): PrintElement => ({
    id: `${type}-${++serial}`,
    type,
    x,
    y,
    w,
    h,
    fontSize: 10,
    bold: false,
    align: 'left',
    ...rest,
  });
}

/**
 * The starter template of a bill type, from its declaration: the tenant's logo and the type's title, its
 * code as text and as QR code, every header field two to a row, the table of its line fields (widths in
 * proportion to their list widths), and a footer with the amount in capitals, who made and audited it,
 * print time and user, and the page number. Texts in the language asked for.
 */
export function starterTemplate(decl: BillTypeDecl, lang: 'zh' | 'en'): PrintLayout {
  const paper = presetPaper('A4');
  const inner = paper.width - paper.margin.left - paper.margin.right;
  const text = (l: Label) => l[lang];
  const el = elementMaker();
  const header: PrintElement[] = [
    el('image', 0, 0, 30, 12),
    // The company under its logo: name, slogan and phone (the tenant's settings).
    el('field', 0, 13, 60, 4, { field: 'companyName', fontSize: 9 }),
    el('field', 0, 17, 60, 4, { field: 'companySlogan', fontSize: 8 }),
    el('field', 0, 21, 60, 4, { field: 'companyPhone', fontSize: 8 }),
    el('text', 35, 0, inner - 70, 10, { text: text(decl.label), fontSize: 18, bold: true, align: 'center' }),
    el('qrcode', inner - 18, 0, 18, 18, { field: 'billCode' }),
  ];
  // Every header field but the code (placed first), the totals (in the table), the remark (in the footer),
  // attachments, the warning days (the screen's, not the paper's) and those a tenant switch may hide.
  const shown = headerFields(decl).filter((f) => !['billCode', 'attachments', 'remark', 'number', 'priceTotal', 'taxPriceTotal'].includes(f.key) && !f.key.endsWith('WarnDays') && !f.switch);
  const fields = [{ key: 'billCode' }, ...shown];
  const half = (inner - 20) / 2;
  const fieldsTop = 26;
  fields.forEach((f, i) => header.push(el('field', (i % 2) * half, fieldsTop + Math.floor(i / 2) * 6, half, 5, { field: f.key, label: true })));
  const headerHeight = fieldsTop + Math.ceil(fields.length / 2) * 6 + 2;

  // The line fields but the remark, the main-unit quantity and those a tenant switch may hide.
  const own = new Map(lineFields(decl).map((f) => [f.key, f]));
  const lines = printableLineFields(decl).filter((f) => !['remark', 'baseNumber', 'sourceLineId'].includes(f.key) && !own.get(f.key)?.switch);
  const listed = lines.map((f) => ({ key: f.key, weight: f.key === LINE_NO_COLUMN ? 40 : (own.get(f.key)?.width ?? 100) }));
  const total = listed.reduce((s, c) => s + c.weight, 0);
  const columns = listed.map((c) => ({ key: c.key, width: Math.max(3, Math.floor((c.weight / total) * inner * 10) / 10) }));

  const amountField = headerFields(decl).find((f) => f.key === 'priceTotal') ? 'priceTotal' : headerFields(decl).find((f) => f.kind === 'amount')?.key;
  const third = inner / 3;
  const footer: PrintElement[] = [
    ...(amountField ? [el('capitals', 0, 0, inner, 5, { field: amountField })] : []),
    el('field', 0, 6, third, 5, { field: 'createdByName', label: true }),
    el('field', third, 6, third, 5, { field: 'auditName', label: true }),
    el('field', 2 * third, 6, third, 5, { field: 'remark', label: true }),
    el('line', 0, 12, inner, 0.3, { thickness: 0.2 }),
    el('printTime', 0, 13, third, 5, { fontSize: 8 }),
    el('printUser', third, 13, third, 5, { fontSize: 8, align: 'center' }),
    el('pageNumber', 2 * third, 13, third, 5, { fontSize: 8, align: 'right' }),
  ];
  return {
    version: 1,
    paper,
    header: { height: headerHeight, elements: header },
    table: { columns, fontSize: lineKindOf(decl) === 'material' ? 9 : 10, subtotals: true, total: true },
    footer: { height: 19, elements: footer },
  };
}

// ---------------------------------------------------------------- the stored templates

const billTypeField = z
  .string()
  .trim()
  .min(1, { message: 'PleaseSelectBillType' })
  .max(50)
  .refine((type) => billType(type) !== undefined, { message: 'PleaseSelectBillType' });

const templateFields = {
  /** A bill type of the registry (bills/catalogue.ts). */
  billType: billTypeField,
  name: nameText(50),
  /** The type's default template: setting it takes the mark from the type's other templates. */
  isDefault: z.boolean().default(false),
  enabled: z.boolean().default(true),
  remark: storableText().max(200).nullish(),
  layout: layoutSchema,
};
export const printTemplateCreateSchema = z.object(templateFields);
export type PrintTemplateCreate = z.infer<typeof printTemplateCreateSchema>;
export const printTemplateUpdateSchema = z.object({ id, ...templateFields });
export type PrintTemplateUpdate = z.infer<typeof printTemplateUpdateSchema>;

/** POST …/copy: a copy of a template under a new name (never the default). */
export const printTemplateCopySchema = z.object({ id, name: nameText(50) });
/** PUT …/default: makes a template its type's default. */
export const printTemplateDefaultSchema = z.object({ id });

/** A template as export writes it and import reads it: everything but the tenant's ids. */
export const printTemplateFileSchema = z.object({
  format: z.literal('p8-print-template'),
  version: z.literal(1),
  templates: z.array(z.object({ billType: billTypeField, name: nameText(50), remark: storableText().max(200).nullish(), layout: layoutSchema })).min(1).max(200),
});
export type PrintTemplateFile = z.infer<typeof printTemplateFileSchema>;

/** GET …/of/:billType: the enabled templates a bill of the type can print with (the starter when none). */
export const printTemplateOfTypeParams = z.object({ billType: billTypeField });

export interface PrintTemplateRow {
  id: number;
  billType: string;
  name: string;
  isDefault: boolean;
  enabled: boolean;
  remark: string | null;
  layout: PrintLayout;
  createdAt: string;
  updatedAt: string;
}

/** How a print left the system: on paper (the browser's print), as a PDF file downloaded, or on a cloud receipt printer. */
export const PrintOutput = ['paper', 'pdf', 'cloud'] as const;
export type PrintOutput = (typeof PrintOutput)[number];

/** POST /admin/<area>/<bill>/print: a bill printed (through a template, or its type's starter when null). */
export const billPrintSchema = z.object({ id, templateId: id.nullable().default(null), output: z.enum(['paper', 'pdf']).default('paper') });
export type BillPrint = z.infer<typeof billPrintSchema>;

/** The most bills one batch print takes (a list's selection): the pages of all of them are drawn at once. */
export const MAX_BATCH_PRINT = 200;
/**
 * POST /admin/<area>/<bill>/print/batch: the bills of a list's selection printed as one job, in the order
 * given, through one template (the type's starter when null). Each is counted and audited as a single print.
 */
export const billPrintBatchSchema = z.object({
  ids: z.array(id, { error: 'PleaseSelectData' }).min(1, { message: 'PleaseSelectData' }).max(MAX_BATCH_PRINT, { message: 'PrintBatchTooLarge' }),
  templateId: id.nullable().default(null),
  output: z.enum(['paper', 'pdf']).default('paper'),
});
export type BillPrintBatch = z.infer<typeof billPrintBatchSchema>;

/**
 * GET /admin/<area>/<bill>/print/bills?ids=1,2,3: the bills of a list's selection as their forms read them, in
 * the order given, in one answer (a batch print draws them all as one document). At most MAX_BATCH_PRINT.
 */
export const billPrintBillsQuery = z.object({
  ids: z
    .string({ error: 'PleaseSelectData' })
    .regex(/^\d{1,12}(,\d{1,12})*$/, { message: 'PleaseSelectData' })
    .transform((text) => text.split(',').map(Number))
    .pipe(z.array(id).min(1, { message: 'PleaseSelectData' }).max(MAX_BATCH_PRINT, { message: 'PrintBatchTooLarge' })),
});
export type BillPrintBillsQuery = z.infer<typeof billPrintBillsQuery>;

/** A template a bill can print with: a stored one, or the type's starter (`id` null). */
export interface PrintTemplateChoice {
  /** The tenant's template; null: a built-in one (the starter, an export document). */
  id: number | null;
  /** A built-in export document's key (docs/cross-border.md); none for the starter and the tenant's templates. */
  builtIn?: string;
  name: string;
  isDefault: boolean;
  layout: PrintLayout;
}

/** What tells the print dialog's choices apart: the template's id, a built-in document's key, null for the starter. */
export const choiceKey = (c: Pick<PrintTemplateChoice, 'id' | 'builtIn'>): number | string | null => c.id ?? c.builtIn ?? null;
