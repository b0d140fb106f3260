import { useMemo } from 'react';
import { Button, Cascader, Empty, Form, Input, Switch, Table, Tooltip, Typography, type FormInstance, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DistrictNode } from '@p8/contract/basic';
import { districtTreeQuery } from '../api/get-district-tree.ts';
import type { AddressForm, ContactForm } from './partner-form.ts';
import { PHONE_PATTERN } from './record-kit.tsx';

interface ListProps {
  form: FormInstance;
  readOnly: boolean;
}

type Field = { key: number; name: number };

/** Marks one row as the default and clears the flag of the others (one default per list). */
function DefaultSwitch({ list, index, form, checked, onChange, testId }: { list: 'contacts' | 'addresses'; index: number; form: FormInstance; checked?: boolean; onChange?: (v: boolean) => void; testId: string }) {
  return (
    <Switch
      size="small"
      checked={!!checked}
      onChange={(value) => {
        if (value) {
          const rows = (form.getFieldValue(list) as Array<{ isDefault: boolean }> | undefined) ?? [];
          rows.forEach((_, i) => {
            if (i !== index) form.setFieldValue([list, i, 'isDefault'], false);
          });
        }
        onChange?.(value);
      }}
      data-testid={testId}
    />
  );
}

/*
 * Cells of the list rows. `preserve`: the dialog's form drops unmounted fields (preserve={false}), and a
 * field inside a Form.List that unmounts — as StrictMode's mount / unmount / mount does in development —
 * would lose its value (a list field has no initial value to fall back to).
 */
const cell = { style: { margin: 0 }, preserve: true };

/** The contacts tab: an editable table of name, phone, position, email and the default flag. */
export function ContactsTable({ form, readOnly }: ListProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const phoneRule = { pattern: PHONE_PATTERN, message: t('common.phoneFormat') };
  return (
    <Form.List name="contacts">
      {(fields, { add, remove }) => {
        const columns: TableColumnsType<Field> = [
          { key: 'index', title: '#', width: 44, align: 'center', render: (_, __, i) => i + 1 },
          {
            key: 'name',
            title: readOnly ? t('partner.contacts.name') : <span className="p8-required-title">{t('partner.contacts.name')}</span>,
            width: 150,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'name']} rules={[{ required: true, whitespace: true, message: t('partner.contacts.nameRequired') }, { max: 50 }]}>
                <Input maxLength={50} placeholder={t('partner.contacts.name')} data-testid={`partner-contact-name-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'phone',
            title: t('partner.contacts.phone'),
            width: 160,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'phone']} rules={[phoneRule]}>
                <Input maxLength={30} placeholder={t('partner.contacts.phone')} data-testid={`partner-contact-phone-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'position',
            title: t('partner.contacts.position'),
            width: 130,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'position']} rules={[{ max: 50 }]}>
                <Input maxLength={50} placeholder={t('partner.contacts.position')} data-testid={`partner-contact-position-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'email',
            title: t('partner.contacts.email'),
            width: 190,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'email']} rules={[{ type: 'email', message: t('common.emailFormat') }]}>
                <Input maxLength={100} placeholder={t('partner.contacts.email')} data-testid={`partner-contact-email-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'isDefault',
            title: t('partner.contacts.isDefault'),
            width: 70,
            align: 'center',
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'isDefault']} valuePropName="checked">
                <DefaultSwitch list="contacts" index={f.name} form={form} testId={`partner-contact-default-${f.name}`} />
              </Form.Item>
            ),
          },
          ...(readOnly
            ? []
            : [
                {
                  key: 'remove',
                  title: '',
                  width: 48,
                  align: 'center' as const,
                  render: (_: unknown, f: Field) => (
                    <Tooltip title={t('partner.contacts.remove')}>
                      <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('partner.contacts.remove')} data-testid={`partner-contact-remove-${f.name}`} />
                    </Tooltip>
                  ),
                },
              ]),
        ];
        return (
          <div className="p8-partner-list" data-testid="partner-contacts">
            <Table<Field>
              rowKey="key"
              size="small"
              bordered
              pagination={false}
              columns={columns}
              dataSource={fields}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={readOnly ? t('common.none') : t('partner.contacts.empty')} /> }}
            />
            {!readOnly && (
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                style={{ marginTop: 8 }}
                onClick={() => add({ name: '', phone: '', email: '', position: '', isDefault: fields.length === 0 } satisfies ContactForm)}
                data-testid="partner-contact-add"
              >
                {t('partner.contacts.add')}
              </Button>
            )}
          </div>
        );
      }}
    </Form.List>
  );
}

