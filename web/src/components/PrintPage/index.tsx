import { memo, useMemo, type CSSProperties, type ReactNode } from 'react';
import { QRCode } from 'antd';
import type { BillView } from '@p8/contract/bills/api';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { code128 } from '@p8/contract/print/code128';
import { LINE_HEIGHT } from '@p8/contract/print/paginate';
import { fontStack, type PrintBand, type PrintElement, type PrintLayout } from '@p8/contract/print/template';
import { buildPrintModel, cellContentHeight, companyOf, elementText, headerText, pageRule, pageRules, PRINT_WORDS, type PrintContext, type PrintModel } from './print-model.ts';
import './print.css';

export { buildPrintModel, companyOf, pageRule, pageRules, type PrintContext, type PrintModel };

const mm = (value: number) => `${value}mm`;

const WORDS = PRINT_WORDS;

/** A Code 128 barcode of the text, bars as SVG rectangles stretched to the element's box. */
export function Barcode({ text }: { text: string }) {
  const widths = code128(text);
  if (!widths.length) return null;
  const total = widths.reduce((s, w) => s + w, 0);
  const bars: ReactNode[] = [];
  let x = 0;
  widths.forEach((w, i) => {
    if (i % 2 === 0 && w > 0) bars.push(<rect key={i} x={x} y={0} width={w} height={1} />);
    x += w;
  });
  return (
    <svg className="p8-print-barcode" viewBox={`0 0 ${total} 1`} preserveAspectRatio="none" data-value={text}>
      {bars}
    </svg>
  );
}

interface Drawn {
  decl: BillTypeDecl;
  bill: Record<string, unknown>;
  ctx: PrintContext;
  logo: string;
  page: number;
  pages: number;
}

/** What one element shows on one page. */
function content(e: PrintElement, d: Drawn): ReactNode {
  const value = () => headerText(d.decl, d.bill, e.field ?? '', d.ctx);
  switch (e.type) {
    case 'image': {
      const src = e.src || d.logo;
      return src ? <img src={src} alt="" /> : null;
    }
    case 'line':
    case 'box':
      return null;
    case 'barcode':
      return <Barcode text={value()} />;
    case 'qrcode': {
      const text = value();
      return text ? <QRCode value={text} type="svg" bordered={false} size={160} className="p8-print-qrcode" /> : null;
    }
    default:
      return elementText(e, d.decl, d.bill, d.ctx, d.page, d.pages) ?? null;
  }
}

/** An element's box: position, size, font, and for lines and boxes their borders. */
export function elementStyle(e: PrintElement): CSSProperties {
  const border = `${mm(e.thickness ?? 0.2)} solid #000`;
  // A line is the border along the longer side of its box.
  const horizontal = e.type === 'line' && e.w >= e.h;
  const vertical = e.type === 'line' && !horizontal;
  return {
    left: mm(e.x),
    top: mm(e.y),
    width: vertical ? 0 : mm(e.w),
    height: horizontal ? 0 : mm(e.h),
    fontSize: `${e.fontSize}pt`,
    fontFamily: fontStack(e.font),
    fontWeight: e.bold ? 600 : 400,
    textAlign: e.align,
    lineHeight: LINE_HEIGHT,
    ...(horizontal ? { borderTop: border } : vertical ? { borderLeft: border } : {}),
    ...(e.type === 'box' ? { border } : {}),
  };
}

function Band({ band, d, className, style }: { band: PrintBand; d: Drawn; className: string; style?: CSSProperties }) {
  return (
    <div className={`p8-print-band ${className}`} style={{ height: mm(band.height), ...style }}>
      {band.elements.map((e) => (
        <div key={e.id} className={`p8-print-el p8-print-el-${e.type}`} style={elementStyle(e)} data-element={e.id}>
          {content(e, d)}
        </div>
      ))}
    </div>
  );
}

interface PrintPagesProps {
  layout: PrintLayout;
  decl: BillTypeDecl;
  bill: BillView;
  ctx: PrintContext;
  /** The tenant's logo, for image elements without a picture of their own. */
  logo: string;
  /** Worked out by the caller when it needs it too (the page count); else here. */
  model?: PrintModel;
  /** The named `@page` its sheets print on, when one job holds pages of different sizes (`pageRules`). */
  pageName?: string;
  /**
   * Which pages to draw; the others are blank sheets of their exact size (`data-drawn="false"`), so a long
   * bill's preview draws only what is in view (`useSheetsInView`). Every page when not given.
   */
  drawn?: (page: number) => boolean;
  /** Only the first `limit` pages at all (a print job mounting its pages a few at a time). */
  limit?: number;
  /** Names each sheet (`data-sheet`, `<sheetKey>-<page>`) for `useSheetsInView`. */
  sheetKey?: string;
}

