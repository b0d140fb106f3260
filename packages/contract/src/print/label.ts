import { z } from 'zod';
import type { Label } from '../bills/status.ts';
import type { ErrorKey } from '../errors.ts';
import { nameText } from '../text.ts';
import { FontFamily, pageSize, paperSchema, presetPaper, type Paper } from './template.ts';

/**
 * Label templates: labels of records printed N-up on a sheet — materials, storage locations and boxes (a
 * material's packing boxes, numbered) — each label the record's fields and its code as a barcode or QR code.
 * A template is a sheet (paper, margins, columns × rows of labels of one size with gaps between them) and what
 * one label shows. Pure: the label dialog, the print, the PDF and the tests share it.
 */

export const LabelKind = ['material', 'location', 'box'] as const;
export type LabelKind = (typeof LabelKind)[number];

export const LABEL_KIND_LABELS: Record<LabelKind, Label> = {
  material: { zh: '物料标签', en: 'Material label' },
  location: { zh: '库位标签', en: 'Location label' },
  box: { zh: '箱标签', en: 'Box label' },
};

/** The fields a label of each kind can show, in their usual order; `code` is what the barcode or QR code carries. */
export const LABEL_FIELDS: Record<LabelKind, Record<string, Label>> = {
  material: {
    code: { zh: '编码', en: 'Code' },
    name: { zh: '名称', en: 'Name' },
    specification: { zh: '规格', en: 'Specification' },
    model: { zh: '型号', en: 'Model' },
    mainUnitName: { zh: '单位', en: 'Unit' },
    categoryName: { zh: '分类', en: 'Category' },
    brandName: { zh: '品牌', en: 'Brand' },
  },
  location: {
    code: { zh: '库位编码', en: 'Location code' },
    name: { zh: '库位名称', en: 'Location' },
    warehouseName: { zh: '仓库', en: 'Warehouse' },
  },
  box: {
    code: { zh: '物料编码', en: 'Material code' },
    name: { zh: '名称', en: 'Name' },
    specification: { zh: '规格', en: 'Specification' },
    mainUnitName: { zh: '单位', en: 'Unit' },
    perBox: { zh: '每箱数量', en: 'Per box' },
    boxNo: { zh: '箱号', en: 'Box' },
  },
};

export const LabelCode = ['barcode', 'qrcode', 'none'] as const;
export type LabelCode = (typeof LabelCode)[number];

const size = (min: number, max: number) => z.number().finite().min(min).max(max);

export const labelLayoutSchema = z.object({
  version: z.literal(1),
  paper: paperSchema,
  /** Labels across and down one sheet. */
  columns: z.number().int().min(1).max(20),
  rows: z.number().int().min(1).max(40),
  /** One label, millimetres. */
  labelWidth: size(10, 600),
  labelHeight: size(5, 600),
  /** Between two labels across and down. */
  gapX: size(0, 50),
  gapY: size(0, 50),
  /** The lines of a label, in order: a field, with or without its label, at its size. */
  fields: z
    .array(z.object({ key: z.string().min(1).max(40), label: z.boolean().default(false), fontSize: size(5, 36).default(8), bold: z.boolean().default(false) }))
    .max(12),
  /** The code as a barcode (under the lines), a QR code (beside them) or not at all. */
  code: z.enum(LabelCode),
  /** The barcode's height or the QR code's side, millimetres. */
  codeSize: size(3, 100),
  font: z.enum(FontFamily).optional(),
  /** A thin frame round each label (to cut along, or to see the label on plain paper). */
  border: z.boolean().default(false),
});
export type LabelLayout = z.infer<typeof labelLayoutSchema>;

/** The room a label needs on its sheet: `columns` labels and their gaps across, `rows` down. */
export function labelsSpan(layout: Pick<LabelLayout, 'columns' | 'rows' | 'labelWidth' | 'labelHeight' | 'gapX' | 'gapY'>) {
  return { width: layout.columns * layout.labelWidth + (layout.columns - 1) * layout.gapX, height: layout.rows * layout.labelHeight + (layout.rows - 1) * layout.gapY };
}

