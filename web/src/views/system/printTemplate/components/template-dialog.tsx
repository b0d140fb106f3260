import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { billType, billTypesByArea } from '@p8/contract/bills/catalogue';
import { BILL_AREA_LABELS } from '@p8/contract/bills/registry';
import { starterTemplate, type PrintTemplateRow } from '@p8/contract/print/template';
import { labelOf } from '../../../../components/BillNames/index.ts';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import { createPrintTemplate } from '../api/create-print-template.ts';
import { updatePrintTemplate } from '../api/update-print-template.ts';

interface TemplateForm {
  billType: string;
  name: string;
  isDefault: boolean;
  enabled: boolean;
  remark?: string | null;
}

/** The printable bill types, grouped by area as the menus group them. */
export function printableTypeOptions(lang: string) {
  return billTypesByArea()
    .map(({ area, types }) => ({
      label: labelOf(BILL_AREA_LABELS[area], lang),
      title: area,
      options: types.filter((d) => d.actions.includes('print')).map((d) => ({ value: d.type, label: labelOf(d.label, lang), search: `${d.label.zh} ${d.label.en} ${d.type}` })),
    }))
    .filter((group) => group.options.length > 0);
}

/**
 * Add / edit / view a template's name, bill type, default mark and remark. A new template starts from its
 * type's starter layout; an edit keeps the layout (the designer changes it) and its type.
 */
export default function TemplateDialog(dialog: RecordDialogProps<PrintTemplateRow>) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office.printTemplate' });
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { record, mode } = dialog.state;
  const initialValues: TemplateForm = record
    ? { billType: record.billType, name: record.name, isDefault: record.isDefault, enabled: record.enabled, remark: record.remark ?? '' }
    : { billType: '', name: '', isDefault: false, enabled: true, remark: '' };
  const bodyOf = (values: TemplateForm) => ({
    ...values,
    remark: values.remark?.trim() || null,
    layout: record && record.billType === values.billType ? record.layout : starterTemplate(billType(values.billType)!, lang),
  });
  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      bodyOf={bodyOf}
      create={createPrintTemplate}
      update={updatePrintTemplate}
      labelCol={{ flex: '110px' }}
      data-testid="print-template-dialog"
    >
      <Form.Item name="billType" label={t('billType')} rules={[{ required: true, message: t('billTypePlaceholder') }]} extra={mode === 'add' ? t('billTypeHelp') : undefined}>
        <Select options={printableTypeOptions(lang)} placeholder={t('billTypePlaceholder')} showSearch={{ optionFilterProp: 'search' }} disabled={mode !== 'add'} data-testid="print-template-form-billType" />
      </Form.Item>
      <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('namePlaceholder') }, { max: 50 }]}>
        <Input placeholder={t('namePlaceholder')} maxLength={50} data-testid="print-template-form-name" />
      </Form.Item>
      <Form.Item name="isDefault" label={t('isDefault')} valuePropName="checked" extra={t('isDefaultHelp')}>
        <Switch data-testid="print-template-form-default" />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={2} maxLength={200} showCount />
      </Form.Item>
    </RecordFormDialog>
  );
}
