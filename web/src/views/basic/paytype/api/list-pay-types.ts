/** GET /admin/basic/paytype — a page of pay types. Filters `name`, `remark` (contains), `enabled`; sorts on name, enabled, sort, createdAt. */
export const PAYTYPE_PATH = '/admin/basic/paytype';
