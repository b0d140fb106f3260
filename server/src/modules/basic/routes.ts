import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connection.ts';
import { bomDefinition, bomStructureRoutes } from './bom.ts';
import { materialDefinition, materialUnitRoutes } from './material.ts';
import { customerDefinition, supplierDefinition } from './partner.ts';
import { registerRecordRoutes } from './record-routes.ts';
import { attributeDefinition, brandDefinition, feeTypeDefinition, payTypeDefinition, unitDefinition } from './simple.ts';
import { categoryDefinition, treeRoutes } from './tree.ts';
import { registerBasicUsage } from './usage.ts';
import { locationDefinition, warehouseDefinition } from './warehouse.ts';

/**
 * Basic records (issue 4) under /api/admin/basic: materials, brands, categories, suppliers, customers,
 * warehouses (`stock`), locations, attributes, fee types, pay types, BOMs and units, plus the district
 * tree and a material's unit rows.
 */
export async function basicRoutes(app: FastifyInstance, opts: { database: Database; config: Config }) {
  const { config, database } = opts;
  registerBasicUsage(app.recordUsage);
  // Fixed paths first in the code only for the reader: the router prefers static segments anyway.
  await treeRoutes(app);
  await materialUnitRoutes(app, { config, database });
  await bomStructureRoutes(app);
  for (const def of [
    materialDefinition,
    brandDefinition,
    categoryDefinition,
    supplierDefinition,
    customerDefinition,
    warehouseDefinition,
    locationDefinition,
    attributeDefinition,
    feeTypeDefinition,
    payTypeDefinition,
    bomDefinition,
    unitDefinition,
  ] as const) {
    registerRecordRoutes(app, { config, database }, def as Parameters<typeof registerRecordRoutes>[2]);
  }
}
