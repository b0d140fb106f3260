import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Anchor, App, Button, Card, Col, Form, Input, InputNumber, Radio, Result, Row, Select, Skeleton, Slider, Space, Tag, Typography, type ButtonProps } from 'antd';
import { ExclamationCircleOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PictureSearchType, type TenantConfigView } from '@p8/contract/tenant-config';
import { isHttpError } from '../../../app/http.ts';
import { translateError } from '../../../locales/index.ts';
import Auth, { useAuth } from '../../../components/Auth/index.tsx';
import NumberInput from '../../../components/NumberInput/index.tsx';
import LogoUpload from '../../../components/Upload/LogoUpload.tsx';
import { TENANT_CONFIG_QUERY_KEY } from '../../../hooks/useTenantConfig.ts';
import { billTypeName } from '../../../components/BillNames/index.ts';
import { useTenantConfigView } from './api/get-tenant-config.ts';
import { updateTenantConfig } from './api/update-tenant-config.ts';
import ModuleTable from './components/module-table.tsx';
import SwitchList from './components/switch-list.tsx';
import { changedKeys, DECIMAL_KEYS, decimalRule, formValuesOf, MAX_DECIMALS, PAGE_SIZES, SWITCHES, type ConfigKey, type EditableConfig } from './config-form.ts';
import './tenant.css';

const SECTIONS = ['basic', 'inventory', 'precision', 'bills', 'production', 'range', 'picture', 'modules'] as const;
type Section = (typeof SECTIONS)[number];

/** A field with its label above (the two-column grids). */
const VERTICAL = { layout: 'vertical' as const, labelCol: { span: 24 }, wrapperCol: { span: 24 } };

const sectionId = (section: Section) => `tenant-config-${section}`;
const scrollContainer = () => (document.querySelector('.p8-main') as HTMLElement | null) ?? window;

