import dayjs from 'dayjs';
import type { SearchField } from './query.ts';

/**
 * The table search cache: one local-storage entry `p8_table_search_cache`, an object keyed by
 * list type whose values are the last submitted search form of that list. Used only while the tenant's
 * `searchCache` is on; dates are kept as `YYYY-MM-DD HH:mm:ss` strings and become dayjs again on reading.
 */
export const SEARCH_CACHE_KEY = 'p8_table_search_cache';

type Stored = Record<string, Record<string, unknown>>;

/** The part of `Storage` the cache uses (tests pass a Map-backed one). */
export type CacheStorage = Pick<Storage, 'getItem' | 'setItem'>;

const STORED_DATE = 'YYYY-MM-DD HH:mm:ss';

function defaultStorage(): CacheStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function readAll(storage: CacheStorage | undefined): Stored {
  if (!storage) return {};
  try {
    const parsed: unknown = JSON.parse(storage.getItem(SEARCH_CACHE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Stored) : {};
  } catch {
    return {};
  }
}

function writeAll(storage: CacheStorage | undefined, all: Stored) {
  if (!storage) return;
  try {
    storage.setItem(SEARCH_CACHE_KEY, JSON.stringify(all));
  } catch {
    /* storage full or blocked: the cache is a convenience */
  }
}

const isDate = (type: SearchField['type']) => type === 'date' || type === 'dateRange';

/** Form values → what is stored (dayjs → strings, empty values left out). */
export function serializeSearchValues(fields: readonly SearchField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || value === null || value === '') continue;
    if (isDate(field.type)) {
      const one = (v: unknown) => (dayjs.isDayjs(v) && v.isValid() ? v.format(STORED_DATE) : null);
      out[field.name] = Array.isArray(value) ? value.map(one) : one(value);
    } else {
      out[field.name] = value;
    }
  }
  return out;
}

/** Stored values → form values (strings → dayjs for date fields; unknown fields dropped). */
export function deserializeSearchValues(fields: readonly SearchField[], stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field.name in stored)) continue;
    const value = stored[field.name];
    if (isDate(field.type)) {
      const one = (v: unknown) => {
        if (typeof v !== 'string') return null;
        const d = dayjs(v);
        return d.isValid() ? d : null;
      };
      out[field.name] = Array.isArray(value) ? value.map(one) : one(value);
    } else {
      out[field.name] = value;
    }
  }
  return out;
}

/** The cached search of a list, or undefined when none is stored. */
export function readSearchCache(listType: string, fields: readonly SearchField[], storage = defaultStorage()): Record<string, unknown> | undefined {
  const entry = readAll(storage)[listType];
  if (!entry || typeof entry !== 'object') return undefined;
  return deserializeSearchValues(fields, entry);
}

export function writeSearchCache(listType: string, fields: readonly SearchField[], values: Record<string, unknown>, storage = defaultStorage()) {
  const all = readAll(storage);
  all[listType] = serializeSearchValues(fields, values);
  writeAll(storage, all);
}

/** Forgets a list's cached search ("reset"). */
export function clearSearchCache(listType: string, storage = defaultStorage()) {
  const all = readAll(storage);
  if (!(listType in all)) return;
  delete all[listType];
  writeAll(storage, all);
}
