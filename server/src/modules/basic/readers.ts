import type { RecordReaders } from '../../core/record-routes.ts';
import { BILL_SCREENS, FINANCE_BILL_SCREENS, FINANCE_PARTNER_SCREENS, MATERIAL_BILL_SCREENS, STOCK_REPORT_SCREENS } from '../../core/screens.ts';

/**
 * Who reads a record beyond its own screen (`basic_<record>`, which reads all of its routes), by route:
 * the screens whose forms use its picker, and the few other screens that show its list or one record (a warehouse's locations, a bill
 * line's material). A record with a picker must name its readers here.
 */
const PARTNER_PICKERS = [...BILL_SCREENS, ...FINANCE_PARTNER_SCREENS];
/**
 * What a partner picker shows and fills (a proxy order's consignee phone): never the bank account, the
 * invoice title, the opening balances or the remark, which are the partner screen's.
 */
const PARTNER_PICKER_FIELDS = ['id', 'kind', 'code', 'name', 'shortName', 'phone', 'managerName', 'taxNumber', 'enabled'];

export const READERS: Record<string, RecordReaders> = {
  material: { picker: [...MATERIAL_BILL_SCREENS, 'basic_bom', 'mall_product'], detail: [...MATERIAL_BILL_SCREENS, 'basic_bom'] },
  // The material dialog's options.
  category: { tree: ['basic_material'] },
  brand: { picker: ['basic_material'] },
  attribute: { picker: ['basic_material'] },
  unit: { picker: ['basic_material'] },
  supplier: { picker: PARTNER_PICKERS, pickerFields: PARTNER_PICKER_FIELDS },
  customer: { picker: [...PARTNER_PICKERS, 'mall_lottery', 'mall_proxyOrder'], pickerFields: PARTNER_PICKER_FIELDS },
  stock: { picker: [...MATERIAL_BILL_SCREENS, ...STOCK_REPORT_SCREENS], list: ['basic_location'], pickerFields: ['id', 'code', 'name', 'address', 'managerName', 'enabled'] },
  location: { picker: [...MATERIAL_BILL_SCREENS, ...STOCK_REPORT_SCREENS], list: ['basic_stock'] },
  // Fee and income bills pick a fee type of the right kind.
  fee: { picker: FINANCE_BILL_SCREENS, list: FINANCE_BILL_SCREENS },
  paytype: { picker: BILL_SCREENS },
  // A sale order line chooses the BOM of its material (openSaleOrderBomSelect).
  bom: { picker: ['sale_order'] },
  // A BOM names the routing its product is made by.
  routing: { picker: ['basic_bom'] },
  // A supplier's or customer's currency (docs/cross-border.md); the bill screens read it as their forms name it.
  currency: { picker: ['basic_supplier', 'basic_customer'] },
};

