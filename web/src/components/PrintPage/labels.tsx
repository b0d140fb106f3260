import { memo, type CSSProperties } from 'react';
import { QRCode } from 'antd';
import { LABEL_FIELDS, labelSheets, type LabelKind, type LabelLayout } from '@p8/contract/print/label';
import { LINE_HEIGHT } from '@p8/contract/print/paginate';
import { fontStack, pageSize } from '@p8/contract/print/template';
import { Barcode } from './index.tsx';
import './print.css';

const mm = (value: number) => `${value}mm`;
/** A label's inner padding (millimetres). */
const PAD = 1.5;

/** One label: its lines (fields, with their labels when asked) and the code as a barcode below or a QR code beside. */
function LabelBox({ kind, layout, values, lang }: { kind: LabelKind; layout: LabelLayout; values: Record<string, string>; lang: 'zh' | 'en' }) {
  const colon = lang === 'zh' ? '：' : ': ';
  const code = values.code ?? '';
  const lines = (
    <div className="p8-label-lines">
      {layout.fields.map((f) => (
        <div key={f.key} className="p8-label-line" style={{ fontSize: `${f.fontSize}pt`, fontWeight: f.bold ? 600 : 400, lineHeight: LINE_HEIGHT }} data-field={f.key}>
          {f.label ? `${LABEL_FIELDS[kind][f.key]?.[lang] ?? f.key}${colon}` : ''}
          {values[f.key] ?? ''}
        </div>
      ))}
    </div>
  );
  const style: CSSProperties = { width: mm(layout.labelWidth), height: mm(layout.labelHeight), padding: mm(PAD), fontFamily: fontStack(layout.font) };
  if (layout.code === 'qrcode')
    return (
      <div className={`p8-label p8-label-qr${layout.border ? ' framed' : ''}`} style={style}>
        <div className="p8-label-qrcode" style={{ width: mm(Math.min(layout.codeSize, layout.labelHeight - 2 * PAD)), height: mm(Math.min(layout.codeSize, layout.labelHeight - 2 * PAD)) }}>
          {code ? <QRCode value={code} type="svg" bordered={false} size={160} className="p8-print-qrcode" /> : null}
        </div>
        {lines}
      </div>
    );
  return (
    <div className={`p8-label p8-label-bar${layout.border ? ' framed' : ''}`} style={style}>
      {lines}
      {layout.code === 'barcode' && code ? (
        <div className="p8-label-barcode" style={{ height: mm(Math.min(layout.codeSize, layout.labelHeight - 2 * PAD)) }}>
          <Barcode text={code} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * Labels N-up on their sheets, each sheet exactly the paper's size, the labels in rows across it from the top
 * left (contract print/label.ts `labelSheets`). The print style sheet turns each sheet into one page.
 */
function LabelSheets({ kind, layout, labels, lang }: { kind: LabelKind; layout: LabelLayout; labels: ReadonlyArray<Record<string, string>>; lang: 'zh' | 'en' }) {
  const page = pageSize(layout.paper);
  return (
    <>
      {labelSheets(layout, labels.length).map((sheet, s) => (
        <div key={s} className="p8-print-page p8-label-sheet" data-testid="print-page" style={{ width: mm(page.width), height: mm(page.height) }}>
          {sheet.map((slot) => (
            <div key={slot.index} className="p8-label-slot" style={{ left: mm(slot.x), top: mm(slot.y) }} data-label={slot.index + 1}>
              <LabelBox kind={kind} layout={layout} values={labels[slot.index]} lang={lang} />
            </div>
          ))}
        </div>
      ))}
    </>
  );
}

export default memo(LabelSheets);

/** The `@page` rule of a label job: the sheet's exact size. */
export const labelPageRule = (layout: LabelLayout) => {
  const page = pageSize(layout.paper);
  return `@page { size: ${page.width}mm ${page.height}mm; margin: 0; }`;
};
