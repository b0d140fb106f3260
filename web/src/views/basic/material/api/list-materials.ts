/**
 * GET /admin/basic/material — paged, within the caller's assignment range. Filters `code`, `name`,
 * `specification`, `model`, `materialQuality` (contains), `keyword`, `categoryId` (with its
 * sub-categories), `brandId`, `tag`, `partKind`, `enabled`, `batchNumber`, `serialNumber`, `start` / `end`;
 * sorts on code, name, specification, prices, safety stock, stock, enabled and created.
 */
export const MATERIAL_LIST_PATH = '/admin/basic/material';

/** GET /admin/basic/material/statistics — the stock sum over the same filters. */
export const MATERIAL_STATISTICS_PATH = '/admin/basic/material/statistics';
