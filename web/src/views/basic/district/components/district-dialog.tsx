import { useMemo } from 'react';
import { Col, Form, Input, Row, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { DISTRICT_MAX_LEVEL, type DistrictNode } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { mapTree, subtreeDepth, subtreeIds } from '../../category/components/tree-utils.ts';
import { addDistrict } from '../api/add-district.ts';
import { updateDistrict } from '../api/update-district.ts';

export interface DistrictForm {
  id?: number;
  name: string;
  code?: string;
  parentId?: number | null;
  sort?: number;
}

interface ParentOption {
  title: string;
  value: number;
  children?: ParentOption[];
  disabled?: boolean;
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
  const parentOptions = useMemo(() => {
    const blocked = subtreeIds(tree, editingId);
    const depth = editingId === undefined ? 1 : subtreeDepth(tree, editingId);
    return mapTree<DistrictNode, ParentOption>(tree, (d, children) => ({
      title: d.name,
      value: d.id,
      children,
      disabled: blocked.has(d.id) || d.level + depth > DISTRICT_MAX_LEVEL,
    }));
  }, [tree, editingId]);

  const submit = async (values: DistrictForm, mode: FormMode) => {
    const body = { name: values.name.trim(), code: values.code?.trim() ?? '', parentId: values.parentId ?? null, sort: values.sort ?? 0 };
    if (mode === 'add') await addDistrict(body);
    else await updateDistrict({ ...body, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<DistrictForm> {...dialog} entity={t('basic.district.entity')} width={560} onSubmit={submit} data-testid="district-dialog">
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item name="parentId" label={t('basic.district.parent')} extra={t('basic.district.parentTip')}>
            <TreeSelect
              allowClear
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeData={parentOptions}
              placeholder={t('basic.district.parentPlaceholder')}
              data-testid="district-parent"
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="name" label={t('basic.district.name')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputName') }, { max: 100 }]}>
            <Input maxLength={100} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.district.name') })} data-testid="district-name" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="code" label={t('basic.district.code')} tooltip={t('basic.district.codeTip')}>
            <Input maxLength={20} placeholder={t('basic.common.inputPlaceholder', { label: t('basic.district.code') })} data-testid="district-code" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="sort" label={t('basic.common.sort')} tooltip={t('basic.common.sortTip')}>
            <NumberInput integer min={0} max={999999} />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
