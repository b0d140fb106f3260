import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProColumn } from '../ProTable/index.tsx';
import type { RecordKey } from './record-key.ts';
import StatusSwitch, { useStatusEnum } from './StatusSwitch.tsx';
import type { RecordWrites } from './use-record-writes.ts';

interface StatusColumnOptions<T> {
  record: RecordKey;
  /** The record type's writes ({@link useRecordWrites}): a switch enables or disables its row. */
  writes: Pick<RecordWrites<T>, 'setEnabled'>;
  /** The question before disabling a row; none when omitted. */
  confirmOff?: (row: T) => string;
  /** The state written inside the (wider) switch; the column is then at least {@link LABELLED_WIDTH} wide. */
  labelled?: boolean;
  /** Width, alignment, server sort, search of the column on this screen. */
  column?: Pick<ProColumn<T>, 'width' | 'align' | 'sortable' | 'search'>;
}

/** Width of a status column whose switch says its state: room for the longer label ("Disabled") in every language. */
export const LABELLED_WIDTH = 120;

/**
 * The two columns every record list has, built for the screen's row type:
 * - `status<Row>({ record, writes })`: the `enabled` column, searchable by status (unless the screen
 *   says otherwise), a {@link StatusSwitch} in each row;
 * - `actions<Row>(width, (row) => <RowActions … />)`: the operations, fixed on the right and always shown.
 */
export function useRecordColumns() {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  const valueEnum = useStatusEnum();
  const status = useCallback(
    <T extends { id: number; enabled: boolean }>({ record, writes, confirmOff, labelled, column }: StatusColumnOptions<T>): ProColumn<T> => ({
      prop: 'enabled',
      title: t('status'),
      search: true,
      valueEnum,
      ...column,
      ...(labelled && typeof column?.width !== 'string' && { width: Math.max(column?.width ?? 0, LABELLED_WIDTH) }),
      render: (_, row) => (
        <StatusSwitch record={record} id={row.id} checked={row.enabled} onChange={(on) => writes.setEnabled([row], on)} confirmOff={confirmOff?.(row)} labelled={labelled} />
      ),
    }),
    [t, valueEnum],
  );
  const actions = useCallback(
    <T,>(width: number, render: (row: T) => ReactNode): ProColumn<T> => ({ prop: 'operation', title: t('operation'), fixed: 'right', hideInSetting: true, width, render: (_, row) => render(row) }),
    [t],
  );
  return useMemo(() => ({ status, actions }), [status, actions]);
}
