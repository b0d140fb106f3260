/** POST /admin/basic/brand/import (multipart `file`) — needs basic_brand_import; answers the batch import result. */
export const BRAND_IMPORT_PATH = '/admin/basic/brand/import';