/** The addresses tab: district cascader (any level), detail, recipient, phone and the default flag. */
export function AddressesTable({ form, readOnly }: ListProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const districts = useQuery(districtTreeQuery);
  const options = useMemo(() => districts.data ?? [], [districts.data]);
  const phoneRule = { pattern: PHONE_PATTERN, message: t('common.phoneFormat') };
  return (
    <Form.List name="addresses">
      {(fields, { add, remove }) => {
        const columns: TableColumnsType<Field> = [
          { key: 'index', title: '#', width: 44, align: 'center', render: (_, __, i) => i + 1 },
          {
            key: 'district',
            title: t('partner.addresses.district'),
            width: 230,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'districtPath']}>
                <Cascader<DistrictNode>
                  options={options}
                  fieldNames={{ label: 'name', value: 'id', children: 'children' }}
                  changeOnSelect
                  showSearch
                  allowClear
                  loading={districts.isPending}
                  placeholder={t('partner.addresses.districtPlaceholder')}
                  notFoundContent={<Typography.Text type="secondary">{t('partner.addresses.noDistricts')}</Typography.Text>}
                  style={{ width: '100%' }}
                  data-testid={`partner-address-district-${f.name}`}
                />
              </Form.Item>
            ),
          },
          {
            key: 'address',
            title: t('partner.addresses.detail'),
            width: 240,
            render: (_, f) => (
              <Form.Item
                {...cell}
                name={[f.name, 'address']}
                dependencies={[['addresses', f.name, 'districtPath']]}
                rules={[
                  { max: 200 },
                  {
                    validator: async (_rule, value: string | undefined) => {
                      const path = form.getFieldValue(['addresses', f.name, 'districtPath']) as number[] | undefined;
                      if (!value?.trim() && !path?.length) throw new Error(t('partner.addresses.addressRequired'));
                    },
                  },
                ]}
              >
                <Input maxLength={200} placeholder={t('partner.addresses.detailPlaceholder')} data-testid={`partner-address-detail-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'contactName',
            title: t('partner.addresses.contactName'),
            width: 120,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'contactName']} rules={[{ max: 50 }]}>
                <Input maxLength={50} placeholder={t('partner.addresses.contactName')} data-testid={`partner-address-contact-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'phone',
            title: t('partner.addresses.phone'),
            width: 150,
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'phone']} rules={[phoneRule]}>
                <Input maxLength={30} placeholder={t('partner.addresses.phone')} data-testid={`partner-address-phone-${f.name}`} />
              </Form.Item>
            ),
          },
          {
            key: 'isDefault',
            title: t('partner.addresses.isDefault'),
            width: 70,
            align: 'center',
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'isDefault']} valuePropName="checked">
                <DefaultSwitch list="addresses" index={f.name} form={form} testId={`partner-address-default-${f.name}`} />
              </Form.Item>
            ),
          },
          ...(readOnly
            ? []
            : [
                {
                  key: 'remove',
                  title: '',
                  width: 48,
                  align: 'center' as const,
                  render: (_: unknown, f: Field) => (
                    <Tooltip title={t('partner.addresses.remove')}>
                      <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t('partner.addresses.remove')} data-testid={`partner-address-remove-${f.name}`} />
                    </Tooltip>
                  ),
                },
              ]),
        ];
        return (
          <div className="p8-partner-list" data-testid="partner-addresses">
            <Table<Field>
              rowKey="key"
              size="small"
              bordered
              pagination={false}
              columns={columns}
              dataSource={fields}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={readOnly ? t('common.none') : t('partner.addresses.empty')} /> }}
            />
            {!readOnly && (
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                style={{ marginTop: 8 }}
                onClick={() => add({ districtPath: undefined, address: '', contactName: '', phone: '', isDefault: fields.length === 0 } satisfies AddressForm)}
                data-testid="partner-address-add"
              >
                {t('partner.addresses.add')}
              </Button>
            )}
          </div>
        );
      }}
    </Form.List>
  );
}
