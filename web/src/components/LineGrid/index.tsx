import { useCallback, useMemo, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Form, Table, Tooltip, Typography, type TableColumnType } from 'antd';
import type { FormListFieldData, FormListOperation, FormListProps } from 'antd/es/form/FormList';
import type { Rule } from 'antd/es/form';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { cellTarget, type GridMove } from './navigation.ts';
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
  /** Height of the rows' area; longer lists scroll inside it with the header kept. */
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
 * Keyboard: Enter moves to the next cell (Shift+Enter back), past the last cell of the last row it adds
 * a row when the grid has `newRow`; Tab moves as usual; Alt+Enter adds a row below the current one and
 * Alt+Delete removes the current one. An open select keeps Enter for choosing its option.
 *
 * Rendering stays cheap with thousands of lines: a cell edit renders that cell only (each cell is its own
 * form field; a shown cell watches only its row, `watch`), and adding or removing a row renders the rows
 * whose position changed, not the others (`shouldCellUpdate` by row key and index).
 */
export default function LineGrid<Row>(props: LineGridProps<Row>) {
  const { name, columns, rules, view = false, rowTestId, maxRows, newRow, addButton, addText, removeBlocked, emptyText, scrollX, height, intro } = props;
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const ops = useRef<{ add: FormListOperation['add']; remove: FormListOperation['remove']; count: number } | null>(null);

  /** Focuses the first control of a cell, once React has rendered it (a new row). */
  const focusCell = useCallback((row: number, column: number) => {
    requestAnimationFrame(() => {
      const cell = box.current?.querySelector<HTMLElement>(`[data-grid-cell="${row}:${column}"]`);
      focusableIn(cell)?.focus();
    });
  }, []);

  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (view || !ops.current) return;
    const target = event.target as HTMLElement;
    const cell = target.closest<HTMLElement>('[data-grid-cell]');
    if (!cell) return;
    // An open dropdown (select, date) uses Enter and the arrows itself.
    if (target.getAttribute('aria-expanded') === 'true') return;
    const move: GridMove | null =
      event.key === 'Enter' && event.altKey
        ? 'insert'
        : (event.key === 'Delete' || event.key === 'Backspace') && event.altKey
          ? 'remove'
          : event.key === 'Enter' && !event.ctrlKey && !event.metaKey
            ? event.shiftKey
              ? 'previous'
              : 'next'
            : null;
    if (!move) return;
    const cells = Array.from(box.current?.querySelectorAll<HTMLElement>('[data-grid-cell]') ?? [])
      .filter((c) => focusableIn(c))
      .map((c) => c.dataset.gridCell!.split(':').map(Number) as [number, number]);
    const [row, column] = cell.dataset.gridCell!.split(':').map(Number);
    const { count, add, remove } = ops.current;
    const canAdd = !!newRow && (maxRows === undefined || count < maxRows);
    const result = cellTarget({ cells, at: [row, column], move, rows: count, canAdd, canRemove: (i) => !removeBlocked?.(i) });
    if (!result) return;
    event.preventDefault();
    event.stopPropagation();
    if (result.kind === 'add') {
      add(newRow!(), result.row);
      focusCell(result.row, result.column);
    } else if (result.kind === 'remove') {
      remove(result.row);
      focusCell(result.focusRow, column);
    } else {
      focusCell(result.row, result.column);
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

  return (
    <Form.List name={name} rules={rules}>
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
                addButton(add, fields.length)
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
