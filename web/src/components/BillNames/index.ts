import { billType } from '@p8/contract/bills/catalogue';
import type { Label } from '@p8/contract/bills/status';

/**
 * Names the bill registry gives in both languages (bill types, areas, statuses, operations), for the bill
 * kit and for the screens outside it that name bill types (joint review, tenant config).
 */

/** The label in the screen's language (`en`, else Chinese). */
export const labelOf = (label: Label, language: string) => (language === 'en' ? label.en : label.zh);

/** A bill type's name from its declaration; a name no declaration has (a rule of another release) as it is. */
export function billTypeName(type: string, language: string): string {
  const decl = billType(type);
  return decl ? labelOf(decl.label, language) : type;
}
