import { clockTime } from '../people.ts';
import { storableText } from '../text.ts';
import { dateSchema, type FieldDecl } from './fields.ts';
import { POSTS_NOTHING, type BillTypeDecl } from './registry.ts';

/**
 * People's bills (docs/people.md, "Replacement clock-in"):
 * - `Replacement` (补卡申请): the creator asks for a punch at a time of a past day whose check was missed. Its
 *   rules are the people module's (server/src/modules/people/replacement.ts): the day's result must be a missing
 *   punch or absent (late / early too where the creator's attendance group allows it), within the group's time
 *   limit, at most the group's count a month counting requests still under review, never a future day. Auditing
 *   it — plainly or through joint review — records the punch (marked as a replacement, naming the bill), so the
 *   day is judged again at once; withdrawing the audit takes the punch away.
 */

export const replaceDate: FieldDecl = {
  key: 'replaceDate',
  label: { zh: '补卡日期', en: 'Day to replace' },
  kind: 'date',
  schema: dateSchema,
  required: 'PleaseSelectReplacementDate',
  list: true,
  width: 120,
};

export const replaceTime: FieldDecl = {
  key: 'replaceTime',
  label: { zh: '补卡时间', en: 'Time to replace' },
  kind: 'text',
  schema: clockTime,
  required: 'PleaseInputReplacementTime',
  list: true,
  width: 100,
  example: '18:00',
};

export const replaceReason: FieldDecl = {
  key: 'replaceReason',
  label: { zh: '补卡原因', en: 'Reason' },
  kind: 'text',
  schema: storableText().trim().min(1, { message: 'PleaseInputReplacementReason' }).max(200),
  required: 'PleaseInputReplacementReason',
  list: true,
  search: 'contains',
  width: 200,
};

export const Replacement: BillTypeDecl = {
  type: 'Replacement',
  label: { zh: '补卡申请', en: 'Replacement clock-in' },
  area: 'people',
  route: 'replacement',
  codePrefix: 'BK',
  icon: 'FieldTimeOutlined',
  header: [replaceDate, replaceTime, replaceReason],
  creatorColumn: { zh: '申请人', en: 'Requested by' },
  lines: [],
  lineKind: 'none',
  sources: [],
  stock: 'none',
  postings: POSTS_NOTHING,
  progress: [],
  switches: [],
  actions: ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'],
};

export const PEOPLE_BILLS: readonly BillTypeDecl[] = [Replacement];
