import { describe, expect, it } from 'vitest';
import { MB } from '../Upload/rules.ts';
import { checkImportFiles, importErrorLines, importOutcome, importProgressView, normalizeImportResult } from './import-result.ts';

describe('Excel import', () => {
  it('takes one xls or xlsx file of at most 200 MB', () => {
    expect(checkImportFiles([{ name: 'brands.xlsx', size: 10 }])).toBeNull();
    expect(checkImportFiles([{ name: 'brands.XLS', size: 200 * MB }])).toBeNull();
    expect(checkImportFiles([{ name: 'brands.csv', size: 10 }])).toEqual({ key: 'wrongType' });
    expect(checkImportFiles([{ name: 'brands.xlsx', size: 200 * MB + 1 }])).toEqual({ key: 'tooBig', size: '200MB' });
    expect(checkImportFiles([{ name: 'a.xlsx', size: 1 }, { name: 'b.xlsx', size: 1 }])).toEqual({ key: 'onlyOne' });
  });

  it('reads the batch result and translates row errors by their catalogue key', () => {
    const result = normalizeImportResult({
      total: 3,
      successCount: 1,
      errorCount: 2,
      errList: [
        { rowNum: 2, data: {}, errorMsg: 'NameRepeat' },
        { rowNum: 3, data: {}, errorMsg: 'CodeRepeat' },
      ],
    });
    expect(importOutcome(result)).toBe('warning');
    const texts: Record<string, string> = { NameRepeat: '名称重复', CodeRepeat: '编码重复' };
    expect(importErrorLines(result, (key) => texts[key] ?? key, 'zh')).toEqual({
      lines: [
        { row: 2, message: '名称重复' },
        { row: 3, message: '编码重复' },
      ],
      more: 0,
    });
  });

  it('names the refused cell by its column title in the user\'s language and its text', () => {
    const result = normalizeImportResult({
      errList: [
        { rowNum: 2, errorMsg: 'ImportCellNotNumber', column: { zh: '安全库存', en: 'Safety stock' }, value: 'abc' },
        { rowNum: 3, errorMsg: 'PleaseInputName', column: { zh: '*名称', en: '*Name' } },
        { rowNum: 4, errorMsg: 'ImportFailed' },
      ],
    });
    expect(importErrorLines(result, (k) => k, 'en').lines).toEqual([
      { row: 2, message: 'ImportCellNotNumber', column: 'Safety stock', value: 'abc' },
      { row: 3, message: 'PleaseInputName', column: 'Name' },
      { row: 4, message: 'ImportFailed' },
    ]);
    expect(importErrorLines(result, (k) => k, 'zh').lines[1]).toEqual({ row: 3, message: 'PleaseInputName', column: '名称' });
  });

  it('lists at most ten row errors and counts the rest', () => {
    const errList = Array.from({ length: 13 }, (_, i) => ({ rowNum: i + 2, errorMsg: 'NameRepeat' }));
    const { lines, more } = importErrorLines(normalizeImportResult({ errList }), (k) => k, 'en');
    expect(lines).toHaveLength(10);
    expect(more).toBe(3);
  });

  it('derives missing counts and judges the outcome', () => {
    const noneIn = normalizeImportResult({ errList: [{ rowNum: 2, errorMsg: 'x' }] });
    expect(noneIn).toMatchObject({ total: 1, successCount: 0, errorCount: 1 });
    expect(importOutcome(noneIn)).toBe('error');
    expect(importOutcome(normalizeImportResult({ total: 5, successCount: 5, errorCount: 0, errList: [] }))).toBe('success');
    expect(normalizeImportResult(null)).toEqual({ total: 0, successCount: 0, errorCount: 0, errList: [] });
  });
});

describe('importProgressView', () => {
  it('shows the upload, then the job: queued, reading (a count), then its rows of the total', () => {
    expect(importProgressView(40, null)).toMatchObject({ key: 'uploading', percent: 40 });
    expect(importProgressView(100, null)).toMatchObject({ key: 'queued', percent: 100 });
    expect(importProgressView(100, { status: 'queued', progress: { done: 0, total: null } })).toMatchObject({ key: 'queued' });
    expect(importProgressView(100, { status: 'running', progress: { done: 0, total: null } })).toMatchObject({ key: 'processing', percent: 100 });
    expect(importProgressView(100, { status: 'running', progress: { done: 3000, total: null } })).toMatchObject({ key: 'reading', done: 3000, percent: 100 });
    expect(importProgressView(100, { status: 'running', progress: { done: 8000, total: 10000 } })).toEqual({ key: 'rows', done: 8000, total: 10000, percent: 80 });
  });
});
