/**
 * GET /admin/basic/bom — paged. Filters `materialCode`, `materialName`, `version` (contains),
 * `materialId`, `isDefault`, `enabled`, `keyword`, `start` / `end`; sorts on material code and name,
 * version, default, enabled, created.
 */
export const BOM_LIST_PATH = '/admin/basic/bom';
