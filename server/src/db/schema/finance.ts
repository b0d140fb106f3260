import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, numeric, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, tenantPolicy, updatedAt } from './tenancy.ts';

/*
 * Finance (server/src/modules/finance/): the general ledger (the chart of accounts, postings and their
 * lines, append-only: a withdrawn posting gets a reversal), fund accounts, transfers, the open amounts of
 * bills with a receivable or payable, and two kept balances checked against the ledger by
 * `POST /api/admin/finance/verify`: per partner (receivable, payable, prepaid, advance) and per fund account.
 * Amounts are numeric(20,6), computed exactly (contract bills/decimal.ts).
 */

const money = (name: string) => numeric(name, { precision: 20, scale: 6 });
const ref = (name: string) => bigint(name, { mode: 'number' });
const day = (name: string) => date(name, { mode: 'string' });

/** The tenant's chart of accounts (seeded from the contract's DEFAULT_CHART). */
export const finAccount = pgTable(
  'fin_account',
  {
    tenantId: tenantId(),
    code: text('code').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    /** asset | liability | equity | income | expense */
    kind: text('kind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.code] }), tenantPolicy('fin_account')],
).enableRLS();

/** One journal entry: its lines' debits equal their credits. */
export const finPosting = pgTable(
  'fin_posting',
  {
    tenantId: tenantId(),
    id: id(),
    postingDate: day('posting_date').notNull(),
    /** bill | payment | receipt | transfer | opening */
    sourceKind: text('source_kind').notNull(),
    sourceId: ref('source_id').notNull(),
    sourceCode: text('source_code').notNull().default(''),
    /** The posting this one reverses. */
    reversalOf: ref('reversal_of'),
    memo: text('memo').notNull().default(''),
    createdBy: ref('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('fin_posting_source_idx').on(t.tenantId, t.sourceKind, t.sourceId),
    index('fin_posting_date_idx').on(t.tenantId, t.postingDate, t.id),
    tenantPolicy('fin_posting'),
  ],
).enableRLS();

export const finPostingLine = pgTable(
  'fin_posting_line',
  {
    tenantId: tenantId(),
    id: id(),
    postingId: ref('posting_id').notNull(),
    postingDate: day('posting_date').notNull(),
    accountCode: text('account_code').notNull(),
    partnerId: ref('partner_id'),
    fundAccountId: ref('fund_account_id'),
    /** The bill this line settles or comes from (receivable / payable lines). */
    billId: ref('bill_id'),
    debit: money('debit').notNull().default('0'),
    credit: money('credit').notNull().default('0'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('fin_posting_line_posting_idx').on(t.tenantId, t.postingId),
    index('fin_posting_line_account_idx').on(t.tenantId, t.accountCode, t.postingDate),
    index('fin_posting_line_partner_idx').on(t.tenantId, t.partnerId, t.postingDate, t.id).where(sql`${t.partnerId} is not null`),
    index('fin_posting_line_fund_idx').on(t.tenantId, t.fundAccountId).where(sql`${t.fundAccountId} is not null`),
    check('fin_posting_line_sides', sql`${t.debit} >= 0 and ${t.credit} >= 0`),
    tenantPolicy('fin_posting_line'),
  ],
).enableRLS();

/**
 * Σ debit and Σ credit of the ledger per account and day, kept by a trigger on every insert of posting
 * lines (migration ledger_indexes), in 8 shards by transaction so concurrent postings to one account on one
 * day rarely wait on the same row: the trial balance sums these (≤ accounts × days × 8 rows) instead of
 * every line. Verify compares them with the lines.
 */
export const finAccountDay = pgTable(
  'fin_account_day',
  {
    tenantId: tenantId(),
    accountCode: text('account_code').notNull(),
    day: day('day').notNull(),
    shard: smallint('shard').notNull(),
    debit: money('debit').notNull().default('0'),
    credit: money('credit').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.accountCode, t.shard] }), tenantPolicy('fin_account_day')],
).enableRLS();

/** Cash, bank and e-wallet accounts; `balance` = opening + Σ its ledger lines (kept, verified). */
export const finFundAccount = pgTable(
  'fin_fund_account',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    /** cash | bank | ewallet */
    kind: text('kind').notNull(),
    accountNumber: text('account_number').notNull().default(''),
    openingBalance: money('opening_balance').notNull().default('0'),
    openingDate: day('opening_date').notNull(),
    balance: money('balance').notNull().default('0'),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('fin_fund_account_name_uq').on(t.tenantId, t.name), tenantPolicy('fin_fund_account')],
).enableRLS();

