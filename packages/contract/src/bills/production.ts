import { z } from 'zod';
import { HEADER, LINE, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillAction, type BillPostingsDecl, type BillTypeDecl, type FieldCondition } from './registry.ts';
import type { Label } from './status.ts';
import { PLACED, PLACE_KEYS } from './supply-chain.ts';

/**
 * The production bills (docs/production.md): a production order names the products to make and the
 * materials they consume, on lines of two roles; production picks take its materials out of stock into
 * work in progress, production returns bring what was not used back, and completion in-stocks take its
 * products into stock at the work in progress they absorbed. Data only, like every declaration.
 */

/** The two roles of a production order's lines. */
export const ProductionLineRole = ['Product', 'Material'] as const;
export type ProductionLineRole = (typeof ProductionLineRole)[number];
export const PRODUCTION_LINE_ROLE_LABELS: Record<ProductionLineRole, Label> = {
  Product: { zh: '产品', en: 'Product' },
  Material: { zh: '用料', en: 'Material' },
};

/** A production order line's role: a product it makes or a material it consumes (kept in the line's `extra`). */
const role: FieldDecl = {
  key: 'role',
  label: { zh: '行类型', en: 'Line role' },
  kind: 'enum',
  schema: z.enum(ProductionLineRole, { error: 'PleaseSelectLineRole' }),
  required: 'PleaseSelectLineRole',
  options: ProductionLineRole.map((value) => ({ value, label: PRODUCTION_LINE_ROLE_LABELS[value] })),
  width: 90,
};

/**
 * The BOM a product line is made by (one of its material's BOMs). An order saved with products and no
 * materials takes its materials from these BOMs (the production module's save rule).
 */
const bom: FieldDecl = { key: 'bomId', label: { zh: 'BOM', en: 'BOM' }, kind: 'record', ref: 'bom', within: 'materialId', schema: z.number().int().positive(), width: 140 };

/** Which lines of a production order each downstream type takes. */
export const PRODUCTION_LINES = {
  products: { field: 'role', values: ['Product'] },
  materials: { field: 'role', values: ['Material'] },
} as const satisfies Record<string, FieldCondition>;

/** The workshop that makes it: the department of the order, copied to its picks and completions. */
const workshop: FieldDecl = { ...HEADER.deptId, label: { zh: '生产车间', en: 'Workshop' }, list: true };
const plannedFinish: FieldDecl = { ...HEADER.deliveryDate, label: { zh: '计划完工日期', en: 'Planned finish' } };

/** Material moved between stock and work in progress: Dr 5001 / Cr 1405 out, the other way in. */
const WORK_IN_PROGRESS: BillPostingsDecl = { stock: { counter: 'workInProgress' } };

const ORDER_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'manualCompletion', 'import', 'export', 'print'];
/** Bills made from an order's lines only: no import (a workbook names no source line). */
const STOCK_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

export const ProductionOrder: BillTypeDecl = {
  type: 'ProductionOrder',
  label: { zh: '生产订单', en: 'Production order' },
  area: 'production',
  route: 'order',
  codePrefix: 'SCDD',
  icon: 'ToolOutlined',
  header: [workshop, HEADER.handlerId, plannedFinish, HEADER.deliveryWarnDays],
  lines: [role, bom, LINE.warehouseId],
  // Its quantity is what it makes.
  totalsOf: PRODUCTION_LINES.products,
  sources: [
    {
      // Made to order (按单生产): the sale order's goods are the products, made by the BOM the order chose.
      // Apart: putting goods into production does not use up what the order may still ship.
      type: 'SaleOrder',
      drives: 'production',
      apart: true,
      header: ['deliveryDate'],
      lines: ['bomId'],
      lineDefaults: { role: 'Product' },
    },
  ],
  stock: 'none',
  postings: POSTS_NOTHING,
  // Its status follows the products completed (the first kind); the materials show what was picked.
  progress: ['instock', 'pick'],
  switches: ['allowProductionInstockBeyond', 'allowProductionClaimBeyond', 'completionNeedAllPickOutstock'],
  actions: ORDER_ACTIONS,
};

export const ProductionPick: BillTypeDecl = {
  type: 'ProductionPick',
  label: { zh: '生产领料', en: 'Production pick' },
  area: 'production',
  route: 'pick',
  codePrefix: 'SCLL',
  icon: 'ExportOutlined',
  header: [workshop, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [
    {
      type: 'ProductionOrder',
      drives: 'pick',
      fromLines: PRODUCTION_LINES.materials,
      header: ['deptId'],
      lines: ['warehouseId'],
      beyondSwitch: 'allowProductionClaimBeyond',
    },
  ],
  // What is picked is charged to its order's work in progress: a pick names the order.
  sourceRequired: true,
  stock: 'out',
  valuation: { out: 'average' },
  postings: WORK_IN_PROGRESS,
  progress: ['return'],
  switches: ['allowProductionClaimBeyond', 'openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const ProductionReturn: BillTypeDecl = {
  type: 'ProductionReturn',
  label: { zh: '生产退料', en: 'Production return' },
  area: 'production',
  route: 'return',
  codePrefix: 'SCTL',
  icon: 'RollbackOutlined',
  header: [workshop, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [{ type: 'ProductionPick', drives: 'return', header: ['deptId', 'warehouseId'], lines: PLACE_KEYS }],
  sourceRequired: true,
  stock: 'in',
  // Back at the cost the pick took it out at, off the order's work in progress.
  valuation: { in: 'source' },
  postings: WORK_IN_PROGRESS,
  progress: [],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

export const ProductionInstock: BillTypeDecl = {
  type: 'ProductionInstock',
  label: { zh: '完工入库', en: 'Completion in-stock' },
  area: 'production',
  route: 'instock',
  codePrefix: 'WGRK',
  icon: 'ImportOutlined',
  header: [workshop, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [
    {
      type: 'ProductionOrder',
      drives: 'instock',
      fromLines: PRODUCTION_LINES.products,
      header: ['deptId'],
      lines: ['warehouseId'],
      beyondSwitch: 'allowProductionInstockBeyond',
    },
  ],
  sourceRequired: true,
  stock: 'in',
  valuation: { in: 'workInProgress' },
  postings: WORK_IN_PROGRESS,
  progress: [],
  switches: ['allowProductionInstockBeyond', 'completionNeedAllPickOutstock', 'openBatchNumber', 'openSerialNumber'],
  actions: STOCK_ACTIONS,
};

/** Production in menu order. */
export const PRODUCTION_BILLS: readonly BillTypeDecl[] = [ProductionOrder, ProductionPick, ProductionReturn, ProductionInstock];
