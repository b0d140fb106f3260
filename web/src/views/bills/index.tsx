import { useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, Popconfirm, Result, Space, Tabs, Tag } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DeleteOutlined, MergeCellsOutlined, PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { billApiPath, billButtonCode, billTemplateKey, BILL_ACTION_LABELS, billScreenPath, type BillLinkState, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BILL_STATUS_LABELS, BILL_STATUS_TABS, POSTED_STATUSES, PROGRESS_LABELS, PROGRESS_STATE_LABELS, PROGRESS_STATES, type BillStatus, type ProgressState } from '@p8/contract/bills/status';
import ProTable, { type ProColumn, type ProTableAction } from '../../components/ProTable/index.tsx';
import { Auth, useAuth } from '../../components/Auth/index.tsx';
import { ImportButton } from '../../components/ImportExcel/index.tsx';
import { http, type QueryParams } from '../../app/http.ts';
import { feedback } from '../../app/feedback.ts';
import { useCurrentMenu } from '../../app/dynamic-routes.ts';
import useTenantConfig from '../../hooks/useTenantConfig.ts';
import { billTypeByScreen, labelOf, listFields, nameKey, valueTypeOf } from './kit.ts';
import BillForm from './components/BillForm.tsx';
import BatchPrint from './components/BatchPrint.tsx';
import MenuIcon from '../../components/MenuIcon/index.tsx';
import './bills.css';
import { quietly } from './kit-errors.ts';
import { STATUS_COLOR } from './components/status.ts';

type BillRow = Record<string, unknown> & { id: number; billStatus: BillStatus; progress?: Record<string, ProgressState> };

/**
 * The one list screen of every bill type: the menu's path names the type, and everything shown — the
 * status tabs, the columns and search, the statistics row, the buttons and their codes — comes from
 * that type's declaration in the contract's registry. A new bill type needs no screen of its own.
 */
export default function BillScreen() {
  const menu = useCurrentMenu();
  const decl = menu ? billTypeByScreen(menu.path) : undefined;
  const { t } = useTranslation();
  if (!decl) return <Result status="404" title={t('bill.unknownType')} />;
  return <BillList key={decl.type} decl={decl} />;
}

