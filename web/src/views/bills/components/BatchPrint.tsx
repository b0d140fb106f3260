import { useEffect } from 'react';
import { Modal, Progress } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillView } from '@p8/contract/bills/api';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../../../app/http.ts';
import PrintPreview from './PrintPreview.tsx';

const combine = (results: Array<{ data?: BillView; isError: boolean }>) => ({
  bills: results.map((r) => r.data).filter((b): b is BillView => !!b),
  failed: results.some((r) => r.isError),
});

/**
 * A list's selection printed as one job: each bill read as its form reads it (the caller's data scope: a bill
 * they cannot read fails here, and the server refuses the job again), then the print dialog with all of them.
 */
export default function BatchPrint({ decl, ids, config, digits, lang, onClose, onPrinted }: { decl: BillTypeDecl; ids: number[]; config: TenantConfigView | undefined; digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }; lang: string; onClose: () => void; onPrinted: () => void }) {
  const { t } = useTranslation();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const { bills, failed } = useQueries({
    queries: ids.map((id) => ({ queryKey: ['bill', decl.type, id], queryFn: () => http.get<BillView>(`${api}/${id}`), retry: false })),
    combine,
  });
  // A bill that cannot be read (out of reach, deleted meanwhile): its error was shown, nothing prints.
  useEffect(() => {
    if (failed) onClose();
  }, [failed, onClose]);
  const loaded = bills.length;
  if (failed) return null;
  if (loaded < ids.length)
    return (
      <Modal open title={t('bill.printBatchTitle', { count: ids.length })} footer={null} onCancel={onClose} data-testid="bill-print-loading">
        <Progress percent={Math.round((loaded / ids.length) * 100)} />
      </Modal>
    );
  return <PrintPreview decl={decl} bills={bills} config={config} digits={digits} lang={lang} onClose={onClose} onPrinted={onPrinted} />;
}
