import { storableText } from '../text.ts';
import { HEADER, LINE, moneyAmountSchema, type FieldDecl } from './fields.ts';
import type { BillAction, BillTypeDecl } from './registry.ts';

/**
 * Salaries and wages (finance area), after ERPNext's Salary Slip and Payroll Entry, for a small company:
 * - `Salary` (工资单): one bill per pay period (`salaryPeriod`, a month) with a line per staff member — pay
 *   items (base pay, bonus and allowances) less deductions (social insurance, income tax, other) give the
 *   net pay, the line's amount, computed by the engine (`lineAmount`). Auditing it posts Dr 6602 (the gross)
 *   / Cr 2211 salaries payable (the net) / Cr 2241 other payables (what was withheld); piece wages, taken from
 *   the period's audited piece-rate accounting, are debited to production cost (5001) instead. A staff member
 *   is paid at most once per period across audited salary bills.
 * - `SalaryPayment` (工资发放): pays audited salary bills from a fund account (settlement lines, pushed down
 *   from the salary bills): Dr 2211 / Cr the fund. It writes the salary bill off (its progress `settlement`,
 *   by amount), and a written-off salary bill keeps its audit (`SalaryWrittenOffProhibitAbandonAudit`).
 * Their rules and postings are the finance module's (server/src/modules/finance/salary.ts, docs/finance.md).
 */

const ACTIONS: BillAction[] = ['add', 'update', 'delete', 'submit', 'audit', 'abandonAudit', 'export', 'print'];

/** `YYYY-MM`: the month the salary is for. */
export const salaryPeriodSchema = storableText().regex(/^(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])$/, { message: 'SalaryPeriodInvalid' });

export const salaryPeriod: FieldDecl = {
  key: 'salaryPeriod',
  label: { zh: '工资月份', en: 'Pay period' },
  kind: 'month',
  schema: salaryPeriodSchema,
  required: 'PleaseSelectSalaryPeriod',
  list: true,
  width: 110,
};

/** A pay item or deduction of a line: money, never negative. */
const part = (key: string, zh: string, en: string): FieldDecl => ({
  key,
  label: { zh, en },
  kind: 'amount',
  schema: moneyAmountSchema.refine((v) => Number(v) >= 0, { message: 'SalaryAmountNegative' }),
  sum: true,
  width: 120,
});

/**
 * Piece wages (计件工资): what the pay period's audited piece-rate accounting (工序核算) gives the staff member —
 * filled in when the bill is saved, never typed (docs/production.md, "Piece wages").
 */
export const PIECE_WAGE: FieldDecl = { ...part('pieceWage', '计件工资', 'Piece wages'), readOnly: true };
export const SALARY_ITEMS = [part('basePay', '基本工资', 'Base pay'), PIECE_WAGE, part('bonus', '奖金津贴', 'Bonus and allowances')] as const;
export const SALARY_DEDUCTIONS = [part('socialInsurance', '社保公积金', 'Social insurance'), part('incomeTax', '个人所得税', 'Income tax'), part('otherDeduction', '其他扣款', 'Other deductions')] as const;

/** The net pay: computed from the items and deductions (read-only on the screen). */
const netPay: FieldDecl = { ...LINE.amount, label: { zh: '实发工资', en: 'Net pay' }, readOnly: true, required: undefined };

export const Salary: BillTypeDecl = {
  type: 'Salary',
  label: { zh: '工资单', en: 'Salary' },
  area: 'finance',
  route: 'salary',
  codePrefix: 'GZ',
  icon: 'IdcardOutlined',
  header: [salaryPeriod, HEADER.handlerId, HEADER.deptId],
  lines: [...SALARY_ITEMS, ...SALARY_DEDUCTIONS, netPay],
  lineKind: 'staff',
  lineAmount: { plus: SALARY_ITEMS.map((f) => f.key), minus: SALARY_DEDUCTIONS.map((f) => f.key), negative: 'SalaryNetNegative' },
  sources: [],
  stock: 'none',
  // Piece wages are the workshop's direct labour: production cost (5001), the rest an administrative expense.
  postings: { money: { kind: 'payroll', expense: 'administrativeExpenses', pieceWages: 'workInProgress', payable: 'salariesPayable', withheld: 'withheldFromSalaries' } },
  progress: ['settlement'],
  switches: ['amountRetainsSmallDigit'],
  actions: ACTIONS,
};

export const SalaryPayment: BillTypeDecl = {
  type: 'SalaryPayment',
  label: { zh: '工资发放', en: 'Salary payment' },
  area: 'finance',
  route: 'salaryPayment',
  codePrefix: 'GZFF',
  icon: 'PayCircleOutlined',
  // The fund account is needed from submit on (a pushed-down draft is saved first), as a payment's.
  header: [HEADER.fundAccountId, HEADER.handlerId],
  lines: [],
  lineKind: 'settlement',
  sources: [{ type: 'Salary', drives: 'settlement', header: [], lines: [] }],
  sourceRequired: true,
  stock: 'none',
  postings: { money: { kind: 'payrollPayment', open: 'salariesPayable' } },
  progress: [],
  switches: ['amountRetainsSmallDigit'],
  actions: ACTIONS,
};

export const SALARY_BILLS: readonly BillTypeDecl[] = [Salary, SalaryPayment];
