import { useEffect, useState } from 'react';
import { Form, Input, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServiceOrderRow } from '@p8/contract/service';
import { auditOrder, cancelOrder, dispatchOrder, listDispatchStaff, type DispatchableStaff } from './api/orders.ts';

export type OrderAction = 'dispatch' | 'audit' | 'cancel';

interface FormValues {
  staffId?: number;
  pass?: boolean;
  reason?: string;
  remark?: string;
}

/** The three order steps that ask for something: dispatch (to whom), review (pass or refuse), cancel (why). */
export default function OrderActionDialog({ action, order, onClose, onDone }: { action: OrderAction | null; order: ServiceOrderRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service' });
  const [form] = Form.useForm<FormValues>();
  const [staff, setStaff] = useState<DispatchableStaff[]>([]);
  const [saving, setSaving] = useState(false);
  const open = Boolean(action && order);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ staffId: order?.staffId ?? undefined, pass: true });
    if (action === 'dispatch') void listDispatchStaff().then(setStaff);
  }, [open, action, order, form]);

  const submit = async () => {
    // A field that does not pass shows its message under it (no unhandled rejection).
    const values = await form.validateFields().catch(() => null);
    if (!values || !order || !action) return;
    setSaving(true);
    try {
      if (action === 'dispatch') await dispatchOrder({ id: order.id, staffId: values.staffId!, remark: values.remark?.trim() || null });
      if (action === 'audit') await auditOrder({ id: order.id, pass: values.pass !== false, reason: values.reason?.trim() || null });
      if (action === 'cancel') await cancelOrder({ id: order.id, reason: values.reason?.trim() ?? '' });
      onDone();
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={action ? `${t(`action.${action === 'audit' ? 'audit_pass' : action}`)} · ${order?.orderNo ?? ''}` : ''} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving} destroyOnHidden data-testid="order-action-dialog">
      <Form form={form} layout="vertical">
        {action === 'dispatch' && (
          <>
            <Form.Item name="staffId" label={t('order.staff')} rules={[{ required: true, message: t('dialog.pickStaff') }]}>
              <Select
                showSearch
                optionFilterProp="label"
                placeholder={t('dialog.pickStaff')}
                options={staff.map((s) => ({
                  value: s.id,
                  // Who, their skills and areas, and how many orders they already hold: the dispatcher picks by these.
                  label: [`${s.name}${s.phone ? ` (${s.phone})` : ''}`, [...s.skills, ...s.areas].join(' / '), t('dialog.load', { count: s.load })].filter(Boolean).join(' · '),
                }))}
                data-testid="dispatch-staff"
              />
            </Form.Item>
            <Form.Item name="remark" label={t('order.remark')} rules={[{ max: 200 }]}>
              <Input.TextArea rows={2} maxLength={200} />
            </Form.Item>
          </>
        )}
        {action === 'audit' && (
          <>
            <Form.Item name="pass" label={t('dialog.auditResult')}>
              <Radio.Group options={[{ value: true, label: t('dialog.pass') }, { value: false, label: t('dialog.refuse') }]} />
            </Form.Item>
            <Form.Item name="reason" label={t('dialog.auditReason')} rules={[{ max: 200 }]}>
              <Input.TextArea rows={2} maxLength={200} />
            </Form.Item>
          </>
        )}
        {action === 'cancel' && (
          <Form.Item name="reason" label={t('order.cancelReason')} rules={[{ required: true, whitespace: true, message: t('dialog.cancelReason') }, { max: 200 }]}>
            <Input.TextArea rows={3} maxLength={200} placeholder={t('dialog.cancelReason')} data-testid="cancel-reason" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
