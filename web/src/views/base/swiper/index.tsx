import { useCallback, useMemo, useRef } from 'react';
import { Image, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SwiperRow } from '@p8/contract/base';
import { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteSwipers, enableSwipers, listSwipers } from './api/swipers.ts';
import SwiperDialog from './components/swiper-dialog.tsx';

/** Base content → swiper: the customer side's carousel slides (image, link, order, switch). */
export default function SwiperPage() {
  const { t } = useTranslation();
  const can = useAuth();
  const table = useRef<ProTableAction<SwiperRow>>(undefined);
  const dialog = useRecordDialog<SwiperRow>();
  const openDialog = dialog.open;
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<SwiperRow>({ table, enable: enableSwipers, remove: deleteSwipers });
  const recordColumns = useRecordColumns();

  const columns = useMemo<ProColumn<SwiperRow>[]>(
    () => [
      {
        prop: 'image',
        title: t('base.swiper.image'),
        width: 150,
        render: (v) => <Image src={String(v)} width={120} height={56} style={{ objectFit: 'cover', borderRadius: 4 }} data-testid="swiper-row-image" />,
      },
      { prop: 'title', title: t('base.swiper.title'), search: true, sortable: true, lockSetting: true, width: 200 },
      {
        prop: 'link',
        title: t('base.swiper.link'),
        ellipsis: true,
        width: 240,
        render: (v) => (v ? <Typography.Text copyable={{ text: String(v) }}>{String(v)}</Typography.Text> : <Typography.Text type="secondary">{t('base.swiper.noLink')}</Typography.Text>),
      },
      { prop: 'sort', title: t('base.swiper.sort'), sortable: true, width: 90, align: 'center' },
      recordColumns.status<SwiperRow>({ record: 'base_swiper', writes, labelled: true }),
      { prop: 'createdAt', title: t('base.swiper.createdAt'), valueType: 'dateTime', sortable: true, width: 170 },
      recordColumns.actions<SwiperRow>(200, (row) => (
        <RowActions record="base_swiper" id={row.id} name={row.title} onView={() => openDialog('view', row)} onEdit={() => openDialog('edit', row)} onDelete={() => writes.remove([row])} />
      )),
    ],
    [t, recordColumns, writes, openDialog],
  );

  return (
    <div className="p8-base-swiper">
      <ProTable<SwiperRow>
        data-testid="swiper-table"
        listType="base_swiper"
        rowKey="id"
        columns={columns}
        request={listSwipers}
        actionRef={table}
        rowSelection={can('base_swiper_delete') || can('base_swiper_enable')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="base_swiper" onClick={() => openDialog('add')}>
              {t('base.swiper.add')}
            </AddButton>
            <BatchButtons record="base_swiper" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
          </>
        )}
        toolbarRight={<ExportRecordsButton record="base_swiper" exportPath="/admin/base/swiper/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <SwiperDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
    </div>
  );
}
