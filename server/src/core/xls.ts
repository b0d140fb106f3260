import { BizError } from './errors.ts';

/*
 * Reads legacy Excel 97–2003 workbooks (.xls) for imports: BIFF8 records in a Compound File Binary
 * (CFB, "OLE") container. Written here, small and defensive, instead of taken from npm: the only npm
 * parser of the format is SheetJS `xlsx@0.18.5` with known prototype-pollution and ReDoS CVEs, and its
 * CFB layer (`cfb@1.2.2`) follows sector chains without cycle checks and copies every chain eagerly: a
 * hostile 2 MB file made it use 4 GB, and a FAT cycle ran it out of memory (docs/decisions.md).
 *
 * Only what an import needs is read: the cell values of one worksheet, dates recognised by their number
 * format like exceljs does for .xlsx, so both formats give the importers the same rows. Formulas give
 * their cached result (nothing is calculated). Excel 95 and older (BIFF5, a "Book" stream) and
 * password-protected workbooks are refused with their own catalogue keys.
 *
 * Every offset and length comes from the file, so every one is checked against the bytes that are there:
 * a truncated or hostile file ends in a catalogued 400 (ImportXlsDamaged), never in a hang, a crash or an
 * allocation larger than the file. Chains are followed at most once per sector; streams are never
 * larger than the file; record loops only move forward; string counts are not trusted for allocation.
 *
 * References: [MS-CFB] Compound File Binary File Format, [MS-XLS] Excel Binary File Format.
 */

/** The error texts of BIFF8 error codes ([MS-XLS] 2.5.10 BErr), as exceljs names them. */
const ERROR_TEXTS = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
} as const;

export type XlsErrorText = (typeof ERROR_TEXTS)[keyof typeof ERROR_TEXTS];
/** A cell value, of the shapes exceljs gives for .xlsx cells (an error is `{ error }`). */
export type XlsCellValue = string | number | boolean | Date | { error: XlsErrorText };

export interface XlsRow {
  /** 1-based, like exceljs. */
  rowNum: number;
  /** Values by 1-based column, sparse (like exceljs `row.values`); blank cells are absent. */
  values: XlsCellValue[];
}

export interface XlsSheet {
  name: string;
  /** Rows holding at least one value, in row order. */
  rows: XlsRow[];
}

const damaged = () => new BizError('ImportXlsDamaged');
const notAWorkbook = () => new BizError('ImportFileTypeError', { additional: 'xls' });
const unsupportedVersion = () => new BizError('ImportXlsUnsupportedVersion');

// ---------------------------------------------------------------- the compound file ([MS-CFB])

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Whether the bytes are a compound file (.xls, .doc, .msg…): its magic number. */
export function isCompoundFile(buffer: Buffer): boolean {
  return buffer.length >= CFB_SIGNATURE.length && buffer.subarray(0, CFB_SIGNATURE.length).equals(CFB_SIGNATURE);
}

const ENDOFCHAIN = 0xfffffffe;
const NOSTREAM = 0xffffffff;
const HEADER_BYTES = 512;
const DIRECTORY_ENTRY_BYTES = 128;
const MINI_SECTOR_BYTES = 64;
const MINI_STREAM_CUTOFF = 4096;
const ROOT_STORAGE = 5;
const STREAM = 2;

interface DirectoryEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

class CompoundFile {
  private readonly major: number;
  private readonly sectorSize: number;
  private readonly sectorCount: number;
  /** Where the FAT's sectors are, from the header's DIFAT and the DIFAT chain. */
  private readonly fatSectors: number[] = [];
  private readonly directory: Buffer;
  private readonly miniFatStart: number;
  private miniStream?: Buffer;
  private miniFat?: Buffer;

