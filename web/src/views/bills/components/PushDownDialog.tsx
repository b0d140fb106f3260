import { useMemo, useState } from 'react';
import { Modal, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BillSourceLine } from '@p8/contract/bills/api';
import { billType } from '@p8/contract/bills/catalogue';
import type { BillTypeDecl } from '@p8/contract/bills/registry';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import { http } from '../../../app/http.ts';
import { labelOf } from '../kit.ts';

/**
 * Push down: open lines of audited bills of one of the type's source types (the declaration's
 * `sources`), several chosen at once; the server makes a new draft whose lines take the open quantities.
 */
export default function PushDownDialog({ decl, api, lang, onClose, onDone }: { decl: BillTypeDecl; api: string; lang: string; onClose: () => void; onDone: (id: number) => void }) {
  const { t } = useTranslation();
  const [sourceType, setSourceType] = useState(decl.sources[0]?.type ?? '');
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const columns = useMemo<ProColumn<BillSourceLine>[]>(
    () => [
      { prop: 'sourceBillCode', title: t('bill.sourceBill'), width: 170, search: { key: 'keyword', label: t('bill.keyword') } },
      { prop: 'sourceBillDate', title: t('bill.billDate'), width: 110 },
      { prop: 'partnerName', title: t('bill.partner'), width: 160 },
      { prop: 'materialCode', title: t('bill.materialCode'), width: 130 },
      { prop: 'materialName', title: t('bill.materialName'), width: 180 },
      { prop: 'specification', title: t('bill.specification'), width: 120 },
      { prop: 'unitName', title: t('bill.unit'), width: 70 },
      { prop: 'number', title: t('bill.sourceNumber'), width: 100, valueType: 'number' },
      { prop: 'takenNumber', title: t('bill.takenNumber'), width: 100, valueType: 'number' },
      { prop: 'openNumber', title: t('bill.openNumber'), width: 100, valueType: 'number' },
    ],
    [t],
  );
  return (
    <Modal
      open
      width={1100}
      title={t('bill.pushDownTitle', { name: labelOf(decl.label, lang) })}
      onCancel={onClose}
      okText={t('bill.pushDownOk', { count: selected.length })}
      okButtonProps={{ disabled: !selected.length, loading: busy, 'data-testid': 'bill-pushdown-ok' } as never}
      onOk={async () => {
        setBusy(true);
        try {
          const made = await http.post<{ id: number }>(`${api}/pushDown`, { sourceType, sourceLineIds: selected });
          onDone(made.id);
        } finally {
          setBusy(false);
        }
      }}
      data-testid="bill-pushdown-dialog"
    >
      {decl.sources.length > 1 && (
        <Segmented
          value={sourceType}
          onChange={(v) => {
            setSourceType(String(v));
            setSelected([]);
          }}
          options={decl.sources.map((s) => ({ value: s.type, label: labelOf(billType(s.type)?.label ?? { zh: s.type, en: s.type }, lang) }))}
          style={{ marginBottom: 12 }}
        />
      )}
      <ProTable<BillSourceLine>
        path={`${api}/sources`}
        params={{ sourceType }}
        rowKey="sourceLineId"
        columns={columns}
        scroll={{ y: 380 }}
        size="small"
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
      />
    </Modal>
  );
}
