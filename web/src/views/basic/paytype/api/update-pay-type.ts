import type { z } from 'zod';
import type { PayType, payTypeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { PAYTYPE_PATH } from './list-pay-types.ts';

export type PayTypeUpdate = z.input<typeof payTypeSchemas.update>;

/** PUT /admin/basic/paytype (code basic_paytype_update). */
export function updatePayType(body: PayTypeUpdate): Promise<PayType> {
  return http.put<PayType>(PAYTYPE_PATH, body);
}
