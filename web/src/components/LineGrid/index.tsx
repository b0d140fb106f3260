import { useCallback, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Form, Table, Tooltip, Typography, type TableColumnType } from 'antd';
import type { TableRef } from 'antd/es/table';
import type { FormListFieldData, FormListOperation, FormListProps } from 'antd/es/form/FormList';
import type { Rule } from 'antd/es/form';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { cellTarget, type GridMove } from './navigation.ts';
import { firstRefusal } from './rules.ts';
import './line-grid.css';

/** What a cell's `render` gets. */
export interface LineCell<Row> {
  /** The row's current values (an empty object while a new row is being created). */
  row: Partial<Row>;
  index: number;
  /** Every row: only for cells that `watch: 'all'` (otherwise the same array, possibly stale). */
  rows: Partial<Row>[];
  /** `<rowTestId>-<index>-<column key>`, for the cell's control. */
  testId: string;
  view: boolean;
}

export interface LineColumn<Row> {
  key: string;
  title: ReactNode;
  width?: number;
  align?: 'left' | 'right' | 'center';
  /**
   * An editable cell: the row's field it edits. The cell is a Form.Item on `[<list>, index, field]`
   * (kept when the row scrolls or re-mounts, `preserve`); `render` returns its control, which gets
   * `value` / `onChange` from the Form.Item.
   */
  field?: keyof Row & string;
  rules?: Rule[] | ((index: number) => Rule[]);
  /** `checked` for a switch. */
  valuePropName?: string;
  /** Without `field`: what the cell shows. With it: the control. */
  render: (cell: LineCell<Row>) => ReactNode;
  /**
   * What the cell reads besides its own field, and so when it renders again: `row` (default for a
   * shown cell — its row changed), `all` (any row changed: a choice that excludes the other rows'
   * values) or `none` (an editable cell that reads nothing else: only its own field).
   */
  watch?: 'none' | 'row' | 'all';
}

export interface LineGridProps<Row> {
  /** Name of the Form.List in the surrounding form. */
  name: string;
  columns: LineColumn<Row>[];
  rules?: FormListProps['rules'];
  view?: boolean;
  /** Prefix of the cells' and buttons' test ids: `<rowTestId>-<n>-<key>`, `<rowTestId>-<n>-remove`, `<rowTestId>-add`. */
  rowTestId: string;
  'data-testid'?: string;
  maxRows?: number;
  /**
   * A new empty row: the "add" button, Enter past the last cell and Alt+Enter add one. Without it rows
   * come only from `addButton` (e.g. picked materials).
   */
  newRow?: () => Partial<Row>;
  /** The screen's own add control instead of the plain button (e.g. one that opens a picker). */
  addButton?: (add: FormListOperation['add'], count: number) => ReactNode;
  addText?: ReactNode;
  /** Why a row may not be removed (the material's main unit), or undefined. */
  removeBlocked?: (index: number) => string | undefined;
  emptyText?: ReactNode;
  /** Horizontal scroll width (default: the sum of the column widths). */
  scrollX?: number;
  /**
   * Height of the rows' area; longer lists scroll inside it with the header kept, and only the rows in
   * view are drawn (a bill of thousands of lines costs what its visible rows cost).
   */
  height?: number;
  /** Text above the grid. */
  intro?: ReactNode;
}

const REMOVE_WIDTH = 48;

/** A Form.List row with the version of the column definition it was rendered with. */
type GridRow = FormListFieldData & { version: object };

/**
 * The editable line grid of the record and bill forms (a BOM's lines, a material's units, a bill's
 * lines): one Form.List row per line, a column per field, validation through the form.
 *
 * Keyboard: Enter and Tab move to the next cell (Shift back), past the last cell of the last row they add
 * a row when the grid has `newRow`; Alt+Enter adds a row below the current one and Alt+Delete removes the
 * current one. An open list (a select, a date, a typed material's matches) takes Enter to choose its
 * option first, then the focus moves on; the mouse is never needed.
 *
 * Rendering stays cheap with thousands of lines: with a `height` only the rows in view are drawn (a
 * virtual table), so the form holds the fields of those rows only — antd's form walks every registered
 * field on each keystroke, which made a 2,750-line bill cost seconds a key. A cell edit renders that cell
 * only (each cell is its own form field; a shown cell watches only its row, `watch`), and adding or
 * removing a row renders the rows whose position changed (`shouldCellUpdate` by row key and index).
 * Rows out of view have no fields to validate, so the list's own rule checks them by the same column
 * rules (`firstRefusal`, each row once until it changes) and brings the first refused one into view.
 */
