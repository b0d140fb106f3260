import { useCallback, useState, type Key } from 'react';
import { Button, Tooltip } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Assignment } from '@p8/contract/basic';
import { feedback } from '../../app/feedback.ts';
import { Auth } from '../Auth/index.tsx';
import AssignDialog from '../Pickers/AssignDialog.tsx';
import { codeOf, testIdOf, type RecordKey } from './record-key.ts';

interface Named {
  id: number;
  name: string;
}

interface RecordAssignOptions {
  record: RecordKey;
  /** The record's current assignment (from its detail). */
  loadAssignment: (id: number) => Promise<Assignment | undefined>;
  /** Replaces the assignment of the records. */
  save: (ids: number[], assignment: Assignment) => Promise<unknown>;
  onSaved: () => void;
}

/**
 * Assigning suppliers, customers or warehouses to departments and staff (while the tenant's
 * applyRange… switch is on), behind the record's `assign` button code: the row link `assign-<id>` (the
 * dialog starts from the record's assignment), the toolbar button `<name>-assign-selected` (a batch
 * replaces whatever the records had) and the dialog, which the screen renders.
 */
export function useRecordAssign({ record, loadAssignment, save, onSaved }: RecordAssignOptions) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const [state, setState] = useState<{ open: boolean; rows: Named[]; initial?: Assignment }>({ open: false, rows: [] });
  const [loading, setLoading] = useState<number | null>(null);

  const openOne = useCallback(
    async (row: Named) => {
      setLoading(row.id);
      try {
        setState({ open: true, rows: [row], initial: await loadAssignment(row.id) });
      } catch {
        /* shown by the HTTP client */
      } finally {
        setLoading(null);
      }
    },
    [loadAssignment],
  );

  const rowLink = (row: Named) => (
    <Auth code={codeOf(record, 'assign')}>
      <Button type="link" size="small" icon={<TeamOutlined />} loading={loading === row.id} onClick={() => void openOne(row)} data-testid={`assign-${row.id}`}>
        {t('common.assign')}
      </Button>
    </Auth>
  );

  const selectedButton = (selectedKeys: Key[], selectedRows: Named[]) => (
    <Auth code={codeOf(record, 'assign')}>
      <Tooltip title={t('assign.replaceTip')}>
        <Button
          icon={<TeamOutlined />}
          disabled={!selectedKeys.length}
          onClick={() => setState({ open: true, rows: selectedKeys.map((id) => ({ id: Number(id), name: selectedRows.find((r) => r?.id === Number(id))?.name ?? String(id) })) })}
          data-testid={testIdOf(record, 'assign-selected')}
        >
          {t('common.assignSelected')}
        </Button>
      </Tooltip>
    </Auth>
  );

  const dialog = (
    <AssignDialog
      open={state.open}
      title={state.rows.length === 1 ? t('assign.title', { name: state.rows[0]!.name }) : t('assign.titleMany', { count: state.rows.length })}
      initial={state.initial}
      onClose={() => setState((s) => ({ ...s, open: false }))}
      onSubmit={async (assignment) => {
        await save(
          state.rows.map((r) => r.id),
          assignment,
        );
        feedback.message.success(t('assign.saved'));
        onSaved();
      }}
      data-testid="assign-dialog"
    />
  );

  return { rowLink, selectedButton, dialog };
}
