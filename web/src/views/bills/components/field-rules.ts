import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import type { AmountRules } from '@p8/contract/bills/amounts';
import type { FieldDecl } from '@p8/contract/bills/fields';
import i18n from '../../../locales/index.ts';
import { fieldRefusal, lineAmountRefusal, type GridLine } from '../kit.ts';

const isKey = (key: string) => i18n.exists(`error.${key}`);

/**
 * The form rules of a declared field, header or line alike: required (its catalogued message), then its
 * declared schema — what the server checks — with the catalogue's text. With `amounts`, a material line's
 * quantity and unit price also refuse a line whose amount goes beyond what can be recorded.
 */
export function fieldRules(field: FieldDecl, t: TFunction, amounts?: AmountRules): FormRule[] {
  const rules: FormRule[] = [];
  if (field.required) rules.push({ required: true, message: t(`error.${field.required}`) });
  rules.push({
    validator: async (_rule, value: unknown) => {
      const key = fieldRefusal(field, value, isKey);
      if (key) throw new Error(t(`error.${key}`));
    },
  });
  if (amounts && (field.key === 'number' || field.key === 'unitPrice')) {
    rules.push(({ getFieldValue }) => ({
      validator: async (rule, value: unknown) => {
        if (fieldRefusal(field, value, isKey)) return; // the cell's own refusal says it already
        const index = Number(String((rule as { field?: string }).field ?? '').split('.')[1]);
        const key = lineAmountRefusal(getFieldValue(['lines', index]) as GridLine | undefined, amounts);
        if (key) throw new Error(t(`error.${key}`));
      },
    }));
  }
  return rules;
}
