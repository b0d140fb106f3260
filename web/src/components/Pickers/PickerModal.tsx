import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Col, Empty, Input, Modal, Row, Table, Tag, Typography, type InputRef, type TableColumnsType } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import type { PagedResult } from '../../app/http.ts';
import { useDebounceFn } from '../../hooks/useDebounceFn.ts';
import type { PickerParams } from './api/pick-partners.ts';
import './pickers.css';

/** Page sizes offered. */
const PAGE_SIZES = [10, 25, 50, 100, 200];

export interface PickerModalProps<T extends { id: number }> {
  open: boolean;
  onClose: () => void;
  /** The chosen records, in the order they were chosen. */
  onOk: (rows: T[]) => void;
  title: ReactNode;
  /** Cache key of the picker's query (the record type and fixed filters). */
  queryKey: readonly unknown[];
  fetch: (params: PickerParams) => Promise<PagedResult<T>>;
  columns: TableColumnsType<T>;
  /** Several records (default) or one. */
  multiple?: boolean;
  /** Records already on the bill: shown, not selectable. */
  disabledIds?: number[];
  /** Chosen when the picker opens. */
  initialSelected?: T[];
  placeholder?: string;
  /** How a chosen record reads in the summary under the table. */
  labelOf: (row: T) => ReactNode;
  /** Beside the table (e.g. the locations of the current warehouse). */
  aside?: (ctx: { current: T | null; selected: T[]; select: (row: T) => void }) => ReactNode;
  width?: number;
  /** The first search (what was typed in the field that opened the picker). */
  keyword?: string;
  'data-testid'?: string;
}

/**
 * The modal behind the record pickers: keyword search over a `/picker` route, server paging, single or
 * multiple selection kept across pages and searches, and the chosen records handed back on OK.
 * A double click on a row of a single picker chooses it at once. Keyboard: the search has the focus; ↓ / ↑
 * move the current row (a single picker selects it), Enter chooses it (a single picker closes with it, a
 * multiple one ticks it), Esc closes — a record is picked without the mouse.
 */
export default function PickerModal<T extends { id: number }>(props: PickerModalProps<T>) {
  return props.open ? <PickerBody {...props} /> : null;
}

