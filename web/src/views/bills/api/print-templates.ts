import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { PrintTemplateChoice } from '@p8/contract/print/template';
import { http } from '../../../app/http.ts';

/** The print templates a bill type offers (its enabled ones, the default first; else its starter template). */
export const printTemplatesQuery = (decl: BillTypeDecl, lang: string) =>
  queryOptions({
    queryKey: ['print-templates', decl.type, lang],
    queryFn: () => http.get<PrintTemplateChoice[]>(`${billApiPath(decl).replace(/^\/api/, '')}/print/templates`, undefined, { noLoading: true }),
    staleTime: 0,
  });

/**
 * Reads them ahead while a bill that can be printed is open, so that its print preview opens on them at once
 * (it reads them again, showing these meanwhile).
 */
export function PrefetchPrintTemplates({ decl, lang }: { decl: BillTypeDecl; lang: string }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.prefetchQuery(printTemplatesQuery(decl, lang));
  }, [queryClient, decl, lang]);
  return null;
}
