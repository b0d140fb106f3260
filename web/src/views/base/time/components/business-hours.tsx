import { useEffect } from 'react';
import { App, Button, Card, Form, Switch, Table, TimePicker, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { BusinessDay } from '@p8/contract/base';
import { useFormSave } from '../../../../hooks/useFormSave.ts';
import { saveBusinessHours } from '../api/time.ts';
import { TIME_FORMAT } from './slot-dialog.tsx';

interface DayForm {
  weekday: number;
  open: boolean;
  range: [Dayjs, Dayjs];
}

const toForm = (days: BusinessDay[]): DayForm[] =>
  [...days].sort((a, b) => a.weekday - b.weekday).map((d) => ({ weekday: d.weekday, open: d.open, range: [dayjs(d.start, TIME_FORMAT), dayjs(d.end, TIME_FORMAT)] }));

/** The week's business hours: each day open or closed, with its hours; saved together. */
export default function BusinessHours({ days, editable, onSaved }: { days: BusinessDay[]; editable: boolean; onSaved: (days: BusinessDay[]) => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.time' });
  const { message } = App.useApp();
  const [form] = Form.useForm<{ days: DayForm[] }>();
  const watched = Form.useWatch('days', form) as DayForm[] | undefined;

  useEffect(() => form.setFieldsValue({ days: toForm(days) }), [days, form]);

  const { saving, submit: save } = useFormSave(form, async (values) => {
    const saved = await saveBusinessHours({
      days: values.days.map((d) => ({ weekday: d.weekday, open: d.open, start: d.range[0].format(TIME_FORMAT), end: d.range[1].format(TIME_FORMAT) })),
    });
    message.success(t('hoursSaved'));
    onSaved(saved);
  });

  return (
    <Card
      title={t('hoursTitle')}
      extra={
        editable && (
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="hours-save">
            {t('saveHours')}
          </Button>
        )
      }
      data-testid="business-hours"
    >
      <Typography.Paragraph type="secondary">{t('hoursTip')}</Typography.Paragraph>
      <Form form={form} initialValues={{ days: toForm(days) }} disabled={!editable || saving}>
        <Form.List name="days">
          {(fields) => (
            <Table
              size="small"
              pagination={false}
              rowKey="key"
              dataSource={fields}
              columns={[
                { title: '', width: 120, render: (_, f) => t(`weekdays.${watched?.[f.name]?.weekday ?? f.name + 1}`) },
                {
                  title: t('open'),
                  width: 140,
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'open']} valuePropName="checked" noStyle>
                      <Switch checkedChildren={t('open')} unCheckedChildren={t('closed')} data-testid={`hours-open-${f.name + 1}`} />
                    </Form.Item>
                  ),
                },
                {
                  title: `${t('start')} – ${t('end')}`,
                  render: (_, f) => (
                    <Form.Item
                      name={[f.name, 'range']}
                      style={{ marginBottom: 0 }}
                      rules={[{ validator: (_r, v?: [Dayjs, Dayjs]) => (!v || v[1].isAfter(v[0]) ? Promise.resolve() : Promise.reject(new Error(t('endBeforeStart')))) }]}
                    >
                      <TimePicker.RangePicker format={TIME_FORMAT} minuteStep={5} order allowClear={false} disabled={!editable || !watched?.[f.name]?.open} />
                    </Form.Item>
                  ),
                },
              ]}
            />
          )}
        </Form.List>
      </Form>
    </Card>
  );
}
