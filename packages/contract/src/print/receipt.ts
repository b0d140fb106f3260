import { z } from 'zod';
import { storableText } from '../text.ts';
import { wide } from './paginate.ts';

/**
 * Receipts for cloud printers: a bill printed through a receipt template (80 or 58 mm paper) becomes lines of
 * text for a receipt printer — a provider's text format, not a picture. The print dialog works the lines out
 * from the same print model as the page (every value as printed), the server checks them, counts the print and
 * hands them to the printer's provider, which writes them in its own markup (Feie: `feieText`, Yilianyun: `yilianyunText`).
 */

/** Characters across a receipt (a CJK character takes two): 58 mm paper 32, 80 mm paper 48. */
export const RECEIPT_CHARS = { Receipt58: 32, Receipt80: 48 } as const;
export type ReceiptPaper = keyof typeof RECEIPT_CHARS;

export const receiptLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: storableText().max(500), align: z.enum(['left', 'center', 'right']).default('left'), bold: z.boolean().default(false), big: z.boolean().default(false) }),
  /** A rule across the receipt. */
  z.object({ type: z.literal('rule') }),
  z.object({ type: z.literal('qrcode'), text: storableText().min(1).max(300) }),
  z.object({ type: z.literal('barcode'), text: z.string().regex(/^[\x20-\x7e]{1,40}$/) }),
]);
export type ReceiptLine = z.infer<typeof receiptLineSchema>;

/** POST /admin/<area>/<bill>/print/cloud: a bill's receipt sent to one of the tenant's cloud printers. */
export const billCloudPrintSchema = z.object({
  id: z.number().int().positive(),
  templateId: z.number().int().positive().nullable().default(null),
  printerId: z.number({ error: 'PleaseSelectPrinter' }).int().positive({ message: 'PleaseSelectPrinter' }),
  paper: z.enum(['Receipt58', 'Receipt80']),
  lines: z.array(receiptLineSchema).min(1).max(2000),
});
export type BillCloudPrint = z.infer<typeof billCloudPrintSchema>;

/** A character's width on a receipt: two for CJK and full-width forms, one otherwise. */
export const charWidth = (ch: string): number => (wide(ch.codePointAt(0)!) ? 2 : 1);
export const textWidth = (text: string) => [...text].reduce((s, ch) => s + charWidth(ch), 0);

/** Text cut to `width` characters (never half a CJK character) and padded to it, on the left for numbers. */
export function fit(text: string, width: number, right = false): string {
  let out = '';
  let used = 0;
  for (const ch of text.replace(/\s+/g, ' ')) {
    const w = charWidth(ch);
    if (used + w > width) break;
    out += ch;
    used += w;
  }
  const pad = ' '.repeat(width - used);
  return right ? pad + out : out + pad;
}

/** Text broken into lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const ch of text.replace(/\s+/g, ' ')) {
    const w = charWidth(ch);
    if (used + w > width && line) {
      lines.push(line);
      line = '';
      used = 0;
    }
    line += ch;
    used += w;
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}

/**
 * A bill's table on a receipt: the columns' widths in characters in proportion to their widths on the
 * template, the first column (the material) on a line of its own when the others need the room, every row's
 * cells cut to their width, numbers to the right; the header row and the total row between rules.
 */
