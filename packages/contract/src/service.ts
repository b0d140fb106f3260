import { z } from 'zod';
import { storableText } from './text.ts';

/**
 * Service orders: a customer's request for a service at an address, optionally booked into an appointment
 * time slot, dispatched to a staff member who carries it out. The status flow (docs/service.md):
 *
 *   PendingDispatch ──dispatch──▶ PendingAudit ──audit pass──▶ PendingService ──start──▶ InService ──complete──▶ Completed
 *          ▲        └─dispatch (dispatchAutoAudit)──────────────────▲   │
 *          └──────────────audit refuse──── PendingAudit              │   └─redispatch─▶ PendingAudit | PendingService
 *   PendingDispatch | PendingAudit | PendingService ──cancel──▶ Cancelled
 */
const id = z.number().int().positive();

export const ServiceOrderStatus = ['PendingDispatch', 'PendingAudit', 'PendingService', 'InService', 'Completed', 'Cancelled'] as const;
export type ServiceOrderStatus = (typeof ServiceOrderStatus)[number];

/** online: placed by the customer; proxy: placed by staff for the customer (proxy orders). */
export const ServiceOrderSource = ['online', 'proxy'] as const;
export type ServiceOrderSource = (typeof ServiceOrderSource)[number];

/** Statuses an order may still be cancelled from (before the service has started). */
export const CANCELLABLE_STATUSES: readonly ServiceOrderStatus[] = ['PendingDispatch', 'PendingAudit', 'PendingService'];
/** Statuses an order may be (re)dispatched from. */
export const DISPATCHABLE_STATUSES: readonly ServiceOrderStatus[] = ['PendingDispatch', 'PendingService'];

const phone = storableText().trim().regex(/^1[3-9]\d{9}$/, { message: 'PhoneFormatError' });
const date = storableText().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'DateOutOfRange' });
const money = z.number().min(0).max(99_999_999).multipleOf(0.01);

/** POST /admin/service/proxyOrder (and the service behind online orders). */
export const serviceOrderCreateSchema = z
  .object({
    serviceName: storableText().trim().min(1, { message: 'PleaseInputServiceName' }).max(100),
    customerName: storableText().trim().min(1, { message: 'PleaseInputCustomerName' }).max(50),
    customerPhone: phone,
    address: storableText().trim().min(1, { message: 'PleaseInputAddress' }).max(200),
    amount: money.default(0),
    /** Appointment day and time slot (base/time); both or neither; only while appointments are open. */
    appointmentDate: date.nullish(),
    slotId: id.nullish(),
    remark: storableText().max(500).nullish(),
  })
  .refine((o) => (o.appointmentDate == null) === (o.slotId == null), { message: 'PleaseSelectAppointmentTime', path: ['slotId'] });
export type ServiceOrderCreate = z.infer<typeof serviceOrderCreateSchema>;

export const serviceOrderDispatchSchema = z.object({ id, staffId: id, remark: storableText().max(200).nullish() });
export type ServiceOrderDispatch = z.infer<typeof serviceOrderDispatchSchema>;
export const serviceOrderAuditSchema = z.object({ id, pass: z.boolean(), reason: storableText().trim().max(200).nullish() });
export type ServiceOrderAudit = z.infer<typeof serviceOrderAuditSchema>;
export const serviceOrderCancelSchema = z.object({ id, reason: storableText().trim().min(1, { message: 'PleaseInputCancelReason' }).max(200) });
export type ServiceOrderCancel = z.infer<typeof serviceOrderCancelSchema>;
export const serviceOrderStepSchema = z.object({ id, remark: storableText().max(200).nullish() });
export type ServiceOrderStep = z.infer<typeof serviceOrderStepSchema>;

export interface ServiceOrderRow {
  id: number;
  orderNo: string;
  source: ServiceOrderSource;
  status: ServiceOrderStatus;
  serviceName: string;
  customerName: string;
  customerPhone: string;
  address: string;
  amount: number;
  appointmentDate: string | null;
  slotId: number | null;
  /** `HH:mm-HH:mm` of the booked slot, as it was when booked. */
  slotTime: string | null;
  staffId: number | null;
  staffName: string;
  remark: string | null;
  cancelReason: string | null;
  createdById: number | null;
  createdByName: string;
  createdAt: string;
  dispatchedAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
}

