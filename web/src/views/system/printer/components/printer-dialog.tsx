import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PrinterProvider, type PrinterRow } from '@p8/contract/office';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { createPrinter } from '../api/create-printer.ts';
import { updatePrinter } from '../api/update-printer.ts';

export interface PrinterForm {
  name: string;
  provider: PrinterProvider;
  sn: string;
  printerKey?: string;
  copies: number;
  enabled: boolean;
  remark?: string | null;
}

export interface PrinterDialogState {
  open: boolean;
  mode: FormMode;
  /** The printer being edited or viewed. */
  record?: PrinterRow;
}

export const NEW_PRINTER: PrinterForm = { name: '', provider: 'feie', sn: '', printerKey: '', copies: 1, enabled: true, remark: '' };

/** Add / edit / view a cloud printer. The key is write-only: an edit shows it masked and keeps it unless a new one is typed. */
export default function PrinterDialog({ state, onClose, onSaved }: { state: PrinterDialogState; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.printer' });
  const { record, mode } = state;
  const initialValues: PrinterForm = record
    ? { name: record.name, provider: record.provider, sn: record.sn, printerKey: mode === 'view' ? record.printerKey : '', copies: record.copies, enabled: record.enabled, remark: record.remark ?? '' }
    : NEW_PRINTER;

  const submit = async (values: PrinterForm) => {
    const body = { ...values, remark: values.remark?.trim() || null, printerKey: values.printerKey?.trim() ?? '' };
    if (mode === 'add') await createPrinter({ ...body, printerKey: body.printerKey });
    else if (record) await updatePrinter({ ...body, id: record.id, printerKey: body.printerKey || undefined });
    onSaved();
  };

  return (
    <FormDialog<PrinterForm>
      open={state.open}
      mode={mode}
      onClose={onClose}
      initialValues={initialValues}
      entity={t('entity')}
      onSubmit={submit}
      labelCol={{ flex: '130px' }}
      data-testid="printer-dialog"
    >
      <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('namePlaceholder') }, { max: 50 }]}>
        <Input placeholder={t('namePlaceholder')} maxLength={50} data-testid="printer-form-name" />
      </Form.Item>
      <Form.Item name="provider" label={t('provider')} rules={[{ required: true }]}>
        <Select options={PrinterProvider.map((value) => ({ value, label: t(`providers.${value}`) }))} data-testid="printer-form-provider" />
      </Form.Item>
      <Form.Item name="sn" label={t('sn')} rules={[{ required: true, whitespace: true, message: t('snPlaceholder') }, { max: 64 }]}>
        <Input placeholder={t('snPlaceholder')} maxLength={64} autoComplete="off" data-testid="printer-form-sn" />
      </Form.Item>
      <Form.Item
        name="printerKey"
        label={t('printerKey')}
        rules={mode === 'add' ? [{ required: true, whitespace: true, message: t('keyPlaceholder') }, { max: 128 }] : [{ max: 128 }]}
        extra={mode === 'add' ? t('printerKeyTip') : undefined}
      >
        {mode === 'view' ? (
          <Input />
        ) : (
          <Input.Password
            placeholder={mode === 'edit' && record ? t('printerKeyKeep', { masked: record.printerKey || '—' }) : t('keyPlaceholder')}
            maxLength={128}
            autoComplete="new-password"
            data-testid="printer-form-key"
          />
        )}
      </Form.Item>
      <Form.Item name="copies" label={t('copies')} rules={[{ required: true }]} extra={t('copiesTip')}>
        <NumberInput integer min={1} max={9} style={{ width: 160 }} data-testid="printer-form-copies" />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch data-testid="printer-form-enabled" />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={3} maxLength={200} showCount />
      </Form.Item>
    </FormDialog>
  );
}
