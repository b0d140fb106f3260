/** GET /admin/basic/attribute — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const ATTRIBUTE_LIST_PATH = '/admin/basic/attribute';
