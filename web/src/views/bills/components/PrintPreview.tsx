import { Fragment, useMemo, useRef, useState } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { Button, Modal, Select, Space, Spin, Typography } from 'antd';
import { CloudUploadOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { BillView } from '@p8/contract/bills/api';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import { choiceKey, type PrintOutput } from '@p8/contract/print/template';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http, saveBlob } from '../../../app/http.ts';
import PrintPages, { buildPrintModel, companyOf, pageRules, type PrintContext } from '../../../components/PrintPage/index.tsx';
import { receiptLinesOf } from '../../../components/PrintPage/print-model.ts';
import { RECEIPT_CHARS, type ReceiptPaper } from '@p8/contract/print/receipt';
import { feedback } from '../../../app/feedback.ts';
import { PrintRoot, usePrintJob } from '../../../components/PrintPage/print-job.tsx';
import { useSheetsInView } from '../../../components/PrintPage/sheets-in-view.ts';
import { printTemplatesQuery } from '../api/print-templates.ts';
import type { PdfPage } from '../../../components/PrintPage/pdf.ts';
import { useAuthStore } from '../../../stores/auth.ts';
import { quietly } from '../kit-errors.ts';

/** Pages of a PDF drawn out of sight at a time (each laid out, pictured, then taken away for the next). */
const PDF_PAGES_PER_STEP = 8;

interface PrintPreviewProps {
  decl: BillTypeDecl;
  /** The bills to print, in order: the open bill, or a list's selection (each on pages of its own). */
  bills: BillView[];
  config: TenantConfigView | undefined;
  digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number };
  lang: string;
  onClose: () => void;
  /** After the prints were counted (a list reloads its rows). */
  onPrinted?: () => void;
}

/**
 * Printing bills: the templates of their type (the default first; the type's starter template when the
 * tenant has designed none), the bills on the chosen template's pages exactly as they print — each bill
 * starting on a page of its own, its pages numbered by themselves — and "print", which counts the print on
 * every bill and hands all the pages to the browser as one job at the paper's exact size.
 *
 * The preview draws only the pages in view (and a view's height around them): every other page is a blank
 * sheet of the paper's exact size, drawn when it scrolls near — a 2,750-line bill's 221 pages open as fast as
 * a short one's. The print and the PDF draw every page, a few at a time, their progress on their button.
 */
