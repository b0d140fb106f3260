/** POST /admin/basic/bom/export with the list query — needs basic_bom_export; one row per line. */
export const BOM_EXPORT_PATH = '/admin/basic/bom/export';
