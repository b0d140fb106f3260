import { eq, sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/connection.ts';
import {
  admin,
  adminRole,
  agreement,
  auditLog,
  bill,
  billCount,
  billVersion,
  billLine,
  outsourcingConsumption,
  inspectionBox,
  officeTask,
  officeTaskNote,
  pictureEmbedding,
  billTransition,
  bom,
  bomLine,
  businessHours,
  codeSequence,
  department,
  district,
  finAccount,
  finAccountDay,
  finBillOpen,
  finFundAccount,
  finMoneyDoc,
  finPartnerBalance,
  finPosting,
  finPostingLine,
  costPeriod,
  costOrder,
  costLine,
  attendancePunch,
  importJob,
  listVersion,
  location,
  mallCategory,
  mallFeedback,
  mallLottery,
  mallLotteryPrize,
  mallLotteryRecord,
  mallOrder,
  mallOrderItem,
  mallOrderLog,
  mallProduct,
  mallSku,
  material,
  materialUnit,
  menu,
  message,
  orderDaily,
  orderTotal,
  partner,
  partnerAddress,
  partnerContact,
  printer,
  printTemplate,
  labelTemplate,
  backgroundJob,
  recordAssignment,
  role,
  roleMenu,
  serviceMessage,
  serviceOrder,
  serviceOrderLog,
  serviceStaff,
  session,
  slotBooking,
  stockBalance,
  stockBatch,
  stockLedger,
  stockValuation,
  swiper,
  systemSetting,
  tableColumnSetting,
  timeSlot,
  uploadFile,
  verifyRule,
  verifyRuleReviewer,
  warehouse,
  declaredRecordLineTable,
  declaredRecordTable,
} from '../../db/schema/index.ts';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';

/**
 * What "clear data" (header menu: clear business data / clear basic data) does with each tenant table —
 * every table with a `tenant_id` has exactly one entry here (server/test/clear-data.test.ts walks the schema):
 * - `business`: bills, ledgers, orders and whatever else happened; emptied by both kinds of clear;
 * - `basic`: the records business names (materials, partners, warehouses…, the mall's catalogue); emptied by
 *   "clear basic data" together with the business tables, since business rows name them;
 * - `kept`: never cleared, with the reason.
 * `keptBy` names the tables whose triggers keep a counter table: those are emptied first, so that their delete
 * triggers do not write the counters again. Foreign keys order the rest (children first), see `deleteOrder`.
 */
export type ClearType = 'business' | 'basic';
export type TableFate = { clear: ClearType; keptBy?: PgTable[] } | { kept: string };

const business = (keptBy?: PgTable[]): TableFate => ({ clear: 'business', ...(keptBy ? { keptBy } : {}) });
const basic: TableFate = { clear: 'basic' };
const kept = (reason: string): TableFate => ({ kept: reason });

export const TENANT_TABLES: ReadonlyArray<readonly [PgTable, TableFate]> = [
  // The bill engine: bills, their lines, timelines and counts, the stock ledger and what it sums to.
  [bill, business()],
  [billLine, business()],
  [billTransition, business()],
  [billCount, business([bill])],
  [stockLedger, business()],
  [stockValuation, business()],
  [stockBalance, business()],
  [stockBatch, business()],
  // Finance: the ledger, settlements, transfers and the fund accounts (their opening balances are postings).
  [finPosting, business()],
  [finPostingLine, business()],
  [finAccountDay, business([finPostingLine])],
  [finBillOpen, business()],
  [finPartnerBalance, business()],
  [finMoneyDoc, business()],
  [finFundAccount, business()],
  // Production's month-end cost runs (what they wrote is in the ledgers above).
  [costPeriod, business()],
  [costOrder, business()],
  [costLine, business()],
  // Picture search's index of the materials' and mall products' pictures (it names them; re-made by a re-index).
  [pictureEmbedding, basic],
  // Outsourcing receipts' consumption of the materials at the supplier (it names bills and their lines).
  [outsourcingConsumption, business()],
  // Tasks' work state and progress notes (they belong to their bills).
  [officeTask, business()],
  [officeTaskNote, business()],
  // Inspection packing: the boxes of inspections' accepted goods (they belong to their bills).
  [inspectionBox, business()],
  // The mall's orders, draws and customers' feedback (they name customers, products and SKUs).
  [mallOrder, business()],
  [mallOrderItem, business()],
  [mallOrderLog, business()],
  [mallLotteryRecord, business()],
  [mallFeedback, business()],
  // Service orders, their timelines, chat and the appointment places they took.
  [serviceOrder, business()],
  [serviceOrderLog, business()],
  [serviceMessage, business()],
  [slotBooking, business()],
  // Attendance punches (web clock-ins and approved replacements).
  [attendancePunch, business()],
  // The home dashboard's order counts, kept by triggers on the orders.
  [orderDaily, business([mallOrder, serviceOrder])],
  [orderTotal, business([mallOrder, serviceOrder])],

  // The declared records (units, brands, attributes, fee and pay types, processes, material categories…), each in its declared category.
  ...RECORD_KINDS.map((decl) => [declaredRecordTable(decl.kind), decl.category === 'basic' ? basic : business()] as const),
  // Their lines (a routing's steps), in the same category.
  ...RECORD_KINDS.filter((decl) => decl.lines).map((decl) => [declaredRecordLineTable(decl.kind), decl.category === 'basic' ? basic : business()] as const),
  // Basic records and what hangs on them.
  [district, basic],
  [partner, basic],
  [partnerContact, basic],
  [partnerAddress, basic],
  [warehouse, basic],
  [location, basic],
  [material, basic],
  [materialUnit, basic],
  [bom, basic],
  [bomLine, basic],
  [recordAssignment, basic],
  // The mall's catalogue (products name materials) and its lottery activities with their prizes.
  [mallCategory, basic],
  [mallProduct, basic],
  [mallSku, basic],
  [mallLottery, basic],
  [mallLotteryPrize, basic],

  [admin, kept('staff accounts: the administrator who clears must still sign in')],
  [adminRole, kept("the accounts' roles")],
  [role, kept('roles and their permissions are set-up, not data')],
  [roleMenu, kept("the roles' screens and buttons")],
  [menu, kept("the tenant's menu tree")],
  [department, kept('the organisation the accounts belong to')],
  [session, kept('signed-in sessions, among them the one clearing')],
  [auditLog, kept('the audit trail, which records the clear itself')],
  [message, kept('messages between staff; system notices carry their own text, no link to an order')],
  [printer, kept('receipt printers are equipment set-up')],
  [printTemplate, kept('print templates are set-up')],
  [labelTemplate, kept('label templates are set-up')],
  [verifyRule, kept('joint-review rules per bill type are set-up')],
  [verifyRuleReviewer, kept("the review rules' reviewers (accounts)")],
  [tableColumnSetting, kept('list column settings are screen set-up')],
  [systemSetting, kept("the tenant's settings and switches")],
  [uploadFile, kept('uploaded files, also named by kept content (logo, slides, agreements)')],
  [listVersion, kept('cache keys of list totals; the deletes themselves move them on')],
  [billVersion, kept("cache keys of the bill lists' counts; the deletes themselves move them on")],
  [codeSequence, kept('numbering counters: a number once handed out is never handed out again')],
  [importJob, kept('import progress; the imported rows are in their own tables')],
  [backgroundJob, kept("background jobs: who ran which import or export and its outcome; the rows it wrote are in their own tables")],
  [agreement, kept("the customer side's user agreement and privacy policy")],
  [businessHours, kept('opening hours are set-up')],
  [timeSlot, kept('appointment slots are set-up (the places taken go with the orders)')],
  [swiper, kept("the customer side's carousel")],
  [serviceStaff, kept('service staff are accounts with their skills and areas')],
  [finAccount, kept('the chart of accounts')],
];

/** The tables a clear of `type` empties: basic data goes with the business that names it. */
const CLEARED: Record<ClearType, ReadonlySet<ClearType>> = { business: new Set(['business']), basic: new Set(['business', 'basic']) };

export function clearedBy(type: ClearType, fate: TableFate): boolean {
  return 'clear' in fate && CLEARED[type].has(fate.clear);
}

/**
 * The tables a clear of `type` empties, in an order the database accepts: a table after every table that
 * refers to it by a foreign key (self-references are one statement's business), and a counter after the
 * tables whose triggers keep it.
 */
export function deleteOrder(type: ClearType): PgTable[] {
  const tables = TENANT_TABLES.filter(([, fate]) => clearedBy(type, fate));
  const names = new Map(tables.map(([table]) => [table, getTableConfig(table).name]));
  const byName = new Map(tables.map(([table]) => [getTableConfig(table).name, table]));
  // before.get(t): the tables to empty before t.
  const before = new Map<PgTable, Set<PgTable>>(tables.map(([table]) => [table, new Set()]));
  for (const [table, fate] of tables) {
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = byName.get(getTableConfig(fk.reference().foreignTable).name);
      if (parent && parent !== table) before.get(parent)!.add(table);
    }
    for (const source of ('keptBy' in fate && fate.keptBy) || []) if (before.has(source)) before.get(table)!.add(source);
  }
  const order: PgTable[] = [];
  const visiting = new Set<PgTable>();
  const visit = (table: PgTable) => {
    if (order.includes(table)) return;
    if (visiting.has(table)) throw new Error(`clear data: the tables around ${names.get(table)} refer to each other`);
    visiting.add(table);
    for (const first of before.get(table)!) visit(first);
    visiting.delete(table);
    order.push(table);
  };
  for (const [table] of tables) visit(table);
  return order;
}

export async function clearTenantData(tx: Tx, tenantId: number, type: ClearType): Promise<number> {
  let cleared = 0;
  // The stock ledger and the finance ledger refuse deletes (append-only) unless the transaction says it is clearing data.
  await tx.execute(sql`select set_config('p8.clear_data', 'on', true)`);
  for (const table of deleteOrder(type)) {
    const result = await tx.delete(table).where(eq((table as unknown as { tenantId: never }).tenantId, tenantId));
    cleared += (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as unknown as { affectedRows?: number }).affectedRows ?? 0;
  }
  return cleared;
}
