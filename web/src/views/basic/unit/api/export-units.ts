/** POST /admin/basic/unit/export with the list query — needs basic_unit_export; answers an .xlsx file. */
export const UNIT_EXPORT_PATH = '/admin/basic/unit/export';
