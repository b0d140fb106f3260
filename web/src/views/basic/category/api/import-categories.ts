/** POST /admin/basic/category/import (multipart `file`, template `category`) — needs basic_category_import. Parents are named by name or path "A/B". */
export const CATEGORY_IMPORT_PATH = '/admin/basic/category/import';
