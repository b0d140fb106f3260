import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { MallPayType, type MallOrder, type MallOrderRow } from '@p8/contract/mall';
import Auth from '../Auth/index.tsx';
import NumberInput from '../NumberInput/index.tsx';
import { orderAction, type OrderAction, type OrderActionBody } from './api/orders.ts';

type Prompt = 'pay' | 'ship' | 'cancel' | 'refund/apply' | 'refund/refuse';

const OPEN_REFUND = ['Requested', 'Approved'];

/**
 * What can be done next to an order, as buttons behind their button codes: payment received, ship,
 * received, cancel (unpaid), refund request / approve / refuse / confirm. Asks for what a step needs
 * (carrier and number, a reason, the refund amount) or confirms it; `onDone` gets the order after it.
 */
export default function OrderActions({ order, onDone, size = 'small' }: { order: MallOrderRow; onDone: (order: MallOrder) => void; size?: 'small' | 'middle' }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.order' });
  const { modal, message } = App.useApp();
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<OrderActionBody>();
  const refundOpen = OPEN_REFUND.includes(order.refundStatus);
  const live = ['Paid', 'Shipped', 'Completed'].includes(order.status);

  const run = async (action: OrderAction, body: Omit<OrderActionBody, 'id'> = {}) => {
    setBusy(true);
    try {
      const next = await orderAction(action, { ...body, id: order.id });
      void message.success(t('done'));
      onDone(next);
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };
  const confirm = (action: OrderAction, content: string) => modal.confirm({ title: t(`actions.${action.replace('/', '_')}`), content, onOk: () => run(action) });
  const ask = (which: Prompt) => {
    form.resetFields();
    if (which === 'refund/apply') form.setFieldsValue({ amount: order.payAmount });
    if (which === 'pay') form.setFieldsValue({ payType: 'offline' });
    setPrompt(which);
  };
  const submit = async () => {
    // A field that does not pass shows its message under it; nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (values && prompt && (await run(prompt, values))) setPrompt(null);
  };
  const button = (code: string, action: string, onClick: () => void, primary = false, danger = false) => (
    <Auth code={code}>
      <Button size={size} type={primary ? 'primary' : 'default'} danger={danger} loading={busy} onClick={onClick} data-testid={`order-${action.replace('/', '-')}-${order.id}`}>
        {t(`actions.${action.replace('/', '_')}`)}
      </Button>
    </Auth>
  );

  return (
    <>
      <Space wrap size={6}>
        {order.status === 'PendingPayment' && button('mall_order_pay', 'pay', () => ask('pay'), true)}
        {order.status === 'PendingPayment' && button('mall_order_cancel', 'cancel', () => ask('cancel'), false, true)}
        {order.status === 'Paid' && !refundOpen && button('mall_order_ship', 'ship', () => ask('ship'), true)}
        {order.status === 'Shipped' && !refundOpen && button('mall_order_complete', 'complete', () => confirm('complete', t('confirmComplete', { orderNo: order.orderNo })), true)}
        {live && order.refundStatus === 'Requested' && button('mall_order_refund_audit', 'refund/approve', () => confirm('refund/approve', t('confirmApprove', { orderNo: order.orderNo, amount: order.refundAmount.toFixed(2) })), true)}
        {live && order.refundStatus === 'Requested' && button('mall_order_refund_audit', 'refund/refuse', () => ask('refund/refuse'), false, true)}
        {live && order.refundStatus === 'Approved' && button('mall_order_refund_confirm', 'refund/confirm', () => confirm('refund/confirm', t('confirmRefund', { amount: order.refundAmount.toFixed(2) })), true)}
        {live && !refundOpen && button('mall_order_refund', 'refund/apply', () => ask('refund/apply'))}
      </Space>
      <Modal
        open={prompt !== null}
        title={prompt ? t(`actions.${prompt.replace('/', '_')}`) : ''}
        onCancel={() => setPrompt(null)}
        onOk={() => void submit()}
        confirmLoading={busy}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'order-action-ok' } as Record<string, string>}
      >
        <Form form={form} layout="vertical" preserve={false}>
          {prompt === 'pay' && (
            <Form.Item name="payType" label={t('payType')} extra={t('confirmPay', { orderNo: order.orderNo, amount: order.payAmount.toFixed(2) })}>
              <Select options={MallPayType.map((value) => ({ value, label: t(`payTypes.${value}`) }))} />
            </Form.Item>
          )}
          {prompt === 'ship' && (
            <>
              <Form.Item name="logisticsCompany" label={t('logisticsCompany')} rules={[{ required: true, whitespace: true }, { max: 30 }]}>
                <Input maxLength={30} data-testid="order-ship-company" />
              </Form.Item>
              <Form.Item name="logisticsNo" label={t('logisticsNo')} rules={[{ required: true, whitespace: true }, { max: 50 }]}>
                <Input maxLength={50} data-testid="order-ship-no" />
              </Form.Item>
            </>
          )}
          {prompt === 'refund/apply' && (
            <Form.Item
              name="amount"
              label={t('refundAmount')}
              rules={[
                { required: true },
                // A refund of nothing (of an order paid something) is refused by the server too.
                { validator: async (_, value?: number | null) => { if (value === 0 && order.payAmount > 0) throw new Error(t('refundAmountZero')); } },
              ]}
            >
              {/* No `max`: more than was paid is refused with why (MallRefundAmountExceed), not cut to it unseen. */}
              <NumberInput kind="amount" precision={2} min={0} data-testid="order-refund-amount" />
            </Form.Item>
          )}
          {(prompt === 'cancel' || prompt === 'refund/apply' || prompt === 'refund/refuse') && (
            <Form.Item
              name="reason"
              label={t(prompt === 'cancel' ? 'cancelReason' : prompt === 'refund/apply' ? 'refundReason' : 'refuseReason')}
              rules={prompt === 'cancel' ? [{ max: 200 }] : [{ required: true, whitespace: true }, { max: 200 }]}
              extra={prompt === 'cancel' ? t('cancelTip') : undefined}
            >
              <Input.TextArea rows={3} maxLength={200} showCount />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
