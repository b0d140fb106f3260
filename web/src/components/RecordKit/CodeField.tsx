import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import type { FormMode } from '../FormDialog/index.tsx';

interface CodeFieldProps {
  label: string;
  mode: FormMode;
  /** What an edit says when the code is cleared (a stored record keeps a code). */
  requiredRule?: Rule;
  /** A stored record may be without a code too (locations). */
  optional?: boolean;
  'data-testid'?: string;
}

/**
 * The code of a record form. A new record may leave it empty: the server then generates the tenant's
 * prefix + a sequence (system settings → code prefixes), which the hint says. A stored record keeps one.
 */
export default function CodeField({ label, mode, requiredRule, optional = false, 'data-testid': testId }: CodeFieldProps) {
  const { t } = useTranslation();
  const adding = mode === 'add';
  const required = !adding && !optional;
  const rule = requiredRule ?? { required: true, whitespace: true, message: t('error.PleaseInputCode') };
  return (
    <Form.Item name="code" label={label} required={required} rules={[...(required ? [rule] : []), { max: 50 }]} extra={adding ? t('kit.form.codeAuto') : undefined}>
      <Input maxLength={50} placeholder={adding ? t('kit.form.codeAuto') : undefined} data-testid={testId} />
    </Form.Item>
  );
}