type SheetProps = Pick<PrintPagesProps, 'layout' | 'decl' | 'bill' | 'ctx' | 'logo' | 'pageName'> & { model: PrintModel; index: number; drawn: boolean; sheet?: string };

/**
 * One page, exactly the paper's size: the header band, the table's header row, the page's lines and its
 * subtotal (or the grand total on the last page), the footer band at the foot. Undrawn, the blank sheet alone.
 */
const PrintSheet = memo(function PrintSheet({ layout, decl, bill, ctx, logo, model, pageName, index: p, drawn, sheet }: SheetProps) {
  const { paper, header, footer, table } = layout;
  const slice = model.pages[p];
  const style: CSSProperties = { page: pageName, width: mm(model.page.width), height: mm(model.page.height), padding: `${mm(paper.margin.top)} ${mm(paper.margin.right)} ${mm(paper.margin.bottom)} ${mm(paper.margin.left)}` };
  if (!drawn) return <div className="p8-print-page" data-testid="print-page" data-drawn="false" data-sheet={sheet} style={style} />;
  const words = WORDS[ctx.lang];
  const fontSize = `${table.fontSize}pt`;
  // Each cell's content box is given its row's height less padding and ruling, so that every row is exactly
  // as tall as the paginator counted it.
  const cell = (height: number, text: string) => <div style={{ height: mm(cellContentHeight(height)) }}>{text}</div>;
  // A subtotal or total row: its label across the leading columns that sum nothing, then the sums.
  const firstSum = model.columns.findIndex((c) => c.sum);
  const leading = Math.max(1, firstSum === -1 ? model.columns.length : firstSum);
  const foot = (cells: string[], label: string, kind: string) => (
    <tr className={`p8-print-${kind}`}>
      <td colSpan={leading}>{cell(model.footHeight, label)}</td>
      {model.columns.slice(leading).map((c, i) => (
        <td key={c.key} className={c.numeric ? 'num' : undefined}>
          {cell(model.footHeight, cells[leading + i])}
        </td>
      ))}
    </tr>
  );
  const d: Drawn = { decl, bill, ctx, logo, page: p + 1, pages: model.pages.length };
  return (
    <div className="p8-print-page" data-testid="print-page" data-drawn="true" data-sheet={sheet} style={style}>
      <Band band={header} d={d} className="p8-print-header" />
      <table className="p8-print-table" style={{ width: mm(model.columns.reduce((s, c) => s + c.width, 0)), fontSize, fontFamily: fontStack(table.font) }}>
        <colgroup>
          {model.columns.map((c) => (
            <col key={c.key} style={{ width: mm(c.width) }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {model.columns.map((c, i) => (
              <th key={c.key} style={model.headFontSizes[i] === table.fontSize ? undefined : { fontSize: `${model.headFontSizes[i]}pt` }}>
                {cell(model.headHeight, c.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.rows.slice(slice.from, slice.to).map((cells, i) => (
            <tr key={slice.from + i} data-line={slice.from + i + 1}>
              {cells.map((text, c) => (
                <td key={model.columns[c].key} className={model.columns[c].numeric ? 'num' : undefined}>
                  {cell(model.rowHeights[slice.from + i], text)}
                </td>
              ))}
            </tr>
          ))}
          {!slice.last && table.subtotals && foot(model.subtotals[p], words.subtotal, 'subtotal')}
          {slice.last && table.total && foot(model.total, words.total, 'total')}
        </tbody>
      </table>
      <Band band={footer} d={d} className="p8-print-footer" style={{ left: mm(paper.margin.left), bottom: mm(paper.margin.bottom), width: mm(model.inner.width) }} />
    </div>
  );
});

/**
 * The bill on its pages, each exactly the paper's size (`PrintSheet`). The print style sheet (print.css) turns
 * each into one sheet of paper.
 */
function PrintPages({ layout, decl, bill, ctx, logo, model: given, pageName, drawn, limit, sheetKey }: PrintPagesProps) {
  const model = useMemo(() => given ?? buildPrintModel(layout, decl, bill, ctx), [given, layout, decl, bill, ctx]);
  const count = Math.min(model.pages.length, limit ?? Infinity);
  const sheets: ReactNode[] = [];
  for (let p = 0; p < count; p++)
    sheets.push(
      <PrintSheet key={p} layout={layout} decl={decl} bill={bill} ctx={ctx} logo={logo} model={model} pageName={pageName} index={p} drawn={drawn ? drawn(p) : true} sheet={sheetKey === undefined ? undefined : `${sheetKey}-${p}`} />,
    );
  return <>{sheets}</>;
}

export default memo(PrintPages);

/** Millimetres to CSS pixels at 96 dpi (the preview's scale). */
export const MM_PX = 96 / 25.4;
