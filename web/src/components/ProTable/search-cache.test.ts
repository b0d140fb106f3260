import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { searchFieldsOf } from './query.ts';
import { clearSearchCache, readSearchCache, SEARCH_CACHE_KEY, writeSearchCache, type CacheStorage } from './search-cache.ts';

function memoryStorage(): CacheStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

const fields = searchFieldsOf([
  { prop: 'name', title: 'Name', search: true },
  { prop: 'status', title: 'Status', search: { type: 'select', options: [] } },
  { prop: 'billDate', title: 'Date', search: { type: 'dateRange' } },
]);

describe('table search cache', () => {
  it('keeps one object under p8_table_search_cache keyed by list type', () => {
    const storage = memoryStorage();
    writeSearchCache('purchaseOrder', fields, { name: 'A', status: 1 }, storage);
    writeSearchCache('saleOrder', fields, { name: 'B' }, storage);
    expect([...storage.data.keys()]).toEqual([SEARCH_CACHE_KEY]);
    expect(JSON.parse(storage.data.get(SEARCH_CACHE_KEY)!)).toEqual({ purchaseOrder: { name: 'A', status: 1 }, saleOrder: { name: 'B' } });
  });

  it('gives dates back as dates', () => {
    const storage = memoryStorage();
    writeSearchCache('purchaseOrder', fields, { billDate: [dayjs('2026-03-01'), dayjs('2026-03-31 23:59:59')] }, storage);
    const read = readSearchCache('purchaseOrder', fields, storage)!;
    const [start, end] = read.billDate as dayjs.Dayjs[];
    expect(dayjs.isDayjs(start)).toBe(true);
    expect(start.format('YYYY-MM-DD')).toBe('2026-03-01');
    expect(end.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-03-31 23:59:59');
  });

  it('has nothing for a list never searched, and forgets a list on reset', () => {
    const storage = memoryStorage();
    expect(readSearchCache('x', fields, storage)).toBeUndefined();
    writeSearchCache('x', fields, { name: 'A' }, storage);
    writeSearchCache('y', fields, { name: 'B' }, storage);
    clearSearchCache('x', storage);
    expect(readSearchCache('x', fields, storage)).toBeUndefined();
    expect(readSearchCache('y', fields, storage)).toEqual({ name: 'B' });
  });

  it('drops fields the list no longer has and survives broken storage', () => {
    const storage = memoryStorage();
    storage.setItem(SEARCH_CACHE_KEY, JSON.stringify({ x: { gone: 1, name: 'A' } }));
    expect(readSearchCache('x', fields, storage)).toEqual({ name: 'A' });
    storage.setItem(SEARCH_CACHE_KEY, '{not json');
    expect(readSearchCache('x', fields, storage)).toBeUndefined();
    writeSearchCache('x', fields, { name: 'C' }, storage);
    expect(readSearchCache('x', fields, storage)).toEqual({ name: 'C' });
  });
});