/** Per partner: what the customer owes, what is owed the supplier, prepaid to and advanced by them. */
export const finPartnerBalance = pgTable(
  'fin_partner_balance',
  {
    tenantId: tenantId(),
    partnerId: ref('partner_id').notNull(),
    receivable: money('receivable').notNull().default('0'),
    payable: money('payable').notNull().default('0'),
    prepaid: money('prepaid').notNull().default('0'),
    advance: money('advance').notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.partnerId] }), check('fin_partner_balance_non_negative', sql`${t.prepaid} >= 0 and ${t.advance} >= 0`), tenantPolicy('fin_partner_balance')],
).enableRLS();

/** An audited bill with a receivable / payable: its amount (refunds negative) and what is settled of it. */
export const finBillOpen = pgTable(
  'fin_bill_open',
  {
    tenantId: tenantId(),
    billId: ref('bill_id').notNull(),
    partnerId: ref('partner_id').notNull(),
    /** receivable | payable */
    kind: text('kind').notNull(),
    billDate: day('bill_date').notNull(),
    amount: money('amount').notNull(),
    settled: money('settled').notNull().default('0'),
    /**
     * A bill in a foreign currency (docs/cross-border.md): its currency and rate. `amount` and `settled` are in the
     * currency; the ledger holds them in CNY at `rate` (what is left on the partner: toBase(amount) − toBase(settled)).
     */
    currencyId: ref('currency_id'),
    rate: money('rate'),
    /** Not settled in full (kept by PostgreSQL): the aging report's index holds these rows only. */
    unsettled: boolean('unsettled').generatedAlwaysAs(sql`settled <> amount`).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.billId] }),
    index('fin_bill_open_partner_idx').on(t.tenantId, t.kind, t.partnerId, t.billDate),
    // The aging report reads what is still open: a small part of a company's bills once it has history.
    // (A column rather than `settled <> amount` in the predicate: PostgreSQL counts its rows from the column's statistics.)
    index('fin_bill_open_unsettled_idx').on(t.tenantId, t.kind, t.partnerId, t.billDate).where(sql`${t.unsettled}`),
    check('fin_bill_open_within', sql`(${t.amount} >= 0 and ${t.settled} between 0 and ${t.amount}) or (${t.amount} < 0 and ${t.settled} between ${t.amount} and 0)`),
    tenantPolicy('fin_bill_open'),
  ],
).enableRLS();

/**
 * Transfers between fund accounts: posted when saved, withdrawn by a reversal (status Abandoned). Payments
 * and receipts are bills (the bill engine's `Payment` / `Receipt` types); rows of those kinds written before
 * they were stay readable here.
 */
