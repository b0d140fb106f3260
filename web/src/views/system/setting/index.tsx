import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, Radio, Result, Row, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PHONE_REGEX } from '@p8/contract/auth';
import { recordKind } from '@p8/contract/records/catalogue';
import { CODE_PREFIX_PATTERN, DEFAULT_CODE_PREFIXES, MAX_UNPAID_ORDER_CANCEL_MINUTES, RECORD_CODE_DIGITS, RECORD_CODE_KINDS, type SystemSettings } from '@p8/contract/tenant-config';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import NumberInput from '../../../components/NumberInput/index.tsx';
import { useAuthStore } from '../../../stores/auth.ts';
import { SYSTEM_SETTINGS_QUERY_KEY, useSystemSettings } from './api/get-system-settings.ts';
import { updateSystemSettings } from './api/update-system-settings.ts';
import { DENIED_EXTENSIONS, FILE_EXTENSIONS } from '@p8/contract/upload';
import { changedSettings, normalExtension } from './settings-form.ts';
import BillCodePrefixes from './BillCodePrefixes.tsx';
import './setting.css';

const PAPER_SIZES = ['A4', 'A5', '241mm', '80mm', '58mm'] as const satisfies ReadonlyArray<SystemSettings['printTemplate']['paperSize']>;
const phonePattern = new RegExp(PHONE_REGEX);
const MAX_PHONES = 10;
const MAX_EXTENSIONS = 30;
const extensionPattern = /^[a-z0-9]{1,10}$/;
/** Why an added upload extension cannot be saved (the server refuses it the same way), or undefined. */
const extensionProblem = (ext: string): 'uploadExtensionDenied' | 'uploadExtensionInvalid' | undefined =>
  DENIED_EXTENSIONS.includes(normalExtension(ext)) ? 'uploadExtensionDenied' : extensionPattern.test(normalExtension(ext)) ? undefined : 'uploadExtensionInvalid';

/**
 * A list typed as tags (Enter, comma, space or semicolon ends one), each blue when valid and red when not;
 * a form control (value / onChange come from Form.Item).
 */
function TagsInput({ isValid, ...props }: { placeholder: string; isValid: (value: string) => boolean; 'data-testid': string; value?: string[]; onChange?: (value: string[]) => void }) {
  return (
    <Select
      {...props}
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', '，', ' ', ';', '；']}
      style={{ maxWidth: 560 }}
      tagRender={({ label, value, closable, onClose }) => (
        <Tag color={isValid(String(value)) ? 'blue' : 'red'} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>
          {label}
        </Tag>
      )}
    />
  );
}

