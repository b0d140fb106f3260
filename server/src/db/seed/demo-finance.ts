import type { FastifyInstance } from 'fastify';
import { microText, roundTo, sum } from '@p8/contract/bills/decimal';
import { computedLineAmount } from '@p8/contract/bills/registry';
import { Salary } from '@p8/contract/bills/salary';
import { DEMO_TENANTS } from './demo.ts';

/*
 * The first demo tenant's money, through the API like a user's (after its basic records): three fund
 * accounts with opening balances, partners' opening balances (one received in part, one paid), a purchase
 * in-stock half paid, two sale out-stocks (one received in full, one in part), an advance from a customer, a
 * freight fee, a transfer to the bank and last month's salaries of the staff (paid but for the last one's).
 * Payments, receipts, fees and salaries are bills: saved, submitted and audited through the bill engine's routes. Ends by asking
 * /api/admin/finance/verify, which must be empty. Runs once: a tenant with fund accounts is left alone.
 */

interface Envelope<T> {
  status: number;
  message: string;
  additional?: unknown;
  data: T;
}

type Api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => Promise<T>;

/**
 * Cross-border commerce (docs/cross-border.md): US dollar and euro with a rate for each of the last two weeks, the
 * motor's export data, an export customer in USD, a USD sale order pushed down to an out-stock and received at a
 * later day's rate — the exchange difference posts to 6603.
 */
async function seedCrossBorder(api: Api, ids: { motor: number; warehouse: number; bank: number }) {
  const usd = (await api<{ id: number }>('POST', '/basic/currency', { code: 'USD', name: '美元', symbol: '$' })).id;
  const eur = (await api<{ id: number }>('POST', '/basic/currency', { code: 'EUR', name: '欧元', symbol: '€' })).id;
  for (let offset = 13; offset >= 0; offset--) {
    const step = (13 - offset) * 5;
    await api('POST', '/basic/exchangeRate', { currencyId: usd, rateDate: DAY(offset), rate: Number(((7100 + step) / 1000).toFixed(4)) });
    await api('POST', '/basic/exchangeRate', { currencyId: eur, rateDate: DAY(offset), rate: Number(((7700 - step) / 1000).toFixed(4)) });
  }
  await api('PUT', '/basic/material', { id: ids.motor, englishName: 'Brushless DC motor', hsCode: '8501.31', netWeight: 1.2, grossWeight: 1.45, originCountry: 'CN' });
  const customer = (await api<{ id: number }>('POST', '/basic/customer', { code: 'EX001', name: 'Pacific Trading LLC', country: 'US', currencyId: usd, contacts: [], addresses: [] })).id;
  const audited = async (path: string, body: Record<string, unknown>) => {
    const { id } = await api<{ id: number }>('POST', path, body);
    await api('POST', `${path}/submit`, { id });
    await api('POST', `${path}/audit`, { id });
    return id;
  };
  // Five motors: the demo's stock keeps enough for the browser suites' own sales.
  const order = await audited('/sale/order', { billDate: DAY(8), customerId: customer, deliveryDate: DAY(5), lines: [{ materialId: ids.motor, number: 5, unitPrice: 48.5 }], remark: 'Export order, FOB Shanghai' });
  const lines = (await api<{ lines: Array<{ id: number }> }>('GET', `/sale/order/${order}`)).lines;
  const draft = await api<{ id: number }>('POST', '/sale/outstock/pushDown', { sourceType: 'SaleOrder', sourceLineIds: lines.map((l) => l.id) });
  const detail = await api<Record<string, unknown> & { lines: Array<Record<string, unknown>> }>('GET', `/sale/outstock/${draft.id}`);
  await api('PUT', '/sale/outstock', { ...pick(detail), id: draft.id, billDate: DAY(6), warehouseId: ids.warehouse, lines: detail.lines.map((l) => ({ id: l.id, sourceLineId: l.sourceLineId, materialId: l.materialId, unitId: l.unitId, number: l.number, unitPrice: l.unitPrice, warehouseId: ids.warehouse })) });
  await api('POST', '/sale/outstock/submit', { id: draft.id });
  await api('POST', '/sale/outstock/audit', { id: draft.id });
  // Received four days later at that day's rate: a different rate, so an exchange difference.
  await audited('/finance/receipt', { billDate: DAY(2), customerId: customer, receiptType: 'OrdinaryReceipt', fundAccountId: ids.bank, lines: [{ sourceBillId: draft.id, amount: '242.50' }], remark: 'T/T received' });
}

