/** POST /admin/basic/material/export with the list query — needs basic_material_export. */
export const MATERIAL_EXPORT_PATH = '/admin/basic/material/export';
