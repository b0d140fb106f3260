import type { TenantConfig } from './tenant-config.ts';

/**
 * Picture search (docs/picture-search.md): a photo or picture of a part is matched against the pictures of
 * the tenant's materials or mall products, ranked by a calibrated similarity (0–1); those at or above the
 * tenant's `pictureSearchSimilarity` are matches. The tenant turns it on with `hasPictureSearchModule` and
 * chooses with `pictureSearchType` what it searches: `Similarity` the materials (material list, the bill
 * form's material picker), `Product` the mall products as well (mall product list); `NotSelected` none.
 */
export const PICTURE_TARGETS = ['material', 'product'] as const;
export type PictureTarget = (typeof PICTURE_TARGETS)[number];

/**
 * Indexed pictures a search needs: similarity is measured against the index's own mean picture (what all
 * the tenant's pictures share is taken away), which says nothing with fewer pictures than this.
 */
export const PICTURE_SEARCH_MIN_INDEXED = 10;

/** Matches a search answers at most. */
export const PICTURE_SEARCH_LIMIT = 20;

/** Whether the tenant's picture search is open for `target`. */
export function pictureSearchOpen(config: Pick<TenantConfig, 'hasPictureSearchModule' | 'pictureSearchType'>, target: PictureTarget): boolean {
  if (!config.hasPictureSearchModule) return false;
  return target === 'material' ? config.pictureSearchType !== 'NotSelected' : config.pictureSearchType === 'Product';
}

/** One record a search found. */
export interface PictureMatch {
  /** The material's or product's id. */
  id: number;
  /** The material's code (empty for a product). */
  code: string;
  name: string;
  /** The material's specification (empty for a product). */
  specification: string;
  /** The record's picture that matched best. */
  image: string;
  /** Calibrated similarity, 0–1 (not a raw cosine: docs/picture-search.md). */
  similarity: number;
  /** At or above the tenant's threshold. */
  match: boolean;
}

/** POST /admin/picture/{target}/search. */
export interface PictureSearchResult {
  /** The tenant's threshold (`pictureSearchSimilarity`). */
  threshold: number;
  /** Pictures the search compared with. */
  indexed: number;
  /** Best first; the records the caller may see. */
  matches: PictureMatch[];
}

/** GET /admin/picture/{target}/status: the index against the records' pictures. */
export interface PictureIndexStatus {
  /** Whether the tenant's picture search is open for this target (`pictureSearchOpen`). */
  open: boolean;
  /** Pictures indexed. */
  indexed: number;
  /** Pictures the records name now (those of this installation's uploads). */
  pictures: number;
  /** Indexed pictures a search needs. */
  required: number;
  /** The index job running or queued, if any. */
  job: { id: number; status: 'queued' | 'running'; done: number; total: number | null } | null;
}
