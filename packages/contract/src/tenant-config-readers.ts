import type { TenantConfig } from './tenant-config.ts';

/**
 * Who reads each key of the tenant config: a setting the screen stores and shows but no rule reads would
 * promise the tenant a behaviour that does not exist. Each key is either
 * - `read`: the rule it drives, in a few words, and the files (repository paths) where that rule is
 *   written — the first file names the key itself (a declaration that names it counts: the bill engine then
 *   reads the declared key); or
 * - `notBuilt`: it belongs to an area this product does not have yet (production, quality, picture search);
 *   no code may read it until the area exists, and then the entry moves to `read`.
 * The record is typed over every key, and server/test/tenant-config-readers.test.ts walks it against the
 * schema and the files, so a new key without a reader fails the build and the test the day it is added.
 * Switches whose rule the engine applies have a test that flips them (server/test/tenant-switches.test.ts).
 */
export type ConfigReader = { read: string; in: readonly string[] } | { notBuilt: 'production' | 'quality' | 'pictureSearch' };

const SAVE = 'server/src/bills/bill-save.ts';
const LIFECYCLE = 'server/src/bills/bill-lifecycle.ts';
const DECLARED = 'packages/contract/src/bills/supply-chain.ts';
const PRODUCTION = 'packages/contract/src/bills/production.ts';
const OUTSOURCING = 'packages/contract/src/bills/outsourcing.ts';
const KIT = 'web/src/hooks/kit-settings.ts';
const PICTURE = 'packages/contract/src/picture-search.ts';
/** What a print shows of the company (`companyOf`). */
const PRINTED = 'web/src/components/PrintPage/print-model.ts';

