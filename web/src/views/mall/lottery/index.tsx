import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Popconfirm, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { MallLotteryStatus, type MallLottery, type MallLotteryRow } from '@p8/contract/mall';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import CustomerPicker from '../../../components/Pickers/CustomerPicker.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteLotteries, drawFor, enableLotteries, getLottery, listLotteries, moveLottery } from './api/lottery.ts';
import LotteryDialog from './components/lottery-dialog.tsx';
import RecordsDrawer from './components/records-drawer.tsx';

const STATUS_COLOR = { NotStarted: 'blue', InProgress: 'green', Ended: 'default', Disabled: 'red' } as const;
const when = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');

/**
 * Mall → lottery: activities with their window, status and draw figures; add / edit in the dialog with
 * its prizes; start or end now; draw for a customer (an in-store event); the draw records.
 */
export default function LotteryPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.lottery' });
  const { modal } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<MallLotteryRow>>(undefined);
  const dialog = useRecordDialog<MallLottery>();
  const [detail, setDetail] = useState<MallLottery | undefined>();
  const [records, setRecords] = useState<MallLotteryRow | null>(null);
  const [drawing, setDrawing] = useState<MallLotteryRow | null>(null);
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<MallLotteryRow>({ table, enable: enableLotteries, remove: deleteLotteries });
  const recordColumns = useRecordColumns();
  const openDialog = dialog.open;

  const open = useCallback(
    async (mode: 'view' | 'edit', row: MallLotteryRow) => {
      const full = await getLottery(row.id);
      setDetail(full);
      openDialog(mode, full);
    },
    [openDialog],
  );
  const move = useCallback(
    async (row: MallLotteryRow, edge: 'start' | 'end') => {
      await moveLottery(row.id, edge);
      reload();
    },
    [reload],
  );

  const columns = useMemo<ProColumn<MallLotteryRow>[]>(
    () => [
      { prop: 'name', title: t('name'), search: true, lockSetting: true, width: 200 },
      { prop: 'startAt', title: t('time'), width: 290, render: (_, r) => `${when(r.startAt)} ~ ${when(r.endAt)}` },
      {
        prop: 'status',
        title: t('status'),
        width: 100,
        search: true,
        valueEnum: Object.fromEntries(MallLotteryStatus.map((s) => [s, { text: t(`statuses.${s}`), color: STATUS_COLOR[s] }])),
        render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`statuses.${r.status}`)}</Tag>,
      },
      { prop: 'drawLimit', title: t('drawLimit'), width: 90, align: 'right', render: (v) => (Number(v) ? String(v) : t('unlimited')) },
      { prop: 'prizeCount', title: t('prizeCount'), width: 80, align: 'right' },
      {
        prop: 'drawCount',
        title: t('drawCount'),
        width: 100,
        align: 'right',
        render: (_, r) => (
          <Typography.Link onClick={() => setRecords(r)} data-testid={`lottery-records-${r.id}`}>
            {r.drawCount}
          </Typography.Link>
        ),
      },
      { prop: 'winCount', title: t('winCount'), width: 90, align: 'right' },
      recordColumns.status<MallLotteryRow>({ record: 'mall_lottery', writes, column: { width: 90, align: 'center', search: false } }),
      recordColumns.actions<MallLotteryRow>(320, (row) => (
        <RowActions
          record="mall_lottery"
          id={row.id}
          name={row.name}
          onView={() => void open('view', row)}
          onEdit={() => void open('edit', row)}
          onDelete={() => writes.remove([row])}
          deleteBlocked={row.drawCount > 0 ? t('deleteDrawnTip') : undefined}
          extra={
            <>
              {row.status === 'NotStarted' && (
                <Auth code="mall_lottery_update">
                  <Popconfirm title={t('confirmStart', { name: row.name })} onConfirm={() => move(row, 'start')}>
                    <Button type="link" size="small">
                      {t('start')}
                    </Button>
                  </Popconfirm>
                </Auth>
              )}
              {(row.status === 'InProgress' || row.status === 'NotStarted') && (
                <Auth code="mall_lottery_update">
                  <Popconfirm title={t('confirmEnd', { name: row.name })} onConfirm={() => move(row, 'end')}>
                    <Button type="link" size="small" danger>
                      {t('end')}
                    </Button>
                  </Popconfirm>
                </Auth>
              )}
              {row.status === 'InProgress' && can('mall_lottery_draw') && (
                <Button type="link" size="small" onClick={() => setDrawing(row)} data-testid={`lottery-draw-${row.id}`}>
                  {t('draw')}
                </Button>
              )}
            </>
          }
        />
      )),
    ],
    [t, recordColumns, writes, open, move, can],
  );

  return (
    <div data-testid="mall-lottery-page">
      <ProTable<MallLotteryRow>
        data-testid="lottery-table"
        listType="mall_lottery"
        rowKey="id"
        columns={columns}
        request={listLotteries}
        actionRef={table}
        rowSelection={can('mall_lottery_delete') || can('mall_lottery_enable')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton
              record="mall_lottery"
              onClick={() => {
                setDetail(undefined);
                openDialog('add');
              }}
            >
              {t('add')}
            </AddButton>
            <BatchButtons record="mall_lottery" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
          </>
        )}
        toolbarRight={<ExportRecordsButton record="mall_lottery" exportPath="/admin/mall/lottery/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <LotteryDialog state={dialog.state} detail={detail} onClose={dialog.close} onSaved={reload} />
      <RecordsDrawer lottery={records} onClose={() => setRecords(null)} />
      <CustomerPicker
        open={drawing !== null}
        multiple={false}
        title={drawing ? t('drawTitle', { name: drawing.name }) : undefined}
        onClose={() => setDrawing(null)}
        onOk={([customer]) => {
          const lottery = drawing;
          setDrawing(null);
          if (!customer || !lottery) return;
          void drawFor(lottery.id, customer.id).then((record) => {
            const text = t(record.won ? 'drawResultWon' : 'drawResultLost', { customer: record.customerName, prize: record.prizeName });
            (record.won ? modal.success : modal.info)({ title: t('draw'), content: <span data-testid="lottery-draw-result">{text}</span> });
            reload();
          });
        }}
      />
    </div>
  );
}
