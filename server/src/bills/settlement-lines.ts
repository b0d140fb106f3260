import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BillSourceBill } from '@p8/contract/bills/api';
import { billType as findBillType } from '@p8/contract/bills/catalogue';
import { abs, microText, roundTo, sum, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { BILL_LINE_COLUMNS } from '@p8/contract/bills/fields';
import { computedLineAmount, lineFields, lineKindOf, meets, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { POSTED_STATUSES, PROGRESS_STATES, type ProgressState } from '@p8/contract/bills/status';
import type { TenantConfig } from '@p8/contract/tenant-config';
import { BizError, refusal } from '../core/errors.ts';
import { distinct } from '../core/ids.ts';
import type { ServiceContext } from '../core/service-context.ts';
import { billScope } from './list.ts';
import { rows, type Tx } from '../db/connection.ts';
import { bill, billLine } from '../db/schema/index.ts';

/**
 * Lines that are not material lines (the contract's LINE_KINDS): settlement lines, which settle an audited
 * bill by amount, and account, fee and staff lines, which carry an amount and what it is for. The engine
 * stores them in the same line table — the amount in the amount columns, the settled bill as the line's
 * source bill (without a source line), the rest in `extra` — and keeps a settled bill's progress by amount:
 * the audited settlement lines against the bill's amount (UnSettlement → PartialSettlement → AllSettlement).
 */

const POSTED = [...POSTED_STATUSES];
const LINE_COLUMNS = new Set<string>(BILL_LINE_COLUMNS);

/** A bill's amount as its settlement lines count it: tax included, negative for a refund. */
export function settledAmountOf(head: Pick<typeof bill.$inferSelect, 'billType' | 'taxPriceTotal'>): Micro {
  return toMicro(head.taxPriceTotal) * BigInt(findBillType(head.billType)?.settlement?.sign ?? 1);
}

/** The line rows of a save payload of money lines, with the bill's total (its lines plus its `extraAmount`). */
export function prepareMoneyLines(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload, config: TenantConfig, billId: number) {
  const kind = lineKindOf(decl);
  // A bill without lines (an opening balance) is its header: its amount is the `extraAmount` field.
  if (kind === 'none' && payload.lines.length) throw new BizError('ParamError', { additional: 'lines' });
  const round = (value: unknown) => roundTo(toMicro(String(value ?? 0)), config.amountRetainsSmallDigit);
  const own = lineFields(decl).filter((f) => !f.readOnly && !LINE_COLUMNS.has(f.key) && f.key !== 'amount' && f.key !== 'sourceBillId');
  const parts = decl.lineAmount ? [...decl.lineAmount.plus, ...decl.lineAmount.minus] : [];
  const lines = payload.lines.map((line, index) => {
    // A computed amount (a salary line's net pay) from its parts, each kept rounded as exact decimal text.
    const computed = computedLineAmount(decl, line, config.amountRetainsSmallDigit);
    if (computed !== undefined && computed < 0n) throw refusal(decl.lineAmount!.negative, {}, { line: index + 1 });
    const amount = computed ?? round(line.amount);
    if (amount === 0n || (kind !== 'settlement' && amount < 0n)) throw refusal('AmountMustGreaterThanZero', {}, { line: index + 1 });
    const extra: Record<string, unknown> = {};
    for (const f of own) if (line[f.key] !== undefined && line[f.key] !== null) extra[f.key] = line[f.key];
    for (const key of parts) extra[key] = microText(round(line[key]));
    const sourceBillId = kind === 'settlement' ? Number(line.sourceBillId) : null;
    return {
      sourceLineId: null,
      baseNumber: 0n,
      amount,
      sourceBillId,
      values: {
        tenantId: ctx.tenantId,
        billId,
        lineNo: index + 1,
        materialId: null,
        unitId: null,
        number: '0',
        baseNumber: '0',
        priceTotal: microText(amount),
        taxPriceTotal: microText(amount),
        remark: String(line.remark ?? ''),
        extra,
        sourceLineId: null,
        sourceBillId,
      } satisfies typeof billLine.$inferInsert,
    };
  });
  const extraAmount = decl.extraAmount ? round(payload[decl.extraAmount]) : 0n;
  if (extraAmount < 0n) throw new BizError('AmountMustGreaterThanZero', { additional: decl.extraAmount });
  const total = sum(lines.map((l) => l.amount)) + extraAmount;
  return { lines, totals: { number: 0n, priceTotal: total, taxPriceTotal: total } };
}

/** What settlement lines of other bills (any status but Merged) took of each source bill, `exceptBillId`'s excluded. */
async function takenAmounts(tx: Tx, tenantId: number, sourceBillIds: number[], exceptBillId: number, postedOnly = false): Promise<Map<number, Micro>> {
  if (!sourceBillIds.length) return new Map();
  const found = await rows<{ source_bill_id: string; taken: string }>(
    tx,
    sql`select l.source_bill_id, sum(l.price_total)::text as taken
        from bill_line l join bill b on b.tenant_id = l.tenant_id and b.id = l.bill_id
        where l.tenant_id = ${tenantId} and l.source_line_id is null and l.source_bill_id in (${sql.join(sourceBillIds.map((id) => sql`${id}`), sql`, `)})
          and l.bill_id <> ${exceptBillId} and b.bill_status <> 'Merged'
          ${postedOnly ? sql`and b.bill_status in (${sql.join(POSTED.map((s) => sql`${s}`), sql`, `)})` : sql``}
        group by l.source_bill_id`,
  );
  return new Map(found.map((f) => [Number(f.source_bill_id), toMicro(f.taken)]));
}

/**
 * Settlement lines: each names an audited bill of a source type of this one, of the same partner, meeting
 * the source's condition, once; its amount has the bill's sign and stays within what is open — the bill's
 * amount less what settlement lines of other bills (any status) took. The source bills are locked (newest
 * first, as the engine's lockBills takes them), so two drafts saved at once cannot both take what is open.
 */
export async function linkSettlements(ctx: ServiceContext, decl: BillTypeDecl, billId: number, lines: ReadonlyArray<{ sourceBillId: number | null; amount: Micro }>, header: Record<string, unknown>) {
  const ids = lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null);
  if (new Set(ids).size !== ids.length) throw new BizError('SettleBillRepeat');
  if (!ids.length) return;
  const sources = await ctx.tx
    .select()
    .from(bill)
    // A bill outside the caller's data scope is not there for them (as in the push-down picker); locked newest first (lockBills' order).
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids), await billScope(ctx)))
    .orderBy(desc(bill.id))
    .for('update');
  const byId = new Map(sources.map((s) => [s.id, s]));
  const taken = await takenAmounts(ctx.tx, ctx.tenantId, ids, billId);
  const exceed = ctx.registries.billRules.of(decl.type).exceedRefusal?.(header) ?? 'SettlementAmountExceedUnsettled';
  for (const line of lines) {
    const source = line.sourceBillId === null ? undefined : byId.get(line.sourceBillId);
    const sourceDecl = source && decl.sources.find((s) => s.type === source.billType);
    if (!source || !sourceDecl || !POSTED.includes(source.billStatus as never)) throw new BizError('SettleBillNotOpen', { additional: line.sourceBillId });
    const head = { ...source, ...(source.extra as Record<string, unknown>) } as Record<string, unknown>;
    if (!meets(sourceDecl.onlyWhen, head)) throw new BizError(sourceDecl.onlyWhenRefusal ?? 'SettleBillNotOpen', { additional: source.billCode });
    for (const key of sourceDecl.header) if (header[key] != null && head[key] !== header[key]) throw new BizError('SettleBillNotOpen', { additional: source.billCode });
    // A payment or receipt is in the currency of the bills it settles (docs/cross-border.md).
    if (decl.currency && (head.currencyId ?? null) !== (header.currencyId ?? null)) throw new BizError('SettleCurrencyMismatch', { additional: source.billCode });
    const amount = settledAmountOf(source);
    if (amount === 0n || amount > 0n !== line.amount > 0n) throw new BizError('SettleAmountSignMismatch', { additional: source.billCode });
    const open = amount - (taken.get(source.id) ?? 0n);
    if (abs(line.amount) > abs(open)) {
      if (open === 0n) throw refusal('BillAllSettled', {}, { bill: source.billCode });
      throw refusal(exceed, { partnerId: source.supplierId ?? source.customerId }, { bill: source.billCode, need: abs(line.amount), have: abs(open) });
    }
  }
}

