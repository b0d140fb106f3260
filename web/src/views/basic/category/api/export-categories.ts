/** POST /admin/basic/category/export with the list query (`name`, `enabled`) — needs basic_category_export. */
export const CATEGORY_EXPORT_PATH = '/admin/basic/category/export';
