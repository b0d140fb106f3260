import { useCallback, useMemo, useRef, useState } from 'react';
import { Alert, Checkbox, Col, Empty, Form, Input, Radio, Row, Select, Switch, Tabs, Tooltip, TreeSelect, Typography, type FormInstance } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Rule } from 'antd/es/form';
import { DIMENSION_UNITS, LotPolicy, MATERIAL_MAX_IMAGES, MaterialTag, PartKind, type CategoryNode, type Dimension, type MaterialCreate, type MaterialDetail } from '@p8/contract/basic';
import { feedback } from '../../../../app/feedback.ts';
import CodeField from '../../../../components/RecordKit/CodeField.tsx';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { useTenantConfig } from '../../../../hooks/useTenantConfig.ts';
import { attributeOptionsQuery } from '../../../../components/Pickers/api/list-attribute-options.ts';
import { brandOptionsQuery } from '../../../../components/Pickers/api/list-brand-options.ts';
import { mapTree } from '../../../../components/Tree/tree-utils.ts';
import { addMaterial } from '../api/add-material.ts';
import { updateMaterial } from '../api/update-material.ts';
import { MATERIAL_TABS, type MaterialTab } from './material-enums.ts';
import UnitsEditor, { type UnitRow } from './units-editor.tsx';

export interface MaterialForm {
  id?: number;
  code: string;
  name: string;
  specification?: string;
  model?: string;
  categoryId?: number | null;
  brandId?: number | null;
  partKind: PartKind;
  tags: MaterialTag[];
  materialQuality?: string;
  hsCode?: string;
  englishName?: string;
  netWeight?: number | null;
  grossWeight?: number | null;
  originCountry?: string;
  remark?: string;
  units: UnitRow[];
  length?: number | null;
  width?: number | null;
  height?: number | null;
  diameter?: number | null;
  thickness?: number | null;
  weight?: number | null;
  volume?: number | null;
  area?: number | null;
  batchNumber: boolean;
  serialNumber: boolean;
  safetyStock?: number | null;
  warnDays?: number | null;
  leadTimeDays?: number | null;
  lotPolicy?: LotPolicy;
  lotSize?: number | null;
  /** Kept by the BOMs: shown, never sent. */
  lowLevelCode?: number;
  purchasePrice?: number | null;
  salePrice?: number | null;
  retailPrice?: number | null;
  taxRate?: number | null;
  images?: string[];
  customAttributes?: Record<string, string | undefined>;
  /** Names of the stored brand and units, shown when they are no longer among the enabled options. */
  brandName?: string | null;
}

/** A new material: standard part, no tags, one main unit row to fill in. */
export const NEW_MATERIAL: Partial<MaterialForm> = {
  partKind: 'standard',
  lotPolicy: 'lotForLot',
  leadTimeDays: 0,
  tags: [],
  batchNumber: false,
  serialNumber: false,
  images: [],
  units: [{ isMain: true, ratio: 1, enabled: true, barcode: '' }],
  customAttributes: {},
};

/** The form of a stored material. */
export function formOfMaterial(m: MaterialDetail): MaterialForm {
  return {
    id: m.id,
    code: m.code,
    name: m.name,
    specification: m.specification,
    model: m.model,
    categoryId: m.categoryId,
    brandId: m.brandId,
    brandName: m.brandName,
    partKind: m.partKind,
    tags: m.tags,
    materialQuality: m.materialQuality,
    hsCode: m.hsCode,
    englishName: m.englishName,
    netWeight: m.netWeight,
    grossWeight: m.grossWeight,
    originCountry: m.originCountry,
    remark: m.remark,
    units: m.units.map((u) => ({ id: u.id, unitId: u.unitId, unitName: u.unitName, ratio: u.ratio, barcode: u.barcode, isMain: u.isMain, enabled: u.enabled })),
    length: m.length,
    width: m.width,
    height: m.height,
    diameter: m.diameter,
    thickness: m.thickness,
    weight: m.weight,
    volume: m.volume,
    area: m.area,
    batchNumber: m.batchNumber,
    serialNumber: m.serialNumber,
    safetyStock: m.safetyStock,
    warnDays: m.warnDays,
    leadTimeDays: m.leadTimeDays,
    lotPolicy: m.lotPolicy,
    lotSize: m.lotSize,
    lowLevelCode: m.lowLevelCode,
    purchasePrice: m.purchasePrice,
    salePrice: m.salePrice,
    retailPrice: m.retailPrice,
    taxRate: m.taxRate,
    images: m.images,
    customAttributes: m.customAttributes,
  };
}

