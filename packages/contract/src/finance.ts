import { z } from 'zod';
import { dateSchema } from './bills/fields.ts';
import type { Label } from './bills/status.ts';
import { idSchema } from './common.ts';
import { nameText, storableText } from './text.ts';

/**
 * Finance (`/api/admin/finance/...`): the general ledger underneath (a default chart of accounts per
 * tenant, postings of balanced lines), fund accounts and transfers, payments to suppliers and receipts
 * from customers settling audited bills, receivable / payable per partner with aging, the trial balance
 * and the verify report. Amounts travel as decimal strings ("12.50") or numbers and are computed as
 * exact millionths (bills/decimal.ts) on both sides.
 */

// ---------------------------------------------------------------- chart of accounts

export const AccountKind = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export type AccountKind = (typeof AccountKind)[number];

export interface ChartAccount {
  code: string;
  label: Label;
  kind: AccountKind;
}

/**
 * The default chart seeded for every tenant (codes after the Chinese small-business standard). A posting
 * line names its account by code; the ones below carry a partner or a fund account.
 */
export const DEFAULT_CHART = [
  { code: '1001', label: { zh: '库存现金', en: 'Cash on hand' }, kind: 'asset' },
  { code: '1002', label: { zh: '银行存款', en: 'Bank deposits' }, kind: 'asset' },
  { code: '1012', label: { zh: '其他货币资金', en: 'Other monetary funds (e-wallets)' }, kind: 'asset' },
  { code: '1122', label: { zh: '应收账款', en: 'Accounts receivable' }, kind: 'asset' },
  { code: '1123', label: { zh: '预付账款', en: 'Prepayments to suppliers' }, kind: 'asset' },
  { code: '1405', label: { zh: '库存商品', en: 'Inventory' }, kind: 'asset' },
  { code: '1408', label: { zh: '委托加工物资', en: 'Materials at suppliers (outsourced processing)' }, kind: 'asset' },
  { code: '1901', label: { zh: '待处理财产损溢', en: 'Assets pending disposal (other stock movements)' }, kind: 'asset' },
  { code: '2202', label: { zh: '应付账款', en: 'Accounts payable' }, kind: 'liability' },
  { code: '2203', label: { zh: '预收账款', en: 'Advances from customers' }, kind: 'liability' },
  { code: '2211', label: { zh: '应付职工薪酬', en: 'Salaries payable' }, kind: 'liability' },
  { code: '2221', label: { zh: '应交税费', en: 'Taxes payable (VAT)' }, kind: 'liability' },
  { code: '2241', label: { zh: '其他应付款', en: 'Other payables (withheld from salaries)' }, kind: 'liability' },
  { code: '3001', label: { zh: '实收资本', en: 'Paid-in capital (opening balances)' }, kind: 'equity' },
  // A cost account (成本类) of the standard: debit-normal like an asset, it holds production's work in progress.
  { code: '5001', label: { zh: '生产成本', en: 'Production cost (work in progress)' }, kind: 'asset' },
  // 制造费用: the workshop's overhead collected by fee bills, allocated to orders by the month-end cost run.
  { code: '5101', label: { zh: '制造费用', en: 'Manufacturing overhead' }, kind: 'asset' },
  { code: '6001', label: { zh: '主营业务收入', en: 'Sales revenue' }, kind: 'income' },
  { code: '6051', label: { zh: '其他业务收入', en: 'Other income' }, kind: 'income' },
  { code: '6301', label: { zh: '营业外收入', en: 'Non-operating income (stock gains)' }, kind: 'income' },
  { code: '6401', label: { zh: '主营业务成本', en: 'Cost of goods sold' }, kind: 'expense' },
  { code: '6602', label: { zh: '管理费用', en: 'Administrative expenses' }, kind: 'expense' },
  // 财务费用—汇兑损益: a foreign receivable or payable settled at another rate than its bill's (docs/cross-border.md).
  { code: '6603', label: { zh: '财务费用-汇兑损益', en: 'Financial expenses (exchange gains and losses)' }, kind: 'expense' },
  { code: '6711', label: { zh: '营业外支出', en: 'Non-operating expenses (stock losses)' }, kind: 'expense' },
] as const satisfies readonly ChartAccount[];
export type AccountCode = (typeof DEFAULT_CHART)[number]['code'];

