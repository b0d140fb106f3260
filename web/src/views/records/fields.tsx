import type { ReactNode } from 'react';
import { Col, Form, Input, Radio, Select, Space, Switch, Tag, Tooltip } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { nameKey } from '@p8/contract/bills/fields';
import type { DeclaredRecord, RecordFieldDecl, RecordKindDecl } from '@p8/contract/records/registry';
import type { ProColumn } from '../../components/ProTable/index.tsx';
import NumberInput from '../../components/NumberInput/index.tsx';
import RecordRefControl from '../../components/RecordKit/RecordRefControl.tsx';
import { testIdOf, type RecordKey } from '../../components/RecordKit/record-key.ts';
import ValuesEditor from '../../components/RecordKit/ValuesEditor.tsx';
import { fieldRefusal, valueCell } from './kit.ts';

/*
 * A declared field on the record screen, by its kind: the control that edits it and the rules that check it
 * (the record's own fields in the dialog, its lines' in their grid cells).
 */

/** A field's rules: required as declared, and checked as typed by the server's own schema (its catalogued refusal). */
export function fieldRules(field: RecordFieldDecl, label: string, t: TFunction, isKey: (key: string) => boolean): Rule[] {
  return [
    // `whitespace` only on texts: any rule key beyond `required` makes antd check the value as a string.
    ...(field.required ? [{ required: true, ...(field.kind === 'text' || field.kind === 'textarea' ? { whitespace: true } : {}), message: t('kit.record.required', { label }) }] : []),
    {
      validator: async (_: unknown, value: unknown) => {
        const refusal = fieldRefusal(field, typeof value === 'string' ? value.trim() : value, isKey);
        if (refusal) throw new Error(t(`error.${refusal}`));
      },
    },
  ];
}

/** A field's control by its kind (a record's own field in the dialog, or a line's in its cell: `size` small). */
export function fieldControl(field: RecordFieldDecl, at: { record: RecordKey; lang: 'zh' | 'en'; testId: string; generatedPlaceholder?: string; size?: 'small' }): ReactNode {
  const { record, lang, testId, size } = at;
  switch (field.kind) {
    case 'textarea':
      return size ? <Input size={size} data-testid={testId} /> : <Input.TextArea rows={3} data-testid={testId} />;
    case 'number':
      return <NumberInput size={size} {...(field.precision !== undefined ? { precision: field.precision, integer: field.precision === 0 } : {})} data-testid={testId} />;
    // No `min`: the input would silently clamp what was typed; the declared schema refuses it by name instead.
    case 'quantity':
      return <NumberInput size={size} kind="number" data-testid={testId} />;
    case 'amount':
      return <NumberInput size={size} kind="amount" data-testid={testId} />;
    case 'enum':
      return size ? (
        <Select size={size} options={(field.options ?? []).map((o) => ({ value: o.value, label: o.label[lang] }))} data-testid={testId} />
      ) : (
        <Radio.Group optionType="button" buttonStyle="solid">
          {(field.options ?? []).map((o) => (
            <Radio.Button key={o.value} value={o.value}>
              <span data-testid={testIdOf(record, `form-${field.key}-${o.value}`)}>{o.label[lang]}</span>
            </Radio.Button>
          ))}
        </Radio.Group>
      );
    case 'boolean':
      return <Switch size={size} data-testid={testId} />;
    case 'values':
      return <ValuesEditor />;
    case 'record':
      return <RecordRefControl refKind={field.ref!} size={size} data-testid={testId} />;
    default:
      // A code the record generates says so where it would be typed (it is not required, see generatedCode).
      return <Input size={size} placeholder={at.generatedPlaceholder} data-testid={testId} />;
  }
}

/** The form item prop a field's control takes its value by (a switch: `checked`). */
export const valuePropOf = (field: RecordFieldDecl) => (field.kind === 'boolean' ? 'checked' : 'value');

/** Values shown in a list cell before "+N". */
const SHOWN_VALUES = 6;

type T = ReturnType<typeof useTranslation>['t'];

