import { Col, Form, Input, Row, Switch, Tabs, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MallCategoryNode, MallProduct, MallProductCreate, MallSpec } from '@p8/contract/mall';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import MaterialInput, { type PickedMaterial } from '../../../../components/Pickers/MaterialInput.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import RichText from '../../../../components/RichText/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { createProduct, updateProduct } from '../api/products.ts';
import SkuEditor from './sku-editor.tsx';
import { completeSpecs, skusToSend, type SkuRow } from './sku-matrix.ts';

export interface ProductForm {
  categoryId?: number;
  name: string;
  subtitle?: string;
  unitName?: string;
  images?: string[];
  detail?: string;
  specs?: MallSpec[];
  skus?: SkuRow[];
  onShelf?: boolean;
  sort?: number;
  material?: PickedMaterial | null;
}

export const NEW_PRODUCT: Partial<ProductForm> = { unitName: '件', images: [], specs: [], onShelf: false, sort: 0, detail: '' };

/** The form's values of a stored product. */
export const formOfProduct = (p: MallProduct): ProductForm => ({
  categoryId: p.categoryId,
  name: p.name,
  subtitle: p.subtitle,
  unitName: p.unitName,
  images: p.images,
  detail: p.detail,
  specs: p.specs,
  skus: p.skus.map(({ specValues, price, marketPrice, costPrice, stock, code, image }) => ({ specValues, price, marketPrice, costPrice, stock, code, image })),
  onShelf: p.onShelf,
  sort: p.sort,
  material: p.materialId ? { id: p.materialId, code: '', name: p.materialName ?? '' } : null,
});

/** The body to send; `stored`: the SKUs as the dialog read them (editing), see `skusToSend`. */
const bodyOf = (v: ProductForm, stored?: SkuRow[]): MallProductCreate => {
  // The specs as sent are the filled-in ones (a half-typed spec makes no SKUs); the SKUs are their combinations.
  const specs = completeSpecs(v.specs);
  return {
    categoryId: v.categoryId!,
    name: v.name.trim(),
    subtitle: v.subtitle?.trim() ?? '',
    unitName: v.unitName?.trim() ?? '',
    images: v.images ?? [],
    detail: v.detail ?? '',
    specs,
    skus: skusToSend(specs, v.skus, stored),
    onShelf: v.onShelf ?? false,
    sort: v.sort ?? 0,
    materialId: v.material?.id ?? null,
  };
};

interface Props {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<ProductForm>;
  /** The product being edited. */
  id?: number;
  onClose: () => void;
  categories: MallCategoryNode[];
  onSaved: () => void;
}

interface CategoryOption {
  title: string;
  value: number;
  disabled: boolean;
  children?: CategoryOption[];
}
const toTree = (nodes: MallCategoryNode[]): CategoryOption[] =>
  nodes.map((n) => ({ title: n.name, value: n.id, disabled: !n.enabled, children: n.children ? toTree(n.children) : undefined }));

/**
 * Add / edit / view a product: basics (category, name, images, unit, ERP material, shelf), the SKU
 * editor (specs → one SKU per combination), and the rich-text detail.
 */
export default function ProductDialog({ id, categories, onSaved, ...dialog }: Props) {
  const { t } = useTranslation(undefined, { keyPrefix: 'mall.product' });
  const submit = async (values: ProductForm, mode: FormMode) => {
    const body = bodyOf(values, mode === 'edit' ? dialog.initialValues?.skus : undefined);
    if (mode === 'add') await createProduct(body);
    else await updateProduct({ ...body, id: id! });
    onSaved();
  };
  return (
    <FormDialog<ProductForm> {...dialog} entity={t('entity')} width={1180} onSubmit={submit} labelCol={{ flex: '110px' }} data-testid="product-dialog">
      {({ mode, form }) => (
        <Tabs
          items={[
            {
              key: 'basic',
              label: t('tabBasic'),
              forceRender: true,
              children: (
                <Row gutter={16}>
                  <Col span={12}>
                    <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true }, { max: 100 }]}>
                      <Input maxLength={100} data-testid="product-name" />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="categoryId" label={t('category')} rules={[{ required: true }]}>
                      <TreeSelect treeData={toTree(categories)} treeDefaultExpandAll showSearch={{ treeNodeFilterProp: 'title' }} data-testid="product-category" />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="subtitle" label={t('subtitle')} rules={[{ max: 200 }]}>
                      <Input maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name="unitName" label={t('unitName')} rules={[{ max: 10 }]}>
                      <Input maxLength={10} />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name="onShelf" label={t('onShelf')} valuePropName="checked">
                      <Switch data-testid="product-on-shelf" />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="sort" label={t('sort')}>
                      <NumberInput integer min={0} max={999_999} style={{ width: 160 }} />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="material" label={t('material')} extra={t('materialTip')}>
                      <MaterialInput allowClear placeholder={t('pickMaterial')} data-testid="product-material" />
                    </Form.Item>
                  </Col>
                  <Col span={24}>
                    <Form.Item name="images" label={t('images')} extra={t('imagesTip')} rules={[{ required: true, type: 'array', min: 1 }]}>
                      <ImageUpload limit={10} data-testid="product-images" />
                    </Form.Item>
                  </Col>
                </Row>
              ),
            },
            { key: 'sku', label: t('tabSku'), forceRender: true, children: <SkuEditor form={form} view={mode === 'view'} /> },
            {
              key: 'detail',
              label: t('tabDetail'),
              forceRender: true,
              children: (
                <Form.Item name="detail" wrapperCol={{ span: 24 }}>
                  <RichText height={420} />
                </Form.Item>
              ),
            },
          ]}
        />
      )}
    </FormDialog>
  );
}
