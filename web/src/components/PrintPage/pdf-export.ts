import { deflate, rgbOf, writePdf, type PdfPage } from './pdf.ts';

/**
 * The printed pages as a PDF file: each page drawn by the browser exactly as the preview shows it and the
 * print prints it (the same elements, fonts and sizes), turned into a picture at 200 dpi by html-to-image
 * (loaded only when a PDF is made) and written page by page at the paper's exact size (pdf.ts). Loaded
 * lazily by the print dialogs, so the screens carry none of it.
 */

/** Picture pixels per CSS pixel: 96 dpi × 2.0833 = 200 dpi, sharp text at a few hundred kB a page. */
const PIXEL_RATIO = 200 / 96;
const PX_PER_MM = 96 / 25.4;

const millimetres = (css: string) => (css.endsWith('mm') ? Number(css.slice(0, -2)) : undefined);

/** One drawn page (a `.p8-print-page` element) as a PDF page: its picture at its paper's size. */
export async function pdfPageOf(node: HTMLElement): Promise<PdfPage> {
  const { toCanvas } = await import('html-to-image');
  // The page's own size in millimetres, as its style sets it (the layout's pixels are rounded; transforms of
  // the dialog do not count).
  const width = millimetres(node.style.width) ?? node.offsetWidth / PX_PER_MM;
  const height = millimetres(node.style.height) ?? node.offsetHeight / PX_PER_MM;
  const canvas = await toCanvas(node, { pixelRatio: PIXEL_RATIO, backgroundColor: '#ffffff', skipFonts: true, width: node.offsetWidth, height: node.offsetHeight, style: { margin: '0', boxShadow: 'none' } });
  const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
  return { width, height, image: { pixelsWide: canvas.width, pixelsHigh: canvas.height, data: await deflate(rgbOf(pixels)), filter: 'FlateDecode' } };
}

/** The pages (`.p8-print-page` elements) as a PDF file, one after the other. */
export async function pagesToPdf(pages: readonly HTMLElement[], title: string): Promise<Uint8Array> {
  const out: PdfPage[] = [];
  for (const node of pages) out.push(await pdfPageOf(node));
  return writePdf(out, { title });
}

export { writePdf };
