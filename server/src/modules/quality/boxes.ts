import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { toMicro, type Micro } from '@p8/contract/bills/decimal';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import type { BillStatus } from '@p8/contract/bills/status';
import type { BoxCreate, InspectionBox } from '@p8/contract/quality';
import { readTenantConfig } from '../../core/tenant-config.ts';
import { BizError, refusal } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { rows, type Tx } from '../../db/connection.ts';
import { textList } from '../../core/tree.ts';
import { inspectionBox, material } from '../../db/schema/index.ts';
import { loadBill } from '../../bills/bill-rows.ts';
import { transition } from '../../bills/state-machine.ts';

/*
 * Inspection packing (检验装箱, docs/quality.md): while an inspection of a type that `packs` is being written (it
 * may still be saved), its lines' accepted goods — accepted and concession — go into boxes: a quantity each and,
 * for a material with serial numbers, the serials inside (as many as the quantity, none in another box). The
 * boxes of a line never hold more than it accepts, now or when the inspection is submitted; with the tenant's
 * `packageResultLimitSubmit` they hold all of it by then. Packing and unpacking lock the inspection as saving it
 * does, so they and a save of the bill take turns.
 */

/** A line's accepted goods (accepted + concession), in its own unit. */
const acceptedOf = (extra: Record<string, unknown>) => toMicro(String(extra.acceptedNumber ?? 0)) + toMicro(String(extra.concessionNumber ?? 0));

interface PackedLine {
  line_no: number;
  material_id: string;
  extra: Record<string, unknown>;
  serial: boolean;
  packed: string;
}

/** Each line of inspection `billId` with what its boxes hold. */
async function packedLines(tx: Tx, tenantId: number, billId: number): Promise<PackedLine[]> {
  return rows<PackedLine>(
    tx,
    sql`select l.line_no, l.material_id, l.extra, m.serial_number as serial,
               coalesce((select sum(x.quantity) from inspection_box x where x.tenant_id = l.tenant_id and x.bill_id = l.bill_id and x.line_no = l.line_no), 0)::text as packed
        from bill_line l join material m on m.tenant_id = l.tenant_id and m.id = l.material_id
        where l.tenant_id = ${tenantId} and l.bill_id = ${billId} order by l.line_no`,
  );
}

/** The inspection, locked, while it may still be saved (boxes change with it). */
async function editableInspection(ctx: ServiceContext, decl: BillTypeDecl, billId: number) {
  const row = await loadBill(ctx, decl, billId, true);
  transition(row.billStatus as BillStatus, 'save');
  return row;
}

export async function listBoxes(ctx: ServiceContext, decl: BillTypeDecl, billId: number): Promise<InspectionBox[]> {
  await loadBill(ctx, decl, billId);
  const found = await ctx.tx
    .select({ box: inspectionBox, materialCode: material.code, materialName: material.name, specification: material.specification })
    .from(inspectionBox)
    .innerJoin(material, and(eq(material.tenantId, inspectionBox.tenantId), eq(material.id, inspectionBox.materialId)))
    .where(and(eq(inspectionBox.tenantId, ctx.tenantId), eq(inspectionBox.billId, billId)))
    .orderBy(asc(inspectionBox.lineNo), asc(inspectionBox.id));
  return found.map(({ box, materialCode, materialName, specification }) => ({
    id: box.id,
    code: box.code,
    billId: box.billId,
    lineNo: box.lineNo,
    materialId: box.materialId,
    materialCode,
    materialName,
    specification: specification ?? '',
    quantity: box.quantity,
    serialNumbers: box.serialNumbers,
    createdAt: box.createdAt.toISOString(),
  }));
}

