import { sql } from 'drizzle-orm';
import { div, microNumber, mul, roundTo, toMicro, type Micro } from '@p8/contract/bills/decimal';
import { PRODUCTION_LINES } from '@p8/contract/bills/production';
import { meets, type BillPayload, type BillTypeDecl } from '@p8/contract/bills/registry';
import { BizError, refusal } from './errors.ts';
import type { ServiceContext } from './service-context.ts';
import { idList } from './tree.ts';
import { rows } from '../db/connection.ts';
import { loadMaterials, mainUnitQuantity } from '../bills/bill-save.ts';

/*
 * A BOM exploded into an order's lines, shared by the orders that make a product by its BOM: a production order
 * (its materials and its routing's steps) and an outsourcing order (its materials; the supplier does the steps).
 */

type Line = BillPayload['lines'][number];
const isProduct = (line: Line) => meets(PRODUCTION_LINES.products, line);
const isMaterial = (line: Line) => meets(PRODUCTION_LINES.materials, line);
const isProcess = (line: Line) => meets(PRODUCTION_LINES.processes, line);

/**
 * A production order's lines as saved: at least one product; its materials from each product's BOM and its
 * process steps from the BOM's routing, where the order was saved without any of them (given by hand, they
 * are kept as given). The BOM is the product line's, else the product's default enabled BOM.
 */
export async function orderLinesFromBoms(ctx: ServiceContext, decl: BillTypeDecl, payload: BillPayload): Promise<BillPayload['lines']> {
  const products = payload.lines.filter(isProduct);
  if (!products.length) throw new BizError('ProductionOrderNeedsProduct');
  const unnamed = payload.lines.findIndex((l) => isProcess(l) && !l.processId);
  if (unnamed >= 0) throw refusal('PleaseSelectProcess', {}, { line: unnamed + 1 });
  // A type whose material lines say which product they are for (a production order: its cost run needs it).
  const tagsProduct = decl.lines.some((f) => f.key === 'productId');
  // And which are consumables (its picks may take those freely).
  const typesItems = decl.lines.some((f) => f.key === 'itemType');
  const wantMaterials = !payload.lines.some(isMaterial);
  const wantSteps = !payload.lines.some(isProcess);
  if (!wantMaterials && !wantSteps) return payload.lines;
  const materialIds = [...new Set(products.map((l) => Number(l.materialId)))];
  // Each product's default enabled BOM, for lines that name none; and the main-unit ratio of each product's units.
  const defaults = new Map(
    (
      await rows<{ material_id: string; id: string }>(
        ctx.tx,
        sql`select material_id, id from bom where tenant_id = ${ctx.tenantId} and material_id in (${idList(materialIds)}) and is_default and enabled`,
      )
    ).map((r) => [Number(r.material_id), Number(r.id)]),
  );
  const units = await loadMaterials(ctx.tx, ctx.tenantId, materialIds);
  const chosen = products.map((line) => ({ line, bomId: (line.bomId as number | null | undefined) ?? defaults.get(Number(line.materialId)) }));
  const bomIds = [...new Set(chosen.flatMap((c) => (c.bomId ? [c.bomId] : [])))];
  if (!bomIds.length) return payload.lines;
  const components = wantMaterials
    ? await rows<{ bom_id: string; per: string; material_id: string; unit_id: string | null; quantity: string; loss_rate: string; item_type: string }>(
        ctx.tx,
        sql`select l.bom_id, b.quantity::text as per, l.material_id, l.unit_id, l.quantity::text, l.loss_rate::text, l.item_type
            from bom_line l join bom b on b.tenant_id = l.tenant_id and b.id = l.bom_id
            where l.tenant_id = ${ctx.tenantId} and l.bom_id in (${idList(bomIds)})
            order by l.bom_id, l.sort, l.id`,
      )
    : [];
  // The routing's steps, each with its piece rate (the step's own, else its process's).
  const steps = wantSteps
    ? await rows<{ bom_id: string; process_id: string; team_id: string | null; piece_rate: string }>(
        ctx.tx,
        sql`select b.id as bom_id, s.process_id, s.team_id, coalesce(s.piece_rate, p.piece_rate)::text as piece_rate
            from bom b
            join routing_step s on s.tenant_id = b.tenant_id and s.record_id = b.routing_id
            join process p on p.tenant_id = s.tenant_id and p.id = s.process_id
            where b.tenant_id = ${ctx.tenantId} and b.id in (${idList(bomIds)})
            order by b.id, s.line_no`,
      )
    : [];
  const materials: Line[] = [];
  const processes: Line[] = [];
  for (const { line, bomId } of chosen) {
    if (!bomId) continue;
    const made = mainUnitQuantity(line, units);
    for (const c of components.filter((r) => Number(r.bom_id) === bomId)) {
      // Per BOM quantity of the product, with the component's loss: made ÷ per × quantity × (1 + loss %).
      const need: Micro = mul(mul(div(made, toMicro(c.per)), toMicro(c.quantity)), toMicro(1) + div(toMicro(c.loss_rate), toMicro(100)));
      materials.push({
        role: 'Material',
        materialId: Number(c.material_id),
        unitId: c.unit_id === null ? null : Number(c.unit_id),
        number: microNumber(roundTo(need, 6)),
        warehouseId: null,
        ...(tagsProduct ? { productId: Number(line.materialId) } : {}),
        ...(typesItems ? { itemType: c.item_type } : {}),
      });
    }
    // Every step makes the whole quantity of the product, in the product line's unit.
    for (const step of steps.filter((r) => Number(r.bom_id) === bomId)) {
      processes.push({
        role: 'Process',
        materialId: line.materialId,
        unitId: line.unitId ?? null,
        number: line.number,
        processId: Number(step.process_id),
        teamId: step.team_id === null ? null : Number(step.team_id),
        unitPrice: Number(step.piece_rate),
      });
    }
  }
  // The product lines keep the BOM their materials and steps came from.
  return [...payload.lines.map((line) => (isProduct(line) ? { ...line, bomId: chosen.find((c) => c.line === line)?.bomId ?? null } : line)), ...materials, ...processes];
}

