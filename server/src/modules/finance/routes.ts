import { z } from 'zod';
import { enableSchema, idParamsSchema } from '@p8/contract/common';
import { dateSchema } from '@p8/contract/bills/fields';
import {
  fundAccountCreateSchema,
  fundAccountUpdateSchema,
  ledgerPageQuerySchema,
  openBillsQuerySchema,
  partnerReportQuerySchema,
  transferCreateSchema,
} from '@p8/contract/finance';
import { route, type RouteDeclaration, type ServerModule } from '../../core/route.ts';
import { verifyLedger } from './ledger.ts';
import { abandonMoneyDoc, createFundAccount, createTransfer, enableFundAccounts, getFundAccount, getMoneyDoc, listFundAccounts, listFundAccountOptions, listTransfers, transferExportColumns, updateFundAccount } from './money.ts';
import { listExportRoute } from '../../core/list-export.ts';
import { FINANCE_BILL_SCREENS } from '../../core/screens.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { financePostingHook, registerMoneyRules, verifyMoneyBills } from './money-bills.ts';
import { listPrepaid, openBills, partnerAging, partnerLedger, prepaidLedger, prepaidStatistics, trialBalance } from './reports.ts';
import { billAbandoned, billAudited, settledBlocker } from './settlement.ts';
import { invoicedBlocker, invoiceSaved } from './invoices.ts';
import { stockValueAbandoned, stockValueAudited } from './stock-value.ts';
import { financeExportRoutes } from './exports.ts';
import { fundDashboard } from './dashboard.ts';
import { costPeriodParamsSchema, costRunSchema } from '@p8/contract/production-cost';
import { enqueueJob } from '../../core/background-jobs.ts';
import { cancelCost, COST_RUN_JOB, costRunHook, assertNoPendingRun, getCostPeriod, listCostPeriods, runCost } from './cost-run.ts';
import { pieceWageHook, registerSalaryRules, registerSalaryUsage, salaryWrittenOffBlocker, verifySalaries } from './salary.ts';

/**
 * Finance under /api/admin/finance/: fund accounts, transfers, receivable / payable with aging and ledgers,
 * prepaid and advance balances with their ledger, the trial balance and verify. Button codes
 * `finance_<screen>_<action>`. Payments, receipts, fees and incomes are bill types (contract bills/money.ts):
 * their routes are the bill engine's, under the same prefix (`/api/admin/finance/payment`…); this module
 * gives them their rules and postings.
 */

const URL = '/api/admin/finance';
const tags = ['finance'];

/** What finance's bill postings keep beyond the ledger's own balances, checked by verify after them (and by tools/verify-all.ts). */
export const LEDGER_CHECKS = [verifyMoneyBills, verifySalaries];

const rangeQuerySchema = z.object({ start: dateSchema.optional(), end: dateSchema.optional() });

/** List (sorted, filtered, exported), one, abandon of transfers; their create is the caller's. */
function docRoutes(kind: 'transfer'): RouteDeclaration[] {
  return [
    route({ method: 'GET', url: `${URL}/${kind}`, permission: `finance_${kind}`, tags, summary: `${kind}s, paged, newest first unless sorted`, query: listQuerySchema, page: true, handler: (ctx, { query }) => listTransfers(ctx, query) }),
    listExportRoute({ url: `${URL}/${kind}`, tags, noun: kind, permission: `finance_${kind}_export`, list: listTransfers, columns: transferExportColumns, filename: { zh: '资金转账', en: 'transfers' } }),
    route({ method: 'GET', url: `${URL}/${kind}/:id`, permission: `finance_${kind}`, tags, summary: `One ${kind} with the bills it settled`, params: idParamsSchema, handler: (ctx, { params }) => getMoneyDoc(ctx, kind, params.id) }),
    route({
      method: 'POST', url: `${URL}/${kind}/:id/abandon`, tags, summary: `Withdraw a ${kind}: reversal posting, settled bills open again`, permission: `finance_${kind}_abandon`, params: idParamsSchema,
      handler: (ctx, { params }) => abandonMoneyDoc(ctx, kind, params.id),
    }),
  ];
}

