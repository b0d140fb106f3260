import type { z } from 'zod';
import type { Attribute, attributeSchemas } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

export type AttributeCreate = z.infer<typeof attributeSchemas.create>;

/** POST /admin/basic/attribute — needs basic_attribute_add; the name is unique in the tenant (NameRepeat). */
export function addAttribute(body: AttributeCreate): Promise<Attribute> {
  return http.post<Attribute>('/admin/basic/attribute', body);
}
