import { useEffect, useRef, useState } from 'react';
import { Badge, Col, Form, Input, Row, Tabs, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DistrictNode, PartnerDetail, PartnerKind } from '@p8/contract/basic';
import NumberInput from '../NumberInput/index.tsx';
import StaffSelect from '../Pickers/StaffSelect.tsx';
import type { FormMode } from '../FormDialog/index.tsx';
import CodeField from '../RecordKit/CodeField.tsx';
import RecordRefControl from '../RecordKit/RecordRefControl.tsx';
import { RecordFormDialog, type RecordDialogProps } from '../RecordKit/RecordDialog.tsx';
import { createPartner } from './api/create-partner.ts';
import { updatePartner } from './api/update-partner.ts';
import { AddressesTable, ContactsTable } from './PartnerLists.tsx';
import { formOf, payloadOf, PHONE_PATTERN, type PartnerForm } from './partner-form.ts';


type TabKey = 'basic' | 'contacts' | 'addresses';

/**
 * Add / edit / view a supplier or customer: the basic tab (codes, tax and bank details, opening
 * balances), contacts and addresses as editable tables. A tab holding a field to fix shows how many,
 * and the dialog turns to it when a submit finds one there.
 */
export default function PartnerDialog({
  kind,
  districts,
  ...dialog
}: RecordDialogProps<PartnerDetail> & {
  kind: PartnerKind;
  districts: DistrictNode[];
}) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  // The record being edited or viewed is its detail, as the server answers it.
  const { record: detail } = dialog.state;

  return (
    <RecordFormDialog
      {...dialog}
      initialValues={formOf(detail, districts)}
      entity={t(`partner.${kind}.entity`)}
      bodyOf={payloadOf}
      create={(body) => createPartner(kind, body)}
      update={(body) => updatePartner(kind, body)}
      width={980}
      layout="vertical"
      data-testid="partner-dialog"
    >
      {({ form, mode: m }) => <PartnerTabs kind={kind} form={form} mode={m} managerName={detail?.managerName ?? null} managerId={detail?.managerId ?? null} />}
    </RecordFormDialog>
  );
}

function tabOf(name: (string | number)[]): TabKey {
  return name[0] === 'contacts' ? 'contacts' : name[0] === 'addresses' ? 'addresses' : 'basic';
}

