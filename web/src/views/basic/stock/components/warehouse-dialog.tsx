import { Col, Form, Input, Row, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Warehouse } from '@p8/contract/basic';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import StaffSelect from '../../../../components/Pickers/StaffSelect.tsx';
import RecordInput from '../../../../components/Pickers/RecordInput.tsx';
import CustomerPicker from '../../../../components/Pickers/CustomerPicker.tsx';
import { pickPartners } from '../../../../components/Pickers/api/pick-partners.ts';
import CodeField from '../../../../components/RecordKit/CodeField.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import { PHONE_PATTERN } from '../../../../components/Partner/partner-form.ts';
import { createWarehouse } from '../api/create-warehouse.ts';
import { updateWarehouse } from '../api/update-warehouse.ts';

export interface WarehouseForm {
  code?: string;
  name: string;
  address?: string;
  managerId?: number | null;
  phone?: string;
  rejects?: boolean;
  customer?: { id: number; name: string } | null;
  sort?: number | null;
  remark?: string;
}

/** The customer a consignment warehouse keeps materials for (entrusted machining); empty: the company's own. */
function CustomerField({ value, onChange, disabled }: { value?: { id: number; name: string } | null; onChange?: (v: { id: number; name: string } | null) => void; disabled?: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  return (
    <RecordInput
      label={value?.name ?? ''}
      search={(keyword, pageSize) => pickPartners('customer', { keyword, current: 1, pageSize }).then((page) => page.data)}
      optionLabel={(row) => `${row.code} · ${row.name}`}
      onChoose={(row) => onChange?.({ id: row.id, name: row.name })}
      onClear={() => onChange?.(null)}
      picker={({ keyword, onClose }) => <CustomerPicker open keyword={keyword} multiple={false} onClose={onClose} onOk={([r]) => r && onChange?.({ id: r.id, name: r.name })} />}
      disabled={disabled}
      placeholder={t('stock.customerPlaceholder')}
      buttonLabel={t('stock.customer')}
      data-testid="stock-form-customer"
    />
  );
}


const bodyOf = (values: WarehouseForm) => ({
  code: values.code?.trim() ?? '',
  name: values.name.trim(),
  address: values.address?.trim() ?? '',
  managerId: values.managerId ?? null,
  phone: values.phone?.trim() ?? '',
  rejects: values.rejects ?? false,
  customerId: values.customer?.id ?? null,
  sort: values.sort ?? 0,
  remark: values.remark?.trim() ?? '',
});

/** Add / edit / view a warehouse: code and name (unique), address, manager, phone, reject warehouse or not, the customer it keeps materials for, sort, remark. */
export default function WarehouseDialog(dialog: RecordDialogProps<Warehouse>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const { record } = dialog.state;
  const initialValues: WarehouseForm = record
    ? { code: record.code, name: record.name, address: record.address, managerId: record.managerId, phone: record.phone, rejects: record.rejects, customer: record.customerId ? { id: record.customerId, name: record.customerName ?? '' } : null, sort: record.sort, remark: record.remark }
    : { code: '', name: '', address: '', managerId: null, phone: '', rejects: false, customer: null, sort: 0, remark: '' };
  const known = record?.managerId && record.managerName ? [{ id: record.managerId, label: record.managerName }] : [];

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('stock.entity')}
      bodyOf={bodyOf}
      create={createWarehouse}
      update={updateWarehouse}
      width={720}
      layout="vertical"
      data-testid="stock-dialog"
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <CodeField label={t('stock.code')} mode={dialog.state.mode} data-testid="stock-form-code" />
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('stock.name')} rules={[{ required: true, whitespace: true, message: t('common.required', { label: t('stock.name') }) }, { max: 100 }]}>
            <Input maxLength={100} data-testid="stock-form-name" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="address" label={t('stock.address')} rules={[{ max: 200 }]}>
            <Input maxLength={200} data-testid="stock-form-address" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="managerId" label={t('stock.manager')}>
            <StaffSelect known={known} placeholder={t('stock.managerPlaceholder')} data-testid="stock-form-manager" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="phone" label={t('stock.phone')} rules={[{ pattern: PHONE_PATTERN, message: t('common.phoneFormat') }]}>
            <Input maxLength={30} data-testid="stock-form-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="rejects" label={t('stock.rejects')} tooltip={t('stock.rejectsTip')} valuePropName="checked">
            <Switch data-testid="stock-form-rejects" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="customer" label={t('stock.customer')} tooltip={t('stock.customerTip')}>
            <CustomerField disabled={dialog.state.mode === 'view'} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="sort" label={t('common.sort')} tooltip={t('common.sortTip')}>
            <NumberInput integer min={0} max={999999} data-testid="stock-form-sort" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('common.remark')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={2} maxLength={500} showCount data-testid="stock-form-remark" />
          </Form.Item>
        </Col>
      </Row>
    </RecordFormDialog>
  );
}