/** Why a label layout cannot print, or undefined: a field its kind lacks (or twice), labels that overrun the sheet. */
export function labelRefusal(kind: LabelKind, layout: LabelLayout): ErrorKey | undefined {
  const known = LABEL_FIELDS[kind];
  if (layout.fields.some((f) => !(f.key in known))) return 'PrintFieldUnknown';
  if (new Set(layout.fields.map((f) => f.key)).size !== layout.fields.length) return 'PrintTemplateInvalid';
  const page = pageSize(layout.paper);
  const span = labelsSpan(layout);
  const { margin } = layout.paper;
  if (span.width > page.width - margin.left - margin.right + 0.01 || span.height > page.height - margin.top - margin.bottom + 0.01) return 'PrintElementOutside';
  if (layout.code === 'qrcode' && layout.codeSize > Math.min(layout.labelWidth, layout.labelHeight) + 0.01) return 'PrintElementOutside';
  if (layout.code === 'barcode' && layout.codeSize > layout.labelHeight + 0.01) return 'PrintElementOutside';
  return undefined;
}

/** A sheet of `columns` × `rows` labels on a custom paper just large enough (a label printer's roll or a cut sheet). */
function sheetOf(kind: LabelKind): Pick<LabelLayout, 'paper' | 'columns' | 'rows' | 'labelWidth' | 'labelHeight' | 'gapX' | 'gapY'> {
  if (kind === 'box') {
    // Box labels: 100 × 70 mm, two across and four down on A4.
    const paper: Paper = { ...presetPaper('A4'), margin: { top: 8, right: 4, bottom: 8, left: 4 } };
    return { paper, columns: 2, rows: 4, labelWidth: 100, labelHeight: 68, gapX: 2, gapY: 3 };
  }
  // Materials and locations: the common 3 × 8 sheet of 70 × 36 mm on A4 (no gaps, 4.5 mm margins top and bottom).
  const paper: Paper = { ...presetPaper('A4'), margin: { top: 4.5, right: 0, bottom: 4.5, left: 0 } };
  return { paper, columns: 3, rows: 8, labelWidth: 70, labelHeight: 36, gapX: 0, gapY: 0 };
}

/** The starter label of a kind: its main fields, the code as a QR code (locations, boxes) or a barcode (materials). */
export function starterLabel(kind: LabelKind): LabelLayout {
  const sheet = sheetOf(kind);
  const line = (key: string, fontSize = 8, bold = false, label = false) => ({ key, fontSize, bold, label });
  if (kind === 'material')
    return { version: 1, ...sheet, fields: [line('name', 9, true), line('code'), line('specification', 8, false, true), line('mainUnitName', 8, false, true)], code: 'barcode', codeSize: 9, border: false };
  if (kind === 'location') return { version: 1, ...sheet, fields: [line('code', 14, true), line('name', 9), line('warehouseName', 8, false, true)], code: 'qrcode', codeSize: 26, border: false };
  return {
    version: 1,
    ...sheet,
    fields: [line('name', 12, true), line('code', 10), line('specification', 9, false, true), line('perBox', 11, true, true), line('boxNo', 11, true, true)],
    code: 'qrcode',
    codeSize: 30,
    border: true,
  };
}

/**
 * Which labels go where: `count` labels (in order) over sheets of `columns × rows`, filling each sheet row by
 * row. Answers, per sheet, its labels with their index, column and row, and their top-left corner in
 * millimetres from the paper's edge.
 */
