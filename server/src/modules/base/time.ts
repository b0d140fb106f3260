import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type BusinessDay, type BusinessHoursSave, type TimeSettings, type TimeSlotCreate, type TimeSlotRow, type TimeSlotUpdate } from '@p8/contract/base';
import { businessHours, slotBooking, timeSlot } from '../../db/schema/index.ts';
import { businessDays, minutes } from '../../core/appointment-slots.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllFound } from '../../core/ids.ts';
import type { ServiceContext } from '../../core/service-context.ts';

/*
 * Business hours of the week and the appointment time slots of a day: enabled slots never overlap. Which
 * slot can be booked on a day, and the booking itself, are core/appointment-slots.ts's.
 */

type Slot = typeof timeSlot.$inferSelect;

const toSlotRow = (s: Slot): TimeSlotRow => ({
  id: s.id,
  start: s.start,
  end: s.end,
  capacity: s.capacity,
  sort: s.sort,
  enabled: s.enabled,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export async function getTimeSettings(ctx: ServiceContext): Promise<TimeSettings> {
  const slots = await ctx.tx.select().from(timeSlot).where(eq(timeSlot.tenantId, ctx.tenantId)).orderBy(asc(timeSlot.start), asc(timeSlot.id));
  return { days: await businessDays(ctx.tx, ctx.tenantId), slots: slots.map(toSlotRow) };
}

export async function saveBusinessHours(ctx: ServiceContext, { days }: BusinessHoursSave): Promise<BusinessDay[]> {
  for (const day of days) if (day.open && minutes(day.start) >= minutes(day.end)) throw new BizError('StartTimeMustBeforeEndTime', { additional: day.weekday });
  const before = await businessDays(ctx.tx, ctx.tenantId);
  const now = new Date();
  await ctx.tx
    .insert(businessHours)
    .values(days.map((d) => ({ tenantId: ctx.tenantId, ...d, updatedAt: now })))
    .onConflictDoUpdate({
      target: [businessHours.tenantId, businessHours.weekday],
      set: { open: sql`excluded.open`, start: sql`excluded.start`, end: sql`excluded."end"`, updatedAt: now },
    });
  const after = await businessDays(ctx.tx, ctx.tenantId);
  ctx.audit({ action: 'update', entity: 'business-hours', detail: { before, after } });
  return after;
}

/** Start before end, and no overlap with another enabled slot (touching ends are fine). */
async function assertSlotFits(ctx: ServiceContext, slot: { start: string; end: string; enabled: boolean }, exceptId?: number) {
  if (minutes(slot.start) >= minutes(slot.end)) throw new BizError('StartTimeMustBeforeEndTime');
  if (!slot.enabled) return;
  const others = await ctx.tx
    .select()
    .from(timeSlot)
    .where(and(eq(timeSlot.tenantId, ctx.tenantId), eq(timeSlot.enabled, true), exceptId === undefined ? undefined : ne(timeSlot.id, exceptId)));
  const clash = others.find((o) => minutes(o.start) < minutes(slot.end) && minutes(slot.start) < minutes(o.end));
  if (clash) throw new BizError('TimeSlotOverlap', { additional: `${clash.start}-${clash.end}` });
}

async function findSlot(ctx: ServiceContext, id: number): Promise<Slot> {
  const [row] = await ctx.tx.select().from(timeSlot).where(and(eq(timeSlot.tenantId, ctx.tenantId), eq(timeSlot.id, id))).limit(1);
  if (!row) throw new BizError('TimeSlotNotExist', { additional: id });
  return row;
}

export async function createTimeSlot(ctx: ServiceContext, body: TimeSlotCreate): Promise<TimeSlotRow> {
  await assertSlotFits(ctx, body);
  const [created] = await ctx.tx.insert(timeSlot).values({ ...body, tenantId: ctx.tenantId }).returning();
  const row = toSlotRow(created);
  ctx.audit({ action: 'create', entity: 'time-slot', entityId: created.id, detail: { ...row } });
  return row;
}

export async function updateTimeSlot(ctx: ServiceContext, { id, ...fields }: TimeSlotUpdate): Promise<TimeSlotRow> {
  const before = await findSlot(ctx, id);
  await assertSlotFits(ctx, fields, id);
  const [updated] = await ctx.tx
    .update(timeSlot)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(timeSlot.tenantId, ctx.tenantId), eq(timeSlot.id, id)))
    .returning();
  const row = toSlotRow(updated);
  ctx.audit({ action: 'update', entity: 'time-slot', entityId: id, detail: { before: toSlotRow(before), after: row } });
  return row;
}

export async function deleteTimeSlots(ctx: ServiceContext, ids: number[]) {
  const found = await ctx.tx.select({ id: timeSlot.id }).from(timeSlot).where(and(eq(timeSlot.tenantId, ctx.tenantId), inArray(timeSlot.id, ids)));
  assertAllFound(ids, found, 'TimeSlotNotExist');
  // Orders keep the slot's times (`slot_time`); a slot with appointments still to come is disabled instead.
  const [future] = await ctx.tx
    .select({ slotId: slotBooking.slotId })
    .from(slotBooking)
    .where(and(eq(slotBooking.tenantId, ctx.tenantId), inArray(slotBooking.slotId, ids), sql`${slotBooking.slotDate} >= current_date`, sql`${slotBooking.booked} > 0`))
    .limit(1);
  if (future) throw new BizError('TimeSlotHasAppointments', { additional: future.slotId });
  await ctx.tx.delete(timeSlot).where(and(eq(timeSlot.tenantId, ctx.tenantId), inArray(timeSlot.id, ids)));
  ctx.audit({ action: 'delete', entity: 'time-slot', entityId: ids });
}

export async function enableTimeSlots(ctx: ServiceContext, ids: number[], enabled: boolean) {
  const found = await ctx.tx.select().from(timeSlot).where(and(eq(timeSlot.tenantId, ctx.tenantId), inArray(timeSlot.id, ids)));
  assertAllFound(ids, found, 'TimeSlotNotExist');
  if (enabled) {
    // Each one must fit beside the enabled slots and beside the others being enabled.
    const enabling = found.filter((s) => !s.enabled);
    for (const [index, slot] of enabling.entries()) {
      await assertSlotFits(ctx, { ...slot, enabled: true }, slot.id);
      const clash = enabling.slice(index + 1).find((o) => minutes(o.start) < minutes(slot.end) && minutes(slot.start) < minutes(o.end));
      if (clash) throw new BizError('TimeSlotOverlap', { additional: `${clash.start}-${clash.end}` });
    }
  }
  await ctx.tx.update(timeSlot).set({ enabled, updatedAt: new Date() }).where(and(eq(timeSlot.tenantId, ctx.tenantId), inArray(timeSlot.id, ids)));
  ctx.audit({ action: enabled ? 'enable' : 'disable', entity: 'time-slot', entityId: ids });
}

