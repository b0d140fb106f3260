import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';
import { addRole } from '../api/add-role.ts';
import { updateRole } from '../api/update-role.ts';

export interface RoleForm {
  id?: number;
  roleKey: string;
  roleName: string;
  sort?: number;
  remark?: string;
  /** The super role: its key and name are fixed (the server refuses SuperRoleProhibitChangeKey). */
  isSuper?: boolean;
}

/** Role keys (contract): a letter, then letters, digits, `_` or `-`. */
export const ROLE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

interface RoleDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<RoleForm>;
  onClose: () => void;
  onSaved: () => void;
}

/** Add / edit a role: key (unique), name, sort, remark. Data scope and permissions have their own dialogs. */
export default function RoleDialog({ onSaved, ...dialog }: RoleDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const fixedName = dialog.mode !== 'add' && !!dialog.initialValues?.isSuper;

  const submit = async (values: RoleForm, mode: FormMode) => {
    const body = { roleKey: values.roleKey.trim(), roleName: values.roleName.trim(), sort: values.sort ?? 0, remark: values.remark?.trim() ?? '' };
    if (mode === 'add') await addRole(body);
    else await updateRole({ ...body, id: dialog.initialValues!.id! });
    onSaved();
  };

  return (
    <FormDialog<RoleForm> {...dialog} labelCol={labelCol} entity={t('system.role.entity')} width={560} onSubmit={submit}>
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item name="roleName" label={t('system.role.roleName')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputRoleName') }, { max: 50 }]}>
            <Input maxLength={50} disabled={fixedName} placeholder={t('system.common.inputPlaceholder', { label: t('system.role.roleName') })} data-testid="role-name" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item
            name="roleKey"
            label={t('system.role.roleKey')}
            tooltip={t('system.role.roleKeyTip')}
            rules={[
              { required: true, whitespace: true, message: t('error.PleaseInputRoleKey') },
              { pattern: ROLE_KEY_PATTERN, message: t('system.menu.namePattern') },
              { max: 50 },
            ]}
          >
            <Input maxLength={50} disabled={fixedName} placeholder="sales_manager" data-testid="role-key" />
          </Form.Item>
        </Col>
        <Col span={24}>
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