export async function packBox(ctx: ServiceContext, decl: BillTypeDecl, body: BoxCreate): Promise<{ id: number; code: string }> {
  const { tx, tenantId } = ctx;
  const inspection = await editableInspection(ctx, decl, body.billId);
  const line = (await packedLines(tx, tenantId, body.billId)).find((l) => l.line_no === body.lineNo);
  if (!line) throw new BizError('BillLineNotExist', { additional: body.lineNo });
  const materialId = Number(line.material_id);
  const quantity = toMicro(String(body.quantity));
  const have = acceptedOf(line.extra);
  if (toMicro(line.packed) + quantity > have) throw refusal('PackageExceedsAccepted', { materialId }, { line: body.lineNo, need: toMicro(line.packed) + quantity, have });
  const serials = body.serialNumbers;
  if (serials.length && !line.serial) throw new BizError('SerialNumberNotManaged', { additional: serials[0] });
  if (line.serial) {
    if (toMicro(String(serials.length)) !== quantity) throw new BizError('SerialNumberCountMismatch', { additional: `${serials.length}` });
    const repeated = serials.find((s, i) => serials.indexOf(s) !== i);
    if (repeated) throw new BizError('SerialNumberRepeat', { additional: repeated });
    const wanted = sql`array[${textList(serials)}]::text[]`;
    const [boxed] = await rows<{ serial: string }>(
      tx,
      sql`select s as serial from inspection_box x cross join unnest(x.serial_numbers) s
          where x.tenant_id = ${tenantId} and x.material_id = ${materialId} and x.serial_numbers && ${wanted} and s = any(${wanted})
          limit 1`,
    );
    if (boxed) throw new BizError('SerialNumberIsBoxed', { additional: boxed.serial });
  }
  const count = await rows<{ n: string }>(tx, sql`select count(*)::text as n from inspection_box where tenant_id = ${tenantId} and bill_id = ${body.billId}`);
  const code = body.code ?? `${inspection.billCode}-${Number(count[0].n) + 1}`;
  const [taken] = await tx.select({ id: inspectionBox.id }).from(inspectionBox).where(and(eq(inspectionBox.tenantId, tenantId), eq(inspectionBox.code, code))).limit(1);
  if (taken) throw new BizError('BoxCodeRepeat', { additional: code });
  const [row] = await tx
    .insert(inspectionBox)
    .values({ tenantId, code, billId: body.billId, lineNo: body.lineNo, materialId, quantity: String(body.quantity), serialNumbers: serials, createdBy: ctx.account.adminId })
    .returning({ id: inspectionBox.id, code: inspectionBox.code });
  ctx.audit({ action: 'create', entity: 'inspection-box', entityId: row.id, detail: { billId: body.billId, lineNo: body.lineNo, quantity: body.quantity, serials: serials.length } });
  return row;
}

export async function unpackBoxes(ctx: ServiceContext, decl: BillTypeDecl, billId: number, ids: number[]): Promise<void> {
  await editableInspection(ctx, decl, billId);
  const found = await ctx.tx
    .select({ id: inspectionBox.id })
    .from(inspectionBox)
    .where(and(eq(inspectionBox.tenantId, ctx.tenantId), eq(inspectionBox.billId, billId), inArray(inspectionBox.id, ids)));
  if (found.length !== new Set(ids).size) throw new BizError('BoxNotExist', { additional: ids.find((id) => !found.some((f) => f.id === id)) });
  await ctx.tx.delete(inspectionBox).where(and(eq(inspectionBox.tenantId, ctx.tenantId), inArray(inspectionBox.id, ids)));
  ctx.audit({ action: 'delete', entity: 'inspection-box', detail: { billId, ids } });
}

/**
 * Submit and audit of an inspection that packs: no line's boxes hold more than it accepts (it may have been
 * saved with less since), and with `packageResultLimitSubmit` they hold all of it.
 */
export async function packingComplete(ctx: ServiceContext, billId: number): Promise<void> {
  const whole = (await readTenantConfig(ctx.tx, ctx.tenantId)).packageResultLimitSubmit;
  for (const line of await packedLines(ctx.tx, ctx.tenantId, billId)) {
    const have: Micro = acceptedOf(line.extra);
    const packed = toMicro(line.packed);
    const refs = { materialId: Number(line.material_id) };
    if (packed > have) throw refusal('PackageExceedsAccepted', refs, { line: line.line_no, need: packed, have });
    if (whole && packed < have) throw refusal('PackageResultIncomplete', refs, { line: line.line_no, need: have, have: packed });
  }
}
