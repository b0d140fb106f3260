import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflate, mmToPt, rgbOf, writePdf, type PdfPage } from './pdf.ts';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** A page of `w` × `h` pixels, every pixel `rgb`, compressed as the browser would. */
async function page(width: number, height: number, w: number, h: number, rgb: [number, number, number]): Promise<PdfPage> {
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i % 4 === 3 ? 255 : rgb[i % 4]));
  return { width, height, image: { pixelsWide: w, pixelsHigh: h, data: await deflate(rgbOf(rgba)), filter: 'FlateDecode' } };
}

describe('PDF writer', () => {
  it('writes one page per picture, each its paper size in points, with a cross-reference table that points at every object', async () => {
    const pdf = writePdf([await page(210, 297, 4, 6, [255, 255, 255]), await page(80, 123.4, 3, 2, [10, 20, 30])], { title: '采购订单 CG-1', creationDate: new Date('2026-11-28T10:00:00Z') });
    const text = latin1(pdf);
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(/\/Count 2/.test(text)).toBe(true);
    const boxes = [...text.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(boxes).toEqual([
      [Math.round(mmToPt(210) * 1000) / 1000, Math.round(mmToPt(297) * 1000) / 1000],
      [Math.round(mmToPt(80) * 1000) / 1000, Math.round(mmToPt(123.4) * 1000) / 1000],
    ]);
    expect(Math.round(mmToPt(210))).toBe(595);
    // startxref names the table; every entry in it is the offset of "n 0 obj".
    const xref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const entries = text.slice(xref).split('\n').slice(3).filter((l) => / n $/.test(l));
    expect(entries).toHaveLength(9);
    entries.forEach((entry, i) => expect(text.slice(Number(entry.slice(0, 10))).startsWith(`${i + 1} 0 obj`)).toBe(true));
    // The title in UTF-16 (Chinese), and each picture's stream of exactly its declared length, inflating to its pixels.
    expect(text).toContain('/Title <FEFF91C78D2D8BA25355002000430047002D0031>');
    const streams = [...text.matchAll(/\/Width (\d+) \/Height (\d+) [^>]*\/Length (\d+) >>\nstream\n/g)];
    expect(streams.map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [4, 6],
      [3, 2],
    ]);
    const second = streams[1];
    const start = second.index + second[0].length;
    const pixels = inflateSync(Buffer.from(pdf.slice(start, start + Number(second[3]))));
    expect([...pixels]).toEqual(Array.from({ length: 6 }, () => [10, 20, 30]).flat());
    expect(text.slice(start + Number(second[3]), start + Number(second[3]) + 10)).toBe('\nendstream');
  });

  it('drops the alpha of canvas pixels', () => {
    expect([...rgbOf(new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 0]))]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