/**
 * What a bill type's postings name (`BillTypeDecl.postings`): an account of the chart by its role, so that a
 * declaration says what it posts to ("cost of goods sold") rather than a number, and the number lives here
 * once. A declaration may also name a code directly.
 */
export const ACCOUNT_ROLES = {
  inventory: '1405',
  costOfGoodsSold: '6401',
  inputVat: '2221',
  outputVat: '2221',
  stockGain: '6301',
  stockLoss: '6711',
  pendingDisposal: '1901',
  workInProgress: '5001',
  outsourcedMaterials: '1408',
  manufacturingOverhead: '5101',
  receivable: '1122',
  payable: '2202',
  prepaid: '1123',
  advance: '2203',
  revenue: '6001',
  otherIncome: '6051',
  administrativeExpenses: '6602',
  exchangeDifference: '6603',
  salariesPayable: '2211',
  withheldFromSalaries: '2241',
  openingEquity: '3001',
} as const satisfies Record<string, AccountCode>;
export type AccountRole = keyof typeof ACCOUNT_ROLES;
/** An account as a declaration names it: a role, or a code of the chart. */
export type PostingAccount = AccountRole | AccountCode;

/** The chart's code of a declared account (a role's, or the code itself). */
export function accountOf(account: PostingAccount): AccountCode {
  return account in ACCOUNT_ROLES ? ACCOUNT_ROLES[account as AccountRole] : (account as AccountCode);
}

/**
 * The side an account grows on, as a sign of debit-positive amounts: +1 for assets and expenses (debit), -1
 * for liabilities, equity and income (credit). Postings declared by role move an account on its normal side
 * when they raise it (a receivable, an expense) and on the other when they settle it.
 */
export function normalSide(code: AccountCode): 1n | -1n {
  const kind = DEFAULT_CHART.find((a) => a.code === code)!.kind;
  return kind === 'asset' || kind === 'expense' ? 1n : -1n;
}

/** The account of a fund account's kind. */
export const FundKind = ['cash', 'bank', 'ewallet'] as const;
export type FundKind = (typeof FundKind)[number];
export const FUND_ACCOUNT_CODE: Record<FundKind, AccountCode> = { cash: '1001', bank: '1002', ewallet: '1012' };
export const FUND_KIND_LABELS: Record<FundKind, Label> = {
  cash: { zh: '现金', en: 'Cash' },
  bank: { zh: '银行', en: 'Bank' },
  ewallet: { zh: '电子钱包', en: 'E-wallet' },
};

// ---------------------------------------------------------------- payments and receipts

/** SPEC §4: payments to suppliers. */
export const PayType = ['OrdinaryPay', 'AdvancePay', 'DeductionAmount', 'BeginningPeriodPayment', 'SettlementPay'] as const;
export type PayType = (typeof PayType)[number];
/** SPEC §4: receipts from customers. */
export const ReceiptType = ['OrdinaryReceipt', 'AdvanceReceipt', 'SettlementReceipt', 'BeginningPeriodReceipt'] as const;
export type ReceiptType = (typeof ReceiptType)[number];
export type MoneyType = PayType | ReceiptType;

export const MONEY_TYPE_LABELS: Record<MoneyType, Label> = {
  OrdinaryPay: { zh: '普通付款', en: 'Payment' },
  AdvancePay: { zh: '预付款', en: 'Advance payment' },
  DeductionAmount: { zh: '预付抵扣', en: 'Deduction from prepaid' },
  BeginningPeriodPayment: { zh: '期初付款', en: 'Opening payable payment' },
  SettlementPay: { zh: '结算付款', en: 'Settlement payment' },
  OrdinaryReceipt: { zh: '普通收款', en: 'Receipt' },
  AdvanceReceipt: { zh: '预收款', en: 'Advance receipt' },
  SettlementReceipt: { zh: '结算收款', en: 'Settlement receipt' },
  BeginningPeriodReceipt: { zh: '期初收款', en: 'Opening receivable receipt' },
};

