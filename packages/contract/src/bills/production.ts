import { z } from 'zod';
import { dateSchema, HEADER, LINE, quantitySchema, type FieldDecl } from './fields.ts';
import { storableText } from '../text.ts';
import { POSTS_NOTHING, type BillAction, type BillPostingsDecl, type BillTypeDecl, type FieldCondition } from './registry.ts';
import type { Label } from './status.ts';
import { PLACED, PLACE_KEYS } from './supply-chain.ts';
import { salaryPeriod } from './salary.ts';
import { BOM_ITEM_TYPE_LABELS, BomItemType } from '../basic.ts';

/**
 * The production bills (docs/production.md): a production order names the products to make and the
 * materials they consume, on lines of two roles; production picks take its materials out of stock into
 * work in progress, production returns bring what was not used back, and completion in-stocks take its
 * products into stock at the work in progress they absorbed. Data only, like every declaration.
 */

/** The roles of a production order's lines: what it makes, what that consumes, the process steps it goes through. */
export const ProductionLineRole = ['Product', 'Material', 'Process'] as const;
export type ProductionLineRole = (typeof ProductionLineRole)[number];
export const PRODUCTION_LINE_ROLE_LABELS: Record<ProductionLineRole, Label> = {
  Product: { zh: '产品', en: 'Product' },
  Material: { zh: '用料', en: 'Material' },
  Process: { zh: '工序', en: 'Process' },
};

/**
 * A production order line's role (kept in the line's `extra`): a product it makes, a material it consumes, or
 * a process step of a product (its material and quantity the product's, its process, team and piece rate).
 */
const role: FieldDecl = {
  key: 'role',
  label: { zh: '行类型', en: 'Line role' },
  kind: 'enum',
  schema: z.enum(ProductionLineRole, { error: 'PleaseSelectLineRole' }),
  required: 'PleaseSelectLineRole',
  options: ProductionLineRole.map((value) => ({ value, label: PRODUCTION_LINE_ROLE_LABELS[value] })),
  width: 120,
};

/**
 * The BOM a product line is made by (one of its material's BOMs). An order saved with products and no
 * materials takes its materials from these BOMs (the production module's save rule).
 */
const bom: FieldDecl = { key: 'bomId', label: { zh: 'BOM', en: 'BOM' }, kind: 'record', ref: 'bom', within: 'materialId', schema: z.number().int().positive(), width: 140 };

/**
 * The product a material line is for, when the order makes several: the order's own product it goes into.
 * Set when the order takes its materials from the products' BOMs, chosen by hand otherwise; the month-end cost
 * run charges what is picked for the line to that product, and shares a line for none by the products' quantity.
 */
const forProduct: FieldDecl = {
  key: 'productId',
  label: { zh: '所属产品', en: 'For product' },
  kind: 'record',
  ref: 'material',
  schema: z.number().int().positive(),
  ofLines: { lines: { field: 'role', values: ['Product'] }, refusal: 'MaterialProductNotOnOrder' },
  width: 180,
};

/**
 * 子项类型 of a production order's material line, from its BOM line: a standard part, or a consumable (耗材) that
 * the order's picks may take beyond its requirement while the tenant's `openConsumablesOutstock` is on.
 */
const itemType: FieldDecl = {
  key: 'itemType',
  label: { zh: '子项类型', en: 'Item type' },
  kind: 'enum',
  schema: z.enum(BomItemType, { error: 'ParamError' }),
  options: BomItemType.map((value) => ({ value, label: BOM_ITEM_TYPE_LABELS[value] })),
  width: 136,
};

/** Which lines of a production order each downstream type takes. */
export const PRODUCTION_LINES = {
  products: { field: 'role', values: ['Product'] },
  materials: { field: 'role', values: ['Material'] },
  processes: { field: 'role', values: ['Process'] },
} as const satisfies Record<string, FieldCondition>;

/**
 * The roles of an MRP plan's lines: the demand it plans for, and what it suggests — to buy (a purchase
 * requisition) or to make (a production order).
 */
export const MrpLineRole = ['Demand', 'Purchase', 'Produce', 'Outsource'] as const;
/** The planning periods a run groups requirements by (`planBucket`, default week). */
export const MrpBucket = ['day', 'week', 'month'] as const;
export type MrpBucket = (typeof MrpBucket)[number];
export type MrpLineRole = (typeof MrpLineRole)[number];

