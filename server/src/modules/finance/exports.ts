import { z } from 'zod';
import { dateSchema } from '@p8/contract/bills/fields';
import { billType } from '@p8/contract/bills/catalogue';
import { AGING_BUCKETS, ledgerQuerySchema, MONEY_TYPE_LABELS, partnerReportQuerySchema, type MoneyType, type PartnerLedgerLine, type PrepaidBalanceRow } from '@p8/contract/finance';
import { EXPORT_MAX_ROWS, exportXlsx, langOf, sendXlsx, type ExcelColumn, type Lang } from '../../core/excel.ts';
import { untransactedRoute, type RouteDeclaration } from '../../core/route.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { listExportRoute, type ListExportColumn } from '../../core/list-export.ts';
import { listPrepaid, partnerAging, partnerLedger, prepaidLedger, trialBalance } from './reports.ts';

/**
 * The finance reports as .xlsx, each `POST <report>/export` with the screen's current query (as the list
 * kit's export button posts it) and titled in the caller's language: receivable and payable with aging, a
 * partner's ledger, prepaid and advance balances and their ledger, the trial balance. Button codes `finance_<screen>_export`.
 */

const URL = '/api/admin/finance';
const tags = ['finance'];
const lang = { lang: z.string().max(10).optional() };
type Side = 'receivable' | 'payable';

const t = (zh: string, en: string) => ({ zh, en });
const SIDE_TEXT = {
  receivable: { title: t('应收账款', 'Receivables'), other: { prop: 'advance', title: t('预收余额', 'Advance balance') }, ledger: t('应收明细账', 'Receivable ledger') },
  payable: { title: t('应付账款', 'Payables'), other: { prop: 'prepaid', title: t('预付余额', 'Prepaid balance') }, ledger: t('应付明细账', 'Payable ledger') },
} as const;

function agingColumns(side: Side): ExcelColumn[] {
  return [
    { prop: 'partnerCode', title: t('编码', 'Code'), width: 14 },
    { prop: 'partnerName', title: side === 'receivable' ? t('客户', 'Customer') : t('供应商', 'Supplier'), width: 24 },
    { prop: 'balance', title: t('余额', 'Balance'), width: 16 },
    { ...SIDE_TEXT[side].other, width: 16 },
    { prop: 'open', title: t('未结算单据金额', 'Open on bills'), width: 16 },
    ...AGING_BUCKETS.map((b) => ({ prop: b.key, title: b.label, width: 14 })),
  ];
}

const LEDGER_COLUMNS: ExcelColumn[] = [
  { prop: 'date', title: t('日期', 'Date'), width: 12 },
  { prop: 'sourceCode', title: t('单据编号', 'Document'), width: 20 },
  { prop: 'what', title: t('摘要', 'Memo'), width: 20 },
  { prop: 'increase', title: t('增加', 'Increase'), width: 16 },
  { prop: 'decrease', title: t('减少', 'Decrease'), width: 16 },
  { prop: 'balance', title: t('余额', 'Balance'), width: 16 },
];

const KIND_TEXT = { supplier: t('供应商', 'Supplier'), customer: t('客户', 'Customer') } as const;

/** The prepaid list's columns (`POST /finance/prepaid/export`), titled as the screen's. */
const PREPAID_COLUMNS: Array<ListExportColumn<PrepaidBalanceRow>> = [
  { prop: 'partnerCode', title: t('编码', 'Code'), width: 14 },
  { prop: 'partnerName', title: t('往来单位', 'Partner'), width: 28 },
  { prop: 'kind', title: t('类型', 'Type'), width: 10, value: (row, language) => KIND_TEXT[row.kind][language] },
  { prop: 'prepaid', title: t('预付余额', 'Prepaid balance'), width: 16 },
  { prop: 'advance', title: t('预收余额', 'Advance balance'), width: 16 },
];

const TRIAL_COLUMNS: ExcelColumn[] = [
  { prop: 'code', title: t('科目编码', 'Account'), width: 10 },
  { prop: 'accountName', title: t('科目名称', 'Account name'), width: 30 },
  { prop: 'opening', title: t('期初余额', 'Opening balance'), width: 18 },
  { prop: 'debit', title: t('借方发生额', 'Debit'), width: 18 },
  { prop: 'credit', title: t('贷方发生额', 'Credit'), width: 18 },
  { prop: 'balance', title: t('期末余额', 'Closing balance'), width: 18 },
];

