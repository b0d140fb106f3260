import { Button, Modal } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BillView } from '@p8/contract/bills/api';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { BILL_STATUS_LABELS } from '@p8/contract/bills/status';
import type { TenantConfigView } from '@p8/contract/tenant-config';
import { formatNumber } from '../../../components/ProTable/format.ts';
import { gridFields, labelOf, listFields, nameKey, valueTypeOf } from '../kit.ts';

/** A value as printed: picker fields by their name, enums by their label, numbers with the tenant's digits. */
function printed(record: Record<string, unknown>, key: string, kind: string, digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }): string {
  if (kind === 'record' && key !== 'materialId') return String(record[nameKey(key)] ?? '');
  const value = record[key];
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  const type = valueTypeOf(kind as never);
  if (type === 'number') return formatNumber(value, digits.numberRetainsSmallDigit);
  if (type === 'amount') return formatNumber(value, digits.amountRetainsSmallDigit);
  return String(value);
}

/**
 * Print preview: the bill on an A4 page (the tenant's logo, title, slogan and phone, header fields, lines,
 * totals, signatures) as the browser prints it — the print style sheet hides everything but this page (bills.css).
 */
export default function PrintPreview({ decl, bill, config, digits, lang, onClose }: { decl: BillTypeDecl; bill: BillView; config: TenantConfigView | undefined; digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }; lang: string; onClose: () => void }) {
  const { t } = useTranslation();
  const head = listFields(decl, config).filter((f) => !['billCode', 'number', 'priceTotal', 'taxPriceTotal'].includes(f.key));
  const cols = gridFields(decl, config).filter((f) => !['serialNumbers', 'remark'].includes(f.key));
  return (
    <Modal
      open
      width={900}
      onCancel={onClose}
      title={t('bill.printPreview')}
      footer={
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="bill-print-go">
          {t('bill.print')}
        </Button>
      }
      data-testid="bill-print-preview"
    >
      <div className="bill-print-page">
        {(config?.title || config?.logo) && (
          <div className="bill-print-company" data-testid="bill-print-company">
            {config.logo && <img src={config.logo} alt="" />}
            <div>
              <strong>{config.title}</strong>
              {config.slogan && <div>{config.slogan}</div>}
              {config.phone && (
                <div>
                  {t('bill.printPhone')}: {config.phone}
                </div>
              )}
            </div>
          </div>
        )}
        <h1>{labelOf(decl.label, lang)}</h1>
        <div className="bill-print-head">
          <span>
            {t('bill.billCode')}: {bill.billCode}
          </span>
          <span>
            {t('bill.status')}: {labelOf(BILL_STATUS_LABELS[bill.billStatus], lang)}
          </span>
          {head.map((f) => (
            <span key={f.key}>
              {labelOf(f.label, lang)}: {printed(bill, f.key, f.kind, digits)}
            </span>
          ))}
        </div>
        <table>
          <thead>
            <tr>
              <th>#</th>
              {cols.map((f) => (
                <th key={f.key}>{labelOf(f.label, lang)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {bill.lines.map((line, i) => (
              <tr key={line.id}>
                <td>{i + 1}</td>
                {cols.map((f) => (
                  <td key={f.key} className={valueTypeOf(f.kind) === 'text' ? undefined : 'num'}>
                    {f.key === 'materialId' ? `${line.materialCode} ${line.materialName} ${line.specification}` : f.key === 'unitId' ? (line.unitName ?? '') : printed(line, f.key, f.kind, digits)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <div className="bill-print-foot">
          <span>
            {t('bill.totalNumber')}: {formatNumber(bill.number, digits.numberRetainsSmallDigit)}
          </span>
          <span>
            {t('bill.totalAmount')}: {formatNumber(bill.priceTotal, digits.amountRetainsSmallDigit)}
          </span>
          <span>
            {t('bill.createdBy')}: {bill.createdByName}
          </span>
          <span>
            {t('bill.auditBy')}: {bill.auditName ?? ''}
          </span>
        </div>
        {bill.remark ? <p>{String(bill.remark)}</p> : null}
      </div>
    </Modal>
  );
}
