import type { ReactNode } from 'react';
import { Input, Radio, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { RecordFieldDecl } from '@p8/contract/records/registry';
import NumberInput from '../../components/NumberInput/index.tsx';
import RecordRefControl from '../../components/RecordKit/RecordRefControl.tsx';
import { testIdOf, type RecordKey } from '../../components/RecordKit/record-key.ts';
import ValuesEditor from '../../components/RecordKit/ValuesEditor.tsx';
import { fieldRefusal } from './kit.ts';

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
      return <NumberInput size={size} data-testid={testId} />;
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