function PartnerTabs({ kind, form, mode, managerName, managerId }: { kind: PartnerKind; form: FormInstance<PartnerForm>; mode: FormMode; managerName: string | null; managerId: number | null }) {
  const readOnly = mode === 'view';
  const opening = kind === 'supplier' ? 'openingPayable' : 'openingReceivable';
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const [active, setActive] = useState<TabKey>('basic');
  const phoneRule = { pattern: PHONE_PATTERN, message: t('common.phoneFormat') };
  const known = managerId && managerName ? [{ id: managerId, label: managerName }] : [];

  return (
    <Form.Item noStyle shouldUpdate>
      {() => {
        const counts: Record<TabKey, number> = { basic: 0, contacts: 0, addresses: 0 };
        for (const field of form.getFieldsError()) if (field.errors.length) counts[tabOf(field.name)] += 1;
        const label = (key: TabKey) => (
          <span data-testid={`partner-tab-${key}`}>
            {t(`partner.tabs.${key}`)}
            {key !== 'basic' && <ListCount form={form} list={key} />}
            {counts[key] > 0 && <Badge count={counts[key]} size="small" title={t('partner.tabErrors', { count: counts[key] })} style={{ marginInlineStart: 6 }} />}
          </span>
        );
        return (
          <>
            <TurnToErrors counts={counts} active={active} onTurn={setActive} />
            <Tabs
              activeKey={active}
              onChange={(key) => setActive(key as TabKey)}
              items={[
                {
                  key: 'basic',
                  label: label('basic'),
                  forceRender: true,
                  children: (
                    <Row gutter={16}>
                      <Col xs={24} md={12}>
                        <CodeField label={t(`partner.${kind}.code`)} mode={mode} data-testid="partner-form-code" />
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="name" label={t(`partner.${kind}.name`)} rules={[{ required: true, whitespace: true, message: t('common.required', { label: t(`partner.${kind}.name`) }) }, { max: 100 }]}>
                          <Input maxLength={100} data-testid="partner-form-name" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="shortName" label={t('partner.shortName')} rules={[{ max: 50 }]}>
                          <Input maxLength={50} data-testid="partner-form-shortName" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="phone" label={t('partner.phone')} rules={[phoneRule]} tooltip={t('partner.phoneTip')}>
                          <Input maxLength={30} data-testid="partner-form-phone" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="taxNumber" label={t('partner.taxNumber')} rules={[{ max: 50 }]}>
                          <Input maxLength={50} data-testid="partner-form-taxNumber" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="invoiceTitle" label={t('partner.invoiceTitle')} rules={[{ max: 100 }]}>
                          <Input maxLength={100} data-testid="partner-form-invoiceTitle" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="country" label={t('partner.country')} tooltip={t('partner.countryTip')} rules={[{ max: 50 }]}>
                          <Input maxLength={50} data-testid="partner-form-country" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="currencyId" label={t('partner.currency')} tooltip={t('partner.currencyTip')}>
                          <RecordRefControl refKind="currency" data-testid="partner-form-currency" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="bankName" label={t('partner.bankName')} rules={[{ max: 100 }]}>
                          <Input maxLength={100} data-testid="partner-form-bankName" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        <Form.Item name="bankAccount" label={t('partner.bankAccount')} rules={[{ max: 50 }]}>
                          <Input maxLength={50} data-testid="partner-form-bankAccount" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12}>
                        {/* Read-only: the sum of the partner's audited opening balances (finance's opening-balance bills). */}
                        <Form.Item name={opening} label={t(`partner.${opening}`)} tooltip={t('partner.openingTip')}>
                          <NumberInput kind="amount" disabled data-testid={`partner-form-${opening}`} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={8}>
                        <Form.Item name="email" label={t('partner.email')} rules={[{ type: 'email', message: t('common.emailFormat') }]}>
                          <Input maxLength={100} data-testid="partner-form-email" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={8}>
                        <Form.Item name="managerId" label={t('partner.manager')}>
                          <StaffSelect known={known} placeholder={t('partner.managerPlaceholder')} data-testid="partner-form-manager" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={8}>
                        <Form.Item name="sort" label={t('common.sort')} tooltip={t('common.sortTip')}>
                          <NumberInput integer min={0} max={999999} data-testid="partner-form-sort" />
                        </Form.Item>
                      </Col>
                      <Col span={24}>
                        <Form.Item name="remark" label={t('common.remark')} rules={[{ max: 500 }]}>
                          <Input.TextArea rows={2} maxLength={500} showCount data-testid="partner-form-remark" />
                        </Form.Item>
                      </Col>
                    </Row>
                  ),
                },
                { key: 'contacts', label: label('contacts'), forceRender: true, children: <ContactsTable form={form} readOnly={readOnly} /> },
                { key: 'addresses', label: label('addresses'), forceRender: true, children: <AddressesTable form={form} readOnly={readOnly} /> },
              ]}
            />
          </>
        );
      }}
    </Form.Item>
  );
}

/** How many rows a list tab holds, beside its title. */
function ListCount({ form, list }: { form: FormInstance<PartnerForm>; list: 'contacts' | 'addresses' }) {
  const rows = (form.getFieldValue(list) as unknown[] | undefined) ?? [];
  return rows.length ? <span className="p8-partner-tab-count">{rows.length}</span> : null;
}

/** When the open tab is fine and another gains errors (a submit found them), turn to that tab. */
function TurnToErrors({ counts, active, onTurn }: { counts: Record<TabKey, number>; active: TabKey; onTurn: (key: TabKey) => void }) {
  const key = `${counts.basic},${counts.contacts},${counts.addresses}`;
  const seen = useRef(key);
  useEffect(() => {
    if (key === seen.current) return;
    seen.current = key;
    if (counts[active] > 0) return;
    const next = (['basic', 'contacts', 'addresses'] as const).find((k) => counts[k] > 0);
    if (next) onTurn(next);
  }, [key, counts, active, onTurn]);
  return null;
}
