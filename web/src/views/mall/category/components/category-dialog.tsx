import { Col, Form, Row, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { MALL_CATEGORY_MAX_LEVEL, type MallCategoryNode } from '@p8/contract/mall';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { NameField, SortField } from '../../../../components/RecordKit/record-fields.tsx';
import { ParentField, sectionTreeTexts } from '../../../../components/RecordKit/TreeRecord.tsx';
import { addMallCategory, updateMallCategory } from '../api/save-category.ts';

export interface MallCategoryForm {
  id?: number;
  name: string;
  parentId?: number | null;
  icon?: string;
  sort?: number;
  enabled?: boolean;
}

interface Props {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<MallCategoryForm>;
  onClose: () => void;
  tree: MallCategoryNode[];
  onSaved: () => void;
}

/** Add / edit a product category: parent (a top category or none), name, icon, order, switch. */
export default function MallCategoryDialog({ tree, onSaved, ...dialog }: Props) {
  const { t } = useTranslation();
  const editingId = dialog.mode === 'add' ? undefined : dialog.initialValues?.id;
  const submit = async (values: MallCategoryForm, mode: FormMode) => {
    const body = { name: values.name.trim(), parentId: values.parentId ?? null, icon: values.icon ?? '', sort: values.sort ?? 0, enabled: values.enabled ?? true };
    if (mode === 'add') await addMallCategory(body);
    else await updateMallCategory({ ...body, id: editingId! });
    onSaved();
  };
  return (
    <FormDialog<MallCategoryForm>
      {...dialog}
      initialValues={{ enabled: true, ...dialog.initialValues }}
      entity={t('mall.category.entity')}
      width={600}
      onSubmit={submit}
      data-testid="mall-category-dialog"
    >
      <Row gutter={16}>
        <ParentField texts={sectionTreeTexts(t, 'mall.category', MALL_CATEGORY_MAX_LEVEL)} testId="mall-category-parent" tree={tree} editingId={editingId} maxLevel={MALL_CATEGORY_MAX_LEVEL} expandAll />
        <NameField label={t('mall.category.name')} testId="mall-category-name" />
        <Col span={24}>
          <Form.Item name="icon" label={t('mall.category.icon')}>
            <ImageUpload single />
          </Form.Item>
        </Col>
        <SortField />
        <Col span={12}>
          <Form.Item name="enabled" label={t('mall.category.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
