import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BillPostingHooks } from '../bills/posting-hooks.ts';
import { BillRules } from '../bills/rules.ts';
import { AbandonAuditBlockers } from './abandon-audit-blockers.ts';
import { JobKinds } from './background-jobs.ts';
import { Dashboard } from './dashboard.ts';
import { InboxSignals } from './notices.ts';
import type { ExcelColumn } from './excel.ts';
import { PrinterProviders } from './printer-providers.ts';
import { RecordUsage } from './record-usage.ts';

/**
 * What modules plug into each other at start, held per app instance (never in a module-level variable):
 * every process that builds the app fills them the same way, and apps built side by side (the tests) do
 * not share them. Services reach them through `ServiceContext.registries`.
 */
export interface Registries {
  /** Who refers to which basic records (delete prohibitions): core/record-usage.ts. */
  recordUsage: RecordUsage;
  /** The import templates served at /api/base/template/<key>.xlsx. */
  importTemplates: ImportTemplates;
  /** Cloud receipt-printer services. */
  printerProviders: PrinterProviders;
  /** What refuses withdrawing a bill's audit (payments, MRP use, cost accounting…): core/abandon-audit-blockers.ts. */
  abandonAuditBlockers: AbandonAuditBlockers;
  /** What runs when a bill is posted or its posting withdrawn (finance's ledger): bills/posting-hooks.ts. */
  billPostingHooks: BillPostingHooks;
  /** A bill type's own rules at save, submit and settlement (finance's payment types): bills/rules.ts. */
  billRules: BillRules;
  /** The home dashboard's sections (orders, stock, funds…): core/dashboard.ts. */
  dashboard: Dashboard;
  /** The kinds of background jobs (imports, exports…) and who is told a job was queued: core/background-jobs.ts. */
  jobKinds: JobKinds;
  /** Who is told that accounts' unread message counts changed (the live header bell): core/notices.ts. */
  inbox: InboxSignals;
}

/** The import templates of one app: each module registers the templates of its imports (brand, category, supplier…). */
export class ImportTemplates {
  private readonly templates = new Map<string, ExcelColumn[]>();

  register(key: string, columns: ExcelColumn[]): void {
    if (!/^[a-z][A-Za-z0-9_]*$/.test(key)) throw new Error(`invalid template key ${key}`);
    this.templates.set(key, columns);
  }

  get(key: string): ExcelColumn[] | undefined {
    return this.templates.get(key);
  }
}

declare module 'fastify' {
  interface FastifyInstance extends Registries {
    /** The registries together, as a ServiceContext carries them. */
    registries: Registries;
  }
}

/** Gives the app (and every plugin registered after it) its own, empty registries. Registered before the modules. */
export const registriesPlugin = fp(async (app: FastifyInstance) => {
  const registries: Registries = {
    recordUsage: new RecordUsage(),
    importTemplates: new ImportTemplates(),
    printerProviders: new PrinterProviders(),
    abandonAuditBlockers: new AbandonAuditBlockers(),
    billPostingHooks: new BillPostingHooks(),
    billRules: new BillRules(),
    dashboard: new Dashboard(),
    jobKinds: new JobKinds(),
    inbox: new InboxSignals(),
  };
  app.decorate('registries', registries);
  app.decorate('recordUsage', registries.recordUsage);
  app.decorate('importTemplates', registries.importTemplates);
  app.decorate('printerProviders', registries.printerProviders);
  app.decorate('abandonAuditBlockers', registries.abandonAuditBlockers);
  app.decorate('billPostingHooks', registries.billPostingHooks);
  app.decorate('billRules', registries.billRules);
  app.decorate('dashboard', registries.dashboard);
  app.decorate('jobKinds', registries.jobKinds);
  app.decorate('inbox', registries.inbox);
});
