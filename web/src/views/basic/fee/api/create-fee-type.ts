import type { z } from 'zod';
import type { FeeType, feeTypeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { FEE_PATH } from './list-fee-types.ts';

export type FeeTypeCreate = z.input<typeof feeTypeSchemas.create>;

/** POST /admin/basic/fee (code basic_fee_add): NameRepeat when the name is taken. */
export function createFeeType(body: FeeTypeCreate): Promise<FeeType> {
  return http.post<FeeType>(FEE_PATH, body);
}