export function labelSheets(layout: LabelLayout, count: number): Array<Array<{ index: number; column: number; row: number; x: number; y: number }>> {
  const perSheet = layout.columns * layout.rows;
  const sheets: Array<Array<{ index: number; column: number; row: number; x: number; y: number }>> = [];
  for (let index = 0; index < count; index++) {
    const slot = index % perSheet;
    if (slot === 0) sheets.push([]);
    const column = slot % layout.columns;
    const row = Math.floor(slot / layout.columns);
    sheets[sheets.length - 1].push({
      index,
      column,
      row,
      x: layout.paper.margin.left + column * (layout.labelWidth + layout.gapX),
      y: layout.paper.margin.top + row * (layout.labelHeight + layout.gapY),
    });
  }
  return sheets;
}

/** The most labels one print makes (selected records × copies, boxes): a few hundred sheets. */
export const MAX_LABELS = 5000;

/**
 * The labels of a selection: each record `copies` times (the same label again), or for boxes one label per box,
 * numbered `n / boxes`. Answers each label's field values.
 */
export function labelRecords(kind: LabelKind, records: ReadonlyArray<Record<string, unknown>>, copies: ReadonlyArray<number>, perBox?: ReadonlyArray<string>): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  records.forEach((record, i) => {
    const n = Math.max(0, Math.floor(copies[i] ?? 1));
    for (let c = 1; c <= n && out.length < MAX_LABELS; c++) {
      const values: Record<string, string> = {};
      for (const key of Object.keys(LABEL_FIELDS[kind])) values[key] = record[key] === null || record[key] === undefined ? '' : String(record[key]);
      if (kind === 'box') {
        // Boxes already packed (an inspection's) carry their own number and quantity.
        values.boxNo = record.boxNo ? String(record.boxNo) : `${c} / ${n}`;
        values.perBox = perBox?.[i] || (record.perBox ? String(record.perBox) : '');
      }
      out.push(values);
    }
  });
  return out;
}

// ---------------------------------------------------------------- the stored templates

const labelKindField = z.enum(LabelKind, { error: 'PleaseSelectData' });
export const labelTemplateCreateSchema = z.object({ kind: labelKindField, name: nameText(50), isDefault: z.boolean().default(false), layout: labelLayoutSchema });
export type LabelTemplateCreate = z.infer<typeof labelTemplateCreateSchema>;
export const labelTemplateUpdateSchema = labelTemplateCreateSchema.extend({ id: z.number().int().positive() });
export type LabelTemplateUpdate = z.infer<typeof labelTemplateUpdateSchema>;
export const labelTemplateOfKindQuery = z.object({ kind: labelKindField, lang: z.string().max(10).optional() });

/**
 * The screen whose "print labels" button prints a kind, and its button code: materials and their boxes on the
 * materials list, storage locations on the locations list (and a warehouse's drawer).
 */
export const LABEL_PRINT_SCREEN = { material: 'basic_material', box: 'basic_material', location: 'basic_location' } as const satisfies Record<LabelKind, string>;
export const labelPrintCode = (kind: LabelKind) => `${LABEL_PRINT_SCREEN[kind]}_printLabel`;

/**
 * POST /admin/basic/material/label/print (kinds material and box) or /admin/basic/location/label/print (kind
 * location), under the screen's `…_printLabel` button: labels printed (on paper or as a PDF) of the records
 * `ids` through a template (the kind's starter when null), `labels` in all. Audited, nothing else changes.
 */
export const labelPrintSchema = z.object({
  kind: labelKindField,
  templateId: z.number().int().positive().nullable().default(null),
  ids: z.array(z.number().int().positive(), { error: 'PleaseSelectData' }).min(1, { message: 'PleaseSelectData' }).max(MAX_LABELS),
  labels: z.number().int().min(1).max(MAX_LABELS),
  output: z.enum(['paper', 'pdf']).default('paper'),
});
export type LabelPrint = z.infer<typeof labelPrintSchema>;

/** A label template a print can use: a stored one, or the kind's starter (`id` null). */
export interface LabelTemplateChoice {
  id: number | null;
  kind: LabelKind;
  name: string;
  isDefault: boolean;
  layout: LabelLayout;
}
