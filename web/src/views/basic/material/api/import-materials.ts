/** POST /admin/basic/material/import (multipart `file`, template `material`) — needs basic_material_import. */
export const MATERIAL_IMPORT_PATH = '/admin/basic/material/import';
