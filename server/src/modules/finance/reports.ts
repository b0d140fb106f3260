import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { microText, toMicro } from '@p8/contract/bills/decimal';
import type { Pagination } from '@p8/contract/envelope';
import { AGING_BUCKETS, DEFAULT_CHART, type OpenInCurrency, type PartnerLedgerLine, type PrepaidBalanceRow } from '@p8/contract/finance';
import { BASE_DIGITS } from '@p8/contract/bills/currency';
import type { ServiceContext } from '../../core/service-context.ts';
import { countAll, parseList, runPage, statisticsSelection, type ListSpec } from '../../core/list-query.ts';
import { rows } from '../../db/connection.ts';
import { finPartnerBalance, partner } from '../../db/schema/index.ts';
import { settledStatus } from './settlement.ts';
import { PARTNER_BALANCE, type PartnerBalanceKind } from './ledger.ts';

/**
 * Receivable and payable per partner (balance, advance or prepaid, open bills by age), a partner's running
 * ledger of any of its kept balances with drill-down to its bills and documents, prepaid and advance
 * balances per partner, the open bills a payment or receipt may settle, and the trial balance. Amounts
 * are answered as exact decimal text.
 */

type Side = 'receivable' | 'payable';
const SIDE = {
  receivable: { balance: 'advance', partnerKind: 'customer' },
  payable: { balance: 'prepaid', partnerKind: 'supplier' },
} as const;

const text = (v: string | null | undefined) => microText(toMicro(v ?? '0'));

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * What an open bill leaves on its partner in CNY: a bill in a foreign currency at its own rate, each of its amount
 * and its settled part rounded to the fen as settlement posts them (docs/cross-border.md).
 */
const OPEN_BASE = sql.raw(`case when o.rate is null then o.amount - o.settled else round(o.amount * o.rate, ${BASE_DIGITS}) - round(o.settled * o.rate, ${BASE_DIGITS}) end`);

/** The aging report's statement (also run by bench/ledger.ts as its bare baseline). */
export function agingSql(tenantId: number, side: Side, query: { partnerId?: number; asOf?: string }): SQL {
  const asOf = query.asOf ?? today();
  const bucket = (from: number, to: number) => sql`coalesce(sum(${OPEN_BASE}) filter (where (${asOf}::date - o.bill_date) between ${from} and ${Number.isFinite(to) ? to : 2147483647}), 0)::text`;
  return sql`select p.id as partner_id, p.code as partner_code, p.name as partner_name,
               coalesce(b.${sql.raw(side)}, 0)::text as balance, coalesce(b.${sql.raw(SIDE[side].balance)}, 0)::text as other_balance,
               a.open, a.d0_30, a.d31_60, a.d61_90, a.d90
        from partner p
        left join fin_partner_balance b on b.tenant_id = p.tenant_id and b.partner_id = p.id
        left join (
          select o.partner_id, coalesce(sum(${OPEN_BASE}), 0)::text as open,
                 ${bucket(AGING_BUCKETS[0].from, AGING_BUCKETS[0].to)} as d0_30, ${bucket(AGING_BUCKETS[1].from, AGING_BUCKETS[1].to)} as d31_60,
                 ${bucket(AGING_BUCKETS[2].from, AGING_BUCKETS[2].to)} as d61_90, ${bucket(AGING_BUCKETS[3].from, AGING_BUCKETS[3].to)} as d90
          from fin_bill_open o where o.tenant_id = ${tenantId} and o.kind = ${side} and o.unsettled and o.bill_date <= ${asOf}::date group by o.partner_id
        ) a on a.partner_id = p.id
        where p.tenant_id = ${tenantId} and p.kind = ${SIDE[side].partnerKind}
          and (b.partner_id is not null or a.partner_id is not null)
          ${query.partnerId ? sql`and p.id = ${query.partnerId}` : sql``}
        order by p.code, p.id`;
}

/**
 * GET /finance/receivable | /payable: per partner with a balance or open bills — the balance, the advance
 * (customers) or prepaid (suppliers) balance, and what bills leave open by age on `asOf` (0–30, 31–60,
 * 61–90, > 90 days since the bill date). One grouped query on the bills still open (fin_bill_open's partial
 * index `fin_bill_open_unsettled_idx`); a partner whose bills are all settled shows by its balance row.
 */
