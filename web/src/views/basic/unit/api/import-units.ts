/** POST /admin/basic/unit/import (multipart `file`) — needs basic_unit_import; answers the batch import result. */
export const UNIT_IMPORT_PATH = '/admin/basic/unit/import';
