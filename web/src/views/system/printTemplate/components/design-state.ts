import type { ElementType, PrintElement, PrintLayout } from '@p8/contract/print/template';

/**
 * The designer's pure part: the layout being designed with its undo and redo history, and the moves the
 * screen makes on it (add, move with snapping, resize, change, remove an element; change the page and the
 * table). Every change is a new layout pushed on the history; undo and redo walk it.
 */

export type Band = 'header' | 'footer';

export interface DesignState {
  past: PrintLayout[];
  present: PrintLayout;
  future: PrintLayout[];
  selected: { band: Band; id: string } | null;
}

/** How many steps undo keeps. */
const HISTORY = 100;

export const startDesign = (layout: PrintLayout): DesignState => ({ past: [], present: layout, future: [], selected: null });

/** The state after a change of the layout (nothing when the layout is the same). */
export function changed(state: DesignState, next: PrintLayout, selected: DesignState['selected'] = state.selected): DesignState {
  if (JSON.stringify(next) === JSON.stringify(state.present)) return { ...state, selected };
  return { past: [...state.past, state.present].slice(-HISTORY), present: next, future: [], selected };
}

export function undo(state: DesignState): DesignState {
  if (!state.past.length) return state;
  return { past: state.past.slice(0, -1), present: state.past[state.past.length - 1], future: [state.present, ...state.future], selected: keepSelection(state.past[state.past.length - 1], state.selected) };
}

export function redo(state: DesignState): DesignState {
  if (!state.future.length) return state;
  return { past: [...state.past, state.present], present: state.future[0], future: state.future.slice(1), selected: keepSelection(state.future[0], state.selected) };
}

const keepSelection = (layout: PrintLayout, selected: DesignState['selected']) => (selected && layout[selected.band].elements.some((e) => e.id === selected.id) ? selected : null);

/** The snapping grid, in millimetres. */
export const GRID = 1;
/** How close (mm) an edge must come to another element's edge or the band's to snap to it. */
export const SNAP = 1.5;

/** A position snapped: to another element's or the band's edges when one is within SNAP, else to the grid. */
export function snap(value: number, size: number, edges: readonly number[]): number {
  let best: number | undefined;
  let distance = SNAP;
  for (const edge of edges) {
    for (const candidate of [edge, edge - size]) {
      const d = Math.abs(candidate - value);
      if (d < distance) {
        distance = d;
        best = candidate;
      }
    }
  }
  return Math.round((best ?? Math.round(value / GRID) * GRID) * 100) / 100;
}

/** The edges elements of a band snap to (the band's own, the other elements' sides and centres). */
export function bandEdges(layout: PrintLayout, band: Band, width: number, exceptId: string, axis: 'x' | 'y'): number[] {
  const size = axis === 'x' ? width : layout[band].height;
  const edges = [0, size / 2, size];
  for (const e of layout[band].elements) {
    if (e.id === exceptId) continue;
    const [start, length] = axis === 'x' ? [e.x, e.w] : [e.y, e.h];
    edges.push(start, start + length / 2, start + length);
  }
  return edges;
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** A layout with one element replaced (kept inside its band). */
export function withElement(layout: PrintLayout, band: Band, element: PrintElement, width: number): PrintLayout {
  const w = clamp(element.w, 0.2, width);
  const h = clamp(element.h, 0.2, layout[band].height);
  const fitted = { ...element, w, h, x: clamp(element.x, 0, width - w), y: clamp(element.y, 0, layout[band].height - h) };
  return { ...layout, [band]: { ...layout[band], elements: layout[band].elements.map((e) => (e.id === element.id ? fitted : e)) } };
}

/** The default size and settings of a new element of a type. */
export function newElement(type: ElementType, id: string, x: number, y: number, field: string | undefined, text: string): PrintElement {
  const square = type === 'qrcode' || type === 'box';
  const base: PrintElement = { id, type, x, y, w: square ? 18 : type === 'barcode' ? 50 : type === 'line' ? 60 : 50, h: square ? 18 : type === 'barcode' ? 12 : type === 'line' ? 0.3 : 6, fontSize: 10, bold: false, align: 'left' };
  if (type === 'text') return { ...base, text };
  if (type === 'line' || type === 'box') return { ...base, thickness: 0.3 };
  if (type === 'field') return { ...base, field, label: true };
  if (type === 'barcode' || type === 'qrcode' || type === 'capitals') return { ...base, field };
  if (type === 'image') return { ...base, w: 30, h: 12, src: '' };
  return base;
}

/** Adds an element to a band (inside it) and selects it. */
export function addElement(state: DesignState, band: Band, element: PrintElement, width: number): DesignState {
  const layout = { ...state.present, [band]: { ...state.present[band], elements: [...state.present[band].elements, element] } };
  return changed(state, withElement(layout, band, element, width), { band, id: element.id });
}

export function removeElement(state: DesignState, band: Band, id: string): DesignState {
  const layout = { ...state.present, [band]: { ...state.present[band], elements: state.present[band].elements.filter((e) => e.id !== id) } };
  return changed(state, layout, null);
}

/** An id no element of the layout has. */
export function freshId(layout: PrintLayout, type: ElementType): string {
  const taken = new Set([...layout.header.elements, ...layout.footer.elements].map((e) => e.id));
  let n = taken.size + 1;
  while (taken.has(`${type}-${n}`)) n++;
  return `${type}-${n}`;
}