export default function PrintPreview({ decl, bills, config, digits, lang, onClose, onPrinted }: PrintPreviewProps) {
  const { t } = useTranslation();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const queryClient = useQueryClient();
  const user = useAuthStore((s) => s.userInfo);
  const templates = useQuery(printTemplatesQuery(decl, lang));
  const [chosen, setChosen] = useState<number | string | null | undefined>(undefined);
  const template = templates.data?.find((c) => choiceKey(c) === chosen) ?? templates.data?.[0];
  const [printedAt, setPrintedAt] = useState(() => dayjs().format('YYYY-MM-DD HH:mm'));

  const ctx: PrintContext = useMemo(
    () => ({ lang: lang === 'en' ? 'en' : 'zh', digits, company: companyOf(config), user: user?.realName || user?.name || '', printedAt }),
    [lang, digits, config, user?.realName, user?.name, printedAt],
  );
  const models = useMemo(() => (template ? bills.map((bill) => buildPrintModel(template.layout, decl, bill, ctx)) : undefined), [template, decl, bills, ctx]);
  const rules = useMemo(() => (models ? pageRules(models) : undefined), [models]);
  const pageCount = models?.reduce((s, m) => s + m.pages.length, 0) ?? 0;
  // Where each bill's pages start in the job.
  const offsets = useMemo(() => (models ?? []).reduce<number[]>((out, m, i) => [...out, i ? out[i - 1] + models![i - 1].pages.length : 0], []), [models]);
  const job = usePrintJob(pageCount);

  /** Counts the print on the server: one bill its own print, a selection one job (every bill counted and audited). */
  const count = async (output: PrintOutput) => {
    if (!template) return;
    if (bills.length === 1) await http.post<{ printCount: number }>(`${api}/print`, { id: bills[0].id, templateId: template.id, output }, { noLoading: true });
    else await http.post<Array<{ id: number; printCount: number }>>(`${api}/print/batch`, { ids: bills.map((b) => b.id), templateId: template.id, output }, { noLoading: true });
    for (const bill of bills) void queryClient.invalidateQueries({ queryKey: ['bill', decl.type, bill.id] });
    onPrinted?.();
  };

  const print = async () => {
    if (!template) return;
    setPrintedAt(dayjs().format('YYYY-MM-DD HH:mm'));
    await count('paper');
    job.start();
  };

  const { setBox: setSheetsBox, drawn: sheetDrawn } = useSheetsInView();

  // The PDF: the same pages (drawn at the print time), a few at a time out of sight, each made into a picture
  // (pdf-export.ts, loaded only now); the file counted as a print once made, then downloaded.
  const offscreen = useRef<HTMLDivElement>(null);
  const [pdfPages, setPdfPages] = useState<{ from: number; to: number } | null>(null);
  const [pdfDone, setPdfDone] = useState<number | null>(null);
  const savePdf = async () => {
    if (!template || !models) return;
    setPdfDone(0);
    try {
      flushSync(() => setPrintedAt(dayjs().format('YYYY-MM-DD HH:mm')));
      const { pdfPageOf, writePdf } = await import('../../../components/PrintPage/pdf-export.ts');
      const title = bills.length === 1 ? String(bills[0].billCode ?? '') : `${decl.label[ctx.lang]} (${bills.length})`;
      const out: PdfPage[] = [];
      for (let from = 0; from < pageCount; from += PDF_PAGES_PER_STEP) {
        flushSync(() => setPdfPages({ from, to: Math.min(pageCount, from + PDF_PAGES_PER_STEP) }));
        for (const node of offscreen.current!.querySelectorAll<HTMLElement>('.p8-print-page[data-drawn="true"]')) out.push(await pdfPageOf(node));
        setPdfDone(out.length);
      }
      setPdfPages(null);
      const bytes = writePdf(out, { title });
      await count('pdf');
      saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `${title || decl.label[ctx.lang]}.pdf`);
    } finally {
      setPdfPages(null);
      setPdfDone(null);
    }
  };

  // A receipt template also goes to the tenant's cloud printers, as the provider's lines of text.
  const receipt = template && template.layout.paper.kind in RECEIPT_CHARS ? (template.layout.paper.kind as ReceiptPaper) : undefined;
  const printers = useQuery({ queryKey: ['print-printers', decl.type], queryFn: () => http.get<Array<{ id: number; name: string; provider: string }>>(`${api}/print/printers`, undefined, { noLoading: true }), enabled: !!receipt });
  const [printerId, setPrinterId] = useState<number | undefined>(undefined);
  const cloudPrinter = printerId ?? printers.data?.[0]?.id;
  const [sending, setSending] = useState(false);
  const sendToPrinter = async () => {
    if (!template || !receipt || !models || !cloudPrinter) return;
    setSending(true);
    try {
      for (const [i, bill] of bills.entries()) {
        const lines = receiptLinesOf(template.layout, decl, bill, ctx, models[i], RECEIPT_CHARS[receipt]);
        await http.post(`${api}/print/cloud`, { id: bill.id, templateId: template.id, printerId: cloudPrinter, paper: receipt, lines }, { noLoading: true });
        void queryClient.invalidateQueries({ queryKey: ['bill', decl.type, bill.id] });
      }
      onPrinted?.();
      feedback.message.success(t('bill.printSent', { count: bills.length }));
    } finally {
      setSending(false);
    }
  };

  const logo = config?.logo ?? '';
  const widest = models ? Math.max(...models.map((m) => m.page.width)) : 210;
  const sizes = models ? [...new Set(models.map((m) => `${Math.round(m.page.width)} × ${Math.round(m.page.height)} mm`))].join(', ') : '';
  /**
   * The job's pages: in the preview those in view drawn (each sheet named `<bill>-<page>`), captions between
   * bills; in the print root the first `job.drawn`; out of sight for the PDF the step being made.
   */
  const pages = (mode: 'preview' | 'print' | 'pdf') =>
    template &&
    models &&
    bills.map((bill, i) => {
      const at = offsets[i];
      const which =
        mode === 'preview'
          ? { drawn: (p: number) => sheetDrawn(`${i}-${p}`), sheetKey: String(i) }
          : mode === 'print'
            ? { limit: Math.max(0, job.drawn - at), pageName: rules?.names[i] }
            : { limit: Math.max(0, (pdfPages?.to ?? 0) - at), drawn: (p: number) => at + p >= (pdfPages?.from ?? 0) };
      return (
        <Fragment key={bill.id}>
          {mode === 'preview' && bills.length > 1 && (
            <Typography.Text className="p8-print-caption" data-testid="bill-print-caption">
              {`${i + 1} / ${bills.length} · ${String(bill.billCode ?? '')}`}
            </Typography.Text>
          )}
          <PrintPages layout={template.layout} decl={decl} bill={bill} ctx={ctx} logo={logo} model={models[i]} {...which} />
        </Fragment>
      );
    });
  return (
    <Modal
      open
      // Wide enough for the widest sheet (a landscape A4 too) where the screen allows.
      width={`min(${Math.max(receipt ? 960 : 720, Math.ceil(widest * 3.78 + 80))}px, 96vw)`}
      onCancel={onClose}
      title={bills.length > 1 ? t('bill.printBatchTitle', { count: bills.length }) : t('bill.printPreview')}
      footer={
        <Space>
          {models && (
            <Typography.Text type="secondary" data-testid="bill-print-pages">
              {t('bill.printPages', { count: pageCount, size: sizes })}
            </Typography.Text>
          )}
          {receipt && (
            <Space.Compact>
              <Select
                style={{ minWidth: 160 }}
                placeholder={t('bill.printCloudNone')}
                value={cloudPrinter}
                onChange={(id: number) => setPrinterId(id)}
                options={(printers.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                notFoundContent={t('bill.printCloudNone')}
                data-testid="bill-print-printer"
              />
              <Button icon={<CloudUploadOutlined />} disabled={!cloudPrinter || !models} loading={sending} onClick={() => void quietly(sendToPrinter)} data-testid="bill-print-cloud">
                {t('bill.printCloud')}
              </Button>
            </Space.Compact>
          )}
          <Button icon={<FilePdfOutlined />} disabled={!models || job.printing} loading={pdfDone !== null} onClick={() => void quietly(savePdf)} data-testid="bill-print-pdf">
            {pdfDone === null ? t('bill.printPdf') : t('bill.printDrawing', { drawn: pdfDone, count: pageCount })}
          </Button>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!models || pdfDone !== null} loading={job.printing && job.drawn < pageCount} onClick={() => void quietly(print)} data-testid="bill-print-go">
            {job.printing && job.drawn < pageCount ? t('bill.printDrawing', { drawn: job.drawn, count: pageCount }) : t('bill.print')}
          </Button>
        </Space>
      }
      data-testid="bill-print-preview"
    >
      <Space style={{ marginBottom: 8 }}>
        <span>{t('bill.printTemplate')}</span>
        <Select
          style={{ minWidth: 260 }}
          loading={templates.isFetching}
          value={template ? choiceKey(template) : null}
          onChange={(value: number | string | null) => setChosen(value)}
          options={(templates.data ?? []).map((c) => ({ value: choiceKey(c), label: c.isDefault ? t('bill.printDefault', { name: c.name }) : c.name }))}
          data-testid="bill-print-template"
        />
        {bills.length === 1 && bills[0].printCount ? <Typography.Text type="secondary">{t('bill.printedTimes', { count: Number(bills[0].printCount) })}</Typography.Text> : null}
      </Space>
      <div className="p8-print-sheets" style={{ maxHeight: '70vh' }} ref={setSheetsBox}>
        {pages('preview') ?? <Spin />}
      </div>
      {job.printing && rules && (
        <PrintRoot css={rules.css} testId="bill-print-root">
          {pages('print')}
        </PrintRoot>
      )}
      {pdfPages &&
        createPortal(
          <div className="p8-print-offscreen" ref={offscreen} aria-hidden>
            {pages('pdf')}
          </div>,
          document.body,
        )}
    </Modal>
  );
}
