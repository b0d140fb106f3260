/**
 * The words of the bill engine: statuses, operations and the progress sets, with their Chinese and
 * English names. The server's state machine (server/src/bills/state-machine.ts) decides what each status
 * allows; these lists are what the API sends and the web kit shows (status tabs, tags, timeline).
 */

export interface Label {
  zh: string;
  en: string;
}

/**
 * A bill's status.
 * - Saved: a draft, editable by its creator.
 * - Submitted: waiting for audit (with joint review: nobody has reviewed yet).
 * - UnAudit: in joint review — some reviewers approved, others must still (AllVerify, sequential order).
 * - Audit: approved; stock and settlement effects are posted.
 * - Refuse: rejected with a reason; editable again and can be submitted anew.
 * - Partially / Complete: audited, and its downstream bills took part / all of its lines.
 * - ManualCompletion: audited, and the open rest closed by hand.
 * - AbandonAudit: was audited, the audit was withdrawn (effects reversed); editable again.
 * - Merged: merged into another bill; read only, kept for the record.
 */
export const BillStatus = ['Saved', 'Submitted', 'UnAudit', 'Audit', 'Refuse', 'Partially', 'Complete', 'ManualCompletion', 'AbandonAudit', 'Merged'] as const;
export type BillStatus = (typeof BillStatus)[number];

export const BILL_STATUS_LABELS: Record<BillStatus, Label> = {
  Saved: { zh: '已保存', en: 'Saved' },
  Submitted: { zh: '待审核', en: 'Submitted' },
  UnAudit: { zh: '审核中', en: 'In review' },
  Audit: { zh: '已审核', en: 'Audited' },
  Refuse: { zh: '已驳回', en: 'Refused' },
  Partially: { zh: '部分完成', en: 'Partially done' },
  Complete: { zh: '已完成', en: 'Complete' },
  ManualCompletion: { zh: '手动完成', en: 'Completed by hand' },
  AbandonAudit: { zh: '已反审核', en: 'Audit withdrawn' },
  Merged: { zh: '已合并', en: 'Merged' },
};

/** Statuses whose effects (stock, settlement, source progress) are posted. */
export const POSTED_STATUSES: readonly BillStatus[] = ['Audit', 'Partially', 'Complete', 'ManualCompletion'];

/** The status tabs of a bill list, in order; `all` shows every status. */
export const BILL_STATUS_TABS = ['all', 'Saved', 'Submitted', 'UnAudit', 'Audit', 'Refuse', 'Partially', 'Complete', 'ManualCompletion', 'AbandonAudit', 'Merged'] as const;

/**
 * What a user does to a bill. `save` covers create and update; `audit` approves, `refuse` rejects with a
 * reason (both are the one audit step of the spec); `pushDown` is done to a source bill (its lines feed a
 * new downstream bill); `merge` folds compatible drafts into one.
 */
export const BillOperation = ['save', 'submit', 'audit', 'refuse', 'abandonAudit', 'delete', 'pushDown', 'merge', 'manualCompletion'] as const;
export type BillOperation = (typeof BillOperation)[number];

export const BILL_OPERATION_LABELS: Record<BillOperation, Label> = {
  save: { zh: '保存', en: 'Save' },
  submit: { zh: '提交', en: 'Submit' },
  audit: { zh: '审核', en: 'Audit' },
  refuse: { zh: '驳回', en: 'Refuse' },
  abandonAudit: { zh: '反审核', en: 'Withdraw audit' },
  delete: { zh: '删除', en: 'Delete' },
  pushDown: { zh: '下推', en: 'Push down' },
  merge: { zh: '合并', en: 'Merge' },
  manualCompletion: { zh: '手动完成', en: 'Complete by hand' },
};

/** The catalogue key refusing an operation in the current status. */
export const PROHIBIT_KEY = {
  save: 'CurrentStatusBillProhibitSave',
  submit: 'CurrentStatusBillProhibitSubmit',
  audit: 'CurrentStatusBillProhibitAudit',
  refuse: 'CurrentStatusBillProhibitAudit',
  abandonAudit: 'CurrentStatusBillProhibitAbandonAudit',
  delete: 'CurrentStatusBillProhibitDelete',
  pushDown: 'CurrentStatusBillProhibitPushDown',
  merge: 'CurrentStatusBillProhibitMerge',
  manualCompletion: 'CurrentStatusBillProhibitManualCompletion',
} as const satisfies Record<BillOperation, string>;

