import { useState } from 'react';
import { Button, Drawer, Form, Input, InputNumber, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, InboxOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillLineView } from '@p8/contract/bills/api';
import { billApiPath, billButtonCode, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { InspectionBox } from '@p8/contract/quality';
import { Auth } from '../../../components/Auth/index.tsx';
import LabelPrint from '../../../components/LabelPrint/index.tsx';
import { feedback } from '../../../app/feedback.ts';
import { http } from '../../../app/http.ts';

interface PackingButtonProps {
  decl: BillTypeDecl;
  id: number;
  lines: readonly BillLineView[];
  /** The inspection may still be saved: boxes are packed and unpacked only then. */
  editable: boolean;
}

interface PackForm {
  lineNo: number;
  quantity: number;
  code?: string;
  serials?: string;
}

/** A line's accepted goods (accepted + concession), what its boxes may hold. */
const acceptedOf = (line: BillLineView) => Number(line.acceptedNumber ?? 0) + Number(line.concessionNumber ?? 0);
/** Serial numbers typed one per line, or separated by commas or spaces. */
const serialsOf = (text: string | undefined) => (text ?? '').split(/[\s,，]+/).map((s) => s.trim()).filter(Boolean);

/**
 * Inspection packing (检验装箱) on an inspection that packs (`packs`): its boxes — code, line, quantity, serials —
 * and, while the inspection may be saved, a box packed from a line's accepted goods or unpacked (the type's
 * update button). Each line shows how much of what it accepted is boxed; the server holds the rules.
 */
export default function PackingButton({ decl, id, lines, editable }: PackingButtonProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'bill.packing' });
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<PackForm>();
  const path = `${billApiPath(decl).replace(/^\/api/, '')}/box`;
  const boxes = useQuery({ queryKey: ['inspection-boxes', decl.type, id], queryFn: () => http.get<InspectionBox[]>(path, { billId: id }, { noLoading: true }), enabled: open, staleTime: 0 });
  const packedOf = (lineNo: number) => (boxes.data ?? []).filter((b) => b.lineNo === lineNo).reduce((s, b) => s + Number(b.quantity), 0);
  const [busy, setBusy] = useState(false);
  const [labelling, setLabelling] = useState(false);
  /** The boxes as box labels: the box code as its code (its QR code), the material, `n / boxes`, what it holds. */
  const labelled = (boxes.data ?? []).map((b, i, all) => ({ id: b.id, code: b.code, name: b.materialName, specification: b.specification, boxNo: `${i + 1} / ${all.length}`, perBox: Number(b.quantity).toString() }));

  const pack = async (values: PackForm) => {
    setBusy(true);
    try {
      const serialNumbers = serialsOf(values.serials);
      await http.post(path, { billId: id, lineNo: values.lineNo, quantity: values.quantity, serialNumbers, ...(values.code?.trim() ? { code: values.code.trim() } : {}) });
      feedback.message.success(t('packed'));
      form.resetFields(['quantity', 'code', 'serials']);
      await boxes.refetch();
    } finally {
      setBusy(false);
    }
  };
  const unpack = async (box: InspectionBox) => {
    await http.delete(path, { billId: id, ids: [box.id] });
    feedback.message.success(t('unpacked'));
    await boxes.refetch();
  };

  return (
    <>
      <Button icon={<InboxOutlined />} onClick={() => setOpen(true)} data-testid="bill-packing">
        {t('title')}
      </Button>
      <Drawer open={open} width={760} title={t('title')} onClose={() => setOpen(false)} data-testid="bill-packing-drawer">
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Space wrap>
            {lines.map((line) => {
              const packed = packedOf(line.lineNo);
              const accepted = acceptedOf(line);
              return (
                <Tag key={line.lineNo} color={packed >= accepted && accepted > 0 ? 'green' : 'orange'} data-testid={`bill-packing-line-${line.lineNo}`}>
                  {t('lineState', { line: line.lineNo, material: line.materialName, packed, accepted })}
                </Tag>
              );
            })}
          </Space>
          {editable && (
            <Auth code={billButtonCode(decl, 'update')}>
              <Form<PackForm> form={form} layout="inline" onFinish={(v) => void pack(v)} initialValues={{ lineNo: lines[0]?.lineNo }} data-testid="bill-packing-form">
                <Form.Item name="lineNo" label={t('line')} rules={[{ required: true }]}>
                  <Select style={{ width: 200 }} options={lines.map((l) => ({ value: l.lineNo, label: `${l.lineNo}. ${l.materialName}` }))} data-testid="bill-packing-line" />
                </Form.Item>
                <Form.Item name="quantity" label={t('quantity')} rules={[{ required: true, message: t('quantityRequired') }]}>
                  <InputNumber min={0.000001} style={{ width: 110 }} data-testid="bill-packing-quantity" />
                </Form.Item>
                <Form.Item name="code" label={t('code')}>
                  <Input placeholder={t('codeAuto')} maxLength={60} style={{ width: 170 }} data-testid="bill-packing-code" />
                </Form.Item>
                <Form.Item name="serials" label={t('serials')} style={{ width: '100%', marginTop: 8 }}>
                  <Input.TextArea rows={2} placeholder={t('serialsHint')} data-testid="bill-packing-serials" />
                </Form.Item>
                <Form.Item style={{ marginTop: 8 }}>
                  <Button type="primary" htmlType="submit" loading={busy} data-testid="bill-packing-go">
                    {t('pack')}
                  </Button>
                </Form.Item>
              </Form>
            </Auth>
          )}
          <Space>
            {!editable && <Typography.Text type="secondary">{t('fixed')}</Typography.Text>}
            <Auth code={billButtonCode(decl, 'print')}>
              <Button icon={<PrinterOutlined />} disabled={!labelled.length} onClick={() => setLabelling(true)} data-testid="bill-packing-labels">
                {t('labels')}
              </Button>
            </Auth>
          </Space>
          {labelling && <LabelPrint kinds={['box']} records={labelled} printPath={`${path}/label/print`} onClose={() => setLabelling(false)} />}
          <Table<InspectionBox>
            size="small"
            rowKey="id"
            loading={boxes.isFetching}
            dataSource={boxes.data ?? []}
            pagination={false}
            data-testid="bill-packing-boxes"
            columns={[
              { dataIndex: 'code', title: t('code'), width: 170 },
              { dataIndex: 'lineNo', title: t('line'), width: 60 },
              { dataIndex: 'materialName', title: t('material'), width: 140 },
              { dataIndex: 'quantity', title: t('quantity'), width: 90, align: 'right', render: (v: string) => Number(v) },
              { dataIndex: 'serialNumbers', title: t('serials'), render: (v: string[]) => (v.length ? v.join(', ') : '—') },
              ...(editable
                ? [
                    {
                      key: 'actions',
                      width: 60,
                      render: (_: unknown, box: InspectionBox) => (
                        <Auth code={billButtonCode(decl, 'update')}>
                          <Popconfirm title={t('unpackConfirm', { code: box.code })} onConfirm={() => void unpack(box)}>
                            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`bill-packing-unpack-${box.id}`} />
                          </Popconfirm>
                        </Auth>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Space>
      </Drawer>
    </>
  );
}
