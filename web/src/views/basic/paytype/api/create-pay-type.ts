import type { z } from 'zod';
import type { PayType, payTypeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';
import { PAYTYPE_PATH } from './list-pay-types.ts';

export type PayTypeCreate = z.input<typeof payTypeSchemas.create>;

/** POST /admin/basic/paytype (code basic_paytype_add): NameRepeat when the name is taken. */
export function createPayType(body: PayTypeCreate): Promise<PayType> {
  return http.post<PayType>(PAYTYPE_PATH, body);
}
