import { Col, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import NumberInput from '../NumberInput/index.tsx';

/*
 * Fields every basic-record dialog has (units, brands, attributes, fee and pay types, categories,
 * districts), each a full-width cell of the dialog's grid.
 */

/** The record's name: required, at most 100 characters. */
export function NameField({ label, testId }: { label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Col span={24}>
      <Form.Item name="name" label={label} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputName') }, { max: 100, message: t('error.NameTooLong') }]}>
        <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label })} data-testid={testId} />
      </Form.Item>
    </Col>
  );
}

/** The sort number (smaller first). */
export function SortField({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <Col span={24}>
      <Form.Item name="sort" label={t('basic.common.sort')} tooltip={t('basic.common.sortTip')}>
        <NumberInput integer min={0} max={999999} data-testid={testId} />
      </Form.Item>
    </Col>
  );
}

export function RemarkField() {
  const { t } = useTranslation();
  return (
    <Col span={24}>
      <Form.Item name="remark" label={t('basic.common.remark')}>
        <Input.TextArea rows={3} maxLength={500} showCount />
      </Form.Item>
    </Col>
  );
}
