import { Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATEGORY_MAX_LEVEL, type CategoryNode } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import { NameField, RemarkField, SortField } from '../../../../components/RecordKit/record-fields.tsx';
import { addCategory } from '../api/add-category.ts';
import { updateCategory } from '../api/update-category.ts';
import { ParentField } from '../../../../components/RecordKit/TreeRecord.tsx';

export interface CategoryForm {
  id?: number;
  name: string;
  parentId?: number | null;
  sort?: number;
  remark?: string;
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

  const submit = async (values: CategoryForm, mode: FormMode) => {
    const body = { name: values.name.trim(), parentId: values.parentId ?? null, sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' };
    if (mode === 'add') await addCategory(body);
    else await updateCategory({ ...body, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<CategoryForm> {...dialog} entity={t('basic.category.entity')} width={600} onSubmit={submit} data-testid="category-dialog">
      <Row gutter={16}>
        <ParentField section="basic.category" testId="category-parent" tree={tree} editingId={editingId} maxLevel={CATEGORY_MAX_LEVEL} expandAll />
        <NameField label={t('basic.category.name')} testId="category-name" />
        <SortField />
        <RemarkField />
      </Row>
    </FormDialog>
  );
}
