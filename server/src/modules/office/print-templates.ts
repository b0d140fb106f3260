import { exportDocuments } from '@p8/contract/print/export-documents';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { billType } from '@p8/contract/bills/catalogue';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import {
  layoutRefusal,
  starterTemplate,
  type BillPrint,
  type BillPrintBatch,
  type PrintLayout,
  type PrintOutput,
  type PrintTemplateChoice,
  type PrintTemplateCreate,
  type PrintTemplateFile,
  type PrintTemplateRow,
  type PrintTemplateUpdate,
} from '@p8/contract/print/template';
import type { Tx } from '../../db/connection.ts';
import { bill, printTemplate } from '../../db/schema/index.ts';
import { loadBill } from '../../bills/bill-rows.ts';
import { getBill } from '../../bills/bill-view.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist, distinct } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext, TransactingCaller } from '../../core/service-context.ts';
import { RECEIPT_CHARS, type BillCloudPrint } from '@p8/contract/print/receipt';
import { findPrinter } from './printers.ts';

/*
 * Print templates of the tenant's bill types (system → print templates). Several per type, names unique per
 * type, at most one default per type: marking one takes the mark from the others, and a type's first
 * template becomes its default. A bill prints with its type's default enabled template, or, where the type
 * has none, with the starter template the contract builds from the type's declaration.
 */

const listSpec: ListSpec = {
  fields: {
    billType: { column: printTemplate.billType, filter: 'eq', sortable: true },
    name: { column: printTemplate.name, filter: 'like', sortable: true },
    isDefault: { column: printTemplate.isDefault, filter: 'bool' },
    enabled: { column: printTemplate.enabled, filter: 'bool' },
    createdAt: { column: printTemplate.createdAt, sortable: true },
    updatedAt: { column: printTemplate.updatedAt, sortable: true },
  },
  dateColumn: printTemplate.createdAt,
  defaultOrder: [asc(printTemplate.billType), desc(printTemplate.isDefault), asc(printTemplate.id)],
};

type Template = typeof printTemplate.$inferSelect;

