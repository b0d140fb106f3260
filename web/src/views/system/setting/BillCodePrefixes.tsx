import { Card, Col, Form, Input, Row, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { billTypesByArea } from '@p8/contract/bills/catalogue';
import { BILL_AREA_LABELS } from '@p8/contract/bills/registry';
import { BILL_CODE_PREFIX_PATTERN, type SystemSettings } from '@p8/contract/tenant-config';
import type { Label } from '@p8/contract/bills/status';

/** Today as the date part of a bill code (20261124). */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * System settings → bill code prefixes: one prefix per declared bill type, grouped by area, with the code the
 * next bill of the type would get. A prefix is checked as the server checks it: letters, digits, - and _,
 * 1 to 10 characters, used by no other type.
 */
export default function BillCodePrefixes({ form, prefixes }: { form: FormInstance<SystemSettings>; prefixes: Record<string, string> }) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const labelOf = (label: Label) => (i18n.language === 'en' ? label.en : label.zh);
  const day = today();
  const check = (type: string) => (_: unknown, value?: string) => {
    const prefix = (value ?? '').trim();
    if (!BILL_CODE_PREFIX_PATTERN.test(prefix)) return Promise.reject(new Error(t('setting.billCodePrefixInvalid')));
    const all = (form.getFieldValue('billCodePrefixes') ?? {}) as Record<string, string | undefined>;
    const other = Object.entries(all).find(([key, p]) => key !== type && (p ?? '').trim().toUpperCase() === prefix.toUpperCase());
    return other ? Promise.reject(new Error(t('setting.billCodePrefixRepeat'))) : Promise.resolve();
  };
  return (
    <Card className="p8-setting-section" title={t('setting.sections.billCodes')} data-testid="setting-section-billCodes">
      <Typography.Paragraph type="secondary">{t('setting.billCodePrefixesHelp')}</Typography.Paragraph>
      {billTypesByArea().map(({ area, types }) => (
        <div key={area} className="p8-setting-bill-area">
          <Typography.Title level={5}>{labelOf(BILL_AREA_LABELS[area])}</Typography.Title>
          <Row gutter={24}>
            {types.map((decl) => (
              <Col xs={24} md={12} xl={8} key={decl.type}>
                <Form.Item
                  name={['billCodePrefixes', decl.type]}
                  label={labelOf(decl.label)}
                  rules={[{ validator: check(decl.type) }]}
                  extra={`${(prefixes[decl.type] ?? decl.codePrefix).trim()}${day}0001`}
                >
                  <Input maxLength={10} style={{ maxWidth: 200 }} placeholder={decl.codePrefix} data-testid={`setting-billCodePrefix-${decl.type}`} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </div>
      ))}
    </Card>
  );
}
