import { InputNumber, type InputNumberProps } from 'antd';
import { useTenantConfig } from '../../hooks/useTenantConfig.ts';
import { inputPrecision, type NumberKind } from './precision.ts';

export interface NumberInputProps extends Omit<InputNumberProps<number>, 'precision'> {
  /** Whole numbers, step 1. */
  integer?: boolean;
  /** `number` (quantities: numberRetainsSmallDigit) or `amount` (money: amountRetainsSmallDigit); default number. */
  kind?: NumberKind;
  /** Fixed decimal places, overriding the tenant's. */
  precision?: number;
}

/**
 * A number field with the tenant's decimal places, or an integer field with step 1. Fills its column
 * unless given a width.
 */
export default function NumberInput({ integer, kind = 'number', precision, step, style, ...props }: NumberInputProps) {
  const { settings } = useTenantConfig();
  const digits = inputPrecision({ integer, kind, precision }, settings);
  return <InputNumber<number> precision={digits} step={step ?? (integer ? 1 : undefined)} style={{ width: '100%', ...style }} {...props} />;
}
