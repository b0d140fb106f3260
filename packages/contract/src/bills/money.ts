import { z } from 'zod';
import { BEGINNING_SHAPES, BEGINNING_TYPE_LABELS, BeginningType, MONEY_TYPE_LABELS } from '../finance.ts';
import { HEADER, moneyAmountSchema, type FieldDecl, type FieldOption } from './fields.ts';
import type { BillAction, BillTypeDecl, SourceDecl } from './registry.ts';
import { REFUND_RULES } from './supply-chain.ts';

/**
 * Finance's bills: payments to suppliers and receipts from customers (settlement lines: the audited bills
 * they settle, pushed down from them), fees and incomes (fee lines). They run on the bill engine like any
 * bill — statuses, codes, joint review, menus and button codes from their declaration; auditing one posts
 * the ledger through finance's posting hook, withdrawing the audit reverses it (docs/finance.md).
 */

const MONEY_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

/** The payment types a payment bill takes (the opening types settle opening-balance bills, `Beginning`). */
export const PAYMENT_TYPES = ['OrdinaryPay', 'SettlementPay', 'AdvancePay', 'DeductionAmount', 'BeginningPeriodPayment'] as const;
export const RECEIPT_TYPES = ['OrdinaryReceipt', 'AdvanceReceipt', 'SettlementReceipt', 'BeginningPeriodReceipt'] as const;

const typeOptions = (values: readonly (keyof typeof MONEY_TYPE_LABELS)[]): FieldOption[] => values.map((value) => ({ value, label: MONEY_TYPE_LABELS[value] }));

const payType: FieldDecl = {
  key: 'payType',
  label: { zh: '付款类型', en: 'Payment type' },
  kind: 'enum',
  schema: z.enum(PAYMENT_TYPES),
  required: 'PleaseSelectPaymentType',
  options: typeOptions(PAYMENT_TYPES),
  list: true,
  width: 130,
};
const receiptType: FieldDecl = { ...payType, key: 'receiptType', label: { zh: '收款类型', en: 'Receipt type' }, schema: z.enum(RECEIPT_TYPES), required: 'PleaseSelectReceiptType', options: typeOptions(RECEIPT_TYPES) };

/** The amount beyond the settled bills: an advance, or a settlement payment's rest (to prepaid / advance). */
const prepaidAmount: FieldDecl = { key: 'prepaidAmount', label: { zh: '预付金额', en: 'To prepaid' }, kind: 'amount', schema: moneyAmountSchema, list: true, width: 120 };
const advanceAmount: FieldDecl = { ...prepaidAmount, key: 'advanceAmount', label: { zh: '预收金额', en: 'To advance' } };

/** A bill of money may be settled while its refund counterpart gives money back (not an exchange). */
const settles = (type: string, partner: 'supplierId' | 'customerId', refund = false): SourceDecl => ({
  type,
  drives: 'settlement',
  header: [partner],
  lines: [],
  defaults: partner === 'supplierId' ? { payType: 'OrdinaryPay' } : { receiptType: 'OrdinaryReceipt' },
  ...(refund ? { onlyWhen: REFUND_RULES.money, onlyWhenRefusal: 'SettleBillNotOpen' as const } : {}),
});

/** An opening-balance bill of the partner's side whose type opens an amount to settle (a receivable, a payable). */
const settlesOpening = (partner: 'supplierId' | 'customerId'): SourceDecl => ({
  type: 'Beginning',
  drives: 'settlement',
  header: [partner],
  lines: [],
  defaults: partner === 'supplierId' ? { payType: 'BeginningPeriodPayment' } : { receiptType: 'BeginningPeriodReceipt' },
  onlyWhen: { field: 'beginningType', values: BeginningType.filter((t) => BEGINNING_SHAPES[t].partner === partner && BEGINNING_SHAPES[t].opens) },
  onlyWhenRefusal: 'SettleBillNotOpen',
});

