/** GET /admin/basic/fee — a page of fee types. Filters `name`, `remark` (contains), `enabled`, `kind`; sorts on name, enabled, sort, createdAt, kind. */
export const FEE_PATH = '/admin/basic/fee';
