import { z } from 'zod';
import { richText } from './rich-text.ts';
import { storableText } from './text.ts';

/**
 * Base content of the customer-facing side: swiper (carousel) slides, agreements shown to customers,
 * business hours and appointment time slots, and the installation's public system config edited by the
 * platform administrator (GET /base/system/config reads it).
 */
const id = z.number().int().positive();

// ---------------------------------------------------------------- swiper

/** A slide's link: empty, a path inside the customer app (/…) or an http(s) address. */
const link = z.union([z.literal(''), storableText().trim().max(500).regex(/^(\/|https?:\/\/)\S*$/, { message: 'LinkFormatError' })]);
/** An image address from the upload path: a path on our server (/…) or an http(s) address. */
const imageUrl = storableText().trim().min(1, { message: 'PleaseUploadImage' }).max(500).regex(/^(\/|https?:\/\/)\S*$/, { message: 'PleaseUploadImage' });

const swiperFields = {
  title: storableText().trim().min(1, { message: 'PleaseInputTitle' }).max(50),
  image: imageUrl,
  link: link.default(''),
  sort: z.number().int().min(0).max(99999).default(0),
  enabled: z.boolean().default(true),
};
export const swiperCreateSchema = z.object(swiperFields);
export type SwiperCreate = z.infer<typeof swiperCreateSchema>;
export const swiperUpdateSchema = z.object({ id, ...swiperFields });
export type SwiperUpdate = z.infer<typeof swiperUpdateSchema>;

export interface SwiperRow {
  id: number;
  title: string;
  image: string;
  link: string;
  sort: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------- agreements

/** The agreements a customer accepts: the user agreement and the privacy policy. */
export const AgreementKind = ['user', 'privacy'] as const;
export type AgreementKind = (typeof AgreementKind)[number];

/** Rich text (HTML), sanitised by the server as the request is validated (`richText`). */
export const agreementSaveSchema = z.object({
  kind: z.enum(AgreementKind),
  title: storableText().trim().min(1, { message: 'PleaseInputTitle' }).max(100),
  content: richText(200_000).default(''),
});
export type AgreementSave = z.infer<typeof agreementSaveSchema>;

export interface AgreementRow {
  kind: AgreementKind;
  title: string;
  content: string;
  /** null: never saved (the default title and empty content). */
  updatedAt: string | null;
  updatedByName: string;
}

// ---------------------------------------------------------------- business hours and time slots

/** `HH:mm`, 00:00–24:00. */
export const TIME_PATTERN = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const time = storableText().regex(TIME_PATTERN, { message: 'TimeFormatError' });

/** Weekdays 1 (Monday) … 7 (Sunday). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export const businessDaySchema = z.object({
  weekday: z.number().int().min(1).max(7),
  open: z.boolean(),
  start: time,
  end: time,
});
export type BusinessDay = z.infer<typeof businessDaySchema>;

/** PUT /admin/base/time/hours: the seven days, each once. */
export const businessHoursSaveSchema = z.object({
  days: z
    .array(businessDaySchema)
    .length(7)
    .refine((days) => new Set(days.map((d) => d.weekday)).size === 7, { message: 'BadRequest' }),
});
export type BusinessHoursSave = z.infer<typeof businessHoursSaveSchema>;

const slotFields = {
  start: time,
  end: time,
  /** Appointments one slot takes on one day. */
  capacity: z.number().int().min(1).max(9999),
  sort: z.number().int().min(0).max(99999).default(0),
  enabled: z.boolean().default(true),
};
export const timeSlotCreateSchema = z.object(slotFields);
export type TimeSlotCreate = z.infer<typeof timeSlotCreateSchema>;
export const timeSlotUpdateSchema = z.object({ id, ...slotFields });
export type TimeSlotUpdate = z.infer<typeof timeSlotUpdateSchema>;

export interface TimeSlotRow {
  id: number;
  start: string;
  end: string;
  capacity: number;
  sort: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /admin/base/time: business hours of the week and the appointment time slots. */
export interface TimeSettings {
  days: BusinessDay[];
  slots: TimeSlotRow[];
}

/** GET /admin/base/time/available?date=: the enabled slots of one day with what is left of each. */
export const slotAvailabilityQuerySchema = z.object({ date: storableText().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'DateOutOfRange' }) });
export interface SlotAvailability {
  date: string;
  /** The day's business hours (open false: closed that day, no slot can be booked). */
  open: boolean;
  slots: Array<{ id: number; start: string; end: string; capacity: number; booked: number; left: number }>;
}

// ---------------------------------------------------------------- public system config

/**
 * What the platform administrator sets (PUT /admin/base/config): the texts and images the login page,
 * the shell and the customer side show, and the two public switches. Everything else of the public config
 * (upload type and domain, formats, template links) follows the installation's settings.
 */
const assetUrl = z.union([z.literal(''), storableText().trim().max(500).regex(/^(\/|https?:\/\/)\S*$/, { message: 'PleaseUploadImage' })]);
export const platformConfigSchema = z.object({
  system_title: storableText().trim().min(1, { message: 'PleaseInputTitle' }).max(50),
  system_icon: assetUrl,
  logo: assetUrl,
  shortName: storableText().trim().max(20),
  icp: storableText().trim().max(100),
  customerServiceQrCode: assetUrl,
  translateUrl: z.union([z.literal(''), storableText().trim().max(500).regex(/^https?:\/\/\S+$/, { message: 'LinkFormatError' })]),
  openRegister: z.boolean(),
  openAppointment: z.boolean(),
});
export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** GET /admin/base/config: the stored values and whether the caller may change them. */
export interface PlatformConfigView extends PlatformConfig {
  editable: boolean;
  updatedAt: string | null;
}
