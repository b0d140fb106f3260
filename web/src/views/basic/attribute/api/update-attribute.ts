import type { z } from 'zod';
import type { Attribute, attributeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type AttributeUpdate = z.infer<typeof attributeSchemas.update>;

/** PUT /admin/basic/attribute — needs basic_attribute_update; fields left out keep their stored value. */
export function updateAttribute(body: AttributeUpdate): Promise<Attribute> {
  return http.put<Attribute>('/admin/basic/attribute', body);
}
