import type { ColumnSetting, ProColumn } from './types.ts';

/**
 * Column settings of a list (per tenant and list type, entries `{ prop, isShow, priority, disabled }`):
 * merging the saved entries with the code's columns, and reordering that keeps locked
 * (`disabled`) entries where they are. Pure; tested in column-settings.test.ts.
 */

/** The code's own order and visibility: every configurable column shown, priority 1, 2, 3… */
export function defaultColumnSettings<T>(columns: readonly ProColumn<T>[]): ColumnSetting[] {
  return columns
    .filter((c) => !c.hideInTable && !c.hideInSetting)
    .map((c, index) => ({ prop: c.prop, isShow: true, priority: index + 1, disabled: !!c.lockSetting }));
}

/**
 * The effective settings: saved entries for the columns that still exist, in saved priority order;
 * columns the saved list does not know are shown, placed after the saved entries in code order.
 * A locked entry is always shown.
 */
export function mergeColumnSettings<T>(columns: readonly ProColumn<T>[], saved: readonly ColumnSetting[] | null | undefined): ColumnSetting[] {
  const defaults = defaultColumnSettings(columns);
  if (!saved?.length) return defaults;
  const byProp = new Map(saved.map((s) => [s.prop, s]));
  const codeIndex = new Map(defaults.map((d, i) => [d.prop, i]));
  const known = defaults
    .filter((d) => byProp.has(d.prop))
    .map((d) => {
      const s = byProp.get(d.prop)!;
      const disabled = !!s.disabled || d.disabled;
      return { prop: d.prop, isShow: disabled ? true : s.isShow !== false, priority: Number(s.priority) || 0, disabled };
    })
    .sort((a, b) => a.priority - b.priority || codeIndex.get(a.prop)! - codeIndex.get(b.prop)!);
  const unknown = defaults.filter((d) => !byProp.has(d.prop));
  return renumber([...known, ...unknown]);
}

/** Priorities 1…n in list order. */
export function renumber(settings: readonly ColumnSetting[]): ColumnSetting[] {
  return settings.map((s, index) => ({ ...s, priority: index + 1 }));
}

/**
 * Moves the entry at `from` to `to`; locked entries keep their positions and the unlocked ones flow
 * around them. A locked entry does not move.
 */
export function moveColumnSetting(settings: readonly ColumnSetting[], from: number, to: number): ColumnSetting[] {
  if (from === to || !settings[from] || settings[from].disabled) return [...settings];
  const target = Math.max(0, Math.min(settings.length - 1, to));
  const slots = settings.map((s, i) => (s.disabled ? -1 : i)).filter((i) => i >= 0);
  const free = slots.map((i) => settings[i]);
  const fromFree = slots.indexOf(from);
  // Onto a locked entry: as far as the entry can go without passing it.
  const toFree =
    target > from
      ? slots.indexOf(Math.max(...slots.filter((i) => i <= target)))
      : slots.indexOf(Math.min(...slots.filter((i) => i >= target)));
  const [moved] = free.splice(fromFree, 1);
  free.splice(toFree, 0, moved);
  const out = [...settings];
  slots.forEach((slot, k) => (out[slot] = free[k]));
  return renumber(out);
}

/** One step up (-1) or down (+1), skipping locked entries. */
export function stepColumnSetting(settings: readonly ColumnSetting[], index: number, direction: -1 | 1): ColumnSetting[] {
  let target = index + direction;
  while (settings[target]?.disabled) target += direction;
  if (!settings[target]) return [...settings];
  return moveColumnSetting(settings, index, target);
}

/** Shows or hides one column (locked entries stay shown). */
export function toggleColumnSetting(settings: readonly ColumnSetting[], prop: string, isShow: boolean): ColumnSetting[] {
  return settings.map((s) => (s.prop === prop && !s.disabled ? { ...s, isShow } : s));
}

/**
 * The columns to render: configurable columns in settings order (hidden ones left out), with the
 * columns outside the settings (`hideInSetting`) kept at their code positions relative to the start or
 * end — a fixed-left column stays first, an action column fixed right stays last.
 */
export function applyColumnSettings<T>(columns: readonly ProColumn<T>[], settings: readonly ColumnSetting[]): ProColumn<T>[] {
  const byProp = new Map(columns.map((c) => [c.prop, c]));
  const configured = settings.filter((s) => s.isShow).map((s) => byProp.get(s.prop)).filter((c): c is ProColumn<T> => !!c);
  const inTable = columns.filter((c) => !c.hideInTable);
  const left = inTable.filter((c) => c.hideInSetting && c.fixed !== 'right' && c.fixed !== 'end');
  const right = inTable.filter((c) => c.hideInSetting && (c.fixed === 'right' || c.fixed === 'end'));
  const fixedLeft = configured.filter((c) => c.fixed === 'left' || c.fixed === true || c.fixed === 'start');
  const middle = configured.filter((c) => !fixedLeft.includes(c) && c.fixed !== 'right' && c.fixed !== 'end');
  const fixedRight = configured.filter((c) => c.fixed === 'right' || c.fixed === 'end');
  // antd needs fixed-left columns first and fixed-right last, whatever order the user chose.
  return [...left, ...fixedLeft, ...middle, ...fixedRight, ...right];
}