export default function LineGrid<Row>(props: LineGridProps<Row>) {
  const { name, columns, rules, view = false, rowTestId, maxRows, newRow, addButton, addText, removeBlocked, emptyText, scrollX, height, intro } = props;
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<TableRef>(null);
  const ops = useRef<{ add: FormListOperation['add']; remove: FormListOperation['remove']; count: number } | null>(null);
  const virtual = height !== undefined;

  /**
   * Focuses the first control of a cell (or, when that cell takes none, of its row), once React has
   * rendered it: a new row, or a row scrolled into view first.
   */
  const focusCell = useCallback((row: number, column: number) => {
    let tries = 0;
    const attempt = () => {
      const cell = box.current?.querySelector<HTMLElement>(`[data-grid-cell="${row}:${column}"]`);
      const rowCells = Array.from(box.current?.querySelectorAll<HTMLElement>(`[data-grid-cell^="${row}:"]`) ?? []);
      const target = focusableIn(cell) ?? rowCells.map((c) => focusableIn(c)).find(Boolean);
      if (target) {
        target.focus();
        return;
      }
      if (tries === 0) table.current?.scrollTo({ index: row });
      if (++tries < 12) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  }, []);

  /** Carries out a move from a cell: focus another cell, add a row, or remove this one. Whether it did anything. */
  const moveFrom = (cell: HTMLElement, move: GridMove): boolean => {
    if (!ops.current) return false;
    const drawn = Array.from(box.current?.querySelectorAll<HTMLElement>('[data-grid-cell]') ?? [])
      .filter((c) => focusableIn(c))
      .map((c) => c.dataset.gridCell!.split(':').map(Number) as [number, number]);
    const [row, column] = cell.dataset.gridCell!.split(':').map(Number);
    const { count, add, remove } = ops.current;
    // The rows next to this one may be out of view (not drawn): their editable cells are the columns with a field.
    const editable = allColumns.flatMap((c, i) => (c.field ? [i] : []));
    const near = [row - 1, row + 1].filter((r) => r >= 0 && r < count && !drawn.some(([dr]) => dr === r));
    const cells = [...drawn, ...near.flatMap((r) => editable.map((c) => [r, c] as [number, number]))].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const canAdd = !!newRow && (maxRows === undefined || count < maxRows);
    const result = cellTarget({ cells, at: [row, column], move, rows: count, canAdd, canRemove: (i) => !removeBlocked?.(i) });
    if (!result) return false;
    if (result.kind === 'add') {
      add(newRow!(), result.row);
      focusCell(result.row, result.column);
    } else if (result.kind === 'remove') {
      remove(result.row);
      focusCell(result.focusRow, column);
    } else {
      focusCell(result.row, result.column);
    }
    return true;
  };

  /**
   * Enter in a control that is choosing — an open list (a select, a date, the matches of a typed material)
   * or a search still running (`aria-busy`) — chooses first; the move follows once the list has closed,
   * or is dropped when it stays open (several matches: the user picks one).
   */
  const moveAfterChoosing = (cell: HTMLElement, target: HTMLElement, move: GridMove) => {
    let frames = 0;
    const check = () => {
      if (!cell.isConnected || !cell.contains(document.activeElement)) return;
      // A search answers within seconds; after about five the move is dropped.
      if (target.closest('[aria-busy="true"]')) {
        if (++frames < 300) requestAnimationFrame(check);
        return;
      }
      if (target.getAttribute('aria-expanded') !== 'true') moveFrom(cell, move);
    };
    requestAnimationFrame(check);
  };

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (view || !ops.current) return;
    const target = event.target as HTMLElement;
    const cell = target.closest<HTMLElement>('[data-grid-cell]');
    if (!cell) return;
    const plain = !event.ctrlKey && !event.metaKey;
    const move: GridMove | null =
      event.key === 'Enter' && event.altKey
        ? 'insert'
        : (event.key === 'Delete' || event.key === 'Backspace') && event.altKey
          ? 'remove'
          : (event.key === 'Enter' || event.key === 'Tab') && plain && !event.altKey
            ? event.shiftKey
              ? 'previous'
              : 'next'
            : null;
    if (!move) return;
    if (event.key === 'Enter' && (target.getAttribute('aria-expanded') === 'true' || target.closest('[aria-busy="true"]'))) {
      if (move === 'next' || move === 'previous') moveAfterChoosing(cell, target, move);
      return;
    }
    // Tab leaves an open list as it is (a typed material takes its highlighted match itself).
    if (moveFrom(cell, move)) {
      event.preventDefault();
      if (event.key !== 'Tab') event.stopPropagation();
    }
  };

  const removeColumn: LineColumn<Row> | null = view
    ? null
    : {
        key: 'remove',
        title: '',
        width: REMOVE_WIDTH,
        align: 'center',
        watch: 'none',
        render: ({ index }) => <RemoveButton index={index} blocked={removeBlocked?.(index)} testId={`${rowTestId}-${index}-remove`} onRemove={() => ops.current?.remove(index)} label={t('kit.lineGrid.remove')} />,
      };
  const allColumns = removeColumn ? [...columns, removeColumn] : columns;
  const width = scrollX ?? allColumns.reduce((sum, c) => sum + (c.width ?? 160), 0);

  // Cells render again when a row moves (key, index) or when the definition changes (`version`): a
  // cell's render reads the screen's current data (unit names, tenant decimals) through its closure.
  const version = useMemo(() => ({}), [columns, view, t]); // eslint-disable-line react-hooks/exhaustive-deps

  const tableColumns = useMemo<TableColumnType<GridRow>[]>(
    () =>
      allColumns.map((column, columnIndex) => ({
        key: column.key,
        title: column.title,
        width: column.width,
        align: column.align,
        // Rows are Form.List fields: a new object each render, the same row while key and position hold.
        shouldCellUpdate: (record, previous) => record.key !== previous.key || record.name !== previous.name || record.version !== previous.version,
        render: (_: unknown, field: GridRow) => (
          <div data-grid-cell={column.key === 'remove' ? undefined : `${field.name}:${columnIndex}`}>
            <Cell list={name} column={column} index={field.name} view={view} rowTestId={rowTestId} />
          </div>
        ),
      })),
    // `columns` is the screen's (memoised) definition; the rest are plain values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, name, view, rowTestId, removeBlocked, t],
  );

  // What each row out of view was refused for, until it changes (a row is a new object once edited).
  // (Kept per definition of the columns: new rules may refuse what the old ones let through.)
  const checked = useRef<{ version: object; seen: WeakMap<object, string | null> } | null>(null);
  const listRules = useMemo<FormListProps['rules']>(() => {
    if (!virtual) return rules;
    const refusalOf = async (row: Record<string, unknown>, index: number): Promise<string | null> => {
      for (const column of columns) {
        const columnRules = typeof column.rules === 'function' ? column.rules(index) : column.rules;
        if (!column.field || !columnRules?.length) continue;
        const title = typeof column.title === 'string' ? column.title : column.key;
        const message = await firstRefusal(columnRules, row[column.field], form, `${name}.${index}.${column.field}`, t('kit.lineGrid.required', { column: title }));
        if (message) return `${title}: ${message}`;
      }
      return null;
    };
    const offscreen = {
      validator: async (_rule: unknown, list: Array<Record<string, unknown> | undefined> | undefined) => {
        if (!list?.length) return;
        if (checked.current?.version !== version) checked.current = { version, seen: new WeakMap() };
        const { seen } = checked.current;
        // Rows in view are validated by their own fields.
        const drawn = new Set(Array.from(box.current?.querySelectorAll<HTMLElement>('[data-grid-cell]') ?? []).map((c) => Number(c.dataset.gridCell!.split(':')[0])));
        for (let index = 0; index < list.length; index++) {
          if (drawn.has(index)) continue;
          const row = list[index] ?? {};
          let refusal = seen.get(row);
          if (refusal === undefined) seen.set(row, (refusal = await refusalOf(row, index)));
          if (refusal) {
            revealRefused(index);
            throw new Error(t('kit.lineGrid.lineRefused', { line: index + 1, message: refusal }));
          }
        }
      },
    };
    /** Scrolls the refused row into view and validates its fields there, so that the cell shows why. */
    const revealRefused = (index: number) => {
      table.current?.scrollTo({ index });
      let tries = 0;
      const validate = () => {
        if (box.current?.querySelector(`[data-grid-cell^="${index}:"]`)) {
          const fields = columns.flatMap((c) => (c.field && c.rules ? [[name, index, c.field]] : []));
          void form.validateFields(fields).catch(() => undefined);
        } else if (++tries < 12) requestAnimationFrame(validate);
      };
      requestAnimationFrame(validate);
    };
    return [...(rules ?? []), offscreen];
  }, [virtual, rules, columns, form, name, t, version]);

  return (
    <Form.List name={name} rules={listRules}>
      {(fields, { add, remove }, { errors }) => {
        ops.current = { add, remove, count: fields.length };
        const full = maxRows !== undefined && fields.length >= maxRows;
        return (
          <div className="p8-line-grid" ref={box} onKeyDownCapture={onKeyDownCapture} data-testid={props['data-testid']}>
            {intro && (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
                {intro}
              </Typography.Paragraph>
            )}
            <Table<GridRow>
              ref={table}
              virtual={virtual}
              rowKey="key"
              size="small"
              bordered
              pagination={false}
              columns={tableColumns}
              dataSource={fields.map((f) => ({ ...f, version }))}
              scroll={{ x: width, y: height }}
              locale={{ emptyText }}
            />
            {errors.length > 0 && (
              <Typography.Text type="danger" role="alert" data-testid="lines-error">
                {errors[0]}
              </Typography.Text>
            )}
            {!view &&
              (addButton ? (
                // A row added by the screen's control takes the focus, so that typing goes on in it.
                addButton((row?: unknown, index?: number) => {
                  add(row, index);
                  focusCell(index ?? fields.length, allColumns.findIndex((c) => c.field));
                }, fields.length)
              ) : newRow ? (
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  style={{ marginTop: 12 }}
                  disabled={full}
                  onClick={() => {
                    add(newRow());
                    focusCell(fields.length, 0);
                  }}
                  data-testid={`${rowTestId}-add`}
                >
                  {addText ?? t('kit.lineGrid.add')}
                </Button>
              ) : null)}
            {!view && <div className="p8-line-grid-keys">{t('kit.lineGrid.keys')}</div>}
          </div>
        );
      }}
    </Form.List>
  );
}