/** A ledger line's memo in the caller's language: the bill type's or payment type's name, or what kind of document it is, marked when a reversal. */
function memoOf(row: { memo: string; sourceKind: string; reversal: boolean }, language: Lang): string {
  const named = (billType(row.memo)?.label ?? MONEY_TYPE_LABELS[row.memo as MoneyType])?.[language] ?? row.memo;
  return row.reversal ? `${named} (${language === 'zh' ? '冲销' : 'reversal'})` : named;
}

function exportRoute<Q extends z.ZodObject>(input: {
  url: string;
  summary: string;
  permission: string;
  query: Q;
  filename: (q: z.infer<Q>) => { zh: string; en: string };
  columns: ExcelColumn[];
  rows: (ctx: ServiceContext, q: z.infer<Q>, language: Lang) => Promise<Array<Record<string, unknown>>>;
}): RouteDeclaration {
  // The query may come in the URL or as the body (the export button posts it); together they must be whole.
  const whole = input.query.extend(lang);
  const part = input.query.partial().extend(lang);
  return untransactedRoute({
    method: 'POST', url: input.url, tags, summary: input.summary, permission: input.permission, query: part, body: part.optional(),
    async handler(caller, { query: q, body }, { request, reply }) {
      const language = langOf(request);
      const merged = whole.parse({ ...q, ...(body ?? {}) }) as z.infer<Q>;
      const found = await caller.transaction((ctx) => input.rows(ctx, merged, language));
      return sendXlsx(reply, await exportXlsx(input.columns, found, language), input.filename(merged)[language]);
    },
  });
}

/** `POST <url>/export` of a partner's running ledger (`partnerId`): the first EXPORT_MAX_ROWS lines, as every export is capped. */
const ledgerExport = (input: { url: string; summary: string; permission: string; title: { zh: string; en: string }; ledger: (ctx: ServiceContext, query: { partnerId: number; current: number; pageSize: number }) => Promise<{ data: PartnerLedgerLine[] }> }) =>
  exportRoute({
    url: input.url, summary: input.summary, permission: input.permission, query: ledgerQuerySchema, filename: () => input.title, columns: LEDGER_COLUMNS,
    rows: async (ctx, q, language) => (await input.ledger(ctx, { partnerId: q.partnerId, current: 1, pageSize: EXPORT_MAX_ROWS })).data.map((r) => ({ ...r, what: memoOf(r, language) })),
  });

const sideExports = (side: Side): RouteDeclaration[] => [
  exportRoute({
    url: `${URL}/${side}/export`, summary: `${side} per partner with aging, as .xlsx`, permission: `finance_${side}_export`, query: partnerReportQuerySchema,
    filename: () => SIDE_TEXT[side].title, columns: agingColumns(side), rows: (ctx, q) => partnerAging(ctx, side, q),
  }),
  ledgerExport({ url: `${URL}/${side}/ledger/export`, summary: `A partner's ${side} ledger, as .xlsx`, permission: `finance_${side}_export`, title: SIDE_TEXT[side].ledger, ledger: (ctx, q) => partnerLedger(ctx, side, q) }),
];

export const financeExportRoutes: RouteDeclaration[] = [
  ...sideExports('receivable'),
  ...sideExports('payable'),
  listExportRoute({ url: `${URL}/prepaid`, tags, noun: 'prepaid and advance balance', permission: 'finance_prepaid_export', list: listPrepaid, columns: PREPAID_COLUMNS, filename: t('预付预收余额', 'Prepaid and advance balances') }),
  ledgerExport({ url: `${URL}/prepaid/ledger/export`, summary: "A partner's prepaid (supplier) or advance (customer) ledger, as .xlsx", permission: 'finance_prepaid_export', title: t('预付预收明细账', 'Prepaid and advance ledger'), ledger: prepaidLedger }),
  exportRoute({
    url: `${URL}/trialBalance/export`, summary: 'Trial balance, as .xlsx', permission: 'finance_trialBalance_export', query: z.object({ start: dateSchema.optional(), end: dateSchema.optional() }),
    filename: () => t('试算平衡表', 'Trial balance'), columns: TRIAL_COLUMNS,
    rows: async (ctx, q, language) => {
      const found = await trialBalance(ctx, q);
      return [
        ...found.accounts.map((a) => ({ ...a, accountName: a.name[language] })),
        { code: '', accountName: language === 'zh' ? '合计' : 'Total', opening: '', debit: found.debitTotal, credit: found.creditTotal, balance: '' },
      ];
    },
  }),
];
