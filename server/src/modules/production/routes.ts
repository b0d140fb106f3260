import type { ServerModule } from '../../core/route.ts';
import { mrpRunJobKind, mrpRunRoutes } from './mrp-run.ts';
import { maintenanceRoutes } from './maintenance.ts';
import { floorRoutes } from './floor.ts';
import { entrustStatementRoutes } from './entrust-statement.ts';
import { registerProductionBlockers, registerProductionRules } from './rules.ts';

/**
 * Production (docs/production.md): its bills are declarations of the bill registry (contract
 * bills/production.ts) and get their routes, screens and lifecycle from the engine; this module adds their
 * own rules, MRP runs as background jobs (mrp-run.ts), maintenance work orders generated from the
 * machines' plans (maintenance.ts), the shop floor's list of steps to report (floor.ts) and the statement of
 * the materials customers entrust to it (entrust-statement.ts).
 */
export const productionModule: ServerModule = {
  name: 'production',
  routes: [...mrpRunRoutes, ...maintenanceRoutes, ...floorRoutes, ...entrustStatementRoutes],
  register(registries) {
    registerProductionRules(registries.billRules);
    registerProductionBlockers(registries.abandonAuditBlockers);
    registries.jobKinds.register(mrpRunJobKind());
  },
};
