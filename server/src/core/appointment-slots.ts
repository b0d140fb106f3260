import { and, asc, eq, sql } from 'drizzle-orm';
import { WEEKDAYS, type BusinessDay, type SlotAvailability } from '@p8/contract/base';
import type { Tx } from '../db/connection.ts';
import { businessHours, slotBooking, timeSlot } from '../db/schema/index.ts';
import { BizError } from './errors.ts';
import type { ServiceContext } from './service-context.ts';

/*
 * Appointments: which time slots (base → business hours) can be booked on a day, and booking them. Kept
 * in core because the base content screens keep the slots and the service orders book them. A slot is
 * bookable on a day when it is enabled, the day is open and the slot lies inside that day's hours.
 * Booking is one conditional upsert on `slot_booking` (see its table), so a slot's capacity holds under
 * parallel orders.
 */

type Slot = typeof timeSlot.$inferSelect;

/** A day never saved: open 09:00–18:00 on weekdays, closed at the weekend. */
export const defaultDay = (weekday: number): BusinessDay => ({ weekday, open: weekday <= 5, start: '09:00', end: '18:00' });

/** Minutes since midnight of `HH:mm` (24:00 is the day's end). */
export const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export async function businessDays(tx: Tx, tenantId: number): Promise<BusinessDay[]> {
  const stored = await tx.select().from(businessHours).where(eq(businessHours.tenantId, tenantId));
  const byDay = new Map(stored.map((d) => [d.weekday, { weekday: d.weekday, open: d.open, start: d.start, end: d.end }]));
  return WEEKDAYS.map((weekday) => byDay.get(weekday) ?? defaultDay(weekday));
}

async function findSlot(ctx: ServiceContext, id: number): Promise<Slot> {
  const [row] = await ctx.tx.select().from(timeSlot).where(and(eq(timeSlot.tenantId, ctx.tenantId), eq(timeSlot.id, id))).limit(1);
  if (!row) throw new BizError('TimeSlotNotExist', { additional: id });
  return row;
}

/** ISO weekday (1 Monday … 7 Sunday) of a `YYYY-MM-DD` day, which must exist in the calendar. */
function weekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw new BizError('DateOutOfRange', { additional: date });
  return day.getUTCDay() === 0 ? 7 : day.getUTCDay();
}

/** A slot usable on a day: enabled, the day open, the slot inside that day's business hours. */
function usable(day: BusinessDay, slot: Slot): boolean {
  return slot.enabled && day.open && minutes(day.start) <= minutes(slot.start) && minutes(slot.end) <= minutes(day.end);
}

export async function slotAvailability(ctx: ServiceContext, date: string): Promise<SlotAvailability> {
  const weekday = weekdayOf(date);
  const day = (await businessDays(ctx.tx, ctx.tenantId))[weekday - 1];
  const slots = await ctx.tx.select().from(timeSlot).where(eq(timeSlot.tenantId, ctx.tenantId)).orderBy(asc(timeSlot.start), asc(timeSlot.id));
  const booked = await ctx.tx
    .select({ slotId: slotBooking.slotId, booked: slotBooking.booked })
    .from(slotBooking)
    .where(and(eq(slotBooking.tenantId, ctx.tenantId), eq(slotBooking.slotDate, date)));
  const bookedBySlot = new Map(booked.map((b) => [b.slotId, b.booked]));
  return {
    date,
    open: day.open,
    slots: slots
      .filter((s) => usable(day, s))
      .map((s) => {
        const taken = bookedBySlot.get(s.id) ?? 0;
        return { id: s.id, start: s.start, end: s.end, capacity: s.capacity, booked: taken, left: Math.max(0, s.capacity - taken) };
      }),
  };
}

/**
 * Takes one place of a slot on a day for an order, in the caller's transaction; answers the slot's
 * `HH:mm-HH:mm`. Refused when the slot cannot be booked that day or is full. The upsert adds one only
 * while `booked < capacity`, and holds the row's lock until the transaction ends.
 */
export async function bookSlot(ctx: ServiceContext, date: string, slotId: number): Promise<string> {
  const slot = await findSlot(ctx, slotId);
  const day = (await businessDays(ctx.tx, ctx.tenantId))[weekdayOf(date) - 1];
  if (!usable(day, slot)) throw new BizError('TimeSlotNotAvailable', { additional: `${date} ${slot.start}-${slot.end}` });
  const taken = await ctx.tx
    .insert(slotBooking)
    .values({ tenantId: ctx.tenantId, slotDate: date, slotId, booked: 1 })
    .onConflictDoUpdate({
      target: [slotBooking.tenantId, slotBooking.slotDate, slotBooking.slotId],
      set: { booked: sql`${slotBooking.booked} + 1` },
      setWhere: sql`${slotBooking.booked} < ${slot.capacity}`,
    })
    .returning({ booked: slotBooking.booked });
  if (!taken.length) throw new BizError('TimeSlotFull', { additional: `${date} ${slot.start}-${slot.end}` });
  return `${slot.start}-${slot.end}`;
}

/** Gives an order's place back (a cancel). */
export async function releaseSlot(ctx: ServiceContext, date: string, slotId: number) {
  await ctx.tx
    .update(slotBooking)
    .set({ booked: sql`greatest(${slotBooking.booked} - 1, 0)` })
    .where(and(eq(slotBooking.tenantId, ctx.tenantId), eq(slotBooking.slotDate, date), eq(slotBooking.slotId, slotId)));
}