function PickerBody<T extends { id: number }>(props: PickerModalProps<T>) {
  const { open, onClose, onOk, title, queryKey, fetch, columns, multiple = true, disabledIds = [], initialSelected = [], placeholder, labelOf, aside, width } = props;
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.picker' });
  const { t: kit } = useTranslation();
  const testId = props['data-testid'] ?? 'picker';
  const [keyword, setKeyword] = useState(props.keyword?.trim() ?? '');
  const [typed, setTyped] = useState(props.keyword ?? '');
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [selected, setSelected] = useState<T[]>(initialSelected);
  const [current, setCurrent] = useState<T | null>(null);
  const search = useRef<InputRef>(null);
  const debounced = useDebounceFn((text: string) => {
    setKeyword(text.trim());
    setPage((p) => ({ ...p, current: 1 }));
  });

  const params: PickerParams = { keyword: keyword || undefined, current: page.current, pageSize: page.pageSize };
  const list = useQuery({
    queryKey: ['picker', ...queryKey, params],
    queryFn: () => fetch(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const rows = list.data?.data ?? [];
  const disabled = useMemo(() => new Set(disabledIds), [disabledIds]);
  const selectedKeys = selected.map((r) => r.id);

  const select = (row: T) => {
    if (disabled.has(row.id)) return;
    setCurrent(row);
    setSelected((chosen) => (multiple ? (chosen.some((r) => r.id === row.id) ? chosen : [...chosen, row]) : [row]));
  };
  const toggle = (row: T) => {
    if (disabled.has(row.id)) return;
    setCurrent(row);
    setSelected((chosen) => {
      if (!multiple) return [row];
      return chosen.some((r) => r.id === row.id) ? chosen.filter((r) => r.id !== row.id) : [...chosen, row];
    });
  };
  /** ↓ / ↑ from the search: the next usable row of the page becomes the current one. */
  const move = (step: 1 | -1) => {
    const usable = rows.filter((r) => !disabled.has(r.id));
    if (!usable.length) return;
    const at = current ? usable.findIndex((r) => r.id === current.id) : -1;
    const next = usable[at < 0 ? (step > 0 ? 0 : usable.length - 1) : Math.min(usable.length - 1, Math.max(0, at + step))];
    setCurrent(next);
    if (!multiple) setSelected([next]);
    document.querySelector(`[data-testid="${testId}-row-${next.id}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  /** Enter: the current row (moved to, or the only one a search found) is chosen; without one the search runs now. */
  const enter = () => {
    const searching = typed.trim() !== keyword;
    const row = !searching && current && rows.some((r) => r.id === current.id) ? current : !searching && rows.length === 1 && !disabled.has(rows[0].id) ? rows[0] : null;
    if (!row) return debounced.flush();
    if (multiple) toggle(row);
    else confirm([row]);
  };
  const unselect = (id: number) => setSelected((chosen) => chosen.filter((r) => r.id !== id));

  const confirm = (rowsChosen: T[] = selected) => {
    if (!rowsChosen.length) {
      feedback.message.warning({ content: t('nothingSelected'), key: 'picker-empty' });
      return;
    }
    onOk(rowsChosen);
    onClose();
  };

  const table = (
    <Table<T>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={rows}
      loading={list.isFetching}
      scroll={{ y: 360, x: 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} /> }}
      rowSelection={{
        type: multiple ? 'checkbox' : 'radio',
        selectedRowKeys: selectedKeys,
        preserveSelectedRowKeys: true,
        getCheckboxProps: (row) => ({ disabled: disabled.has(row.id), 'data-testid': `${testId}-check-${row.id}` }) as never,
        onSelect: (row) => toggle(row),
        onSelectAll: (checked, _rows, changed) => {
          const usable = changed.filter((r) => r && !disabled.has(r.id));
          setSelected((chosen) => (checked ? [...chosen, ...usable.filter((r) => !chosen.some((c) => c.id === r.id))] : chosen.filter((c) => !usable.some((r) => r.id === c.id))));
        },
      }}
      rowClassName={(row) => [current?.id === row.id ? 'p8-picker-row-current' : '', disabled.has(row.id) ? 'p8-picker-row-disabled' : ''].join(' ')}
      onRow={(row) => ({
        onClick: () => toggle(row),
        onDoubleClick: () => {
          if (!multiple && !disabled.has(row.id)) confirm([row]);
        },
        'data-testid': `${testId}-row-${row.id}`,
        title: disabled.has(row.id) ? t('alreadyChosen') : undefined,
      })}
      pagination={{
        current: page.current,
        pageSize: page.pageSize,
        total: list.data?.pagination.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        showQuickJumper: true,
        size: 'small',
        showTotal: (total) => kit('kit.table.total', { total }),
        onChange: (c, s) => setPage({ current: s !== page.pageSize ? 1 : c, pageSize: s }),
      }}
    />
  );

  return (
    <Modal
      open={open}
      title={title}
      width={width ?? (aside ? 1080 : 860)}
      onCancel={onClose}
      // The search has the focus once the dialog is open: `autoFocus` gives it at once, and this again after the
      // opening animation, when the field that opened the picker (a select still handling its key) may have
      // taken it back on a slow machine.
      afterOpenChange={(opened) => opened && search.current?.focus()}
      destroyOnHidden
      mask={{ closable: false }}
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
      footer={
        <div className="p8-picker-footer">
          <div className="p8-picker-chosen" data-testid={`${testId}-chosen`}>
            <Typography.Text type="secondary">{t('selected', { count: selected.length })}</Typography.Text>
            {selected.map((row) => (
              <Tag key={row.id} closable onClose={() => unselect(row.id)} color="blue" data-testid={`${testId}-chosen-${row.id}`}>
                {labelOf(row)}
              </Tag>
            ))}
            {selected.length > 1 && (
              <Button type="link" size="small" onClick={() => setSelected([])}>
                {t('clear')}
              </Button>
            )}
          </div>
          <div className="p8-picker-buttons">
            <Button onClick={onClose} data-testid={`${testId}-cancel`}>
              {t('cancel')}
            </Button>
            <Button type="primary" onClick={() => confirm()} disabled={!selected.length} data-testid={`${testId}-ok`}>
              {t('ok')}
            </Button>
          </div>
        </div>
      }
    >
      <Input
        ref={search}
        allowClear
        autoFocus
        prefix={<SearchOutlined />}
        placeholder={placeholder}
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          debounced.run(event.target.value);
        }}
        onPressEnter={enter}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          move(event.key === 'ArrowDown' ? 1 : -1);
        }}
        style={{ marginBottom: 12 }}
        data-testid={`${testId}-search`}
      />
      {aside ? (
        <Row gutter={16} wrap={false}>
          <Col flex="1 1 0" style={{ minWidth: 0 }}>
            {table}
          </Col>
          <Col flex="0 0 340px">{aside({ current, selected, select })}</Col>
        </Row>
      ) : (
        table
      )}
    </Modal>
  );
}
