import { useCallback, useMemo, useRef, useState } from 'react';
import { App, Button, Image, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MallFeedbackStatus, MallFeedbackType, type MallFeedback } from '@p8/contract/mall';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../components/ProTable/index.tsx';
import { AddButton, BatchButtons, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import { useRecordColumns } from '../../../components/RecordKit/record-columns.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteFeedback, listFeedback, setFeedbackStatus } from './api/feedback.ts';
import { AddFeedbackDialog, ReplyDialog } from './components/feedback-dialogs.tsx';

const STATUS_COLOR = { Pending: 'orange', Replied: 'green', Closed: 'default' } as const;
const TYPE_COLOR = { suggestion: 'blue', complaint: 'red', product: 'purple', logistics: 'cyan', other: 'default' } as const;

/** Mall → feedback: what customers told the shop, by type and status; reply, close or reopen, delete. */
export default function FeedbackPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall' });
  const { message } = App.useApp();
  const can = useAuth();
  const table = useRef<ProTableAction<MallFeedback>>(undefined);
  const [replying, setReplying] = useState<MallFeedback | null>(null);
  const [adding, setAdding] = useState(false);
  const reload = useCallback(() => table.current?.reload(), []);
  const writes = useRecordWrites<MallFeedback>({ table, remove: deleteFeedback });
  const recordColumns = useRecordColumns();
  const status = useCallback(
    async (ids: number[], next: MallFeedbackStatus) => {
      await setFeedbackStatus(ids, next);
      void message.success(t('feedback.statusDone'));
      reload();
    },
    [message, t, reload],
  );

  const columns = useMemo<ProColumn<MallFeedback>[]>(
    () => [
      {
        prop: 'type',
        title: t('feedback.type'),
        width: 100,
        search: true,
        valueEnum: Object.fromEntries(MallFeedbackType.map((k) => [k, { text: t(`feedback.types.${k}`), color: TYPE_COLOR[k] }])),
      },
      {
        prop: 'content',
        title: t('feedback.content'),
        search: true,
        lockSetting: true,
        width: 320,
        render: (_, r) => (
          <div>
            <Typography.Paragraph ellipsis={{ rows: 2, tooltip: r.content }} style={{ marginBottom: 4 }}>
              {r.content}
            </Typography.Paragraph>
            {r.images.length > 0 && (
              <Image.PreviewGroup>
                <Space size={4}>
                  {r.images.map((src) => (
                    <Image key={src} src={src} width={32} height={32} style={{ objectFit: 'cover' }} />
                  ))}
                </Space>
              </Image.PreviewGroup>
            )}
          </div>
        ),
      },
      { prop: 'contactName', title: t('feedback.contact'), search: true, width: 140, render: (_, r) => [r.customerName ?? r.contactName, r.contactPhone].filter(Boolean).join(' · ') || '—' },
      {
        prop: 'status',
        title: t('feedback.status'),
        width: 100,
        search: true,
        valueEnum: Object.fromEntries(MallFeedbackStatus.map((k) => [k, { text: t(`feedback.statuses.${k}`), color: STATUS_COLOR[k] }])),
        render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`feedback.statuses.${r.status}`)}</Tag>,
      },
      {
        prop: 'reply',
        title: t('feedback.reply'),
        width: 260,
        render: (_, r) =>
          r.reply ? (
            <div>
              <Typography.Paragraph ellipsis={{ rows: 2, tooltip: r.reply }} style={{ marginBottom: 0 }}>
                {r.reply}
              </Typography.Paragraph>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.replierName}
              </Typography.Text>
            </div>
          ) : (
            '—'
          ),
      },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      recordColumns.actions<MallFeedback>(220, (row) => (
        <RowActions
          record="mall_feedback"
          id={row.id}
          name={row.content.slice(0, 20)}
          onDelete={() => writes.remove([row])}
          before={
            <>
              <Auth code="mall_feedback_reply">
                <Button type="link" size="small" onClick={() => setReplying(row)} data-testid={`feedback-reply-${row.id}`}>
                  {t('feedback.reply')}
                </Button>
              </Auth>
              <Auth code="mall_feedback_status">
                {row.status === 'Closed' ? (
                  <Button type="link" size="small" onClick={() => void status([row.id], 'Pending')}>
                    {t('feedback.reopen')}
                  </Button>
                ) : (
                  <Popconfirm title={t('feedback.close')} onConfirm={() => status([row.id], 'Closed')}>
                    <Button type="link" size="small">
                      {t('feedback.close')}
                    </Button>
                  </Popconfirm>
                )}
              </Auth>
            </>
          }
        />
      )),
    ],
    [t, recordColumns, writes, status],
  );

  return (
    <div data-testid="mall-feedback-page">
      <ProTable<MallFeedback>
        data-testid="feedback-table"
        listType="mall_feedback"
        rowKey="id"
        columns={columns}
        request={listFeedback}
        actionRef={table}
        rowSelection={can('mall_feedback_delete') || can('mall_feedback_status')}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record="mall_feedback" onClick={() => setAdding(true)}>
              {t('feedback.add')}
            </AddButton>
            <Auth code="mall_feedback_status">
              <Button disabled={!selectedRowKeys.length} onClick={() => void status(selectedRowKeys.map(Number), 'Closed')}>
                {t('feedback.closeSelected')}
              </Button>
            </Auth>
            <BatchButtons record="mall_feedback" selectedKeys={selectedRowKeys} selectedRows={selectedRows} onDelete={writes.remove} />
          </>
        )}
        toolbarRight={<ExportRecordsButton record="mall_feedback" exportPath="/admin/mall/feedback/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
      />
      <ReplyDialog feedback={replying} onClose={() => setReplying(null)} onSaved={reload} />
      <AddFeedbackDialog open={adding} onClose={() => setAdding(false)} onSaved={reload} />
    </div>
  );
}
