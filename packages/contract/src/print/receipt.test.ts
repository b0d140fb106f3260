import { describe, expect, it } from 'vitest';
import { feieText, fit, yilianyunText, RECEIPT_CHARS, receiptTable, textWidth, wrap } from './receipt.ts';

describe('receipts for cloud printers', () => {
  it('fits text to a width counting a CJK character as two, never cutting one in half, numbers to the right', () => {
    expect(fit('螺丝M8', 5)).toBe('螺丝M');
    expect(fit('螺丝M8', 4)).toBe('螺丝');
    expect(fit('螺丝', 3)).toBe('螺 ');
    expect(fit('12.50', 8, true)).toBe('   12.50');
    expect(textWidth('合计 12')).toBe(7);
    expect(wrap('不锈钢六角螺栓组件 M8x40', 10)).toEqual(['不锈钢六角', '螺栓组件 M', '8x40']);
    expect(wrap('', 10)).toEqual(['']);
  });

  it('lays a bill table out on the width of its paper: the first column on its own line, the rest in columns, every line within the width', () => {
    const columns = [
      { label: '物料', width: 40, numeric: false },
      { label: '数量', width: 15, numeric: true },
      { label: '单价', width: 15, numeric: true },
      { label: '金额', width: 20, numeric: true },
    ];
    const rows = [
      ['M-1 不锈钢六角螺栓组件（含垫片、弹簧垫圈与防松螺母）', '12', '1.50', '18.00'],
      ['M-2 Nut', '3', '0.20', '0.60'],
    ];
    for (const chars of Object.values(RECEIPT_CHARS)) {
      const lines = receiptTable(columns, rows, ['', '15', '', '18.60'], chars, '合计');
      for (const l of lines) if (l.type === 'text') expect(textWidth(l.text), l.text).toBeLessThanOrEqual(chars);
      const texts = lines.map((l) => (l.type === 'text' ? l.text : `[${l.type}]`));
      expect(texts[0]).toBe('物料');
      expect(texts[2]).toBe('[rule]');
      expect(texts.filter((t) => t === '[rule]')).toHaveLength(2);
      expect(texts.at(-2)).toBe('合计');
      expect(texts.at(-1)!.endsWith('18.60')).toBe(true);
      // The long material wraps over several lines: nothing of it is lost.
      expect(texts.join('').replace(/\s/g, '')).toContain('M-1不锈钢六角螺栓组件（含垫片、弹簧垫圈与防松螺母）'.replace(/\s/g, ''));
    }
  });

  it("writes Feie's markup: a line per text with its alignment and size, rules, codes, the paper cut; angle brackets of the text defused", () => {
    const text = feieText(
      [
        { type: 'text', text: '采购订单', align: 'center', bold: true, big: true },
        { type: 'rule' },
        { type: 'text', text: 'a<BR>b', align: 'right', bold: false, big: false },
        { type: 'qrcode', text: 'CGDD-1' },
        { type: 'barcode', text: 'CGDD-1' },
      ],
      32,
    );
    expect(text).toBe(`<C><B><BOLD>采购订单</BOLD></B></C><BR>${'-'.repeat(32)}<BR><RIGHT>a＜BR＞b</RIGHT><BR><C><QR>CGDD-1</QR></C><C><BC128_A>CGDD-1</BC128_A></C><CUT>`);
  });

  it("writes Yilianyun's markup: copies at the head, a line per text, codes (a barcode only of digits), brackets defused", () => {
    const lines = [
      { type: 'text', text: '采购订单', align: 'center', bold: true, big: true },
      { type: 'rule' },
      { type: 'text', text: 'a<br>b', align: 'right', bold: false, big: false },
      { type: 'text', text: 'x', align: 'left', bold: false, big: false },
      { type: 'qrcode', text: 'CGDD-1' },
      { type: 'barcode', text: '6901234567892' },
      { type: 'barcode', text: 'CGDD-1' },
    ] as const;
    expect(yilianyunText(lines, 32, 2)).toBe(
      `<MN>2</MN><center><FS2><FB>采购订单</FB></FS2></center>\n${'-'.repeat(32)}\n<right>a＜br＞b</right>\nx\n<QR>CGDD-1</QR>\n<BR>6901234567892</BR>\n<center>CGDD-1</center>\n`,
    );
    expect(yilianyunText([{ type: 'rule' }], 48, 1)).toBe(`${'-'.repeat(48)}\n`);
  });
});