/** One step of an order's timeline. */
export interface ServiceOrderLogRow {
  id: number;
  action: 'create' | 'dispatch' | 'audit_pass' | 'audit_refuse' | 'start' | 'complete' | 'cancel';
  fromStatus: ServiceOrderStatus | null;
  toStatus: ServiceOrderStatus;
  adminId: number | null;
  adminName: string;
  remark: string | null;
  createdAt: string;
}

export interface ServiceOrderDetail extends ServiceOrderRow {
  logs: ServiceOrderLogRow[];
}

/** GET {list}/counts: orders per status under the list's own filters (the status tabs). */
export type ServiceOrderCounts = Record<ServiceOrderStatus | 'all', number>;

// ---------------------------------------------------------------- chat

export const serviceMessageSendSchema = z.object({
  orderId: id,
  content: storableText().trim().min(1, { message: 'PleaseInputContent' }).max(2000),
});
export type ServiceMessageSend = z.infer<typeof serviceMessageSendSchema>;

/** GET /admin/service/message?orderId=&afterId=: an order's messages, oldest first, after `afterId`. */
export const serviceMessageQuerySchema = z.object({
  orderId: z.coerce.number().int().positive(),
  afterId: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type ServiceMessageQuery = z.infer<typeof serviceMessageQuerySchema>;

export interface ServiceMessageRow {
  id: number;
  orderId: number;
  senderId: number;
  senderName: string;
  content: string;
  createdAt: string;
}

// ---------------------------------------------------------------- the live channel (WebSocket /api/ws): order chats and the message center's unread count

/** What a client sends over /api/ws. The first message must be `auth`. */
export const wsClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: storableText().min(1).max(200) }),
  /** Live messages of an order from now on, after the ones since `afterId` (missed while away). */
  z.object({ type: z.literal('subscribe'), orderId: id, afterId: z.number().int().min(0).optional() }),
  z.object({ type: z.literal('unsubscribe'), orderId: id }),
  /** The caller's unread count of the message center (the header bell), now and live after every change. */
  z.object({ type: z.literal('inbox') }),
  z.object({ type: z.literal('ping') }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

/** What the server sends over /api/ws; `error` carries a catalogue key. */
export type WsServerMessage =
  | { type: 'ready'; adminId: number }
  | { type: 'subscribed'; orderId: number }
  | { type: 'message'; message: ServiceMessageRow }
  /** The caller's unread messages (after `inbox`: at once, then whenever a message of theirs is stored, read, hidden or deleted). */
  | { type: 'unread'; count: number }
  | { type: 'pong' }
  /** Live messages may have been missed (the server's link to the other servers came back): read since the last id. */
  | { type: 'resync' }
  | { type: 'error'; message: string; orderId?: number };

// ---------------------------------------------------------------- service staff

/** A skill or an area a technician serves: a short tag. */
const tag = storableText().trim().min(1).max(30);

/**
 * A service staff member (technician): a staff account the orders are dispatched to, with the skills and the
 * areas they serve. Only enabled service staff are offered for dispatch once the tenant has any.
 */
export const serviceStaffCreateSchema = z.object({
  adminId: id,
  skills: z.array(tag).max(20).default([]),
  areas: z.array(tag).max(20).default([]),
  enabled: z.boolean().default(true),
  remark: storableText().trim().max(200).nullish(),
});
export type ServiceStaffCreate = z.infer<typeof serviceStaffCreateSchema>;
export const serviceStaffUpdateSchema = serviceStaffCreateSchema.extend({ id });
export type ServiceStaffUpdate = z.infer<typeof serviceStaffUpdateSchema>;

/** Statuses in which an order is on its assignee's hands (their current load). */
export const OPEN_SERVICE_STATUSES: readonly ServiceOrderStatus[] = ['PendingAudit', 'PendingService', 'InService'];

export interface ServiceStaffRow {
  id: number;
  adminId: number;
  /** The account's real name (or its account name). */
  name: string;
  account: string;
  phone: string;
  deptName: string | null;
  skills: string[];
  areas: string[];
  enabled: boolean;
  remark: string | null;
  /** Orders dispatched to them and not yet completed or cancelled. */
  load: number;
  /** Orders they completed. */
  completed: number;
  createdAt: string;
}
