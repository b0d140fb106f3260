import { useMemo } from 'react';
import { Col, Form, Input, Row, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATEGORY_MAX_LEVEL, type CategoryNode } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { addCategory } from '../api/add-category.ts';
import { updateCategory } from '../api/update-category.ts';
import { mapTree, subtreeDepth, subtreeIds } from './tree-utils.ts';

export interface CategoryForm {
  id?: number;
  name: string;
  parentId?: number | null;
  sort?: number;
  remark?: string;
}

interface ParentOption {
  title: string;
  value: number;
  children?: ParentOption[];
  disabled?: boolean;
}

interface CategoryDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<CategoryForm>;
  onClose: () => void;
  /** The whole category tree (for the parent picker). */
  tree: CategoryNode[];
  onSaved: () => void;
}

/**
 * Add / edit a category: parent (never itself or below it, and deep enough that the category with its
 * sub-categories still fits three levels), name (unique among its siblings), sort, remark.
 */
export default function CategoryDialog({ tree, onSaved, ...dialog }: CategoryDialogProps) {
  const { t } = useTranslation();
  const editingId = dialog.mode === 'add' ? undefined : dialog.initialValues?.id;
  const parentOptions = useMemo(() => {
    const blocked = subtreeIds(tree, editingId);
    // The moved category brings its sub-categories: a parent at level L takes a subtree of depth D when L + D ≤ 3.
    const depth = editingId === undefined ? 1 : subtreeDepth(tree, editingId);
    return mapTree<CategoryNode, ParentOption>(tree, (c, children) => ({
      title: c.name,
      value: c.id,
      children,
      disabled: blocked.has(c.id) || c.level + depth > CATEGORY_MAX_LEVEL,
    }));
  }, [tree, editingId]);

  const submit = async (values: CategoryForm, mode: FormMode) => {
    const body = { name: values.name.trim(), parentId: values.parentId ?? null, sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' };
    if (mode === 'add') await addCategory(body);
    else await updateCategory({ ...body, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<CategoryForm> {...dialog} entity={t('basic.category.entity')} width={600} onSubmit={submit} data-testid="category-dialog">
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item name="parentId" label={t('basic.category.parent')} extra={t('basic.category.parentTip')}>
            <TreeSelect
              allowClear
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeDefaultExpandAll
              treeData={parentOptions}
              placeholder={t('basic.category.parentPlaceholder')}
              data-testid="category-parent"
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="name" label={t('basic.category.name')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputName') }, { max: 100 }]}>
            <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.category.name') })} data-testid="category-name" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="sort" label={t('basic.common.sort')} tooltip={t('basic.common.sortTip')}>
            <NumberInput integer min={0} max={999999} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('basic.common.remark')}>
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