/** The first control of a cell that takes the focus. */
function focusableIn(cell: HTMLElement | null | undefined): HTMLElement | null {
  return cell?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex="0"]') ?? null;
}

function RemoveButton({ index, blocked, testId, onRemove, label }: { index: number; blocked?: string; testId: string; onRemove: () => void; label: string }) {
  return (
    <Tooltip title={blocked ?? label}>
      <Button type="text" size="small" danger={!blocked} disabled={!!blocked} icon={<DeleteOutlined />} onClick={onRemove} aria-label={label} data-testid={testId} data-row={index} />
    </Tooltip>
  );
}

/** One cell: a form field of its row, or a view of the row, each rendering only when what it reads changes. */
function Cell<Row>({ list, column, index, view, rowTestId }: { list: string; column: LineColumn<Row>; index: number; view: boolean; rowTestId: string }) {
  const testId = `${rowTestId}-${index}-${column.key}`;
  const watch = column.watch ?? (column.field ? 'none' : 'row');
  const content = (rows: Partial<Row>[]) => column.render({ row: rows[index] ?? {}, index, rows, testId, view });
  const field = (rows: Partial<Row>[]) =>
    column.field ? (
      <Form.Item preserve name={[index, column.field]} rules={typeof column.rules === 'function' ? column.rules(index) : column.rules} valuePropName={column.valuePropName}>
        {content(rows)}
      </Form.Item>
    ) : (
      content(rows)
    );
  if (watch === 'none') return field(NO_ROWS);
  const changed =
    watch === 'all'
      ? (prev: Record<string, unknown>, next: Record<string, unknown>) => prev[list] !== next[list]
      : (prev: Record<string, unknown>, next: Record<string, unknown>) => (prev[list] as unknown[] | undefined)?.[index] !== (next[list] as unknown[] | undefined)?.[index];
  return (
    <Form.Item noStyle shouldUpdate={changed}>
      {({ getFieldValue }) => field((getFieldValue(list) as Partial<Row>[] | undefined) ?? NO_ROWS)}
    </Form.Item>
  );
}

const NO_ROWS: never[] = [];
