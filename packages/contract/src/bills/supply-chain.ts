import { z } from 'zod';
import { storableText } from '../text.ts';
import { HEADER, LINE, quantitySchema, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillAction, type BillPostingsDecl, type BillTypeDecl, type FieldCondition } from './registry.ts';
import { ExchangeType } from './status.ts';

/**
 * The supply-chain bills: purchasing, sales and stock. Each is data only; what the engine does with a
 * declaration is described in docs/bills.md. Field order here is the order of the form and the line grid.
 */

/** A header field that a type has but does not require (the supplier of an other in-stock). */
const optional = (field: FieldDecl): FieldDecl => ({ ...field, required: undefined });

/** The usual buttons of a bill that can be merged and completed by hand (orders). */
const ORDER_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'merge', 'manualCompletion', 'import', 'export', 'print'];
/** The buttons of a bill that moves stock (no merge; nothing to complete). */
export const STOCK_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'import', 'export', 'print'];
/** Buttons with the delivery confirmations (sent, then arrived) before import / export / print. */
const withDelivery = (actions: BillAction[]): BillAction[] => [...actions.filter((a) => !['import', 'export', 'print'].includes(a)), 'delivery', 'import', 'export', 'print'];
/** A stock bill whose goods come back later (a lend): completed by hand when they never will. */
const LEND_ACTIONS: BillAction[] = [...STOCK_ACTIONS, 'manualCompletion'];

/** Price fields of a line, in grid order. */
export const PRICED: FieldDecl[] = [LINE.giftNumber, LINE.unitPrice, LINE.taxRate, LINE.taxUnitPrice, LINE.discountRate, LINE.priceTotal, LINE.taxPriceTotal];
/** Where goods are: warehouse, location, batch (with its expiry), serial numbers. */
export const PLACED: FieldDecl[] = [LINE.warehouseId, LINE.locationId, LINE.batchNumber, LINE.expirationDate, LINE.serialNumbers];
/** The price fields copied by push down. */
export const PRICE_KEYS = ['unitPrice', 'taxRate', 'discountRate'];
/** The placing fields copied by push down (back to where the goods came from). */
export const PLACE_KEYS = ['warehouseId', 'locationId', 'batchNumber', 'expirationDate'];

/**
 * The refund types' rules (SPEC §4), one place:
 * - ReturnsRefunds: the goods go back (stock moves on audit), the money comes back (settlement), and the
 *   source's refund / return progress counts it.
 * - Exchange: the goods go back to be replaced — the source's progress counts it, but neither stock nor
 *   money moves on the refund bill (the exchange bills pushed from it move the goods).
 * - OnlyRefund: money back only — no stock, no goods progress on the source; it still takes from the
 *   source line's open quantity, so the same units cannot be refunded twice.
 * Pushing on: only bills with a refund go to invoices, only exchange bills to exchange bills.
 */
export const REFUND_RULES = {
  /** Goods move on the refund bill's audit. */
  stock: { field: 'refundType', values: ['ReturnsRefunds'] },
  /** Money moves (payable / receivable, invoices). */
  money: { field: 'refundType', values: ['ReturnsRefunds', 'OnlyRefund'] },
  /** The goods went back: drives the source's refund / return progress. */
  goodsBack: { field: 'refundType', values: ['ReturnsRefunds', 'Exchange'] },
  exchange: { field: 'refundType', values: ['Exchange'] },
} as const satisfies Record<string, FieldCondition>;

/*
 * Pushing on from a refund (only bills with a refund to invoices, only exchanges to exchange bills) is
 * for the declarations that take refunds as a source — finance's invoices (contract bills/invoices.ts) and
 * the purchase / sale exchange bills below. Such a declaration puts the rule in its `SourceDecl`:
 *   { type: 'PurchaseRefund', …, onlyWhen: REFUND_RULES.money, onlyWhenRefusal: 'OnlyRefundBillCanPushInvoice' }
 *   { type: 'SaleRefund', …, onlyWhen: REFUND_RULES.exchange, onlyWhenRefusal: 'OnlyExchangeBillCanPushExchange' }
 * (docs/bills.md, "Refund types"; the engine applies `onlyWhen` to the picker, push down and saves).
 */

