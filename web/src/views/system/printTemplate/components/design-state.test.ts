import { describe, expect, it } from 'vitest';
import { billType } from '@p8/contract/bills/catalogue';
import { starterTemplate } from '@p8/contract/print/template';
import { addElement, bandEdges, changed, freshId, newElement, redo, removeElement, snap, startDesign, undo, withElement } from './design-state.ts';

const layout = () => starterTemplate(billType('SaleOutstock')!, 'zh');

describe('designer state', () => {
  it('undoes and redoes every change in order, and a new change drops what was undone', () => {
    let s = startDesign(layout());
    const first = s.present;
    s = addElement(s, 'header', newElement('text', freshId(s.present, 'text'), 5, 2, undefined, 'Hello'), 190);
    const second = s.present;
    s = changed(s, { ...s.present, table: { ...s.present.table, fontSize: 12 } });
    expect(s.past).toEqual([first, second]);
    s = undo(s);
    expect(s.present).toEqual(second);
    s = undo(s);
    expect(s.present).toEqual(first);
    expect(s.selected).toBeNull();
    expect(undo(s)).toBe(s);
    s = redo(s);
    expect(s.present).toEqual(second);
    s = changed(s, { ...s.present, footer: { ...s.present.footer, height: 25 } });
    expect(s.future).toEqual([]);
    expect(redo(s)).toBe(s);
    // The same layout again is no step.
    expect(changed(s, structuredClone(s.present)).past).toHaveLength(s.past.length);
  });

  it('keeps a moved or resized element inside its band', () => {
    const l = layout();
    const e = l.header.elements[1];
    const moved = withElement(l, 'header', { ...e, x: 500, y: -20 }, 190).header.elements[1];
    expect(moved.x + moved.w).toBeCloseTo(190);
    expect(moved.y).toBe(0);
    const wide = withElement(l, 'header', { ...e, w: 900 }, 190).header.elements[1];
    expect(wide.w).toBe(190);
  });

  it('snaps to a nearby edge of another element or the band, else to the millimetre grid', () => {
    expect(snap(10.4, 5, [0, 100])).toBe(10);
    expect(snap(99.2, 5, [0, 100])).toBe(100);
    // Its far side onto an edge: 94.6 + 5 is within reach of 100.
    expect(snap(94.6, 5, [0, 100])).toBe(95);
    expect(snap(42.7, 5, [0, 44])).toBe(44);
    const l = layout();
    const edges = bandEdges(l, 'header', 190, l.header.elements[0].id, 'x');
    expect(edges).toContain(0);
    expect(edges).toContain(190);
    expect(edges).toContain(l.header.elements[1].x);
  });

  it('adds elements with fresh ids and removes them', () => {
    let s = startDesign(layout());
    const id = freshId(s.present, 'barcode');
    expect([...s.present.header.elements, ...s.present.footer.elements].map((e) => e.id)).not.toContain(id);
    s = addElement(s, 'footer', newElement('barcode', id, 0, 0, 'billCode', ''), 190);
    expect(s.selected).toEqual({ band: 'footer', id });
    expect(s.present.footer.elements.at(-1)).toMatchObject({ type: 'barcode', field: 'billCode' });
    s = removeElement(s, 'footer', id);
    expect(s.present.footer.elements.map((e) => e.id)).not.toContain(id);
    expect(s.selected).toBeNull();
  });
});
