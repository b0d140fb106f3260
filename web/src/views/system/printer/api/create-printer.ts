import type { PrinterCreate, PrinterRow } from '@p8/contract/office';
import { http } from '../../../../app/http.ts';

/** POST /admin/system/printer — registers a printer (code system_printer_add). */
export function createPrinter(body: PrinterCreate): Promise<PrinterRow> {
  return http.post<PrinterRow>('/admin/system/printer', body);
}
