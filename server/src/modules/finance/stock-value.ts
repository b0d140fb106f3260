import { sql } from 'drizzle-orm';
import { toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { ACCOUNT_ROLES } from '@p8/contract/finance';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows } from '../../db/connection.ts';
import type { BillRow } from '../../bills/service.ts';
import { post, reverseSource } from './ledger.ts';
import { sides, stockValueLines } from './postings.ts';
import { settlementTax } from './settlement.ts';

/**
 * The stock's value in the ledger: after a stock bill is audited, the inventory account 1405 moves by what
 * the stock ledger says the bill moved (Σ its entries' amounts at moving-average cost), against the account
 * its type declares (`postings.stock`, turned into lines by `stockValueLines` in postings.ts; a posting of
 * source kind `stock`, reversed when the audit is withdrawn). Today's declarations (contract supply-chain.ts):
 *
 * - purchase in-stocks and refunds: the payable posting already moved 1405 by the tax-inclusive amount; the
 *   declared `tax` (input VAT, 2221) takes the tax and the counter (6401) what is left (a refund's price
 *   against the average cost);
 * - sale out-stocks and returns: the cost of goods sold, Dr 6401 / Cr 1405 (a return the other way); their
 *   output VAT is in the receivable posting (settlement.ts);
 * - stock checks: a net gain Cr 6301 non-operating income, a net loss Dr 6711 non-operating expenses;
 * - every other stock bill (other in- / out-stocks, lends, assemblies and exchanges at a price of their own):
 *   1901 assets pending disposal, for the accountant to clear once the reason is known.
 *
 * A receipt that brings negative stock back to zero or above posts the variance it leaves (stock ledger
 * entries of no quantity) Dr / Cr 6401 against 1405, in a posting of its own (`VARIANCE_MEMO`), whatever
 * the bill's type.
 *
 * So the inventory account always equals Σ the stock ledger's values (verify checks it).
 */

/**
 * Posts what makes the bill's postings (its receivable / payable one and its stock-value ones) hold on 1405
 * exactly what its stock ledger entries are worth, all rounds of audit and withdrawal together; a purchase's
 * tax (`purchaseTax`, signed as its payable) goes to its declared tax account (input VAT).
 */
async function trueUp(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow, purchaseTax: Micro) {
  const [found] = await rows<{ stock: string; variance: string; ledger: string; ledger_variance: string }>(
    ctx.tx,
    sql`with p as (select l.debit - l.credit as amount, p.memo from fin_posting_line l join fin_posting p on p.tenant_id = l.tenant_id and p.id = l.posting_id
                   where l.tenant_id = ${ctx.tenantId} and p.source_kind in ('bill', 'stock') and p.source_id = ${row.id} and l.account_code = '1405')
        select coalesce((select sum(amount) from stock_ledger where tenant_id = ${ctx.tenantId} and bill_id = ${row.id}), 0)::text as stock,
               coalesce((select sum(amount) from stock_ledger where tenant_id = ${ctx.tenantId} and bill_id = ${row.id} and quantity = 0), 0)::text as variance,
               coalesce((select sum(amount) from p), 0)::text as ledger,
               coalesce((select sum(amount) from p where memo = ${VARIANCE_MEMO}), 0)::text as ledger_variance`,
  );
  // The variance entries (stock back from below zero) go to cost of goods sold, whatever the bill.
  const variance = toMicro(found.variance) - toMicro(found.ledger_variance);
  if (variance !== 0n) {
    await post(ctx, {
      date: row.billDate,
      sourceKind: 'stock',
      sourceId: row.id,
      sourceCode: row.billCode,
      memo: VARIANCE_MEMO,
      lines: [
        { account: ACCOUNT_ROLES.inventory, ...sides(variance) },
        { account: ACCOUNT_ROLES.costOfGoodsSold, ...sides(-variance) },
      ],
    });
  }
  const delta = toMicro(found.stock) - toMicro(found.variance) - (toMicro(found.ledger) - toMicro(found.ledger_variance));
  const lines = stockValueLines(decl, delta, purchaseTax, { ...row, ...(row.extra as Record<string, unknown>) })
    .filter((l) => l.amount !== 0n)
    .map((l) => ({ account: l.account, ...sides(l.amount) }));
  if (!lines.length) return;
  await post(ctx, { date: row.billDate, sourceKind: 'stock', sourceId: row.id, sourceCode: row.billCode, memo: decl.type, lines });
}

/**
 * The memo of a stock-value posting that books a variance: the value a receipt that brings negative stock
 * back to zero or above does not leave on the shelf — the cost the shortfall went out at differs from what
 * came in (ERPNext's stock adjustment). It goes to 6401, as the cost of the goods that went out uncovered.
 */
export const VARIANCE_MEMO = 'StockVariance';

/** The bill engine's posting hook (after the receivable / payable hook): posts the bill's stock value. */
export async function stockValueAudited(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  if (decl.stock === 'none') return;
  await trueUp(ctx, decl, row, decl.postings.stock?.tax ? settlementTax(decl, row) : 0n);
}

/**
 * Abandon audit: the stock-value postings reversed, and then what the stock ledger's reversal took at the
 * current average (not always what came in) trued up against the same accounts.
 */
export async function stockValueAbandoned(ctx: ServiceContext, decl: BillTypeDecl, row: BillRow): Promise<void> {
  if (decl.stock === 'none') return;
  await reverseSource(ctx, 'stock', row.id, row.billDate);
  await trueUp(ctx, decl, row, 0n);
}
