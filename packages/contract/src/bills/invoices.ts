import { storableText } from '../text.ts';
import { HEADER, LINE, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillAction, type BillTypeDecl, type SourceDecl } from './registry.ts';
import { PRICE_KEYS, REFUND_RULES } from './supply-chain.ts';

/**
 * Sale and purchase invoices: bill types of the finance area, pushed down from what was sent or received
 * (sale out-stocks, purchase in-stocks) and from the refunds that return money (return and refund, refund
 * only), whose invoice is a red-letter one: it counts negative. Each line takes from its source line's own
 * open quantity (`apart`: returning goods and invoicing them do not take from each other), drives the
 * source's `invoice` progress when audited, and never exceeds what is left uninvoiced of the source line's
 * tax-inclusive amount (the finance module's rule, server/src/modules/finance/invoices.ts).
 */

/** The number printed on the tax invoice, as the tax office issued it. */
const invoiceNumber: FieldDecl = {
  key: 'invoiceNumber',
  label: { zh: '发票号码', en: 'Invoice number' },
  kind: 'text',
  schema: storableText().trim().max(50),
  list: true,
  search: 'contains',
  width: 150,
};

/** The lines: quantity (common), prices and the tax-inclusive amount. */
const INVOICE_LINES: FieldDecl[] = [LINE.unitPrice, LINE.taxRate, LINE.taxUnitPrice, LINE.discountRate, LINE.priceTotal, LINE.taxPriceTotal];
/**
 * What an invoice of one side is pushed down from: the bill that sent or received the goods, and the refund of
 * it when the refund returns money (its invoice counts negative: a red-letter invoice).
 */
const invoiced = (partner: 'customerId' | 'supplierId', goods: string, refund: string): SourceDecl[] => [
  { type: goods, drives: 'invoice', apart: true, header: [partner, 'handlerId'], lines: PRICE_KEYS },
  { type: refund, drives: 'invoice', apart: true, negative: true, header: [partner, 'handlerId'], lines: PRICE_KEYS, onlyWhen: REFUND_RULES.money, onlyWhenRefusal: 'OnlyRefundBillCanPushInvoice' },
];
/** No merge, no import: an invoice is made from its source bills. */
const INVOICE_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

export const SaleInvoice: BillTypeDecl = {
  type: 'SaleInvoice',
  label: { zh: '销售发票', en: 'Sale invoice' },
  area: 'finance',
  route: 'saleInvoice',
  codePrefix: 'XSFP',
  icon: 'FileDoneOutlined',
  header: [HEADER.customerId, invoiceNumber, HEADER.handlerId],
  lines: INVOICE_LINES,
  sources: invoiced('customerId', 'SaleOutstock', 'SaleRefund'),
  sourceRequired: true,
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: [],
  switches: ['openTaxRate', 'openDiscount', 'amountRetainsSmallDigit'],
  actions: INVOICE_ACTIONS,
};

export const PurchaseInvoice: BillTypeDecl = {
  type: 'PurchaseInvoice',
  label: { zh: '采购发票', en: 'Purchase invoice' },
  area: 'finance',
  route: 'purchaseInvoice',
  codePrefix: 'CGFP',
  icon: 'FileProtectOutlined',
  header: [HEADER.supplierId, invoiceNumber, HEADER.handlerId],
  lines: INVOICE_LINES,
  // Outsourcing receipts are invoiced for their processing fee as purchases are.
  sources: [...invoiced('supplierId', 'PurchaseInstock', 'PurchaseRefund'), ...invoiced('supplierId', 'OutsourcingInstock', 'OutsourcingRefund')],
  sourceRequired: true,
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: [],
  switches: ['openTaxRate', 'openDiscount', 'amountRetainsSmallDigit'],
  actions: INVOICE_ACTIONS,
};

export const INVOICE_BILLS: readonly BillTypeDecl[] = [SaleInvoice, PurchaseInvoice];
