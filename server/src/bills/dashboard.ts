import { sql } from 'drizzle-orm';
import type { BillWarning } from '@p8/contract/bills/api';
import { BILL_TYPES, billType } from '@p8/contract/bills/catalogue';
import { billMenuName, billScreenPath } from '@p8/contract/bills/registry';
import type { DashboardSection } from '../core/dashboard.ts';
import { rows } from '../db/connection.ts';
import { earlyWarning } from './early-warning.ts';

/** How a decimal string from the database is shown: a number with at most 6 decimals. */
const num = (v: string) => Number(Number(v).toFixed(6));

/**
 * The bill engine's part of the home dashboard: what the stock is worth at its moving-average cost
 * (stock_valuation, kept by every stock posting), and the early warning of materials below their safety
 * stock. Bills whose delivery, pay or receipt date falls inside their warn days are a section of their own
 * (`billDateDashboard` below).
 */
export const assetDashboard: DashboardSection = {
  key: 'asset',
  title: { zh: '资产统计', en: 'Assets' },
  order: 40,
  menus: ['stock_current', 'basic_material', 'basic_stock'],
  async figures({ ctx }) {
    const [v] = await rows<{ amount: string; quantity: string; materials: string; warehouses: string }>(
      ctx.tx,
      sql`select coalesce(sum(amount), 0)::text as amount, coalesce(sum(quantity), 0)::text as quantity,
                 count(distinct material_id) filter (where quantity > 0)::text as materials,
                 count(distinct warehouse_id) filter (where quantity > 0)::text as warehouses
          from stock_valuation where tenant_id = ${ctx.tenantId}`,
    );
    return [
      { key: 'stockValue', menus: ['stock_current'], label: { zh: '库存金额', en: 'Stock value' }, format: 'amount', value: Math.round(Number(v.amount) * 100) / 100 },
      { key: 'stockQuantity', menus: ['stock_current', 'basic_material'], label: { zh: '库存数量', en: 'Stock quantity' }, format: 'quantity', value: num(v.quantity) },
      { key: 'materials', menus: ['basic_material'], label: { zh: '有库存物料', en: 'Materials in stock' }, format: 'count', value: Number(v.materials), link: '/basic/material' },
      { key: 'warehouses', menus: ['basic_stock'], label: { zh: '有库存仓库', en: 'Warehouses with stock' }, format: 'count', value: Number(v.warehouses), link: '/basic/stock' },
    ];
  },
  /** Enabled materials with a safety stock whose stock in all warehouses is below it, the emptiest first. */
  async warnings({ ctx }, limit) {
    const found = await rows<{ code: string; name: string; safety: string; onHand: string; total: string }>(
      ctx.tx,
      sql`select m.code, m.name, m.safety_stock::text as safety, s.quantity::text as "onHand", count(*) over () as total
          from material m
          cross join lateral (select coalesce(sum(v.quantity), 0) as quantity from stock_valuation v
                              where v.tenant_id = m.tenant_id and v.material_id = m.id) s
          where m.tenant_id = ${ctx.tenantId} and m.enabled and m.safety_stock > 0 and s.quantity < m.safety_stock
          order by s.quantity / m.safety_stock, m.code
          limit ${limit}`,
    );
    return {
      total: Number(found[0]?.total ?? 0),
      items: found.map((r) => ({
        kind: 'lowStock',
        label: { zh: '库存不足', en: 'Low stock' },
        subject: `${r.code} ${r.name}`,
        detail: `${num(r.onHand)} / ${num(r.safety)}`,
        link: '/basic/material',
      })),
    };
  },
};

const BILL_DATE_LABELS: Record<BillWarning['kind'], { zh: string; en: string }> = {
  delivery: { zh: '交货日期', en: 'Delivery date' },
  pay: { zh: '付款日期', en: 'Payment date' },
  receipt: { zh: '收款日期', en: 'Receipt date' },
  maintenance: { zh: '设备保养', en: 'Maintenance due' },
  inspection: { zh: '待检验', en: 'Inspection due' },
};

/**
 * The early warning of the bill engine's dates: posted bills whose delivery, payment or receipt date is
 * inside the bill's warning days (or past), and batches in stock close to their expiry
 * (bills/early-warning.ts). A bill shows only to who may open its type's screen; the section to who may
 * open any bill screen.
 */
export const billDateDashboard: DashboardSection = {
  key: 'billDates',
  title: { zh: '单据预警', en: 'Bill dates' },
  order: 45,
  menus: [...BILL_TYPES.map(billMenuName), 'stock_current'],
  async warnings({ ctx, may, dates }, limit) {
    // Low stock is the asset section's warning (on stock_valuation), not asked twice.
    const found = await earlyWarning(ctx, { limit, today: dates.today }, { lowStock: false });
    const bills = found.bills.flatMap((w) => {
      const decl = billType(w.billType);
      if (!decl || !may(billMenuName(decl))) return [];
      return [{ kind: `${w.kind}Date`, label: BILL_DATE_LABELS[w.kind], subject: `${w.billCode}${w.partnerName ? ` ${w.partnerName}` : ''}`, detail: w.date, link: billScreenPath(decl) }];
    });
    const batches = may('stock_current')
      ? found.expiring.map((e) => ({
          kind: 'expiring',
          label: { zh: '批次临期', en: 'Batch expiring' },
          subject: `${e.materialCode} ${e.materialName} · ${e.batchNumber}`,
          detail: e.expirationDate,
          link: '/stock/current',
        }))
      : [];
    const items = [...bills, ...batches];
    return { total: items.length, items: items.slice(0, limit) };
  },
};