const DIMENSIONS = Object.keys(DIMENSION_UNITS) as Dimension[];

interface MaterialDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<MaterialForm>;
  onClose: () => void;
  categories: CategoryNode[];
  onSaved: () => void;
}

/**
 * Add / edit / view a material in tabs: basic data, units (the main unit and conversion units with
 * their ratio), dimensions with their units, stock tracking (batch or serial numbers — never both,
 * neither for consumables), prices (and the tax rate when the tenant has it on), images and the custom
 * attributes. A failed check opens the tab that holds the field.
 */
export default function MaterialDialog({ categories, onSaved, ...dialog }: MaterialDialogProps) {
  const { t } = useTranslation();
  const { config } = useTenantConfig();
  const openTaxRate = !!config?.openTaxRate;
  const formRef = useRef<FormInstance<MaterialForm>>(undefined);
  const [tab, setTab] = useState<MaterialTab>('basic');
  const [lastOpen, setLastOpen] = useState(dialog.open);
  if (lastOpen !== dialog.open) {
    setLastOpen(dialog.open);
    if (dialog.open) setTab('basic');
  }

  // Tabs with a failed check during one validation; the first of them (in tab order) is opened.
  const failed = useRef(new Set<MaterialTab>());
  const flush = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reveal = useCallback((where: MaterialTab) => {
    failed.current.add(where);
    clearTimeout(flush.current);
    flush.current = setTimeout(() => {
      const first = MATERIAL_TABS.find((k) => failed.current.has(k));
      failed.current.clear();
      if (first) setTab((current) => (failed.current.has(current) ? current : first));
    }, 0);
  }, []);

  const submit = async (values: MaterialForm, mode: FormMode) => {
    const initial = dialog.initialValues?.customAttributes ?? {};
    // Values of attributes not on the tab (disabled since) stay as stored.
    const customAttributes = Object.fromEntries(
      Object.entries({ ...initial, ...values.customAttributes }).flatMap(([key, value]) => (typeof value === 'string' && value.trim() ? [[key, value.trim()]] : [])),
    );
    const body: MaterialCreate = {
      code: values.code.trim(),
      name: values.name.trim(),
      specification: values.specification?.trim() ?? '',
      model: values.model?.trim() ?? '',
      categoryId: values.categoryId ?? null,
      brandId: values.brandId ?? null,
      partKind: values.partKind,
      tags: values.tags ?? [],
      materialQuality: values.materialQuality?.trim() ?? '',
      hsCode: values.hsCode?.trim() ?? '',
      englishName: values.englishName?.trim() ?? '',
      netWeight: values.netWeight ?? null,
      grossWeight: values.grossWeight ?? null,
      originCountry: values.originCountry?.trim() ?? '',
      remark: values.remark?.trim() ?? '',
      ...Object.fromEntries(DIMENSIONS.map((d) => [d, values[d] ?? null])),
      batchNumber: !!values.batchNumber,
      serialNumber: !!values.serialNumber,
      safetyStock: values.safetyStock ?? null,
      warnDays: values.warnDays ?? null,
      leadTimeDays: values.leadTimeDays ?? 0,
      lotPolicy: values.lotPolicy ?? 'lotForLot',
      lotSize: values.lotPolicy && values.lotPolicy !== 'lotForLot' ? (values.lotSize ?? null) : null,
      purchasePrice: values.purchasePrice ?? null,
      salePrice: values.salePrice ?? null,
      retailPrice: values.retailPrice ?? null,
      ...(openTaxRate ? { taxRate: values.taxRate ?? null } : {}),
      images: values.images ?? [],
      customAttributes,
      // The whole rows from the store: the stored row ids are no fields of their own.
      units: ((formRef.current?.getFieldValue('units') as UnitRow[] | undefined) ?? values.units).map((u, index) => ({
        ...(u.id ? { id: u.id } : {}),
        unitId: u.unitId!,
        ratio: index === 0 ? 1 : u.ratio!,
        barcode: u.barcode?.trim() ?? '',
        isMain: index === 0,
        enabled: index === 0 ? true : u.enabled !== false,
      })),
    };
    if (mode === 'add') await addMaterial(body);
    else await updateMaterial({ ...body, id: dialog.initialValues!.id! });
    onSaved();
  };

  return (
    <FormDialog<MaterialForm>
      {...dialog}
      entity={t('basic.material.entity')}
      width={980}
      onSubmit={submit}
      labelCol={{ flex: '120px' }}
      formRef={formRef}
      data-testid="material-dialog"
    >
      <MaterialFormBody mode={dialog.mode} tab={tab} onTab={setTab} reveal={reveal} categories={categories} openTaxRate={openTaxRate} initial={dialog.initialValues} />
    </FormDialog>
  );
}