/** System → tenant config: every setting of the tenant, saved after a confirmation. */
export default function TenantConfigPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const { message, modal } = App.useApp();
  const can = useAuth();
  const editable = can('system_tenant_config_update');
  const queryClient = useQueryClient();
  const query = useTenantConfigView();
  const view = query.data;
  const stored = useMemo(() => (view ? formValuesOf(view) : undefined), [view]);
  const [form] = Form.useForm<EditableConfig>();
  const [saving, setSaving] = useState(false);
  const pictureOn = Form.useWatch('hasPictureSearchModule', form);
  const values = Form.useWatch((all: EditableConfig) => all, form) as EditableConfig | undefined;
  const dirty = values && stored ? changedKeys(stored, values).length : 0;

  // The stored config (first load, after a save, after another screen changed it) replaces the form.
  useEffect(() => {
    if (!stored) return;
    form.resetFields();
    form.setFieldsValue(stored);
  }, [stored, form]);

  const label = (key: ConfigKey) => (key in SWITCHES_FLAT ? t(`tenant.switches.${key}`) : t(`tenant.fields.${key}`));

  const show = (key: ConfigKey, value: unknown): ReactNode => {
    if (typeof value === 'boolean') return value ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>;
    if (key === 'pictureSearchType') return t(`tenant.pictureSearchTypes.${String(value)}`);
    if (key === 'logo') return value ? <img src={String(value)} alt="" className="p8-tenant-diff-logo" /> : '—';
    if (value === '' || value === null || value === undefined) return '—';
    return String(value);
  };

  const save = async () => {
    if (!stored) return;
    let values: EditableConfig;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const changes = changedKeys(stored, values);
    if (!changes.length) {
      message.info(t('tenant.noChanges'));
      return;
    }
    const decimalsChanged = changes.some((c) => (DECIMAL_KEYS as readonly string[]).includes(c.key));
    const confirmed = await modal.confirm({
      title: t('tenant.confirmTitle'),
      icon: <ExclamationCircleOutlined />,
      width: 520,
      okText: t('tenant.save'),
      okButtonProps: { 'data-testid': 'tenant-config-confirm' } as ButtonProps,
      content: (
        <div className="p8-tenant-diff" data-testid="tenant-config-diff">
          <p>{t('tenant.confirmChanges', { count: changes.length })}</p>
          <ul>
            {changes.map((c) => (
              <li key={c.key}>
                <span className="p8-tenant-diff-name">{label(c.key)}</span>
                <span className="p8-tenant-diff-values">
                  {show(c.key, c.from)} → {show(c.key, c.to)}
                </span>
              </li>
            ))}
          </ul>
          {decimalsChanged && <Alert type="warning" showIcon title={t('tenant.confirmDecimals')} />}
        </div>
      ),
    });
    if (!confirmed) return;
    setSaving(true);
    try {
      const body = Object.fromEntries(changes.map((c) => [c.key, c.to])) as Partial<EditableConfig>;
      // Silent: a refusal is shown here, naming the field in the user's words and marking it.
      const next = await updateTenantConfig(body, { silent: true });
      queryClient.setQueryData<TenantConfigView>(TENANT_CONFIG_QUERY_KEY, next);
      message.success(t('tenant.saved'));
    } catch (error) {
      if (!isHttpError(error)) return;
      if (error.key === 'DecimalPlacesOnlyIncrease' || error.key === 'DecimalPlacesMaxSix') {
        const fields = DECIMAL_KEYS.filter((k) => !error.additional || error.additional === k);
        const reason = translateError(error.key);
        form.setFields(fields.map((name) => ({ name, errors: [reason] })));
        message.error(`${reason}: ${fields.map((k) => label(k)).join(', ')}`);
        void document.getElementById(sectionId('precision'))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      } else if (error.status !== 40100) {
        message.error(error.text);
      }
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
        <Skeleton active paragraph={{ rows: 12 }} />
      </Card>
    );
  }
  if (!view || !stored) {
    return (
      <Card>
        <Result status="warning" title={t('tenant.title')} extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>} />
      </Card>
    );
  }

  const decimalField = (key: (typeof DECIMAL_KEYS)[number]) => (
    <Form.Item
      name={key}
      label={t(`tenant.fields.${key}`)}
      {...VERTICAL}
      extra={t(`tenant.help.${key}`, { current: stored[key] })}
      rules={[
        { required: true },
        {
          validator: (_, value) => {
            const broken = decimalRule(stored[key], value);
            if (broken === 'min') return Promise.reject(new Error(t('tenant.decimalsMin', { current: stored[key] })));
            if (broken === 'max') return Promise.reject(new Error(t('tenant.decimalsMax')));
            return Promise.resolve();
          },
        },
      ]}
    >
      <NumberInput integer min={stored[key]} max={MAX_DECIMALS} style={{ width: 160 }} data-testid={`tenant-${key}`} />
    </Form.Item>
  );

  const section = (key: Section, children: ReactNode, extra?: ReactNode) => (
    <Card
      id={sectionId(key)}
      className="p8-tenant-section"
      title={t(`tenant.sections.${key}`)}
      extra={extra}
      data-testid={`tenant-section-${key}`}
    >
      {children}
    </Card>
  );

  return (
    <div className="p8-system-tenant" data-testid="tenant-config">
      <Row gutter={12} wrap={false}>
        <Col flex="auto" style={{ minWidth: 0 }}>
          {!editable && <Alert type="info" showIcon title={t('common.readOnly')} style={{ marginBottom: 12 }} data-testid="tenant-config-readonly" />}
          <Form<EditableConfig>
            form={form}
            name="tenantConfig"
            layout="horizontal"
            labelCol={{ flex: '170px' }}
            labelWrap
            disabled={!editable || saving}
            initialValues={stored}
          >
            {section(
              'basic',
              <div className="p8-tenant-basic">
                <Form.Item label={t('tenant.tenantName')}>
                  <Space size={16} wrap>
                    <Typography.Text strong>{view.name}</Typography.Text>
                    <Typography.Text type="secondary">
                      {t('tenant.tenantId')}: {view.id}
                    </Typography.Text>
                    {view.isLogoff && <Tag color="red">{t('tenant.logoff')}</Tag>}
                  </Space>
                </Form.Item>
                <Form.Item name="logo" label={t('tenant.fields.logo')} extra={t('tenant.fields.logoTip')}>
                  <LogoUpload showTip={false} data-testid="tenant-logo" />
                </Form.Item>
                <Form.Item name="title" label={t('tenant.fields.title')} rules={[{ max: 100 }]}>
                  <Input maxLength={100} placeholder={t('tenant.fields.titlePlaceholder')} data-testid="tenant-title" />
                </Form.Item>
                <Form.Item name="slogan" label={t('tenant.fields.slogan')} rules={[{ max: 200 }]}>
                  <Input maxLength={200} placeholder={t('tenant.fields.sloganPlaceholder')} data-testid="tenant-slogan" />
                </Form.Item>
                <Form.Item name="phone" label={t('tenant.fields.phone')} rules={[{ max: 30 }, { pattern: /^[0-9+\-() ]*$/, message: t('tenant.fields.phoneInvalid') }]}>
                  <Input maxLength={30} placeholder={t('tenant.fields.phonePlaceholder')} data-testid="tenant-phone" />
                </Form.Item>
              </div>,
            )}
            {section('inventory', <SwitchList keys={SWITCHES.inventory} />)}
            {section(
              'precision',
              <>
                <Row gutter={24}>
                  <Col xs={24} xl={12}>
                    {decimalField('numberRetainsSmallDigit')}
                  </Col>
                  <Col xs={24} xl={12}>
                    {decimalField('amountRetainsSmallDigit')}
                  </Col>
                  <Col xs={24} xl={12}>
                    <Form.Item name="defaultPageSize" label={t('tenant.fields.defaultPageSize')} {...VERTICAL} extra={t('tenant.help.defaultPageSize')} rules={[{ required: true }]}>
                      <Select
                        style={{ width: 160 }}
                        options={PAGE_SIZES.map((size) => ({ value: size, label: t('tenant.pageSizeOption', { size }) }))}
                        data-testid="tenant-defaultPageSize"
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} xl={12}>
                    <Form.Item name="defaultDateSearch" label={t('tenant.fields.defaultDateSearch')} {...VERTICAL} extra={t('tenant.help.defaultDateSearch')} rules={[{ required: true }]}>
                      <NumberInput integer min={0} max={3660} style={{ width: 160 }} suffix={t('tenant.days')} data-testid="tenant-defaultDateSearch" />
                    </Form.Item>
                  </Col>
                </Row>
                <SwitchList keys={SWITCHES.precision} />
              </>,
            )}
            {section(
              'bills',
              <>
                <SwitchList keys={SWITCHES.bills} />
                <Form.Item name="billDateMaxDaysAhead" label={t('tenant.fields.billDateMaxDaysAhead')} {...VERTICAL} style={{ marginTop: 16 }} extra={t('tenant.help.billDateMaxDaysAhead')} rules={[{ required: true }]}>
                  <NumberInput integer min={0} max={366} style={{ width: 160 }} suffix={t('tenant.days')} data-testid="tenant-billDateMaxDaysAhead" />
                </Form.Item>
                <div className="p8-tenant-verify-bills">
                  <Typography.Text strong>{t('tenant.fields.openVerifyBill')}</Typography.Text>
                  <span className="p8-tenant-verify-bills-list" data-testid="tenant-openVerifyBill">
                    {view.openVerifyBillList.length ? (
                      view.openVerifyBillList.map((type) => (
                        <Tag key={type} color="blue">
                          {billTypeName(type, i18n.language)}
                        </Tag>
                      ))
                    ) : (
                      <Typography.Text type="secondary">{t('tenant.help.noVerifyBill')}</Typography.Text>
                    )}
                  </span>
                  <Typography.Text type="secondary" className="p8-tenant-note">
                    {t('tenant.help.openVerifyBill')}
                  </Typography.Text>
                </div>
              </>,
            )}
            {section('production', <SwitchList keys={SWITCHES.production} />)}
            {section(
              'range',
              <>
                <Typography.Paragraph type="secondary" className="p8-tenant-note">
                  {t('tenant.sectionHelp.range')}
                </Typography.Paragraph>
                <SwitchList keys={SWITCHES.range} />
              </>,
            )}
            {section(
              'picture',
              <>
                <SwitchList keys={SWITCHES.picture} />
                <Row gutter={24} style={{ marginTop: 16 }}>
                  <Col xs={24} xxl={12}>
                    <Form.Item name="pictureSearchType" label={t('tenant.fields.pictureSearchType')} extra={t('tenant.help.pictureSearchType')}>
                      <Radio.Group
                        disabled={!pictureOn}
                        optionType="button"
                        options={PictureSearchType.map((type) => ({ value: type, label: t(`tenant.pictureSearchTypes.${type}`) }))}
                        data-testid="tenant-pictureSearchType"
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} xxl={12}>
                    <Form.Item label={t('tenant.fields.pictureSearchSimilarity')} extra={t('tenant.help.pictureSearchSimilarity')}>
                      <div className="p8-tenant-similarity">
                        <Form.Item name="pictureSearchSimilarity" noStyle>
                          <Slider min={0} max={1} step={0.05} disabled={!pictureOn} style={{ flex: 1 }} />
                        </Form.Item>
                        <Form.Item name="pictureSearchSimilarity" noStyle rules={[{ required: true, type: 'number', min: 0, max: 1 }]}>
                          <InputNumber<number> min={0} max={1} step={0.05} precision={2} disabled={!pictureOn} style={{ width: 90 }} data-testid="tenant-pictureSearchSimilarity" />
                        </Form.Item>
                      </div>
                    </Form.Item>
                  </Col>
                </Row>
              </>,
            )}
            {section(
              'modules',
              <>
                <Typography.Paragraph type="secondary" className="p8-tenant-note">
                  {t('tenant.sectionHelp.modules')}
                </Typography.Paragraph>
                <ModuleTable modules={view.moduleList} />
              </>,
            )}
          </Form>
          {editable && (
            <div className="p8-tenant-footer" data-testid="tenant-config-footer">
              <Space>
                {dirty > 0 && <Tag color="orange">{t('common.unsaved')} · {dirty}</Tag>}
                <Button icon={<UndoOutlined />} disabled={!dirty || saving} onClick={reset} data-testid="tenant-config-reset">
                  {t('common.reset')}
                </Button>
                <Auth code="system_tenant_config_update">
                  <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="tenant-config-save">
                    {t('tenant.save')}
                  </Button>
                </Auth>
              </Space>
            </div>
          )}
        </Col>
        <Col flex="180px" className="p8-tenant-anchor-col">
          <Anchor
            className="p8-tenant-anchor"
            getContainer={scrollContainer}
            offsetTop={12}
            targetOffset={12}
            items={SECTIONS.map((key) => ({ key, href: `#${sectionId(key)}`, title: t(`tenant.sections.${key}`) }))}
            onClick={(event, link) => {
              // Scroll the shell's main area without changing the route's hash.
              event.preventDefault();
              document.querySelector(link.href)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
            }}
          />
        </Col>
      </Row>
    </div>
  );
}

const SWITCHES_FLAT: Record<string, true> = Object.fromEntries(Object.values(SWITCHES).flatMap((keys) => keys.map((k) => [k, true])));
