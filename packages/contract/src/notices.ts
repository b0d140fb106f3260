/**
 * Messages the system sends staff (office messages, the header bell) are stored as a notice key with its
 * values, and written out in the reader's language when read — a message stored in one language would stay
 * Chinese for an English reader. `{name}` is replaced by the value of that name; the appointment phrase is
 * added only when the order has an appointment.
 */
export type NoticeLang = 'zh' | 'en';

interface NoticeText {
  title: Record<NoticeLang, string>;
  content: Record<NoticeLang, string>;
}

export const NOTICES = {
  /** A new mall order, to staff with new-order notification on who may open the mall's orders. */
  mallOrderNew: {
    title: { zh: '新商城订单 {orderNo}', en: 'New mall order {orderNo}' },
    content: { zh: '{customerName} 下了商城订单，共 {itemCount} 件（{firstItemName} 等），应付 {payAmount}，收货人 {consignee}。', en: '{customerName} placed a mall order of {itemCount} item(s) ({firstItemName}…), {payAmount} to pay, consignee {consignee}.' },
  },
  /** A new service order, to staff with new-order notification on who may open the service orders. */
  serviceOrderNew: {
    title: { zh: '新服务订单 {orderNo}', en: 'New service order {orderNo}' },
    content: { zh: '{customerName} 下了服务订单「{serviceName}」{appointment}，地址：{address}。', en: '{customerName} placed the service order “{serviceName}”{appointment}, address: {address}.' },
  },
  /** A service order dispatched (or re-dispatched) to its assignee. */
  serviceOrderDispatched: {
    title: { zh: '派给您的服务订单 {orderNo}', en: 'Service order {orderNo} dispatched to you' },
    content: {
      zh: '服务订单「{serviceName}」已派给您{appointment}：客户 {customerName}，电话 {customerPhone}，地址：{address}。',
      en: 'The service order “{serviceName}” was dispatched to you{appointment}: customer {customerName}, phone {customerPhone}, address: {address}.',
    },
  },
  /** A bill under joint review waits for this reviewer (at submit; in order, when the previous one approved). */
  billReview: {
    title: { zh: '待审核：{typeZh} {billCode}', en: 'To review: {typeEn} {billCode}' },
    content: { zh: '{sender} 提交的{typeZh} {billCode} 等待您审核。', en: '{typeEn} {billCode} submitted by {sender} awaits your review.' },
  },
  /** A bill was approved by someone other than its creator. */
  billApproved: {
    title: { zh: '已审核：{typeZh} {billCode}', en: 'Approved: {typeEn} {billCode}' },
    content: { zh: '您的{typeZh} {billCode} 已由 {sender} 审核通过。', en: 'Your {typeEn} {billCode} was approved by {sender}.' },
  },
  /** A bill was refused by someone other than its creator. */
  billRefused: {
    title: { zh: '已驳回：{typeZh} {billCode}', en: 'Refused: {typeEn} {billCode}' },
    content: { zh: '您的{typeZh} {billCode} 被 {sender} 驳回，原因：{reason}', en: 'Your {typeEn} {billCode} was refused by {sender}: {reason}' },
  },
  /**
   * A day's attendance anomalies (late, left early, absent, missing punches), to the person — and to their
   * department's manager (`{person}` names them) — from the system, the day after.
   */
  attendanceAnomaly: {
    title: { zh: '考勤异常：{date}', en: 'Attendance anomaly: {date}' },
    content: {
      zh: '{person} {date} 的考勤：{anomaliesZh}。如有疑问请申请补卡或联系考勤管理员。',
      en: "{person}'s attendance on {date}: {anomaliesEn}. Apply for a replacement clock-in or ask the attendance administrator if this is wrong.",
    },
  },
  /** A task was audited: to each of its assignees (docs/office.md). */
  taskAssigned: {
    title: { zh: '新任务：{title}', en: 'New task: {title}' },
    content: { zh: '{sender} 给您安排了任务 {billCode}「{title}」，截止日期 {dueDate}。', en: '{sender} assigned you the task {billCode} “{title}”, due {dueDate}.' },
  },
  /** A task not finished comes within its reminder days of its due date: once to each assignee. */
  taskDueSoon: {
    title: { zh: '任务即将到期：{title}', en: 'Task due soon: {title}' },
    content: { zh: '任务 {billCode}「{title}」将于 {dueDate} 到期，请及时处理。', en: 'The task {billCode} “{title}” is due on {dueDate}.' },
  },
  /** A task not finished is past its due date: once to each assignee. */
  taskOverdue: {
    title: { zh: '任务已逾期：{title}', en: 'Task overdue: {title}' },
    content: { zh: '任务 {billCode}「{title}」已于 {dueDate} 到期，仍未完成。', en: 'The task {billCode} “{title}” was due on {dueDate} and is not finished.' },
  },
  /** A task was completed by someone other than its creator: to the creator. */
  taskCompleted: {
    title: { zh: '任务已完成：{title}', en: 'Task completed: {title}' },
    content: { zh: '{sender} 完成了任务 {billCode}「{title}」。', en: '{sender} completed the task {billCode} “{title}”.' },
  },
  /** A task was terminated by someone other than its creator: to the creator. */
  taskTerminated: {
    title: { zh: '任务已终止：{title}', en: 'Task terminated: {title}' },
    content: { zh: '{sender} 终止了任务 {billCode}「{title}」，原因：{reason}', en: '{sender} terminated the task {billCode} “{title}”: {reason}' },
  },
} as const satisfies Record<string, NoticeText>;

export type NoticeKey = keyof typeof NOTICES;

/** A stored notice: its key and values (plain text). */
export interface Notice {
  key: NoticeKey;
  params: Record<string, string>;
}

const APPOINTMENT: Record<NoticeLang, string> = { zh: '，预约 {appointmentDate} {slotTime}', en: ', booked for {appointmentDate} {slotTime}' };

const fill = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');

/** The notice's title and content in `lang`. */
export function renderNotice(notice: Notice, lang: NoticeLang): { title: string; content: string } {
  const text: NoticeText | undefined = NOTICES[notice.key];
  if (!text) return { title: '', content: '' };
  const params = { ...notice.params, appointment: notice.params.appointmentDate ? fill(APPOINTMENT[lang], notice.params).trimEnd() : '' };
  return { title: fill(text.title[lang], params), content: fill(text.content[lang], params) };
}
