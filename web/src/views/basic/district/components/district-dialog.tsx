import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DISTRICT_MAX_LEVEL, type DistrictNode } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import { ParentField, sectionTreeTexts } from '../../../../components/RecordKit/TreeRecord.tsx';
import { NameField, SortField } from '../../../../components/RecordKit/record-fields.tsx';
import { addDistrict } from '../api/add-district.ts';
import { updateDistrict } from '../api/update-district.ts';

export interface DistrictForm {
  id?: number;
  name: string;
  code?: string;
  parentId?: number | null;
  sort?: number;
}

interface DistrictDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<DistrictForm>;
  onClose: () => void;
  tree: DistrictNode[];
  onSaved: () => void;
}

/** Add / edit a district: parent (never itself or below it; four levels at most), name, code (e.g. an administrative code), sort. */
export default function DistrictDialog({ tree, onSaved, ...dialog }: DistrictDialogProps) {
  const { t } = useTranslation();
  const editingId = dialog.mode === 'add' ? undefined : dialog.initialValues?.id;

  const submit = async (values: DistrictForm, mode: FormMode) => {
    const body = { name: values.name.trim(), code: values.code?.trim() ?? '', parentId: values.parentId ?? null, sort: values.sort ?? 0 };
    if (mode === 'add') await addDistrict(body);
    else await updateDistrict({ ...body, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<DistrictForm> {...dialog} entity={t('basic.district.entity')} width={560} onSubmit={submit} data-testid="district-dialog">
      <Row gutter={16}>
        {/* Districts are many: the picker opens folded. */}
        <ParentField texts={sectionTreeTexts(t, 'basic.district', DISTRICT_MAX_LEVEL)} testId="district-parent" tree={tree} editingId={editingId} maxLevel={DISTRICT_MAX_LEVEL} />
        <NameField label={t('basic.district.name')} testId="district-name" />
        <Col span={24}>
          <Form.Item name="code" label={t('basic.district.code')} tooltip={t('basic.district.codeTip')}>
            <Input maxLength={20} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.district.code') })} data-testid="district-code" />
          </Form.Item>
        </Col>
        <SortField />
      </Row>
    </FormDialog>
  );
}
