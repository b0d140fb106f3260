import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { billType } from '@p8/contract/bills/catalogue';
import type { BillPayload } from '@p8/contract/bills/registry';
import type { Config } from '../../config.ts';
import { rows, type Database } from '../connection.ts';
import { withServiceContext, type Caller, type ServiceContext } from '../../core/service-context.ts';
import { abandonAudit, auditBill, completeManually, createBill, getBill, mergeBills, pushDown, refuseBill, submitBill } from '../../bills/service.ts';
import { DEMO_TENANTS } from './demo.ts';
import { runCost } from '../../modules/finance/cost-run.ts';
import { generateMaintenance } from '../../modules/production/maintenance.ts';
import { packBox } from '../../modules/quality/boxes.ts';

/*
 * The first demo tenant's bills, on its demo records (demo-records.ts), so that stock is real on the first
 * sign-in: an opening other in-stock, purchase orders taken into stock by in-stocks made from their lines
 * (one whole, one in part), a purchase refund, sale orders sent out by out-stocks made from their lines, a
 * sale return, a sale exchange pushed down from an exchange refund, a transfer, a stock check with a loss, production
 * orders picked and partly completed — and bills left in every other status (a draft, one
 * awaiting audit, a refused one with its reason, a withdrawn audit, a manual completion, a merge). Everything
 * goes through the bill engine's services, one unit of work per operation, as the creator (the tenant's
 * administrator) would do it, so the ledger, balances, progress and timelines agree. Runs once: a tenant
 * that has an other in-stock is left alone.
 */

/** Bill dates: `n` days before today (YYYY-MM-DD). */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

type Line = Record<string, unknown> & { materialId: number; number: number };

/**
 * Whether the first demo tenant has its records (materials) and not these bills yet — marked by the opening
 * other in-stock (the finance demo seeds bills of its own) — a read on the owner connection.
 */
export async function demoBillsMissing(database: Database): Promise<boolean> {
  const [found] = await rows<{ ready: boolean }>(
    database,
    sql`select exists (select 1 from material m where m.tenant_id = l.tenant_id) and not exists (select 1 from bill b where b.tenant_id = l.tenant_id and b.bill_type = 'OtherInstock') as ready
        from login_name l where l.name = lower(${DEMO_TENANTS[0].adminName})`,
  );
  return !!found?.ready;
}