  constructor(private readonly file: Buffer) {
    if (file.length < HEADER_BYTES) throw damaged();
    this.major = file.readUInt16LE(26);
    const sectorShift = file.readUInt16LE(30);
    // Version 3 has 512-byte sectors, version 4 4096-byte ones; anything else is not a compound file we know.
    if (!((this.major === 3 && sectorShift === 9) || (this.major === 4 && sectorShift === 12))) throw notAWorkbook();
    if (file.readUInt16LE(32) !== 6 || file.readUInt32LE(56) !== MINI_STREAM_CUTOFF) throw notAWorkbook();
    this.sectorSize = 1 << sectorShift;
    // Sector n starts at (n + 1) × size: the header fills sector "-1". A short last sector is kept.
    this.sectorCount = Math.max(0, Math.ceil((file.length - this.sectorSize) / this.sectorSize));

    const fatCount = file.readUInt32LE(44);
    if (fatCount > this.sectorCount) throw damaged();
    for (let i = 0; i < 109 && this.fatSectors.length < fatCount; i++) this.fatSectors.push(this.sectorId(file.readUInt32LE(76 + i * 4)));
    // More FAT sectors are listed in DIFAT sectors, each ending with the next one's number.
    const perDifat = this.sectorSize / 4 - 1;
    const seen = new Uint8Array(this.sectorCount);
    for (let difat = file.readUInt32LE(68); this.fatSectors.length < fatCount; ) {
      const at = this.offsetOf(this.sectorId(difat));
      if (seen[difat]++) throw damaged();
      for (let i = 0; i < perDifat && this.fatSectors.length < fatCount; i++) this.fatSectors.push(this.sectorId(this.u32(at + i * 4)));
      difat = this.u32(at + perDifat * 4);
    }

    this.directory = this.readChain(file.readUInt32LE(48));
    if (this.entry(0)?.type !== ROOT_STORAGE) throw damaged();
    this.miniFatStart = file.readUInt32LE(60);
  }

  /** The bytes of the stream `name` in the root storage. */
  stream(name: string): Buffer | undefined {
    const entry = this.find(name);
    return entry && this.contentOf(entry);
  }

  /**
   * The stream `name` (case-insensitive, as in CFB) directly in the root storage, not in a sub-storage:
   * an embedded object's storage may hold a "Workbook" of its own.
   */
  find(name: string): DirectoryEntry | undefined {
    const wanted = name.toLowerCase();
    // The root's children form a binary tree of siblings; a hostile file may make it cyclic.
    const seen = new Set<number>();
    const pending = [this.entry(0)!.child];
    while (pending.length) {
      const id = pending.pop()!;
      if (id === NOSTREAM) continue;
      const entry = this.entry(id);
      if (!entry || seen.has(id)) throw damaged();
      seen.add(id);
      if (entry.type === STREAM && entry.name.toLowerCase() === wanted) return entry;
      pending.push(entry.left, entry.right);
    }
    return undefined;
  }

  /** Directory entry `id` ([MS-CFB] 2.6), read when asked for: a hostile directory may be huge. */
  private entry(id: number): DirectoryEntry | undefined {
    const at = id * DIRECTORY_ENTRY_BYTES;
    if (at + DIRECTORY_ENTRY_BYTES > this.directory.length) return undefined;
    const d = this.directory;
    const nameBytes = Math.min(64, d.readUInt16LE(at + 64));
    // Version 3 files may leave garbage in the size's high half ([MS-CFB] 2.6.3); version 4 may not.
    if (this.major === 4 && d.readUInt32LE(at + 124) !== 0) throw damaged();
    return {
      name: d.toString('utf16le', at, at + Math.max(0, nameBytes - 2)),
      type: d[at + 66],
      left: d.readUInt32LE(at + 68),
      right: d.readUInt32LE(at + 72),
      child: d.readUInt32LE(at + 76),
      start: d.readUInt32LE(at + 116),
      size: d.readUInt32LE(at + 120),
    };
  }

  private contentOf(entry: DirectoryEntry): Buffer {
    if (entry.size > this.file.length) throw damaged();
    if (entry.size >= MINI_STREAM_CUTOFF) return this.readChain(entry.start, entry.size);
    // Small streams live in 64-byte sectors of the mini stream, chained by the mini FAT.
    const root = this.entry(0)!;
    this.miniStream ??= this.readChain(root.start, Math.min(root.size, this.file.length));
    this.miniFat ??= this.readChain(this.miniFatStart);
    const out = Buffer.alloc(entry.size);
    const seen = new Uint8Array(Math.floor(this.miniFat.length / 4));
    let sector = entry.start;
    for (let done = 0; done < entry.size; done += MINI_SECTOR_BYTES) {
      if (sector >= seen.length || seen[sector]++) throw damaged();
      const from = sector * MINI_SECTOR_BYTES;
      const length = Math.min(MINI_SECTOR_BYTES, entry.size - done);
      if (from + length > this.miniStream.length) throw damaged();
      this.miniStream.copy(out, done, from, from + length);
      sector = this.miniFat.readUInt32LE(sector * 4);
    }
    return out;
  }

