import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BizError } from '../src/core/errors.ts';
import { readImportFile } from '../src/core/excel.ts';
import { isDateFormat, readXlsSheet, type XlsRow } from '../src/core/xls.ts';

/*
 * The .xls reader (server/src/core/xls.ts). Files of fixtures/xls/ were written by xlwt, a real BIFF8
 * writer (fixtures/xls/make-fixtures.py); the hostile and rare shapes below are built byte by byte.
 */

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'xls', name));
const rowsOf = (buffer: Buffer, index = 0) => readXlsSheet(buffer, index)?.rows;
const utc = (...parts: [number, number, number, number?, number?, number?]) => new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3] ?? 0, parts[4] ?? 0, parts[5] ?? 0));

/** The catalogue key a read fails with; anything else than a BizError fails the test. */
function failureOf(read: () => unknown): string | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    if (!(error instanceof BizError)) throw error;
    return error.key;
  }
}

// ---------------------------------------------------------------- building files byte by byte

const u8 = (...values: number[]) => Buffer.from(values);
function u16(...values: number[]) {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeUInt16LE(v, i * 2));
  return b;
}
function u32(...values: number[]) {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4));
  return b;
}
function f64(value: number) {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return b;
}
const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf16 = (text: string) => Buffer.from(text, 'utf16le');

function record(type: number, ...parts: Buffer[]) {
  const data = Buffer.concat(parts);
  return Buffer.concat([u16(type, data.length), data]);
}

const BOF = (kind: number) => record(0x0809, u16(0x0600, kind, 0, 0), u32(0, 0));
const EOF = record(0x000a);
const CONTINUE = (...parts: Buffer[]) => record(0x003c, ...parts);
const LABELSST = (row: number, col: number, index: number) => record(0x00fd, u16(row, col, 0), u32(index));
const NUMBER = (row: number, col: number, value: number) => record(0x0203, u16(row, col, 0), f64(value));

/**
 * A workbook stream: globals (`globals` records, then one BOUNDSHEET per sheet) and the sheets, each
 * `{ records, kind }` (kind 0 worksheet, 2 chart).
 */
function workbookStream(globals: Buffer[], sheets: Array<{ records: Buffer[]; kind?: number; name?: string }>): Buffer {
  const boundsheet = (offset: number, sheet: (typeof sheets)[number], i: number) => {
    const name = latin1(sheet.name ?? `Sheet${i + 1}`);
    return record(0x0085, u32(offset), u8(0, sheet.kind ?? 0, name.length, 0), name);
  };
  const head = [BOF(0x0005), ...globals];
  const globalsLength = Buffer.concat([...head, ...sheets.map((s, i) => boundsheet(0, s, i)), EOF]).length;
  const bodies = sheets.map((s) => Buffer.concat([BOF(s.kind === 2 ? 0x0020 : 0x0010), ...s.records, EOF]));
  let offset = globalsLength;
  const bounds = sheets.map((s, i) => {
    const b = boundsheet(offset, s, i);
    offset += bodies[i].length;
    return b;
  });
  return Buffer.concat([...head, ...bounds, EOF, ...bodies]);
}

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const NOSTREAM = 0xffffffff;

interface Built {
  file: Buffer;
  sectorSize: number;
  /** File offset of a sector, of the FAT entry of a sector, of directory entry `i`. */
  sectorAt(sector: number): number;
  fatEntryAt(sector: number): number;
  entryAt(i: number): number;
  /** First sector of each stream (regular streams) and the directory's. */
  starts: Record<string, number>;
  dirStart: number;
}

/**
 * A compound file holding `streams` in its root storage: version 3 (512-byte sectors) or 4 (4096).
 * Streams under 4096 bytes go to the mini stream, as the format requires.
 */
