import { useState } from 'react';
import { Button, Form, Input, Tooltip } from 'antd';
import { FieldTimeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { BatchSuggestion } from '@p8/contract/bills/api';
import { lineDirection, type BillTypeDecl } from '@p8/contract/bills/registry';
import { http } from '../../../app/http.ts';
import { feedback } from '../../../app/feedback.ts';
import type { LineRow } from './BillLines.tsx';

/** Whether a line of `decl` takes goods out of stock (where a batch is chosen rather than made up). */
export function takesOut(decl: BillTypeDecl, row: Partial<LineRow>): boolean {
  return decl.stock === 'out' || decl.stock === 'transfer' || lineDirection(decl, row as Record<string, unknown>) === 'out';
}

const idOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : v && typeof v === 'object' && 'id' in v ? Number((v as { id: unknown }).id) : undefined);

/**
 * The batch cell of a line that takes goods out: the batch number, and a button asking the server for
 * the batches to take, earliest expiry first (`/admin/stock/batches/suggest`, the client adds /api). One batch covering
 * the line fills it in; several split the line into one line per batch, each with what it takes (in the
 * main unit). What the batches cannot cover is said, not guessed.
 */
export default function BatchCell({ decl, index, row, value, onChange, testId }: { decl: BillTypeDecl; index: number; row: Partial<LineRow>; value?: string | null; onChange?: (v: string) => void; testId: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const [busy, setBusy] = useState(false);
  const out = takesOut(decl, row);

  const suggest = async () => {
    // What the form holds now (the row given to the cell may be older than the last keystroke).
    const current = { ...row, ...((form.getFieldValue(['lines', index]) as Partial<LineRow> | undefined) ?? {}) };
    const materialId = current.materialId?.id;
    const warehouseId = idOf(current.warehouseId) ?? idOf(form.getFieldValue('warehouseId'));
    const quantity = Number(current.number ?? 0) * Number(current.ratio ?? 1);
    if (!materialId || !warehouseId || !(quantity > 0)) {
      feedback.message.warning(t('bill.batchNeeds'));
      return;
    }
    setBusy(true);
    try {
      const answer = await http.get<BatchSuggestion>('/admin/stock/batches/suggest', { materialId, warehouseId, quantity, locationId: idOf(current.locationId) });
      if (!answer.picks.length) {
        feedback.message.warning(t('bill.batchNone'));
        return;
      }
      if (Number(answer.short) > 0) feedback.message.warning(t('bill.batchShort', { short: Number(answer.short) }));
      const lines = [...((form.getFieldValue('lines') as LineRow[] | undefined) ?? [])];
      const split = answer.picks.map((p, i) => ({
        ...current,
        ...(i > 0 ? { id: undefined } : {}),
        batchNumber: p.batchNumber,
        expirationDate: p.expirationDate,
        // Several batches: each line takes its part in the main unit.
        ...(answer.picks.length > 1 ? { number: Number(p.take), ...(Number(current.ratio ?? 1) === 1 ? {} : { ratio: 1, unitId: null, unitName: null }) } : {}),
      }));
      lines.splice(index, 1, ...split);
      form.setFieldValue('lines', lines);
      onChange?.(answer.picks[0].batchNumber);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Input
      size="small"
      maxLength={100}
      value={value ?? ''}
      onChange={(e) => onChange?.(e.target.value)}
      data-testid={testId}
      suffix={
        out ? (
          <Tooltip title={t('bill.batchSuggest')}>
            <Button type="text" size="small" icon={<FieldTimeOutlined />} loading={busy} onClick={() => void suggest()} aria-label={t('bill.batchSuggest')} data-testid={`${testId}-suggest`} />
          </Tooltip>
        ) : undefined
      }
    />
  );
}