/**
 * Progress a downstream bill drives on its source lines (and, summed, on the source bill):
 * - instock: a purchase order's goods received by purchase in-stocks;
 * - outstock: a sale order's goods sent by sale out-stocks;
 * - refund: an in-stock's goods sent back to the supplier (purchase refund);
 * - return: an out-stock's goods returned by the customer (sale refund), a lend's goods returned;
 * - push: a requisition / quotation / shipping notice taken into its next bill;
 * - settlement: amounts paid or received (kept by finance);
 * - invoice: a stock bill's or refund's lines taken into sale / purchase invoices (finance);
 * - exchange: an exchange refund's goods exchanged by purchase / sale exchange bills;
 * - pick: a production order's materials picked from stock by production picks;
 * - production: a sale order's goods put into production by production orders (按单生产, 投产);
 * - report: a production order's process steps reported done by process reports (工序汇报);
 * - plan: a sale order's or independent demand's quantities taken into MRP plans (MRP 计划);
 * - accounting: a process report's good pieces taken into piece-rate accounting (工序核算, 计件工资);
 * - dispatch: a production order's process steps dispatched to teams, workers and machines (工序派工);
 * - waste: a process report's scrapped pieces taken into the waste store (废品入库);
 * - inspection: lines inspected by inspection reports (质检: incoming, shipment, first-article, patrol, process, finished).
 */
export const ProgressKind = ['instock', 'outstock', 'refund', 'return', 'push', 'settlement', 'invoice', 'exchange', 'pick', 'production', 'report', 'plan', 'accounting', 'dispatch', 'waste', 'inspection'] as const;
export type ProgressKind = (typeof ProgressKind)[number];

/** The three states of each progress set: nothing, part, all of the quantity (or amount). */
export const PROGRESS_STATES = {
  instock: ['NoInstock', 'PartialInStock', 'AllInStock'],
  outstock: ['NoOutstock', 'PartialOutStock', 'AllOutStock'],
  refund: ['NoRefund', 'PartialRefund', 'AllRefund'],
  return: ['NoReturn', 'PartialReturn', 'AllReturn'],
  push: ['NotPushed', 'PartiallyPushed', 'AllPushed'],
  settlement: ['UnSettlement', 'PartialSettlement', 'AllSettlement'],
  invoice: ['UnInvoiced', 'PartialInvoiced', 'AllInvoiced'],
  exchange: ['NoExchange', 'PartialExchange', 'AllExchange'],
  pick: ['NoPick', 'PartialPick', 'AllPick'],
  production: ['NoProduction', 'PartialProduction', 'AllProduction'],
  report: ['NoReport', 'PartialReport', 'AllReport'],
  plan: ['NoPlan', 'PartialPlan', 'AllPlan'],
  accounting: ['NoAccounting', 'PartialAccounting', 'AllAccounting'],
  waste: ['NoWaste', 'PartialWaste', 'AllWaste'],
  dispatch: ['NoDispatch', 'PartialDispatch', 'AllDispatch'],
  inspection: ['NoInspection', 'PartialInspection', 'AllInspection'],
} as const satisfies Record<ProgressKind, readonly [string, string, string]>;
export type ProgressState = (typeof PROGRESS_STATES)[ProgressKind][number];

export const PROGRESS_LABELS: Record<ProgressKind, Label> = {
  instock: { zh: '入库状态', en: 'Stock-in' },
  outstock: { zh: '出库状态', en: 'Stock-out' },
  refund: { zh: '退货状态', en: 'Refund' },
  return: { zh: '退回状态', en: 'Return' },
  push: { zh: '下推状态', en: 'Pushed' },
  settlement: { zh: '结算状态', en: 'Settlement' },
  invoice: { zh: '开票状态', en: 'Invoicing' },
  exchange: { zh: '换货状态', en: 'Exchange' },
  pick: { zh: '领料状态', en: 'Picking' },
  production: { zh: '投产状态', en: 'Production' },
  report: { zh: '汇报状态', en: 'Reported' },
  plan: { zh: '计划状态', en: 'Planned' },
  accounting: { zh: '核算状态', en: 'Accounted' },
  waste: { zh: '废品入库', en: 'Scrap stocked' },
  dispatch: { zh: '派工状态', en: 'Dispatched' },
  inspection: { zh: '检验状态', en: 'Inspected' },
};