/**
 * What the server accepts of each type, shared by its rules and the payment / receipt form: the side,
 * whether money moves through a fund account, whether it settles bills, and whether an amount beyond the
 * settled bills goes to the partner's prepaid balance (ERPNext's unallocated amount), and whether it settles
 * opening balances (the opening types settle only opening-balance bills, the others only business bills).
 */
export interface MoneyTypeShape {
  side: 'payment' | 'receipt';
  fund: boolean;
  settles: boolean;
  surplusToBalance?: boolean;
  opening?: boolean;
}
export const MONEY_TYPE_SHAPES = {
  OrdinaryPay: { side: 'payment', fund: true, settles: true },
  SettlementPay: { side: 'payment', fund: true, settles: true, surplusToBalance: true },
  AdvancePay: { side: 'payment', fund: true, settles: false },
  DeductionAmount: { side: 'payment', fund: false, settles: true },
  BeginningPeriodPayment: { side: 'payment', fund: true, settles: true, opening: true },
  OrdinaryReceipt: { side: 'receipt', fund: true, settles: true },
  AdvanceReceipt: { side: 'receipt', fund: true, settles: false },
  SettlementReceipt: { side: 'receipt', fund: false, settles: true },
  BeginningPeriodReceipt: { side: 'receipt', fund: true, settles: true, opening: true },
} as const satisfies Partial<Record<MoneyType, MoneyTypeShape>>;
export type AcceptedMoneyType = keyof typeof MONEY_TYPE_SHAPES;

// ---------------------------------------------------------------- opening balances

/**
 * What an opening-balance bill (`Beginning`, /finance/beginning) brings in for one partner: a customer's
 * receivable or advance received, a supplier's payable or prepayment — each against the opening-balance
 * equity account 3001. Receivables and payables are open amounts that BeginningPeriodReceipt /
 * BeginningPeriodPayment settle; advances and prepayments join the partner's balance.
 */
export const BeginningType = ['Receivable', 'Advance', 'Payable', 'Prepaid'] as const;
export type BeginningType = (typeof BeginningType)[number];
export const BEGINNING_TYPE_LABELS: Record<BeginningType, Label> = {
  Receivable: { zh: '期初应收', en: 'Opening receivable' },
  Advance: { zh: '期初预收', en: 'Opening advance received' },
  Payable: { zh: '期初应付', en: 'Opening payable' },
  Prepaid: { zh: '期初预付', en: 'Opening prepayment' },
};
/** Per opening type: its partner, the account it posts against 3001 (debit or credit), and what it opens. */
export const BEGINNING_SHAPES = {
  Receivable: { partner: 'customerId', account: '1122', debit: true, opens: 'receivable' },
  Advance: { partner: 'customerId', account: '2203', debit: false, opens: undefined },
  Payable: { partner: 'supplierId', account: '2202', debit: false, opens: 'payable' },
  Prepaid: { partner: 'supplierId', account: '1123', debit: true, opens: undefined },
} as const satisfies Record<BeginningType, { partner: 'customerId' | 'supplierId'; account: AccountCode; debit: boolean; opens: 'receivable' | 'payable' | undefined }>;

/** A bill's settlement state (its header progress `settlement`). */
export const SettledStatus = ['UnSettlement', 'PartialSettlement', 'AllSettlement'] as const;
export type SettledStatus = (typeof SettledStatus)[number];

/** Fits numeric(20,6): a decimal string or a number, 14 digits before the point, 6 after. */
export const moneySchema = z
  .union([z.number().finite(), storableText().trim().regex(/^-?\d{1,14}(\.\d{1,6})?$/, { message: 'ParamError' })])
  .refine((v) => Math.abs(Number(v)) < 1e14, { message: 'ParamError' });
const positiveMoney = moneySchema.refine((v) => Number(v) > 0, { message: 'AmountMustGreaterThanZero' });
const remark = storableText().max(500).default('');
const name = nameText(100);