/** Seeds the first demo tenant's bills; false when it is missing, has no records, or has bills already. */
export async function seedDemoBills(app: FastifyInstance, database: Database, config: Config): Promise<boolean> {
  if (!(await demoBillsMissing(database))) return false;
  // bigint columns come back as strings from PostgreSQL (numbers from PGlite).
  const [found] = await rows<{ id: number | string; tenant_id: number | string }>(database, sql`select admin_id as id, tenant_id from login_name where name = lower(${DEMO_TENANTS[0].adminName})`);
  const me = { id: Number(found.id), tenant_id: Number(found.tenant_id) };
  const caller: Caller = {
    tenantId: me.tenant_id,
    account: { tenantId: me.tenant_id, adminId: me.id, sessionId: '' },
    config,
    registries: app.registries,
    log: app.log,
    ip: '',
    access: app.access,
  };
  const unit = <T>(fn: (ctx: ServiceContext) => Promise<T>) => withServiceContext(database, caller, fn);

  const named = async (table: 'material' | 'partner' | 'warehouse' | 'location', column: 'name' | 'short_name') => {
    const found = await rows<{ id: number; key: string }>(database, sql`select id, ${sql.raw(column)} as key from ${sql.raw(table)} where tenant_id = ${me.tenant_id}`);
    const byKey = new Map(found.map((r) => [r.key, Number(r.id)]));
    return (key: string) => {
      const id = byKey.get(key);
      if (id === undefined) throw new Error(`demo bills: no ${table} ${key}`);
      return id;
    };
  };
  const material = await named('material', 'name');
  const partner = await named('partner', 'short_name');
  const warehouse = await named('warehouse', 'name');
  const location = await named('location', 'name');

  /** A new bill (Saved); its lines may name source lines (`sourceLineId`), as a push down makes them. */
  const save = (type: string, billDate: string, header: Record<string, unknown>, lines: Line[]) =>
    unit((ctx) => createBill(ctx, billType(type)!, { billDate, ...header, lines } as BillPayload)).then((b) => b.id);
  const submit = (type: string, id: number) => unit((ctx) => submitBill(ctx, billType(type)!, id));
  const audit = async (type: string, id: number) => {
    await submit(type, id);
    await unit((ctx) => auditBill(ctx, billType(type)!, id));
    return id;
  };
  const lineIds = (type: string, id: number) => unit(async (ctx) => (await getBill(ctx, billType(type)!, id)).lines.map((l) => Number(l.id)));

  const raw = { warehouseId: warehouse('原料仓') };
  const goods = { warehouseId: warehouse('成品仓') };
  const at = (name: string) => ({ locationId: location(name) });

  // The month before last: the demo's first month, costed (below).
  const costed = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 2, 1)).toISOString().slice(0, 7);
  const on = (day: number) => `${costed}-${String(day).padStart(2, '0')}`;

  // Opening stock, on the first day of that month.
  await audit('OtherInstock', await save('OtherInstock', on(1), { ...raw, remark: '期初库存' }, [
    { materialId: material('内六角螺钉'), number: 20000, unitPrice: 0.08, ...raw, ...at('A-03 五金区') },
    { materialId: material('六角螺母'), number: 10000, unitPrice: 0.03, ...raw, ...at('A-03 五金区') },
    { materialId: material('贴片电阻'), number: 50000, unitPrice: 0.005, ...raw, ...at('A-02 电子料区') },
    { materialId: material('电解电容'), number: 2000, unitPrice: 0.35, ...raw, ...at('A-02 电子料区') },
    { materialId: material('单片机'), number: 300, unitPrice: 9.8, ...raw, ...at('A-02 电子料区') },
    { materialId: material('电源芯片'), number: 100, unitPrice: 2.6, ...raw, ...at('A-02 电子料区') },
    { materialId: material('铜芯软电线'), number: 800, unitPrice: 0.9, ...raw },
    { materialId: material('润滑油'), number: 40, unitPrice: 45, ...raw, ...at('A-03 五金区') },
    { materialId: material('冷轧钢板'), number: 1200, unitPrice: 5.2, ...raw, ...at('A-01 钢材区') },
  ]));
  await audit('OtherInstock', await save('OtherInstock', on(1), { ...goods, remark: '期初库存' }, [
    { materialId: material('直流无刷电机'), number: 40, unitPrice: 210, ...goods, ...at('C-02 电机区') },
    { materialId: material('包装纸箱'), number: 300, unitPrice: 3.5, ...goods, ...at('C-03 待发区') },
  ]));

  /** Piece-rate accounting lines of an audited report's lines: a crew's line shared by its members (工序核算). */
  const accountingOf = async (reportId: number): Promise<Line[]> =>
    ((await unit(async (ctx) => (await getBill(ctx, billType('ProcessReport')!, reportId)).lines)) as Array<Record<string, unknown>>).map((l) => ({
      materialId: Number(l.materialId),
      number: Number(l.number),
      processId: Number(l.processId),
      teamId: l.teamId == null ? null : Number(l.teamId),
      staffId: null,
      unitPrice: Number(l.unitPrice),
      hours: l.hours == null ? null : Number(l.hours),
      sourceLineId: Number(l.id),
    }));

  // A costed month (the month before last, before last month's audited salaries): the controller made end to end on
  // its three-level BOM (controller → works → board → bought materials). 10 controllers sold; one MRP plan makes a
  // production order per made level and a requisition of the terminals nothing has, bought and received; each
  // level picked, its steps reported by the crews with hours, completed lower level first, so that the works'
  // order picks the boards just completed and the controllers' order the works; a works scrapped at its last
  // step goes to the waste store; the crews' piece wages accounted, the workshop's power and water paid
  // (overhead). The month-end cost run gives each level its full cost (materials, piece wages, overhead) and
  // carries the controller still unfinished into the next month.
  const semiStore = { warehouseId: warehouse('半成品仓') };
  const chainSale = await audit('SaleOrder', await save('SaleOrder', on(2), { customerId: partner('云帆智能'), remark: '首批控制器' }, [{ materialId: material('步进电机控制器'), number: 10, unitPrice: 680 }]));
  const [chainSaleLine] = await lineIds('SaleOrder', chainSale);
  const chainPlan = await audit('MrpPlan', await save('MrpPlan', on(3), { remark: `${costed} 生产计划` }, [{ mrpRole: 'Demand', materialId: material('步进电机控制器'), number: 10, sourceLineId: chainSaleLine }]));
  const planned = (await unit(async (ctx) => (await getBill(ctx, billType('MrpPlan')!, chainPlan)).lines as Array<Record<string, unknown>>)).filter((l) => l.mrpRole !== 'Demand');
  /** The plan's suggestion to make `name`: one production order of it, audited, and its lines. */
  const orderOf = async (name: string, store: { warehouseId: number }) => {
    const made = planned.find((l) => l.mrpRole === 'Produce' && Number(l.materialId) === material(name));
    if (!made) throw new Error(`demo bills: the ${costed} plan does not make ${name}`);
    const id = await audit('ProductionOrder', await save('ProductionOrder', on(3), { remark: 'MRP 建议' }, [{ role: 'Product', materialId: material(name), number: Number(made.number), bomId: made.bomId, ...store, sourceLineId: Number(made.id) }]));
    const lines = (await unit(async (ctx) => (await getBill(ctx, billType('ProductionOrder')!, id)).lines)) as Array<Record<string, unknown>>;
    return { id, product: lines.find((l) => l.role === 'Product')!, materials: lines.filter((l) => l.role === 'Material'), steps: lines.filter((l) => l.role === 'Process') };
  };
  const boardOrder = await orderOf('控制板组件', semiStore);
  const coreOrder = await orderOf('控制器机芯', semiStore);
  const controllerOrder = await orderOf('步进电机控制器', goods);
  // What nothing in stock covers (the terminals): requisitioned, ordered from 明光电子, received.
  const toBuy = planned.filter((l) => l.mrpRole === 'Purchase');
  const requisition = await audit('PurchaseRequisition', await save('PurchaseRequisition', on(3), { remark: 'MRP 建议' }, toBuy.map((l) => ({ materialId: Number(l.materialId), number: Number(l.number), sourceLineId: Number(l.id) }))));
  const requisitioned = (await unit(async (ctx) => (await getBill(ctx, billType('PurchaseRequisition')!, requisition)).lines)) as Array<Record<string, unknown>>;
  const listPrice = new Map([[material('接线端子'), 0.6]]);
  const price = (materialId: number) => {
    const found = listPrice.get(materialId);
    if (found === undefined) throw new Error(`demo bills: the ${costed} plan buys material ${materialId}, which has no price here`);
    return found;
  };
  const chainPurchase = await audit('PurchaseOrder', await save('PurchaseOrder', on(4), { supplierId: partner('明光电子') }, requisitioned.map((l) => ({ materialId: Number(l.materialId), number: Number(l.number), unitPrice: price(Number(l.materialId)), sourceLineId: Number(l.id) }))));
  const boughtLines = (await unit(async (ctx) => (await getBill(ctx, billType('PurchaseOrder')!, chainPurchase)).lines)) as Array<Record<string, unknown>>;
  await audit('PurchaseInstock', await save('PurchaseInstock', on(8), { supplierId: partner('明光电子'), ...raw }, boughtLines.map((l) => ({ materialId: Number(l.materialId), number: Number(l.number), unitPrice: Number(l.unitPrice), sourceLineId: Number(l.id), ...raw, ...at('A-02 电子料区') }))));
  // Where each material lies: the bought ones in the raw store's shelves, the made ones where they were completed.
  const shelfOf: Record<number, Record<string, unknown>> = {
    [material('冷轧钢板')]: { ...raw, ...at('A-01 钢材区') },
    [material('内六角螺钉')]: { ...raw, ...at('A-03 五金区') },
    [material('六角螺母')]: { ...raw, ...at('A-03 五金区') },
    [material('铜芯软电线')]: { ...raw },
    [material('包装纸箱')]: { ...goods, ...at('C-03 待发区') },
    [material('控制板组件')]: { ...semiStore, ...at('B-01 板卡区') },
    [material('控制器机芯')]: { ...semiStore, ...at('B-01 板卡区') },
  };
  /** Picks an order's materials (`cap`: no more than that of each, what the level below completed). */
  const pick = async (order: typeof boardOrder, day: number, cap = Infinity) =>
    audit('ProductionPick', await save('ProductionPick', on(day), { ...raw }, order.materials.map((l) => ({ materialId: Number(l.materialId), number: Math.min(Number(l.number), cap), sourceLineId: Number(l.id), ...(shelfOf[Number(l.materialId)] ?? { ...raw, ...at('A-02 电子料区') }) }))));
  /** Reports an order's steps (good pieces per step, the last step's scrap), six hours each, and accounts it. */
  const reportSteps = async (order: typeof boardOrder, day: number, good: number[], scrapLast = 0) =>
    audit('ProcessReport', await save('ProcessReport', on(day), {}, order.steps.map((l, i) => ({
      materialId: Number(l.materialId),
      number: good[i],
      ...(scrapLast && i === order.steps.length - 1 ? { scrapNumber: scrapLast } : {}),
      processId: Number(l.processId),
      teamId: l.teamId == null ? null : Number(l.teamId),
      unitPrice: Number(l.unitPrice),
      hours: 6,
      sourceLineId: Number(l.id),
    }))));
  const complete = async (order: typeof boardOrder, day: number, number: number, place: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    audit('ProductionInstock', await save('ProductionInstock', on(day), { warehouseId: place.warehouseId }, [{ materialId: Number(order.product.materialId), number, sourceLineId: Number(order.product.id), ...place, ...extra }]));
  // The boards: 10 picked, reported by the electronics crew, all completed.
  await pick(boardOrder, 5);
  const boardReport = await reportSteps(boardOrder, 8, [10, 10, 10]);
  await complete(boardOrder, 10, 10, shelfOf[material('控制板组件')]);
  // The works: the boards just completed and the bought terminals picked; cut and bent by the sheet-metal crew,
  // wired by the electronics crew, who scrapped one; 9 completed, the scrapped one into the waste store.
  await pick(coreOrder, 11);
  const coreReport = await reportSteps(coreOrder, 14, [10, 10, 9], 1);
  await complete(coreOrder, 16, 9, shelfOf[material('控制器机芯')]);
  const [, , scrappedWorks] = await lineIds('ProcessReport', coreReport);
  const wasteStore = { warehouseId: warehouse('废品仓') };
  await audit('ProductionWaste', await save('ProductionWaste', on(16), { ...wasteStore, remark: '接线短路报废机芯' }, [{ materialId: material('控制器机芯'), number: 1, unitPrice: 8, sourceLineId: scrappedWorks, ...wasteStore }]));
  // The controllers: the 9 works and their cartons picked, assembled, aged and packed by the final crew; 8 completed.
  await pick(controllerOrder, 17, 9);
  const controllerReport = await reportSteps(controllerOrder, 22, [9, 9, 8]);
  await complete(controllerOrder, 24, 8, { ...goods, ...at('C-01 控制器区') });
  await audit('ProcessAccounting', await save('ProcessAccounting', on(25), { salaryPeriod: costed, remark: '首批控制器计件' }, [
    ...(await accountingOf(boardReport)),
    ...(await accountingOf(coreReport)),
    ...(await accountingOf(controllerReport)),
  ]));
  const [powerFee] = await rows<{ id: number }>(database, sql`select id from fee_type where tenant_id = ${me.tenant_id} and overhead order by id limit 1`);
  const [bank] = await rows<{ id: number }>(database, sql`select id from fin_fund_account where tenant_id = ${me.tenant_id} and enabled order by id limit 1`);
  if (powerFee && bank) {
    await audit('Fee', await save('Fee', on(25), { fundAccountId: Number(bank.id), remark: `${costed} 车间水电` }, [{ feeTypeId: Number(powerFee.id), amount: '120.00' } as unknown as Line]));
  }
  await unit((ctx) => runCost(ctx, costed, 'hours'));

  // Purchases: an order received whole, then partly refunded; an order received in part.
  const electronics = await audit('PurchaseOrder', await save('PurchaseOrder', daysAgo(25), { supplierId: partner('明光电子') }, [
    { materialId: material('电解电容'), number: 1000, unitPrice: 0.35 },
    { materialId: material('电源芯片'), number: 300, unitPrice: 2.6 },
  ]));
  const [capacitorLine, regulatorLine] = await lineIds('PurchaseOrder', electronics);
  const received = await audit('PurchaseInstock', await save('PurchaseInstock', daysAgo(22), { supplierId: partner('明光电子'), ...raw }, [
    { materialId: material('电解电容'), number: 1000, unitPrice: 0.35, sourceLineId: capacitorLine, ...raw, ...at('A-02 电子料区') },
    { materialId: material('电源芯片'), number: 300, unitPrice: 2.6, sourceLineId: regulatorLine, ...raw, ...at('A-02 电子料区') },
  ]));
  const [receivedCapacitors] = await lineIds('PurchaseInstock', received);
  await audit('PurchaseRefund', await save('PurchaseRefund', daysAgo(12), { supplierId: partner('明光电子'), refundType: 'ReturnsRefunds', ...raw, remark: '外观不良退货' }, [
    { materialId: material('电解电容'), number: 100, unitPrice: 0.35, sourceLineId: receivedCapacitors, ...raw, ...at('A-02 电子料区') },
  ]));
  // Partly received, the rest due in three days: the dashboard's early warning shows it.
  const steel = await audit('PurchaseOrder', await save('PurchaseOrder', daysAgo(18), { supplierId: partner('华锐钢材'), deliveryDate: daysAgo(-3), deliveryWarnDays: 7 }, [{ materialId: material('不锈钢圆棒'), number: 100, unitPrice: 38 }]));
  const [barLine] = await lineIds('PurchaseOrder', steel);
  await audit('PurchaseInstock', await save('PurchaseInstock', daysAgo(15), { supplierId: partner('华锐钢材'), ...raw }, [
    { materialId: material('不锈钢圆棒'), number: 60, unitPrice: 38, sourceLineId: barLine, ...raw, ...at('A-01 钢材区') },
  ]));
  // An order nobody will deliver the rest of: closed by hand.
  const cartons = await audit('PurchaseOrder', await save('PurchaseOrder', daysAgo(14), { supplierId: partner('佳美包装') }, [{ materialId: material('包装纸箱'), number: 200, unitPrice: 3.5 }]));
  await unit((ctx) => completeManually(ctx, billType('PurchaseOrder')!, cartons));
  // Two drafts of one supplier merged into one; a draft; one awaiting audit.
  const nuts = await save('PurchaseOrder', daysAgo(4), { supplierId: partner('恒通五金') }, [{ materialId: material('六角螺母'), number: 5000, unitPrice: 0.03 }]);
  const screws = await save('PurchaseOrder', daysAgo(4), { supplierId: partner('恒通五金') }, [{ materialId: material('内六角螺钉'), number: 10000, unitPrice: 0.08 }]);
  await unit((ctx) => mergeBills(ctx, billType('PurchaseOrder')!, [nuts, screws]));
  await submit('PurchaseOrder', await save('PurchaseOrder', daysAgo(2), { supplierId: partner('明光电子'), remark: '待审核' }, [{ materialId: material('单片机'), number: 200, unitPrice: 9.8 }]));
  await save('PurchaseOrder', daysAgo(1), { supplierId: partner('华锐钢材') }, [{ materialId: material('冷轧钢板'), number: 500, unitPrice: 5.2 }]);

  // Sales: an order sent out whole and partly returned; an order sent out in part; a refused order.
  const smart = await audit('SaleOrder', await save('SaleOrder', daysAgo(20), { customerId: partner('上海智控') }, [{ materialId: material('直流无刷电机'), number: 10, unitPrice: 320 }]));
  const [smartLine] = await lineIds('SaleOrder', smart);
  // Checked before it left, and packed in two boxes of five (出货检验, 检验装箱).
  const shipmentChecked = await save('ShipmentInspection', daysAgo(18), { customerId: partner('上海智控'), remark: '出货前检验' }, [
    { materialId: material('直流无刷电机'), number: 10, sourceLineId: smartLine, readings: [{ item: 1, passed: true }, { item: 2, passed: true }] },
  ]);
  for (const code of ['ZK-01', 'ZK-02']) await unit((ctx) => packBox(ctx, billType('ShipmentInspection')!, { billId: shipmentChecked, lineNo: 1, code, quantity: 5, serialNumbers: [] }));
  await audit('ShipmentInspection', shipmentChecked);
  const shipped = await audit('SaleOutstock', await save('SaleOutstock', daysAgo(17), { customerId: partner('上海智控'), ...goods }, [
    { materialId: material('直流无刷电机'), number: 10, unitPrice: 320, sourceLineId: smartLine, ...goods, ...at('C-02 电机区') },
  ]));
  const [shippedLine] = await lineIds('SaleOutstock', shipped);
  const returned = await audit('SaleRefund', await save('SaleRefund', daysAgo(6), { customerId: partner('上海智控'), refundType: 'ReturnsRefunds', ...goods, remark: '客户退回两台' }, [
    { materialId: material('直流无刷电机'), number: 2, unitPrice: 320, sourceLineId: shippedLine, ...goods, ...at('C-02 电机区') },
  ]));
  // The out-stock invoiced, and its refund by a red-letter invoice (it counts negative), pushed down as the screen does.
  await audit('SaleInvoice', (await unit((ctx) => pushDown(ctx, billType('SaleInvoice')!, 'SaleOutstock', [shippedLine]))).id);
  const returnedLines = await lineIds('SaleRefund', returned);
  await audit('SaleInvoice', (await unit((ctx) => pushDown(ctx, billType('SaleInvoice')!, 'SaleRefund', returnedLines))).id);
  // Sent out in part: the rest is due in two days and the money in six (both inside their warning days).
  const source = await audit('SaleOrder', await save('SaleOrder', daysAgo(10), { customerId: partner('新源机电'), deliveryDate: daysAgo(-2), deliveryWarnDays: 5, receiptDate: daysAgo(-6), receiptWarnDays: 10 }, [{ materialId: material('直流无刷电机'), number: 12, unitPrice: 320 }]));
  const [sourceLine] = await lineIds('SaleOrder', source);
  const sent = await audit('SaleOutstock', await save('SaleOutstock', daysAgo(8), { customerId: partner('新源机电'), ...goods }, [
    { materialId: material('直流无刷电机'), number: 8, unitPrice: 320, sourceLineId: sourceLine, ...goods, ...at('C-02 电机区') },
  ]));
  // One motor exchanged: an exchange refund (no stock, no money), then the sale exchange pushed down from it —
  // the customer's motor back in, a replacement out — as the screen does.
  const [sentLine] = await lineIds('SaleOutstock', sent);
  const exchangeRefund = await audit('SaleRefund', await save('SaleRefund', daysAgo(5), { customerId: partner('新源机电'), refundType: 'Exchange', ...goods, remark: '一台异响，换货' }, [
    { materialId: material('直流无刷电机'), number: 1, unitPrice: 320, sourceLineId: sentLine, ...goods, ...at('C-02 电机区') },
  ]));
  const [exchangeLine] = await lineIds('SaleRefund', exchangeRefund);
  await audit('SaleExchange', (await unit((ctx) => pushDown(ctx, billType('SaleExchange')!, 'SaleRefund', [exchangeLine]))).id);
  const refused = await save('SaleOrder', daysAgo(3), { customerId: partner('精工数控') }, [{ materialId: material('直流无刷电机'), number: 30, unitPrice: 260 }]);
  await submit('SaleOrder', refused);
  await unit((ctx) => refuseBill(ctx, billType('SaleOrder')!, refused, '单价低于最低售价，请重新报价'));

  // Stock: a transfer, a stock check that found a loss, an other out-stock whose audit was withdrawn.
  await audit('StockTransfer', await save('StockTransfer', daysAgo(9), { ...raw, targetWarehouseId: warehouse('半成品仓') }, [
    { materialId: material('内六角螺钉'), number: 2000, ...raw, ...at('A-03 五金区'), targetWarehouseId: warehouse('半成品仓'), targetLocationId: location('B-01 板卡区') },
  ]));
  await audit('StockCheck', await save('StockCheck', daysAgo(5), { ...raw, remark: '月度盘点' }, [{ materialId: material('铜芯软电线'), number: 775, ...raw }]));
  const withdrawn = await audit('OtherOutstock', await save('OtherOutstock', daysAgo(4), { ...raw, remark: '研发领用' }, [
    { materialId: material('贴片电阻'), number: 5000, unitPrice: 0.005, ...raw, ...at('A-02 电子料区') },
  ]));
  await unit((ctx) => abandonAudit(ctx, billType('OtherOutstock')!, withdrawn));

  // Production: 50 control boards ordered (their materials from the board's BOM, their steps from its routing),
  // every material picked, the steps reported, 30 boards completed into the semi-finished store at the work in
  // progress they absorbed; 20 controllers ordered two days ago, nothing picked yet.
  const semi = { warehouseId: warehouse('半成品仓') };
  const boards = await audit('ProductionOrder', await save('ProductionOrder', daysAgo(7), { deliveryDate: daysAgo(-5), deliveryWarnDays: 7, remark: '月度备货' }, [
    { role: 'Product', materialId: material('控制板组件'), number: 50, ...semi },
  ]));
  const orderLines = (await unit(async (ctx) => (await getBill(ctx, billType('ProductionOrder')!, boards)).lines as Array<Record<string, unknown>>)).map((l) => ({
    id: Number(l.id),
    role: String(l.role),
    materialId: Number(l.materialId),
    number: Number(l.number),
    processId: Number(l.processId),
    teamId: l.teamId == null ? null : Number(l.teamId),
    unitPrice: Number(l.unitPrice),
  }));
  const [boardLine] = orderLines.filter((l) => l.role === 'Product');
  const materialLines = orderLines.filter((l) => l.role === 'Material');
  const steps = orderLines.filter((l) => l.role === 'Process');
  await audit('ProductionPick', await save('ProductionPick', daysAgo(6), { ...raw }, materialLines.map((l) => ({ materialId: l.materialId, number: l.number, sourceLineId: l.id, ...raw, ...at('A-02 电子料区') }))));
  // Every step dispatched to the routing's crew, planned over the two days before the reports.
  await audit('ProcessDispatch', await save('ProcessDispatch', daysAgo(6), {}, steps.map((step) => ({
    materialId: step.materialId,
    number: step.number,
    processId: step.processId,
    teamId: step.teamId,
    planStart: daysAgo(6),
    planFinish: daysAgo(4),
    sourceLineId: step.id,
  }))));
  // Quality on the shop floor: the first board of the first step checked before the run, a patrol an hour later.
  await audit('FirstArticleInspection', await save('FirstArticleInspection', daysAgo(5), { remark: '开线首件' }, [
    { materialId: steps[0].materialId, number: 1, processId: steps[0].processId, sourceLineId: steps[0].id, readings: [{ item: 1, passed: true }, { item: 2, value: 96 }] },
  ]));
  await audit('PatrolInspection', await save('PatrolInspection', daysAgo(5), { remark: '上午巡检' }, [
    { materialId: steps[0].materialId, number: 5, processId: steps[0].processId, sourceLineId: steps[0].id, readings: [{ item: 1, passed: true }, { item: 2, passed: true }] },
  ]));
  // The workshop's reports, by the crews of the routing: two of the 50 boards scrapped at the first step, the 48
  // left through every step but the last, the last done for 30 of them and three sent back for rework there (返工:
  // they stay at that step, to be reported again once reworked, and earn nothing yet).
  const scrapped = 2;
  const report = await audit('ProcessReport', await save('ProcessReport', daysAgo(4), {}, steps.map((step, i) => ({
    materialId: step.materialId,
    number: i === steps.length - 1 ? 30 : step.number - scrapped,
    ...(i === 0 ? { scrapNumber: scrapped } : {}),
    ...(i === steps.length - 1 ? { reworkNumber: 3 } : {}),
    processId: step.processId,
    teamId: step.teamId,
    unitPrice: step.unitPrice,
    sourceLineId: step.id,
  }))));
  // The scrapped boards into the waste store at what the recycler pays (their value off the order's work in progress).
  const [scrappedLine] = await lineIds('ProcessReport', report);
  const waste = { warehouseId: warehouse('废品仓') };
  await audit('ProductionWaste', await save('ProductionWaste', daysAgo(4), { ...waste, remark: '贴片不良报废板' }, [
    { materialId: material('控制板组件'), number: 2, unitPrice: 5, sourceLineId: scrappedLine, ...waste },
  ]));
  // Their piece wages for the month: each crew's pieces shared by its members' shares (工序核算).
  await audit('ProcessAccounting', await save('ProcessAccounting', daysAgo(3), { salaryPeriod: daysAgo(3).slice(0, 7), remark: '控制板组件计件' }, await accountingOf(report)));
  // This month's salary bill, a draft: saved with the administrator's base pay, it takes every worker's piece wages.
  const month = daysAgo(3).slice(0, 7);
  await unit((ctx) => createBill(ctx, billType('Salary')!, { billDate: daysAgo(1), salaryPeriod: month, remark: `${month} 工资（计件工资取自工序核算）`, lines: [{ staffId: me.id, basePay: '6000' }] } as BillPayload));
  // The 30 finished boards tested before they go into the semi-finished store.
  // Packed three boxes of ten as they are inspected (检验装箱).
  const boardsChecked = await save('FinishedInspection', daysAgo(3), { remark: '成品终检' }, [
    { materialId: boardLine.materialId, number: 30, sourceLineId: boardLine.id, readings: [{ item: 1, value: 102 }, { item: 2, passed: true }] },
  ]);
  for (let box = 0; box < 3; box++) await unit((ctx) => packBox(ctx, billType('FinishedInspection')!, { billId: boardsChecked, lineNo: 1, quantity: 10, serialNumbers: [] }));
  await audit('FinishedInspection', boardsChecked);
  await audit('ProductionInstock', await save('ProductionInstock', daysAgo(3), { ...semi }, [
    { materialId: material('控制板组件'), number: 30, sourceLineId: boardLine.id, ...semi, ...at('B-01 板卡区') },
  ]));
  await audit('ProductionOrder', await save('ProductionOrder', daysAgo(2), { deliveryDate: daysAgo(-12), deliveryWarnDays: 5 }, [
    { role: 'Product', materialId: material('步进电机控制器'), number: 20, ...goods },
  ]));

  // Equipment: the press repaired nine days ago (its fasteners replaced: spare parts into manufacturing overhead),
  // the placement machine maintained on its 15-day plan eleven days ago, the reflow oven's repair under way (a
  // work order due today); "generate from plans" then makes the placement machine's next maintenance, due in
  // four days — the dashboard's early warning shows both.
  const machines = new Map((await rows<{ id: number; code: string }>(database, sql`select id, code from equipment where tenant_id = ${me.tenant_id}`)).map((r) => [r.code, Number(r.id)]));
  const maintained = (code: string) => ({ equipmentId: machines.get(code) });
  await audit('EquipmentMaintenance', await save('EquipmentMaintenance', daysAgo(9), { ...maintained('SB01'), maintenanceKind: 'Repair', downtimeHours: 6, remark: '冲头紧固件松动，更换螺母' }, [
    { materialId: material('六角螺母'), number: 20, ...raw, ...at('A-03 五金区') },
  ]));
  await audit('EquipmentMaintenance', await save('EquipmentMaintenance', daysAgo(11), { ...maintained('SB03'), maintenanceKind: 'Planned', deliveryDate: daysAgo(11), downtimeHours: 2, remark: '吸嘴清洁、导轨润滑' }, []));
  await save('EquipmentMaintenance', daysAgo(1), { ...maintained('SB04'), maintenanceKind: 'Repair', deliveryDate: daysAgo(0), deliveryWarnDays: 3, remark: '温区三加热管故障，等待备件' }, []);
  await unit((ctx) => generateMaintenance(ctx));

  // Entrusted machining: 精工数控 sent 200 castings (kept at no value in its consignment store); an order machines
  // 100 end caps for it, picking 100 castings, our own screws and the lathe's oil; completed, the caps went back at the
  // processing fee of 12.00 each; 100 castings wait for the next order.
  const precision = partner('精工数控');
  const consigned = { warehouseId: warehouse('客供料仓(精工数控)') };
  await audit('EntrustReceipt', await save('EntrustReceipt', daysAgo(10), { customerId: precision, ...consigned, remark: '端盖铸件来料' }, [{ materialId: material('端盖铸件毛坯'), number: 200, ...consigned }]));
  const capsOrder = await audit('ProductionOrder', await save('ProductionOrder', daysAgo(9), { customerId: precision, deliveryDate: daysAgo(2), remark: '精工数控受托加工' }, [
    { role: 'Product', materialId: material('机床主轴端盖'), number: 100, ...goods },
  ]));
  const capsLines = await unit(async (ctx) => (await getBill(ctx, billType('ProductionOrder')!, capsOrder)).lines as Array<Record<string, unknown>>);
  const capsMaterial = (name: string) => capsLines.find((l) => l.role === 'Material' && Number(l.materialId) === material(name))!;
  await audit('ProductionPick', await save('ProductionPick', daysAgo(8), { customerId: precision }, [
    { materialId: material('端盖铸件毛坯'), number: 100, sourceLineId: Number(capsMaterial('端盖铸件毛坯').id), ...consigned },
    { materialId: material('内六角螺钉'), number: 400, sourceLineId: Number(capsMaterial('内六角螺钉').id), ...raw, ...at('A-03 五金区') },
    // The oil, a consumables line: one barrel by the BOM, one and a half used (openConsumablesOutstock lets it go beyond).
    { materialId: material('润滑油'), number: 1.5, sourceLineId: Number(capsMaterial('润滑油').id), ...raw, ...at('A-03 五金区') },
  ]));
  const capsProduct = capsLines.find((l) => l.role === 'Product')!;
  await audit('ProductionInstock', await save('ProductionInstock', daysAgo(4), { ...goods }, [{ materialId: material('机床主轴端盖'), number: 100, sourceLineId: Number(capsProduct.id), ...goods, ...at('C-03 待发区') }]));
  await audit('SaleOutstock', await save('SaleOutstock', daysAgo(3), { customerId: precision, ...goods, remark: '端盖加工费' }, [
    { materialId: material('机床主轴端盖'), number: 100, unitPrice: 12, ...goods, ...at('C-03 待发区') },
  ]));

  // Consumables: the sheet-metal workshop's lubricating oil for the month, issued into manufacturing overhead
  // (the month's cost run spreads it over the orders with the rest of the overhead).
  const [sheetMetal] = await rows<{ id: number }>(database, sql`select id from department where tenant_id = ${me.tenant_id} and name = '生产一车间'`);
  await audit('ConsumablesOutstock', await save('ConsumablesOutstock', daysAgo(6), { deptId: Number(sheetMetal.id), ...raw, remark: '冲床、折弯机日常润滑' }, [
    { materialId: material('润滑油'), number: 3, ...raw, ...at('A-03 五金区') },
  ]));

  // Planning: 60 controllers sold for delivery in three weeks and 100 boards kept in stock (an independent
  // demand), planned by one MRP run; its board suggestion became a production order (draft) and its
  // purchase suggestions one requisition (audited). The controllers are still to be put into production.
  const sold = await audit('SaleOrder', await save('SaleOrder', daysAgo(1), { customerId: partner('上海智控'), deliveryDate: daysAgo(-21), deliveryWarnDays: 7 }, [
    { materialId: material('步进电机控制器'), number: 60, unitPrice: 680 },
  ]));
  const stocking = await audit('IndependentDemand', await save('IndependentDemand', daysAgo(1), { deliveryDate: daysAgo(-14), remark: '控制板季度备货' }, [
    { materialId: material('控制板组件'), number: 100 },
  ]));
  const [soldLine] = await lineIds('SaleOrder', sold);
  const [stockingLine] = await lineIds('IndependentDemand', stocking);
  const plan = await audit('MrpPlan', await save('MrpPlan', daysAgo(0), { remark: '12月生产计划' }, [
    { mrpRole: 'Demand', materialId: material('步进电机控制器'), number: 60, sourceLineId: soldLine },
    { mrpRole: 'Demand', materialId: material('控制板组件'), number: 100, sourceLineId: stockingLine },
  ]));
  const suggestions = (await unit(async (ctx) => (await getBill(ctx, billType('MrpPlan')!, plan)).lines as Array<Record<string, unknown>>)).filter((l) => l.mrpRole !== 'Demand');
  const made = suggestions.filter((l) => l.mrpRole === 'Produce' && Number(l.materialId) === material('控制板组件'));
  await save('ProductionOrder', daysAgo(0), { deliveryDate: made[0]?.needDate, remark: 'MRP 建议' }, made.map((l) => ({ role: 'Product', materialId: Number(l.materialId), number: Number(l.number), bomId: l.bomId, ...semi, sourceLineId: Number(l.id) })));
  const bought = suggestions.filter((l) => l.mrpRole === 'Purchase');
  await seedQualityDemo();
  if (bought.length) await audit('PurchaseRequisition', await save('PurchaseRequisition', daysAgo(0), { remark: 'MRP 建议' }, bought.map((l) => ({ materialId: Number(l.materialId), number: Number(l.number), sourceLineId: Number(l.id) }))));

  // Outsourcing (委外): 100 motor brackets made by 恒通五金 from our steel and screws at 6.00 a piece. All the
  // materials sent; 60 accepted, 2 rejected (the supplier makes them again), 1 scrapped; 5 sent back; the fee paid.
  const hardware = { supplierId: partner('恒通五金') };
  const brackets = await audit('OutsourcingOrder', await save('OutsourcingOrder', daysAgo(12), { ...hardware, deliveryDate: daysAgo(-4), deliveryWarnDays: 5, remark: '支架委外加工' }, [
    { role: 'Product', materialId: material('电机安装支架'), number: 100, unitPrice: 6, ...semi },
  ]));
  const bracketLines = (await unit(async (ctx) => (await getBill(ctx, billType('OutsourcingOrder')!, brackets)).lines)) as Array<Record<string, unknown>>;
  const places: Record<number, { locationId: number }> = { [material('冷轧钢板')]: at('A-01 钢材区'), [material('内六角螺钉')]: at('A-03 五金区') };
  await audit('OutsourcingPick', await save('OutsourcingPick', daysAgo(11), { ...hardware, ...raw }, bracketLines.filter((l) => l.role === 'Material').map((l) => ({
    materialId: Number(l.materialId),
    number: Number(l.number),
    sourceLineId: Number(l.id),
    ...raw,
    ...places[Number(l.materialId)],
  }))));
  const bracketProduct = bracketLines.find((l) => l.role === 'Product')!;
  const bracketsIn = await audit('OutsourcingInstock', await save('OutsourcingInstock', daysAgo(6), { ...hardware, ...semi, remark: '首批到货' }, [
    { materialId: material('电机安装支架'), number: 60, rejectedNumber: 2, scrapNumber: 1, unitPrice: 6, sourceLineId: Number(bracketProduct.id), ...semi },
  ]));
  const [bracketsInLine] = await lineIds('OutsourcingInstock', bracketsIn);
  const bracketsBack = await audit('OutsourcingRefund', await save('OutsourcingRefund', daysAgo(3), { ...hardware, refundType: 'ReturnsRefunds', ...semi, remark: '孔位偏差退货' }, [
    { materialId: material('电机安装支架'), number: 5, unitPrice: 6, sourceLineId: bracketsInLine, ...semi },
  ]));
  if (bank) {
    await audit('Payment', await save('Payment', daysAgo(1), { ...hardware, payType: 'OrdinaryPay', fundAccountId: Number(bank.id), remark: '支架加工费' }, [
      { sourceBillId: bracketsIn, amount: '360.00' } as unknown as Line,
      { sourceBillId: bracketsBack, amount: '-30.00' } as unknown as Line,
    ]));
  }
  return true;

  /**
   * Incoming quality: 500 MCUs ordered; the first 300 passed their incoming inspection and were taken into stock (the
   * MCU's template holds the goods back until then), the other 200 failed on pin coplanarity and wait, rejected,
   * for the supplier — the in-stock cannot take them.
   */
  async function seedQualityDemo() {
    const supplier = { supplierId: partner('明光电子') };
    const mcus = await audit('PurchaseOrder', await save('PurchaseOrder', daysAgo(8), { ...supplier, deliveryDate: daysAgo(2) }, [{ materialId: material('单片机'), number: 500, unitPrice: 9.6 }]));
    const [mcuLine] = await lineIds('PurchaseOrder', mcus);
    const checked = (number: number, coplanarity: number) => [{ materialId: material('单片机'), number, sourceLineId: mcuLine, readings: [{ item: 1, passed: true }, { item: 2, passed: true }, { item: 3, value: coplanarity }] }];
    await audit('IncomingInspection', await save('IncomingInspection', daysAgo(4), { ...supplier, remark: '第一批到货' }, checked(300, 0.04)));
    await audit('PurchaseInstock', await save('PurchaseInstock', daysAgo(4), { ...supplier, ...raw }, [
      { materialId: material('单片机'), number: 300, unitPrice: 9.6, sourceLineId: mcuLine, batchNumber: 'MCU-2611-A', ...raw, ...at('A-02 电子料区') },
    ]));
    await audit('IncomingInspection', await save('IncomingInspection', daysAgo(1), { ...supplier, remark: '第二批到货：引脚变形，整批判退' }, checked(200, 0.15)));
  }
}