  /**
   * The bytes of the chain starting at `start`: `size` of them, or all its sectors when the size is not
   * known (directory, mini FAT). Each sector is visited at most once, so a cyclic chain ends here.
   */
  private readChain(start: number, size?: number): Buffer {
    const want = size === undefined ? Infinity : Math.ceil(size / this.sectorSize);
    const seen = new Uint8Array(this.sectorCount);
    const parts: Buffer[] = [];
    for (let sector = start; parts.length < want && sector !== ENDOFCHAIN; sector = this.next(sector)) {
      const at = this.offsetOf(this.sectorId(sector));
      if (seen[sector]++) throw damaged();
      parts.push(this.file.subarray(at, at + this.sectorSize));
    }
    const bytes = Buffer.concat(parts);
    if (size === undefined) return bytes;
    if (bytes.length < size) throw damaged();
    return bytes.subarray(0, size);
  }

  private next(sector: number): number {
    const perSector = this.sectorSize / 4;
    const fatSector = this.fatSectors[Math.floor(sector / perSector)];
    if (fatSector === undefined) throw damaged();
    return this.u32(this.offsetOf(fatSector) + (sector % perSector) * 4);
  }

  private sectorId(id: number): number {
    if (id >= this.sectorCount) throw damaged();
    return id;
  }

  private offsetOf(sector: number): number {
    return (sector + 1) * this.sectorSize;
  }

  private u32(at: number): number {
    if (at + 4 > this.file.length) throw damaged();
    return this.file.readUInt32LE(at);
  }
}

// ---------------------------------------------------------------- BIFF8 records ([MS-XLS])

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
const FILEPASS = 0x002f;
const DATEMODE = 0x0022;
const FORMAT = 0x041e;
const XF = 0x00e0;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const RSTRING = 0x00d6;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

const BIFF8 = 0x0600;
const GLOBALS = 0x0005;
const WORKSHEET = 0x0010;
/** BIFF8 sheets have 65,536 rows (the row number is 16 bits) and 256 columns. */
const MAX_COLUMNS = 256;
/** Cells of one sheet at most: far more than an import template's columns over all 65,536 rows. */
const MAX_CELLS = 4_000_000;

/** A forward-only cursor over the records of a stream: each record is 2 bytes type, 2 bytes length, data. */
class Records {
  type = 0;
  /** Offset of the current record's data, and its length. */
  at = 0;
  length = 0;

  constructor(
    readonly stream: Buffer,
    private pos = 0,
  ) {}

  next(): boolean {
    if (this.pos >= this.stream.length) return false;
    if (this.pos + 4 > this.stream.length) throw damaged();
    this.type = this.stream.readUInt16LE(this.pos);
    this.length = this.stream.readUInt16LE(this.pos + 2);
    this.at = this.pos + 4;
    this.pos = this.at + this.length;
    if (this.pos > this.stream.length) throw damaged();
    return true;
  }

  /** The current record's data and that of the CONTINUE records after it, consumed. */
  withContinues(): Buffer[] {
    const parts = [this.data()];
    while (this.pos + 4 <= this.stream.length && this.stream.readUInt16LE(this.pos) === CONTINUE) {
      this.next();
      parts.push(this.data());
    }
    return parts;
  }

  data(): Buffer {
    return this.stream.subarray(this.at, this.at + this.length);
  }

  /** Refuses a record shorter than its fixed fields. */
  need(bytes: number) {
    if (this.length < bytes) throw damaged();
  }

  u8 = (offset: number) => this.stream[this.at + offset];
  u16 = (offset: number) => this.stream.readUInt16LE(this.at + offset);
  u32 = (offset: number) => this.stream.readUInt32LE(this.at + offset);
  f64 = (offset: number) => this.stream.readDoubleLE(this.at + offset);
}