export const CONFIG_READERS: Record<keyof TenantConfig, ConfigReader> = {
  logo: { read: 'printed bills carry the tenant logo above the bill', in: ['web/src/views/bills/components/PrintPreview.tsx'] },
  title: { read: "the home page names the tenant; printed bills carry it as the company's name", in: [PRINTED, 'web/src/views/home/index.tsx'] },
  slogan: { read: 'printed bills carry it under the company name (the starter templates place it there)', in: [PRINTED, 'packages/contract/src/print/template.ts'] },
  phone: { read: 'printed bills carry the tenant phone under its name', in: [PRINTED] },
  openShelves: { read: 'bill lines take storage locations and stock moves on them; off: a location is refused at save and posting, and turning it off is refused while stock sits on a location', in: ['packages/contract/src/bills/fields.ts', SAVE, 'server/src/bills/stock.ts', 'server/src/modules/tenant/settings.ts'] },
  openVerify: { read: 'bills of the types with an enabled joint review rule go through their reviewers', in: [LIFECYCLE] },
  openVerifyBill: { read: 'the bill types under joint review, kept in step with the enabled rules', in: [LIFECYCLE, 'server/src/modules/office/verify-rules.ts'] },
  openNegativeInventory: { read: 'an audit may take stock below zero; turning it off is refused while anything is negative', in: [LIFECYCLE, 'server/src/modules/tenant/settings.ts'] },
  openDiscount: { read: 'line amounts apply the discount rate', in: [SAVE, 'web/src/views/bills/kit.ts', 'packages/contract/src/bills/amounts.ts'] },
  openTaxRate: { read: 'line amounts apply the tax rate; materials carry their rate', in: [SAVE, 'web/src/views/bills/kit.ts', 'server/src/modules/basic/material.ts'] },
  openSerialNumber: { read: 'serial numbers of serial-managed materials are asked for and tracked', in: [SAVE] },
  openBatchNumber: { read: 'batch numbers of batch-managed materials are asked for and tracked', in: [SAVE] },
  openDirectOutstock: { read: 'a sale out-stock without a sale order or shipping notice may be saved and submitted (the type declares directNeedsSwitch)', in: [DECLARED, SAVE] },
  openConsumablesOutstock: {
    read: "consumables issues are open (the type declares opensWith): off, saving, submitting and auditing one is refused and its list offers no add; on, a production pick may take a consumables line of its order beyond the requirement (the source's freeLines)",
    in: [PRODUCTION, SAVE, LIFECYCLE, 'web/src/views/bills/index.tsx'],
  },
  allowPurchaseInstockBeyond: { read: 'a purchase in-stock may take beyond what is open of its order (the source declares beyondSwitch)', in: [DECLARED, SAVE] },
  allowSaleOutstockBeyond: { read: 'a sale out-stock may take beyond what is open of its order or notice (beyondSwitch)', in: [DECLARED, SAVE] },
  numberRetainsSmallDigit: { read: 'quantities are rounded to these digits and shown with them', in: [SAVE, KIT] },
  amountRetainsSmallDigit: { read: 'amounts are rounded to these digits and shown with them', in: [SAVE, KIT] },
  defaultPageSize: { read: 'the rows per page every list starts with', in: [KIT, 'web/src/components/ProTable/index.tsx'] },
  allowProductionInstockBeyond: { read: 'a completion in-stock may take beyond what is open of its production order (beyondSwitch)', in: [PRODUCTION, SAVE] },
  allowProductionClaimBeyond: { read: 'a production pick may take beyond the materials open on its order (beyondSwitch)', in: [PRODUCTION, SAVE] },
  allowOutsourcingPickBeyond: { read: 'an outsourcing pick may send more than the materials open on its order (beyondSwitch)', in: [OUTSOURCING, SAVE] },
  allowOutsourcingInstockBeyond: { read: 'an outsourcing completion in-stock may take beyond what is open of its order (beyondSwitch)', in: [OUTSOURCING, SAVE] },
  hasPictureSearchModule: { read: 'picture search is open (its routes refuse, its buttons are hidden without it); pictures are indexed as they are saved', in: [PICTURE, 'server/src/modules/picture/service.ts', 'web/src/components/PictureSearch/index.tsx'] },
  pictureSearchType: { read: 'what picture search matches: the materials (Similarity), or the mall products too (Product)', in: [PICTURE, 'server/src/modules/picture/service.ts'] },
  pictureSearchSimilarity: { read: 'picture search marks results at or above it as matches', in: ['server/src/modules/picture/service.ts'] },
  openEntrustMachining: { read: 'entrusted machining is open: its receipt and return types (opensWith), the customer an order, its picks and returns machine for (a field switch)', in: [PRODUCTION, SAVE, LIFECYCLE, 'server/src/bills/stock-rules.ts'] },
  openSaleOrderBomSelect: { read: 'a sale order line may name a BOM of its material (the line field declares the switch); off, a BOM is refused', in: [DECLARED, SAVE, 'server/src/modules/basic/bom.ts'] },
  defaultDateSearch: { read: 'the date range list searches start with', in: [KIT, 'web/src/components/ProTable/query.ts'] },
  billDateMaxDaysAhead: { read: 'a bill dated further ahead is refused', in: ['server/src/bills/dates.ts'] },
  dispatchAutoAudit: { read: 'a dispatched service order is audited at once', in: ['server/src/modules/service/orders.ts'] },
  applyRangeSupplier: { read: 'suppliers are seen by the staff they are assigned to', in: ['packages/contract/src/basic.ts', 'server/src/core/assignment-range.ts'] },
  applyRangeCustomer: { read: 'customers are seen by the staff they are assigned to', in: ['packages/contract/src/basic.ts', 'server/src/core/assignment-range.ts'] },
  applyRangeMaterial: { read: 'materials are seen by the staff they are assigned to', in: ['packages/contract/src/basic.ts', 'server/src/core/assignment-range.ts'] },
  applyRangeStock: { read: 'warehouses are seen by the staff they are assigned to', in: ['packages/contract/src/basic.ts', 'server/src/core/assignment-range.ts'] },
  completionNeedAllPickOutstock: { read: "a completion in-stock is submitted and audited only once its orders' materials are all picked", in: ['server/src/modules/production/rules.ts'] },
  packageResultLimitSubmit: { read: "an inspection that packs is submitted only when its boxes hold all the lines' accepted goods", in: ['server/src/modules/quality/boxes.ts'] },
  autoOpenFlow: { read: 'a joint review rule coming into force turns joint review (openVerify) on', in: ['server/src/modules/office/verify-rules.ts'] },
  allowPurchaseInstockAdditionalNumber: { read: 'a pushed-down purchase in-stock may hold lines without a source line (additionalSwitch)', in: [DECLARED, SAVE] },
  allowSaleOutstockAdditionalNumber: { read: 'a pushed-down sale out-stock may hold lines without a source line (additionalSwitch)', in: [DECLARED, SAVE] },
  searchCache: { read: 'each list remembers its last search in the browser', in: [KIT, 'web/src/components/ProTable/search-cache.ts'] },
  openBomStatistics: { read: 'the BOM screen\'s explosion shows each material\'s cost and the total', in: ['server/src/modules/basic/bom.ts', 'web/src/views/basic/bom/components/structure-drawer.tsx'] },
};
