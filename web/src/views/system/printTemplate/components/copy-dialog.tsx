import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PrintTemplateRow } from '@p8/contract/print/template';
import FormDialog from '../../../../components/FormDialog/index.tsx';
import { copyPrintTemplate } from '../api/copy-print-template.ts';

/** Asks the copy's name (the original's with a suffix, by default) and copies. */
export default function CopyDialog({ source, onClose, onCopied }: { source: PrintTemplateRow | undefined; onClose: () => void; onCopied: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.printTemplate' });
  return (
    <FormDialog<{ name: string }>
      open={source !== undefined}
      mode="add"
      title={t('copyTitle', { name: source?.name ?? '' })}
      initialValues={{ name: source ? `${source.name.slice(0, 44)} ${t('copySuffix')}` : '' }}
      onClose={onClose}
      onSubmit={async ({ name }) => {
        await copyPrintTemplate(source!.id, name.trim());
        onCopied();
      }}
      data-testid="print-template-copy-dialog"
    >
      <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('namePlaceholder') }, { max: 50 }]}>
        <Input maxLength={50} data-testid="print-template-copy-name" />
      </Form.Item>
    </FormDialog>
  );
}