/** A field's list column: searchable and sortable as declared, enum values as coloured tags, values as tags. */
export function fieldColumn<R extends DeclaredRecord = DeclaredRecord>(field: RecordFieldDecl, lang: 'zh' | 'en', t: T): ProColumn<R> {
  const base: ProColumn<R> = {
    prop: field.key,
    title: field.label[lang],
    search: field.search,
    sortable: field.sortable,
    width: field.width,
    ...(field.title ? { lockSetting: true } : {}),
  };
  switch (field.kind) {
    case 'enum':
      return { ...base, valueEnum: Object.fromEntries((field.options ?? []).map((o, i) => [o.value, { text: o.label[lang], color: i === 0 ? 'green' : 'orange' }])) };
    case 'quantity':
      return { ...base, valueType: 'number', align: 'right' };
    case 'boolean':
      return { ...base, align: 'center', valueEnum: { true: { text: t('basic.common.yes'), color: 'blue' }, false: { text: t('basic.common.no') } } };
    case 'amount':
      return { ...base, valueType: 'amount', align: 'right' };
    case 'record':
      // The name beside the id, as the list answers it (`leaderId` → `leaderName`).
      return { ...base, search: false, render: (_, row) => valueCell(row[nameKey(field.key)]) };
    case 'values':
      return {
        ...base,
        render: (_, row) => {
          const values = (row[field.key] as string[] | null) ?? [];
          if (!values.length) return <span style={{ opacity: 0.5 }}>{t('kit.record.noValues')}</span>;
          const rest = values.slice(SHOWN_VALUES);
          return (
            <Space size={[0, 4]} wrap>
              {values.slice(0, SHOWN_VALUES).map((v) => (
                <Tag key={v}>{v}</Tag>
              ))}
              {rest.length > 0 && (
                <Tooltip title={rest.join(', ')}>
                  <Tag>+{rest.length}</Tag>
                </Tooltip>
              )}
            </Space>
          );
        },
      };
    default:
      return { ...base, render: (v) => valueCell(v) };
  }
}

/** A field of the dialog: its control by kind, required as declared, and checked as typed by the server's own schema. */
export function FieldItem({ field, record, lang, generated, half }: { field: RecordFieldDecl; record: RecordKey; lang: 'zh' | 'en'; generated?: boolean; half?: boolean }) {
  const { t, i18n } = useTranslation();
  const label = field.label[lang];
  const testId = testIdOf(record, field.key);
  const rules = fieldRules(field, label, t, (key: string) => i18n.exists(`error.${key}`));
  const control = fieldControl(field, { record, lang, testId, generatedPlaceholder: generated ? t('kit.record.generatedCode') : t('basic.common.inputPlaceholder', { label }) });
  return (
    <Col span={half ? 12 : 24}>
      <Form.Item name={field.key} label={label} tooltip={field.help?.[lang]} rules={rules} valuePropName={valuePropOf(field)}>
        {control}
      </Form.Item>
    </Col>
  );
}


/** The dialog's values of a declared record. */
export type Values = Record<string, unknown> & { id?: number; sort?: number; remark?: string };

/** What a new record's dialog starts with: each field's declared initial value (an empty list, a switch off). */
export function newFieldValues(decl: RecordKindDecl): Values {
  const values: Values = { sort: 0 };
  for (const field of decl.fields) {
    if (field.initial !== undefined) values[field.key] = field.initial;
    else if (field.kind === 'values') values[field.key] = [];
    else if (field.kind === 'boolean') values[field.key] = false;
  }
  return values;
}

/** A save body's own fields from the dialog's values: texts trimmed, empty values dropped from lists. */
export function sentFieldValues(decl: RecordKindDecl, values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = { sort: values.sort ?? 0, remark: (values.remark ?? '').trim() };
  for (const field of decl.fields) {
    const value = values[field.key];
    body[field.key] = typeof value === 'string' ? value.trim() : field.kind === 'values' ? ((value as string[] | undefined) ?? []).map((v) => v.trim()).filter(Boolean) : (value ?? undefined);
  }
  return body;
}
