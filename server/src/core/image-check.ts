import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { BizError } from './errors.ts';

/*
 * Whether an uploaded image is an image and nothing else. A magic-number check proves only the first
 * bytes: `GIF89a` followed by an HTML page, or a real PNG with a page appended, passes it and becomes a
 * file that is a picture to one reader and a page to another (a polyglot). So an image is accepted only
 *   1. when it decodes, every frame, every pixel (libvips through sharp, refusing on any decoder error),
 *      within a pixel budget (a small file must not unpack to gigabytes); and
 *   2. when its container ends where the format says it ends: nothing after PNG's IEND, GIF's trailer,
 *      the RIFF size of WebP or the last box of AVIF; after a JPEG's end-of-image only the further
 *      images a multi-picture (MPF) file declares, themselves JPEGs. BMP has no decoder here: its header
 *      must describe an uncompressed bitmap whose pixels fill the file exactly.
 * The bytes are kept as uploaded (no re-encoding: it would change honest pictures, drop APNG animation
 * and cost seconds of CPU for an AVIF); what remains inside the format's own structure is served with
 * nosniff and a sandboxing CSP (core/uploads.ts), so no browser reads it as anything but the image.
 */

// One libvips thread and no operation cache: an upload must not take both cores or keep pixels around.
sharp.concurrency(1);
sharp.cache(false);

/** 100 megapixels: more than any camera photo, far less than a bomb's billions. */
export const MAX_IMAGE_PIXELS = 100_000_000;

const DECODED_BY_SHARP = new Set(['png', 'apng', 'jpg', 'jpeg', 'jpe', 'pjpeg', 'gif', 'webp', 'avif']);
export const CHECKED_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([...DECODED_BY_SHARP, 'bmp']);

/** Throws UploadImageInvalid unless the file is exactly one well-formed image of its extension's format. */
export async function checkImageFile(filePath: string, ext: string): Promise<void> {
  if (!CHECKED_IMAGE_EXTENSIONS.has(ext)) return;
  const handle = await open(filePath);
  let bytes: Buffer;
  try {
    // Uploads of images are limited to a few MB (config upload.imageMaxMb, attachments to fileMaxMb).
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const exact = containerEnd(bytes, ext);
  if (exact === undefined || exact !== bytes.length) throw new BizError('UploadImageInvalid');
  if (ext === 'bmp') return;
  try {
    // stats() walks every pixel of every frame without keeping the bitmap.
    await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, animated: true }).stats();
  } catch {
    throw new BizError('UploadImageInvalid');
  }
}