/** System → settings: the tenant-level settings the server defines (`systemSettingsSchema`): notifications, SMS, watermark, printing, upload types. */
export default function SystemSettingPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  /** A code kind's field label: its own text, or a declared record kind's name. */
  const prefixLabel = (kind: string) => {
    const declared = recordKind(kind);
    if (!declared) return t(`setting.codePrefixes.${kind}`);
    const noun = i18n.language === 'en' ? declared.noun.en : declared.noun.zh;
    return t('setting.codePrefixes.declared', { noun: noun.charAt(0).toUpperCase() + noun.slice(1) });
  };
  const { message } = App.useApp();
  const can = useAuth();
  const editable = can('system_setting_update');
  const queryClient = useQueryClient();
  const query = useSystemSettings();
  const stored = query.data;
  const user = useAuthStore((s) => s.userInfo);
  const [form] = Form.useForm<SystemSettings>();
  const [saving, setSaving] = useState(false);
  // preserve: the values of fields not mounted now (the custom watermark text) are watched too.
  const values = Form.useWatch((all: SystemSettings) => all, { form, preserve: true }) as SystemSettings | undefined;
  const changed = useMemo(() => (stored ? changedSettings(stored, values) : {}), [stored, values]);
  const dirty = Object.keys(changed).length > 0;

  useEffect(() => {
    if (!stored) return;
    form.resetFields();
    form.setFieldsValue(stored);
  }, [stored, form]);

  const save = async () => {
    if (!stored) return;
    try {
      await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      // Only the keys that changed are sent; the server writes no audit entry for an unchanged save.
      const saved = await updateSystemSettings(changedSettings(stored, form.getFieldsValue(true)));
      queryClient.setQueryData(SYSTEM_SETTINGS_QUERY_KEY, saved);
      message.success(t('setting.saved'));
    } catch {
      /* the HTTP client has shown the server's reason */
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    if (!stored) return;
    form.resetFields();
    form.setFieldsValue(stored);
  };

  if (query.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  if (!stored) {
    return (
      <Card>
        <Result status="warning" title={t('setting.title')} extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>} />
      </Card>
    );
  }

  const signature = (values?.smsSignature ?? stored.smsSignature).trim();
  const watermark = values?.watermark ?? stored.watermark;
  const print = values?.printTemplate ?? stored.printTemplate;
  const accountMark = user ? `${user.realName || user.name} ${(user.phone || '').slice(-4)}`.trim() : t('setting.watermarkSample');
  const markText = watermark.content === 'custom' ? watermark.text || t('setting.watermarkText') : accountMark;

  return (
    <div className="p8-system-setting" data-testid="setting-page">
      {!editable && <Alert type="info" showIcon title={t('common.readOnly')} style={{ marginBottom: 12 }} data-testid="setting-readonly" />}
      <Form<SystemSettings>
        form={form}
        name="systemSetting"
        labelCol={{ flex: '150px' }}
        labelWrap
        initialValues={stored}
        disabled={!editable || saving}
      >
        <Card className="p8-setting-section" title={t('setting.sections.codes')} data-testid="setting-section-codes">
          <Row gutter={24}>
            {RECORD_CODE_KINDS.map((kind) => (
              <Col xs={24} md={12} xl={8} key={kind}>
                <Form.Item
                  name={['codePrefixes', kind]}
                  label={prefixLabel(kind)}
                  rules={[{ validator: (_, value?: string) => (CODE_PREFIX_PATTERN.test((value ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(t('setting.codePrefixInvalid')))) }]}
                >
                  <Input maxLength={10} style={{ maxWidth: 200 }} placeholder={DEFAULT_CODE_PREFIXES[kind]} data-testid={`setting-codePrefix-${kind}`} />
                </Form.Item>
              </Col>
            ))}
          </Row>
          <Typography.Text type="secondary">
            {t('setting.codePrefixesHelp', { sample: `${(values?.codePrefixes?.material ?? stored.codePrefixes.material).trim()}${'1'.padStart(RECORD_CODE_DIGITS, '0')}` })}
          </Typography.Text>
        </Card>

        <BillCodePrefixes form={form} prefixes={values?.billCodePrefixes ?? stored.billCodePrefixes} />

        <Card className="p8-setting-section" title={t('setting.sections.notify')} data-testid="setting-section-notify">
          <Form.Item
            name="orderNotifyPhones"
            label={t('setting.orderNotifyPhones')}
            extra={t('setting.orderNotifyPhonesHelp')}
            rules={[
              {
                validator: (_, list: string[] | undefined) => {
                  const phones = list ?? [];
                  const wrong = phones.find((p) => !phonePattern.test(p));
                  if (wrong) return Promise.reject(new Error(t('setting.phoneInvalid', { phone: wrong })));
                  if (phones.length > MAX_PHONES) return Promise.reject(new Error(t('setting.phonesMax')));
                  if (new Set(phones).size !== phones.length) return Promise.reject(new Error(t('setting.phonesRepeat')));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <TagsInput placeholder={t('setting.orderNotifyPhonesPlaceholder')} isValid={(value) => phonePattern.test(value)} data-testid="setting-orderNotifyPhones" />
          </Form.Item>
          <Form.Item name="unpaidOrderCancelMinutes" label={t('setting.unpaidOrderCancelMinutes')} extra={t('setting.unpaidOrderCancelMinutesHelp')} rules={[{ required: true }]}>
            <NumberInput integer min={0} max={MAX_UNPAID_ORDER_CANCEL_MINUTES} addonAfter={t('setting.minutes')} style={{ width: 200 }} data-testid="setting-unpaidOrderCancelMinutes" />
          </Form.Item>
        </Card>

        <Card className="p8-setting-section" title={t('setting.sections.sms')} data-testid="setting-section-sms">
          <Form.Item
            name="smsSignature"
            label={t('setting.smsSignature')}
            extra={t('setting.smsSignatureHelp')}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  const text = (value ?? '').trim();
                  return text === '' || (text.length >= 2 && text.length <= 20) ? Promise.resolve() : Promise.reject(new Error(t('setting.smsSignatureLength')));
                },
              },
            ]}
          >
            <Input maxLength={20} showCount style={{ maxWidth: 360 }} data-testid="setting-smsSignature" />
          </Form.Item>
          <Form.Item label={t('setting.smsPreview')}>
            <div className="p8-setting-sms-preview" data-testid="setting-sms-preview">
              {signature ? `【${signature}】` : ''}
              {t('setting.smsPreviewText')}
            </div>
          </Form.Item>
        </Card>

        <Card className="p8-setting-section" title={t('setting.sections.watermark')} data-testid="setting-section-watermark">
          <Row gutter={24}>
            <Col xs={24} xl={14}>
              <Form.Item name={['watermark', 'enabled']} label={t('setting.watermarkEnabled')} valuePropName="checked" extra={t('setting.watermarkHelp')}>
                <Switch data-testid="setting-watermark-enabled" />
              </Form.Item>
              <Form.Item name={['watermark', 'content']} label={t('setting.watermarkContent')}>
                <Radio.Group
                  disabled={!watermark.enabled}
                  options={[
                    { value: 'account', label: t('setting.watermarkAccount') },
                    { value: 'custom', label: t('setting.watermarkCustom') },
                  ]}
                  data-testid="setting-watermark-content"
                />
              </Form.Item>
              {watermark.content === 'custom' && (
                <Form.Item
                  name={['watermark', 'text']}
                  label={t('setting.watermarkText')}
                  rules={[{ required: watermark.enabled, whitespace: true, message: t('setting.watermarkTextRequired') }, { max: 50 }]}
                >
                  <Input maxLength={50} showCount disabled={!watermark.enabled} style={{ maxWidth: 360 }} data-testid="setting-watermark-text" />
                </Form.Item>
              )}
            </Col>
            <Col xs={24} xl={10}>
              <div className={['p8-setting-watermark-preview', watermark.enabled ? '' : 'is-off'].join(' ')} aria-hidden data-testid="setting-watermark-preview">
                {Array.from({ length: 12 }, (_, i) => (
                  <span key={i}>{markText}</span>
                ))}
              </div>
            </Col>
          </Row>
        </Card>

        <Card className="p8-setting-section" title={t('setting.sections.print')} data-testid="setting-section-print">
          <Row gutter={24}>
            <Col xs={24} xl={14}>
              <Form.Item name={['printTemplate', 'paperSize']} label={t('setting.paperSize')} rules={[{ required: true }]}>
                <Select style={{ maxWidth: 280 }} options={PAPER_SIZES.map((size) => ({ value: size, label: t(`setting.paperSizes.${size}`) }))} data-testid="setting-paperSize" />
              </Form.Item>
              <Form.Item name={['printTemplate', 'copies']} label={t('setting.copies')} extra={t('setting.copiesHelp')} rules={[{ required: true, type: 'number', min: 1, max: 9 }]}>
                <NumberInput integer min={1} max={9} style={{ width: 140 }} data-testid="setting-copies" />
              </Form.Item>
              <Form.Item name={['printTemplate', 'header']} label={t('setting.printHeader')} rules={[{ max: 100 }]}>
                <Input maxLength={100} placeholder={t('setting.printHeaderPlaceholder')} data-testid="setting-printHeader" />
              </Form.Item>
              <Form.Item name={['printTemplate', 'footer']} label={t('setting.printFooter')} rules={[{ max: 200 }]}>
                <Input maxLength={200} placeholder={t('setting.printFooterPlaceholder')} data-testid="setting-printFooter" />
              </Form.Item>
              <Form.Item name={['printTemplate', 'showPrice']} label={t('setting.showPrice')} valuePropName="checked" extra={t('setting.showPriceHelp')}>
                <Switch data-testid="setting-showPrice" />
              </Form.Item>
              <Form.Item name={['printTemplate', 'showSignature']} label={t('setting.showSignature')} valuePropName="checked" extra={t('setting.showSignatureHelp')}>
                <Switch data-testid="setting-showSignature" />
              </Form.Item>
            </Col>
            <Col xs={24} xl={10}>
              <Typography.Text type="secondary">{t('setting.preview')}</Typography.Text>
              <div className={`p8-setting-paper is-${print.paperSize}`} data-testid="setting-print-preview">
                <div className="p8-setting-paper-header">{print.header || t('setting.previewTenantTitle')}</div>
                <div className="p8-setting-paper-title">{t('setting.previewBill')}</div>
                <table>
                  <thead>
                    <tr>
                      <th>{t('setting.previewMaterial')}</th>
                      <th>{t('setting.previewQty')}</th>
                      {print.showPrice && <th>{t('setting.previewPrice')}</th>}
                      {print.showPrice && <th>{t('setting.previewAmount')}</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {[
                      ['M-001', 2, 15],
                      ['M-002', 1, 42.5],
                    ].map(([code, qty, price]) => (
                      <tr key={String(code)}>
                        <td>{code}</td>
                        <td>{qty}</td>
                        {print.showPrice && <td>{Number(price).toFixed(2)}</td>}
                        {print.showPrice && <td>{(Number(qty) * Number(price)).toFixed(2)}</td>}
                      </tr>
                    ))}
                  </tbody>
                </table>
                {print.showSignature && (
                  <div className="p8-setting-paper-signs">
                    <span>{t('setting.previewPreparer')}:</span>
                    <span>{t('setting.previewReviewer')}:</span>
                    <span>{t('setting.previewReceiver')}:</span>
                  </div>
                )}
                {print.footer && <div className="p8-setting-paper-footer">{print.footer}</div>}
                <div className="p8-setting-paper-copies">
                  {print.paperSize} × {print.copies}
                </div>
              </div>
            </Col>
          </Row>
        </Card>

        <Card className="p8-setting-section" title={t('setting.sections.upload')} data-testid="setting-section-upload">
          <Form.Item
            name="uploadExtensions"
            label={t('setting.uploadExtensions')}
            extra={t('setting.uploadExtensionsHelp', { standard: FILE_EXTENSIONS.join(', ') })}
            rules={[
              {
                validator: (_, list: string[] | undefined) => {
                  const extensions = (list ?? []).map(normalExtension);
                  for (const ext of extensions) {
                    const problem = extensionProblem(ext);
                    if (problem) return Promise.reject(new Error(t(`setting.${problem}`, { ext })));
                  }
                  if (extensions.length > MAX_EXTENSIONS) return Promise.reject(new Error(t('setting.uploadExtensionsMax', { count: MAX_EXTENSIONS })));
                  if (new Set(extensions).size !== extensions.length) return Promise.reject(new Error(t('setting.uploadExtensionsRepeat')));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <TagsInput placeholder={t('setting.uploadExtensionsPlaceholder')} isValid={(value) => !extensionProblem(value)} data-testid="setting-uploadExtensions" />
          </Form.Item>
        </Card>
      </Form>
      {editable && (
        <div className="p8-setting-footer" data-testid="setting-footer">
          <Space>
            {dirty && <Tag color="orange">{t('common.unsaved')}</Tag>}
            <Button icon={<UndoOutlined />} disabled={!dirty || saving} onClick={reset} data-testid="setting-reset">
              {t('common.reset')}
            </Button>
            <Auth code="system_setting_update">
              <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!dirty} onClick={() => void save()} data-testid="setting-save">
                {t('setting.save')}
              </Button>
            </Auth>
          </Space>
        </div>
      )}
    </div>
  );
}
