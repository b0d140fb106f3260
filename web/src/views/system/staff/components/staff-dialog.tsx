import { useMemo } from 'react';
import { Col, Form, Input, Radio, Row, Select, Tag, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeptNode } from '@p8/contract/system';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import ImageUpload from '../../../../components/Upload/ImageUpload.tsx';
import { mapTree } from '../../../../components/Tree/tree-utils.ts';
import { useRoleOptions } from '../../../../components/Pickers/api/get-roles.ts';
import { useLabelCol } from '../../../../components/FormDialog/use-label-col.ts';
import { addStaff } from '../api/add-staff.ts';
import { updateStaff } from '../api/update-staff.ts';
import { useStaffRules } from './use-staff-rules.ts';

export interface StaffForm {
  id?: number;
  name: string;
  password?: string;
  confirmPassword?: string;
  realName: string;
  nickName?: string;
  sex?: number;
  avatar?: string;
  phone?: string;
  email?: string;
  deptId?: number;
  roleIds?: number[];
  remark?: string;
}

interface DeptOption {
  title: string;
  value: number;
  disabled?: boolean;
  children?: DeptOption[];
}

interface StaffDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<StaffForm>;
  onClose: () => void;
  depts: DeptNode[];
  onSaved: () => void;
}

/**
 * Add / edit a staff account: account, password (on add), real name, nickname, gender, avatar, phone,
 * email, department, roles and remark. Formats follow the system config.
 */
export default function StaffDialog({ depts, onSaved, ...dialog }: StaffDialogProps) {
  const { t } = useTranslation();
  const labelCol = useLabelCol();
  const rules = useStaffRules();
  const roles = useRoleOptions();
  const currentDept = dialog.initialValues?.deptId;

  // A disabled department can no longer be chosen, but an account already in one keeps it.
  const deptOptions = useMemo(
    () => mapTree<DeptNode, DeptOption>(depts, (d, children) => ({ title: d.name, value: d.id, disabled: !d.enabled && d.id !== currentDept, children })),
    [depts, currentDept],
  );
  const roleOptions = useMemo(
    () =>
      (roles.data ?? []).map((r) => ({
        value: r.id,
        label: r.roleName,
        title: r.roleKey,
      })),
    [roles.data],
  );

  const submit = async (values: StaffForm, mode: FormMode) => {
    const body = {
      name: values.name.trim(),
      realName: values.realName.trim(),
      nickName: values.nickName?.trim() ?? '',
      sex: values.sex ?? 0,
      avatar: values.avatar ?? '',
      phone: values.phone?.trim() ?? '',
      email: values.email?.trim() ?? '',
      deptId: values.deptId!,
      roleIds: values.roleIds ?? [],
      remark: values.remark?.trim() ?? '',
    };
    if (mode === 'add') await addStaff({ ...body, password: values.password! });
    else await updateStaff({ ...body, id: dialog.initialValues!.id! });
    onSaved();
  };

  const input = (label: string) => t('system.common.inputPlaceholder', { label });
  const select = (label: string) => t('system.common.selectPlaceholder', { label });

  return (
    <FormDialog<StaffForm> {...dialog} labelCol={labelCol} entity={t('system.staff.entity')} width={780} onSubmit={submit}>
      {({ mode }) => (
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('system.staff.name')} tooltip={t('system.staff.nameTip')} rules={rules.name}>
              <Input maxLength={20} autoComplete="off" placeholder={input(t('system.staff.name'))} data-testid="staff-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="realName" label={t('system.staff.realName')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputRealName') }, { max: 30 }]}>
              <Input maxLength={30} placeholder={input(t('system.staff.realName'))} data-testid="staff-real-name" />
            </Form.Item>
          </Col>
          {mode === 'add' && (
            <>
              <Col xs={24} sm={12}>
                <Form.Item name="password" label={t('system.staff.password')} tooltip={rules.passwordTip || undefined} rules={rules.password}>
                  <Input.Password maxLength={20} autoComplete="new-password" placeholder={rules.passwordTip || input(t('system.staff.password'))} data-testid="staff-password" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="confirmPassword" label={t('system.staff.confirmPassword')} dependencies={['password']} rules={rules.confirmPassword}>
                  <Input.Password maxLength={20} autoComplete="new-password" placeholder={input(t('system.staff.confirmPassword'))} data-testid="staff-confirm-password" />
                </Form.Item>
              </Col>
            </>
          )}
          <Col xs={24} sm={12}>
            <Form.Item name="nickName" label={t('system.staff.nickName')} rules={[{ max: 30 }]}>
              <Input maxLength={30} placeholder={t('system.staff.nickNamePlaceholder')} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="sex" label={t('system.staff.sex')}>
              <Radio.Group
                options={[
                  { value: 1, label: t('system.staff.sexMale') },
                  { value: 2, label: t('system.staff.sexFemale') },
                  { value: 0, label: t('system.staff.sexUnknown') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="phone" label={t('system.staff.phone')} rules={rules.phone}>
              <Input maxLength={20} placeholder={input(t('system.staff.phone'))} data-testid="staff-phone" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="email" label={t('system.staff.email')} rules={[{ type: 'email', message: t('error.EmailFormatError') }, { max: 100 }]}>
              <Input maxLength={100} placeholder={input(t('system.staff.email'))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="deptId" label={t('system.staff.dept')} rules={[{ required: true, message: t('error.PleaseSelectDept') }]}>
              <TreeSelect
                showSearch
                treeNodeFilterProp="title"
                treeDefaultExpandAll
                treeData={deptOptions}
                placeholder={select(t('system.staff.dept'))}
                data-testid="staff-dept"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="roleIds" label={t('system.staff.roles')} rules={[{ required: true, type: 'array', min: 1, message: t('error.PleaseSelectRole') }]}>
              <Select
                mode="multiple"
                allowClear
                loading={roles.isPending}
                options={roleOptions}
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={select(t('system.staff.roles'))}
                maxTagCount="responsive"
                optionRender={(option) => (
                  <span>
                    {option.label} <Tag style={{ marginInlineStart: 4, fontSize: 11 }}>{option.data.title}</Tag>
                  </span>
                )}
                data-testid="staff-roles"
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="avatar" label={t('system.staff.avatar')}>
              <ImageUpload single limit={1} data-testid="staff-avatar" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label={t('system.common.remark')}>
              <Input.TextArea rows={2} maxLength={500} showCount />
            </Form.Item>
          </Col>
        </Row>
      )}
    </FormDialog>
  );
}