const toRow = (t: Template): PrintTemplateRow => ({
  id: t.id,
  billType: t.billType,
  name: t.name,
  isDefault: t.isDefault,
  enabled: t.enabled,
  remark: t.remark,
  layout: t.layout,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

const mine = (tenantId: number, id: number) => and(eq(printTemplate.tenantId, tenantId), eq(printTemplate.id, id));

async function findTemplate(tx: Tx, tenantId: number, id: number): Promise<Template> {
  const [row] = await tx.select().from(printTemplate).where(mine(tenantId, id)).limit(1);
  if (!row) throw new BizError('PrintTemplateNotExist', { additional: id });
  return row;
}

/** Refuses a layout the bill type cannot print (a field it lacks, an element off its band…). */
function assertLayout(type: string, layout: PrintLayout) {
  const refusal = layoutRefusal(billType(type)!, layout);
  if (refusal) throw new BizError(refusal, { additional: type });
}

async function assertNameFree(tx: Tx, tenantId: number, type: string, name: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: printTemplate.id })
    .from(printTemplate)
    .where(and(eq(printTemplate.tenantId, tenantId), eq(printTemplate.billType, type), eq(printTemplate.name, name), exceptId === undefined ? undefined : ne(printTemplate.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('PrintTemplateNameRepeat', { additional: name });
}

/** Takes the default mark from the type's templates other than `exceptId`. */
async function clearDefault(tx: Tx, tenantId: number, type: string, exceptId?: number) {
  await tx
    .update(printTemplate)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(printTemplate.tenantId, tenantId), eq(printTemplate.billType, type), eq(printTemplate.isDefault, true), exceptId === undefined ? undefined : ne(printTemplate.id, exceptId)));
}

async function hasTemplates(tx: Tx, tenantId: number, type: string): Promise<boolean> {
  const [one] = await tx.select({ id: printTemplate.id }).from(printTemplate).where(and(eq(printTemplate.tenantId, tenantId), eq(printTemplate.billType, type))).limit(1);
  return one !== undefined;
}

async function insertTemplate(ctx: ServiceContext, body: Omit<PrintTemplateCreate, 'enabled'> & { enabled?: boolean }): Promise<Template> {
  assertLayout(body.billType, body.layout);
  await assertNameFree(ctx.tx, ctx.tenantId, body.billType, body.name);
  const isDefault = body.isDefault || !(await hasTemplates(ctx.tx, ctx.tenantId, body.billType));
  if (isDefault) await clearDefault(ctx.tx, ctx.tenantId, body.billType);
  const [created] = await ctx.tx
    .insert(printTemplate)
    .values({ tenantId: ctx.tenantId, billType: body.billType, name: body.name, isDefault, enabled: body.enabled ?? true, remark: body.remark ?? null, layout: body.layout, createdBy: ctx.account.adminId })
    .returning();
  return created;
}

export async function listPrintTemplates(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(printTemplate.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, ctx.tx.select().from(printTemplate).$dynamic(), ctx.tx.select(countAll()).from(printTemplate).$dynamic());
  return { data: page.data.map(toRow), pagination: page.pagination };
}

export async function getPrintTemplate(ctx: ServiceContext, id: number): Promise<PrintTemplateRow> {
  return toRow(await findTemplate(ctx.tx, ctx.tenantId, id));
}

export async function createPrintTemplate(ctx: ServiceContext, body: PrintTemplateCreate): Promise<PrintTemplateRow> {
  return toRow(await insertTemplate(ctx, body));
}

export async function updatePrintTemplate(ctx: ServiceContext, { id, ...fields }: PrintTemplateUpdate): Promise<PrintTemplateRow> {
  const before = await findTemplate(ctx.tx, ctx.tenantId, id);
  assertLayout(fields.billType, fields.layout);
  await assertNameFree(ctx.tx, ctx.tenantId, fields.billType, fields.name, id);
  if (fields.isDefault) await clearDefault(ctx.tx, ctx.tenantId, fields.billType, id);
  const [updated] = await ctx.tx
    .update(printTemplate)
    // A template moved to another type leaves its old type's default mark behind only when it had none.
    .set({ ...fields, isDefault: fields.isDefault || (before.isDefault && before.billType === fields.billType), remark: fields.remark ?? null, updatedAt: new Date() })
    .where(mine(ctx.tenantId, id))
    .returning();
  return toRow(updated);
}

export async function deletePrintTemplates(ctx: ServiceContext, ids: number[]) {
  await assertIdsExist(ctx.tx, printTemplate, ctx.tenantId, ids, 'PrintTemplateNotExist');
  await ctx.tx.delete(printTemplate).where(and(eq(printTemplate.tenantId, ctx.tenantId), inArray(printTemplate.id, ids)));
}

export async function enablePrintTemplates(ctx: ServiceContext, ids: number[], enabled: boolean) {
  await assertIdsExist(ctx.tx, printTemplate, ctx.tenantId, ids, 'PrintTemplateNotExist');
  await ctx.tx.update(printTemplate).set({ enabled, updatedAt: new Date() }).where(and(eq(printTemplate.tenantId, ctx.tenantId), inArray(printTemplate.id, ids)));
}

/** A copy of a template under a new name, never the default; audited as a copy naming its original. */
export async function copyPrintTemplate(ctx: ServiceContext, id: number, name: string): Promise<PrintTemplateRow> {
  const original = await findTemplate(ctx.tx, ctx.tenantId, id);
  const copy = await insertTemplate(ctx, { billType: original.billType, name, isDefault: false, enabled: original.enabled, remark: original.remark, layout: original.layout });
  ctx.audit({ action: 'copy', entity: 'print-template', entityId: copy.id, detail: { from: id, name } });
  return toRow(copy);
}

/** Makes a template its type's default (the others lose the mark). */
export async function setDefaultPrintTemplate(ctx: ServiceContext, id: number): Promise<PrintTemplateRow> {
  const target = await findTemplate(ctx.tx, ctx.tenantId, id);
  await clearDefault(ctx.tx, ctx.tenantId, target.billType, id);
  const [updated] = await ctx.tx.update(printTemplate).set({ isDefault: true, updatedAt: new Date() }).where(mine(ctx.tenantId, id)).returning();
  if (!target.isDefault) ctx.audit({ action: 'default', entity: 'print-template', entityId: id, detail: { billType: target.billType } });
  return toRow(updated);
}

/** The templates as a file another tenant (or this one) can import: no ids, no default marks. */
export async function exportPrintTemplates(ctx: ServiceContext, ids: number[]): Promise<PrintTemplateFile> {
  const wanted = distinct(ids);
  await assertIdsExist(ctx.tx, printTemplate, ctx.tenantId, wanted, 'PrintTemplateNotExist');
  const rows = await ctx.tx.select().from(printTemplate).where(and(eq(printTemplate.tenantId, ctx.tenantId), inArray(printTemplate.id, wanted))).orderBy(asc(printTemplate.id));
  return { format: 'p8-print-template', version: 1, templates: rows.map((t) => ({ billType: t.billType, name: t.name, remark: t.remark, layout: t.layout })) };
}

/** A name of the type not yet taken: the name itself, else `name (2)`, `name (3)`… within 50 characters. */
async function freeName(tx: Tx, tenantId: number, type: string, name: string): Promise<string> {
  const taken = new Set((await tx.select({ name: printTemplate.name }).from(printTemplate).where(and(eq(printTemplate.tenantId, tenantId), eq(printTemplate.billType, type)))).map((r) => r.name));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, 50 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Imports a template file: every template is checked against its type first, then all are added (a name the
 * type already has gets a number), none of them the default unless its type had no template. All or nothing.
 */
export async function importPrintTemplates(ctx: ServiceContext, file: PrintTemplateFile): Promise<{ ids: number[] }> {
  for (const t of file.templates) assertLayout(t.billType, t.layout);
  const ids: number[] = [];
  for (const t of file.templates) {
    const name = await freeName(ctx.tx, ctx.tenantId, t.billType, t.name);
    ids.push((await insertTemplate(ctx, { billType: t.billType, name, isDefault: false, remark: t.remark ?? null, layout: t.layout })).id);
  }
  ctx.audit({ action: 'import', entity: 'print-template', entityId: ids, detail: { total: ids.length } });
  return { ids };
}

/**
 * The templates a bill of the type can print with: its enabled ones, the default first; where it has none,
 * its starter template (id null) in the caller's language.
 */
export async function printTemplatesOfType(ctx: ServiceContext, type: string, lang: 'zh' | 'en'): Promise<PrintTemplateChoice[]> {
  const rows = await ctx.tx
    .select()
    .from(printTemplate)
    .where(and(eq(printTemplate.tenantId, ctx.tenantId), eq(printTemplate.billType, type), eq(printTemplate.enabled, true)))
    .orderBy(desc(printTemplate.isDefault), asc(printTemplate.id));
  const decl = billType(type)!;
  // The export documents of a commercial sale bill (docs/cross-border.md), unless the tenant keeps one of that name.
  const builtIn = exportDocuments(decl)
    .filter((d) => !rows.some((r) => r.name === d.name[lang]))
    .map((d): PrintTemplateChoice => ({ id: null, builtIn: d.key, name: d.name[lang], isDefault: false, layout: d.layout }));
  if (rows.length) return [...rows.map((t) => ({ id: t.id, name: t.name, isDefault: t.isDefault, layout: t.layout })), ...builtIn];
  return [{ id: null, name: `${decl.label[lang]} · ${lang === 'zh' ? '标准模板' : 'standard'}`, isDefault: true, layout: starterTemplate(decl, lang) }, ...builtIn];
}

/** A template named for a print must be one of the bill's type (null: the type's starter). */
async function assertPrintTemplate(ctx: ServiceContext, decl: BillTypeDecl, templateId: number | null) {
  if (templateId === null) return;
  const template = await findTemplate(ctx.tx, ctx.tenantId, templateId);
  if (template.billType !== decl.type) throw new BizError('PrintTemplateNotExist', { additional: templateId });
}

/** One bill's print counted and audited (the bill already read within the caller's data scope). */
async function countPrint(ctx: ServiceContext, decl: BillTypeDecl, row: { id: number; billCode: string }, templateId: number | null, output: PrintOutput, extra: Record<string, unknown> = {}): Promise<number> {
  const [updated] = await ctx.tx
    .update(bill)
    .set({ printCount: sql`${bill.printCount} + 1` })
    .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, row.id)))
    .returning({ printCount: bill.printCount });
  // Under the bill's type, as every step of a bill is (the log names it by the bill registry).
  ctx.audit({ action: 'print', entity: decl.type, entityId: row.id, detail: { billType: decl.type, billCode: row.billCode, templateId, ...(output === 'paper' ? {} : { output }), ...extra } });
  return updated.printCount;
}