interface BodyProps {
  mode: FormMode;
  tab: MaterialTab;
  onTab: (tab: MaterialTab) => void;
  reveal: (tab: MaterialTab) => void;
  categories: CategoryNode[];
  openTaxRate: boolean;
  initial?: Partial<MaterialForm>;
}

interface CategoryOption {
  title: string;
  value: number;
  disabled?: boolean;
  children?: CategoryOption[];
}

function MaterialFormBody({ mode, tab, onTab, reveal, categories, openTaxRate, initial }: BodyProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<MaterialForm>();
  const { config } = useTenantConfig();
  const view = mode === 'view';
  const tags = Form.useWatch('tags', form) ?? [];
  const batchNumber = !!Form.useWatch('batchNumber', form);
  const serialNumber = !!Form.useWatch('serialNumber', form);
  const consumables = tags.includes('consumables');
  const brands = useQuery(brandOptionsQuery);
  const attributes = useQuery(attributeOptionsQuery);

  /** A rule that, when it fails, opens its tab. */
  const required = (where: MaterialTab, message: string): Rule => ({
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) {
        reveal(where);
        throw new Error(message);
      }
    },
  });

  const categoryOptions = useMemo(
    () => mapTree<CategoryNode, CategoryOption>(categories, (c, children) => ({ title: c.name, value: c.id, children, disabled: !c.enabled && c.id !== initial?.categoryId })),
    [categories, initial?.categoryId],
  );
  const storedBrandId = initial?.brandId;
  const storedBrandName = initial?.brandName;
  const brandOptions = useMemo(() => {
    const list = (brands.data ?? []).map((b) => ({ value: b.id, label: b.name }));
    // A brand disabled since stays shown on the material that has it.
    if (storedBrandId && !list.some((o) => o.value === storedBrandId)) list.push({ value: storedBrandId, label: storedBrandName ?? `#${storedBrandId}` });
    return list;
  }, [brands.data, storedBrandId, storedBrandName]);

  const changeTags = (next: MaterialTag[]) => {
    if (next.includes('consumables') && (form.getFieldValue('batchNumber') || form.getFieldValue('serialNumber'))) {
      form.setFieldsValue({ batchNumber: false, serialNumber: false });
      feedback.message.warning(t('basic.material.consumablesCleared'));
    }
  };

  const trackingRule: Rule = {
    validator: async () => {
      const v = form.getFieldsValue(['batchNumber', 'serialNumber', 'tags']) as Pick<MaterialForm, 'batchNumber' | 'serialNumber' | 'tags'>;
      if (v.batchNumber && v.serialNumber) {
        reveal('stock');
        throw new Error(t('error.BatchAndSerialNumberConflict'));
      }
      if ((v.tags ?? []).includes('consumables') && (v.batchNumber || v.serialNumber)) {
        reveal('stock');
        throw new Error(t('error.ConsumablesProhibitBatchSerial'));
      }
    },
  };

  const switchTip = (other: boolean) => (consumables ? t('error.ConsumablesProhibitBatchSerial') : other ? t('error.BatchAndSerialNumberConflict') : undefined);

  const items = [
    {
      key: 'basic',
      label: <span data-testid="material-tab-basic">{t('basic.material.tabs.basic')}</span>,
      forceRender: true,
      children: (
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <CodeField label={t('basic.material.code')} mode={mode} requiredRule={required('basic', t('error.PleaseInputCode'))} data-testid="material-code" />
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('basic.material.name')} required rules={[required('basic', t('error.PleaseInputName')), { max: 100, message: t('error.NameTooLong') }]}>
              <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.material.name') })} data-testid="material-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="specification" label={t('basic.material.specification')} tooltip={t('basic.material.specificationTip')}>
              <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.material.specification') })} data-testid="material-specification" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="model" label={t('basic.material.model')}>
              <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.material.model') })} data-testid="material-model" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="categoryId" label={t('basic.material.category')}>
              <TreeSelect
                allowClear
                showSearch={{ treeNodeFilterProp: 'title' }}
                treeDefaultExpandAll
                treeData={categoryOptions}
                placeholder={t('basic.common.selectPlaceholder', { label: t('basic.material.category') })}
                data-testid="material-category"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="brandId" label={t('basic.material.brand')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                options={brandOptions}
                loading={brands.isPending}
                placeholder={t('basic.common.selectPlaceholder', { label: t('basic.material.brand') })}
                data-testid="material-brand"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="partKind" label={t('basic.material.partKind')} rules={[{ required: true }]}>
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                options={PartKind.map((k) => ({ value: k, label: t(`basic.partKind.${k}`) }))}
                data-testid="material-part-kind"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="materialQuality" label={t('basic.material.quality')}>
              <Input maxLength={100} placeholder={t('basic.material.qualityPlaceholder')} data-testid="material-quality" />
            </Form.Item>
          </Col>
          {/* Cross-border (docs/cross-border.md): what export documents print. */}
          <Col xs={24} md={12}>
            <Form.Item name="englishName" label={t('basic.material.englishName')} rules={[{ max: 200 }]}>
              <Input maxLength={200} data-testid="material-english-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="hsCode" label={t('basic.material.hsCode')} tooltip={t('basic.material.hsCodeTip')} rules={[{ pattern: /^[0-9.]{0,20}$/, message: t('error.HsCodeInvalid') }]}>
              <Input maxLength={20} data-testid="material-hs-code" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="netWeight" label={t('basic.material.netWeight')}>
              <NumberInput min={0} max={1e13} suffix="kg" data-testid="material-net-weight" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="grossWeight" label={t('basic.material.grossWeight')}>
              <NumberInput min={0} max={1e13} suffix="kg" data-testid="material-gross-weight" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="originCountry" label={t('basic.material.originCountry')} rules={[{ max: 50 }]}>
              <Input maxLength={50} data-testid="material-origin-country" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="tags" label={t('basic.material.tags')} tooltip={t('basic.material.tagsTip')}>
              <Checkbox.Group options={MaterialTag.map((k) => ({ value: k, label: t(`basic.tag.${k}`) }))} onChange={(v) => changeTags(v as MaterialTag[])} data-testid="material-tags" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label={t('basic.common.remark')}>
              <Input.TextArea rows={2} maxLength={500} showCount />
            </Form.Item>
          </Col>
        </Row>
      ),
    },
    {
      key: 'units',
      label: <span data-testid="material-tab-units">{t('basic.material.tabs.units')}</span>,
      forceRender: true,
      children: <UnitsEditor view={view} knownUnits={initial?.units} onInvalid={() => reveal('units')} />,
    },
    {
      key: 'dimensions',
      label: <span data-testid="material-tab-dimensions">{t('basic.material.tabs.dimensions')}</span>,
      forceRender: true,
      children: (
        <Row gutter={16} className="p8-basic-dims">
          {DIMENSIONS.map((d) => (
            <Col xs={24} md={12} key={d}>
              <Form.Item name={d} label={t(`basic.material.dims.${d}`)}>
                <NumberInput min={0} max={1e13} suffix={DIMENSION_UNITS[d]} placeholder={t('basic.common.inputPlaceholder', { label: t(`basic.material.dims.${d}`) })} data-testid={`material-${d}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      ),
    },
    {
      key: 'stock',
      label: <span data-testid="material-tab-stock">{t('basic.material.tabs.stock')}</span>,
      forceRender: true,
      children: (
        <Row gutter={16}>
          <Col span={24}>
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('basic.material.trackingRule')} />
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('basic.material.batchNumber')} extra={config && !config.openBatchNumber ? t('basic.material.tenantBatchOff') : undefined}>
              <Tooltip title={view ? undefined : switchTip(serialNumber)}>
                <span style={{ display: 'inline-block' }}>
                  <Form.Item name="batchNumber" valuePropName="checked" noStyle rules={[trackingRule]}>
                    <Switch disabled={view || consumables || (serialNumber && !batchNumber)} data-testid="material-batch-switch" />
                  </Form.Item>
                </span>
              </Tooltip>
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('basic.material.serialNumber')} extra={config && !config.openSerialNumber ? t('basic.material.tenantSerialOff') : undefined}>
              <Tooltip title={view ? undefined : switchTip(batchNumber)}>
                <span style={{ display: 'inline-block' }}>
                  <Form.Item name="serialNumber" valuePropName="checked" noStyle rules={[trackingRule]}>
                    <Switch disabled={view || consumables || (batchNumber && !serialNumber)} data-testid="material-serial-switch" />
                  </Form.Item>
                </span>
              </Tooltip>
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="safetyStock" label={t('basic.material.safetyStock')} tooltip={t('basic.material.safetyStockTip')}>
              <NumberInput min={0} max={1e13} data-testid="material-safety-stock" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="warnDays" label={t('basic.material.warnDays')} tooltip={t('basic.material.warnDaysTip')}>
              <NumberInput integer min={0} max={3650} suffix={t('basic.material.days')} data-testid="material-warn-days" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="leadTimeDays" label={t('basic.material.leadTimeDays')} tooltip={t('basic.material.leadTimeDaysTip')}>
              <NumberInput integer min={0} max={3650} suffix={t('basic.material.days')} disabled={view} data-testid="material-lead-time" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="lotPolicy" label={t('basic.material.lotPolicy')} tooltip={t('basic.material.lotPolicyTip')}>
              <Select disabled={view} options={LotPolicy.map((p) => ({ value: p, label: t(`basic.lotPolicy.${p}`) }))} data-testid="material-lot-policy" />
            </Form.Item>
          </Col>
          <Form.Item noStyle shouldUpdate={(a: MaterialForm, b: MaterialForm) => a.lotPolicy !== b.lotPolicy}>
            {({ getFieldValue }) =>
              getFieldValue('lotPolicy') && getFieldValue('lotPolicy') !== 'lotForLot' ? (
                <Col xs={24} md={12}>
                  <Form.Item name="lotSize" label={t('basic.material.lotSize')} rules={[{ required: true, message: t('basic.material.lotSizeRequired') }]}>
                    <NumberInput min={0.000001} max={1e13} disabled={view} data-testid="material-lot-size" />
                  </Form.Item>
                </Col>
              ) : null
            }
          </Form.Item>
          {mode !== 'add' && (
            <Col xs={24} md={12}>
              <Form.Item name="lowLevelCode" label={t('basic.material.lowLevelCode')} tooltip={t('basic.material.lowLevelCodeTip')}>
                <NumberInput integer disabled data-testid="material-low-level-code" />
              </Form.Item>
            </Col>
          )}
        </Row>
      ),
    },
    {
      key: 'prices',
      label: <span data-testid="material-tab-prices">{t('basic.material.tabs.prices')}</span>,
      forceRender: true,
      children: (
        <Row gutter={16}>
          {(['purchasePrice', 'salePrice', 'retailPrice'] as const).map((p) => (
            <Col xs={24} md={12} key={p}>
              <Form.Item name={p} label={t(`basic.material.${p}`)}>
                <NumberInput kind="amount" min={0} max={1e13} data-testid={`material-${p}`} />
              </Form.Item>
            </Col>
          ))}
          <Col xs={24} md={12}>
            {openTaxRate ? (
              <Form.Item name="taxRate" label={t('basic.material.taxRate')}>
                <NumberInput min={0} max={100} precision={2} suffix="%" data-testid="material-taxRate" />
              </Form.Item>
            ) : (
              <Form.Item label={t('basic.material.taxRate')}>
                <Typography.Text type="secondary">
                  <InfoCircleOutlined /> {t('basic.material.taxRateOff')}
                </Typography.Text>
              </Form.Item>
            )}
          </Col>
        </Row>
      ),
    },
    {
      key: 'images',
      label: <span data-testid="material-tab-images">{t('basic.material.tabs.images')}</span>,
      forceRender: true,
      children: (
        <Form.Item name="images" label={t('basic.material.images')} extra={t('basic.material.imagesTip', { count: MATERIAL_MAX_IMAGES })}>
          <ImageUpload limit={MATERIAL_MAX_IMAGES} data-testid="material-images" />
        </Form.Item>
      ),
    },
    {
      key: 'attributes',
      label: <span data-testid="material-tab-attributes">{t('basic.material.tabs.attributes')}</span>,
      forceRender: true,
      children: attributes.data?.length ? (
        <Row gutter={16}>
          {attributes.data.map((a) => (
            <Col xs={24} md={12} key={a.id}>
              <Form.Item name={['customAttributes', String(a.id)]} label={a.name}>
                {a.values.length ? (
                  <Select
                    allowClear
                    showSearch
                    options={a.values.map((v) => ({ value: v, label: v }))}
                    placeholder={t('basic.common.selectPlaceholder', { label: a.name })}
                    data-testid={`material-attr-${a.id}`}
                  />
                ) : (
                  <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: a.name })} data-testid={`material-attr-${a.id}`} />
                )}
              </Form.Item>
            </Col>
          ))}
        </Row>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={attributes.isPending ? t('basic.common.loading') : t('basic.material.noAttributes')} />
      ),
    },
  ];

  return <Tabs activeKey={tab} onChange={(key) => onTab(key as MaterialTab)} items={items} data-testid="material-tabs" />;
}