/** The settlement progress of a bill from the audited settlement lines taking from it (by amount). */
export async function settlementState(tx: Tx, tenantId: number, head: typeof bill.$inferSelect): Promise<ProgressState> {
  const done = (await takenAmounts(tx, tenantId, [head.id], 0, true)).get(head.id) ?? 0n;
  const [none, partial, all] = PROGRESS_STATES.settlement;
  if (done === 0n) return none;
  return abs(done) >= abs(settledAmountOf(head)) ? all : partial;
}

/** Per settlement line of a bill: the settled bill's code, amount and what was open of it before this bill. */
export async function settlementLineViews(ctx: ServiceContext, billId: number, lines: ReadonlyArray<{ id: number; sourceBillId: number | null }>) {
  const ids = distinct(lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null));
  if (!ids.length) return new Map<number, Record<string, unknown>>();
  const sources = await ctx.tx.select().from(bill).where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)));
  const taken = await takenAmounts(ctx.tx, ctx.tenantId, ids, billId);
  const out = new Map<number, Record<string, unknown>>();
  for (const s of sources) {
    const amount = settledAmountOf(s);
    out.set(s.id, { sourceBillCode: s.billCode, sourceBillType: s.billType, sourceAmount: microText(amount), openAmount: microText(amount - (taken.get(s.id) ?? 0n)) });
  }
  return out;
}