/**
 * A bill printed (on paper, or downloaded as a PDF: a copy of it leaves the system all the same): its print
 * count goes up by one and the audit log names the template (null: the type's starter) and a PDF as such. The bill is read as its screen reads it (the caller's data scope); a template named must be
 * one of the type's. Answers the new count.
 */
export async function recordBillPrint(ctx: ServiceContext, decl: BillTypeDecl, { id, templateId, output }: BillPrint): Promise<{ printCount: number }> {
  const row = await loadBill(ctx, decl, id);
  await assertPrintTemplate(ctx, decl, templateId);
  return { printCount: await countPrint(ctx, decl, row, templateId, output) };
}

/**
 * Bills of a list's selection printed as one job: each read as its screen reads it — one outside the
 * caller's data scope (or of another type or tenant) refuses the whole job, nothing counted — then each
 * counted and audited as a single print is (the entry says how many bills the job held). Answers each
 * bill's new count, in the order asked.
 */
export async function recordBillPrints(ctx: ServiceContext, decl: BillTypeDecl, { ids, templateId, output }: BillPrintBatch): Promise<Array<{ id: number; printCount: number }>> {
  const wanted = distinct(ids);
  const rows = [];
  for (const id of wanted) rows.push(await loadBill(ctx, decl, id));
  await assertPrintTemplate(ctx, decl, templateId);
  const counts = [];
  for (const row of rows) counts.push({ id: row.id, printCount: await countPrint(ctx, decl, row, templateId, output, { batch: wanted.length }) });
  return counts;
}

