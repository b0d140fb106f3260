import { z } from 'zod';
import { HEADER, LINE, quantitySchema, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillAction, type BillPostingsDecl, type BillTypeDecl, type FieldCondition } from './registry.ts';
import { PRODUCTION_LINE_ROLE_LABELS, MRP_LINES } from './production.ts';
import { exchangeBill, PLACED, PLACE_KEYS, PRICED, PRICE_KEYS, REFUND_RULES, STOCK_ACTIONS } from './supply-chain.ts';

/**
 * The outsourcing bills (委外, docs/outsourcing.md): a supplier makes a product of ours by its BOM from materials
 * we send, for a processing fee. The order names the product (one line) and the materials its BOM needs; picks
 * send materials to the supplier, returns bring unused ones back; completion in-stocks receive the product —
 * accepted into stock, rejected left with the supplier, scrapped — consuming the materials at the supplier in
 * proportion to what came back, valued at those materials plus the fee (the outsourcing module's valuation
 * rule); refunds send received goods back, exchanges replace them. Data only, like every declaration.
 */

/** The roles of an outsourcing order's lines: the product the supplier makes, the materials we send for it. */
export const OutsourcingLineRole = ['Product', 'Material'] as const;
export type OutsourcingLineRole = (typeof OutsourcingLineRole)[number];

const role: FieldDecl = {
  key: 'role',
  label: { zh: '行类型', en: 'Line role' },
  kind: 'enum',
  schema: z.enum(OutsourcingLineRole, { error: 'PleaseSelectLineRole' }),
  required: 'PleaseSelectLineRole',
  options: OutsourcingLineRole.map((value) => ({ value, label: PRODUCTION_LINE_ROLE_LABELS[value] })),
  width: 110,
};

const bom: FieldDecl = { key: 'bomId', label: { zh: 'BOM', en: 'BOM' }, kind: 'record', ref: 'bom', within: 'materialId', schema: z.number().int().positive(), width: 140 };

/** Which lines of an outsourcing order each downstream type takes. */
export const OUTSOURCING_LINES = {
  products: { field: 'role', values: ['Product'] },
  materials: { field: 'role', values: ['Material'] },
} as const satisfies Record<string, FieldCondition>;

/** A receipt's goods the supplier must make again (not taken into stock, no fee): they stay the supplier's problem. */
const rejectedNumber: FieldDecl = { key: 'rejectedNumber', label: { zh: '拒收数量', en: 'Rejected' }, kind: 'quantity', schema: quantitySchema, width: 100 };
/** A receipt's goods scrapped in processing: their materials are consumed, no fee is paid for them. */
const scrapNumber: FieldDecl = { key: 'scrapNumber', label: { zh: '报废数量', en: 'Scrapped' }, kind: 'quantity', schema: quantitySchema, width: 100 };

/** Materials between our stock and the supplier: Dr 1408 materials at suppliers / Cr 1405 when sent, back the other way. */
const AT_SUPPLIER: BillPostingsDecl = { stock: { counter: 'outsourcedMaterials' } };
/**
 * A receipt (and its refund): the fee is payable, Dr 1405 / Cr 2202 by the tax-inclusive amount, the tax to input
 * VAT; the stock's value beyond the fee is the materials it consumed, off 1408. A refund's goods go back at the
 * cost they came in at: the fee off the payable, the rest — the materials in them — back onto 1408, as the
 * outsourcing module gives them back to the supplier's holding. A refund of money only (no goods) is a price
 * allowance, against 6401 as a purchase's.
 */
const RECEIPT_POSTINGS: BillPostingsDecl = {
  stock: { counter: 'outsourcedMaterials', tax: 'inputVat' },
  money: { kind: 'partner', partner: 'payable', counter: 'inventory' },
};
const REFUND_POSTINGS: BillPostingsDecl = {
  stock: { counter: 'costOfGoodsSold', counterWhen: { when: REFUND_RULES.stock, counter: 'outsourcedMaterials' }, tax: 'inputVat' },
  money: { kind: 'partner', partner: 'payable', counter: 'inventory' },
};

const ORDER_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'manualCompletion', 'import', 'export', 'print'];
const SOURCED_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

export const OutsourcingOrder: BillTypeDecl = {
  type: 'OutsourcingOrder',
  label: { zh: '委外订单', en: 'Outsourcing order' },
  area: 'outsourcing',
  route: 'order',
  codePrefix: 'WWDD',
  icon: 'ShareAltOutlined',
  header: [HEADER.supplierId, HEADER.handlerId, HEADER.deptId, HEADER.deliveryDate, HEADER.deliveryWarnDays, HEADER.payDate, HEADER.payWarnDays],
  // The product line's price is the processing fee per piece; the materials carry none.
  lines: [role, bom, LINE.warehouseId, ...PRICED],
  totalsOf: OUTSOURCING_LINES.products,
  sources: [
    // An MRP plan's suggestions to outsource (materials tagged `outsource` that have a BOM).
    { type: 'MrpPlan', drives: 'push', fromLines: MRP_LINES.outsourcings, header: ['deptId'], lines: ['bomId'], lineDefaults: { role: 'Product' } },
  ],
  stock: 'none',
  postings: POSTS_NOTHING,
  // Its status follows the product received (the first kind); the materials show what was sent, and the product
  // how much of it incoming inspections have looked at.
  progress: ['instock', 'pick', 'inspection'],
  switches: ['allowOutsourcingPickBeyond', 'allowOutsourcingInstockBeyond', 'openTaxRate', 'openDiscount'],
  actions: ORDER_ACTIONS,
};

