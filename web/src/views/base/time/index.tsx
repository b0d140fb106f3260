import { useCallback, useMemo } from 'react';
import { Card, Col, Empty, Row, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TimeSettings, TimeSlotRow } from '@p8/contract/base';
import { useAuth } from '../../../components/Auth/index.tsx';
import { AddButton, ExportRecordsButton } from '../../../components/RecordKit/RecordToolbar.tsx';
import RowActions from '../../../components/RecordKit/RowActions.tsx';
import StatusSwitch from '../../../components/RecordKit/StatusSwitch.tsx';
import { useRecordDialog } from '../../../components/RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../../../components/RecordKit/use-record-writes.ts';
import { deleteTimeSlots, enableTimeSlots, getTimeSettings } from './api/time.ts';
import BusinessHours from './components/business-hours.tsx';
import SlotDialog from './components/slot-dialog.tsx';

const QUERY_KEY = ['base', 'time'];

/** Base content → business hours: the week's opening hours and the appointment slots customers book. */
export default function TimePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.time' });
  const can = useAuth();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: QUERY_KEY, queryFn: getTimeSettings });
  const dialog = useRecordDialog<TimeSlotRow>();
  const reload = useCallback(() => void query.refetch(), [query]);
  // The slots are few and come whole with the settings: the kit's writes reload them through the query.
  const table = useMemo(() => ({ current: { reload, clearSelection: () => undefined } }), [reload]);
  const writes = useRecordWrites<TimeSlotRow>({ table, enable: enableTimeSlots, remove: deleteTimeSlots });
  const settings = query.data;

  return (
    <Row gutter={[16, 16]} className="p8-base-time" data-testid="time-page">
      <Col xs={24} xl={10}>
        {settings ? (
          <BusinessHours
            days={settings.days}
            editable={can('base_time_update')}
            onSaved={(days) => queryClient.setQueryData<TimeSettings>(QUERY_KEY, (s) => s && { ...s, days })}
          />
        ) : (
          <Card loading />
        )}
      </Col>
      <Col xs={24} xl={14}>
        <Card title={t('slotsTitle')} extra={
            <Space>
              <AddButton record="base_time" onClick={() => dialog.open('add')}>
                {t('addSlot')}
              </AddButton>
              <ExportRecordsButton record="base_time" exportPath="/admin/base/time/slot/export" exportParams={() => ({})} />
            </Space>
          } data-testid="time-slots">
          <Typography.Paragraph type="secondary">{t('slotsTip')}</Typography.Paragraph>
          <Table<TimeSlotRow>
            size="middle"
            rowKey="id"
            loading={query.isPending}
            dataSource={settings?.slots ?? []}
            pagination={false}
            locale={{ emptyText: <Empty description={t('noSlots')} /> }}
            columns={[
              { title: t('slot'), width: 140, render: (_, r) => <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>{`${r.start} – ${r.end}`}</Typography.Text> },
              { title: t('capacity'), dataIndex: 'capacity', render: (v: number) => `${v} ${t('capacityUnit')}` },
              { title: t('sort'), dataIndex: 'sort', width: 80, align: 'center' },
              {
                title: t('enabled'),
                dataIndex: 'enabled',
                width: 120,
                render: (_, r) => <StatusSwitch record="base_time" id={r.id} checked={r.enabled} labelled onChange={(on) => writes.setEnabled([r], on)} />,
              },
              {
                title: '',
                width: 200,
                render: (_, r) => (
                  <RowActions record="base_time" id={r.id} name={`${r.start} – ${r.end}`} onView={() => dialog.open('view', r)} onEdit={() => dialog.open('edit', r)} onDelete={() => writes.remove([r])} />
                ),
              },
            ]}
          />
        </Card>
      </Col>
      <SlotDialog state={dialog.state} onClose={dialog.close} onSaved={reload} />
    </Row>
  );
}
