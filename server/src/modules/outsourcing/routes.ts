import type { ServerModule } from '../../core/route.ts';
import { atSupplierRoutes } from './report.ts';
import { registerOutsourcingRules } from './rules.ts';

/**
 * Outsourcing (docs/outsourcing.md): its bills are declarations of the bill registry (contract
 * bills/outsourcing.ts) and get their routes, screens and lifecycle from the engine; this module adds their own
 * rules — the order's materials from the BOM, a receipt's consumption of what the supplier holds and its value,
 * what the supplier holds never below zero — and the materials-at-suppliers report (report.ts).
 */
export const outsourcingModule: ServerModule = {
  name: 'outsourcing',
  routes: atSupplierRoutes,
  register(registries) {
    registerOutsourcingRules(registries.billRules, registries.billPostingHooks);
  },
};
