import type { ReactNode } from 'react';
import { Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { billType, billTypesByArea } from '@p8/contract/bills/catalogue';
import { BILL_AREA_LABELS } from '@p8/contract/bills/registry';
import { AuditType, type VerifyRuleRow } from '@p8/contract/office';
import { RecordFormDialog, type RecordDialogProps } from '../../../../components/RecordKit/RecordDialog.tsx';
import type { StaffOption } from '../../../../components/Pickers/api/colleague-options.ts';
import { createVerifyRule } from '../api/create-verify-rule.ts';
import { listRuleBillTypes } from '../api/list-verify-rules.ts';
import { updateVerifyRule } from '../api/update-verify-rule.ts';
import { labelOf } from '../../../../components/BillNames/index.ts';
import ReviewerPicker from './reviewer-picker.tsx';

export interface RuleForm {
  billType: string;
  auditType: AuditType;
  sequential: boolean;
  enabled: boolean;
  remark?: string | null;
  reviewerIds: number[];
}

const NEW_RULE: RuleForm = { billType: '', auditType: 'AnyVerify', sequential: false, enabled: true, remark: '', reviewerIds: [] };

export const reviewerOptions = (rule: VerifyRuleRow | undefined): StaffOption[] =>
  (rule?.reviewers ?? []).map((r) => ({ id: r.adminId, label: r.realName || r.name || `#${r.adminId}`, account: r.name, deptName: null }));

const bodyOf = (values: RuleForm) => ({ ...values, remark: values.remark?.trim() || null });

/** Add / edit / view a joint review rule: bill type, mode, order and the ordered reviewers. */
export default function RuleDialog(dialog: RecordDialogProps<VerifyRuleRow>) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.verify' });
  const { t: root, i18n } = useTranslation();
  const lang = i18n.language;
  const { record, mode } = dialog.state;
  // One rule per bill type: the taken ones are shown but cannot be picked (the server says BillVerifyRuleRepeat too).
  const taken = useQuery({ queryKey: ['system-office', 'verify', 'bill-types'], queryFn: listRuleBillTypes, enabled: dialog.state.open && mode !== 'view', staleTime: 0 });
  const takenSet = new Set((taken.data ?? []).filter((b) => b !== record?.billType));

  const initialValues: RuleForm = record
    ? {
        billType: record.billType,
        auditType: record.auditType,
        sequential: record.sequential,
        enabled: record.enabled,
        remark: record.remark ?? '',
        reviewerIds: record.reviewers.map((r) => r.adminId),
      }
    : NEW_RULE;

  // The bill types of the registry, grouped by area as the menus group them.
  const billTypeOptions: Array<{ label: string; title: string; options: Array<{ value: string; disabled: boolean; label: ReactNode; search: string }> }> = billTypesByArea().map(({ area, types }) => ({
    label: labelOf(BILL_AREA_LABELS[area], lang),
    title: area,
    options: types.map((decl) => ({
      value: decl.type,
      disabled: takenSet.has(decl.type),
      label: (
        <span>
          {labelOf(decl.label, lang)}
          {takenSet.has(decl.type) && <Typography.Text type="secondary"> · {t('billTypeTaken')}</Typography.Text>}
        </span>
      ),
      search: `${decl.label.zh} ${decl.label.en} ${decl.type}`,
    })),
  }));
  // A rule saved for a bill type this screen does not list (another release) still shows, under its key.
  if (record && !billType(record.billType)) {
    billTypeOptions.push({ label: record.billType, title: 'other', options: [{ value: record.billType, disabled: false, label: <span>{record.billType}</span>, search: record.billType }] });
  }

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={initialValues}
      entity={t('entity')}
      bodyOf={bodyOf}
      create={createVerifyRule}
      update={updateVerifyRule}
      width={680}
      labelCol={{ flex: '120px' }}
      data-testid="verify-dialog"
    >
      <Form.Item name="billType" label={t('billType')} rules={[{ required: true, message: root('error.PleaseSelectBillType') }]}>
        <Select
          options={billTypeOptions}
          placeholder={t('billTypePlaceholder')}
          showSearch={{ optionFilterProp: 'search' }}
          loading={taken.isFetching}
          data-testid="verify-form-billType"
        />
      </Form.Item>
      <Form.Item name="auditType" label={t('auditType')} rules={[{ required: true }]}>
        <Radio.Group className="p8-verify-audit-type" data-testid="verify-form-auditType">
          {AuditType.map((type) => (
            <Radio key={type} value={type} data-testid={`verify-form-auditType-${type}`}>
              <span className="p8-verify-audit-type-name">{t(`auditTypes.${type}`)}</span>
              <span className="p8-verify-audit-type-help">{t(`auditTypeHelp.${type}`)}</span>
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="sequential" label={t('sequential')} valuePropName="checked" extra={t('sequentialHelp')}>
        <Switch data-testid="verify-form-sequential" />
      </Form.Item>
      <Form.Item noStyle dependencies={['sequential']}>
        {({ getFieldValue }) => {
          const sequential = !!getFieldValue('sequential');
          return (
            <Form.Item
              name="reviewerIds"
              label={t('reviewers')}
              rules={[{ required: true, type: 'array', min: 1, message: root('error.PleaseSelectReviewer') }]}
              extra={sequential ? t('reviewersHelp') : t('reviewersOrderless')}
            >
              <ReviewerPicker known={reviewerOptions(record)} sequential={sequential} />
            </Form.Item>
          );
        }}
      </Form.Item>
      <Form.Item name="enabled" label={t('enabled')} valuePropName="checked" extra={t('enabledHelp')}>
        <Switch data-testid="verify-form-enabled" />
      </Form.Item>
      <Form.Item name="remark" label={t('remark')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={2} maxLength={200} showCount />
      </Form.Item>
    </RecordFormDialog>
  );
}
