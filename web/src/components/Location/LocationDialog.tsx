import { Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Location } from '@p8/contract/basic';
import NumberInput from '../NumberInput/index.tsx';
import CodeField from '../RecordKit/CodeField.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../RecordKit/RecordDialog.tsx';
import { createLocation } from './api/create-location.ts';
import { warehouseOptionsQuery } from './api/list-warehouse-options.ts';
import { updateLocation } from './api/update-location.ts';

export interface LocationForm {
  warehouseId?: number;
  code?: string;
  name: string;
  sort?: number | null;
  remark?: string;
}


const bodyOf = (values: LocationForm) => ({ warehouseId: values.warehouseId!, code: values.code?.trim() ?? '', name: values.name.trim(), sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' });

/**
 * Add / edit / view a storage location: its warehouse (fixed when opened from a warehouse's drawer),
 * code, name (unique within the warehouse), sort and remark.
 */
export default function LocationDialog({
  warehouse,
  ...dialog
}: RecordDialogProps<Location> & {
  /** The warehouse the location belongs to, when the dialog is opened for one. */
  warehouse?: { id: number; name: string };
}) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const { record } = dialog.state;
  const warehouses = useQuery({ ...warehouseOptionsQuery, enabled: dialog.state.open && !warehouse });
  const initialValues: LocationForm = record
    ? { warehouseId: record.warehouseId, code: record.code, name: record.name, sort: record.sort, remark: record.remark }
    : { warehouseId: warehouse?.id, code: '', name: '', sort: 0, remark: '' };

  const options = warehouse
    ? [{ value: warehouse.id, label: warehouse.name }]
    : [
        ...(warehouses.data ?? []).map((w) => ({
          value: w.id,
          label: `${w.code} ${w.name}${w.enabled ? '' : t('location.disabledWarehouse')}`,
          // A disabled warehouse takes no new locations, but an existing location keeps showing its own.
          disabled: !w.enabled && w.id !== record?.warehouseId,
        })),
        ...(record && !(warehouses.data ?? []).some((w) => w.id === record.warehouseId) ? [{ value: record.warehouseId, label: record.warehouseName }] : []),
      ];

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('location.entity')}
      bodyOf={bodyOf}
      create={createLocation}
      update={updateLocation}
      data-testid="location-dialog"
    >
      <Form.Item name="warehouseId" label={t('location.warehouse')} rules={[{ required: true, message: t('common.selectRequired', { label: t('location.warehouse') }) }]}>
        <Select
          options={options}
          disabled={!!warehouse}
          loading={warehouses.isFetching}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('location.warehousePlaceholder')}
          data-testid="location-form-warehouse"
        />
      </Form.Item>
      <CodeField label={t('location.code')} mode={dialog.state.mode} optional data-testid="location-form-code" />
      <Form.Item name="name" label={t('location.name')} rules={[{ required: true, whitespace: true, message: t('common.required', { label: t('location.name') }) }, { max: 100 }]}>
        <Input maxLength={100} data-testid="location-form-name" />
      </Form.Item>
      <Form.Item name="sort" label={t('common.sort')} tooltip={t('common.sortTip')}>
        <NumberInput integer min={0} max={999999} style={{ width: 160 }} data-testid="location-form-sort" />
      </Form.Item>
      <Form.Item name="remark" label={t('common.remark')} rules={[{ max: 500 }]}>
        <Input.TextArea rows={2} maxLength={500} showCount data-testid="location-form-remark" />
      </Form.Item>
    </RecordFormDialog>
  );
}