function sideRoutes(side: 'receivable' | 'payable'): RouteDeclaration[] {
  return [
    route({ method: 'GET', url: `${URL}/${side}`, permission: `finance_${side}`, tags, summary: `${side} per partner with aging (0–30, 31–60, 61–90, >90 days)`, query: partnerReportQuerySchema, handler: (ctx, { query }) => partnerAging(ctx, side, query) }),
    route({ method: 'GET', url: `${URL}/${side}/ledger`, permission: `finance_${side}`, tags, summary: `A page of a partner's ${side} ledger with the running balance`, query: ledgerPageQuerySchema, page: true, handler: (ctx, { query }) => partnerLedger(ctx, side, query) }),
    route({ method: 'GET', url: `${URL}/${side}/openBills`, permission: `finance_${side}`, tags, summary: `A partner's bills not yet settled in full`, query: openBillsQuerySchema, handler: (ctx, { query }) => openBills(ctx, side, query.partnerId) }),
  ];
}

const financeRoutes: RouteDeclaration[] = [
  // Balances to the accounts' own screen and to transfers between them; the bills' picker shows names only.
  route({ method: 'GET', url: `${URL}/account`, permission: 'finance_account|finance_transfer', tags, summary: 'Fund accounts with their balances', handler: (ctx) => listFundAccounts(ctx) }),
  route({
    method: 'GET', url: `${URL}/account/picker`, picker: FINANCE_BILL_SCREENS, tags, summary: 'Fund accounts for a finance bill: id, name, kind, enabled (no balances)',
    handler: (ctx) => listFundAccountOptions(ctx),
  }),
  route({ method: 'GET', url: `${URL}/account/:id`, permission: 'finance_account', tags, summary: 'One fund account', params: idParamsSchema, handler: (ctx, { params }) => getFundAccount(ctx, params.id) }),
  route({ method: 'POST', url: `${URL}/account`, tags, summary: 'New fund account; its opening balance is posted', permission: 'finance_account_add', body: fundAccountCreateSchema, handler: (ctx, { body }) => createFundAccount(ctx, body) }),
  route({ method: 'PUT', url: `${URL}/account`, tags, summary: 'Edit a fund account: name, number, remark; kind and opening balance while only the opening has posted', permission: 'finance_account_update', body: fundAccountUpdateSchema, handler: (ctx, { body }) => updateFundAccount(ctx, body) }),
  route({ method: 'PUT', url: `${URL}/account/enable`, tags, summary: 'Enable or disable fund accounts (one with a balance cannot be disabled)', permission: 'finance_account_enable', body: enableSchema, handler: (ctx, { body }) => enableFundAccounts(ctx, body.ids, body.enabled) }),
  route({ method: 'POST', url: `${URL}/transfer`, tags, summary: 'Transfer between fund accounts', permission: 'finance_transfer_add', body: transferCreateSchema, handler: (ctx, { body }) => createTransfer(ctx, body) }),
  ...docRoutes('transfer'),
  ...sideRoutes('receivable'),
  ...sideRoutes('payable'),
  route({ method: 'GET', url: `${URL}/prepaid`, permission: 'finance_prepaid', tags, summary: 'Prepaid (suppliers) and advance (customers) balances per partner, paged', query: listQuerySchema, page: true, handler: (ctx, { query }) => listPrepaid(ctx, query) }),
  route({ method: 'GET', url: `${URL}/prepaid/statistics`, permission: 'finance_prepaid', tags, summary: 'Prepaid and advance totals over the list filters', query: listQuerySchema, handler: (ctx, { query }) => prepaidStatistics(ctx, query) }),
  route({ method: 'GET', url: `${URL}/prepaid/ledger`, permission: 'finance_prepaid', tags, summary: "A page of a partner's prepaid or advance ledger with the running balance", query: ledgerPageQuerySchema, page: true, handler: (ctx, { query }) => prepaidLedger(ctx, query) }),
  route({ method: 'GET', url: `${URL}/trialBalance`, permission: 'finance_trialBalance', tags, summary: 'Trial balance: debits, credits and balance per account', query: rangeQuerySchema, handler: (ctx, { query }) => trialBalance(ctx, query) }),
  route({ method: 'POST', url: `${URL}/verify`, tags, summary: 'Unbalanced postings and balance differences against the ledger (empty when all agree)', handler: (ctx) => verifyLedger(ctx, LEDGER_CHECKS) }),
  ...financeExportRoutes,
  ...costRoutes(),
];