/**
 * The bills of a list's selection as their forms read them, in one answer and in the order asked (a batch
 * print draws them as one document): each read as its own screen reads it — one outside the caller's data
 * scope, of another type or tenant, refuses the whole answer with its error, as its form would.
 */
export async function billsToPrint(ctx: ServiceContext, decl: BillTypeDecl, ids: number[]) {
  const views = [];
  for (const id of distinct(ids)) views.push(await getBill(ctx, decl, id));
  return views;
}

/**
 * A bill's receipt on one of the tenant's cloud printers: the bill (within the caller's data scope), the
 * template and the printer are read in a short transaction, the provider is called outside it (a slow
 * service must not hold a connection) with the receipt's lines, and the print is counted and audited once the
 * provider took it (naming the printer). A provider's refusal is its catalogued printer key; nothing counted.
 */
export async function cloudPrintBill(caller: TransactingCaller, decl: BillTypeDecl, body: BillCloudPrint): Promise<{ printCount: number }> {
  const target = await caller.transaction(async (ctx) => {
    await loadBill(ctx, decl, body.id);
    await assertPrintTemplate(ctx, decl, body.templateId);
    const found = await findPrinter(ctx.tx, ctx.tenantId, body.printerId);
    if (!found.enabled) throw new BizError('PrinterNotExist', { additional: body.printerId });
    return found;
  });
  const provider = caller.registries.printerProviders.get(target.provider);
  try {
    await provider.printReceipt({ name: target.name, sn: target.sn, printerKey: target.printerKey, copies: target.copies }, body.lines, RECEIPT_CHARS[body.paper]);
  } catch (error) {
    if (error instanceof BizError) throw error;
    caller.log.warn({ err: error, provider: target.provider }, 'printer provider failed');
    throw new BizError('PrinterApiError', { additional: target.provider });
  }
  return caller.transaction(async (ctx) => {
    const row = await loadBill(ctx, decl, body.id);
    return { printCount: await countPrint(ctx, decl, row, body.templateId, 'cloud', { printerId: target.id }) };
  });
}