/**
 * The settlement lines of an export (lines of several bills), keyed `billId:sourceBillId`: the settled bill's
 * code, its amount and what was open of it before the line's bill — as `settlementLineViews` shows one bill.
 */
export async function settlementExportViews(ctx: ServiceContext, lines: ReadonlyArray<{ billId: number; billStatus: string; sourceBillId: number | null; priceTotal: string }>) {
  const ids = distinct(lines.map((l) => l.sourceBillId).filter((id): id is number => id !== null));
  const out = new Map<string, Record<string, unknown>>();
  if (!ids.length) return out;
  const sources = new Map((await ctx.tx.select().from(bill).where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, ids)))).map((s) => [s.id, s]));
  const takenByAll = await takenAmounts(ctx.tx, ctx.tenantId, ids, 0);
  const ownTaken = new Map<string, Micro>();
  for (const l of lines) {
    if (l.sourceBillId === null) continue;
    const key = `${l.billId}:${l.sourceBillId}`;
    // A merged bill's lines count for nothing in what was taken (takenAmounts leaves them out).
    ownTaken.set(key, (ownTaken.get(key) ?? 0n) + (l.billStatus === 'Merged' ? 0n : toMicro(l.priceTotal)));
  }
  for (const [key, own] of ownTaken) {
    const source = sources.get(Number(key.split(':')[1]));
    if (!source) continue;
    const amount = settledAmountOf(source);
    // What other bills took: all that was taken but this bill's own lines.
    const others = (takenByAll.get(source.id) ?? 0n) - own;
    out.set(key, { sourceBillId: source.billCode, sourceAmount: microText(amount), openAmount: microText(amount - others) });
  }
  return out;
}

