import type { DistrictNode, RegionStep } from '@p8/contract/basic';

/*
 * The value of the region cascader (RegionCascader.tsx) and what an address stores: a path of region
 * codes, or `OWN_DISTRICTS` followed by `d<id>` keys of the tenant's own districts. Pure; tested in
 * region-place.test.ts.
 */

export const OWN_DISTRICTS = 'own';

/** A national region's name in the screen's language: the English one when known, else the Chinese. */
export function regionName(region: Pick<RegionStep, 'name' | 'nameEn'>, language: string): string {
  return language === 'en' && region.nameEn ? region.nameEn : region.name;
}

export type Place = { regionCode: string | null; districtId: number | null };

/** What an address stores, from the cascader's path (the last key decides). */
export function placeOf(path: string[] | undefined): Place {
  const last = path?.at(-1);
  if (!last || last === OWN_DISTRICTS) return { regionCode: null, districtId: null };
  return last.startsWith('d') ? { regionCode: null, districtId: Number(last.slice(1)) } : { regionCode: last, districtId: null };
}

/** The cascader's path of an own district (ids from its root down). */
export function ownDistrictPath(tree: DistrictNode[], id: number): string[] | undefined {
  for (const node of tree) {
    if (node.id === id) return [OWN_DISTRICTS, `d${node.id}`];
    const below = node.children ? ownDistrictPath(node.children, id) : undefined;
    if (below) return [OWN_DISTRICTS, `d${node.id}`, ...below.slice(1)];
  }
  return undefined;
}

/** The cascader's path of a stored address: its region's codes, else its own district's keys. */
export function pathOfPlace(regionPath: RegionStep[], districtId: number | null, ownDistricts: DistrictNode[]): string[] | undefined {
  if (regionPath.length) return regionPath.map((step) => step.code);
  return districtId == null ? undefined : ownDistrictPath(ownDistricts, districtId);
}
