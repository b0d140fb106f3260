import { useMemo, useRef } from 'react';
import { Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MallLotteryRecord, MallLotteryRow } from '@p8/contract/mall';
import ProTable, { type ProColumn, type ProTableAction } from '../../../../components/ProTable/index.tsx';
import { ExportRecordsButton } from '../../../../components/RecordKit/RecordToolbar.tsx';
import { listRecords } from '../api/lottery.ts';

/** The draws of one activity: who, what came out, when, by whom. */
export default function RecordsDrawer({ lottery, onClose }: { lottery: MallLotteryRow | null; onClose: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.lottery' });
  const { t: tc } = useTranslation(undefined, { keyPrefix: 'mall.common' });
  const table = useRef<ProTableAction<MallLotteryRecord>>(undefined);
  const params = useMemo(() => ({ lotteryId: lottery?.id ?? 0 }), [lottery]);
  const columns = useMemo<ProColumn<MallLotteryRecord>[]>(
    () => [
      { prop: 'customerName', title: tc('customer'), search: true, width: 160 },
      { prop: 'prizeName', title: t('prize'), width: 180 },
      {
        prop: 'won',
        title: t('won'),
        width: 100,
        search: true,
        valueEnum: { true: { text: t('wonYes'), color: 'green' }, false: { text: t('kinds.none') } },
        render: (_, r) => (r.won ? <Tag color="green">{t(`kinds.${r.prizeKind}`)}</Tag> : <Tag>{t('kinds.none')}</Tag>),
      },
      { prop: 'operatorName', title: t('operator'), width: 110 },
      { prop: 'createdAt', title: t('drawnAt'), valueType: 'dateTime', sortable: true, width: 170 },
    ],
    [t, tc],
  );
  return (
    <Drawer open={lottery !== null} onClose={onClose} width={820} title={`${t('records')} · ${lottery?.name ?? ''}`} destroyOnHidden>
      {lottery && (
        <ProTable<MallLotteryRecord>
          listType="mall_lottery_record"
          rowKey="id"
          columns={columns}
          request={listRecords}
          params={params}
          actionRef={table}
          data-testid="lottery-records"
          // The activity's draws as filtered here (its lotteryId is among the filters).
          toolbarRight={<ExportRecordsButton record="mall_lottery_record" exportPath="/admin/mall/lottery/record/export" exportParams={() => table.current?.getFilterParams() ?? {}} />}
        />
      )}
    </Drawer>
  );
}