/** The header of a bill's detail as a save sends it (the fields the out-stock form keeps). */
const pick = (detail: Record<string, unknown>) => ({ customerId: detail.customerId, currencyId: detail.currencyId, handlerId: detail.handlerId ?? null, remark: detail.remark ?? '' });

const DAY = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

/** Seeds the demo finance; false when the tenant already has fund accounts or lacks its basic records. */
export async function seedFinanceDemo(app: FastifyInstance): Promise<boolean> {
  const demo = DEMO_TENANTS[0];
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token?: string): Promise<Envelope<T>> => {
    const res = await app.inject({ method, url: `/api${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body === undefined ? {} : { payload: body as object }) });
    const envelope = res.json<Envelope<T>>();
    if (envelope.status !== 0) throw new Error(`demo finance: ${method} ${url} refused: ${envelope.message} ${JSON.stringify(envelope.additional ?? '')}`);
    return envelope;
  };
  const token = (await call<{ token: string }>('POST', '/auth/admin/name', { name: demo.adminName, password: demo.password })).data.token;
  try {
    const api: Api = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => (await call<T>(method, `/admin${url}`, body, token)).data;
    if ((await api<unknown[]>('GET', '/finance/account')).length) return false;
    const find = async (record: string, name: string) => (await api<Array<{ id: number; name: string }>>('GET', `/basic/${record}?current=1&pageSize=100`)).find((r) => r.name === name)?.id;
    const motor = await find('material', '直流无刷电机');
    const supplier = await find('supplier', '江苏华锐钢材有限公司');
    const customers = await api<Array<{ id: number }>>('GET', '/basic/customer?current=1&pageSize=100');
    const [warehouse] = await api<Array<{ id: number }>>('GET', '/basic/stock?current=1&pageSize=100');
    if (!motor || !supplier || customers.length < 2 || !warehouse) return false;

    const account = async (name: string, kind: string, openingBalance: string) => (await api<{ id: number }>('POST', '/finance/account', { name, kind, openingBalance, openingDate: DAY(90) })).id;
    const cash = await account('现金', 'cash', '20000.00');
    const bank = await account('工商银行基本户', 'bank', '300000.00');
    await account('支付宝', 'ewallet', '5000.00');

    const audited = async (path: string, body: Record<string, unknown>) => {
      const { id } = await api<{ id: number }>('POST', path, body);
      await api('POST', `${path}/submit`, { id });
      await api('POST', `${path}/audit`, { id });
      return id;
    };
    // Opening balances of partners on the day the books start: receivables, payables, an advance received and
    // a prepayment; one opening receivable received in part and one opening payable paid in full.
    const opening = async (beginningType: string, record: 'supplier' | 'customer', name: string, openingAmount: string) =>
      audited('/finance/beginning', { billDate: DAY(90), beginningType, [`${record}Id`]: await find(record, name), openingAmount, lines: [] });
    await opening('Receivable', 'customer', '上海智控自动化设备有限公司', '5000.00');
    const xinyuan = await opening('Receivable', 'customer', '杭州新源机电科技有限公司', '18650.00');
    await opening('Receivable', 'customer', '广州云帆智能装备有限公司', '32000.00');
    await opening('Advance', 'customer', '上海智控自动化设备有限公司', '2000.00');
    const huarui = await opening('Payable', 'supplier', '江苏华锐钢材有限公司', '12800.00');
    await opening('Payable', 'supplier', '深圳明光电子元件有限公司', '5630.50');
    await opening('Prepaid', 'supplier', '东莞佳美包装材料有限公司', '1260.00');
    await audited('/finance/receipt', { billDate: DAY(60), customerId: await find('customer', '杭州新源机电科技有限公司'), receiptType: 'BeginningPeriodReceipt', fundAccountId: bank, lines: [{ sourceBillId: xinyuan, amount: '8650.00' }] });
    await audited('/finance/payment', { billDate: DAY(45), supplierId: supplier, payType: 'BeginningPeriodPayment', fundAccountId: bank, lines: [{ sourceBillId: huarui, amount: '12800.00' }] });

    const line = (number: number, unitPrice: number) => [{ materialId: motor, number, unitPrice, warehouseId: warehouse.id }];
    // Paid half so far (below), the rest due in four days: an early warning on the dashboard.
    const instock = await audited('/purchase/instock', { billDate: DAY(40), supplierId: supplier, warehouseId: warehouse.id, payDate: DAY(-4), payWarnDays: 7, lines: line(20, 210) });
    const first = await audited('/sale/outstock', { billDate: DAY(35), customerId: customers[0].id, warehouseId: warehouse.id, lines: line(5, 320) });
    const second = await audited('/sale/outstock', { billDate: DAY(10), customerId: customers[1].id, warehouseId: warehouse.id, lines: line(3, 320) });

    const posted = (path: string, body: Record<string, unknown>) => audited(path, { lines: [], ...body });
    const settle = (billId: number, amount: string) => [{ sourceBillId: billId, amount }];
    await posted('/finance/payment', { billDate: DAY(20), supplierId: supplier, payType: 'OrdinaryPay', fundAccountId: bank, lines: settle(instock, '2100.00'), remark: '首付一半' });
    await posted('/finance/receipt', { billDate: DAY(30), customerId: customers[0].id, receiptType: 'OrdinaryReceipt', fundAccountId: bank, lines: settle(first, '1600.00') });
    await posted('/finance/receipt', { billDate: DAY(5), customerId: customers[1].id, receiptType: 'OrdinaryReceipt', fundAccountId: cash, lines: settle(second, '500.00') });
    await posted('/finance/receipt', { billDate: DAY(3), customerId: customers[0].id, receiptType: 'AdvanceReceipt', fundAccountId: bank, advanceAmount: '3000.00', remark: '下批订单预收款' });
    const fees = await api<Array<{ id: number; kind: string }>>('GET', '/basic/fee?current=1&pageSize=100');
    const expense = fees.find((f) => f.kind === 'expense')?.id ?? (await api<{ id: number }>('POST', '/basic/fee', { name: '运输费', kind: 'expense' })).id;
    await posted('/finance/fee', { billDate: DAY(8), fundAccountId: cash, supplierId: supplier, lines: [{ feeTypeId: expense, amount: '350.00' }], remark: '钢材运费' });
    await api('POST', '/finance/transfer', { docDate: DAY(2), fromAccountId: cash, toAccountId: bank, amount: '10000.00', remark: '现金存行' });

    // Last month's salaries of the staff (at most six), from the bank: everyone's net pay but the last one's
    // (half of it when there is one staff member).
    const staff = await api<Array<{ id: number }>>('GET', '/security/admin?current=1&pageSize=6');
    if (staff.length) {
      const month = new Date(Date.now() - 86_400_000 * new Date().getDate());
      const salaryPeriod = month.toISOString().slice(0, 7);
      const lines = staff.map((s, i) => ({ staffId: s.id, basePay: String(6000 + 500 * i), bonus: i % 2 ? '800.00' : '1200.00', socialInsurance: '682.50', incomeTax: String(45 + 12.5 * i), otherDeduction: '0' }));
      const salary = await audited('/finance/salary', { billDate: DAY(1), salaryPeriod, handlerId: staff[0].id, lines, remark: `${salaryPeriod} 工资` });
      const nets = lines.map((l) => computedLineAmount(Salary, l, 2)!);
      const paid = staff.length > 1 ? sum(nets.slice(0, -1)) : roundTo(nets[0] / 2n, 2);
      await posted('/finance/salaryPayment', { billDate: DAY(1), fundAccountId: bank, lines: settle(salary, microText(paid)), remark: '代发工资' });
    }

    await seedCrossBorder(api, { motor, warehouse: warehouse.id, bank });

    const differences = await api<unknown[]>('POST', '/finance/verify');
    if (differences.length) throw new Error(`demo finance: verify found ${JSON.stringify(differences)}`);
    return true;
  } finally {
    await call('POST', '/auth/logout', undefined, token).catch(() => {});
  }
}
