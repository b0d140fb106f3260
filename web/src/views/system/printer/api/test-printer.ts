import { http } from '../../../../app/http.ts';

/**
 * POST /admin/system/printer/test `{ id }` — prints a test page through the provider (code
 * system_printer_add or system_printer_update). Silent: the screen shows the provider's answer itself.
 */
export function testPrinter(id: number): Promise<null> {
  return http.post<null>('/admin/system/printer/test', { id }, { silent: true, timeout: 60_000 });
}
