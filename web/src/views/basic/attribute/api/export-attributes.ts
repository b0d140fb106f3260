/** POST /admin/basic/attribute/export with the list query — needs basic_attribute_export; answers an .xlsx file. */
export const ATTRIBUTE_EXPORT_PATH = '/admin/basic/attribute/export';
