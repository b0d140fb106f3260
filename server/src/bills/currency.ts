import { and, desc, eq, lte, sql } from 'drizzle-orm';
import { BizError } from '../core/errors.ts';
import type { ServiceContext } from '../core/service-context.ts';
import type { Tx } from '../db/connection.ts';
import { bill, currency, exchangeRate, partner } from '../db/schema/index.ts';

/*
 * A commercial bill's currency and rate (types declaring `currency`, contract bills/currency.ts), settled when it
 * is saved — for every such type, whatever screen, import or push down saved it:
 * - no currency named: a payment's or receipt's that settles bills, their currency; any other bill's, the
 *   partner's (the supplier's or customer's `currencyId`); none there either: CNY, and the bill keeps neither field;
 * - no rate given: the latest rate of the currency on or before the bill date, refused `ExchangeRateNotFound`
 *   when the tenant has none.
 * docs/cross-border.md.
 */

/** The latest rate of `currencyId` on or before `date` (CNY per unit), refused when there is none. */
export async function rateOn(tx: Tx, tenantId: number, currencyId: number, date: string): Promise<number> {
  const [found] = await tx
    .select({ code: currency.code })
    .from(currency)
    .where(and(eq(currency.tenantId, tenantId), eq(currency.id, currencyId)));
  if (!found) throw new BizError('CurrencyNotExist', { additional: currencyId });
  const [rate] = await tx
    .select({ rate: exchangeRate.rate })
    .from(exchangeRate)
    .where(and(eq(exchangeRate.tenantId, tenantId), eq(exchangeRate.currencyId, currencyId), lte(exchangeRate.rateDate, date), eq(exchangeRate.enabled, true)))
    .orderBy(desc(exchangeRate.rateDate))
    .limit(1);
  if (!rate) throw new BizError('ExchangeRateNotFound', { additional: `${found.code} ${date}` });
  return Number(rate.rate);
}

/**
 * Completes a saved header's currency and rate in `extra` (where the type's own fields are kept): the partner's
 * currency when none is named, the bill date's rate when none is given; a bill in CNY keeps neither.
 */
export async function settleBillCurrency(ctx: ServiceContext, header: Record<string, unknown>, extra: Record<string, unknown>, settledBillIds: readonly number[] = []): Promise<void> {
  let currencyId = (extra.currencyId as number | null | undefined) ?? null;
  // A payment or receipt settling bills is in their currency (a mix is refused with the lines).
  if (currencyId === null && settledBillIds.length) {
    const [found] = await ctx.tx
      .select({ currencyId: sql<string | null>`${bill.extra}->>'currencyId'` })
      .from(bill)
      .where(and(eq(bill.tenantId, ctx.tenantId), eq(bill.id, settledBillIds[0])));
    if (!found) return settleBillCurrency(ctx, header, extra);
    currencyId = found.currencyId === null ? null : Number(found.currencyId);
    if (currencyId === null) {
      delete extra.currencyId;
      delete extra.exchangeRate;
      return;
    }
  }
  const partnerId = (header.supplierId ?? header.customerId ?? extra.supplierId ?? extra.customerId) as number | null | undefined;
  if (currencyId === null && typeof partnerId === 'number') {
    const [found] = await ctx.tx
      .select({ currencyId: partner.currencyId })
      .from(partner)
      .where(and(eq(partner.tenantId, ctx.tenantId), eq(partner.id, partnerId)));
    currencyId = found?.currencyId ?? null;
  }
  if (currencyId === null) {
    delete extra.currencyId;
    delete extra.exchangeRate;
    return;
  }
  extra.currencyId = currencyId;
  if (extra.exchangeRate == null) extra.exchangeRate = await rateOn(ctx.tx, ctx.tenantId, currencyId, String(header.billDate));
}
