import { useEffect } from 'react';
import { Modal, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillView } from '@p8/contract/bills/api';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../../../app/http.ts';
import PrintPreview from './PrintPreview.tsx';

/**
 * A list's selection printed as one job: the bills read in one call (`GET …/print/bills?ids=…`, each as its
 * form reads it, within the caller's data scope: a bill they cannot read fails the whole call, its error shown,
 * and the server refuses the job again), then the print dialog with all of them as one document.
 */
export default function BatchPrint({ decl, ids, config, digits, lang, onClose, onPrinted }: { decl: BillTypeDecl; ids: number[]; config: TenantConfigView | undefined; digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }; lang: string; onClose: () => void; onPrinted: () => void }) {
  const { t } = useTranslation();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const bills = useQuery({
    queryKey: ['bills-to-print', decl.type, ids.join(',')],
    queryFn: () => http.get<BillView[]>(`${api}/print/bills`, { ids: ids.join(',') }, { noLoading: true }),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  // A bill that cannot be read (out of reach, deleted meanwhile): its error was shown, nothing prints.
  useEffect(() => {
    if (bills.isError) onClose();
  }, [bills.isError, onClose]);
  if (bills.isError) return null;
  if (!bills.data)
    return (
      <Modal open title={t('bill.printBatchTitle', { count: ids.length })} footer={null} onCancel={onClose} data-testid="bill-print-loading">
        <Spin />
      </Modal>
    );
  return <PrintPreview decl={decl} bills={bills.data} config={config} digits={digits} lang={lang} onClose={onClose} onPrinted={onPrinted} />;
}
