/** POST /admin/basic/brand/export with the list query — needs basic_brand_export; answers an .xlsx file. */
export const BRAND_EXPORT_PATH = '/admin/basic/brand/export';
