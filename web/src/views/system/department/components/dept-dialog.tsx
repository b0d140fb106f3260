import { useMemo } from 'react';
import { Col, Form, Input, Row, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeptNode } from '@p8/contract/system';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { addDept } from '../api/add-dept.ts';
import { updateDept } from '../api/update-dept.ts';
import LeaderSelect from './leader-select.tsx';
import { mapTree, subtreeIds } from '../../../../components/Tree/tree-utils.ts';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';

export interface DeptForm {
  id?: number;
  name: string;
  parentId?: number | null;
  leaderId?: number | null;
  /** Shown in the leader select before any search (edit). */
  leaderName?: string | null;
  phone?: string;
  email?: string;
  sort?: number;
  remark?: string;
}

interface TreeOption {
  title: string;
  value: number;
  children?: TreeOption[];
  disabled?: boolean;
}

/** Same rule as the contract: a landline, an extension or a mobile. */
const OFFICE_PHONE = /^[0-9+\-() ]{3,30}$/;

interface DeptDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<DeptForm>;
  onClose: () => void;
  /** The whole department tree (for the parent picker). */
  tree: DeptNode[];
  onSaved: () => void;
}

/** Add / edit a department: name, parent (never itself or below it), leader, phone, email, sort, remark. */
export default function DeptDialog({ tree, onSaved, ...dialog }: DeptDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const editingId = dialog.mode === 'add' ? undefined : dialog.initialValues?.id;
  const parentOptions = useMemo(() => {
    const blocked = subtreeIds(tree, editingId);
    return mapTree<DeptNode, TreeOption>(tree, (d, children) => ({ title: d.name, value: d.id, children, disabled: blocked.has(d.id) }));
  }, [tree, editingId]);

  const submit = async (values: DeptForm, mode: FormMode) => {
    const body = {
      name: values.name.trim(),
      parentId: values.parentId ?? null,
      leaderId: values.leaderId ?? null,
      phone: values.phone?.trim() ?? '',
      email: values.email?.trim() ?? '',
      sort: values.sort ?? 0,
      remark: values.remark?.trim() ?? '',
    };
    if (mode === 'add') await addDept(body);
    else await updateDept({ ...body, id: editingId! });
    onSaved();
  };

  return (
    <FormDialog<DeptForm> {...dialog} labelCol={labelCol} entity={t('system.dept.entity')} width={680} onSubmit={submit}>
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item name="parentId" label={t('system.dept.parent')}>
            <TreeSelect
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              treeData={parentOptions}
              placeholder={t('system.dept.parentPlaceholder')}
              data-testid="dept-parent"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="name"
            label={t('system.dept.name')}
            rules={[{ required: true, whitespace: true, message: t('error.PleaseInputDeptName') }, { max: 50 }]}
          >
            <Input maxLength={50} placeholder={t('system.common.inputPlaceholder', { label: t('system.dept.name') })} data-testid="dept-name" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="leaderId" label={t('system.dept.leader')}>
            <LeaderSelect currentName={dialog.initialValues?.leaderName} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="phone" label={t('system.dept.phone')} rules={[{ pattern: OFFICE_PHONE, message: t('error.PhoneFormatError') }]}>
            <Input maxLength={30} placeholder={t('system.common.inputPlaceholder', { label: t('system.dept.phone') })} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="email" label={t('system.dept.email')} rules={[{ type: 'email', message: t('error.EmailFormatError') }]}>
            <Input maxLength={100} placeholder={t('system.common.inputPlaceholder', { label: t('system.dept.email') })} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="sort" label={t('system.common.sort')}>
            <NumberInput integer min={0} max={999999} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('system.common.remark')}>
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
