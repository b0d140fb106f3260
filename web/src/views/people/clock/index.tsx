import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Descriptions, Space, Typography } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../components/Auth/index.tsx';
import DaysTable from '../../../components/Attendance/DaysTable.tsx';
import { feedback } from '../../../app/feedback.ts';
import { isHttpError } from '../../../app/http.ts';
import { clockIn } from './api/clock-in.ts';
import { getMyMonth } from './api/get-my-month.ts';

/** The browser's position, or the reason it gave none. */
function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) reject(new Error('unsupported'));
    else navigator.geolocation.getCurrentPosition(resolve, reject, { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 });
  });
}

/**
 * People → clock in (menu people_clock): a punch at the browser's position (the server measures the distance to
 * the group's clock addresses and refuses one outside them, unless the group records outside punches), and the
 * caller's days of a month as their group's shift and calendar judge them.
 */
export default function ClockPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'people' });
  const can = useAuth();
  const [month, setMonth] = useState<Dayjs>(() => dayjs());
  const [busy, setBusy] = useState(false);
  const key = month.format('YYYY-MM');
  // Someone in no attendance group has no rules: said on the screen, not as an error toast.
  const mine = useQuery({
    queryKey: ['people-clock', key],
    queryFn: () => getMyMonth(key).catch((error: unknown) => {
      if (isHttpError(error) && error.key === 'NoAttendanceRules') return null;
      throw error;
    }),
    retry: false,
  });
  const data = mine.data ?? null;
  const noRules = mine.data === null;
  const load = () => mine.refetch();

  const punch = async () => {
    setBusy(true);
    try {
      let position: GeolocationPosition;
      try {
        position = await currentPosition();
      } catch {
        feedback.message.error(t('geoDenied'));
        return;
      }
      const { latitude, longitude, accuracy } = position.coords;
      const done = await clockIn({ latitude, longitude, accuracy });
      const where = done.addressName ? t('clockedAt', { address: done.addressName, distance: done.distance }) : '';
      if (done.outside) feedback.message.warning(`${t('clockedOutside')} ${where}`);
      else feedback.message.success(`${t('clocked', { time: dayjs(done.punchedAt).format('HH:mm') })} ${where}`);
      await load();
    } catch {
      // The HTTP client has shown the refusal (outside the clock range, no rules…).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <Space size="large" align="center" wrap>
          {can('people_clock_add') && (
            <Button type="primary" size="large" icon={<AimOutlined />} loading={busy} onClick={() => void punch()} data-testid="clock-in">
              {t('clockIn')}
            </Button>
          )}
          {data && (
            <Descriptions size="small" column={3}>
              <Descriptions.Item label={t('group')}>{data.groupName}</Descriptions.Item>
              <Descriptions.Item label={t('shift')}>{data.shiftName}</Descriptions.Item>
              <Descriptions.Item label={t('outsideRule')}>{data.allowOutside ? t('outsideAllowed') : t('outsideRefused')}</Descriptions.Item>
            </Descriptions>
          )}
          <Typography.Text type="secondary">{t('clockHint')}</Typography.Text>
        </Space>
      </Card>
      {noRules && <Alert type="warning" showIcon message={t('noRules')} data-testid="no-rules" />}
      <Card title={t('myMonth')} extra={<DatePicker picker="month" allowClear={false} value={month} onChange={(v) => v && setMonth(v)} data-testid="clock-month" />}>
        <DaysTable days={data?.days ?? []} testId="my-days" />
      </Card>
    </Space>
  );
}
