import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { FeeKind, type FeeType } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { createFeeType } from '../api/create-fee-type.ts';
import { updateFeeType } from '../api/update-fee-type.ts';

export interface FeeTypeForm {
  name: string;
  kind: FeeKind;
  sort?: number | null;
  remark?: string;
}

export interface FeeTypeDialogState {
  open: boolean;
  mode: FormMode;
  record?: FeeType;
}

/** Add / edit / view a fee type: name (unique), income or expense, sort, remark. */
export default function FeeTypeDialog({ state, onClose, onSaved }: { state: FeeTypeDialogState; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const { mode, record } = state;
  const initialValues: FeeTypeForm = record ? { name: record.name, kind: record.kind, sort: record.sort, remark: record.remark } : { name: '', kind: 'expense', sort: 0, remark: '' };

  const submit = async (values: FeeTypeForm) => {
    const body = { name: values.name.trim(), kind: values.kind, sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' };
    if (mode === 'add') await createFeeType(body);
    else if (record) await updateFeeType({ ...body, id: record.id });
    onSaved();
  };

  return (
    <FormDialog<FeeTypeForm> open={state.open} mode={mode} onClose={onClose} initialValues={initialValues} entity={t('fee.entity')} onSubmit={submit} data-testid="fee-dialog">
      <Form.Item name="name" label={t('fee.name')} rules={[{ required: true, whitespace: true, message: t('common.required', { label: t('fee.name') }) }, { max: 100 }]}>
        <Input maxLength={100} data-testid="fee-form-name" />
      </Form.Item>
      <Form.Item name="kind" label={t('fee.kind')} rules={[{ required: true, message: t('common.selectRequired', { label: t('fee.kind') }) }]}>
        <Radio.Group optionType="button" buttonStyle="solid">
          {FeeKind.map((kind) => (
            <Radio.Button key={kind} value={kind}>
              <span data-testid={`fee-form-kind-${kind}`}>{t(`fee.kinds.${kind}`)}</span>
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="sort" label={t('common.sort')} tooltip={t('common.sortTip')}>
        <NumberInput integer min={0} max={999999} style={{ width: 160 }} data-testid="fee-form-sort" />
      </Form.Item>
      <Form.Item name="remark" label={t('common.remark')} rules={[{ max: 500 }]}>
        <Input.TextArea rows={2} maxLength={500} showCount data-testid="fee-form-remark" />
      </Form.Item>
    </FormDialog>
  );
}
