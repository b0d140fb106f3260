import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServiceStaffRow } from '@p8/contract/service';
import ColleagueSelect from '../../../../components/Pickers/ColleagueSelect.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import { createServiceStaff } from '../api/create-service-staff.ts';
import { updateServiceStaff } from '../api/update-service-staff.ts';

export interface ServiceStaffForm {
  adminId?: number;
  skills: string[];
  areas: string[];
  enabled: boolean;
  remark?: string | null;
}

const NEW_STAFF: ServiceStaffForm = { skills: [], areas: [], enabled: true, remark: '' };

const bodyOf = (values: ServiceStaffForm) => ({ adminId: values.adminId!, skills: values.skills ?? [], areas: values.areas ?? [], enabled: values.enabled, remark: values.remark?.trim() || null });

/** Add / edit / view one service staff member: which colleague, their skills and areas (typed tags), the switch. */
export default function ServiceStaffDialog(dialog: RecordDialogProps<ServiceStaffRow>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'service.staff' });
  const { record } = dialog.state;
  const initialValues: ServiceStaffForm = record ? { adminId: record.adminId, skills: record.skills, areas: record.areas, enabled: record.enabled, remark: record.remark ?? '' } : NEW_STAFF;

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      bodyOf={bodyOf}
      create={createServiceStaff}
      update={updateServiceStaff}
      labelCol={{ flex: '110px' }}
      data-testid="service-staff-dialog"
    >
      <Form.Item name="adminId" label={t('name')} rules={[{ required: true, message: t('pickStaff') }]}>
        <ColleagueSelect placeholder={t('pickStaff')} known={record ? [{ id: record.adminId, label: record.name, account: record.account, deptName: record.deptName }] : []} data-testid="service-staff-form-admin" />
      </Form.Item>
      <Form.Item name="skills" label={t('skills')} extra={t('tagsTip')}>
        <Select mode="tags" maxCount={20} tokenSeparators={[',', '，']} open={false} suffixIcon={null} placeholder={t('skillsPlaceholder')} data-testid="service-staff-form-skills" />
      </Form.Item>
      <Form.Item name="areas" label={t('areas')}>
        <Select mode="tags" maxCount={20} tokenSeparators={[',', '，']} open={false} suffixIcon={null} placeholder={t('areasPlaceholder')} data-testid="service-staff-form-areas" />
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked">
        <Switch data-testid="service-staff-form-enabled" />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={3} maxLength={200} showCount />
      </Form.Item>
    </RecordFormDialog>
  );
}
