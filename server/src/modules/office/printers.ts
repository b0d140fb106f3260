import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { PrinterCreate, PrinterProvider, PrinterRow, PrinterUpdate } from '@p8/contract/office';
import type { Tx } from '../../db/connection.ts';
import { printer } from '../../db/schema/index.ts';
import { BizError } from '../../core/errors.ts';
import { assertIdsExist } from '../../core/ids.ts';
import { countAll, parseList, runPage, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext, TransactingCaller } from '../../core/service-context.ts';

/** Cloud receipt printers of the tenant (system → printer). The printer key never leaves the server whole. */

const listSpec: ListSpec = {
  fields: {
    name: { column: printer.name, filter: 'like', sortable: true },
    sn: { column: printer.sn, filter: 'like', sortable: true },
    provider: { column: printer.provider, filter: 'eq' },
    enabled: { column: printer.enabled, filter: 'bool' },
    createdAt: { column: printer.createdAt, sortable: true },
  },
  dateColumn: printer.createdAt,
  defaultOrder: [desc(printer.id)],
};

type Printer = typeof printer.$inferSelect;

/** A printer key as the client may see it: at most the first and last two characters. */
export function maskKey(key: string): string {
  if (!key) return '';
  if (key.length <= 6) return '*'.repeat(key.length);
  return `${key.slice(0, 2)}${'*'.repeat(Math.min(key.length - 4, 12))}${key.slice(-2)}`;
}

const toRow = (p: Printer): PrinterRow => ({
  id: p.id,
  name: p.name,
  provider: p.provider as PrinterProvider,
  sn: p.sn,
  printerKey: maskKey(p.printerKey),
  copies: p.copies,
  remark: p.remark,
  enabled: p.enabled,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

export async function findPrinter(tx: Tx, tenantId: number, id: number): Promise<Printer> {
  const [row] = await tx.select().from(printer).where(and(eq(printer.tenantId, tenantId), eq(printer.id, id))).limit(1);
  if (!row) throw new BizError('PrinterNotExist', { additional: id });
  return row;
}

async function assertSnFree(tx: Tx, tenantId: number, provider: string, sn: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: printer.id })
    .from(printer)
    .where(and(eq(printer.tenantId, tenantId), eq(printer.provider, provider), eq(printer.sn, sn), exceptId === undefined ? undefined : ne(printer.id, exceptId)))
    .limit(1);
  if (taken) throw new BizError('PrinterSnRepeat', { additional: sn });
}


export async function listPrinters(ctx: ServiceContext, query: Record<string, unknown>) {
  const parsed = parseList(listSpec, query, [eq(printer.tenantId, ctx.tenantId)]);
  const page = await runPage(parsed, ctx.tx.select().from(printer).$dynamic(), ctx.tx.select(countAll()).from(printer).$dynamic());
  return { data: page.data.map(toRow), pagination: page.pagination };
}

export async function getPrinter(ctx: ServiceContext, id: number): Promise<PrinterRow> {
  return toRow(await findPrinter(ctx.tx, ctx.tenantId, id));
}

export async function createPrinter(ctx: ServiceContext, body: PrinterCreate): Promise<PrinterRow> {
  await assertSnFree(ctx.tx, ctx.tenantId, body.provider, body.sn);
  const [created] = await ctx.tx
    .insert(printer)
    .values({ ...body, remark: body.remark ?? null, tenantId: ctx.tenantId, createdBy: ctx.account.adminId })
    .returning();
  return toRow(created);
}

/** An empty printerKey keeps the stored one. */
export async function updatePrinter(ctx: ServiceContext, { id, printerKey, ...fields }: PrinterUpdate): Promise<PrinterRow> {
  await findPrinter(ctx.tx, ctx.tenantId, id);
  await assertSnFree(ctx.tx, ctx.tenantId, fields.provider, fields.sn, id);
  const [updated] = await ctx.tx
    .update(printer)
    .set({ ...fields, remark: fields.remark ?? null, ...(printerKey ? { printerKey } : {}), updatedAt: new Date() })
    .where(and(eq(printer.tenantId, ctx.tenantId), eq(printer.id, id)))
    .returning();
  return toRow(updated);
}

export async function deletePrinters(ctx: ServiceContext, ids: number[]) {
  await assertIdsExist(ctx.tx, printer, ctx.tenantId, ids, 'PrinterNotExist');
  await ctx.tx.delete(printer).where(and(eq(printer.tenantId, ctx.tenantId), inArray(printer.id, ids)));
}

export async function enablePrinters(ctx: ServiceContext, ids: number[], enabled: boolean) {
  await assertIdsExist(ctx.tx, printer, ctx.tenantId, ids, 'PrinterNotExist');
  await ctx.tx.update(printer).set({ enabled, updatedAt: new Date() }).where(and(eq(printer.tenantId, ctx.tenantId), inArray(printer.id, ids)));
}

/**
 * Prints a test page through the printer's provider. The printer is read in a short transaction and the
 * provider called outside it: a slow service must not hold a connection.
 */
export async function testPrint(caller: TransactingCaller, id: number) {
  const target = await caller.transaction((ctx) => findPrinter(ctx.tx, ctx.tenantId, id));
  const provider = caller.registries.printerProviders.get(target.provider);
  try {
    await provider.testPrint({ name: target.name, sn: target.sn, printerKey: target.printerKey, copies: target.copies });
  } catch (error) {
    if (error instanceof BizError) throw error;
    caller.log.warn({ err: error, provider: target.provider }, 'printer provider failed');
    throw new BizError('PrinterApiError', { additional: target.provider });
  }
}

/** The tenant's enabled printers a bill's receipt can go to (the print dialog's choice): names only, never a key. */
export async function printerChoices(ctx: ServiceContext): Promise<Array<{ id: number; name: string; provider: PrinterProvider }>> {
  const rows = await ctx.tx
    .select({ id: printer.id, name: printer.name, provider: printer.provider })
    .from(printer)
    .where(and(eq(printer.tenantId, ctx.tenantId), eq(printer.enabled, true)))
    .orderBy(desc(printer.id));
  return rows.map((r) => ({ ...r, provider: r.provider as PrinterProvider }));
}