/** Which lines of an MRP plan each downstream type takes. */
export const MRP_LINES = {
  demands: { field: 'mrpRole', values: ['Demand'] },
  suggestions: { field: 'mrpRole', values: ['Purchase', 'Produce', 'Outsource'] },
  purchases: { field: 'mrpRole', values: ['Purchase'] },
  productions: { field: 'mrpRole', values: ['Produce'] },
  outsourcings: { field: 'mrpRole', values: ['Outsource'] },
} as const satisfies Record<string, FieldCondition>;

/** A process step's process (a production order's process lines, a report's lines). */
const processStep: FieldDecl = { key: 'processId', label: { zh: '工序', en: 'Process' }, kind: 'record', ref: 'process', schema: z.number().int().positive(), width: 150 };
const team: FieldDecl = { key: 'teamId', label: { zh: '班组', en: 'Work team' }, kind: 'record', ref: 'team', schema: z.number().int().positive(), width: 130 };
/** The staff member doing a step (a report's, a dispatch's, piece-rate accounting's line). */
const worker: FieldDecl = { ...LINE.staffId, label: { zh: '操作工', en: 'Worker' }, required: undefined };
/** The machine a step runs on (a dispatch's, a report's line). */
const machine: FieldDecl = { key: 'equipmentId', label: { zh: '设备', en: 'Machine' }, kind: 'record', ref: 'equipment', schema: z.number().int().positive(), width: 150 };
/** What a worker earns per good piece of the step (the routing step's, else the process's). */
const pieceRate: FieldDecl = { ...LINE.unitPrice, label: { zh: '计件单价', en: 'Piece rate' } };

/**
 * What a process report line counts of its step (工序汇报, as 金蝶 / 用友 report a step): the **good** pieces (the
 * line's quantity) pass to the next step and earn the piece rate; the **scrapped** ones leave production (a waste
 * in-stock takes them); the **rework** pieces (返工) neither pass on nor leave: they go back to the step and are
 * reported again there once reworked, so they never use up what the step may report, and they earn nothing. A
 * line reports any of the three (a line of rework only has no good pieces). The reportable-quantity rule (the
 * production module's `reportsFollowSteps`), the order's step figures and the shop-floor screen read these keys.
 */
export const REPORT_QUANTITIES = { good: 'number', scrap: 'scrapNumber', rework: 'reworkNumber' } as const;

/** A production order step's figures, tallied from its audited reports (`SourceDecl.tallies`). */
const reported = (key: string, zh: string, en: string): FieldDecl => ({ key, label: { zh, en }, kind: 'quantity', schema: quantitySchema, readOnly: true, width: 100 });
const STEP_TALLIES = { reportedGood: REPORT_QUANTITIES.good, reportedScrap: REPORT_QUANTITIES.scrap, reportedRework: REPORT_QUANTITIES.rework } as const;

/** The workshop that makes it: the department of the order, copied to its picks and completions. */
const workshop: FieldDecl = { ...HEADER.deptId, label: { zh: '生产车间', en: 'Workshop' }, list: true };
const plannedFinish: FieldDecl = { ...HEADER.deliveryDate, label: { zh: '计划完工日期', en: 'Planned finish' } };

/**
 * The customer an order machines for (受托加工, with `openEntrustMachining`): its picks may take that customer's
 * materials from its consignment warehouse (at no value) and its returns put them back there.
 */
const entrustingCustomer: FieldDecl = {
  ...HEADER.customerId,
  label: { zh: '受托客户', en: 'Machining for' },
  required: undefined,
  switch: 'openEntrustMachining',
  offRefusal: 'EntrustMachiningNotOpen',
  width: 160,
};

/** Material moved between stock and work in progress: Dr 5001 / Cr 1405 out, the other way in. */
const WORK_IN_PROGRESS: BillPostingsDecl = { stock: { counter: 'workInProgress' } };

const ORDER_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'manualCompletion', 'import', 'export', 'print'];
/** Bills made from an order's lines only: no import (a workbook names no source line). */
const SOURCED_ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

