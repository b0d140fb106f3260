import { describe, expect, it } from 'vitest';
import { sheetXml, xlsxWithSheet } from '../../test/zip-fixtures.ts';
import { readImportFile } from './excel.ts';
import { bufferSource, checkZip, zipLimits } from './zip-guard.ts';

const limits = { maxRows: 100_000, maxUnpackedMb: 256 };

describe('an .xlsx is checked before and while it is unpacked', () => {
  it('reads an honest hand-built workbook', async () => {
    expect(await readImportFile(xlsxWithSheet(sheetXml(3)), 'ok.xlsx')).toEqual([
      { rowNum: 2, data: { 名称: 'row 2' } },
      { rowNum: 3, data: { 名称: 'row 3' } },
      { rowNum: 4, data: { 名称: 'row 4' } },
    ]);
  });

  it('refuses a directory that declares more than the unpacked limit or the ratio allows, before inflating', async () => {
    // 20 MB of one letter deflates to ~20 KB: 1000:1, far beyond any spreadsheet's 100:1.
    const bomb = xlsxWithSheet(sheetXml(100, () => 'x'.repeat(200_000)));
    await expect(readImportFile(bomb, 'bomb.xlsx', { limits })).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded', additional: '256MB' });
    await expect(readImportFile(xlsxWithSheet(sheetXml(2000)), 'big.xlsx', { limits: { maxRows: 100_000, maxUnpackedMb: 0 } })).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded' });
  });

  it('refuses a directory that lies about the sizes, at the first byte beyond what it declared', async () => {
    const xml = sheetXml(100, () => 'x'.repeat(200_000));
    const liar = xlsxWithSheet(xml, 1000);
    const started = Date.now();
    await expect(readImportFile(liar, 'liar.xlsx', { limits })).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded' });
    expect(Date.now() - started).toBeLessThan(2000);
    // Claiming more than it holds is a damaged file, not a spreadsheet.
    await expect(readImportFile(xlsxWithSheet(sheetXml(3), 10_000), 'short.xlsx', { limits })).rejects.toMatchObject({ key: 'ImportFileTypeError' });
  });

  it('refuses a text run or a row larger than any spreadsheet writes (the parser keeps those whole)', async () => {
    const source = (xml: Buffer) => bufferSource(xlsxWithSheet(xml));
    const small = { ...zipLimits(256), maxRatio: 1e9, maxTextRun: 1000, maxRowBytes: 5000 };
    await expect(checkZip(source(sheetXml(1, () => 'y'.repeat(1001))), small)).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded' });
    await expect(checkZip(source(sheetXml(1, () => 'y'.repeat(999))), small)).resolves.toBeUndefined();
    const wideRow = Buffer.from(`<worksheet><sheetData><row r="1">${'<c><v>1</v></c>'.repeat(400)}</row></sheetData></worksheet>`);
    await expect(checkZip(source(wideRow), small)).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded' });
    await expect(checkZip(source(sheetXml(2000)), small)).resolves.toBeUndefined();
  });

  it('refuses a file over the row limit, naming the limit', async () => {
    const file = xlsxWithSheet(sheetXml(51));
    await expect(readImportFile(file, 'rows.xlsx', { limits: { maxRows: 50, maxUnpackedMb: 256 } })).rejects.toMatchObject({ key: 'ImportRowLimitExceeded', additional: '50' });
    await expect(readImportFile(file, 'rows.xlsx', { limits: { maxRows: 51, maxUnpackedMb: 256 } })).resolves.toHaveLength(51);
  });

  it('stops reading when the import is cancelled (server shutdown)', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readImportFile(xlsxWithSheet(sheetXml(10)), 'x.xlsx', { signal: controller.signal })).rejects.toMatchObject({ key: 'ImportCancelled' });
  });
});
