import { expect } from 'vitest';
import type { StockDifference } from '@p8/contract/bills/api';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath, headerFields, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { Caller } from './basic-fixtures.ts';

/**
 * A valid save payload of any declared bill type, its required header fields filled by kind from the
 * records given (supplier, customer, warehouses, materials), so that tests can walk the whole registry.
 */
export interface BillRecords {
  supplier: number;
  customer: number;
  warehouse: number;
  otherWarehouse: number;
  /** A material in stock in `warehouse` (out-stocks take 2 of it). */
  material: number;
  /** Assembly: the product made and the component used (4 of it in stock). */
  product: number;
  component: number;
}

/** The basic records a bill test needs (a unit, three materials, a supplier, a customer, two warehouses), made through the API. */
export async function createBillRecords(api: Caller): Promise<BillRecords> {
  const piece = await api.create('unit', { name: 'pc' });
  const material = await api.create('material', { code: 'P1', name: 'Part', units: [{ unitId: piece, isMain: true }] });
  const product = await api.create('material', { code: 'P2', name: 'Kit', units: [{ unitId: piece, isMain: true }] });
  const component = await api.create('material', { code: 'P3', name: 'Bolt', units: [{ unitId: piece, isMain: true }] });
  const supplier = await api.create('supplier', { code: 'S1', name: 'Supplier one' });
  const customer = await api.create('customer', { code: 'C1', name: 'Customer one' });
  const warehouse = await api.create('stock', { code: 'W1', name: 'Main' });
  const otherWarehouse = await api.create('stock', { code: 'W2', name: 'Second' });
  return { supplier, customer, warehouse, otherWarehouse, material, product, component };
}

export function billPayload(decl: BillTypeDecl, records: BillRecords, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const header: Record<string, unknown> = { billDate: '2026-11-24' };
  for (const field of headerFields(decl)) {
    if (!field.required || field.key in header) continue;
    if (field.kind === 'supplier') header[field.key] = records.supplier;
    else if (field.kind === 'customer') header[field.key] = records.customer;
    else if (field.kind === 'warehouse') header[field.key] = field.key === 'targetWarehouseId' ? records.otherWarehouse : records.warehouse;
    else if (field.kind === 'enum') header[field.key] = field.options![0].value;
    else if (field.kind === 'text') header[field.key] = 'Zhang San';
  }
  if (decl.stock !== 'none') header.warehouseId ??= records.warehouse;
  const lines =
    decl.stock === 'assembly'
      ? [
          { materialId: records.product, number: 1, direction: 'in' },
          { materialId: records.component, number: 4, direction: 'out' },
        ]
      : [{ materialId: records.material, number: 2, unitPrice: 10 }];
  return { ...header, lines, ...overrides };
}

/** The API path of a declared type. */
export const billPath = (type: string) => billApiPath(billType(type)!);

/** The data of a successful answer (the test fails on any other). */
export async function ok<T>(promise: Promise<{ body: { status: number; message: string; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
  return res.body.data;
}

/** The answer must be the refusal `key`. */
export async function refused(promise: Promise<{ body: { status: number; message: string } }>, key: string) {
  const res = await promise;
  expect(res.body.message, JSON.stringify(res.body)).toBe(key);
}

/** Every balance and valuation agrees with the ledger (the end of every stock test). */
export async function verifyEmpty(api: Caller) {
  expect(await ok(api.post<StockDifference[]>('/api/admin/stock/verify'))).toEqual([]);
}

/** Stock of a material in a warehouse (all locations, batches and serials), from the current-stock report. */
export async function stockOf(api: Caller, materialId: number, warehouseId: number): Promise<number> {
  const page = await ok(api.get<Array<{ quantity: string }>>(`/api/admin/stock/current?materialId=${materialId}&warehouseId=${warehouseId}&pageSize=200`));
  return page.reduce((s, r) => s + Number(r.quantity), 0);
}
