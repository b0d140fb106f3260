import { z } from 'zod';
import { billType } from './bills/catalogue.ts';
import { richText } from './rich-text.ts';
import { nameText, storableText } from './text.ts';

/**
 * Office screens of the system area: the message center (messages between staff — sender and receiver
 * differ; only the sender deletes a message, the receiver hides it — and the system's notices), cloud
 * printers with their catalogued errors, and joint review rules.
 */
const id = z.number().int().positive();

// ---------------------------------------------------------------- messages

/** Which side of the conversation a list shows. */
export const MessageBox = ['inbox', 'outbox'] as const;
export type MessageBox = (typeof MessageBox)[number];

export const messageSendSchema = z.object({
  receiverIds: z
    .array(id)
    .min(1, { message: 'PleaseSelectStaff' })
    .max(500)
    .refine((list) => new Set(list).size === list.length, { message: 'BadRequest' }),
  title: storableText().trim().min(1, { message: 'PleaseInputTitle' }).max(100),
  /** Rich text: stored sanitised (see rich-text.ts). */
  content: richText(20000).default(''),
});
export type MessageSend = z.infer<typeof messageSendSchema>;

export interface MessageRow {
  id: number;
  /** Null: a notice the system itself sent (senderName is then "系统" / "System"). */
  senderId: number | null;
  senderName: string;
  receiverId: number;
  receiverName: string;
  title: string;
  content: string;
  isRead: boolean;
  readAt: string | null;
  /** A system notice (contract notices.ts), written out in the reader's language: never deleted, only hidden. */
  isNotice: boolean;
  createdAt: string;
}

// ---------------------------------------------------------------- printers

/** Cloud printer providers a printer can be registered with. */
export const PrinterProvider = ['feie', 'yilianyun'] as const;
export type PrinterProvider = (typeof PrinterProvider)[number];

const printerFields = {
  name: nameText(50),
  provider: z.enum(PrinterProvider),
  sn: storableText().trim().min(1, { message: 'PleaseInputPrinterSn' }).max(64),
  copies: z.number().int().min(1).max(9).default(1),
  remark: storableText().max(200).nullish(),
  enabled: z.boolean().default(true),
};

export const printerCreateSchema = z.object({
  ...printerFields,
  printerKey: storableText().trim().min(1, { message: 'PleaseInputPrinterKey' }).max(128),
});
export type PrinterCreate = z.infer<typeof printerCreateSchema>;

/** An update keeps the stored key unless a new one is sent (the client only ever sees it masked). */
export const printerUpdateSchema = z.object({
  id,
  ...printerFields,
  printerKey: storableText().trim().max(128).optional(),
});
export type PrinterUpdate = z.infer<typeof printerUpdateSchema>;

export const printerTestSchema = z.object({ id });

export interface PrinterRow {
  id: number;
  name: string;
  provider: PrinterProvider;
  sn: string;
  /** Masked: the first and last two characters at most, never the whole key. */
  printerKey: string;
  copies: number;
  remark: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------- joint review

export const AuditType = ['AnyVerify', 'AllVerify'] as const;
export type AuditType = (typeof AuditType)[number];

const verifyRuleFields = {
  /** A bill type of the bill registry (bills/catalogue.ts), e.g. PurchaseOrder. */
  billType: z
    .string()
    .trim()
    .min(1, { message: 'PleaseSelectBillType' })
    .max(50)
    .refine((type) => billType(type) !== undefined, { message: 'PleaseSelectBillType' }),
  auditType: z.enum(AuditType),
  /** Reviewers must review in the listed order. */
  sequential: z.boolean().default(false),
  enabled: z.boolean().default(true),
  remark: storableText().max(200).nullish(),
  /** Staff of the tenant, in review order; at least one. */
  reviewerIds: z
    .array(id)
    .min(1, { message: 'PleaseSelectReviewer' })
    .max(50)
    .refine((list) => new Set(list).size === list.length, { message: 'BadRequest' }),
};

export const verifyRuleCreateSchema = z.object(verifyRuleFields);
export type VerifyRuleCreate = z.infer<typeof verifyRuleCreateSchema>;
export const verifyRuleUpdateSchema = z.object({ id, ...verifyRuleFields });
export type VerifyRuleUpdate = z.infer<typeof verifyRuleUpdateSchema>;

export interface VerifyRuleRow {
  id: number;
  billType: string;
  auditType: AuditType;
  sequential: boolean;
  enabled: boolean;
  remark: string | null;
  reviewers: Array<{ adminId: number; name: string; realName: string; sort: number }>;
  /** The reviewers' ids in review order, as a save sends them (an update's audit compares them). */
  reviewerIds: number[];
  createdAt: string;
  updatedAt: string;
}
