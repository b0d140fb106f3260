/** GET /admin/basic/unit — paged; filters `name`, `remark` (contains), `enabled`; sorts `nameSort`, `sortSort`, `enabledSort`, `createdAtSort`. */
export const UNIT_LIST_PATH = '/admin/basic/unit';