export async function partnerAging(ctx: ServiceContext, side: Side, query: { partnerId?: number; asOf?: string }) {
  const found = await rows<Record<string, string>>(ctx.tx, agingSql(ctx.tenantId, side, query));
  const foreign = await openByCurrency(ctx, side, query);
  return found.map((r) => ({
    currencies: foreign.get(Number(r.partner_id)) ?? [],
    partnerId: Number(r.partner_id),
    partnerCode: r.partner_code,
    partnerName: r.partner_name,
    balance: text(r.balance),
    [SIDE[side].balance]: text(r.other_balance),
    open: text(r.open),
    d0_30: text(r.d0_30),
    d31_60: text(r.d31_60),
    d61_90: text(r.d61_90),
    d90: text(r.d90),
  }));
}

/**
 * Per partner, what bills in a foreign currency leave open, per currency: in the currency and in CNY at the bills'
 * rates (docs/cross-border.md). The partial index of open bills reads them.
 */
async function openByCurrency(ctx: ServiceContext, side: Side, query: { partnerId?: number; asOf?: string }) {
  const asOf = query.asOf ?? today();
  const found = await rows<{ partner_id: string; code: string; open: string; open_base: string }>(
    ctx.tx,
    sql`select o.partner_id, c.code, sum(o.amount - o.settled)::text as open, sum(${OPEN_BASE})::text as open_base
        from fin_bill_open o join currency c on c.tenant_id = o.tenant_id and c.id = o.currency_id
        where o.tenant_id = ${ctx.tenantId} and o.kind = ${side} and o.unsettled and o.currency_id is not null and o.bill_date <= ${asOf}::date
          ${query.partnerId ? sql`and o.partner_id = ${query.partnerId}` : sql``}
        group by o.partner_id, c.code order by c.code`,
  );
  const byPartner = new Map<number, OpenInCurrency[]>();
  for (const f of found) {
    const list = byPartner.get(Number(f.partner_id)) ?? [];
    list.push({ currencyCode: f.code, open: text(f.open), openBase: text(f.open_base) });
    byPartner.set(Number(f.partner_id), list);
  }
  return byPartner;
}

/** The account whose lines make a partner's balance of that kind, and the sign that raises it (+1: a debit). */
function balanceAccount(kind: PartnerBalanceKind): { account: string; sign: bigint } {
  const [account, found] = Object.entries(PARTNER_BALANCE).find(([, b]) => b.column === kind)!;
  return { account, sign: found.sign };
}

/**
 * GET /finance/<side>/ledger?partnerId&current&pageSize (and /finance/prepaid/ledger): a page of the
 * partner's lines of the account behind one of its kept balances (receivable 1122, payable 2202, prepaid
 * 1123, advance 2203) in order (date, id) with the running balance, naming the bill or document of each
 * (`billType` when the source is a bill). The page's opening balance is the sum of every line before its
 * first one (the `(tenant, partner, date, id)` index), so the balances are the same on any page and the
 * last one is the kept balance; the export reads one page of at most EXPORT_MAX_ROWS lines.
 */
export async function partnerLedger(ctx: ServiceContext, kind: PartnerBalanceKind, query: { partnerId: number; current: number; pageSize: number }): Promise<{ data: PartnerLedgerLine[]; pagination: Pagination }> {
  const { account, sign } = balanceAccount(kind);
  const own = sql`l.tenant_id = ${ctx.tenantId} and l.partner_id = ${query.partnerId} and l.account_code = ${account}`;
  const found = await rows<Record<string, string | null>>(
    ctx.tx,
    sql`select l.id, l.posting_date::text as date, p.source_kind, p.source_id, p.source_code, p.memo, p.reversal_of, l.bill_id, l.debit::text, l.credit::text, b.bill_type
        from fin_posting_line l join fin_posting p on p.tenant_id = l.tenant_id and p.id = l.posting_id
        left join bill b on p.source_kind in ('bill', 'stock') and b.tenant_id = p.tenant_id and b.id = p.source_id
        where ${own}
        order by l.posting_date, l.id limit ${query.pageSize} offset ${(query.current - 1) * query.pageSize}`,
  );
  const [counted] = await rows<{ total: number; opening: string }>(
    ctx.tx,
    sql`select count(*)::int as total,
               coalesce(sum(l.debit - l.credit) filter (where ${found.length ? sql`(l.posting_date, l.id) < (${found[0].date}::date, ${found[0].id}::bigint)` : sql`false`}), 0)::text as opening
        from fin_posting_line l where ${own}`,
  );
  let running = toMicro(counted.opening) * sign;
  const data = found.map((r): PartnerLedgerLine => {
    const debit = toMicro(r.debit!);
    const credit = toMicro(r.credit!);
    running += (debit - credit) * sign;
    return {
      id: Number(r.id),
      date: r.date!,
      sourceKind: r.source_kind!,
      sourceId: Number(r.source_id),
      sourceCode: r.source_code!,
      billType: r.bill_type,
      memo: r.memo!,
      reversal: r.reversal_of !== null,
      billId: r.bill_id === null ? null : Number(r.bill_id),
      increase: microText(sign > 0n ? debit : credit),
      decrease: microText(sign > 0n ? credit : debit),
      balance: microText(running),
    };
  });
  return { data, pagination: { current: query.current, pageSize: query.pageSize, total: Number(counted.total) } };
}