/**
 * Reads strings that may run on into CONTINUE records (SST, STRING). Where a string's characters cross
 * into the next record, that record starts with a fresh option byte whose bit 0 says whether the rest is
 * 1-byte ("compressed", Latin-1) or 2-byte (UTF-16LE) — it may differ from the string's own: Excel
 * switches when the rest fits in Latin-1. Formatting runs and phonetic data crossing a boundary have no
 * such byte. Headers of strings are never split.
 */
class ContinuedReader {
  private part = 0;
  private pos = 0;

  constructor(private readonly parts: Buffer[]) {}

  get atEnd(): boolean {
    return this.part >= this.parts.length - 1 && this.pos >= this.parts[this.part].length;
  }

  /** Moves into the next record when the current one is used up and `bytes` more are needed. */
  private room(bytes: number): Buffer {
    let current = this.parts[this.part];
    if (this.pos === current.length && this.part + 1 < this.parts.length) {
      current = this.parts[++this.part];
      this.pos = 0;
    }
    if (this.pos + bytes > current.length) throw damaged();
    return current;
  }

  u8(): number {
    return this.room(1)[this.pos++];
  }

  u16(): number {
    const value = this.room(2).readUInt16LE(this.pos);
    this.pos += 2;
    return value;
  }

  u32(): number {
    const value = this.room(4).readUInt32LE(this.pos);
    this.pos += 4;
    return value;
  }

  /** `count` characters, 2 bytes each when `wide`; the encoding may switch at a record boundary. */
  chars(count: number, wide: boolean): string {
    let text = '';
    let left = count;
    for (;;) {
      const current = this.parts[this.part];
      const fit = Math.min(left, wide ? (current.length - this.pos) >> 1 : current.length - this.pos);
      const end = this.pos + fit * (wide ? 2 : 1);
      text += current.toString(wide ? 'utf16le' : 'latin1', this.pos, end);
      this.pos = end;
      left -= fit;
      if (left === 0) return text;
      const next = this.parts[++this.part];
      if (!next?.length) throw damaged();
      wide = (next[0] & 0x01) !== 0;
      this.pos = 1;
    }
  }

  /** Skips bytes that carry nothing we need (formatting runs, phonetic data), across records. */
  skip(bytes: number) {
    let left = bytes;
    while (left > 0) {
      const room = this.parts[this.part].length - this.pos;
      if (left <= room) {
        this.pos += left;
        return;
      }
      if (this.part + 1 >= this.parts.length) throw damaged();
      left -= room;
      this.part++;
      this.pos = 0;
    }
  }

  /** An XLUnicodeRichExtendedString ([MS-XLS] 2.5.293), the shape of SST entries. */
  richExtendedString(): string {
    const count = this.u16();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const phonetic = flags & 0x04 ? this.u32() : 0;
    const text = this.chars(count, (flags & 0x01) !== 0);
    this.skip(runs * 4 + phonetic);
    return text;
  }
}

/** A string within one record: `count` characters after an option byte at `at`. */
function plainString(records: Records, at: number, count: number): string {
  const wide = (records.u8(at) & 0x01) !== 0;
  const start = records.at + at + 1;
  const end = start + count * (wide ? 2 : 1);
  if (end > records.at + records.length) throw damaged();
  return records.stream.toString(wide ? 'utf16le' : 'latin1', start, end);
}

/** The shared strings: the SST and its CONTINUE records ([MS-XLS] 2.4.265). */
function sharedStrings(parts: Buffer[]): string[] {
  const reader = new ContinuedReader(parts);
  reader.skip(4); // total references
  const unique = reader.u32();
  const strings: string[] = [];
  // The count is not trusted for allocating: each string takes at least 3 bytes of the records.
  while (strings.length < unique && !reader.atEnd) strings.push(reader.richExtendedString());
  return strings;
}

/** An RK number ([MS-XLS] 2.5.217): 30 bits of an integer or of a double's high end, optionally × 100. */
const rkScratch = Buffer.alloc(8);
function rkNumber(rk: number): number {
  let value: number;
  if (rk & 0x02) value = rk >> 2;
  else {
    rkScratch.writeUInt32LE(0, 0);
    rkScratch.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    value = rkScratch.readDoubleLE(0);
  }
  return rk & 0x01 ? value / 100 : value;
}

