import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PayType } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { createPayType } from '../api/create-pay-type.ts';
import { updatePayType } from '../api/update-pay-type.ts';

export interface PayTypeForm {
  name: string;
  sort?: number | null;
  remark?: string;
}

export interface PayTypeDialogState {
  open: boolean;
  mode: FormMode;
  record?: PayType;
}

/** Add / edit / view a pay type (settlement method): name (unique), sort, remark. */
export default function PayTypeDialog({ state, onClose, onSaved }: { state: PayTypeDialogState; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const { mode, record } = state;
  const initialValues: PayTypeForm = record ? { name: record.name, sort: record.sort, remark: record.remark } : { name: '', sort: 0, remark: '' };

  const submit = async (values: PayTypeForm) => {
    const body = { name: values.name.trim(), sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' };
    if (mode === 'add') await createPayType(body);
    else if (record) await updatePayType({ ...body, id: record.id });
    onSaved();
  };

  return (
    <FormDialog<PayTypeForm> open={state.open} mode={mode} onClose={onClose} initialValues={initialValues} entity={t('paytype.entity')} onSubmit={submit} data-testid="paytype-dialog">
      <Form.Item name="name" label={t('paytype.name')} rules={[{ required: true, whitespace: true, message: t('common.required', { label: t('paytype.name') }) }, { max: 100 }]}>
        <Input maxLength={100} data-testid="paytype-form-name" />
      </Form.Item>
      <Form.Item name="sort" label={t('common.sort')} tooltip={t('common.sortTip')}>
        <NumberInput integer min={0} max={999999} style={{ width: 160 }} data-testid="paytype-form-sort" />
      </Form.Item>
      <Form.Item name="remark" label={t('common.remark')} rules={[{ max: 500 }]}>
        <Input.TextArea rows={2} maxLength={500} showCount data-testid="paytype-form-remark" />
      </Form.Item>
    </FormDialog>
  );
}
