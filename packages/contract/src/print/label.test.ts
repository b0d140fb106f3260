import { describe, expect, it } from 'vitest';
import { LABEL_FIELDS, LabelKind, labelLayoutSchema, labelRecords, labelRefusal, labelSheets, labelsSpan, MAX_LABELS, starterLabel, type LabelLayout } from './label.ts';
import { pageSize, presetPaper } from './template.ts';

/** A small seeded generator, so that a failing case can be run again. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('label templates', () => {
  it('gives every kind a starter label that is valid and fits its sheet', () => {
    for (const kind of LabelKind) {
      const layout = starterLabel(kind);
      expect(labelLayoutSchema.parse(layout), kind).toEqual(layout);
      expect(labelRefusal(kind, layout), kind).toBeUndefined();
      for (const f of layout.fields) expect(LABEL_FIELDS[kind], kind).toHaveProperty(f.key);
    }
    // The common 3 × 8 sheet of 70 × 36 mm fills an A4 exactly.
    expect(labelsSpan(starterLabel('material'))).toEqual({ width: 210, height: 288 });
  });

  it('refuses labels that overrun the sheet, a field the kind lacks or twice, a code larger than the label', () => {
    const base = (): LabelLayout => starterLabel('material');
    expect(labelRefusal('material', { ...base(), columns: 4 })).toBe('PrintElementOutside');
    expect(labelRefusal('material', { ...base(), gapY: 1 })).toBe('PrintElementOutside');
    expect(labelRefusal('material', { ...base(), fields: [{ key: 'warehouseName', label: false, fontSize: 8, bold: false }] })).toBe('PrintFieldUnknown');
    expect(labelRefusal('location', { ...starterLabel('location'), fields: [{ key: 'code', label: false, fontSize: 8, bold: false }, { key: 'code', label: true, fontSize: 8, bold: false }] })).toBe('PrintTemplateInvalid');
    expect(labelRefusal('location', { ...starterLabel('location'), codeSize: 40 })).toBe('PrintElementOutside');
    expect(labelRefusal('material', { ...base(), codeSize: 37 })).toBe('PrintElementOutside');
  });

  it('places every label once, in order, row by row, inside its sheet and never over another (random sheets)', () => {
    const next = random(7);
    for (let run = 0; run < 300; run++) {
      const columns = 1 + Math.floor(next() * 5);
      const rows = 1 + Math.floor(next() * 10);
      const gapX = Math.round(next() * 4 * 10) / 10;
      const gapY = Math.round(next() * 4 * 10) / 10;
      const paper = { ...presetPaper(next() < 0.5 ? 'A4' : 'A5'), margin: { top: 3, right: 3, bottom: 3, left: 3 } };
      const page = pageSize(paper);
      const labelWidth = Math.floor(((page.width - 6 - (columns - 1) * gapX) / columns) * 10) / 10;
      const labelHeight = Math.floor(((page.height - 6 - (rows - 1) * gapY) / rows) * 10) / 10;
      const layout: LabelLayout = { ...starterLabel('material'), paper, columns, rows, labelWidth, labelHeight, gapX, gapY, codeSize: Math.min(5, labelHeight) };
      expect(labelRefusal('material', layout)).toBeUndefined();
      const count = Math.floor(next() * 120);
      const sheets = labelSheets(layout, count);
      expect(sheets.length).toBe(Math.ceil(count / (columns * rows)));
      expect(sheets.flat().map((l) => l.index)).toEqual(Array.from({ length: count }, (_, i) => i));
      for (const sheet of sheets) {
        // Every sheet but the last is full.
        if (sheet !== sheets[sheets.length - 1]) expect(sheet.length).toBe(columns * rows);
        for (const l of sheet) {
          expect(l.x + labelWidth).toBeLessThanOrEqual(page.width - paper.margin.right + 1e-6);
          expect(l.y + labelHeight).toBeLessThanOrEqual(page.height - paper.margin.bottom + 1e-6);
        }
        // Every pair apart, and row by row: a later label is further down, or on the same row further right
        // (counted, then checked once: an expect per pair makes the run slow on a busy machine).
        let overlapping = 0;
        let outOfOrder = 0;
        for (let i = 0; i < sheet.length; i++)
          for (let j = i + 1; j < sheet.length; j++) {
            const [a, b] = [sheet[i], sheet[j]];
            const apart = a.x + labelWidth <= b.x + 1e-6 || b.x + labelWidth <= a.x + 1e-6 || a.y + labelHeight <= b.y + 1e-6 || b.y + labelHeight <= a.y + 1e-6;
            if (!apart) overlapping++;
            if (!(b.y > a.y || (b.y === a.y && b.x > a.x))) outOfOrder++;
          }
        expect([overlapping, outOfOrder], `run ${run}`).toEqual([0, 0]);
      }
    }
  });

  it('makes each record its copies of labels, boxes numbered n / boxes with the quantity per box, within the most a print takes', () => {
    const records = [
      { id: 1, code: 'M-1', name: '螺丝', specification: 'M8', mainUnitName: '个' },
      { id: 2, code: 'M-2', name: 'Nut', specification: null },
    ];
    const labels = labelRecords('material', records, [2, 0]);
    expect(labels.map((l) => l.code)).toEqual(['M-1', 'M-1']);
    expect(labels[0]).toMatchObject({ name: '螺丝', specification: 'M8', mainUnitName: '个', model: '' });
    const boxes = labelRecords('box', records, [1, 3], ['100', '24']);
    expect(boxes.map((l) => [l.code, l.boxNo, l.perBox])).toEqual([
      ['M-1', '1 / 1', '100'],
      ['M-2', '1 / 3', '24'],
      ['M-2', '2 / 3', '24'],
      ['M-2', '3 / 3', '24'],
    ]);
    expect(boxes[1].specification).toBe('');
    expect(labelRecords('location', [{ id: 1, code: 'A-01', name: 'A', warehouseName: 'W' }], [MAX_LABELS + 10])).toHaveLength(MAX_LABELS);
  });
});
