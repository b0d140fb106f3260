import type { Register } from '@p8/contract/auth';
import { http } from '../../../app/http.ts';

/** POST /base/tenant/register — a new tenant with its initial administrator. */
export function registerTenant(payload: Register): Promise<{ tenantId: number; name: string }> {
  return http.post<{ tenantId: number; name: string }>('/base/tenant/register', payload, { silent: true });
}
