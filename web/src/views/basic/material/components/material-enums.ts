import type { MaterialTag, PartKind } from '@p8/contract/basic';

/** Colours of the business tags wherever a material shows them. */
export const TAG_COLORS: Record<MaterialTag, string> = {
  sale: 'green',
  purchase: 'blue',
  production: 'orange',
  outsource: 'purple',
  consumables: 'gold',
  entrust: 'cyan',
};

export const PART_KIND_COLORS: Record<PartKind, string> = {
  standard: 'default',
  customized: 'magenta',
  virtual: 'geekblue',
};

/** The tabs of the material dialog, in order (a failed validation opens the first tab with an error). */
export const MATERIAL_TABS = ['basic', 'units', 'dimensions', 'stock', 'prices', 'images', 'attributes'] as const;
export type MaterialTab = (typeof MATERIAL_TABS)[number];
