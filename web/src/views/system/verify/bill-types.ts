/**
 * Bill types a joint review rule can name, grouped as the menu groups them. The server takes
 * any bill-type identifier (`^[A-Za-z][A-Za-z0-9_]*$`); until the contract has the bill-type registry of
 * the bill engine, this list is the one place the screen knows them. Names are `system-office.verify.billTypes.<type>`.
 */
export const BILL_TYPE_GROUPS = {
  purchase: ['PurchaseRequisition', 'PurchaseOrder', 'PurchaseInstock', 'PurchaseRefund'],
  sale: ['SaleQuotation', 'SaleOrder', 'SaleShip', 'SaleOutstock', 'SaleRefund'],
  stock: ['StockLend', 'StockLendReturn', 'StockTransfer', 'StockCheck', 'Assembly', 'OtherInstock', 'OtherOutstock'],
  production: ['MrpPlan', 'ProductionOrder', 'PickOutstock', 'ReturnInstock', 'ProcessReport', 'CompletionInstock', 'WasteInstock', 'EntrustMachining'],
  outsource: ['OutsourceOrder', 'OutsourceInstock', 'OutsourceRefund'],
  finance: ['Payment', 'Receipt', 'Fee', 'Income', 'FundTransfer', 'PurchaseInvoice', 'SaleInvoice', 'Salary'],
  quality: ['IncomingInspection', 'ShipmentInspection', 'FirstArticleInspection', 'PatrolInspection'],
  people: ['ReplacementClockIn', 'Task'],
} as const;

export type BillTypeGroup = keyof typeof BILL_TYPE_GROUPS;
export type BillType = (typeof BILL_TYPE_GROUPS)[BillTypeGroup][number];

export const BILL_TYPES: readonly string[] = Object.values(BILL_TYPE_GROUPS).flat();