export const PROGRESS_STATE_LABELS: Record<ProgressState, Label> = {
  NoInstock: { zh: '未入库', en: 'Not in stock' },
  PartialInStock: { zh: '部分入库', en: 'Partly in stock' },
  AllInStock: { zh: '全部入库', en: 'All in stock' },
  NoOutstock: { zh: '未出库', en: 'Not out' },
  PartialOutStock: { zh: '部分出库', en: 'Partly out' },
  AllOutStock: { zh: '全部出库', en: 'All out' },
  NoRefund: { zh: '未退货', en: 'Not refunded' },
  PartialRefund: { zh: '部分退货', en: 'Partly refunded' },
  AllRefund: { zh: '全部退货', en: 'All refunded' },
  NoReturn: { zh: '未退回', en: 'Not returned' },
  PartialReturn: { zh: '部分退回', en: 'Partly returned' },
  AllReturn: { zh: '全部退回', en: 'All returned' },
  NotPushed: { zh: '未下推', en: 'Not pushed' },
  PartiallyPushed: { zh: '部分下推', en: 'Partly pushed' },
  AllPushed: { zh: '全部下推', en: 'All pushed' },
  UnSettlement: { zh: '未结算', en: 'Unsettled' },
  PartialSettlement: { zh: '部分结算', en: 'Partly settled' },
  AllSettlement: { zh: '全部结算', en: 'Settled' },
  UnInvoiced: { zh: '未开票', en: 'Not invoiced' },
  PartialInvoiced: { zh: '部分开票', en: 'Partly invoiced' },
  AllInvoiced: { zh: '全部开票', en: 'Invoiced' },
  NoExchange: { zh: '未换货', en: 'Not exchanged' },
  PartialExchange: { zh: '部分换货', en: 'Partly exchanged' },
  NoPick: { zh: '未领料', en: 'Not picked' },
  PartialPick: { zh: '部分领料', en: 'Partly picked' },
  AllPick: { zh: '全部领料', en: 'All picked' },
  NoProduction: { zh: '未投产', en: 'Not in production' },
  PartialProduction: { zh: '部分投产', en: 'Partly in production' },
  AllProduction: { zh: '全部投产', en: 'All in production' },
  NoReport: { zh: '未汇报', en: 'Not reported' },
  PartialReport: { zh: '部分汇报', en: 'Partly reported' },
  AllReport: { zh: '全部汇报', en: 'All reported' },
  NoPlan: { zh: '未计划', en: 'Not planned' },
  PartialPlan: { zh: '部分计划', en: 'Partly planned' },
  AllPlan: { zh: '全部计划', en: 'All planned' },
  NoAccounting: { zh: '未核算', en: 'Not accounted' },
  PartialAccounting: { zh: '部分核算', en: 'Partly accounted' },
  AllAccounting: { zh: '全部核算', en: 'All accounted' },
  NoWaste: { zh: '废品未入库', en: 'Scrap not stocked' },
  PartialWaste: { zh: '废品部分入库', en: 'Scrap partly stocked' },
  AllWaste: { zh: '废品全部入库', en: 'Scrap all stocked' },
  NoDispatch: { zh: '未派工', en: 'Not dispatched' },
  PartialDispatch: { zh: '部分派工', en: 'Partly dispatched' },
  AllDispatch: { zh: '全部派工', en: 'All dispatched' },
  NoInspection: { zh: '未检验', en: 'Not inspected' },
  PartialInspection: { zh: '部分检验', en: 'Partly inspected' },
  AllInspection: { zh: '全部检验', en: 'All inspected' },
  AllExchange: { zh: '全部换货', en: 'Exchanged' },
};

/** Refund bills: goods and money back, goods exchanged only, or money back only. */
export const RefundType = ['ReturnsRefunds', 'Exchange', 'OnlyRefund'] as const;
export type RefundType = (typeof RefundType)[number];
export const REFUND_TYPE_LABELS: Record<RefundType, Label> = {
  ReturnsRefunds: { zh: '退货退款', en: 'Return and refund' },
  Exchange: { zh: '仅换货', en: 'Exchange only' },
  OnlyRefund: { zh: '仅退款', en: 'Refund only' },
};

/**
 * The two sides of an exchange bill's lines (`exchangeType`): goods going out of stock (to the supplier,
 * or the replacements to the customer) and goods coming in (the supplier's replacements, or the customer's
 * goods back).
 */
export const ExchangeType = ['ExchangeOut', 'ExchangeIn'] as const;
export type ExchangeType = (typeof ExchangeType)[number];
export const EXCHANGE_TYPE_LABELS: Record<ExchangeType, Label> = {
  ExchangeOut: { zh: '换出', en: 'Exchange out' },
  ExchangeIn: { zh: '换入', en: 'Exchange in' },
};

/** Assembly (components out, product in) or disassembly (product out, components in). */
export const AssemblyType = ['Assembly', 'Disassembly'] as const;
export type AssemblyType = (typeof AssemblyType)[number];
export const ASSEMBLY_TYPE_LABELS: Record<AssemblyType, Label> = {
  Assembly: { zh: '组装', en: 'Assembly' },
  Disassembly: { zh: '拆卸', en: 'Disassembly' },
};

/** Delivery of a shipping bill: confirmed as sent (InDelivery), then as arrived. */
export const DeliveryStatus = ['NotDelivered', 'InDelivery', 'Arrived'] as const;
export type DeliveryStatus = (typeof DeliveryStatus)[number];
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, Label> = {
  NotDelivered: { zh: '未发货', en: 'Not sent' },
  InDelivery: { zh: '配送中', en: 'In delivery' },
  Arrived: { zh: '已送达', en: 'Arrived' },
};

/** The delivery steps of a bill with the `delivery` button, each confirmed by hand (in this order). */
export const DeliveryOperation = ['deliver', 'arrive'] as const;
export type DeliveryOperation = (typeof DeliveryOperation)[number];
export const DELIVERY_OPERATION_LABELS: Record<DeliveryOperation, Label> = {
  deliver: { zh: '确认发货', en: 'Confirm sending' },
  arrive: { zh: '确认送达', en: 'Confirm arrival' },
};
