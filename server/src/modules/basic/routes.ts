import type { ServerModule } from '../../core/route.ts';
import { bomDefinition, bomStructureRoutes } from './bom.ts';
import { materialDefinition, materialUnitRoutes, materialUnitTemplate } from './material.ts';
import { customerDefinition, supplierDefinition } from './partner.ts';
import { recordRoutes, registerRecordTemplates, type AnyRecordDefinition } from '../../core/record-routes.ts';
import { declaredBasicDefinitions } from './declared-records.ts';
import { READERS } from './readers.ts';
import { treeRoutes } from './tree.ts';
import { regionRoutes } from './region.ts';
import { registerBasicUsage } from './usage.ts';
import { locationDefinition, warehouseDefinition } from './warehouse.ts';

/**
 * Basic records under /api/admin/basic: materials, brands, categories, suppliers, customers,
 * warehouses (`stock`), locations, attributes, fee types, pay types, BOMs and units, plus the district
 * tree and a material's unit rows. Each record is a definition (services taking a ServiceContext, typed by
 * its schemas where it is written, or derived from its declaration) that `recordRoutes` declares the usual
 * routes for.
 */
const definitions: AnyRecordDefinition[] = [
  ...[materialDefinition, supplierDefinition, customerDefinition, warehouseDefinition, locationDefinition, bomDefinition].map((definition) => ({
    ...definition,
    readers: READERS[definition.record],
  })),
  // Units, brands, attributes, fee and pay types, processes, material categories…: declared (packages/contract/src/records).
  ...declaredBasicDefinitions,
];

export const basicModule: ServerModule = {
  name: 'basic',
  routes: [
    // Fixed paths first in the code only for the reader: the router prefers static segments anyway.
    ...treeRoutes,
    ...regionRoutes,
    ...materialUnitRoutes,
    ...bomStructureRoutes,
    ...definitions.flatMap((definition) => recordRoutes(definition)),
  ],
  register(registries) {
    registerBasicUsage(registries.recordUsage);
    registerRecordTemplates(registries, definitions);
    registries.importTemplates.register(materialUnitTemplate.key, materialUnitTemplate.columns);
  },
};
