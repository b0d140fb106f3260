import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { BizError } from './errors.ts';
import { MB } from './uploads.ts';

/*
 * The checks an .xlsx (a zip) passes before the spreadsheet parser sees it, so that a small upload cannot
 * unpack to gigabytes and run the server out of memory or time:
 *
 *  1. before inflating anything: the central directory's entry count, declared unpacked total and
 *     unpacked:packed ratio are within limits, and the entries lie one after another exactly as the
 *     directory says (a file whose local headers tell a different story than its directory is refused, so
 *     every reader of it sees the same entries);
 *  2. while inflating (streamed, nothing kept): every entry unpacks to exactly its declared size — a lie
 *     is caught at the first byte beyond it — no run of text between two tags and no worksheet row is
 *     larger than an honest spreadsheet ever writes (the parser keeps those whole in memory).
 */

export interface ZipLimits {
  /** Sum of the entries' unpacked sizes. */
  maxUnpackedBytes: number;
  /** Unpacked bytes per packed byte of the whole file. */
  maxRatio: number;
  maxEntries: number;
  /** Longest text or tag: Excel keeps at most 32,767 characters in a cell (≤ 6 bytes each escaped). */
  maxTextRun: number;
  /** Largest `<row>` element of a worksheet, in bytes. */
  maxRowBytes: number;
}

export const zipLimits = (maxUnpackedMb: number): ZipLimits => ({
  maxUnpackedBytes: maxUnpackedMb * MB,
  maxRatio: 100,
  maxEntries: 10_000,
  maxTextRun: 256 * 1024,
  maxRowBytes: 4 * MB,
});

/** Random access to the bytes of an upload: a temporary file, or a buffer (tests, small files). */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
  stream(start: number, length: number): Readable;
  close(): Promise<void>;
}

export function bufferSource(buffer: Buffer): ByteSource {
  return {
    size: buffer.length,
    read: async (offset, length) => buffer.subarray(offset, offset + length),
    stream: (start, length) => Readable.from(length > 0 ? [buffer.subarray(start, start + length)] : []),
    close: async () => {},
  };
}

export async function fileSource(path: string): Promise<ByteSource> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      await handle.read(buffer, 0, buffer.length, offset);
      return buffer;
    },
    stream: (start, length) => (length > 0 ? createReadStream(path, { start, end: start + length - 1 }) : Readable.from([])),
    close: () => handle.close(),
  };
}

interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  packed: number;
  unpacked: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const STORED = 0;
const DEFLATED = 8;
const HAS_DESCRIPTOR = 0x08;

const notAZip = () => new BizError('ImportFileTypeError', { additional: 'xlsx' });
const tooLarge = (limits: ZipLimits) => new BizError('ImportUnpackedSizeExceeded', { additional: `${Math.round(limits.maxUnpackedBytes / MB)}MB` });

/** The entries of a zip's central directory; undefined when it is not a plain zip (ZIP64 is none we accept). */
export async function zipDirectory(source: ByteSource): Promise<{ entries: ZipEntry[]; directoryOffset: number } | undefined> {
  const tailLength = Math.min(source.size, 22 + 0xffff);
  const tail = await source.read(source.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = tail.readUInt16LE(eocd + 10);
  const directorySize = tail.readUInt32LE(eocd + 12);
  const directoryOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) return undefined;
  if (directoryOffset + directorySize > source.size - tailLength + eocd) return undefined;
  const directory = await source.read(directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) return undefined;
    const nameLength = directory.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      flags: directory.readUInt16LE(at + 8),
      method: directory.readUInt16LE(at + 10),
      packed: directory.readUInt32LE(at + 20),
      unpacked: directory.readUInt32LE(at + 24),
      localOffset: directory.readUInt32LE(at + 42),
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
    };
    if (entry.packed === 0xffffffff || entry.unpacked === 0xffffffff || entry.localOffset === 0xffffffff) return undefined;
    entries.push(entry);
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return { entries, directoryOffset };
}

/** Where each entry's packed data starts, after checking that the local headers lie back to back as the directory says. */
async function dataOffsets(source: ByteSource, entries: ZipEntry[], directoryOffset: number): Promise<Map<ZipEntry, number>> {
  const offsets = new Map<ZipEntry, number>();
  let expected = 0;
  for (const entry of [...entries].sort((a, b) => a.localOffset - b.localOffset)) {
    if (entry.localOffset !== expected) throw notAZip();
    const local = await source.read(entry.localOffset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL || local.readUInt16LE(8) !== entry.method) throw notAZip();
    const hasDescriptor = (local.readUInt16LE(6) & HAS_DESCRIPTOR) !== 0;
    // Without a data descriptor the streaming parser trusts the local header's sizes: they must be the directory's.
    if (!hasDescriptor && (local.readUInt32LE(18) !== entry.packed || local.readUInt32LE(22) !== entry.unpacked)) throw notAZip();
    const dataStart = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    offsets.set(entry, dataStart);
    expected = dataStart + entry.packed;
    if (hasDescriptor) {
      const descriptor = await source.read(expected, 4);
      expected += descriptor.length === 4 && descriptor.readUInt32LE(0) === DESCRIPTOR ? 16 : 12;
    }
  }
  if (expected !== directoryOffset) throw notAZip();
  return offsets;
}

