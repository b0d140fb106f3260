import { type ReactNode } from 'react';
import { Button, Empty, Form, Input, Switch, Table, Tooltip, type FormInstance, type FormRule, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { districtTreeQuery } from '../Pickers/api/get-district-tree.ts';
import { RegionCascader } from '../Pickers/RegionCascader.tsx';
import { PHONE_PATTERN, type AddressForm, type ContactForm } from './partner-form.ts';

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

/** One editable column of a list: a text box unless `control` says otherwise. */
interface ListCell {
  /** The row's form field. */
  field: string;
  title: string;
  width: number;
  /** The title carries the required mark while editing. */
  required?: boolean;
  /** The cell's rules, or the rules of the row numbered so. */
  rules?: FormRule[] | ((row: number) => FormRule[]);
  /** Fields of the row the rules read. */
  dependencies?: string[];
  /** Length limit of the text box. */
  maxLength?: number;
  /** The cell's test id `<list test id>-<testId>-<row>`; default the field. */
  testId?: string;
  control?: (testId: string) => ReactNode;
}

interface EditableListProps extends ListProps {
  list: 'contacts' | 'addresses';
  /** Test id prefix of the list's controls (`partner-contact`); the list itself is `partner-<list>`. */
  testId: string;
  cells: ListCell[];
  /** A new row; the first one added is the default. */
  newRow: (isFirst: boolean) => ContactForm | AddressForm;
}

/**
 * A list of the dialog as an editable table: the row number, the cells, the "default" switch (one
 * default per list) and, while editing, a remove button per row and an add button below. Texts from
 * `partner.<list>`: `isDefault`, `remove`, `empty`, `add`.
 */
function EditableList({ form, readOnly, list, testId, cells, newRow }: EditableListProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const text = (key: string) => t(`partner.${list}.${key}`);
  return (
    <Form.List name={list}>
      {(fields, { add, remove }) => {
        const columns: TableColumnsType<Field> = [
          { key: 'index', title: '#', width: 44, align: 'center', render: (_, __, i) => i + 1 },
          ...cells.map(({ field, title, width, required, rules, dependencies, maxLength, control, ...c }) => ({
            key: field,
            title: required && !readOnly ? <span className="p8-required-title">{title}</span> : title,
            width,
            render: (_: unknown, f: Field) => {
              const id = `${testId}-${c.testId ?? field}-${f.name}`;
              return (
                <Form.Item {...cell} name={[f.name, field]} rules={typeof rules === 'function' ? rules(f.name) : rules} dependencies={dependencies?.map((d) => [list, f.name, d])}>
                  {control ? control(id) : <Input maxLength={maxLength} placeholder={title} data-testid={id} />}
                </Form.Item>
              );
            },
          })),
          {
            key: 'isDefault',
            title: text('isDefault'),
            width: 70,
            align: 'center',
            render: (_, f) => (
              <Form.Item {...cell} name={[f.name, 'isDefault']} valuePropName="checked">
                <DefaultSwitch list={list} index={f.name} form={form} testId={`${testId}-default-${f.name}`} />
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
                    <Tooltip title={text('remove')}>
                      <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={text('remove')} data-testid={`${testId}-remove-${f.name}`} />
                    </Tooltip>
                  ),
                },
              ]),
        ];
        return (
          <div className="p8-partner-list" data-testid={`partner-${list}`}>
            <Table<Field>
              rowKey="key"
              size="small"
              bordered
              pagination={false}
              columns={columns}
              dataSource={fields}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={readOnly ? t('common.none') : text('empty')} /> }}
            />
            {!readOnly && (
              <Button type="dashed" block icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add(newRow(fields.length === 0))} data-testid={`${testId}-add`}>
                {text('add')}
              </Button>
            )}
          </div>
        );
      }}
    </Form.List>
  );
}

/** The contacts tab: name, phone, position, email and the default flag. */
export function ContactsTable({ form, readOnly }: ListProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const title = (key: string) => t(`partner.contacts.${key}`);
  return (
    <EditableList
      form={form}
      readOnly={readOnly}
      list="contacts"
      testId="partner-contact"
      cells={[
        { field: 'name', title: title('name'), width: 150, required: true, maxLength: 50, rules: [{ required: true, whitespace: true, message: title('nameRequired') }, { max: 50 }] },
        { field: 'phone', title: title('phone'), width: 160, maxLength: 30, rules: [{ pattern: PHONE_PATTERN, message: t('common.phoneFormat') }] },
        { field: 'position', title: title('position'), width: 130, maxLength: 50, rules: [{ max: 50 }] },
        { field: 'email', title: title('email'), width: 190, maxLength: 100, rules: [{ type: 'email', message: t('common.emailFormat') }] },
      ]}
      newRow={(isFirst) => ({ name: '', phone: '', email: '', position: '', isDefault: isFirst })}
    />
  );
}

/** The addresses tab: place (a national region or an own district, any level), detail, recipient, phone and the default flag. */
export function AddressesTable({ form, readOnly }: ListProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const title = (key: string) => t(`partner.addresses.${key}`);
  const districts = useQuery(districtTreeQuery);
  const ownDistricts = districts.data;
  return (
    <EditableList
      form={form}
      readOnly={readOnly}
      list="addresses"
      testId="partner-address"
      cells={[
        {
          field: 'place',
          title: title('district'),
          width: 230,
          testId: 'district',
          control: (id) => <RegionCascader ownDistricts={ownDistricts} placeholder={title('districtPlaceholder')} data-testid={id} />,
        },
        {
          field: 'address',
          title: title('detail'),
          width: 240,
          testId: 'detail',
          dependencies: ['place'],
          rules: (row) => [
            { max: 200 },
            {
              validator: async (_rule, value: string | undefined) => {
                const path = form.getFieldValue(['addresses', row, 'place']) as string[] | undefined;
                if (!value?.trim() && !path?.length) throw new Error(title('addressRequired'));
              },
            },
          ],
          control: (id) => <Input maxLength={200} placeholder={title('detailPlaceholder')} data-testid={id} />,
        },
        { field: 'contactName', title: title('contactName'), width: 120, testId: 'contact', maxLength: 50, rules: [{ max: 50 }] },
        { field: 'phone', title: title('phone'), width: 150, maxLength: 30, rules: [{ pattern: PHONE_PATTERN, message: t('common.phoneFormat') }] },
      ]}
      newRow={(isFirst) => ({ place: undefined, address: '', contactName: '', phone: '', isDefault: isFirst })}
    />
  );
}
