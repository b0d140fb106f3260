/** GET /admin/basic/brand — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const BRAND_LIST_PATH = '/admin/basic/brand';
