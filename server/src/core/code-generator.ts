import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { RECORD_CODE_DIGITS, systemSettingsSchema, type RecordCodeKind, type SystemSettings } from '@p8/contract/tenant-config';
import type { Tx } from '../db/connection.ts';
import { codeSequence, systemSetting } from '../db/schema/index.ts';

/*
 * The one place numbers are handed out: record codes (materials, partners, warehouses, locations) when the
 * user leaves the code empty, and — for the bill engine — bill codes. Counters live in `code_sequence`, one
 * row per tenant, kind and period; drawing adds to the row with an upsert, which locks it until the
 * caller's transaction ends: parallel creates of one kind wait for each other instead of drawing the same
 * number, and a create that rolls back gives its numbers back (no gaps from failed saves).
 *
 *   record code: <prefix><sequence>            WL000001   (period '', never restarts)
 *   bill code:   <prefix><yyyymmdd><sequence>  CGRK202611240001 (period = the bill's day, restarts daily)
 */

/**
 * Draws `count` consecutive numbers of a counter and returns the first; the counter starts at 1. Runs in
 * the caller's transaction (RLS: the tenant's own counters only).
 */
export async function drawNumbers(tx: Tx, tenantId: number, kind: string, period: string, count = 1): Promise<number> {
  const [row] = await tx
    .insert(codeSequence)
    .values({ tenantId, kind, period, lastValue: count })
    .onConflictDoUpdate({
      target: [codeSequence.tenantId, codeSequence.kind, codeSequence.period],
      set: { lastValue: sql`${codeSequence.lastValue} + ${count}` },
    })
    .returning({ lastValue: codeSequence.lastValue });
  return Number(row.lastValue) - count + 1;
}

/** One system setting of the tenant, parsed; its default when unset or stored in another shape. */
async function codeSetting<K extends 'codePrefixes' | 'billCodePrefixes'>(tx: Tx, tenantId: number, key: K): Promise<SystemSettings[K]> {
  const [row] = await tx
    .select({ value: systemSetting.value })
    .from(systemSetting)
    .where(and(eq(systemSetting.tenantId, tenantId), eq(systemSetting.key, key)));
  const schema = systemSettingsSchema.shape[key];
  const parsed = schema.safeParse(row?.value ?? {});
  return (parsed.success ? parsed.data : schema.parse({})) as SystemSettings[K];
}

/** The tenant's prefix of a record kind (system settings → code prefixes; the default when unset). */
export async function recordCodePrefix(tx: Tx, tenantId: number, kind: RecordCodeKind): Promise<string> {
  return (await codeSetting(tx, tenantId, 'codePrefixes'))[kind];
}

/** The tenant's prefix of a bill type (system settings → bill code prefixes), else the declaration's. */
export async function billCodePrefix(tx: Tx, tenantId: number, billType: string, declared: string): Promise<string> {
  return (await codeSetting(tx, tenantId, 'billCodePrefixes'))[billType] || declared;
}

const pad = (n: number, digits: number) => String(n).padStart(digits, '0');

/**
 * `count` new codes of a record kind, in order. A user may have typed a code that the counter reaches
 * later (WL000007 by hand): `taken` names which of the candidates already exist, and those numbers are
 * skipped, so a generated code never repeats a stored one.
 */
export async function nextRecordCodes(
  tx: Tx,
  tenantId: number,
  kind: RecordCodeKind,
  count: number,
  taken: (candidates: string[]) => Promise<Set<string>>,
): Promise<string[]> {
  if (count <= 0) return [];
  const prefix = await recordCodePrefix(tx, tenantId, kind);
  const codes: string[] = [];
  while (codes.length < count) {
    const wanted = count - codes.length;
    const first = await drawNumbers(tx, tenantId, kind, '', wanted);
    const candidates = Array.from({ length: wanted }, (_, i) => `${prefix}${pad(first + i, RECORD_CODE_DIGITS)}`);
    const used = await taken(candidates);
    codes.push(...candidates.filter((c) => !used.has(c)));
  }
  return codes;
}

/**
 * `taken` for `nextRecordCodes` over a record table: which candidates its `code` column already holds
 * among the rows matching `scope` (the tenant, and the kind where one table holds two records).
 */
export function codesStoredIn(tx: Tx, table: PgTable, code: AnyPgColumn, scope: Array<SQL | undefined>) {
  return async (candidates: string[]): Promise<Set<string>> => {
    const found = await tx
      .select({ code })
      .from(table)
      .where(and(...scope, inArray(code, candidates)));
    return new Set(found.map((r) => String(r.code)));
  };
}

/** The code a new record gets: the one typed, or the next generated one when left empty. */
export async function codeOrNext(tx: Tx, tenantId: number, kind: RecordCodeKind, typed: string | undefined, taken: (candidates: string[]) => Promise<Set<string>>): Promise<string> {
  if (typed) return typed;
  const [code] = await nextRecordCodes(tx, tenantId, kind, 1, taken);
  return code;
}

/** Digits of the daily sequence of a bill code. */
export const BILL_CODE_DIGITS = 4;

/**
 * The next code of a bill type for the bill's date: `<prefix><yyyymmdd><sequence>`, the sequence restarting
 * each day (CGRK202611240001). `date` is the bill's own date (YYYY-MM-DD), not the clock's, so a bill dated
 * yesterday numbers among yesterday's. The prefix is the tenant's own for the type (system settings), else
 * `declaredPrefix`; the sequence belongs to the type, so changing the prefix never repeats a number.
 */
export async function nextBillCode(tx: Tx, tenantId: number, billType: string, declaredPrefix: string, date: string): Promise<string> {
  const prefix = await billCodePrefix(tx, tenantId, billType, declaredPrefix);
  const day = date.slice(0, 10).replaceAll('-', '');
  if (!/^\d{8}$/.test(day)) throw new Error(`bill date ${date} is not YYYY-MM-DD`);
  const n = await drawNumbers(tx, tenantId, `bill:${billType}`, day);
  return `${prefix}${day}${pad(n, BILL_CODE_DIGITS)}`;
}
