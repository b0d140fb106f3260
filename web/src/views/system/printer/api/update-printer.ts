import type { PrinterRow, PrinterUpdate } from '@p8/contract/office';
import { http } from '../../../../app/http.ts';

/** PUT /admin/system/printer — an empty `printerKey` keeps the stored key (code system_printer_update). */
export function updatePrinter(body: PrinterUpdate): Promise<PrinterRow> {
  return http.put<PrinterRow>('/admin/system/printer', body);
}
