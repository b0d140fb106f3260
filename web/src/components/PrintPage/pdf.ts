/**
 * A minimal PDF writer: one picture per page, each page exactly its paper's size. The printed pages are drawn
 * by the browser (the same pages as the preview and the print), turned into pictures (pdf-export.ts) and
 * written here — no PDF library, nothing but the file format's few objects. Pure, so it is unit-tested.
 */

/** A page: its paper size in millimetres and its picture, `rgb` rows of 3 bytes a pixel, zlib-compressed. */
export interface PdfPage {
  width: number;
  height: number;
  image: { pixelsWide: number; pixelsHigh: number; data: Uint8Array; filter: 'FlateDecode' | 'DCTDecode' };
}

/** Millimetres in PDF points (1/72 inch). */
export const mmToPt = (mm: number) => (mm * 72) / 25.4;

const ascii = (text: string) => new TextEncoder().encode(text);
const num = (n: number) => String(Math.round(n * 1000) / 1000);

/** A PDF text string: printable ASCII as a literal, anything else as UTF-16BE hex (titles in Chinese). */
function pdfString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/** The file: a catalogue, the page tree, and per page its page object, its drawing and its picture. */
export function writePdf(pages: readonly PdfPage[], info: { title?: string; creationDate?: Date } = {}): Uint8Array {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (bytes: Uint8Array) => {
    chunks.push(bytes);
    length += bytes.length;
  };
  const offsets: number[] = [];
  const object = (n: number, body: string, stream?: Uint8Array) => {
    offsets[n] = length;
    push(ascii(`${n} 0 obj\n${body}\n`));
    if (stream) {
      push(ascii('stream\n'));
      push(stream);
      push(ascii('\nendstream\n'));
    }
    push(ascii('endobj\n'));
  };
  // Objects: 1 catalogue, 2 page tree, 3 info; then 3 per page (page, content, image).
  const pageObj = (i: number) => 4 + i * 3;
  push(ascii('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'));
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  const when = info.creationDate ?? new Date();
  const stamp = `D:${when.getUTCFullYear()}${[when.getUTCMonth() + 1, when.getUTCDate(), when.getUTCHours(), when.getUTCMinutes(), when.getUTCSeconds()].map((v) => String(v).padStart(2, '0')).join('')}Z`;
  object(3, `<< /Producer (p8 print) /CreationDate (${stamp})${info.title ? ` /Title ${pdfString(info.title)}` : ''} >>`);
  pages.forEach((page, i) => {
    const w = mmToPt(page.width);
    const h = mmToPt(page.height);
    const [pageN, contentN, imageN] = [pageObj(i), pageObj(i) + 1, pageObj(i) + 2];
    object(pageN, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(w)} ${num(h)}] /Resources << /XObject << /P${i} ${imageN} 0 R >> >> /Contents ${contentN} 0 R >>`);
    const draw = ascii(`q ${num(w)} 0 0 ${num(h)} 0 0 cm /P${i} Do Q`);
    object(contentN, `<< /Length ${draw.length} >>`, draw);
    const { image } = page;
    object(imageN, `<< /Type /XObject /Subtype /Image /Width ${image.pixelsWide} /Height ${image.pixelsHigh} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /${image.filter} /Length ${image.data.length} >>`, image.data);
  });
  const count = 4 + pages.length * 3;
  const xref = length;
  let table = `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let n = 1; n < count; n++) table += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  push(ascii(`${table}trailer\n<< /Size ${count} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** RGBA pixels (a canvas's) as RGB rows, the alpha dropped (the pages are drawn on white). */
export function rgbOf(rgba: Uint8ClampedArray | Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i];
    rgb[j + 1] = rgba[i + 1];
    rgb[j + 2] = rgba[i + 2];
  }
  return rgb;
}

/** Bytes zlib-compressed (what a PDF's FlateDecode reads), by the platform's own compressor. */
export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
