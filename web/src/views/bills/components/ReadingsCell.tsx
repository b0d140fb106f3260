import { useState } from 'react';
import { Alert, Button, InputNumber, Modal, Radio, Table, Tag, Typography, type ButtonProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import { readingPasses, verdictOf, type ApplicableTemplate, type InspectionItem, type Reading } from '@p8/contract/quality';
import { http } from '../../../app/http.ts';

interface ReadingsCellProps {
  decl: BillTypeDecl;
  materialId?: number | null;
  processId?: number | null;
  view: boolean;
  testId: string;
  value?: Reading[] | null;
  onChange?: (value: Reading[]) => void;
}

/** The template an inspection line follows (the server's choice: the material's, its category's, or a general one). */
function useTemplate(decl: BillTypeDecl, materialId: number | null | undefined, processId: number | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['inspection-template', decl.inspection, materialId, processId ?? null],
    enabled: enabled && Boolean(materialId && decl.inspection),
    queryFn: () =>
      http.get<ApplicableTemplate | null>(
        '/admin/quality/inspectionTemplate/applicable',
        { inspectionKind: decl.inspection!, materialId: materialId!, ...(processId ? { processId } : {}) },
        { noLoading: true },
      ),
  });
}

/**
 * An inspection line's readings: a button saying how many items are read, opening the template's items — a number
 * within the item's limits or pass / fail each — judged as typed by the contract's rule the server applies
 * (a failed blocking item fails the lot). Test ids `<cell>`, `<cell>-item-<n>`, `readings-ok`.
 */
export default function ReadingsCell({ decl, materialId, processId, view, testId, value, onChange }: ReadingsCellProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Reading[]>([]);
  const template = useTemplate(decl, materialId, processId, open);
  const readings = value ?? [];
  const items = template.data?.items ?? [];
  const byItem = new Map(draft.map((r) => [r.item, r]));
  const set = (item: number, change: Partial<Reading>) => setDraft((all) => [...all.filter((r) => r.item !== item), { ...(byItem.get(item) ?? { item }), ...change }].sort((a, b) => a.item - b.item));
  const verdict = items.length ? verdictOf(items, draft) : undefined;

  const columns = [
    { title: '#', dataIndex: 'item', width: 44 },
    { title: t('quality.item'), dataIndex: 'name', render: (name: string, item: InspectionItem) => (item.blocks ? <span>{name} <Tag color="red">{t('quality.blocks')}</Tag></span> : name) },
    { title: t('quality.method'), dataIndex: 'method', width: 120 },
    {
      title: t('quality.standard'),
      width: 150,
      render: (_: unknown, item: InspectionItem) => (item.valueKind === 'Numeric' ? `${item.standard ?? ''} [${item.lower ?? '−∞'}, ${item.upper ?? '+∞'}]` : t('quality.passFail')),
    },
    {
      title: t('quality.reading'),
      width: 190,
      render: (_: unknown, item: InspectionItem) =>
        item.valueKind === 'Numeric' ? (
          <InputNumber size="small" value={byItem.get(item.item)?.value ?? null} onChange={(v) => set(item.item, { value: v ?? null })} disabled={view} data-testid={`${testId}-item-${item.item}`} style={{ width: 150 }} />
        ) : (
          <Radio.Group size="small" value={byItem.get(item.item)?.passed ?? undefined} onChange={(e) => set(item.item, { passed: e.target.value as boolean })} disabled={view} data-testid={`${testId}-item-${item.item}`}>
            <Radio value={true}>{t('quality.pass')}</Radio>
            <Radio value={false}>{t('quality.fail')}</Radio>
          </Radio.Group>
        ),
    },
    {
      title: t('quality.judged'),
      width: 90,
      render: (_: unknown, item: InspectionItem) => {
        const passes = readingPasses(item, byItem.get(item.item));
        return passes === undefined ? <Typography.Text type="secondary">—</Typography.Text> : <Tag color={passes ? 'green' : 'red'}>{t(passes ? 'quality.pass' : 'quality.fail')}</Tag>;
      },
    },
  ];

  return (
    <>
      <Button
        size="small"
        disabled={!materialId}
        onClick={() => {
          setDraft(readings);
          setOpen(true);
        }}
        data-testid={testId}
      >
        {t('quality.readingsCount', { count: readings.length })}
      </Button>
      <Modal
        open={open}
        width={860}
        title={template.data ? `${t('quality.readings')} · ${template.data.name}` : t('quality.readings')}
        onCancel={() => setOpen(false)}
        okText={t('common.confirm')}
        okButtonProps={{ disabled: view || !template.data, 'data-testid': 'readings-ok' } as ButtonProps}
        onOk={() => {
          // Only what was read is kept: an item left empty has no reading.
          onChange?.(draft.filter((r) => (r.value !== null && r.value !== undefined) || (r.passed !== null && r.passed !== undefined)));
          setOpen(false);
        }}
        destroyOnHidden
      >
        {template.isFetched && !template.data ? (
          <Alert type="warning" showIcon message={t('error.InspectionTemplateMissing')} />
        ) : (
          <>
            <Table<InspectionItem> rowKey="item" size="small" pagination={false} loading={template.isFetching} columns={columns} dataSource={items} />
            {verdict && (
              <div style={{ marginTop: 12 }} data-testid="readings-verdict">
                {t('quality.verdictSoFar')}: <Tag color={verdict === 'Pass' ? 'green' : 'red'}>{t(verdict === 'Pass' ? 'quality.pass' : 'quality.fail')}</Tag>
              </div>
            )}
          </>
        )}
      </Modal>
    </>
  );
}
