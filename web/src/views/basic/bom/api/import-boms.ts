/** POST /admin/basic/bom/import (multipart `file`, template `bom`: one row per line) — needs basic_bom_import. */
export const BOM_IMPORT_PATH = '/admin/basic/bom/import';