// ---------------------------------------------------------------- prepaid and advance balances

/** The kept balance a partner's side has beyond its bills: a supplier's prepaid (1123), a customer's advance (2203). */
const PREPAID_OF: Record<string, PartnerBalanceKind> = { supplier: 'prepaid', customer: 'advance' };

/**
 * The prepaid list's filters and sorts (core/list-query.ts): the partner's kind, a keyword on its code or
 * name, non-zero balances only; sorted by code, name or either balance, both summed.
 */
const prepaidListSpec: ListSpec = {
  fields: {
    partnerCode: { column: partner.code, sortable: true },
    partnerName: { column: partner.name, sortable: true },
    kind: { column: partner.kind, filter: 'eq' },
    keyword: { column: sql`(${partner.code} || ' ' || ${partner.name})`, filter: 'like' },
    prepaid: { column: finPartnerBalance.prepaid, sortable: true, sum: true },
    advance: { column: finPartnerBalance.advance, sortable: true, sum: true },
    nonZero: { column: sql`(${finPartnerBalance.prepaid} <> 0 or ${finPartnerBalance.advance} <> 0)`, filter: 'bool' },
  },
  defaultOrder: [asc(partner.code), asc(partner.id)],
};

/**
 * The partners the list shows: suppliers and customers whose kept balances (fin_partner_balance, what
 * verify checks against the ledger) hold a prepaid or advance balance now or had one — a partner with a
 * 1123 / 2203 line, read through the account index (`(tenant, account, date)`: the tenant's prepaid and
 * advance lines, few beside its receivables), never a partner's every line.
 */
function prepaidQuery(ctx: ServiceContext, query: Record<string, unknown>) {
  return parseList(prepaidListSpec, query, [
    eq(finPartnerBalance.tenantId, ctx.tenantId),
    inArray(partner.kind, Object.keys(PREPAID_OF)),
    sql`${finPartnerBalance.partnerId} in (select l.partner_id from fin_posting_line l where l.tenant_id = ${ctx.tenantId} and l.account_code in ('1123', '2203'))`,
  ]);
}

const withPartner = and(eq(partner.tenantId, finPartnerBalance.tenantId), eq(partner.id, finPartnerBalance.partnerId));

/** GET /finance/prepaid: a page of partners with their prepaid (suppliers) and advance (customers) balances, by code unless sorted. */
export async function listPrepaid(ctx: ServiceContext, query: Record<string, unknown>) {
  const page = await runPage(
    prepaidQuery(ctx, query),
    ctx.tx
      .select({ partnerId: partner.id, partnerCode: partner.code, partnerName: partner.name, kind: partner.kind, prepaid: finPartnerBalance.prepaid, advance: finPartnerBalance.advance })
      .from(finPartnerBalance)
      .innerJoin(partner, withPartner)
      .$dynamic(),
    ctx.tx.select(countAll()).from(finPartnerBalance).innerJoin(partner, withPartner).$dynamic(),
  );
  return { data: page.data.map((r): PrepaidBalanceRow => ({ ...r, kind: r.kind as PrepaidBalanceRow['kind'], prepaid: text(r.prepaid), advance: text(r.advance) })), pagination: page.pagination };
}

/** GET /finance/prepaid/statistics: the prepaid and advance totals over the list's filters. */
export async function prepaidStatistics(ctx: ServiceContext, query: Record<string, unknown>) {
  const [sums] = await ctx.tx.select(statisticsSelection(prepaidListSpec)).from(finPartnerBalance).innerJoin(partner, withPartner).where(prepaidQuery(ctx, query).where);
  return Object.fromEntries(Object.entries(sums).map(([key, value]) => [key, text(value)]));
}