export function receiptTable(columns: ReadonlyArray<{ label: string; width: number; numeric: boolean }>, rows: ReadonlyArray<ReadonlyArray<string>>, total: ReadonlyArray<string> | null, chars: number, totalLabel: string): ReceiptLine[] {
  if (!columns.length) return [];
  // The first wide column gets a line of its own; the rest share the line below it.
  const [first, ...rest] = columns;
  const restWidth = rest.reduce((s, c) => s + c.width, 0);
  const widths = rest.map((c) => Math.max(3, Math.floor(((c.width / (restWidth || 1)) * (chars - rest.length + 1)))));
  let spare = chars - rest.length + 1 - widths.reduce((s, w) => s + w, 0);
  for (let i = widths.length - 1; spare > 0 && i >= 0; i--, spare--) widths[i]++;
  const line = (cells: readonly string[]) => rest.map((c, i) => fit(cells[i] ?? '', widths[i], c.numeric)).join(' ').trimEnd();
  const out: ReceiptLine[] = [];
  const text = (t: string, bold = false): ReceiptLine => ({ type: 'text', text: t, align: 'left', bold, big: false });
  out.push(text(first.label, true));
  if (rest.length) out.push(text(line(rest.map((c) => c.label)), true));
  out.push({ type: 'rule' });
  for (const cells of rows) {
    for (const l of wrap(cells[0] ?? '', chars)) out.push(text(l));
    if (rest.length) out.push(text(line(cells.slice(1))));
  }
  if (total) {
    out.push({ type: 'rule' });
    out.push(text(totalLabel, true));
    if (rest.length) out.push(text(line(total.slice(1)), true));
  }
  return out;
}

const escapeFeie = (text: string) => text.replace(/</g, '＜').replace(/>/g, '＞');

/**
 * Lines in Feie's receipt markup: `<BR>` ends a line, `<C>` centres it, `<RIGHT>` puts it right, `<B>` doubles
 * it, `<BOLD>` emboldens it, `<QR>` a QR code, `<BC128_A>` a Code 128 barcode, `<CUT>` cuts the paper. The
 * angle brackets of the text itself are written full width (they would start a tag).
 */
export function feieText(lines: readonly ReceiptLine[], chars: number): string {
  let out = '';
  for (const l of lines) {
    if (l.type === 'rule') out += `${'-'.repeat(chars)}<BR>`;
    else if (l.type === 'qrcode') out += `<C><QR>${escapeFeie(l.text)}</QR></C>`;
    else if (l.type === 'barcode') out += `<C><BC128_A>${escapeFeie(l.text)}</BC128_A></C>`;
    else {
      let text = escapeFeie(l.text);
      if (l.bold) text = `<BOLD>${text}</BOLD>`;
      if (l.big) text = `<B>${text}</B>`;
      if (l.align === 'center') text = `<C>${text}</C>`;
      else if (l.align === 'right') text = `<RIGHT>${text}</RIGHT>`;
      out += `${text}<BR>`;
    }
  }
  return `${out}<CUT>`;
}

/**
 * Lines in Yilianyun's receipt markup (its open API's K-series instruction set): a line ends with `\n`,
 * `<center>` centres it, `<right>` puts it right, `<FS2>` doubles it, `<FB>` emboldens it, `<QR>` a QR code,
 * `<BR>` a barcode — of at most 13 digits, so any other value is written as centred text instead — and
 * `<MN>n</MN>` at the head prints n copies (1 to 9). The angle brackets of the text itself are written full
 * width, as for Feie.
 */
export function yilianyunText(lines: readonly ReceiptLine[], chars: number, copies = 1): string {
  let out = copies > 1 ? `<MN>${Math.min(9, copies)}</MN>` : '';
  for (const l of lines) {
    if (l.type === 'rule') out += `${'-'.repeat(chars)}\n`;
    else if (l.type === 'qrcode') out += `<QR>${escapeFeie(l.text)}</QR>\n`;
    else if (l.type === 'barcode') out += /^\d{1,13}$/.test(l.text) ? `<BR>${l.text}</BR>\n` : `<center>${escapeFeie(l.text)}</center>\n`;
    else {
      let text = escapeFeie(l.text);
      if (l.bold) text = `<FB>${text}</FB>`;
      if (l.big) text = `<FS2>${text}</FS2>`;
      if (l.align === 'center') text = `<center>${text}</center>`;
      else if (l.align === 'right') text = `<right>${text}</right>`;
      out += `${text}\n`;
    }
  }
  return out;
}
