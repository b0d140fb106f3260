import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PrinterProvider, type PrinterRow } from '@p8/contract/office';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
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

export const NEW_PRINTER: PrinterForm = { name: '', provider: 'feie', sn: '', printerKey: '', copies: 1, enabled: true, remark: '' };

const bodyOf = (values: PrinterForm) => ({ ...values, remark: values.remark?.trim() || null, printerKey: values.printerKey?.trim() ?? '' });
/** An edit sends the key only when a new one is typed. */
const update = (body: ReturnType<typeof bodyOf> & { id: number }) => updatePrinter({ ...body, printerKey: body.printerKey || undefined });

/** Add / edit / view a cloud printer. The key is write-only: an edit shows it masked and keeps it unless a new one is typed. */
export default function PrinterDialog(dialog: RecordDialogProps<PrinterRow>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.printer' });
  const { record, mode } = dialog.state;
  const initialValues: PrinterForm = record
    ? { name: record.name, provider: record.provider, sn: record.sn, printerKey: mode === 'view' ? record.printerKey : '', copies: record.copies, enabled: record.enabled, remark: record.remark ?? '' }
    : NEW_PRINTER;

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      bodyOf={bodyOf}
      create={createPrinter}
      update={update}
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
    </RecordFormDialog>
  );
}