export const OutsourcingPick: BillTypeDecl = {
  type: 'OutsourcingPick',
  label: { zh: '委外领料', en: 'Outsourcing pick' },
  area: 'outsourcing',
  route: 'pick',
  codePrefix: 'WWLL',
  icon: 'ExportOutlined',
  header: [HEADER.supplierId, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [
    {
      type: 'OutsourcingOrder',
      drives: 'pick',
      fromLines: OUTSOURCING_LINES.materials,
      header: ['supplierId'],
      lines: ['warehouseId'],
      beyondSwitch: 'allowOutsourcingPickBeyond',
    },
  ],
  // What is sent is held for its order: a pick names the order.
  sourceRequired: true,
  stock: 'out',
  valuation: { out: 'average' },
  postings: AT_SUPPLIER,
  progress: ['return'],
  switches: ['allowOutsourcingPickBeyond', 'openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

export const OutsourcingReturn: BillTypeDecl = {
  type: 'OutsourcingReturn',
  label: { zh: '委外退料', en: 'Outsourcing material return' },
  area: 'outsourcing',
  route: 'return',
  codePrefix: 'WWTL',
  icon: 'RollbackOutlined',
  header: [HEADER.supplierId, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [{ type: 'OutsourcingPick', drives: 'return', header: ['supplierId', 'warehouseId'], lines: PLACE_KEYS }],
  sourceRequired: true,
  stock: 'in',
  // Back at the cost the pick sent it at.
  valuation: { in: 'source' },
  postings: AT_SUPPLIER,
  progress: [],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

export const OutsourcingInstock: BillTypeDecl = {
  type: 'OutsourcingInstock',
  label: { zh: '委外入库', en: 'Outsourcing receipt' },
  area: 'outsourcing',
  route: 'instock',
  codePrefix: 'WWRK',
  icon: 'ImportOutlined',
  header: [HEADER.supplierId, HEADER.warehouseId, HEADER.handlerId, HEADER.payDate, HEADER.payWarnDays],
  // The quantity is what was accepted into stock; the price the processing fee per piece.
  lines: [...PLACED, rejectedNumber, scrapNumber, ...PRICED],
  sources: [
    {
      type: 'OutsourcingOrder',
      drives: 'instock',
      fromLines: OUTSOURCING_LINES.products,
      header: ['supplierId', 'handlerId', 'payDate', 'payWarnDays'],
      lines: [...PRICE_KEYS, 'warehouseId'],
      beyondSwitch: 'allowOutsourcingInstockBeyond',
      // What came back consumes what the picks sent.
      consumes: 'pick',
      // Where the product's template says so, only what its incoming inspections accepted comes in.
      inspectedBy: 'IncomingInspection',
    },
  ],
  sourceRequired: true,
  stock: 'in',
  valuation: { in: 'rule' },
  settlement: { kind: 'payable', sign: 1 },
  postings: RECEIPT_POSTINGS,
  progress: ['refund', 'settlement', 'invoice'],
  switches: ['allowOutsourcingInstockBeyond', 'openBatchNumber', 'openSerialNumber', 'openTaxRate', 'openDiscount'],
  actions: SOURCED_ACTIONS,
};

export const OutsourcingRefund: BillTypeDecl = {
  type: 'OutsourcingRefund',
  label: { zh: '委外退货', en: 'Outsourcing refund or exchange' },
  area: 'outsourcing',
  route: 'refund',
  codePrefix: 'WWTH',
  icon: 'RollbackOutlined',
  header: [HEADER.supplierId, HEADER.refundType, HEADER.warehouseId, HEADER.handlerId, HEADER.receiptDate, HEADER.receiptWarnDays],
  lines: [...PLACED, ...PRICED],
  sources: [{ type: 'OutsourcingInstock', drives: 'refund', drivesWhen: REFUND_RULES.goodsBack, header: ['supplierId', 'warehouseId'], lines: [...PRICE_KEYS, ...PLACE_KEYS] }],
  sourceRequired: true,
  stock: 'out',
  stockWhen: REFUND_RULES.stock,
  // Back to the supplier at the cost the receipt brought it in at (materials and fee).
  valuation: { out: 'source' },
  settlement: { kind: 'payable', sign: -1 },
  settlementWhen: REFUND_RULES.money,
  postings: REFUND_POSTINGS,
  progress: ['exchange', 'settlement', 'invoice'],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS.filter((a) => a !== 'import'),
};

/** The goods refunded for an exchange go out to the supplier (ExchangeOut), the replacements come in (ExchangeIn). */
export const OutsourcingExchange = exchangeBill({
  type: 'OutsourcingExchange',
  label: { zh: '委外换货', en: 'Outsourcing exchange' },
  area: 'outsourcing',
  codePrefix: 'WWHH',
  partner: HEADER.supplierId,
  refund: 'OutsourcingRefund',
  taking: 'ExchangeOut',
});

/** Outsourcing in menu order. */
export const OUTSOURCING_BILLS: readonly BillTypeDecl[] = [OutsourcingOrder, OutsourcingPick, OutsourcingReturn, OutsourcingInstock, OutsourcingRefund, OutsourcingExchange];
