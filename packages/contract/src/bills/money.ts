import { z } from 'zod';
import { MONEY_TYPE_LABELS } from '../finance.ts';
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

/** The payment types a payment bill takes (opening balances are their own bill, not a payment). */
export const PAYMENT_TYPES = ['OrdinaryPay', 'SettlementPay', 'AdvancePay', 'DeductionAmount'] as const;
export const RECEIPT_TYPES = ['OrdinaryReceipt', 'AdvanceReceipt', 'SettlementReceipt'] as const;

const typeOptions = (values: readonly (keyof typeof MONEY_TYPE_LABELS)[]): FieldOption[] => values.map((value) => ({ value, label: MONEY_TYPE_LABELS[value] }));

const payType: FieldDecl = {
  key: 'payType',
  label: { zh: '付款类型', en: 'Payment type' },
  kind: 'enum',
  schema: z.enum(PAYMENT_TYPES),
  required: 'PleaseSelectBillType',
  options: typeOptions(PAYMENT_TYPES),
  list: true,
  width: 130,
};
const receiptType: FieldDecl = { ...payType, key: 'receiptType', label: { zh: '收款类型', en: 'Receipt type' }, schema: z.enum(RECEIPT_TYPES), options: typeOptions(RECEIPT_TYPES) };

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

export const Payment: BillTypeDecl = {
  type: 'Payment',
  label: { zh: '付款单', en: 'Payment' },
  area: 'finance',
  route: 'payment',
  codePrefix: 'FK',
  icon: 'ExportOutlined',
  header: [HEADER.supplierId, payType, HEADER.fundAccountId, prepaidAmount, HEADER.handlerId],
  lines: [],
  lineKind: 'settlement',
  extraAmount: 'prepaidAmount',
  sources: [settles('PurchaseInstock', 'supplierId'), settles('PurchaseRefund', 'supplierId', true)],
  stock: 'none',
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

export const Receipt: BillTypeDecl = {
  type: 'Receipt',
  label: { zh: '收款单', en: 'Receipt' },
  area: 'finance',
  route: 'receipt',
  codePrefix: 'SK',
  icon: 'ImportOutlined',
  header: [HEADER.customerId, receiptType, HEADER.fundAccountId, advanceAmount, HEADER.handlerId],
  lines: [],
  lineKind: 'settlement',
  extraAmount: 'advanceAmount',
  sources: [settles('SaleOutstock', 'customerId'), settles('SaleRefund', 'customerId', true)],
  stock: 'none',
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
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: MONEY_ACTIONS,
};

/** Finance's bills in menu order. */
export const MONEY_BILLS: readonly BillTypeDecl[] = [Payment, Receipt, Fee, Income];