export const Payment: BillTypeDecl = {
  type: 'Payment',
  currency: true,
  label: { zh: '付款单', en: 'Payment' },
  area: 'finance',
  route: 'payment',
  codePrefix: 'FK',
  icon: 'ExportOutlined',
  header: [HEADER.supplierId, payType, HEADER.fundAccountId, prepaidAmount, HEADER.handlerId],
  lines: [],
  lineKind: 'settlement',
  extraAmount: 'prepaidAmount',
  sources: [settles('PurchaseInstock', 'supplierId'), settles('PurchaseRefund', 'supplierId', true), settles('OutsourcingInstock', 'supplierId'), settles('OutsourcingRefund', 'supplierId', true), settlesOpening('supplierId')],
  stock: 'none',
  postings: { money: { kind: 'settle', open: 'payable', balance: 'prepaid' } },
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

export const Receipt: BillTypeDecl = {
  type: 'Receipt',
  currency: true,
  label: { zh: '收款单', en: 'Receipt' },
  area: 'finance',
  route: 'receipt',
  codePrefix: 'SK',
  icon: 'ImportOutlined',
  header: [HEADER.customerId, receiptType, HEADER.fundAccountId, advanceAmount, HEADER.handlerId],
  lines: [],
  lineKind: 'settlement',
  extraAmount: 'advanceAmount',
  sources: [settles('SaleOutstock', 'customerId'), settles('SaleRefund', 'customerId', true), settlesOpening('customerId')],
  stock: 'none',
  postings: { money: { kind: 'settle', open: 'receivable', balance: 'advance' } },
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

/** Fees and incomes: paid from / received into a fund account; the partner is optional (who it concerns). */
const requiredFund: FieldDecl = { ...HEADER.fundAccountId, required: 'PleaseSelectAccount' };
const optional = (field: FieldDecl): FieldDecl => ({ ...field, required: undefined });

export const Fee: BillTypeDecl = {
  type: 'Fee',
  label: { zh: '费用单', en: 'Expense' },
  area: 'finance',
  route: 'fee',
  codePrefix: 'FY',
  icon: 'WalletOutlined',
  header: [requiredFund, optional(HEADER.supplierId), HEADER.handlerId, HEADER.deptId],
  lines: [],
  lineKind: 'fee',
  sources: [],
  stock: 'none',
  postings: { money: { kind: 'fee', account: 'administrativeExpenses', overhead: 'manufacturingOverhead' } },
  costRun: { overheadLines: true },
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

export const Income: BillTypeDecl = {
  type: 'Income',
  label: { zh: '收入单', en: 'Income' },
  area: 'finance',
  route: 'income',
  codePrefix: 'SR',
  icon: 'RiseOutlined',
  header: [requiredFund, optional(HEADER.customerId), HEADER.handlerId, HEADER.deptId],
  lines: [],
  lineKind: 'fee',
  sources: [],
  stock: 'none',
  postings: { money: { kind: 'fee', account: 'otherIncome' } },
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

/** The opening balance's header: its type, then the partner of the type's side (the other one is hidden). */
const beginningType: FieldDecl = {
  key: 'beginningType',
  label: { zh: '期初类型', en: 'Opening type' },
  kind: 'enum',
  schema: z.enum(BeginningType),
  required: 'PleaseSelectOpeningType',
  options: BeginningType.map((value) => ({ value, label: BEGINNING_TYPE_LABELS[value] })),
  list: true,
  search: 'eq',
  width: 180,
};
const sideOf = (partner: 'supplierId' | 'customerId') => ({ field: 'beginningType', values: BeginningType.filter((t) => BEGINNING_SHAPES[t].partner === partner) });
const openingAmount: FieldDecl = { key: 'openingAmount', label: { zh: '期初金额', en: 'Opening amount' }, kind: 'amount', schema: moneyAmountSchema, required: 'PleaseInputAmount', width: 130 };

/**
 * An opening balance (期初余额单): one partner's receivable, advance received, payable or prepayment on the
 * day the books start, one amount per bill. Auditing posts it against 3001; receivables and payables are
 * then open amounts settled by BeginningPeriodReceipt / BeginningPeriodPayment (docs/finance.md).
 */
export const Beginning: BillTypeDecl = {
  type: 'Beginning',
  label: { zh: '期初余额单', en: 'Opening balance' },
  area: 'finance',
  route: 'beginning',
  codePrefix: 'QC',
  icon: 'FlagOutlined',
  header: [
    beginningType,
    { ...optional(HEADER.customerId), shownWhen: sideOf('customerId') },
    { ...optional(HEADER.supplierId), shownWhen: sideOf('supplierId') },
    openingAmount,
    HEADER.handlerId,
  ],
  lines: [],
  lineKind: 'none',
  extraAmount: 'openingAmount',
  sources: [],
  stock: 'none',
  postings: { money: { kind: 'opening', counter: 'openingEquity' } },
  progress: ['settlement'],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

/** Finance's bills in menu order. */
export const MONEY_BILLS: readonly BillTypeDecl[] = [Beginning, Payment, Receipt, Fee, Income];
