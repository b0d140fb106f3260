import type { BomTreeNode } from '@p8/contract/basic';
import { http } from '../../../../app/http.ts';

/** GET /admin/basic/bom/:id/tree — the multi-level structure: each line expanded by its material's default BOM. */
export function getBomTree(id: number): Promise<BomTreeNode> {
  return http.get<BomTreeNode>(`/admin/basic/bom/${id}/tree`, undefined, { noLoading: true });
}