/**
 * Production's month-end cost run (cost-run.ts): under production's menu and licence (`area`), here because it
 * posts the general ledger. A run is a background job; cancelling is a request.
 */
function costRoutes(): RouteDeclaration[] {
  const COST = '/api/admin/production/cost';
  const costTags = ['production: cost'];
  return [
    route({ method: 'GET', url: COST, area: 'production', permission: 'production_cost', tags: costTags, summary: 'The periods costed, newest first, with their state', handler: (ctx) => listCostPeriods(ctx) }),
    route({ method: 'GET', url: `${COST}/:period`, area: 'production', permission: 'production_cost', tags: costTags, summary: "A period's cost per production order", params: costPeriodParamsSchema, handler: (ctx, { params }) => getCostPeriod(ctx, params.period) }),
    route({
      method: 'POST', url: `${COST}/run`, area: 'production', permission: 'production_cost_run', tags: costTags, summary: 'Queue the cost run of a period (a background job); answers the job id', body: costRunSchema,
      handler: async (ctx, { body }) => {
        await assertNoPendingRun(ctx.tx, ctx.tenantId, body.period);
        return { id: await enqueueJob(ctx, { kind: COST_RUN_JOB, subject: body.period, payload: body, maxAttempts: 2 }) };
      },
    }),
    route({ method: 'POST', url: `${COST}/cancel`, area: 'production', permission: 'production_cost_cancel', tags: costTags, summary: "Cancel a period's cost run (反核算): its postings reversed, NotAccounted", body: costPeriodParamsSchema, handler: (ctx, { body }) => cancelCost(ctx, body.period) }),
  ];
}

export const financeModule: ServerModule = {
  name: 'finance',
  routes: financeRoutes,
  register(registries) {
    registries.abandonAuditBlockers.register('finance', settledBlocker);
    registries.abandonAuditBlockers.register('finance: invoices', invoicedBlocker);
    registries.billPostingHooks.register('finance', financePostingHook({ audited: billAudited, abandoned: billAbandoned }));
    // After 'finance': the stock value sees what the receivable / payable posting put on the inventory account.
    registries.billPostingHooks.register('finance: stock value', { audited: stockValueAudited, abandoned: stockValueAbandoned, saved: invoiceSaved });
    registerMoneyRules(registries.billRules);
    registries.abandonAuditBlockers.register('finance: salaries', salaryWrittenOffBlocker);
    registerSalaryRules(registries.billRules);
    registries.billPostingHooks.register('finance: piece wages', pieceWageHook);
    // Last: a bill of a calculated cost period is refused after everything else it would have posted.
    registries.billPostingHooks.register('production: cost period', costRunHook);
    registries.jobKinds.register({
      kind: COST_RUN_JOB,
      run: (job) =>
        job.caller.transaction(async (ctx) => {
          const { period, basis } = costRunSchema.parse(job.payload);
          // Not awaited: progress is written on a connection of its own, which the embedded database (one
          // connection, held by this transaction) gives only after the commit; a lost lease aborts the signal.
          const result = await runCost(ctx, period, basis, async (done, total) => void job.progress(done, total).catch(() => {}));
          await job.complete(ctx.tx, result);
          return result;
        }),
    });
    registerSalaryUsage(registries.recordUsage);
    registries.dashboard.register(fundDashboard);
  },
};
