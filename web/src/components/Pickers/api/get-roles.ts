import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Role } from '@p8/contract/system';
import { http, type PagedResult, type QueryParams } from '../../../app/http.ts';

/**
 * GET /admin/security/role — roles, paged, with how many staff hold each. Filters `roleKey`, `roleName`
 * (contains), `dataScope`, `enabled`; sorts `roleKeySort`, `roleNameSort`, `sortSort`, `createdAtSort`.
 */
export function getRoles(params: QueryParams): Promise<PagedResult<Role>> {
  return http.list<Role>('/admin/security/role', params, { noLoading: true });
}

/** Every role (a tenant has tens, not thousands), for the staff form's role select and filter. */
export const roleOptionsQueryKey = ['system', 'role', 'options'] as const;

export const roleOptionsQuery = queryOptions({
  queryKey: roleOptionsQueryKey,
  queryFn: async () => (await getRoles({ current: 1, pageSize: 200, sortSort: 'asc' })).data,
  staleTime: 30_000,
});

export function useRoleOptions() {
  return useQuery(roleOptionsQuery);
}