export const ProductionOrder: BillTypeDecl = {
  type: 'ProductionOrder',
  label: { zh: '生产订单', en: 'Production order' },
  area: 'production',
  route: 'order',
  codePrefix: 'SCDD',
  icon: 'ToolOutlined',
  header: [workshop, entrustingCustomer, HEADER.handlerId, plannedFinish, HEADER.deliveryWarnDays],
  lines: [
    role,
    bom,
    forProduct,
    itemType,
    LINE.warehouseId,
    processStep,
    team,
    pieceRate,
    // A step's audited reports: what it passed on, scrapped and sent back for rework.
    reported('reportedGood', '已报合格', 'Reported good'),
    reported('reportedScrap', '已报报废', 'Reported scrap'),
    reported('reportedRework', '返工数量', 'Rework'),
  ],
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
    // An MRP plan's suggestions to make: each becomes a product, made by the BOM the plan exploded.
    { type: 'MrpPlan', drives: 'push', fromLines: MRP_LINES.productions, header: ['deptId'], lines: ['bomId'], lineDefaults: { role: 'Product' } },
  ],
  stock: 'none',
  postings: POSTS_NOTHING,
  // Its status follows the products completed (the first kind); the materials show what was picked, the
  // process steps what was reported and dispatched.
  progress: ['instock', 'pick', 'report', 'dispatch', 'inspection'],
  switches: ['allowProductionInstockBeyond', 'allowProductionClaimBeyond', 'completionNeedAllPickOutstock', 'openEntrustMachining'],
  actions: ORDER_ACTIONS,
};

