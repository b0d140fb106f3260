import { useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button, Modal, Select, Space, Spin, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { BillView } from '@p8/contract/bills/api';
import { billApiPath, type BillTypeDecl } from '@p8/contract/bills/registry';
import type { PrintTemplateChoice } from '@p8/contract/print/template';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { http } from '../../../app/http.ts';
import PrintPages, { buildPrintModel, companyOf, pageRule, type PrintContext } from '../../../components/PrintPage/index.tsx';
import { useAuthStore } from '../../../stores/auth.ts';

/**
 * Printing a bill: the templates of its type (the default first; the type's starter template when the
 * tenant has designed none), the bill on the chosen template's pages exactly as it prints, and "print",
 * which counts the print on the bill and hands the pages to the browser at the paper's exact size.
 */
export default function PrintPreview({ decl, bill, config, digits, lang, onClose }: { decl: BillTypeDecl; bill: BillView; config: TenantConfigView | undefined; digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }; lang: string; onClose: () => void }) {
  const { t } = useTranslation();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const queryClient = useQueryClient();
  const user = useAuthStore((s) => s.userInfo);
  const templates = useQuery({ queryKey: ['print-templates', decl.type, lang], queryFn: () => http.get<PrintTemplateChoice[]>(`${api}/print/templates`, undefined, { noLoading: true }), staleTime: 0 });
  const [chosen, setChosen] = useState<number | null | undefined>(undefined);
  const template = templates.data?.find((c) => c.id === chosen) ?? templates.data?.[0];
  const [printing, setPrinting] = useState(false);
  const [printedAt, setPrintedAt] = useState(() => dayjs().format('YYYY-MM-DD HH:mm'));

  const ctx: PrintContext = useMemo(
    () => ({ lang: lang === 'en' ? 'en' : 'zh', digits, company: companyOf(config), user: user?.realName || user?.name || '', printedAt }),
    [lang, digits, config, user?.realName, user?.name, printedAt],
  );
  const model = useMemo(() => (template ? buildPrintModel(template.layout, decl, bill, ctx) : undefined), [template, decl, bill, ctx]);

  // The pages go to the browser from a root of their own beside the app (print.css prints nothing else),
  // taken away again once the browser has printed (or when the dialog closes).
  useEffect(() => {
    if (!printing) return;
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done);
    const timer = window.setTimeout(() => window.print(), 50);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('afterprint', done);
    };
  }, [printing]);

  const print = async () => {
    if (!template) return;
    setPrintedAt(dayjs().format('YYYY-MM-DD HH:mm'));
    await http.post<{ printCount: number }>(`${api}/print`, { id: bill.id, templateId: template.id }, { noLoading: true });
    void queryClient.invalidateQueries({ queryKey: ['bill', decl.type, bill.id] });
    setPrinting(true);
  };

  const logo = config?.logo ?? '';
  return (
    <Modal
      open
      width={Math.min(1100, Math.max(720, (model?.page.width ?? 210) * 3.78 + 80))}
      onCancel={onClose}
      title={t('bill.printPreview')}
      footer={
        <Space>
          {model && (
            <Typography.Text type="secondary" data-testid="bill-print-pages">
              {t('bill.printPages', { count: model.pages.length, size: `${Math.round(model.page.width)} × ${Math.round(model.page.height)} mm` })}
            </Typography.Text>
          )}
          <Button type="primary" icon={<PrinterOutlined />} disabled={!model} onClick={() => void print()} data-testid="bill-print-go">
            {t('bill.print')}
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
          value={template?.id ?? null}
          onChange={(value: number | null) => setChosen(value)}
          options={(templates.data ?? []).map((c) => ({ value: c.id, label: c.isDefault ? t('bill.printDefault', { name: c.name }) : c.name }))}
          data-testid="bill-print-template"
        />
        {bill.printCount ? <Typography.Text type="secondary">{t('bill.printedTimes', { count: Number(bill.printCount) })}</Typography.Text> : null}
      </Space>
      <div className="p8-print-sheets" style={{ maxHeight: '70vh' }}>
        {template && model ? <PrintPages layout={template.layout} decl={decl} bill={bill} ctx={ctx} logo={logo} model={model} /> : <Spin />}
      </div>
      {printing &&
        template &&
        model &&
        createPortal(
          <div className="p8-print-root" data-testid="bill-print-root">
            <style>{pageRule(model)}</style>
            <PrintPages layout={template.layout} decl={decl} bill={bill} ctx={ctx} logo={logo} model={model} />
          </div>,
          document.body,
        )}
    </Modal>
  );
}