export const finMoneyDoc = pgTable(
  'fin_money_doc',
  {
    tenantId: tenantId(),
    id: id(),
    /** payment | receipt | transfer */
    docKind: text('doc_kind').notNull(),
    /** PayType / ReceiptType; 'Transfer' for transfers. */
    moneyType: text('money_type').notNull(),
    docCode: text('doc_code').notNull(),
    docDate: day('doc_date').notNull(),
    partnerId: ref('partner_id'),
    fundAccountId: ref('fund_account_id'),
    targetFundAccountId: ref('target_fund_account_id'),
    amount: money('amount').notNull(),
    /** Posted | Abandoned */
    status: text('status').notNull().default('Posted'),
    remark: text('remark').notNull().default(''),
    createdBy: ref('created_by').notNull(),
    /** The creator's department when created (data scope "own department"). */
    ownerDeptId: ref('owner_dept_id'),
    createdAt: createdAt(),
    abandonedAt: timestamp('abandoned_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('fin_money_doc_code_uq').on(t.tenantId, t.docKind, t.docCode),
    index('fin_money_doc_list_idx').on(t.tenantId, t.docKind, t.docDate, t.id),
    index('fin_money_doc_partner_idx').on(t.tenantId, t.partnerId).where(sql`${t.partnerId} is not null`),
    tenantPolicy('fin_money_doc'),
  ],
).enableRLS();

/*
 * The month-end cost run of production (modules/production/cost.ts, docs/production.md "Cost accounting"):
 * a period's state and basis, each order's cost of the period, and what the run wrote onto each completion
 * line (so that a second run posts only the difference, and cancelling takes back exactly what was posted).
 */

/** A costed period: `Calculated` once a run committed, back to `NotAccounted` when cancelled. */
export const costPeriod = pgTable(
  'cost_period',
  {
    tenantId: tenantId(),
    /** YYYY-MM */
    period: text('period').notNull(),
    /** NotAccounted | Calculated */
    status: text('status').notNull(),
    /** hours | quantity: how the period's overhead was allocated over orders. */
    basis: text('basis').notNull(),
    overhead: money('overhead').notNull().default('0'),
    unallocated: money('unallocated').notNull().default('0'),
    orders: bigint('orders', { mode: 'number' }).notNull().default(0),
    calculatedAt: timestamp('calculated_at', { withTimezone: true }),
    calculatedBy: ref('calculated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period] }), tenantPolicy('cost_period')],
).enableRLS();

/** One product's cost on one order in a calculated period: opening, the period's and closing work in progress per element. */
export const costOrder = pgTable(
  'cost_order',
  {
    tenantId: tenantId(),
    period: text('period').notNull(),
    orderId: ref('order_id').notNull(),
    orderCode: text('order_code').notNull(),
    /** The product of the order these figures are of: the run costs each product of an order apart. */
    materialId: ref('material_id').notNull(),
    planned: money('planned').notNull(),
    completed: money('completed').notNull(),
    unfinished: money('unfinished').notNull(),
    /** How far the unfinished units are (0..1) for labour and overhead: equivalent units = unfinished × degree. */
    degree: money('degree').notNull(),
    hours: money('hours').notNull(),
    openingMaterial: money('opening_material').notNull(),
    openingLabour: money('opening_labour').notNull(),
    openingOverhead: money('opening_overhead').notNull(),
    material: money('material').notNull(),
    labour: money('labour').notNull(),
    overhead: money('overhead').notNull(),
    finishedMaterial: money('finished_material').notNull(),
    finishedLabour: money('finished_labour').notNull(),
    finishedOverhead: money('finished_overhead').notNull(),
    /** What the completions took into stock when they were audited (the order's work in progress then). */
    perpetual: money('perpetual').notNull(),
    /** Of `material`, what the run added to the sub-assemblies it picked this period (their costing, 逐步结转). */
    rolledIn: money('rolled_in').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period, t.orderId, t.materialId] }), index('cost_order_order_idx').on(t.tenantId, t.orderId, t.period), tenantPolicy('cost_order')],
).enableRLS();

/** What the runs of a period put onto one completion line: into stock (1405), into the orders that picked its goods, and, for goods sold or issued since, cost of sales. */
export const costLine = pgTable(
  'cost_line',
  {
    tenantId: tenantId(),
    period: text('period').notNull(),
    billLineId: ref('bill_line_id').notNull(),
    billId: ref('bill_id').notNull(),
    orderId: ref('order_id').notNull(),
    quantity: money('quantity').notNull(),
    perpetual: money('perpetual').notNull(),
    cost: money('cost').notNull(),
    toStock: money('to_stock').notNull().default('0'),
    toSales: money('to_sales').notNull().default('0'),
    /** Into the material of the orders that picked the goods this period: moves within 5001, so posts nothing. */
    toProduction: money('to_production').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.period, t.billLineId] }), index('cost_line_bill_idx').on(t.tenantId, t.billId), tenantPolicy('cost_line')],
).enableRLS();
