import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { headerFields, lineFields } from '@p8/contract/bills/registry';
import { recordRef } from '@p8/contract/records/references';
import { heldBy, type RecordUsage, type UsageChecker } from '../core/record-usage.ts';
import { bill, billLine, stockLedger } from '../db/schema/index.ts';

/**
 * The records bills name cannot be deleted while a bill (or a ledger entry) names them. Every field of kind
 * `record` of every bill type registers its check under the kind's `usage` name (records/references.ts), so a
 * new bill type naming a process or a BOM holds it the day it is declared; the delete of that record asks these
 * checks (core/record-usage.ts). A field kept in a column is checked there, a type's own field in `extra` through
 * the bills of the types that have it. Beyond fields: a bill's creator and auditor, and the stock ledger's
 * material, warehouse and location.
 */
export function registerBillUsage(usage: RecordUsage) {
  for (const { usageKind, part, key, types } of namedByBills()) {
    const table = part === 'header' ? bill : billLine;
    const column = (table as unknown as Record<string, AnyPgColumn | undefined>)[key];
    usage.register(usageKind, `bills: ${part} ${key}`, column ? heldBy(table, column) : heldInExtra(part, key, types));
  }
  usage.register('staff', 'bill creators', heldBy(bill, bill.createdBy));
  usage.register('staff', 'bill auditors', heldBy(bill, bill.auditBy));
  usage.register('material', 'stock ledger', heldBy(stockLedger, stockLedger.materialId));
  usage.register('stock', 'stock ledger', heldBy(stockLedger, stockLedger.warehouseId));
  usage.register('location', 'stock ledger', heldBy(stockLedger, stockLedger.locationId));
}

/** Each (record kind, header or line, field key) some bill type names, with the types that have it. */
function namedByBills(): Array<{ usageKind: string; part: 'header' | 'line'; key: string; types: string[] }> {
  const found = new Map<string, { usageKind: string; part: 'header' | 'line'; key: string; types: string[] }>();
  for (const decl of BILL_TYPES) {
    for (const [part, fields] of [
      ['header', headerFields(decl)],
      ['line', lineFields(decl)],
    ] as const) {
      for (const field of fields) {
        if (field.kind !== 'record') continue;
        const usageKind = recordRef(field.ref!).usage;
        if (!usageKind) continue;
        const id = `${usageKind}\u0000${part}\u0000${field.key}`;
        const entry = found.get(id) ?? { usageKind, part, key: field.key, types: [] };
        entry.types.push(decl.type);
        found.set(id, entry);
      }
    }
  }
  return [...found.values()];
}

/** A record named by a type's own field (kept in `extra`) of a bill or line of the types that have it. */
function heldInExtra(part: 'header' | 'line', key: string, types: string[]): UsageChecker {
  return async (tx, tenantId, ids) => {
    const named = part === 'header' ? sql<string>`${bill.extra}->>${key}` : sql<string>`${billLine.extra}->>${key}`;
    const query = tx.select({ id: named }).from(bill);
    const joined = part === 'line' ? query.innerJoin(billLine, and(eq(billLine.tenantId, bill.tenantId), eq(billLine.billId, bill.id))) : query;
    const [row] = await joined.where(and(eq(bill.tenantId, tenantId), inArray(bill.billType, types), inArray(named, ids.map(String)))).limit(1);
    return row ? { id: Number(row.id) } : undefined;
  };
}