// A fund account never goes below zero: nor does it open there.
const openingBalance = moneySchema.refine((v) => Number(v) >= 0, { message: 'AmountMustNotBeNegative' });
export const fundAccountCreateSchema = z.object({
  name,
  kind: z.enum(FundKind),
  accountNumber: storableText().trim().max(50).default(''),
  openingBalance: openingBalance.default(0),
  openingDate: dateSchema,
  remark,
});
/**
 * Name, account number and remark change at any time; the kind and the opening balance and date (omitted:
 * unchanged) only while nothing but the opening has posted to the account (`FundAccountPostedProhibitChange`).
 */
export const fundAccountUpdateSchema = z.object({
  id: idSchema,
  name,
  kind: z.enum(FundKind).optional(),
  accountNumber: storableText().trim().max(50).default(''),
  openingBalance: openingBalance.optional(),
  openingDate: dateSchema.optional(),
  remark,
});
export type FundAccountUpdate = z.infer<typeof fundAccountUpdateSchema>;
export type FundAccountCreate = z.infer<typeof fundAccountCreateSchema>;

export const transferCreateSchema = z.object({
  docDate: dateSchema,
  fromAccountId: idSchema,
  toAccountId: idSchema,
  amount: positiveMoney,
  remark,
});
export type TransferCreate = z.infer<typeof transferCreateSchema>;

/** Open bills of a partner to settle (the payment / receipt form's picker). */
/** A partner's prepaid (supplier, 1123) and advance (customer, 2203) balances as `GET /finance/prepaid` lists them (exact decimal text). */
export interface PrepaidBalanceRow {
  partnerId: number;
  partnerCode: string;
  partnerName: string;
  kind: 'supplier' | 'customer';
  prepaid: string;
  advance: string;
}

/** One line of a partner's running ledger (`GET /finance/<receivable | payable | prepaid>/ledger`), amounts as exact decimal text. */
/** A partner's open bills in one foreign currency (docs/cross-border.md): in the currency, and in CNY at their rates. */
export interface OpenInCurrency {
  currencyCode: string;
  open: string;
  openBase: string;
}

export interface PartnerLedgerLine {
  id: number;
  date: string;
  sourceKind: string;
  sourceId: number;
  sourceCode: string;
  /** The source bill's type (payments, receipts, stock bills, opening balances…); null for other documents. */
  billType: string | null;
  /** The bill type, or a payment's or receipt's type (`AdvancePay`…). */
  memo: string;
  reversal: boolean;
  /** The bill the line settles or opens, when it names one. */
  billId: number | null;
  increase: string;
  decrease: string;
  /** The balance after the line. */
  balance: string;
}

export const openBillsQuerySchema = z.object({ partnerId: z.coerce.number().int().positive() });

export const partnerReportQuerySchema = z.object({
  partnerId: z.coerce.number().int().positive().optional(),
  /** Aging as of this day (default today). */
  asOf: dateSchema.optional(),
});

export const ledgerQuerySchema = z.object({ partnerId: z.coerce.number().int().positive() });
/** A page of a partner's ledger (oldest first; each page's balances carry the lines before it). */
export const ledgerPageQuerySchema = ledgerQuerySchema.extend({
  current: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

/** The aging buckets, in days since the bill date. */
export const AGING_BUCKETS = [
  { key: 'd0_30', from: 0, to: 30, label: { zh: '0–30天', en: '0–30 days' } },
  { key: 'd31_60', from: 31, to: 60, label: { zh: '31–60天', en: '31–60 days' } },
  { key: 'd61_90', from: 61, to: 90, label: { zh: '61–90天', en: '61–90 days' } },
  { key: 'd90', from: 91, to: Number.POSITIVE_INFINITY, label: { zh: '90天以上', en: 'Over 90 days' } },
] as const;
export type AgingKey = (typeof AGING_BUCKETS)[number]['key'];

/** The bucket of a bill `days` old. */
export function agingBucket(days: number): AgingKey {
  return (AGING_BUCKETS.find((b) => days >= b.from && days <= b.to) ?? AGING_BUCKETS[0]).key;
}

/** POST /api/admin/finance/verify: each difference found (empty when the books agree). */
export interface FinanceDifference {
  kind: 'unbalancedPosting' | 'partnerBalance' | 'fundBalance' | 'billSettlement' | 'inventory' | 'partnerOpening' | 'accountTotal';
  ref: number;
  field: string;
  stored: string;
  ledger: string;
}