/**
 * GET /finance/prepaid/ledger?partnerId&current&pageSize: the running ledger of the partner's prepaid
 * (a supplier, 1123) or advance (a customer, 2203) account, as the receivable ledger pages it; its last
 * balance is the list's. A partner the tenant does not have has no lines.
 */
export async function prepaidLedger(ctx: ServiceContext, query: { partnerId: number; current: number; pageSize: number }): Promise<{ data: PartnerLedgerLine[]; pagination: Pagination }> {
  const [found] = await ctx.tx.select({ kind: partner.kind }).from(partner).where(and(eq(partner.tenantId, ctx.tenantId), eq(partner.id, query.partnerId)));
  const kind = found && PREPAID_OF[found.kind];
  if (!kind) return { data: [], pagination: { current: query.current, pageSize: query.pageSize, total: 0 } };
  return partnerLedger(ctx, kind, query);
}

/** GET /finance/<side>/openBills?partnerId: audited bills of the partner not settled in full, oldest first. */
export async function openBills(ctx: ServiceContext, side: Side, partnerId: number) {
  const found = await rows<Record<string, string>>(
    ctx.tx,
    sql`select o.bill_id, b.bill_code, b.bill_type, o.bill_date::text as bill_date, o.amount::text, o.settled::text
        from fin_bill_open o join bill b on b.tenant_id = o.tenant_id and b.id = o.bill_id
        where o.tenant_id = ${ctx.tenantId} and o.kind = ${side} and o.partner_id = ${partnerId} and o.unsettled
        order by o.bill_date, o.bill_id`,
  );
  return found.map((r) => {
    const amount = toMicro(r.amount);
    const settled = toMicro(r.settled);
    return { billId: Number(r.bill_id), billCode: r.bill_code, billType: r.bill_type, billDate: r.bill_date, amount: microText(amount), settled: microText(settled), unsettled: microText(amount - settled), settledStatus: settledStatus(amount, settled) };
  });
}

/**
 * The trial balance's statement (also run by bench/ledger.ts as its bare baseline): the per-account, per-day
 * totals the ledger keeps (fin_account_day, ≤ accounts × days × 8 rows), not every posting line — the
 * debits and credits of the period and, before its start, what the account held (debits − credits).
 */
export function trialBalanceSql(tenantId: number, query: { start?: string; end?: string }): SQL {
  const inPeriod = query.start ? sql`day >= ${query.start}::date` : sql`true`;
  const before = query.start ? sql`day < ${query.start}::date` : sql`false`;
  return sql`select account_code, coalesce(sum(debit) filter (where ${inPeriod}), 0)::text as debit, coalesce(sum(credit) filter (where ${inPeriod}), 0)::text as credit,
          coalesce(sum(debit - credit) filter (where ${before}), 0)::text as opening
        from fin_account_day
        where tenant_id = ${tenantId} ${query.end ? sql`and day <= ${query.end}::date` : sql``}
        group by account_code`;
}

/**
 * GET /finance/trialBalance: per account of the chart, its balance before the period (`opening`), the debits
 * and credits of the period, and its balance at the period's end (`balance`), both on the account's normal
 * side (a cash account is never shown below zero for a month it paid out more than it took in); the debit
 * and credit totals agree.
 */
export async function trialBalance(ctx: ServiceContext, query: { start?: string; end?: string }) {
  const found = await rows<{ account_code: string; debit: string; credit: string; opening: string }>(ctx.tx, trialBalanceSql(ctx.tenantId, query));
  const byCode = new Map(found.map((f) => [f.account_code, f]));
  let debitTotal = 0n;
  let creditTotal = 0n;
  const accounts = DEFAULT_CHART.map((a) => {
    const debit = toMicro(byCode.get(a.code)?.debit ?? '0');
    const credit = toMicro(byCode.get(a.code)?.credit ?? '0');
    debitTotal += debit;
    creditTotal += credit;
    const side = a.kind === 'asset' || a.kind === 'expense' ? 1n : -1n;
    const opening = toMicro(byCode.get(a.code)?.opening ?? '0') * side;
    return { code: a.code, name: a.label, kind: a.kind, opening: microText(opening), debit: microText(debit), credit: microText(credit), balance: microText(opening + (debit - credit) * side) };
  });
  return { accounts, debitTotal: microText(debitTotal), creditTotal: microText(creditTotal) };
}