/** No merge, no import: an exchange is made from its refund. */
/**
 * What the supply-chain bills post (BillPostingsDecl). Purchases: Dr 1405 / Cr 2202 by the tax-inclusive
 * amount, then the stock's value trues 1405 up, the tax to input VAT and what is left (a refund's price against
 * the average cost) to cost of goods sold. Sales: Dr 1122 / Cr 6001 / Cr 2221, and the cost Dr 6401 / Cr 1405.
 * Stock moved for any other reason (lends, transfers, assemblies, exchanges, other in- / out-stocks) waits on
 * 1901 assets pending disposal for the accountant to clear once the reason is known.
 */
const PURCHASE_POSTINGS: BillPostingsDecl = {
  stock: { counter: 'costOfGoodsSold', tax: 'inputVat' },
  money: { kind: 'partner', partner: 'payable', counter: 'inventory' },
};
const SALE_POSTINGS: BillPostingsDecl = {
  stock: { counter: 'costOfGoodsSold' },
  money: { kind: 'partner', partner: 'receivable', counter: 'revenue', tax: 'outputVat' },
};
const PENDING_DISPOSAL: BillPostingsDecl = { stock: { counter: 'pendingDisposal' } };

const EXCHANGE_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];
/** An exchange bill's lines: the side (out of stock or into it), where, and the price (a replacement without one costs what went out). */
const EXCHANGE_LINES: FieldDecl[] = [LINE.exchangeType, ...PLACED, LINE.unitPrice, LINE.priceTotal];

export const PurchaseRequisition: BillTypeDecl = {
  type: 'PurchaseRequisition',
  label: { zh: '采购申请', en: 'Purchase requisition' },
  area: 'purchase',
  route: 'requisition',
  codePrefix: 'CGSQ',
  icon: 'FileAddOutlined',
  header: [HEADER.handlerId, HEADER.deptId, HEADER.deliveryDate, HEADER.deliveryWarnDays],
  lines: [LINE.unitPrice, LINE.priceTotal],
  // An MRP plan's suggestions to buy (production.ts MRP_LINES.purchases).
  sources: [{ type: 'MrpPlan', drives: 'push', fromLines: { field: 'mrpRole', values: ['Purchase'] }, header: ['deptId'], lines: [] }],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['push'],
  switches: [],
  actions: ORDER_ACTIONS,
  mergeBy: ['deptId'],
};

export const PurchaseOrder: BillTypeDecl = {
  type: 'PurchaseOrder',
  currency: true,
  label: { zh: '采购订单', en: 'Purchase order' },
  area: 'purchase',
  route: 'order',
  codePrefix: 'CGDD',
  icon: 'ShoppingCartOutlined',
  header: [HEADER.supplierId, HEADER.handlerId, HEADER.deptId, HEADER.deliveryDate, HEADER.deliveryWarnDays, HEADER.payDate, HEADER.payWarnDays],
  lines: PRICED,
  sources: [{ type: 'PurchaseRequisition', drives: 'push', header: ['deptId', 'deliveryDate'], lines: ['unitPrice'] }],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['instock', 'inspection'],
  switches: ['openTaxRate', 'openDiscount', 'numberRetainsSmallDigit', 'amountRetainsSmallDigit'],
  actions: ORDER_ACTIONS,
  mergeBy: ['supplierId'],
};

export const PurchaseInstock: BillTypeDecl = {
  type: 'PurchaseInstock',
  currency: true,
  label: { zh: '采购入库', en: 'Purchase in-stock' },
  area: 'purchase',
  route: 'instock',
  codePrefix: 'CGRK',
  icon: 'ImportOutlined',
  header: [HEADER.supplierId, HEADER.warehouseId, HEADER.handlerId, HEADER.payDate, HEADER.payWarnDays],
  lines: [...PLACED, ...PRICED],
  sources: [
    {
      type: 'PurchaseOrder',
      drives: 'instock',
      header: ['supplierId', 'handlerId', 'payDate', 'payWarnDays'],
      lines: [...PRICE_KEYS, 'giftNumber'],
      beyondSwitch: 'allowPurchaseInstockBeyond',
      additionalSwitch: 'allowPurchaseInstockAdditionalNumber',
      inspectedBy: 'IncomingInspection',
    },
  ],
  stock: 'in',
  valuation: { in: 'price' },
  settlement: { kind: 'payable', sign: 1 },
  postings: PURCHASE_POSTINGS,
  progress: ['refund', 'settlement', 'invoice'],
  switches: ['allowPurchaseInstockBeyond', 'allowPurchaseInstockAdditionalNumber', 'openBatchNumber', 'openSerialNumber', 'openTaxRate', 'openDiscount'],
  actions: STOCK_ACTIONS,
};

