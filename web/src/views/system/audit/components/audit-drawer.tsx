import { useMemo, type ReactNode } from 'react';
import { Descriptions, Drawer, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AuditEntry } from '@p8/contract/system';
import { changesOf, type Change, type FormatValue } from './audit-detail.ts';

interface AuditDrawerProps {
  entry: AuditEntry | null;
  open: boolean;
  onClose: () => void;
  actionTag: (action: string) => ReactNode;
  entityTag: (entity: string) => ReactNode;
  /** Values as text for the entry's entity. */
  format: (entity: string) => FormatValue;
  /** Field names as the entity's screen labels them. */
  labelOf: (entity: string) => (field: string) => string;
}

/** One audit entry: who, when, what, and its detail — changes as a before / after table, other values labelled, the raw JSON below. */
export default function AuditDrawer({ entry, open, onClose, actionTag, entityTag, format, labelOf }: AuditDrawerProps) {
  const { t } = useTranslation();
  const text = format(entry?.entity ?? '');
  const label = labelOf(entry?.entity ?? '');
  const detail = entry?.detail;
  const changes = useMemo(() => changesOf(detail), [detail]);
  const json = useMemo(() => (detail === null || detail === undefined ? '' : JSON.stringify(detail, null, 2)), [detail]);
  const isPlainObject = typeof detail === 'object' && detail !== null && !Array.isArray(detail);

  return (
    <Drawer open={open} onClose={onClose} title={t('system.audit.detailTitle')} size={640} destroyOnHidden data-testid="audit-drawer">
      {entry && (
        <>
          <Descriptions
            column={2}
            size="small"
            bordered
            items={[
              { key: 'time', label: t('system.audit.time'), children: dayjs(entry.createdAt).format('YYYY-MM-DD HH:mm:ss'), span: 2 },
              { key: 'operator', label: t('system.audit.operator'), children: entry.adminName || '—' },
              { key: 'ip', label: t('system.audit.ip'), children: entry.ip || '—' },
              { key: 'action', label: t('system.audit.action'), children: actionTag(entry.action) },
              { key: 'entity', label: t('system.audit.entity'), children: entityTag(entry.entity) },
              { key: 'entityId', label: t('system.audit.entityId'), children: entry.entityId || '—', span: 2 },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            {changes ? t('system.audit.changes') : t('system.audit.detail')}
          </Typography.Title>
          {detail === null || detail === undefined ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.audit.noDetail')} />
          ) : changes ? (
            <Table<Change>
              size="small"
              bordered
              pagination={false}
              rowKey="field"
              dataSource={changes}
              data-testid="audit-changes"
              columns={[
                { key: 'field', title: t('system.audit.field'), width: 140, render: (_, c) => <Typography.Text strong>{label(c.field)}</Typography.Text> },
                { key: 'before', title: t('system.audit.before'), render: (_, c) => <span className="p8-audit-before">{text(c.field, c.before)}</span> },
                { key: 'after', title: t('system.audit.after'), render: (_, c) => <span className="p8-audit-after">{text(c.field, c.after)}</span> },
              ]}
            />
          ) : isPlainObject ? (
            <Descriptions
              column={1}
              size="small"
              bordered
              data-testid="audit-values"
              items={Object.entries(detail as Record<string, unknown>).map(([key, value]) => ({
                key,
                label: label(key),
                children: <span style={{ wordBreak: 'break-all' }}>{text(key, value)}</span>,
              }))}
            />
          ) : (
            <Typography.Paragraph>{text('', detail)}</Typography.Paragraph>
          )}
          {json && (
            <>
              <Typography.Title level={5} style={{ marginTop: 24 }}>
                {t('system.audit.raw')}
                <Typography.Text copyable={{ text: json, tooltips: [t('system.audit.copyJson'), t('system.audit.copied')] }} style={{ marginInlineStart: 8 }} />
              </Typography.Title>
              <pre className="p8-audit-json" data-testid="audit-json">
                {json}
              </pre>
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
