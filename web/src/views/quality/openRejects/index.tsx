import { useMemo } from 'react';
import { Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { billLink, billScreenPath } from '@p8/contract/bills/registry';
import { billType } from '@p8/contract/bills/catalogue';
import { DISPOSED_KINDS, INSPECTION_KIND_LABELS, type OpenRejectRow } from '@p8/contract/quality';
import ProTable, { type ProColumn } from '../../../components/ProTable/index.tsx';
import { useAuth } from '../../../components/Auth/index.tsx';
import { useOpenPaths } from '../../../hooks/useOpenPaths.ts';

const PATH = '/admin/quality/openRejects';

/**
 * Quality → open rejects (menu quality_openRejects): per inspected source line, what audited inspections rejected
 * and nobody has taken into a reject warehouse yet while the line is still open — the source bill opens from its
 * code for whoever holds its screen; exported by holders of quality_openRejects_export.
 */
export default function OpenRejectsPage() {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'quality' });
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const can = useAuth();
  const navigate = useNavigate();
  const openPaths = useOpenPaths();
  const columns = useMemo<ProColumn<OpenRejectRow>[]>(() => {
    const quantity = (prop: keyof OpenRejectRow, title: string): ProColumn<OpenRejectRow> => ({ prop, title, width: 120, align: 'right', valueType: 'number' });
    const sourceCell = (row: OpenRejectRow) => {
      const decl = billType(row.sourceBillType);
      const label = `${decl?.label[lang] ?? row.sourceBillType} ${row.sourceBillCode}`;
      if (!decl || !openPaths.has(billScreenPath(decl))) return label;
      const link = billLink(decl, row.sourceBillId);
      return (
        <Typography.Link onClick={() => navigate(link.path, { state: link.state })} data-testid={`open-rejects-source-${row.id}`}>
          {label}
        </Typography.Link>
      );
    };
    return [
      {
        prop: 'inspectionKind',
        title: t('inspectionKind'),
        width: 120,
        lockSetting: true,
        render: (_: unknown, row: OpenRejectRow) => INSPECTION_KIND_LABELS[row.inspectionKind][lang],
        search: { type: 'select', options: DISPOSED_KINDS.map((value) => ({ value, label: INSPECTION_KIND_LABELS[value][lang] })), order: 0 },
      },
      { prop: 'inspections', title: t('inspectionReports'), width: 180, ellipsis: true },
      { prop: 'lastDate', title: t('inspectedOn'), width: 110 },
      { prop: 'sourceBillCode', title: t('sourceBill'), width: 230, render: (_: unknown, row: OpenRejectRow) => sourceCell(row) },
      { prop: 'partnerName', title: t('partner'), width: 160, render: (v: unknown) => (v ? String(v) : '—') },
      { prop: 'materialCode', title: t('materialCode'), width: 120 },
      { prop: 'materialName', title: t('materialName'), width: 160 },
      quantity('rejected', t('rejected')),
      quantity('intoRejects', t('intoRejects')),
      { ...quantity('open', t('openRejects')), fixed: 'right' },
    ];
  }, [t, lang, navigate, openPaths]);
  return (
    <ProTable<OpenRejectRow>
      path={PATH}
      listType="quality_openRejects"
      rowKey="id"
      columns={columns}
      exportPath={can('quality_openRejects_export') ? `${PATH}/export` : undefined}
      data-testid="open-rejects"
    />
  );
}