/** Built-in number formats that show dates or times: 14–22 and 45–47, and the CJK ones 27–36 and 50–58. */
function isBuiltInDateFormat(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/**
 * Whether a format code shows a date or time: y, m, d, h or s outside quoted text, [brackets] (colours,
 * locales, elapsed-time markers are inside), escaped characters and _x / *x padding. The rule exceljs
 * applies to .xlsx, made a little stricter (it looks inside escapes).
 */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, '');
  return /[ymdhs]/i.test(bare);
}

/** Excel's last date, 9999-12-31: larger serials (and negative ones) are shown as numbers. */
const MAX_DATE_SERIAL = 2958466;

/** A date serial as exceljs turns it into a Date (UTC, the 1900 or 1904 system). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/** Reads the BOF that opens a substream: BIFF8 (Excel 97 and later) and of the `kind` expected. */
function openSubstream(records: Records, kind: number) {
  if (!records.next() || records.type !== BOF) throw damaged();
  records.need(4);
  if (records.u16(0) !== BIFF8) throw unsupportedVersion();
  if (records.u16(2) !== kind) throw damaged();
}

interface Globals {
  date1904: boolean;
  /** Number format of each XF (cell format), by XF index. */
  xfFormats: number[];
  formats: Map<number, string>;
  sheets: Array<{ name: string; offset: number; kind: number }>;
  strings: string[];
}

/** The workbook globals substream: dates, formats, sheets and shared strings. */
function readGlobals(stream: Buffer): Globals {
  const records = new Records(stream);
  openSubstream(records, GLOBALS);
  const globals: Globals = { date1904: false, xfFormats: [], formats: new Map(), sheets: [], strings: [] };
  while (records.next()) {
    switch (records.type) {
      case FILEPASS:
        throw new BizError('ImportFileEncrypted');
      case DATEMODE:
        records.need(2);
        globals.date1904 = records.u16(0) === 1;
        break;
      case FORMAT:
        records.need(5);
        globals.formats.set(records.u16(0), plainString(records, 4, records.u16(2)));
        break;
      case XF:
        records.need(4);
        globals.xfFormats.push(records.u16(2));
        break;
      case BOUNDSHEET:
        records.need(8);
        globals.sheets.push({ offset: records.u32(0), kind: records.u8(5), name: plainString(records, 7, records.u8(6)) });
        break;
      case SST:
        records.need(8);
        globals.strings = sharedStrings(records.withContinues());
        break;
      case EOF:
        return globals;
    }
  }
  throw damaged(); // the stream ended before the globals' EOF
}