function compoundFile(streams: Array<[string, Buffer]>, version: 3 | 4 = 3): Built {
  const size = version === 3 ? 512 : 4096;
  const sectors: Buffer[] = [];
  const fat: number[] = [];
  const chain = (data: Buffer) => {
    if (!data.length) return ENDOFCHAIN;
    const start = sectors.length;
    const count = Math.ceil(data.length / size);
    for (let i = 0; i < count; i++) {
      const sector = Buffer.alloc(size);
      data.copy(sector, 0, i * size, (i + 1) * size);
      sectors.push(sector);
      fat.push(i === count - 1 ? ENDOFCHAIN : start + i + 1);
    }
    return start;
  };
  const mini: Buffer[] = [];
  const miniFat: number[] = [];
  const starts: Record<string, number> = {};
  const entries = streams.map(([name, data]) => {
    if (data.length >= 4096) return { name, start: (starts[name] = chain(data)), size: data.length };
    const start = data.length ? miniFat.length : ENDOFCHAIN;
    const count = Math.ceil(data.length / 64);
    for (let i = 0; i < count; i++) {
      mini.push(Buffer.concat([data.subarray(i * 64, (i + 1) * 64), Buffer.alloc(64)]).subarray(0, 64));
      miniFat.push(i === count - 1 ? ENDOFCHAIN : miniFat.length + 1);
    }
    return { name, start, size: data.length };
  });
  const miniStream = Buffer.concat(mini);
  const rootStart = chain(miniStream);
  const miniFatStart = chain(u32(...miniFat));
  const entry = (name: string, type: number, child: number, right: number, start: number, length: number) => {
    const e = Buffer.alloc(128);
    const n = utf16(`${name}\0`);
    n.copy(e);
    e.writeUInt16LE(n.length, 64);
    e[66] = type;
    e[67] = 1; // black
    e.writeUInt32LE(NOSTREAM, 68);
    e.writeUInt32LE(right >>> 0, 72);
    e.writeUInt32LE(child >>> 0, 76);
    e.writeUInt32LE(start >>> 0, 116);
    e.writeUInt32LE(length, 120);
    return e;
  };
  // The siblings as a list leaning right: a valid, if unbalanced, tree.
  const directory = Buffer.concat([
    entry('Root Entry', 5, entries.length ? 1 : NOSTREAM, NOSTREAM, rootStart, miniStream.length),
    ...entries.map((e, i) => entry(e.name, 2, NOSTREAM, i + 2 <= entries.length ? i + 2 : NOSTREAM, e.start, e.size)),
  ]);
  const dirStart = chain(directory);
  const perFat = size / 4;
  let fatCount = 1;
  while (fatCount * perFat < sectors.length + fatCount) fatCount++;
  const fatStart = sectors.length;
  for (let i = 0; i < fatCount; i++) fat.push(0xfffffffd);
  while (fat.length < fatCount * perFat) fat.push(FREESECT);
  for (let i = 0; i < fatCount; i++) sectors.push(u32(...fat.slice(i * perFat, (i + 1) * perFat)));

  const header = Buffer.alloc(size);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(version, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(version === 3 ? 9 : 12, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(fatCount, 44);
  header.writeUInt32LE(dirStart, 48);
  header.writeUInt32LE(4096, 56);
  header.writeUInt32LE(miniFatStart >>> 0, 60);
  header.writeUInt32LE(miniFat.length ? Math.ceil((miniFat.length * 4) / size) : 0, 64);
  header.writeUInt32LE(ENDOFCHAIN, 68);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatCount ? fatStart + i : FREESECT, 76 + i * 4);
  const sectorAt = (sector: number) => (sector + 1) * size;
  return {
    file: Buffer.concat([header, ...sectors]),
    sectorSize: size,
    sectorAt,
    fatEntryAt: (sector: number) => sectorAt(fatStart + Math.floor(sector / perFat)) + (sector % perFat) * 4,
    entryAt: (i: number) => sectorAt(dirStart) + i * 128,
    starts,
    dirStart,
  };
}

/** An .xls holding one worksheet of `records` (and `globals` before it), padded past the mini stream. */
function xlsOf(records: Buffer[], globals: Buffer[] = []): Buffer {
  return compoundFile([['Workbook', padded(workbookStream(globals, [{ records }]))]]).file;
}
/** Excel pads the workbook stream to 4096 bytes, so it lives in regular sectors; padding after EOF is ignored. */
const padded = (stream: Buffer) => Buffer.concat([stream, Buffer.alloc(Math.max(0, 4096 - stream.length))]);

// ---------------------------------------------------------------- files written by xlwt

describe('reading .xls files written by a real BIFF8 writer', () => {
  it('reads strings, RK and NUMBER numbers, dates, booleans, errors and cached formula results; blanks are absent', () => {
    const rows = rowsOf(fixture('cells.xls'))!;
    const byRow = Object.fromEntries(rows.map((r) => [r.rowNum, r.values]));
    expect(Object.keys(byRow).map(Number)).toEqual([1, 2, 3, 5, 6, 7, 8]); // row 4 holds only styled blanks
    expect(byRow[1]).toEqual([undefined, '文本', '整数', '小数', '日期', '布尔', '公式', '备注']);
    expect(byRow[2]).toEqual([undefined, '螺丝 M3', 42, 3.14159, utc(2026, 1, 31), true, 84, '  padded  ']);
    // Latin-1 text is stored 1 byte a character; a formula's string result comes from the STRING record.
    expect(byRow[3]).toEqual([undefined, 'Café über', -7, 12.5, utc(2026, 3, 1, 8, 30, 15), false, '结果abcd', '加粗 and plain']);
    expect(byRow[5]).toEqual([...Array(7), 'only a remark']);
    expect(1 in byRow[5]).toBe(false);
    // 12345678901 does not fit an RK; format 14 is a built-in date without a FORMAT record; a percentage is a number.
    expect(byRow[6]).toEqual([undefined, '数字', 12345678901, 0.25, utc(1999, 12, 31), true, { error: '#DIV/0!' }, { error: '#N/A' }]);
    // Date letters inside "quotes" or [brackets] do not make a date; h:mm and yyyy"年"m"月"d"日" do.
    // A formula without a cached value (as xlwt writes them) is a blank cell.
    expect(byRow[7]).toEqual([undefined, 'formats', 5, 7.5, utc(1899, 12, 30, 12), utc(2025, 12, 1)]);
    // Adjacent integers come in one MULRK record; -0.5 is an RK stored × 100.
    expect(byRow[8]).toEqual([undefined, 1, 2, 3, 4, 5, 6, -0.5]);
  });

  it('reads the first worksheet, hidden or not, like exceljs does for .xlsx; the others by index', () => {
    const file = fixture('cells.xls');
    expect(readXlsSheet(file)?.name).toBe('数据');
    expect(readXlsSheet(file, 1)).toEqual({ name: '第二页', rows: [{ rowNum: 1, values: [undefined, 'name'] }, { rowNum: 2, values: [undefined, 'second sheet'] }] });
    expect(readXlsSheet(file, 2)?.rows[1].values[1]).toBe('hidden sheet');
    expect(readXlsSheet(file, 3)).toBeUndefined();
  });

  it('reads a shared-string table far over one record: strings cross CONTINUE records, 1- and 2-byte, plain and rich', () => {
    const file = fixture('long-strings.xls');
    // The fixture really spans CONTINUE records: xlwt puts the workbook stream right after the 512-byte header.
    let continues = 0;
    for (let at = 512, inSst = false; at + 4 <= file.length; ) {
      const type = file.readUInt16LE(at);
      if (type === 0x000a && !inSst) break;
      if (type === 0x00fc) inSst = true;
      else if (type === 0x003c && inSst) continues++;
      else if (inSst) break;
      at += 4 + file.readUInt16LE(at + 2);
    }
    expect(continues).toBeGreaterThanOrEqual(5);

    // The same list as make-fixtures.py long_strings().
    const expected = ['长'.repeat(5000), 'L'.repeat(9000), Array.from({ length: 6000 }, (_, i) => String.fromCharCode(0x4e00 + (i % 500))).join(''), `rich ${'é'.repeat(8500)}`];
    for (let i = 0; i < 1500; i++) expected.push(i % 2 ? `物料${String(i).padStart(4, '0')}` : `item-${String(i).padStart(4, '0')}`);
    const rows = rowsOf(file)!;
    expect(rows).toHaveLength(expected.length + 1);
    expect(rows.slice(1).map((r) => r.values[1])).toEqual(expected);
    expect(rows.slice(1).map((r) => r.values[2])).toEqual(expected.map((_, i) => i));
  });

  it('reads dates of the 1904 date system', () => {
    expect(rowsOf(fixture('dates-1904.xls'))!.map((r) => r.values[1])).toEqual(['date', utc(2026, 1, 31), utc(2000, 2, 29, 23, 59, 59)]);
  });

  it('refuses Excel 95 and older, encrypted workbooks, other compound files and damaged files, each with its key', () => {
    expect(failureOf(() => readXlsSheet(fixture('biff5-book.xls')))).toBe('ImportXlsUnsupportedVersion');
    expect(failureOf(() => readXlsSheet(fixture('biff5-version.xls')))).toBe('ImportXlsUnsupportedVersion');
    expect(failureOf(() => readXlsSheet(fixture('encrypted.xls')))).toBe('ImportFileEncrypted');
    expect(failureOf(() => readXlsSheet(fixture('not-a-workbook.xls')))).toBe('ImportFileTypeError');
    expect(failureOf(() => readXlsSheet(fixture('truncated.xls')))).toBe('ImportXlsDamaged');
  });
});

describe('an .xls import gives the importers what the same sheet as .xlsx gives', () => {
  async function xlsxOf(rows: Array<{ rowNum: number; values: ReadonlyArray<XlsRow['values'][number] | undefined> }>): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('data');
    for (const { rowNum, values } of rows) {
      values.forEach((value, col) => {
        if (value === undefined) return;
        const cell = sheet.getCell(rowNum, col);
        cell.value = value;
        if (value instanceof Date) cell.numFmt = 'yyyy-mm-dd hh:mm:ss';
      });
    }
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  it.each(['cells.xls', 'materials.xls', 'dates-1904.xls'])('%s', async (name) => {
    const xls = fixture(name);
    const fromXls = await readImportFile(xls, name);
    expect(fromXls.length).toBeGreaterThan(1);
    expect(await readImportFile(await xlsxOf(rowsOf(xls)!), 'same.xlsx')).toEqual(fromXls);
  });

  it('maps the header and trims like for .xlsx; dates become ISO dates', async () => {
    const rows = await readImportFile(fixture('cells.xls'), 'cells.xls');
    expect(rows.slice(0, 2)).toEqual([
      { rowNum: 2, data: { 文本: '螺丝 M3', 整数: 42, 小数: 3.14159, 日期: '2026-01-31', 布尔: true, 公式: 84, 备注: 'padded' } },
      { rowNum: 3, data: { 文本: 'Café über', 整数: -7, 小数: 12.5, 日期: '2026-03-01T08:30:15.000Z', 布尔: false, 公式: '结果abcd', 备注: '加粗 and plain' } },
    ]);
    expect(rows[2]).toEqual({ rowNum: 5, data: { 备注: 'only a remark' } });
  });

  it('decides by the bytes and wants the name to agree: a renamed file is refused, not guessed at', async () => {
    const xlsx = await xlsxOf([{ rowNum: 1, values: [undefined, 'name'] }, { rowNum: 2, values: [undefined, 'a'] }]);
    await expect(readImportFile(xlsx, 'renamed.xls')).rejects.toMatchObject({ key: 'ImportFileTypeError', additional: 'xls' });
    await expect(readImportFile(fixture('cells.xls'), 'renamed.xlsx')).rejects.toMatchObject({ key: 'ImportFileTypeError', additional: 'xlsx' });
    await expect(readImportFile(fixture('cells.xls'), 'cells.XLS')).resolves.toHaveLength(6);
    await expect(readImportFile(fixture('cells.xls'), 'cells.xls', { maxBytes: 1000 })).rejects.toMatchObject({ key: 'UploadSizeExceeded' });
  });

  it('says a password-protected .xlsx (an encrypted package in a compound file) is encrypted', async () => {
    const encrypted = compoundFile([
      ['EncryptionInfo', Buffer.alloc(200, 1)],
      ['EncryptedPackage', Buffer.alloc(5000, 2)],
    ]).file;
    await expect(readImportFile(encrypted, 'secret.xlsx')).rejects.toMatchObject({ key: 'ImportFileEncrypted' });
    await expect(readImportFile(fixture('encrypted.xls'), 'secret.xls')).rejects.toMatchObject({ key: 'ImportFileEncrypted' });
  });

  it('answers ImportFileEmpty for a workbook without a worksheet or without data rows', async () => {
    const chartOnly = compoundFile([['Workbook', padded(workbookStream([], [{ records: [], kind: 2 }]))]]).file;
    await expect(readImportFile(chartOnly, 'chart.xls')).rejects.toMatchObject({ key: 'ImportFileEmpty' });
    await expect(readImportFile(xlsOf([NUMBER(0, 0, 1)]), 'header-only.xls')).rejects.toMatchObject({ key: 'ImportFileEmpty' });
  });
});

// ---------------------------------------------------------------- records Excel writes and xlwt does not

describe('BIFF8 records beyond what xlwt writes', () => {
  it('switches between 1- and 2-byte characters where a shared string crosses into a CONTINUE record', () => {
    const sst = record(
      0x00fc,
      u32(4, 4),
      // 1: "ABCDEF", 2-byte, "AB" here; the CONTINUE goes on in 1-byte characters.
      u16(6),
      u8(0x01),
      utf16('AB'),
    );
    const rest = [
      CONTINUE(u8(0x00), latin1('CDEF'), /* 2: "xy中文", 1-byte, "xy" here */ u16(4), u8(0x00), latin1('xy')),
      // …then 2-byte: a character above Latin-1 follows.
      CONTINUE(u8(0x01), utf16('中文'), /* 3: header ends the record; its characters start the next */ u16(3), u8(0x00)),
      CONTINUE(
        u8(0x00),
        latin1('end'),
        // 4: rich (1 run) and phonetic (6 bytes) data; the run crosses the boundary, with no option byte.
        u16(3),
        u8(0x0c),
        u16(1),
        u32(6),
        latin1('abc'),
        u16(0),
      ),
      CONTINUE(u16(5), Buffer.alloc(6, 0xee)),
    ];
    const rows = rowsOf(xlsOf([LABELSST(0, 0, 0), LABELSST(0, 1, 1), LABELSST(0, 2, 2), LABELSST(0, 3, 3)], [sst, ...rest]));
    expect(rows).toEqual([{ rowNum: 1, values: [undefined, 'ABCDEF', 'xy中文', 'end', 'abc'] }]);
  });

  it('reads LABEL cells, a formula string result continued in a CONTINUE record, and skips embedded chart substreams', () => {
    const label = record(0x0204, u16(0, 0, 0), u16(2), u8(0x01), utf16('标签'));
    const compressed = record(0x0204, u16(0, 1, 0), u16(5), u8(0x00), latin1('plain'));
    const formula = record(0x0006, u16(1, 0, 0), u8(0, 0, 0, 0, 0, 0, 0xff, 0xff), u16(0), u32(0), u16(0));
    const string = [record(0x0207, u16(6), u8(0x01), utf16('结果')), CONTINUE(u8(0x00), latin1('more'))];
    const chart = [BOF(0x0020), NUMBER(5, 5, 99), EOF];
    const rows = rowsOf(xlsOf([label, compressed, formula, ...string, ...chart, NUMBER(2, 0, 7)]));
    expect(rows).toEqual([
      { rowNum: 1, values: [undefined, '标签', 'plain'] },
      { rowNum: 2, values: [undefined, '结果more'] },
      { rowNum: 3, values: [undefined, 7] },
    ]);
  });

  it('skips chart sheets when counting worksheets', () => {
    const stream = workbookStream([], [{ records: [NUMBER(0, 0, 1)], kind: 2, name: 'Chart1' }, { records: [NUMBER(0, 0, 2)], name: 'Data' }]);
    expect(readXlsSheet(compoundFile([['Workbook', padded(stream)]]).file)).toEqual({ name: 'Data', rows: [{ rowNum: 1, values: [undefined, 2] }] });
  });

  it('reads a workbook stream small enough for the mini stream, and version 4 files (4096-byte sectors)', () => {
    const stream = workbookStream([], [{ records: [NUMBER(0, 0, 1.5)] }]);
    expect(stream.length).toBeLessThan(4096);
    expect(rowsOf(compoundFile([['Workbook', stream]]).file)).toEqual([{ rowNum: 1, values: [undefined, 1.5] }]);
    expect(rowsOf(compoundFile([['Workbook', padded(stream)]], 4).file)).toEqual([{ rowNum: 1, values: [undefined, 1.5] }]);
    // Other streams around the workbook are passed by.
    expect(rowsOf(compoundFile([['\u0005SummaryInformation', Buffer.alloc(300)], ['Workbook', stream], ['Ctls', Buffer.alloc(10)]]).file)).toHaveLength(1);
  });

  it('recognises date formats like exceljs: date letters outside quotes, brackets, escapes and padding', () => {
    for (const code of ['yyyy-mm-dd', 'YYYY/M/D', 'h:mm AM/PM', '[h]:mm:ss', '[$-804]yyyy"年"m"月"', 'mm:ss.0', 'd-mmm']) expect(isDateFormat(code), code).toBe(true);
    for (const code of ['General', '0.00', '#,##0.00 "days"', '[Red]0.00', '0.0\\h', '_-* #,##0_-;-* #,##0_-;_-* "-"_-;_-@_-', 'G/通用格式', '0.00E+00', '@']) {
      expect(isDateFormat(code), code).toBe(false);
    }
  });
});

// ---------------------------------------------------------------- hostile files

describe('truncated and hostile .xls files end in a catalogued error, quickly', () => {
  const DAMAGED = 'ImportXlsDamaged';

  it('refuses every truncation of a real file, unless only unused bytes were cut', () => {
    for (const name of ['cells.xls', 'long-strings.xls']) {
      const file = fixture(name);
      const whole = rowsOf(file);
      for (let length = 0; length < file.length; length += name === 'cells.xls' ? 7 : 499) {
        const cut = file.subarray(0, length);
        const key = failureOf(() => readXlsSheet(cut));
        // xlwt ends the file with the directory's sector, whose last entries are unused padding.
        if (key === undefined) expect(rowsOf(cut), `${name} cut at ${length}`).toEqual(whole);
        else expect(['ImportXlsDamaged', 'ImportFileTypeError'], `${name} cut at ${length}`).toContain(key);
      }
    }
  });

  it('survives random corruption of real files: rows or a catalogued error, never another exception', () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const keys = new Set(['ImportXlsDamaged', 'ImportFileTypeError', 'ImportXlsUnsupportedVersion', 'ImportFileEncrypted']);
    for (const name of ['cells.xls', 'materials.xls', 'long-strings.xls']) {
      const original = fixture(name);
      for (let round = 0; round < 150; round++) {
        const file = Buffer.from(original);
        const flips = 1 + Math.floor(random() * 8);
        for (let i = 0; i < flips; i++) file[Math.floor(random() * file.length)] = Math.floor(random() * 256);
        const key = failureOf(() => readXlsSheet(file));
        if (key !== undefined) expect(keys, `${name} round ${round}`).toContain(key);
      }
    }
  });

  it('refuses a file that only starts like a compound file', () => {
    expect(failureOf(() => readXlsSheet(Buffer.from('d0cf11e0a1b11ae1', 'hex')))).toBe(DAMAGED);
    expect(failureOf(() => readXlsSheet(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)])))).toBe('ImportFileTypeError');
    expect(failureOf(() => readXlsSheet(Buffer.from('PK\u0003\u0004 not a compound file')))).toBe('ImportFileTypeError');
  });

  it('stops at cycles in sector chains, the DIFAT and the directory tree instead of following them forever', () => {
    const stream = padded(workbookStream([], [{ records: [NUMBER(0, 0, 1)] }]));
    // The workbook's third sector points back at its first.
    const cyclic = compoundFile([['Workbook', stream]]);
    cyclic.file.writeUInt32LE(cyclic.starts.Workbook, cyclic.fatEntryAt(cyclic.starts.Workbook + 2));
    expect(failureOf(() => readXlsSheet(cyclic.file))).toBe(DAMAGED);
    // The directory chain (whose length is not stored) points at itself.
    const directory = compoundFile([['Workbook', stream]]);
    directory.file.writeUInt32LE(directory.dirStart, directory.fatEntryAt(directory.dirStart));
    expect(failureOf(() => readXlsSheet(directory.file))).toBe(DAMAGED);
    // A sibling that is its own sibling.
    const tree = compoundFile([['Other', Buffer.alloc(10)], ['Workbook', stream]]);
    tree.file.writeUInt32LE(1, tree.entryAt(1) + 72);
    expect(failureOf(() => readXlsSheet(tree.file))).toBe(DAMAGED);
    // A mini-stream chain that loops.
    const mini = compoundFile([['Workbook', workbookStream([], [{ records: [NUMBER(0, 0, 1)] }])]]);
    const miniFatStart = mini.file.readUInt32LE(60);
    mini.file.writeUInt32LE(0, mini.sectorAt(miniFatStart));
    expect(failureOf(() => readXlsSheet(mini.file))).toBe(DAMAGED);
    // 250 FAT sectors: 109 listed in the header, the rest in DIFAT sectors — one that names itself as the next.
    const big = compoundFile([['Workbook', stream], ['Filler', Buffer.alloc(300 * 512)]]);
    big.file.writeUInt32LE(250, 44);
    for (let i = 0; i < 109; i++) big.file.writeUInt32LE(i, 76 + i * 4);
    big.file.writeUInt32LE(3, 68);
    big.file.writeUInt32LE(2, 72);
    for (let i = 0; i < 127; i++) big.file.writeUInt32LE(i, big.sectorAt(3) + i * 4);
    big.file.writeUInt32LE(3, big.sectorAt(3) + 508);
    expect(failureOf(() => readXlsSheet(big.file))).toBe(DAMAGED);
  });

  it('never trusts sizes and counts: a 4 GB stream, sectors past the end, a string table claiming 4 billion strings', () => {
    const stream = padded(workbookStream([], [{ records: [NUMBER(0, 0, 1)] }]));
    const huge = compoundFile([['Workbook', stream]]);
    huge.file.writeUInt32LE(0xfffffff0, huge.entryAt(1) + 120);
    expect(failureOf(() => readXlsSheet(huge.file))).toBe(DAMAGED);
    const outside = compoundFile([['Workbook', stream]]);
    outside.file.writeUInt32LE(100_000, outside.fatEntryAt(outside.starts.Workbook));
    expect(failureOf(() => readXlsSheet(outside.file))).toBe(DAMAGED);
    const fatOutside = compoundFile([['Workbook', stream]]);
    fatOutside.file.writeUInt32LE(100_000, 76);
    expect(failureOf(() => readXlsSheet(fatOutside.file))).toBe(DAMAGED);

    const sst = record(0x00fc, u32(0xffffffff, 0xffffffff), u16(1), u8(0), latin1('a'));
    expect(rowsOf(xlsOf([LABELSST(0, 0, 0)], [sst]))).toEqual([{ rowNum: 1, values: [undefined, 'a'] }]);
    expect(failureOf(() => readXlsSheet(xlsOf([LABELSST(0, 0, 1)], [sst])))).toBe(DAMAGED);
    // A string longer than its records, and phonetic data of a negative length.
    expect(failureOf(() => readXlsSheet(xlsOf([], [record(0x00fc, u32(1, 1), u16(500), u8(0), latin1('short'))])))).toBe(DAMAGED);
    expect(failureOf(() => readXlsSheet(xlsOf([], [record(0x00fc, u32(1, 1), u16(1), u8(0x04), u32(-8), latin1('a'))])))).toBe(DAMAGED);
  });

  it('refuses records that do not fit: past the stream, too short, past column 256, a MULRK of the wrong length', () => {
    const sheet = (...records: Buffer[]) => failureOf(() => readXlsSheet(xlsOf(records)));
    expect(sheet(record(0x0203, u16(0, 0, 0), u8(1, 2)))).toBe(DAMAGED);
    expect(sheet(NUMBER(0, 256, 1))).toBe(DAMAGED);
    expect(sheet(NUMBER(0, 0, NaN))).toBe(DAMAGED);
    expect(sheet(record(0x00bd, u16(0, 0), u16(0), u32(2), u16(5)))).toBe(DAMAGED);
    expect(sheet(record(0x0204, u16(0, 0, 0), u16(50), u8(0), latin1('short')))).toBe(DAMAGED);
    // A record header announcing more than the stream holds, and a sheet whose EOF never comes.
    const cut = workbookStream([], [{ records: [] }]);
    const noEof = Buffer.concat([cut.subarray(0, cut.length - 4), u16(0x0203, 0x4000)]);
    expect(failureOf(() => readXlsSheet(compoundFile([['Workbook', noEof]]).file))).toBe(DAMAGED);
    // A sheet offset past the stream, or not at a BOF.
    const stream = Buffer.from(padded(workbookStream([], [{ records: [] }])));
    const boundsheet = stream.indexOf(u16(0x0085));
    stream.writeUInt32LE(0x7fffffff, boundsheet + 4);
    expect(failureOf(() => readXlsSheet(compoundFile([['Workbook', stream]]).file))).toBe(DAMAGED);
    stream.writeUInt32LE(0, boundsheet + 4);
    expect(failureOf(() => readXlsSheet(compoundFile([['Workbook', stream]]).file))).toBe(DAMAGED);
  });

  it('keeps numbers out of Excel\u2019s date range as numbers instead of making invalid dates', () => {
    const dateXf = [record(0x00e0, u16(0, 14), Buffer.alloc(16))];
    const rows = rowsOf(xlsOf([record(0x0203, u16(0, 0, 0), f64(1e12)), record(0x0203, u16(0, 1, 0), f64(-1)), record(0x0203, u16(0, 2, 0), f64(45000))], dateXf));
    expect(rows).toEqual([{ rowNum: 1, values: [undefined, 1e12, -1, utc(2023, 3, 15)] }]);
  });
});
