import { Form, Switch, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TimeSlotCreate, TimeSlotRow } from '@p8/contract/base';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import { createTimeSlot, updateTimeSlot } from '../api/time.ts';

export const TIME_FORMAT = 'HH:mm';

interface SlotForm {
  range: [Dayjs, Dayjs];
  capacity: number;
  sort: number;
  enabled: boolean;
}

const bodyOf = ({ range, ...rest }: SlotForm): TimeSlotCreate => ({ ...rest, sort: rest.sort ?? 0, start: range[0].format(TIME_FORMAT), end: range[1].format(TIME_FORMAT) });

/** Add / edit / view an appointment slot: its time range, capacity per day, order, switch. */
export default function SlotDialog(dialog: RecordDialogProps<TimeSlotRow>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'base.time' });
  const { record } = dialog.state;
  const initialValues: Partial<SlotForm> = record
    ? { range: [dayjs(record.start, TIME_FORMAT), dayjs(record.end, TIME_FORMAT)], capacity: record.capacity, sort: record.sort, enabled: record.enabled }
    : { capacity: 5, sort: 0, enabled: true };
  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('slotEntity')}
      bodyOf={bodyOf}
      create={createTimeSlot}
      update={updateTimeSlot}
      labelCol={{ flex: '100px' }}
      width={520}
      data-testid="slot-dialog"
    >
      <Form.Item
        name="range"
        label={t('slot')}
        rules={[
          { required: true, message: t('slot') },
          { validator: (_, v?: [Dayjs, Dayjs]) => (!v || v[1].isAfter(v[0]) ? Promise.resolve() : Promise.reject(new Error(t('endBeforeStart')))) },
        ]}
      >
        <TimePicker.RangePicker format={TIME_FORMAT} minuteStep={5} order data-testid="slot-form-range" />
      </Form.Item>
      <Form.Item name="capacity" label={t('capacity')} rules={[{ required: true }]} extra={t('capacityUnit')}>
        <NumberInput integer min={1} max={9999} style={{ width: 160 }} data-testid="slot-form-capacity" />
      </Form.Item>
      <Form.Item name="sort" label={t('sort')}>
        <NumberInput integer min={0} max={99999} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </RecordFormDialog>
  );
}