export const ProductionPick: BillTypeDecl = {
  type: 'ProductionPick',
  label: { zh: '生产领料', en: 'Production pick' },
  area: 'production',
  route: 'pick',
  codePrefix: 'SCLL',
  icon: 'ExportOutlined',
  header: [workshop, entrustingCustomer, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [
    {
      type: 'ProductionOrder',
      drives: 'pick',
      closedRefusal: 'ProductionOrderCompleted',
      fromLines: PRODUCTION_LINES.materials,
      header: ['deptId', 'customerId'],
      lines: ['warehouseId'],
      beyondSwitch: 'allowProductionClaimBeyond',
      // Consumables (耗材) are picked as the work uses them, more than the BOM said if need be.
      freeLines: { lines: { field: 'itemType', values: ['Consumable'] }, switch: 'openConsumablesOutstock' },
    },
  ],
  // What is picked is charged to its order's work in progress: a pick names the order.
  sourceRequired: true,
  stock: 'out',
  valuation: { out: 'average' },
  postings: WORK_IN_PROGRESS,
  costRun: {},
  progress: ['return'],
  switches: ['allowProductionClaimBeyond', 'openEntrustMachining', 'openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

export const ProductionReturn: BillTypeDecl = {
  type: 'ProductionReturn',
  label: { zh: '生产退料', en: 'Production return' },
  area: 'production',
  route: 'return',
  codePrefix: 'SCTL',
  icon: 'RollbackOutlined',
  header: [workshop, entrustingCustomer, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [{ type: 'ProductionPick', drives: 'return', header: ['deptId', 'customerId', 'warehouseId'], lines: PLACE_KEYS }],
  sourceRequired: true,
  stock: 'in',
  // Back at the cost the pick took it out at, off the order's work in progress.
  valuation: { in: 'source' },
  postings: WORK_IN_PROGRESS,
  costRun: {},
  progress: [],
  switches: ['openEntrustMachining', 'openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

/**
 * Consumables issue (耗材出库): oil, gloves, cutting fluid and the like taken out of stock by a workshop for
 * production in general, not for one order — in use only with the tenant's `openConsumablesOutstock`, and only
 * for materials tagged consumables. Out at the moving average into manufacturing overhead (Dr 5101 / Cr 1405),
 * which the month-end cost run allocates over the month's orders with the rest of the overhead.
 */
export const ConsumablesOutstock: BillTypeDecl = {
  type: 'ConsumablesOutstock',
  label: { zh: '耗材出库', en: 'Consumables issue' },
  area: 'production',
  route: 'consumables',
  codePrefix: 'HCCK',
  icon: 'ExperimentOutlined',
  header: [{ ...workshop, required: 'PleaseSelectDept' }, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [],
  opensWith: { switch: 'openConsumablesOutstock', refusal: 'ConsumablesOutstockNotOpen' },
  materialTag: { tag: 'consumables', refusal: 'MaterialNotConsumables' },
  stock: 'out',
  valuation: { out: 'average' },
  postings: { stock: { counter: 'manufacturingOverhead' } },
  // Overhead of its month: not audited into a costed month.
  costRun: {},
  progress: [],
  switches: ['openConsumablesOutstock', 'openNegativeInventory'],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'import', 'export', 'print'],
};

const ENTRUST_OPEN = { switch: 'openEntrustMachining', refusal: 'EntrustMachiningNotOpen' } as const;
/**
 * A customer's materials move at no value, so their stock postings are empty; the counter a value would post
 * against is the suspense account (待处理财产损溢), where any value that ever came would stand out.
 */
const NO_VALUE: BillPostingsDecl = { stock: { counter: 'pendingDisposal' } };

/**
 * Entrusted-machining receipt (受托加工收料): a customer's own materials received for machining, into that
 * customer's consignment warehouse (a warehouse naming the customer) at no value — they are not the company's
 * stock and post nothing to the ledger. Orders machining for the customer pick them (at no value) into their
 * work in progress; what is left goes back on an entrusted-machining return. The finished goods carry only the
 * company's own cost (its materials, labour, overhead) and go to the customer on a sale out-stock priced at the
 * processing fee, which a sale invoice bills.
 */
export const EntrustReceipt: BillTypeDecl = {
  type: 'EntrustReceipt',
  label: { zh: '受托加工收料', en: 'Entrusted materials receipt' },
  area: 'production',
  route: 'entrustReceipt',
  codePrefix: 'STSL',
  icon: 'InboxOutlined',
  header: [HEADER.customerId, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [],
  opensWith: ENTRUST_OPEN,
  customerStock: true,
  stock: 'in',
  valuation: { in: 'nothing' },
  // At no value nothing is posted: the customer's materials are not the company's.
  postings: NO_VALUE,
  progress: ['return'],
  switches: ['openEntrustMachining', 'openBatchNumber', 'openSerialNumber'],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'import', 'export', 'print'],
};

/** Entrusted-machining return (受托加工退料): the customer's unused materials sent back from its consignment warehouse. */
export const EntrustReturn: BillTypeDecl = {
  type: 'EntrustReturn',
  label: { zh: '受托加工退料', en: 'Entrusted materials return' },
  area: 'production',
  route: 'entrustReturn',
  codePrefix: 'STTL',
  icon: 'RollbackOutlined',
  header: [HEADER.customerId, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED],
  sources: [{ type: 'EntrustReceipt', drives: 'return', header: ['customerId', 'warehouseId'], lines: PLACE_KEYS }],
  sourceRequired: true,
  opensWith: ENTRUST_OPEN,
  customerStock: true,
  stock: 'out',
  valuation: { out: 'average' },
  postings: NO_VALUE,
  progress: [],
  switches: ['openEntrustMachining', 'openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
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
      closedRefusal: 'ProductionOrderCompleted',
      fromLines: PRODUCTION_LINES.products,
      header: ['deptId'],
      lines: ['warehouseId'],
      beyondSwitch: 'allowProductionInstockBeyond',
      inspectedBy: 'FinishedInspection',
    },
  ],
  sourceRequired: true,
  stock: 'in',
  valuation: { in: 'workInProgress' },
  postings: WORK_IN_PROGRESS,
  costRun: {},
  progress: [],
  switches: ['allowProductionInstockBeyond', 'completionNeedAllPickOutstock', 'openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

export const ProcessReport: BillTypeDecl = {
  type: 'ProcessReport',
  label: { zh: '工序汇报', en: 'Process report' },
  area: 'production',
  route: 'report',
  codePrefix: 'GXHB',
  icon: 'FormOutlined',
  header: [workshop, HEADER.handlerId],
  lines: [
    { ...processStep, required: 'PleaseSelectProcess' },
    // The good pieces; 0 on a line that reports only scrap or rework (`REPORT_QUANTITIES`).
    { ...LINE.number, label: { zh: '合格数量', en: 'Good' }, schema: quantitySchema },
    team,
    worker,
    { key: REPORT_QUANTITIES.scrap, label: { zh: '报废数量', en: 'Scrapped' }, kind: 'quantity', schema: quantitySchema, width: 100 },
    { key: REPORT_QUANTITIES.rework, label: { zh: '返工数量', en: 'Rework' }, kind: 'quantity', schema: quantitySchema, width: 100 },
    { key: 'hours', label: { zh: '工时', en: 'Hours' }, kind: 'quantity', schema: quantitySchema, width: 90 },
    // The machine the step ran on: its hours count towards the machine's maintenance by hours of use.
    machine,
    pieceRate,
    // The good pieces earn the piece rate: the piece wage (rework earns nothing until it is reported good).
    { ...LINE.priceTotal, label: { zh: '计件工资', en: 'Piece wage' } },
  ],
  sources: [
    {
      type: 'ProductionOrder',
      drives: 'report',
      fromLines: PRODUCTION_LINES.processes,
      closedRefusal: 'ProductionOrderCompleted',
      header: ['deptId'],
      lines: ['processId', 'teamId', 'unitPrice'],
      tallies: STEP_TALLIES,
    },
  ],
  // A report is of a step of an order.
  sourceRequired: true,
  stock: 'none',
  postings: POSTS_NOTHING,
  costRun: {},
  // Its good pieces are paid through piece-rate accounting; its scrapped pieces go to the waste store.
  progress: ['accounting', 'waste', 'inspection'],
  switches: [],
  actions: SOURCED_ACTIONS,
};

/**
 * Waste in-stock (废品入库): a process report's scrapped pieces taken into the waste store at their scrap value (the
 * line's price: what the scrap can be sold for; none, no value). What it brings in comes off the order's work in
 * progress (Dr 1405 / Cr 5001), so the good pieces carry only what the scrap did not recover; the report shows how
 * much of its scrap is stocked (`waste`). Apart: stocking scrap takes nothing of the good pieces accounting pays.
 */
export const ProductionWaste: BillTypeDecl = {
  type: 'ProductionWaste',
  label: { zh: '废品入库', en: 'Waste in-stock' },
  area: 'production',
  route: 'waste',
  codePrefix: 'FPRK',
  icon: 'InboxOutlined',
  header: [workshop, HEADER.warehouseId, HEADER.handlerId],
  lines: [...PLACED, { ...LINE.unitPrice, label: { zh: '残值单价', en: 'Scrap value' } }, LINE.priceTotal],
  sources: [{ type: 'ProcessReport', drives: 'waste', apart: true, offers: 'scrapNumber', header: ['deptId'], lines: [] }],
  sourceRequired: true,
  stock: 'in',
  valuation: { in: 'price' },
  postings: WORK_IN_PROGRESS,
  costRun: {},
  progress: [],
  switches: ['openBatchNumber', 'openSerialNumber'],
  actions: SOURCED_ACTIONS,
};

/**
 * Process dispatch (工序派工): an order's process steps given to the work team, the worker and the machine that
 * will do them, with the planned start and finish — the shop floor's work list. The order shows how much of each
 * step is dispatched (`dispatch`).
 */
export const ProcessDispatch: BillTypeDecl = {
  type: 'ProcessDispatch',
  label: { zh: '工序派工', en: 'Process dispatch' },
  area: 'production',
  route: 'dispatch',
  codePrefix: 'GXPG',
  icon: 'ScheduleOutlined',
  header: [workshop, HEADER.handlerId],
  lines: [
    { ...processStep, required: 'PleaseSelectProcess' },
    team,
    worker,
    machine,
    { key: 'planStart', label: { zh: '计划开工', en: 'Planned start' }, kind: 'date', schema: dateSchema, width: 120 },
    { key: 'planFinish', label: { zh: '计划完工', en: 'Planned finish' }, kind: 'date', schema: dateSchema, width: 120 },
  ],
  // Apart: dispatching a step does not use up what may be reported of it.
  sources: [{ type: 'ProductionOrder', drives: 'dispatch', apart: true, fromLines: PRODUCTION_LINES.processes, closedRefusal: 'ProductionOrderCompleted', header: ['deptId'], lines: ['processId', 'teamId'] }],
  sourceRequired: true,
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: [],
  switches: [],
  actions: SOURCED_ACTIONS,
};

/**
 * Piece-rate accounting (工序核算 / 计件工资): audited process reports' good pieces paid at their piece rate to the
 * workers of a pay period. A report line of a worker is the worker's; a line of a team without a worker is
 * shared among the team's members by their shares (the production module's `completeLines`). Its audited
 * lines are what the period's salary bills take as piece wages.
 */
export const ProcessAccounting: BillTypeDecl = {
  type: 'ProcessAccounting',
  label: { zh: '工序核算', en: 'Piece-rate accounting' },
  area: 'production',
  route: 'accounting',
  codePrefix: 'GXHS',
  icon: 'AccountBookOutlined',
  header: [salaryPeriod, workshop, HEADER.handlerId],
  lines: [
    // A report line of a team without a worker becomes one line per member when pushed down (the production
    // module's rule); a line saved by hand names its worker.
    { ...worker, required: 'PleaseSelectWorker' },
    processStep,
    team,
    { key: 'hours', label: { zh: '工时', en: 'Hours' }, kind: 'quantity', schema: quantitySchema, width: 90 },
    pieceRate,
    { ...LINE.priceTotal, label: { zh: '计件工资', en: 'Piece wage' } },
  ],
  sources: [{ type: 'ProcessReport', drives: 'accounting', header: ['deptId'], lines: ['processId', 'teamId', 'staffId', 'hours', 'unitPrice'] }],
  sourceRequired: true,
  stock: 'none',
  postings: POSTS_NOTHING,
  costRun: { period: 'salaryPeriod' },
  progress: [],
  switches: [],
  actions: SOURCED_ACTIONS,
};

// ---------------------------------------------------------------- equipment

/** Why a machine is maintained: by its plan (generated from the machine's cycle), or repaired after a breakdown. */
export const MaintenanceKind = ['Planned', 'Repair'] as const;
export type MaintenanceKind = (typeof MaintenanceKind)[number];

/**
 * Equipment maintenance (设备保养 / 维修单): one machine's maintenance — a planned one generated from the machine's
 * cycle (every N days, or N hours of use reported on it) and dated when it is due, or a repair. Due until it is
 * audited: the early warning lists it from its warning days before the date. Audited, it records the work done:
 * the downtime, and the spare parts used taken out of stock at the moving average into manufacturing overhead
 * (Dr 5101 / Cr 1405), which the month-end cost run allocates over the month's orders. The machine's next
 * maintenance counts from the date of its last audited one (the production module's `maintenance.ts`).
 */
export const EquipmentMaintenance: BillTypeDecl = {
  type: 'EquipmentMaintenance',
  label: { zh: '设备保养', en: 'Equipment maintenance' },
  area: 'production',
  route: 'maintenance',
  codePrefix: 'SBBY',
  icon: 'ToolOutlined',
  header: [
    { ...machine, required: 'PleaseSelectEquipment', list: true, search: 'in', width: 160 },
    {
      key: 'maintenanceKind',
      label: { zh: '类型', en: 'Kind' },
      kind: 'enum',
      schema: z.enum(MaintenanceKind, { error: 'ParamError' }),
      required: 'ParamError',
      options: [
        { value: 'Planned', label: { zh: '计划保养', en: 'Planned maintenance' } },
        { value: 'Repair', label: { zh: '故障维修', en: 'Repair' } },
      ],
      list: true,
      search: 'eq',
      width: 110,
    },
    { ...HEADER.deliveryDate, label: { zh: '计划日期', en: 'Due by' } },
    { ...HEADER.deliveryWarnDays, label: { zh: '提前预警天数', en: 'Warn days before' } },
    { key: 'downtimeHours', label: { zh: '停机时长(小时)', en: 'Downtime (hours)' }, kind: 'quantity', schema: quantitySchema, list: true, width: 120 },
    workshop,
    // Where the spare parts come from (each line keeps its own).
    HEADER.warehouseId,
    HEADER.handlerId,
  ],
  // The spare parts used; a maintenance may use none.
  lines: [...PLACED],
  minLines: 0,
  sources: [],
  stock: 'out',
  valuation: { out: 'average' },
  postings: { stock: { counter: 'manufacturingOverhead' } },
  // Its spare parts are the month's overhead: not audited into a costed month.
  costRun: {},
  dueUntilAudited: true,
  commands: [
    {
      key: 'generate',
      label: { zh: '按保养计划生成', en: 'Generate from plans' },
      action: 'add',
      done: { zh: '已生成 {{count}} 张保养单', en: 'Maintenance orders generated: {{count}}' },
      icon: 'ScheduleOutlined',
    },
  ],
  progress: [],
  switches: ['openNegativeInventory', 'openBatchNumber', 'openSerialNumber'],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'],
};

// ---------------------------------------------------------------- planning

/** When a demand is needed (a demand line), or when a suggested supply must be in (a suggestion line). */
const needDate: FieldDecl = { key: 'needDate', label: { zh: '需求日期', en: 'Needed by' }, kind: 'date', schema: dateSchema, width: 120 };

export const IndependentDemand: BillTypeDecl = {
  type: 'IndependentDemand',
  label: { zh: '独立需求', en: 'Independent demand' },
  area: 'production',
  route: 'demand',
  codePrefix: 'DLXQ',
  icon: 'FlagOutlined',
  // The header's date is each line's, where the line names none.
  header: [HEADER.deptId, HEADER.handlerId, { ...HEADER.deliveryDate, label: { zh: '需求日期', en: 'Needed by' } }],
  lines: [bom, needDate],
  sources: [],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: ['plan'],
  switches: [],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'manualCompletion', 'import', 'export', 'print'],
};

export const MrpPlan: BillTypeDecl = {
  type: 'MrpPlan',
  label: { zh: 'MRP计划', en: 'MRP plan' },
  area: 'production',
  route: 'mrp',
  codePrefix: 'MRP',
  icon: 'CalculatorOutlined',
  header: [
    {
      // What the run groups requirements by: one suggestion per material, BOM and period (a week by default).
      key: 'planBucket',
      label: { zh: '计划周期', en: 'Planning period' },
      kind: 'enum',
      schema: z.enum(MrpBucket, { error: 'ParamError' }),
      options: [
        { value: 'day', label: { zh: '按日', en: 'Daily' } },
        { value: 'week', label: { zh: '按周', en: 'Weekly' } },
        { value: 'month', label: { zh: '按月', en: 'Monthly' } },
      ],
      width: 100,
    },
    HEADER.handlerId,
    HEADER.deptId,
  ],
  lines: [
    {
      key: 'mrpRole',
      label: { zh: '行类型', en: 'Line role' },
      kind: 'enum',
      schema: z.enum(MrpLineRole, { error: 'PleaseSelectLineRole' }),
      required: 'PleaseSelectLineRole',
      options: [
        { value: 'Demand', label: { zh: '需求', en: 'Demand' } },
        { value: 'Purchase', label: { zh: '采购建议', en: 'Buy' } },
        { value: 'Produce', label: { zh: '生产建议', en: 'Make' } },
        { value: 'Outsource', label: { zh: '委外建议', en: 'Outsource' } },
      ],
      width: 110,
    },
    { ...needDate, label: { zh: '需求/到货日期', en: 'Needed / due by' } },
    { key: 'releaseDate', label: { zh: '建议下达日期', en: 'Release by' }, kind: 'date', schema: dateSchema, width: 120 },
    bom,
    // What the suggestion covers (its pegging): the demand lines, the BOM path, safety stock, lot rounding.
    { key: 'pegging', label: { zh: '需求来源', en: 'Pegging' }, kind: 'text', schema: storableText().trim().max(500), width: 260 },
  ],
  // Its quantity is what it suggests.
  totalsOf: MRP_LINES.suggestions,
  // A plan over a whole factory's open demand: up to 20,000 demand lines (its suggestions, the run's, come on top).
  maxLines: 20000,
  sources: [
    // Planning does not use up what the order may still ship, nor what production puts into production.
    { type: 'SaleOrder', drives: 'plan', apart: true, header: [], lines: ['bomId'], lineDefaults: { mrpRole: 'Demand' } },
    { type: 'IndependentDemand', drives: 'plan', header: [], lines: ['bomId', 'needDate'], lineDefaults: { mrpRole: 'Demand' } },
  ],
  stock: 'none',
  postings: POSTS_NOTHING,
  // A demand it took keeps its audit while the plan stands: withdraw and delete the plan first.
  heldSourceRefusal: 'BillIsMrpOperationProhibitAbandonAudit',
  // Its status follows its suggestions pushed down into requisitions and production orders.
  progress: ['push'],
  switches: [],
  actions: ORDER_ACTIONS,
};

/** Production in menu order. */
export const PRODUCTION_BILLS: readonly BillTypeDecl[] = [IndependentDemand, MrpPlan, ProductionOrder, ProductionPick, ProductionReturn, ConsumablesOutstock, EntrustReceipt, EntrustReturn, ProcessDispatch, ProcessReport, ProcessAccounting, ProductionInstock, ProductionWaste, EquipmentMaintenance];