export const PurchaseRefund: BillTypeDecl = {
  type: 'PurchaseRefund',
  currency: true,
  label: { zh: '采购退换', en: 'Purchase refund or exchange' },
  area: 'purchase',
  route: 'refund',
  codePrefix: 'CGTH',
  icon: 'RollbackOutlined',
  header: [HEADER.supplierId, HEADER.refundType, HEADER.warehouseId, HEADER.handlerId, HEADER.receiptDate, HEADER.receiptWarnDays],
  lines: [...PLACED, ...PRICED],
  sources: [{ type: 'PurchaseInstock', drives: 'refund', drivesWhen: REFUND_RULES.goodsBack, header: ['supplierId', 'warehouseId'], lines: [...PRICE_KEYS, ...PLACE_KEYS] }],
  stock: 'out',
  stockWhen: REFUND_RULES.stock,
  // Back to the supplier at what the purchase brought it in at (ERPNext returns at the original incoming rate).
  valuation: { out: 'source' },
  settlement: { kind: 'payable', sign: -1 },
  settlementWhen: REFUND_RULES.money,
  postings: PURCHASE_POSTINGS,
  progress: ['exchange', 'settlement', 'invoice'],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const SaleQuotation: BillTypeDecl = {
  type: 'SaleQuotation',
  currency: true,
  label: { zh: '销售报价', en: 'Sale quotation' },
  area: 'sale',
  route: 'quotation',
  codePrefix: 'XSBJ',
  icon: 'FileTextOutlined',
  header: [HEADER.customerId, HEADER.handlerId, HEADER.deliveryDate],
  lines: PRICED,
  sources: [],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['push'],
  switches: ['openTaxRate', 'openDiscount'],
  actions: ORDER_ACTIONS,
  mergeBy: ['customerId'],
};

/**
 * The BOM a sale order line is to be made with — one of its material's BOMs (versions) — when the tenant lets
 * sale orders choose (`openSaleOrderBomSelect`); kept in the line's `extra`. Off, a value is refused.
 */
const bomChoice: FieldDecl = {
  key: 'bomId',
  label: { zh: 'BOM', en: 'BOM' },
  kind: 'record',
  ref: 'bom',
  within: 'materialId',
  schema: z.number().int().positive(),
  switch: 'openSaleOrderBomSelect',
  offRefusal: 'SaleOrderBomSelectNotOpen',
  width: 140,
};

export const SaleOrder: BillTypeDecl = {
  type: 'SaleOrder',
  currency: true,
  label: { zh: '销售订单', en: 'Sale order' },
  area: 'sale',
  route: 'order',
  codePrefix: 'XSDD',
  icon: 'SolutionOutlined',
  header: [HEADER.customerId, HEADER.handlerId, HEADER.deptId, HEADER.deliveryDate, HEADER.deliveryWarnDays, HEADER.receiptDate, HEADER.receiptWarnDays],
  lines: [...PRICED, bomChoice],
  sources: [{ type: 'SaleQuotation', drives: 'push', header: ['customerId', 'handlerId', 'deliveryDate'], lines: [...PRICE_KEYS, 'giftNumber'] }],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['outstock', 'push', 'production', 'plan', 'inspection'],
  switches: ['openSaleOrderBomSelect', 'openTaxRate', 'openDiscount'],
  actions: ORDER_ACTIONS,
  mergeBy: ['customerId'],
};

export const SaleShip: BillTypeDecl = {
  type: 'SaleShip',
  currency: true,
  label: { zh: '销售发货', en: 'Sale shipping notice' },
  area: 'sale',
  route: 'ship',
  codePrefix: 'XSFH',
  icon: 'CarOutlined',
  header: [HEADER.customerId, HEADER.warehouseId, HEADER.handlerId, HEADER.deliveryDate, HEADER.deliveryWarnDays],
  lines: [LINE.warehouseId, ...PRICED],
  // What goes out against a notice went out against the order it came from.
  sources: [{ type: 'SaleOrder', drives: 'push', header: ['customerId', 'handlerId', 'deliveryDate'], lines: [...PRICE_KEYS, 'giftNumber'], passes: ['outstock'] }],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['outstock', 'inspection'],
  switches: [],
  actions: withDelivery(ORDER_ACTIONS),
  mergeBy: ['customerId'],
};

export const SaleOutstock: BillTypeDecl = {
  type: 'SaleOutstock',
  currency: true,
  label: { zh: '销售出库', en: 'Sale out-stock' },
  area: 'sale',
  route: 'outstock',
  codePrefix: 'XSCK',
  icon: 'ExportOutlined',
  header: [HEADER.customerId, HEADER.warehouseId, HEADER.handlerId, HEADER.receiptDate, HEADER.receiptWarnDays],
  lines: [...PLACED, ...PRICED],
  sources: [
    {
      type: 'SaleOrder',
      drives: 'outstock',
      header: ['customerId', 'handlerId', 'receiptDate', 'receiptWarnDays'],
      lines: [...PRICE_KEYS, 'giftNumber'],
      beyondSwitch: 'allowSaleOutstockBeyond',
      additionalSwitch: 'allowSaleOutstockAdditionalNumber',
      inspectedBy: 'ShipmentInspection',
    },
    {
      type: 'SaleShip',
      drives: 'outstock',
      header: ['customerId', 'warehouseId', 'handlerId'],
      lines: [...PRICE_KEYS, 'giftNumber', 'warehouseId'],
      beyondSwitch: 'allowSaleOutstockBeyond',
      inspectedBy: 'ShipmentInspection',
    },
  ],
  // Goods leave for a customer against an order or a notice unless the tenant allows direct out-stocks.
  directNeedsSwitch: 'openDirectOutstock',
  stock: 'out',
  valuation: { out: 'average' },
  settlement: { kind: 'receivable', sign: 1 },
  postings: SALE_POSTINGS,
  progress: ['return', 'settlement', 'invoice'],
  switches: ['openDirectOutstock', 'openNegativeInventory', 'allowSaleOutstockBeyond', 'allowSaleOutstockAdditionalNumber', 'openBatchNumber', 'openSerialNumber', 'openTaxRate', 'openDiscount'],
  actions: withDelivery(STOCK_ACTIONS),
};

export const SaleRefund: BillTypeDecl = {
  type: 'SaleRefund',
  currency: true,
  label: { zh: '销售退换', en: 'Sale refund or exchange' },
  area: 'sale',
  route: 'refund',
  codePrefix: 'XSTH',
  icon: 'UndoOutlined',
  header: [HEADER.customerId, HEADER.refundType, HEADER.warehouseId, HEADER.handlerId, HEADER.payDate, HEADER.payWarnDays],
  lines: [...PLACED, ...PRICED],
  sources: [{ type: 'SaleOutstock', drives: 'return', drivesWhen: REFUND_RULES.goodsBack, header: ['customerId', 'warehouseId'], lines: [...PRICE_KEYS, ...PLACE_KEYS] }],
  stock: 'in',
  stockWhen: REFUND_RULES.stock,
  // Back from the customer at the cost the sale took out; the price is revenue given back, not stock value.
  valuation: { in: 'source' },
  settlement: { kind: 'receivable', sign: -1 },
  settlementWhen: REFUND_RULES.money,
  postings: SALE_POSTINGS,
  progress: ['exchange', 'settlement', 'invoice'],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

/**
 * An exchange bill of one side, pushed down from its Exchange refunds: the lines of the `taking` side are the
 * goods exchanged, taken from the refund's lines (never beyond what is open of them); their twins, which push
 * down adds beside them, are the replacements. Stock moves on audit, back on abandon audit; the refund's
 * exchange progress follows the audited taking lines. Push down copies where the goods are, not the refund's
 * price: a line coming in without a price takes the cost of what went out, so an exchange moves no value.
 */
export function exchangeBill(own: Pick<BillTypeDecl, 'type' | 'label' | 'area' | 'codePrefix'> & { partner: FieldDecl; refund: string; taking: ExchangeType }): BillTypeDecl {
  const { partner, refund, taking, ...named } = own;
  return {
    ...named,
    route: 'exchange',
    icon: 'RetweetOutlined',
    header: [partner, HEADER.warehouseId, HEADER.handlerId],
    lines: EXCHANGE_LINES,
    sources: [{ type: refund, drives: 'exchange', header: [partner.key, 'warehouseId'], lines: PLACE_KEYS, onlyWhen: REFUND_RULES.exchange, onlyWhenRefusal: 'OnlyExchangeBillCanPushExchange' }],
    sourceRequired: true,
    pairedLines: { field: 'exchangeType', taking, twin: ExchangeType.find((side) => side !== taking)! },
    stock: 'exchange',
    valuation: { in: 'taken', out: 'average' },
    postings: PENDING_DISPOSAL,
    progress: [],
    switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
    actions: EXCHANGE_ACTIONS,
  };
}

/** With the supplier: the goods exchanged go out to the supplier (ExchangeOut), the replacements come in (ExchangeIn). */
export const PurchaseExchange = exchangeBill({
  type: 'PurchaseExchange',
  label: { zh: '采购换货', en: 'Purchase exchange' },
  area: 'purchase',
  codePrefix: 'CGHH',
  partner: HEADER.supplierId,
  refund: 'PurchaseRefund',
  taking: 'ExchangeOut',
});

/** With the customer: the customer's goods come back in (ExchangeIn), the replacements go out (ExchangeOut). */
export const SaleExchange = exchangeBill({
  type: 'SaleExchange',
  label: { zh: '销售换货', en: 'Sale exchange' },
  area: 'sale',
  codePrefix: 'XSHH',
  partner: HEADER.customerId,
  refund: 'SaleRefund',
  taking: 'ExchangeIn',
});

/** Who borrowed the goods of a lend (a person or company outside the records): kept in the bill's `extra`. */
const borrower: FieldDecl = {
  key: 'borrower',
  label: { zh: '借出对象', en: 'Borrower' },
  kind: 'text',
  schema: storableText().trim().min(1, { message: 'PleaseInputName' }).max(100),
  required: 'PleaseInputName',
  list: true,
  search: 'contains',
  width: 150,
};

export const StockLend: BillTypeDecl = {
  type: 'StockLend',
  label: { zh: '借出单', en: 'Stock lend' },
  area: 'stock',
  route: 'lend',
  codePrefix: 'JC',
  icon: 'SwapRightOutlined',
  header: [borrower, HEADER.warehouseId, HEADER.handlerId, HEADER.deliveryDate],
  lines: [...PLACED, LINE.unitPrice, LINE.priceTotal],
  sources: [],
  stock: 'out',
  valuation: { out: 'average' },
  postings: PENDING_DISPOSAL,
  progress: ['return'],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: LEND_ACTIONS,
};

export const StockLendReturn: BillTypeDecl = {
  type: 'StockLendReturn',
  label: { zh: '借出归还', en: 'Lend return' },
  area: 'stock',
  route: 'lendReturn',
  codePrefix: 'JCGH',
  icon: 'SwapLeftOutlined',
  header: [borrower, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED, LINE.unitPrice, LINE.priceTotal],
  sources: [{ type: 'StockLend', drives: 'return', header: ['borrower', 'warehouseId'], lines: ['unitPrice', ...PLACE_KEYS] }],
  stock: 'in',
  // Back at the cost the lend took out.
  valuation: { in: 'source' },
  postings: PENDING_DISPOSAL,
  progress: [],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const StockTransfer: BillTypeDecl = {
  type: 'StockTransfer',
  label: { zh: '调拨单', en: 'Transfer' },
  area: 'stock',
  route: 'transfer',
  codePrefix: 'DB',
  icon: 'SwapOutlined',
  header: [{ ...HEADER.warehouseId, label: { zh: '调出仓库', en: 'Transfer-out warehouse' }, required: 'PleaseSelectTransferOutWarehouse' }, HEADER.targetWarehouseId, HEADER.handlerId],
  lines: [
    { ...LINE.warehouseId, label: { zh: '调出仓库', en: 'Transfer-out warehouse' } },
    { ...LINE.locationId, label: { zh: '调出库位', en: 'Transfer-out location' } },
    LINE.targetWarehouseId,
    LINE.targetLocationId,
    LINE.batchNumber,
    LINE.expirationDate,
    LINE.serialNumbers,
  ],
  sources: [],
  stock: 'transfer',
  valuation: { in: 'taken', out: 'average' },
  postings: PENDING_DISPOSAL,
  progress: [],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const StockCheck: BillTypeDecl = {
  type: 'StockCheck',
  label: { zh: '盘点单', en: 'Stock check' },
  area: 'stock',
  route: 'check',
  codePrefix: 'PD',
  icon: 'CheckSquareOutlined',
  header: [{ ...HEADER.warehouseId, required: 'PleaseSelectWarehouse' }, HEADER.handlerId],
  lines: [
    LINE.warehouseId,
    LINE.locationId,
    LINE.batchNumber,
    LINE.bookNumber,
    // The counted quantity: 0 when nothing was found.
    { ...LINE.number, label: { zh: '盘点数量', en: 'Counted quantity' }, schema: quantitySchema },
    LINE.unitPrice,
  ],
  sources: [],
  stock: 'check',
  // A gain at the line's unit price (none: the current average); a loss at the average.
  valuation: { in: 'price', out: 'average' },
  postings: { stock: { counter: { in: 'stockGain', out: 'stockLoss' } } },
  progress: [],
  switches: ['openBatchNumber'],
  actions: STOCK_ACTIONS,
};

export const StockAssembly: BillTypeDecl = {
  type: 'Assembly',
  label: { zh: '组装拆卸', en: 'Assembly and disassembly' },
  area: 'stock',
  route: 'assembly',
  codePrefix: 'ZZ',
  icon: 'BuildOutlined',
  header: [HEADER.assemblyType, HEADER.warehouseId, HEADER.handlerId],
  lines: [LINE.direction, ...PLACED, LINE.unitPrice, LINE.priceTotal],
  sources: [],
  stock: 'assembly',
  valuation: { in: 'taken', out: 'average' },
  postings: PENDING_DISPOSAL,
  progress: [],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const OtherInstock: BillTypeDecl = {
  type: 'OtherInstock',
  label: { zh: '其他入库', en: 'Other in-stock' },
  area: 'stock',
  route: 'otherInstock',
  codePrefix: 'QTRK',
  icon: 'LoginOutlined',
  header: [optional(HEADER.supplierId), HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED, LINE.unitPrice, LINE.priceTotal],
  sources: [],
  stock: 'in',
  valuation: { in: 'price' },
  postings: PENDING_DISPOSAL,
  progress: [],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const OtherOutstock: BillTypeDecl = {
  type: 'OtherOutstock',
  label: { zh: '其他出库', en: 'Other out-stock' },
  area: 'stock',
  route: 'otherOutstock',
  codePrefix: 'QTCK',
  icon: 'LogoutOutlined',
  header: [optional(HEADER.customerId), HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED, LINE.unitPrice, LINE.priceTotal],
  sources: [],
  stock: 'out',
  valuation: { out: 'average' },
  postings: PENDING_DISPOSAL,
  progress: [],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

/** The supply chain in menu order. */
export const SUPPLY_CHAIN_BILLS: readonly BillTypeDecl[] = [
  PurchaseRequisition,
  PurchaseOrder,
  PurchaseInstock,
  PurchaseRefund,
  PurchaseExchange,
  SaleQuotation,
  SaleOrder,
  SaleShip,
  SaleOutstock,
  SaleRefund,
  SaleExchange,
  StockLend,
  StockLendReturn,
  StockTransfer,
  StockCheck,
  StockAssembly,
  OtherInstock,
  OtherOutstock,
];
