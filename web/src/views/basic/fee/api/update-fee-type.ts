import type { z } from 'zod';
import type { FeeType, feeTypeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { FEE_PATH } from './list-fee-types.ts';

export type FeeTypeUpdate = z.input<typeof feeTypeSchemas.update>;

/** PUT /admin/basic/fee (code basic_fee_update). */
export function updateFeeType(body: FeeTypeUpdate): Promise<FeeType> {
  return http.put<FeeType>(FEE_PATH, body);
}
