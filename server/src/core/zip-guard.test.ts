import { describe, expect, it } from 'vitest';
import { sheetXml, xlsxParts, xlsxWithSheet, zipOf } from '../../test/zip-fixtures.ts';
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

  it('reads the sheet of the first tab, whatever order the parts are stored in', async () => {
    // exceljs' own reader walked the parts in stored order and, under load, could lose the ones after the
    // worksheet (the workbook part, stored last here as exceljs stores it): the reader now opens each part
    // from the directory, dependencies first.
    const [types, rels, , workbookRels, first] = xlsxParts({ name: 'xl/worksheets/sheet1.xml', data: sheetXml(1, () => 'second tab') });
    const second = { name: 'xl/worksheets/sheet2.xml', data: sheetXml(2, (row) => `first tab ${row}`) };
    const workbook = { name: 'xl/workbook.xml', data: Buffer.from('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="2" r:id="rId2"/><sheet name="B" sheetId="1" r:id="rId1"/></sheets></workbook>') };
    const twoSheetRels = { ...workbookRels, data: Buffer.from(workbookRels.data.toString().replace('</Relationships>', '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>')) };
    const file = zipOf([types, rels, first, second, twoSheetRels, workbook]);
    expect(await readImportFile(file, 'tabs.xlsx')).toEqual([
      { rowNum: 2, data: { 名称: 'first tab 2' } },
      { rowNum: 3, data: { 名称: 'first tab 3' } },
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
    await expect(checkZip(source(sheetXml(1, () => 'y'.repeat(999))), small)).resolves.toMatchObject({ names: expect.any(Array) });
    const wideRow = Buffer.from(`<worksheet><sheetData><row r="1">${'<c><v>1</v></c>'.repeat(400)}</row></sheetData></worksheet>`);
    await expect(checkZip(source(wideRow), small)).rejects.toMatchObject({ key: 'ImportUnpackedSizeExceeded' });
    await expect(checkZip(source(sheetXml(2000)), small)).resolves.toMatchObject({ names: expect.any(Array) });
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
