/** POST /admin/basic/attribute/import (multipart `file`) — needs basic_attribute_import; answers the batch import result. */
export const ATTRIBUTE_IMPORT_PATH = '/admin/basic/attribute/import';