/** Reads the cells of the worksheet whose BOF is at `offset`. */
function readWorksheet(stream: Buffer, offset: number, globals: Globals): XlsRow[] {
  if (offset >= stream.length) throw damaged();
  const records = new Records(stream, offset);
  openSubstream(records, WORKSHEET);

  const formatOf = (xf: number) => globals.xfFormats[xf];
  const isDateXf = (xf: number) => {
    const format = formatOf(xf);
    if (format === undefined) return false;
    const code = globals.formats.get(format);
    return code === undefined ? isBuiltInDateFormat(format) : isDateFormat(code);
  };
  const numberCell = (value: number, xf: number): XlsCellValue => {
    if (!Number.isFinite(value)) throw damaged();
    return value >= 0 && value < MAX_DATE_SERIAL && isDateXf(xf) ? excelDate(value, globals.date1904) : value;
  };

  const rows: XlsCellValue[][] = [];
  let cells = 0;
  const put = (row: number, col: number, value: XlsCellValue) => {
    if (col >= MAX_COLUMNS) throw damaged();
    // Bounds the memory a small file of MULRK records (6 bytes a cell) can claim.
    if (++cells > MAX_CELLS) throw new BizError('ImportUnpackedSizeExceeded', { additional: `${MAX_CELLS} cells` });
    (rows[row] ??= [])[col + 1] = value;
  };
  /** The cell of a FORMULA whose string result is in the STRING record after it. */
  let pendingString: { row: number; col: number } | undefined;
  // Embedded charts are substreams (BOF … EOF) inside the sheet's: their records are skipped.
  let depth = 1;

  while (depth > 0) {
    if (!records.next()) throw damaged(); // the stream ended before the sheet's EOF
    const { type } = records;
    if (type === BOF) depth++;
    else if (type === EOF) depth--;
    if (depth !== 1 || type === EOF) continue;

    switch (type) {
      case LABELSST: {
        records.need(10);
        const text = globals.strings[records.u32(6)];
        if (text === undefined) throw damaged();
        put(records.u16(0), records.u16(2), text);
        break;
      }
      case LABEL:
      case RSTRING:
        records.need(9);
        put(records.u16(0), records.u16(2), plainString(records, 8, records.u16(6)));
        break;
      case NUMBER:
        records.need(14);
        put(records.u16(0), records.u16(2), numberCell(records.f64(6), records.u16(4)));
        break;
      case RK:
        records.need(10);
        put(records.u16(0), records.u16(2), numberCell(rkNumber(records.u32(6)), records.u16(4)));
        break;
      case MULRK: {
        // Row, first column, then (XF, RK) pairs of 6 bytes, then the last column.
        records.need(6);
        const count = (records.length - 6) / 6;
        const first = records.u16(2);
        if (!Number.isInteger(count) || records.u16(records.length - 2) !== first + count - 1) throw damaged();
        for (let i = 0; i < count; i++) put(records.u16(0), first + i, numberCell(rkNumber(records.u32(6 + i * 6)), records.u16(4 + i * 6)));
        break;
      }
      case BOOLERR: {
        records.need(8);
        const value = records.u8(6);
        put(records.u16(0), records.u16(2), records.u8(7) ? errorCell(value) : value !== 0);
        break;
      }
      case FORMULA: {
        records.need(20);
        const row = records.u16(0);
        const col = records.u16(2);
        // The cached result: a double, or a tagged value when its last two bytes are FFFF.
        if (records.u16(12) !== 0xffff) put(row, col, numberCell(records.f64(6), records.u16(4)));
        else if (records.u8(6) === 0) pendingString = { row, col };
        else if (records.u8(6) === 1) put(row, col, records.u8(8) !== 0);
        else if (records.u8(6) === 2) put(row, col, errorCell(records.u8(8)));
        // 3: an empty string, a blank cell.
        break;
      }
      case STRING:
        if (pendingString) {
          const reader = new ContinuedReader(records.withContinues());
          const count = reader.u16();
          put(pendingString.row, pendingString.col, reader.chars(count, (reader.u8() & 0x01) !== 0));
          pendingString = undefined;
        }
        break;
    }
  }
  const out: XlsRow[] = [];
  rows.forEach((values, row) => out.push({ rowNum: row + 1, values }));
  return out;
}

function errorCell(code: number): { error: XlsErrorText } {
  return { error: ERROR_TEXTS[code as keyof typeof ERROR_TEXTS] ?? '#N/A' };
}

/**
 * Whether a compound file is a password-protected .xlsx: Office encrypts the whole zip into an
 * "EncryptedPackage" stream of a compound file ([MS-OFFCRYPTO] 2.3.4.4).
 */
export function isEncryptedPackage(buffer: Buffer): boolean {
  try {
    return isCompoundFile(buffer) && new CompoundFile(buffer).find('EncryptedPackage') !== undefined;
  } catch {
    return false;
  }
}

/**
 * The `index`-th worksheet (0: the first, whether shown or hidden, as exceljs gives `worksheets[0]` of an
 * .xlsx; chart and macro sheets are not worksheets) of an .xls, or undefined when it has none.
 * Throws a catalogued BizError for anything else: not a workbook, Excel 95 or older, encrypted, damaged.
 */
export function readXlsSheet(buffer: Buffer, index = 0): XlsSheet | undefined {
  if (!isCompoundFile(buffer)) throw notAWorkbook();
  const file = new CompoundFile(buffer);
  const stream = file.stream('Workbook');
  if (!stream) throw file.find('Book') ? unsupportedVersion() : notAWorkbook();
  const globals = readGlobals(stream);
  const sheet = globals.sheets.filter((s) => s.kind === 0)[index];
  if (!sheet) return undefined;
  return { name: sheet.name, rows: readWorksheet(stream, sheet.offset, globals) };
}
