import { and, eq, inArray, sql } from 'drizzle-orm';
import { INVOICE_BILLS } from '@p8/contract/bills/invoices';
import { toMicro } from '@p8/contract/bills/decimal';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES } from '@p8/contract/bills/status';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { bill, billLine } from '../../db/schema/index.ts';

/**
 * The rules of sale and purchase invoices (their declarations: contract bills/invoices.ts) beyond what the
 * bill engine does for every pushed-down type (open quantities, the `invoice` progress of the sources):
 * - one invoice holds either stock bills or refunds (a refund's invoice is a red-letter one: its source is
 *   declared `negative`, so the engine stores its header totals negative), never both (`InvoiceSourceMixed`);
 * - what the invoices of a source line hold (drafts included, merged bills not) never exceeds its
 *   tax-inclusive amount (`InvoiceAmountExceedUninvoiced`, naming what is left). Checked when an invoice is
 *   saved, while the engine holds the source lines locked, so two invoices saved at once cannot both take
 *   the rest;
 * - a bill with an audited invoice keeps its audit (`BillInvoicedProhibitAbandonAudit`, a blocker).
 */

const INVOICE_TYPES = INVOICE_BILLS.map((d) => d.type);

/** The bill engine's save hook: the rules above for an invoice `billId` of `decl`'s type. */
export async function invoiceSaved(ctx: ServiceContext, decl: BillTypeDecl, billId: number): Promise<void> {
  if (!INVOICE_TYPES.includes(decl.type)) return;
  const lines = await ctx.tx
    .select({ sourceLineId: billLine.sourceLineId, sourceType: bill.billType })
    .from(billLine)
    .leftJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.sourceBillId)))
    .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, billId)));
  const refunds = new Set(lines.map((l) => decl.sources.find((s) => s.type === l.sourceType)?.negative === true));
  if (refunds.size > 1) throw new BizError('InvoiceSourceMixed');
  const sourceLineIds = [...new Set(lines.map((l) => l.sourceLineId!))];
  // Per source line: its tax-inclusive amount and what every invoice line taking from it holds.
  const found = await rows<{ id: string; bill_id: string; amount: string; invoiced: string }>(
    ctx.tx,
    sql`select l.id, l.bill_id, l.tax_price_total::text as amount,
               coalesce((select sum(d.tax_price_total) from bill_line d join bill db on db.tenant_id = d.tenant_id and db.id = d.bill_id
                         where d.tenant_id = l.tenant_id and d.source_line_id = l.id and db.bill_status <> 'Merged'
                           and db.bill_type in (${sql.join(INVOICE_TYPES.map((t) => sql`${t}`), sql`, `)})), 0)::text as invoiced
        from bill_line l where l.tenant_id = ${ctx.tenantId} and l.id in (${sql.join(sourceLineIds.map((id) => sql`${id}`), sql`, `)})
        order by l.id`,
  );
  for (const f of found) {
    const amount = toMicro(f.amount);
    const invoiced = toMicro(f.invoiced);
    if (invoiced > amount) {
      // What was left before this invoice: the source's amount less what the other invoices hold.
      const [own] = await ctx.tx
        .select({ total: sql<string>`coalesce(sum(${billLine.taxPriceTotal}), 0)::text`, line: sql<number>`min(${billLine.lineNo})::int` })
        .from(billLine)
        .where(and(eq(billLine.tenantId, ctx.tenantId), eq(billLine.billId, billId), eq(billLine.sourceLineId, Number(f.id))));
      // Named: this invoice's line and the bill it invoices; what the line asks and what was left to invoice.
      throw refusal('InvoiceAmountExceedUninvoiced', { billId: Number(f.bill_id) }, { line: own.line, need: toMicro(own.total), have: amount - invoiced + toMicro(own.total) });
    }
  }
}

/** The abandon-audit blocker: a bill an audited invoice was made from keeps its audit. */
export async function invoicedBlocker(tx: Tx, tenantId: number, billId: number) {
  const [found] = await tx
    .select({ id: billLine.id })
    .from(billLine)
    .innerJoin(bill, and(eq(bill.tenantId, billLine.tenantId), eq(bill.id, billLine.billId)))
    .where(and(eq(billLine.tenantId, tenantId), eq(billLine.sourceBillId, billId), inArray(bill.billType, INVOICE_TYPES), inArray(bill.billStatus, [...POSTED_STATUSES])))
    .limit(1);
  return found ? ('BillInvoicedProhibitAbandonAudit' as const) : undefined;
}