/** Where the format's structure says the file ends, or undefined when the structure is broken. */
export function containerEnd(b: Buffer, ext: string): number | undefined {
  switch (ext) {
    case 'png':
    case 'apng':
      return pngEnd(b);
    case 'gif':
      return gifEnd(b);
    case 'webp':
      return b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' ? b.readUInt32LE(4) + 8 : undefined;
    case 'avif':
      return isoBoxesEnd(b);
    case 'bmp':
      return bmpEnd(b);
    default:
      return jpegEnd(b);
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngEnd(b: Buffer): number | undefined {
  if (b.length < 8 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let at = 8;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    at += 12 + length;
    if (type === 'IEND') return at;
  }
  return undefined;
}

/** Walks the GIF's blocks: extensions and images are runs of sub-blocks ending with a zero length. */
function gifEnd(b: Buffer): number | undefined {
  if (b.length < 13 || !/^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return undefined;
  const tableSize = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  let at = 13 + tableSize(b[10]);
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += b[at] + 1;
    at += 1;
  };
  while (at < b.length) {
    const introducer = b[at];
    if (introducer === 0x3b) return at + 1;
    if (introducer === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      if (at + 10 > b.length) return undefined;
      at += 10 + tableSize(b[at + 9]) + 1; // descriptor, local colour table, LZW minimum code size
      skipSubBlocks();
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** ISO base media (AVIF/HEIF): top-level boxes back to back; a size of 0 means "to the end of the file". */
function isoBoxesEnd(b: Buffer): number | undefined {
  if (b.length < 12 || b.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  let at = 0;
  while (at + 8 <= b.length) {
    let size = b.readUInt32BE(at);
    if (size === 1) {
      if (at + 16 > b.length) return undefined;
      size = Number(b.readBigUInt64BE(at + 8));
    } else if (size === 0) {
      return b.length;
    }
    if (size < 8) return undefined;
    at += size;
  }
  return at;
}

/**
 * The end of a JPEG's first image (its EOI after the entropy-coded data), or with a multi-picture (MPF)
 * segment, the file's end if what follows is JPEG images only (each checked the same way).
 */
function jpegEnd(b: Buffer): number | undefined {
  let end = singleJpegEnd(b, 0);
  if (end === undefined || end === b.length || !hasMpf(b)) return end;
  while (end !== undefined && end < b.length && b[end] === 0xff && b[end + 1] === 0xd8) end = singleJpegEnd(b, end);
  return end;
}

function singleJpegEnd(b: Buffer, start: number): number | undefined {
  if (b[start] !== 0xff || b[start + 1] !== 0xd8) return undefined;
  let at = start + 2;
  while (at + 2 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if (marker >= 0xd0 && marker <= 0xd7) {
      at += 2;
      continue;
    }
    if (at + 4 > b.length) return undefined;
    at += 2 + b.readUInt16BE(at + 2);
    if (marker === 0xda) {
      // Entropy-coded data: ends at the first marker other than a stuffed 0xFF00 or a restart marker.
      while (at + 1 < b.length && !(b[at] === 0xff && b[at + 1] !== 0x00 && (b[at + 1] < 0xd0 || b[at + 1] > 0xd7))) at += 1;
    }
  }
  return undefined;
}

function hasMpf(b: Buffer): boolean {
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff && b[at + 1] !== 0xda) {
    if (b[at + 1] === 0xe2 && b.toString('latin1', at + 4, at + 8) === 'MPF\0') return true;
    at += 2 + b.readUInt16BE(at + 2);
  }
  return false;
}

/** An uncompressed (or bit-field) BMP whose header, pixel offset and rows account for every byte. */
function bmpEnd(b: Buffer): number | undefined {
  if (b.length < 26 || b.toString('latin1', 0, 2) !== 'BM') return undefined;
  const fileSize = b.readUInt32LE(2);
  const pixelOffset = b.readUInt32LE(10);
  const headerSize = b.readUInt32LE(14);
  let width: number;
  let height: number;
  let bitCount: number;
  let compression = 0;
  if (headerSize === 12) {
    width = b.readUInt16LE(18);
    height = b.readUInt16LE(20);
    bitCount = b.readUInt16LE(24);
  } else if ([40, 52, 56, 108, 124].includes(headerSize) && b.length >= 14 + headerSize) {
    width = b.readInt32LE(18);
    height = Math.abs(b.readInt32LE(22));
    bitCount = b.readUInt16LE(28);
    compression = b.readUInt32LE(30);
  } else {
    return undefined;
  }
  // BI_RGB and BI_BITFIELDS / BI_ALPHABITFIELDS only: the compressed forms (RLE, embedded JPEG/PNG) are not checked.
  if (![0, 3, 6].includes(compression) || ![1, 4, 8, 16, 24, 32].includes(bitCount) || width <= 0 || height <= 0) return undefined;
  if (width * height > MAX_IMAGE_PIXELS || pixelOffset < 14 + headerSize) return undefined;
  const rowBytes = Math.floor((bitCount * width + 31) / 32) * 4;
  const end = pixelOffset + rowBytes * height;
  // Some writers pad the file to a multiple of four; no more than that.
  if (fileSize !== b.length || b.length < end || b.length - end > 3) return undefined;
  return b.length;
}
