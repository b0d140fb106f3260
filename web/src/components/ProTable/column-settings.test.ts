import { describe, expect, it } from 'vitest';
import { applyColumnSettings, defaultColumnSettings, mergeColumnSettings, moveColumnSetting, stepColumnSetting, toggleColumnSetting } from './column-settings.ts';
import type { ColumnSetting, ProColumn } from './types.ts';

type Row = Record<string, unknown>;
const col = (prop: string, extra: Partial<ProColumn<Row>> = {}): ProColumn<Row> => ({ prop, title: prop.toUpperCase(), ...extra });
const columns = [col('code'), col('name'), col('qty'), col('amount'), col('remark')];
const s = (prop: string, priority: number, isShow = true, disabled = false): ColumnSetting => ({ prop, isShow, priority, disabled });
const order = (list: ColumnSetting[]) => list.map((e) => e.prop);

describe('column settings', () => {
  it('defaults to every column shown in code order', () => {
    expect(defaultColumnSettings(columns)).toEqual([s('code', 1), s('name', 2), s('qty', 3), s('amount', 4), s('remark', 5)]);
  });

  it('orders by saved priority, keeps hidden flags, and appends columns the saved list does not know', () => {
    const merged = mergeColumnSettings(columns, [s('qty', 1), s('code', 2, false), s('name', 3), s('dropped', 4)]);
    expect(order(merged)).toEqual(['qty', 'code', 'name', 'amount', 'remark']);
    expect(merged.find((e) => e.prop === 'code')?.isShow).toBe(false);
    expect(merged.map((e) => e.priority)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps a locked column shown even if saved hidden', () => {
    const merged = mergeColumnSettings(columns, [s('code', 1, false, true)]);
    expect(merged[0]).toEqual(s('code', 1, true, true));
    expect(toggleColumnSetting(merged, 'code', false)[0].isShow).toBe(true);
  });

  it('locks columns the code locks', () => {
    const merged = mergeColumnSettings([col('code', { lockSetting: true }), col('name')], [s('code', 2), s('name', 1)]);
    expect(merged.find((e) => e.prop === 'code')?.disabled).toBe(true);
  });

  it('moves an entry while locked entries keep their places', () => {
    const list = [s('code', 1, true, true), s('name', 2), s('qty', 3), s('amount', 4, true, true), s('remark', 5)];
    expect(order(moveColumnSetting(list, 4, 1))).toEqual(['code', 'remark', 'name', 'amount', 'qty']);
    expect(order(moveColumnSetting(list, 1, 4))).toEqual(['code', 'qty', 'remark', 'amount', 'name']);
    // A locked entry does not move, and nothing is dropped onto a locked slot.
    expect(order(moveColumnSetting(list, 0, 3))).toEqual(order(list));
    expect(order(moveColumnSetting(list, 1, 0))).toEqual(order(list));
  });

  it('steps up and down over locked entries', () => {
    const list = [s('code', 1), s('name', 2), s('qty', 3, true, true), s('amount', 4)];
    expect(order(stepColumnSetting(list, 1, 1))).toEqual(['code', 'amount', 'qty', 'name']);
    expect(order(stepColumnSetting(list, 3, -1))).toEqual(['code', 'amount', 'qty', 'name']);
    expect(order(stepColumnSetting(list, 0, -1))).toEqual(order(list));
  });

  it('renders shown columns in settings order with fixed columns at the edges', () => {
    const cols = [col('sel', { hideInSetting: true, fixed: 'left' }), col('code', { fixed: 'left' }), col('name'), col('qty'), col('op', { hideInSetting: true, fixed: 'right' }), col('searchOnly', { hideInTable: true })];
    const settings = [s('qty', 1), s('code', 2), s('name', 3, false)];
    expect(applyColumnSettings(cols, settings).map((c) => c.prop)).toEqual(['sel', 'code', 'qty', 'op']);
  });
});
