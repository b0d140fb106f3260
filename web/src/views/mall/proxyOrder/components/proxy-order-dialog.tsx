import { useMemo, useState } from 'react';
import { App, Button, Col, Form, Input, InputNumber, Modal, Row, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MallOrder, MallSkuOption } from '@p8/contract/mall';
import type { Partner } from '@p8/contract/basic';
import CustomerPicker from '../../../../components/Pickers/CustomerPicker.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { useDebounceFn } from '../../../../hooks/useDebounceFn.ts';
import { yuan } from '../../../../components/Mall/money.ts';
import { placeProxyOrder, searchSkus } from '../api/proxy-orders.ts';

interface Line extends MallSkuOption {
  quantity: number;
}

interface Values {
  consignee: string;
  phone: string;
  address: string;
  freightAmount?: number;
  discountAmount?: number;
  buyerRemark?: string;
}

const cents = (v: number) => Math.round(v * 100);

/**
 * Places an order for a customer: the customer (from the customers), the goods (SKUs of products on the
 * shelf, searched by name, each with its quantity — one beyond its stock is marked and refused), consignee and address,
 * shipping and discount. The order then waits for payment like any other.
 */
export default function ProxyOrderDialog({ open, onClose, onPlaced }: { open: boolean; onClose: () => void; onPlaced: (order: MallOrder) => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall' });
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [customer, setCustomer] = useState<Partner | null>(null);
  const [picking, setPicking] = useState(false);
  const [lines, setLines] = useState<Line[]>([]);
  const [keyword, setKeyword] = useState('');
  const [saving, setSaving] = useState(false);
  const search = useDebounceFn((value: string) => setKeyword(value));
  const options = useQuery({ queryKey: ['mall', 'sku-options', keyword], queryFn: () => searchSkus(keyword), enabled: open });
  const freight = Form.useWatch('freightAmount', form) ?? 0;
  const discount = Form.useWatch('discountAmount', form) ?? 0;
  const goods = useMemo(() => lines.reduce((n, l) => n + cents(l.price) * l.quantity, 0), [lines]);

  const reset = () => {
    form.resetFields();
    setCustomer(null);
    setLines([]);
  };
  const add = (skuId: number) => {
    const option = options.data?.data.find((o) => o.skuId === skuId);
    if (!option || lines.some((l) => l.skuId === skuId)) return;
    setLines((current) => [...current, { ...option, quantity: 1 }]);
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null); // the fields show what is missing
    if (!values) return;
    if (!customer) return void message.warning(t('common.pickCustomer'));
    if (!lines.length) return void message.warning(t('proxyOrder.noItems'));
    setSaving(true);
    try {
      const order = await placeProxyOrder({
        customerId: customer.id,
        consignee: values.consignee.trim(),
        phone: values.phone.trim(),
        address: values.address.trim(),
        items: lines.map((l) => ({ skuId: l.skuId, quantity: l.quantity })),
        freightAmount: values.freightAmount ?? 0,
        discountAmount: values.discountAmount ?? 0,
        buyerRemark: values.buyerRemark?.trim() ?? '',
      });
      void message.success(t('proxyOrder.placed', { orderNo: order.orderNo }));
      reset();
      onPlaced(order);
    } catch {
      /* the client showed why */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={t('proxyOrder.add')} width={1000} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving} destroyOnHidden okButtonProps={{ 'data-testid': 'proxy-submit' } as Record<string, string>} data-testid="proxy-order-dialog">
      <Form form={form} layout="vertical">
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item label={t('proxyOrder.customer')} required>
              <Button icon={<UserOutlined />} onClick={() => setPicking(true)} block data-testid="proxy-customer">
                {customer ? customer.name : t('common.pickCustomer')}
              </Button>
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="consignee" label={t('order.consignee')} rules={[{ required: true, whitespace: true }, { max: 30 }]}>
              <Input maxLength={30} data-testid="proxy-consignee" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="phone" label={t('order.phone')} rules={[{ required: true, whitespace: true }, { max: 30 }]}>
              <Input maxLength={30} data-testid="proxy-phone" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="address" label={t('order.address')} rules={[{ required: true, whitespace: true }, { max: 200 }]}>
              <Input maxLength={200} data-testid="proxy-address" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('proxyOrder.pickSku')}>
          <Select
            showSearch={{ filterOption: false, onSearch: search.run }}
            value={null}
            placeholder={t('proxyOrder.skuPlaceholder')}
            loading={options.isFetching}
            onChange={(v: number) => add(v)}
            options={(options.data?.data ?? []).map((o) => ({
              value: o.skuId,
              disabled: o.stock === 0 || lines.some((l) => l.skuId === o.skuId),
              label: `${o.productName}${o.specValues.length ? ` · ${o.specValues.join(' / ')}` : ''} · ${yuan(o.price)} · ${t('proxyOrder.stock')} ${o.stock}`,
            }))}
            data-testid="proxy-sku"
          />
        </Form.Item>
        <Table<Line>
          size="small"
          rowKey="skuId"
          pagination={false}
          dataSource={lines}
          locale={{ emptyText: t('proxyOrder.noItems') }}
          data-testid="proxy-lines"
          columns={[
            { key: 'product', title: t('proxyOrder.product'), dataIndex: 'productName' },
            { key: 'spec', title: t('proxyOrder.spec'), render: (_, l) => l.specValues.join(' / ') || '—', width: 160 },
            { key: 'price', title: t('proxyOrder.price'), align: 'right', width: 100, render: (_, l) => yuan(l.price) },
            { key: 'stock', title: t('proxyOrder.stock'), align: 'right', width: 80, dataIndex: 'stock' },
            {
              key: 'quantity',
              title: t('proxyOrder.quantity'),
              width: 110,
              render: (_, l, index) => (
                // No `max`: antd would cut a quantity beyond the stock to the stock when the field is left, and
                // the order went out for that many while the dialog had shown the total of what was typed. A
                // quantity the stock (or 1–9999) does not allow is marked, and the server refuses it naming
                // the SKU (MallStockInsufficient, MallQuantityError).
                <InputNumber
                  min={1}
                  precision={0}
                  status={l.quantity > Math.min(l.stock, 9999) ? 'error' : undefined}
                  value={l.quantity}
                  onChange={(v) => setLines((current) => current.map((x) => (x.skuId === l.skuId ? { ...x, quantity: v ?? 1 } : x)))}
                  data-testid={`proxy-line-${index}-quantity`}
                />
              ),
            },
            { key: 'amount', title: t('proxyOrder.amount'), align: 'right', width: 110, render: (_, l) => yuan((cents(l.price) * l.quantity) / 100) },
            {
              key: 'remove',
              width: 48,
              render: (_, l) => <Button type="text" danger icon={<DeleteOutlined />} aria-label="remove" onClick={() => setLines((c) => c.filter((x) => x.skuId !== l.skuId))} />,
            },
          ]}
        />
        <Row gutter={16} style={{ marginTop: 16 }}>
          <Col span={6}>
            <Form.Item name="freightAmount" label={t('order.freightAmount')}>
              <NumberInput kind="amount" precision={2} min={0} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="discountAmount" label={t('order.discountAmount')}>
              <NumberInput kind="amount" precision={2} min={0} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="buyerRemark" label={t('proxyOrder.remark')} rules={[{ max: 200 }]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
        <Space size={24} style={{ justifyContent: 'flex-end', width: '100%' }}>
          <Typography.Text>
            {t('proxyOrder.goodsAmount')}: {yuan(goods / 100)}
          </Typography.Text>
          <Typography.Text strong type="danger" data-testid="proxy-total">
            {t('proxyOrder.payAmount')}: {yuan((goods + cents(freight) - cents(discount)) / 100)}
          </Typography.Text>
        </Space>
      </Form>
      <CustomerPicker
        open={picking}
        multiple={false}
        onClose={() => setPicking(false)}
        onOk={([picked]) => {
          setPicking(false);
          if (!picked) return;
          setCustomer(picked);
          if (!form.getFieldValue('consignee')) form.setFieldsValue({ consignee: picked.name.slice(0, 30), phone: picked.phone });
        }}
      />
    </Modal>
  );
}
