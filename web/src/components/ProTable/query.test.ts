import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  defaultDateRange,
  filterParams,
  initialSearchValues,
  listParams,
  pageSizeOptions,
  resolvePageSize,
  searchFieldsOf,
  shortcutRange,
  sortFromAntd,
} from './query.ts';
import type { ProColumn } from './types.ts';

type Row = { id: number };
const columns: ProColumn<Row>[] = [
  { prop: 'billCode', title: 'Code', search: true },
  { prop: 'billStatus', title: 'Status', valueEnum: { Saved: { text: 'Saved' } }, search: true },
  { prop: 'billDate', title: 'Date', search: { type: 'dateRange', defaultDate: true } },
  { prop: 'deptId', title: 'Dept', search: { type: 'treeSelect', treeData: [], multiple: true } },
  { prop: 'number', title: 'Qty', search: { type: 'number' } },
  { prop: 'remark', title: 'Remark' },
];
const fields = searchFieldsOf(columns);
const at = (s: string) => dayjs(s);

describe('page size', () => {
  it("uses the tenant's default page size", () => {
    expect(resolvePageSize(25)).toBe(25);
  });
  it('falls back to 200 when the tenant gives none', () => {
    expect(resolvePageSize(undefined)).toBe(200);
    expect(resolvePageSize(null)).toBe(200);
    expect(resolvePageSize(0)).toBe(200);
  });
  it('never asks for more than 200 rows', () => {
    expect(resolvePageSize(500)).toBe(200);
  });
  it('offers 10, 25, 50, 100, 200', () => {
    expect(pageSizeOptions(10)).toEqual([10, 25, 50, 100, 200]);
    expect(pageSizeOptions(30)).toEqual([10, 25, 30, 50, 100, 200]);
  });
});

describe('search fields', () => {
  it('takes searchable columns with a control chosen from the column, the default date range first', () => {
    expect(fields.map((f) => [f.name, f.type, f.span])).toEqual([
      ['billDate', 'dateRange', 2],
      ['billCode', 'input', 1],
      ['billStatus', 'select', 1],
      ['deptId', 'treeSelect', 1],
      ['number', 'number', 1],
    ]);
  });
});

describe('list query', () => {
  it('sends page, filters, the date range as start/end and the sort as <prop>Sort', () => {
    const params = listParams({
      fields,
      values: { billCode: '  CG-01 ', billStatus: 'Saved', billDate: [at('2026-03-01'), at('2026-03-31')], deptId: [3, 4], number: 0 },
      sort: { prop: 'billDate', order: 'desc' },
      extra: { notInId: [1, 2] },
      current: 2,
      pageSize: 50,
    });
    expect(params).toEqual({
      current: 2,
      pageSize: 50,
      billCode: 'CG-01',
      billStatus: 'Saved',
      start: '2026-03-01',
      end: '2026-03-31',
      deptId: [3, 4],
      number: 0,
      billDateSort: 'desc',
      notInId: [1, 2],
    });
  });

  it('leaves empty values out', () => {
    expect(filterParams({ fields, values: { billCode: '   ', billStatus: undefined, billDate: [null, null], deptId: [] } })).toEqual({});
  });

  it('sends an open-ended range with only the side given', () => {
    expect(filterParams({ fields, values: { billDate: [at('2026-01-01'), null] } })).toEqual({ start: '2026-01-01' });
  });

  it('sends date and time when the field asks for it, and custom range keys', () => {
    const [field] = searchFieldsOf<Row>([{ prop: 'auditTime', title: 'Audit', search: { type: 'dateRange', showTime: true, rangeKeys: ['auditStart', 'auditEnd'] } }]);
    expect(filterParams({ fields: [field], values: { auditTime: [at('2026-01-01 08:00:00'), at('2026-01-02 17:30:00')] } })).toEqual({
      auditStart: '2026-01-01 08:00:00',
      auditEnd: '2026-01-02 17:30:00',
    });
  });

  it('uses a field transform and a custom parameter name', () => {
    const own = searchFieldsOf<Row>([
      { prop: 'supplier', title: 'Supplier', search: { key: 'supplierName' } },
      { prop: 'flag', title: 'Flag', search: { transform: (v) => ({ flagOn: v ? 1 : 0 }) } },
    ]);
    expect(filterParams({ fields: own, values: { supplier: 'ACME', flag: true } })).toEqual({ supplierName: 'ACME', flagOn: 1 });
  });

  it('caps the page size at 200', () => {
    expect(listParams({ fields, values: {}, current: 1, pageSize: 1000 }).pageSize).toBe(200);
  });

  it("maps antd's sorter to asc / desc", () => {
    expect(sortFromAntd('number', 'ascend')).toEqual({ prop: 'number', order: 'asc' });
    expect(sortFromAntd('number', 'descend')).toEqual({ prop: 'number', order: 'desc' });
    expect(sortFromAntd('number', null)).toBeNull();
  });
});

describe('date shortcuts', () => {
  const now = at('2026-03-15 14:20:00');
  const day = (range: [dayjs.Dayjs, dayjs.Dayjs]) => range.map((d) => d.format('YYYY-MM-DD'));

  it('today and yesterday', () => {
    expect(day(shortcutRange('today', now))).toEqual(['2026-03-15', '2026-03-15']);
    expect(day(shortcutRange('yesterday', now))).toEqual(['2026-03-14', '2026-03-14']);
  });
  it('last 7 and 30 days end today and include it', () => {
    expect(day(shortcutRange('last7Days', now))).toEqual(['2026-03-09', '2026-03-15']);
    expect(day(shortcutRange('last30Days', now))).toEqual(['2026-02-14', '2026-03-15']);
  });
  it('last month, this year and last year are calendar periods', () => {
    expect(day(shortcutRange('lastMonth', now))).toEqual(['2026-02-01', '2026-02-28']);
    expect(day(shortcutRange('thisYear', now))).toEqual(['2026-01-01', '2026-12-31']);
    expect(day(shortcutRange('lastYear', now))).toEqual(['2025-01-01', '2025-12-31']);
  });
  it("defaults the main date column to the tenant's defaultDateSearch days", () => {
    expect(day(defaultDateRange(7, now)!)).toEqual(['2026-03-09', '2026-03-15']);
    expect(defaultDateRange(0, now)).toBeUndefined();
    const values = initialSearchValues(fields, 30, now);
    expect(Object.keys(values)).toEqual(['billDate']);
    expect(day(values.billDate as [dayjs.Dayjs, dayjs.Dayjs])).toEqual(['2026-02-14', '2026-03-15']);
  });
  it('prefers a configured default value, converting strings to dates', () => {
    const own = searchFieldsOf<Row>([{ prop: 'billDate', title: 'Date', search: { type: 'dateRange', defaultDate: true, defaultValue: ['2026-01-01', '2026-01-31'] } }]);
    const values = initialSearchValues(own, 7, now);
    expect(day(values.billDate as [dayjs.Dayjs, dayjs.Dayjs])).toEqual(['2026-01-01', '2026-01-31']);
  });
});
