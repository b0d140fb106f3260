import { sql } from 'drizzle-orm';
import type { DashboardSection } from '../../core/dashboard.ts';
import { MONEY_TYPE_SHAPES } from '@p8/contract/finance';
import { rows } from '../../db/connection.ts';

/** The payment and receipt types that move money through a fund account (not deductions from balances). */
const FUND_TYPES = Object.entries(MONEY_TYPE_SHAPES).flatMap(([type, shape]) => (shape.fund ? [type] : []));

const money = (v: string) => Math.round(Number(v) * 100) / 100;

/**
 * Finance's part of the home dashboard: what the fund accounts hold, what customers owe and what is owed
 * to suppliers (the partner balances kept with every posting), and the money that came in and went out
 * this month against last month (audited payment and receipt bills of the types that move a fund account;
 * deductions move none, transfers only between the tenant's own accounts).
 */
export const fundDashboard: DashboardSection = {
  key: 'fund',
  title: { zh: '资金统计', en: 'Funds' },
  order: 50,
  // Each figure belongs to one of these screens and shows only to who may open it.
  menus: ['finance_account', 'finance_receivable', 'finance_payable', 'finance_payment', 'finance_receipt'],
  async figures({ ctx }) {
    const [f] = await rows<{ funds: string; receivable: string; payable: string; inMonth: string; outMonth: string; inLast: string; outLast: string }>(
      ctx.tx,
      sql`with months as (select date_trunc('month', current_date)::date as this_month, (date_trunc('month', current_date) - interval '1 month')::date as last_month)
          select (select coalesce(sum(balance), 0) from fin_fund_account where tenant_id = ${ctx.tenantId} and enabled)::text as funds,
                 (select coalesce(sum(receivable), 0) from fin_partner_balance where tenant_id = ${ctx.tenantId})::text as receivable,
                 (select coalesce(sum(payable), 0) from fin_partner_balance where tenant_id = ${ctx.tenantId})::text as payable,
                 coalesce(sum(d.price_total) filter (where d.bill_type = 'Receipt' and d.bill_date >= m.this_month), 0)::text as "inMonth",
                 coalesce(sum(d.price_total) filter (where d.bill_type = 'Payment' and d.bill_date >= m.this_month), 0)::text as "outMonth",
                 coalesce(sum(d.price_total) filter (where d.bill_type = 'Receipt' and d.bill_date < m.this_month), 0)::text as "inLast",
                 coalesce(sum(d.price_total) filter (where d.bill_type = 'Payment' and d.bill_date < m.this_month), 0)::text as "outLast"
          from months m
          left join bill d on d.tenant_id = ${ctx.tenantId} and d.bill_type in ('Receipt', 'Payment') and d.bill_status in ('Audit', 'Partially', 'Complete', 'ManualCompletion')
                           and coalesce(d.extra->>'payType', d.extra->>'receiptType') in (${sql.join(FUND_TYPES.map((t) => sql`${t}`), sql`, `)}) and d.bill_date >= m.last_month and d.bill_date <= current_date
          group by m.this_month`,
    );
    return [
      { key: 'funds', menus: ['finance_account'], label: { zh: '账户余额', en: 'Fund balance' }, format: 'amount', value: money(f.funds), link: '/finance/account' },
      { key: 'receivable', menus: ['finance_receivable'], label: { zh: '应收账款', en: 'Receivables' }, format: 'amount', value: money(f.receivable), link: '/finance/receivable' },
      { key: 'payable', menus: ['finance_payable'], label: { zh: '应付账款', en: 'Payables' }, format: 'amount', value: money(f.payable), link: '/finance/payable' },
      { key: 'moneyIn', menus: ['finance_receipt'], label: { zh: '本月收款', en: 'Received this month' }, format: 'amount', value: money(f.inMonth), previous: money(f.inLast), link: '/finance/receipt' },
      { key: 'moneyOut', menus: ['finance_payment'], label: { zh: '本月付款', en: 'Paid this month' }, format: 'amount', value: money(f.outMonth), previous: money(f.outLast), link: '/finance/payment' },
    ];
  },
};
