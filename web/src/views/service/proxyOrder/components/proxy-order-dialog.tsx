import { useEffect, useState } from 'react';
import { DatePicker, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { SlotAvailability } from '@p8/contract/base';
import { useSystemConfig } from '../../../../hooks/useSystemConfig.ts';
import { createProxyOrder } from '../api/create-proxy-order.ts';
import { getAvailableSlots } from '../api/get-available-slots.ts';

interface FormValues {
  serviceName: string;
  customerName: string;
  customerPhone: string;
  address: string;
  amount?: number;
  date?: Dayjs;
  slotId?: number;
  remark?: string;
}

/** Place an order for a customer: who, where, what, and (when appointments are open) a day and a slot with places left. */
export default function ProxyOrderDialog({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service' });
  const config = useSystemConfig();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [slots, setSlots] = useState<SlotAvailability | null>(null);
  const date = Form.useWatch('date', form);
  const appointments = config?.openAppointment ?? false;

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const pickDate = (day: Dayjs | null) => {
    setSlots(null);
    form.setFieldValue('slotId', undefined);
    if (day) void getAvailableSlots(day.format('YYYY-MM-DD')).then(setSlots);
  };

  const submit = async () => {
    const v = await form.validateFields().catch(() => null); // the fields show what is missing
    if (!v) return;
    setSaving(true);
    try {
      await createProxyOrder({
        serviceName: v.serviceName.trim(),
        customerName: v.customerName.trim(),
        customerPhone: v.customerPhone.trim(),
        address: v.address.trim(),
        amount: v.amount ?? 0,
        appointmentDate: v.date ? v.date.format('YYYY-MM-DD') : null,
        slotId: v.slotId ?? null,
        remark: v.remark?.trim() || null,
      });
      onSaved();
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('proxy.add')} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving} width={640} destroyOnHidden data-testid="proxy-order-dialog">
      <Form form={form} layout="horizontal" labelCol={{ flex: '120px' }} initialValues={{ amount: 0 }}>
        <Form.Item name="serviceName" label={t('order.serviceName')} rules={[{ required: true, whitespace: true, message: t('proxy.serviceName') }, { max: 100 }]}>
          <Input maxLength={100} placeholder={t('proxy.serviceName')} data-testid="proxy-serviceName" />
        </Form.Item>
        <Form.Item name="customerName" label={t('order.customerName')} rules={[{ required: true, whitespace: true, message: t('proxy.customerName') }, { max: 50 }]}>
          <Input maxLength={50} placeholder={t('proxy.customerName')} data-testid="proxy-customerName" />
        </Form.Item>
        <Form.Item name="customerPhone" label={t('order.customerPhone')} rules={[{ required: true, pattern: /^1[3-9]\d{9}$/, message: t('proxy.customerPhone') }]}>
          <Input maxLength={11} placeholder={t('proxy.customerPhone')} data-testid="proxy-customerPhone" />
        </Form.Item>
        <Form.Item name="address" label={t('order.address')} rules={[{ required: true, whitespace: true, message: t('proxy.address') }, { max: 200 }]}>
          <Input maxLength={200} placeholder={t('proxy.address')} data-testid="proxy-address" />
        </Form.Item>
        <Form.Item name="amount" label={t('order.amount')}>
          <InputNumber min={0} max={99999999} precision={2} style={{ width: 200 }} />
        </Form.Item>
        {appointments ? (
          <>
            <Form.Item name="date" label={t('proxy.date')} dependencies={['slotId']}>
              <DatePicker onChange={pickDate} disabledDate={(d) => d.isBefore(dayjs(), 'day')} style={{ width: 200 }} data-testid="proxy-date" />
            </Form.Item>
            <Form.Item name="slotId" label={t('proxy.slot')} rules={[{ required: Boolean(date), message: t('proxy.slotRequired') }]}>
              <Select
                disabled={!date}
                placeholder={date && slots && !slots.open ? t('proxy.closedDay') : t('proxy.slotRequired')}
                options={(slots?.slots ?? []).map((s) => ({ value: s.id, disabled: s.left <= 0, label: `${s.start}-${s.end}  ${t('proxy.left', { left: s.left, capacity: s.capacity })}` }))}
                data-testid="proxy-slot"
              />
            </Form.Item>
          </>
        ) : (
          <Form.Item label={t('proxy.date')}>
            <Typography.Text type="secondary">{t('proxy.appointmentsClosed')}</Typography.Text>
          </Form.Item>
        )}
        <Form.Item name="remark" label={t('order.remark')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