function BillList({ decl }: { decl: BillTypeDecl }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { config, settings } = useTenantConfig();
  const api = billApiPath(decl).replace(/^\/api/, '');
  // A type its tenant switch keeps closed: its bills are read, nothing new is entered (the server refuses too).
  const closed = decl.opensWith !== undefined && config !== undefined && !config[decl.opensWith.switch];
  const tableRef = useRef<ProTableAction<BillRow>>(undefined);
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string>('all');
  const [opened, setOpened] = useState<{ id?: number } | null>(null);
  // The selection being printed as one job.
  const [printing, setPrinting] = useState<number[] | null>(null);
  // A link to one bill (`billLink`: a finance ledger's line) shows its form while the history entry carries it.
  const location = useLocation();
  const navigate = useNavigate();
  const link = (location.state as Partial<BillLinkState> | null)?.openBill;
  const linked = link && link.type === decl.type && location.pathname === billScreenPath(decl) ? { id: link.id } : null;
  const shown = linked ?? opened;
  const show = (next: { id?: number } | null) => {
    if (linked) navigate(location.pathname + location.search, { replace: true, state: null });
    setOpened(next);
  };
  // The tabs count the bills of the list's search (every status but its own filter).
  const [searched, setSearched] = useState<QueryParams | null>(null);
  const tabs = useQuery({
    queryKey: ['bill-tabs', decl.type, searched],
    queryFn: () => http.get<Record<string, number>>(`${api}/tabs`, searched ?? undefined, { noLoading: true }),
    enabled: searched !== null,
    placeholderData: keepPreviousData,
  });
  const code = (action: Parameters<typeof billButtonCode>[1]) => billButtonCode(decl, action);
  const can = useAuth();
  const reload = () => {
    tableRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: ['bill-tabs', decl.type] });
  };

  const columns = useMemo<ProColumn<BillRow>[]>(() => {
    const cols: ProColumn<BillRow>[] = listFields(decl, config).map((field) => {
      const valueType = valueTypeOf(field.kind);
      const picker = field.kind === 'record';
      return {
        prop: field.key,
        title: labelOf(field.label, lang),
        width: field.width,
        sortable: field.sortable,
        sum: field.sum,
        valueType: picker ? 'text' : valueType,
        lockSetting: field.key === 'billCode',
        render: picker
          ? (_v: unknown, r: BillRow) => (r[nameKey(field.key)] as string | null) ?? ''
          : field.kind === 'enum'
            ? (v: unknown) => {
                const option = field.options?.find((o) => o.value === v);
                return option ? labelOf(option.label, lang) : '';
              }
            : field.key === 'billCode'
              ? (v: unknown, r: BillRow) => (
                  <a onClick={() => setOpened({ id: r.id })} data-testid={`bill-open-${r.id}`}>
                    {String(v)}
                  </a>
                )
              : undefined,
        search:
          field.search === 'contains' || field.search === 'eq'
            ? field.kind === 'enum'
              ? { type: 'select', options: field.options?.map((o) => ({ value: o.value, label: labelOf(o.label, lang) })) }
              : true
            : field.search === 'dateRange' && field.key === 'billDate'
              ? { type: 'dateRange', defaultDate: false }
              : false,
      } satisfies ProColumn<BillRow>;
    });
    if (decl.creatorColumn) cols.push({ prop: 'createdByName', title: labelOf(decl.creatorColumn, lang), width: 110 });
    // The status and the first progress (an order's stock-in or stock-out) stay at the right edge: at 1440 px
    // the header fields scroll beneath them rather than pushing them out of view.
    cols.push({
      prop: 'billStatus',
      title: t('bill.status'),
      width: 110,
      fixed: 'right',
      render: (v) => <Tag color={STATUS_COLOR[v as BillStatus]}>{labelOf(BILL_STATUS_LABELS[v as BillStatus], lang)}</Tag>,
    });
    for (const kind of decl.progress) {
      cols.push({
        prop: `progress.${kind}`,
        title: labelOf(PROGRESS_LABELS[kind], lang),
        width: 110,
        fixed: kind === decl.progress[0] ? 'right' : undefined,
        render: (_v, r) => {
          // A posted bill nothing was taken from yet has no progress written: it is at the first state — unless no
          // payment settles it (an opening advance, an exchange: the list gives it no open amount).
          const unsettleable = kind === 'settlement' && r.unsettledAmount === null;
          const state = r.progress?.[kind] ?? (POSTED_STATUSES.includes(r.billStatus) && !unsettleable ? PROGRESS_STATES[kind][0] : undefined);
          return state ? labelOf(PROGRESS_STATE_LABELS[state], lang) : '';
        },
      });
      // A bill that payments settle shows how much of it is settled and open (the server's list: posted bills only).
      if (kind === 'settlement') {
        for (const prop of ['settledAmount', 'unsettledAmount'] as const) cols.push({ prop, title: t(`bill.${prop}`), width: 120, valueType: 'amount' });
      }
    }
    return cols;
  }, [decl, config, lang, t]);

  return (
    <div className="bill-screen" data-testid={`bill-screen-${decl.type}`}>
      {closed && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="bill-type-closed"
          message={t('bill.typeClosed', { name: labelOf(decl.label, lang), switchName: t(`system-office.tenant.switches.${decl.opensWith!.switch}`) })}
        />
      )}
      {/* Eleven tabs with their counts fit a 1440 px screen in either language (tighter gutter, the count in
          a quieter figure); narrower, the tab bar keeps its own overflow menu. */}
      <Tabs
        className="bill-status-tabs"
        activeKey={status}
        onChange={setStatus}
        tabBarGutter={18}
        data-testid="bill-status-tabs"
        items={BILL_STATUS_TABS.map((s) => ({
          key: s,
          label: (
            <>
              {s === 'all' ? t('bill.all') : labelOf(BILL_STATUS_LABELS[s], lang)}
              <span className="bill-tab-count">{tabs.data?.[s] ?? 0}</span>
            </>
          ),
        }))}
      />
      <ProTable<BillRow>
        path={api}
        listType={`bill_${decl.type}`}
        rowKey="id"
        columns={columns}
        params={status === 'all' ? undefined : { billStatus: status }}
        onFiltersChange={setSearched}
        rowSelection
        statistics
        // The rows scroll inside the table: its sideways scrollbar (to the status and progress columns) stays on screen.
        scrollY="calc(100vh - 440px)"
        exportPath={decl.actions.includes('export') && can(code('export')) ? `${api}/export` : undefined}
        exportFileName={`${labelOf(decl.label, lang)}.xlsx`}
        toolbarRight={
          decl.actions.includes('import') && !closed && (
            <Auth code={code('import')}>
              <ImportButton
                importPath={`${api}/import`}
                templateUrl={`/api/base/template/${billTemplateKey(decl)}.xlsx?lang=${lang.startsWith('en') ? 'en' : 'zh'}`}
                title={t('bill.importTitle', { name: labelOf(decl.label, lang) })}
                onSuccess={reload}
                buttonProps={{ 'data-testid': 'bill-import' } as never}
              >
                {labelOf(BILL_ACTION_LABELS.import, lang)}
              </ImportButton>
            </Auth>
          )
        }
        actionRef={tableRef}
        onRow={(r) => ({ onDoubleClick: () => setOpened({ id: r.id }) })}
        toolbar={({ selectedRowKeys }) => (
          <Space>
            {!closed && (
              <Auth code={code('add')}>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpened({})} data-testid="bill-add">
                  {t('bill.add', { name: labelOf(decl.label, lang) })}
                </Button>
              </Auth>
            )}
            {decl.actions.includes('delete') && (
              <Auth code={code('delete')}>
                <Popconfirm
                  title={t('bill.deleteConfirm', { count: selectedRowKeys.length })}
                  disabled={!selectedRowKeys.length}
                  onConfirm={async () => {
                    if (!(await quietly(() => http.delete(api, { ids: selectedRowKeys })))) return;
                    feedback.message.success(t('bill.done'));
                    tableRef.current?.clearSelection();
                    reload();
                  }}
                >
                  <Button danger icon={<DeleteOutlined />} disabled={!selectedRowKeys.length} data-testid="bill-delete">
                    {t('bill.delete')}
                  </Button>
                </Popconfirm>
              </Auth>
            )}
            {/* The type's own commands (maintenance: generate from the machines' plans), served by its module. */}
            {(decl.commands ?? []).map((command) => (
              <Auth key={command.key} code={code(command.action)}>
                <Button
                  icon={command.icon ? <MenuIcon name={command.icon} /> : undefined}
                  data-testid={`bill-command-${command.key}`}
                  onClick={async () => {
                    let answer: { count?: number } | undefined;
                    if (!(await quietly(async () => (answer = await http.post<{ count?: number }>(`${api}/${command.key}`, {}))))) return;
                    feedback.message.success(labelOf(command.done, lang).replace('{{count}}', String(answer?.count ?? 0)));
                    reload();
                  }}
                >
                  {labelOf(command.label, lang)}
                </Button>
              </Auth>
            ))}
            {decl.actions.includes('print') && (
              <Auth code={code('print')}>
                <Button icon={<PrinterOutlined />} disabled={!selectedRowKeys.length} onClick={() => setPrinting(selectedRowKeys.map(Number))} data-testid="bill-print-batch">
                  {labelOf(BILL_ACTION_LABELS.print, lang)}
                </Button>
              </Auth>
            )}
            {decl.actions.includes('merge') && (
              <Auth code={code('merge')}>
                <Button
                  icon={<MergeCellsOutlined />}
                  disabled={selectedRowKeys.length < 2}
                  data-testid="bill-merge"
                  onClick={async () => {
                    let merged: { id: number } | undefined;
                    if (!(await quietly(async () => (merged = await http.post<{ id: number }>(`${api}/merge`, { ids: selectedRowKeys }))))) return;
                    feedback.message.success(t('bill.done'));
                    tableRef.current?.clearSelection();
                    reload();
                    if (merged?.id) setOpened({ id: merged.id });
                  }}
                >
                  {t('bill.merge')}
                </Button>
              </Auth>
            )}
          </Space>
        )}
      />
      {printing && <BatchPrint decl={decl} ids={printing} config={config} digits={settings} lang={lang} onClose={() => setPrinting(null)} onPrinted={() => tableRef.current?.reload()} />}
      {shown && <BillForm decl={decl} id={shown.id} onClose={() => show(null)} onChanged={reload} onOpen={(id) => show({ id })} />}
    </div>
  );
}