/** GET {path}/sources of a type with settlement lines: audited bills of a source type with something open. */
export async function openSourceBills(
  ctx: ServiceContext,
  decl: BillTypeDecl,
  query: { sourceType?: string; keyword?: string; partnerId?: number; current: number; pageSize: number },
  onlyWhenSql: (decl: BillTypeDecl, sourceType: string) => ReturnType<typeof sql>,
): Promise<{ data: BillSourceBill[]; pagination: { current: number; pageSize: number; total: number } }> {
  const sourceType = query.sourceType ?? decl.sources[0]?.type;
  const source = decl.sources.find((s) => s.type === sourceType);
  const sourceDecl = source && findBillType(source.type);
  if (!source || !sourceDecl) throw new BizError('SourceBillNotExist', { additional: sourceType });
  const sign = BigInt(sourceDecl.settlement?.sign ?? 1);
  const keyword = query.keyword ? `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const taken = sql`coalesce((select sum(l.price_total) from bill_line l join bill d on d.tenant_id = l.tenant_id and d.id = l.bill_id
      where l.tenant_id = b.tenant_id and l.source_bill_id = b.id and l.source_line_id is null and d.bill_status <> 'Merged'), 0)`;
  const scope = await billScope(ctx, 'b');
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select * from (
          select b.id, b.bill_code, b.bill_date::text, p.name as partner_name, (b.tax_price_total * ${sign})::text as amount, (${taken})::text as taken,
                 count(*) over () as total
          from bill b left join partner p on p.tenant_id = b.tenant_id and p.id = coalesce(b.supplier_id, b.customer_id)
          where b.tenant_id = ${ctx.tenantId} and b.bill_type = ${source.type} and b.bill_status in (${sql.join(POSTED.map((s) => sql`${s}`), sql`, `)})
            and ${onlyWhenSql(decl, source.type)}
            ${scope ? sql`and ${scope}` : sql``}
            ${query.partnerId ? sql`and coalesce(b.supplier_id, b.customer_id) = ${query.partnerId}` : sql``}
            ${keyword ? sql`and b.bill_code ilike ${keyword}` : sql``}
            and abs(b.tax_price_total * ${sign} - ${taken}) > 0
        ) o order by o.bill_date, o.id
        limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  return {
    data: found.map((r) => {
      const amount = toMicro(r.amount!);
      const took = toMicro(r.taken!);
      return {
        sourceBillId: Number(r.id),
        sourceLineId: Number(r.id),
        sourceBillCode: r.bill_code!,
        sourceBillDate: r.bill_date!,
        sourceBillType: source.type,
        partnerName: r.partner_name,
        amount: microText(amount),
        takenAmount: microText(took),
        openAmount: microText(amount - took),
      };
    }),
    pagination: { current: query.current, pageSize: query.pageSize, total: Number(found[0]?.total ?? 0) },
  };
}

/** The payload lines of a push down to settlement lines: each source bill's open amount (none left: refused). */
export async function settlementPushLines(ctx: ServiceContext, sourceType: string, sourceBillIds: number[]) {
  const found = await ctx.tx
    .select()
    .from(bill)
    .where(and(eq(bill.tenantId, ctx.tenantId), inArray(bill.id, sourceBillIds), eq(bill.billType, sourceType), await billScope(ctx)))
    .orderBy(bill.billDate, bill.id);
  if (found.length !== distinct(sourceBillIds).length) throw new BizError('SourceBillNotExist', { additional: sourceBillIds.find((id) => !found.some((f) => f.id === id)) });
  const taken = await takenAmounts(ctx.tx, ctx.tenantId, found.map((f) => f.id), 0);
  const lines = found.flatMap((f) => {
    const open = settledAmountOf(f) - (taken.get(f.id) ?? 0n);
    return open === 0n ? [] : [{ sourceBillId: f.id, amount: microText(open) }];
  });
  if (!lines.length) throw refusal('BillAllSettled', {}, { bill: found[0]?.billCode });
  return { heads: found, lines };
}