/** Follows a byte pattern across chunk boundaries. */
class Matcher {
  private matched = 0;
  constructor(private readonly pattern: Buffer) {}
  /** Feeds one byte; true when it completes the pattern. */
  next(byte: number): boolean {
    if (byte === this.pattern[this.matched]) this.matched++;
    else this.matched = byte === this.pattern[0] ? 1 : 0;
    if (this.matched < this.pattern.length) return false;
    this.matched = 0;
    return true;
  }
}

/** Refuses a text run (between two tags) or, in a worksheet, a `<row>` element larger than the limits allow. */
class XmlShapeScanner {
  private sinceMarkup = 0;
  /** Bytes of the open `<row>` element; -1 outside one. */
  private rowBytes = -1;
  private readonly rowOpen = new Matcher(Buffer.from('<row'));
  private afterRowTag = false;
  private readonly rowClose = new Matcher(Buffer.from('</row>'));
  constructor(
    private readonly limits: ZipLimits,
    private readonly worksheet: boolean,
  ) {}

  scan(chunk: Buffer) {
    const { maxTextRun, maxRowBytes } = this.limits;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x3c /* < */ || byte === 0x3e /* > */) this.sinceMarkup = 0;
      else if (++this.sinceMarkup > maxTextRun) throw tooLarge(this.limits);
      if (!this.worksheet) continue;
      // "<row" opens a row when a space or ">" follows (not "<rowBreaks").
      if (this.afterRowTag && (byte === 0x20 || byte === 0x3e || byte === 0x09 || byte === 0x0a || byte === 0x0d)) this.rowBytes = 0;
      this.afterRowTag = this.rowOpen.next(byte);
      if (this.rowClose.next(byte)) this.rowBytes = -1;
      else if (this.rowBytes >= 0 && ++this.rowBytes > maxRowBytes) throw tooLarge(this.limits);
    }
  }
}

/** One entry's packed bytes and what they unpack to (the same stream when stored). */
function entryStreams(source: ByteSource, entry: ZipEntry, dataStart: number): { packed: Readable; unpacked: Readable } {
  if (entry.method !== STORED && entry.method !== DEFLATED) throw notAZip();
  const packed = source.stream(dataStart, entry.packed);
  const unpacked = entry.method === DEFLATED ? packed.pipe(createInflateRaw()) : packed;
  packed.on('error', (error) => unpacked.destroy(error));
  return { packed, unpacked };
}

/** A zip that passed `checkZip`: its entries by name, each opened as a stream of its unpacked bytes. */
export interface CheckedZip {
  names: string[];
  /** The entry's unpacked bytes; undefined when the zip has no such entry. */
  open(name: string): Readable | undefined;
}

/** Inflates one entry, counting and scanning; refuses it the moment it passes its declared size or the total limit. */
async function inflateChecked(source: ByteSource, entry: ZipEntry, dataStart: number, limits: ZipLimits, unpackedSoFar: { bytes: number }, signal?: AbortSignal) {
  const { packed, unpacked } = entryStreams(source, entry, dataStart);
  const scanner = new XmlShapeScanner(limits, entry.name.startsWith('xl/worksheets/'));
  let bytes = 0;
  try {
    for await (const chunk of unpacked as AsyncIterable<Buffer>) {
      if (signal?.aborted) throw new BizError('ImportCancelled');
      bytes += chunk.length;
      unpackedSoFar.bytes += chunk.length;
      if (bytes > entry.unpacked || unpackedSoFar.bytes > limits.maxUnpackedBytes) throw tooLarge(limits);
      scanner.scan(chunk);
    }
  } catch (error) {
    if (error instanceof BizError) throw error;
    throw notAZip(); // a damaged deflate stream
  } finally {
    packed.destroy();
    unpacked.destroy();
  }
  if (bytes !== entry.unpacked) throw notAZip();
}

/**
 * Checks a zip against the limits as described at the top of this file; throws ImportFileTypeError for a
 * file that is no plain, well-formed zip and ImportUnpackedSizeExceeded for one that unpacks too far.
 * Answers the checked zip, whose entries the reader then opens in the order it needs them.
 */
export async function checkZip(source: ByteSource, limits: ZipLimits, signal?: AbortSignal): Promise<CheckedZip> {
  const directory = await zipDirectory(source);
  if (!directory) throw notAZip();
  const { entries } = directory;
  const declared = entries.reduce((sum, e) => sum + e.unpacked, 0);
  if (entries.length > limits.maxEntries || declared > limits.maxUnpackedBytes || declared > source.size * limits.maxRatio) throw tooLarge(limits);
  const offsets = await dataOffsets(source, entries, directory.directoryOffset);
  const unpackedSoFar = { bytes: 0 };
  for (const entry of entries) await inflateChecked(source, entry, offsets.get(entry)!, limits, unpackedSoFar, signal);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return {
    names: entries.map((entry) => entry.name),
    open(name) {
      const entry = byName.get(name);
      return entry && entryStreams(source, entry, offsets.get(entry)!).unpacked;
    },
  };
}
