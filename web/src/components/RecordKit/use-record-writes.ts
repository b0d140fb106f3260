import { useCallback, useMemo, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { errorText, isHttpError } from '../../app/http.ts';
import type { ProTableAction } from '../ProTable/index.tsx';

/** What the kit needs of a row: its id, and its name where it has one (to name it in a refusal). */
export interface RecordRow {
  id: number;
  name?: string;
}

/**
 * The text of a refused write. The server names the refused record by id in `additional` (a unit in
 * use, a warehouse that still holds stock); shown with the record's name instead when the screen has it.
 */
export function refusalText(error: unknown, rows: readonly RecordRow[] = []): string {
  if (isHttpError(error) && error.additional !== undefined) {
    const named = rows.find((r) => String(r.id) === String(error.additional));
    if (named?.name) return `${error.text.slice(0, error.text.length - String(error.additional).length - 2)}: ${named.name}`;
  }
  return errorText(error);
}

export function showRefusal(error: unknown, rows: readonly RecordRow[] = []) {
  feedback.message.error({ content: refusalText(error, rows), key: 'record-refusal', duration: 5 });
}

export interface RecordWritesOptions {
  /** The list; reloaded after every write, its selection cleared after a delete. */
  table: RefObject<Pick<ProTableAction, 'reload' | 'clearSelection'> | undefined>;
  /**
   * Enable / disable and delete calls of the record type. Make them `silent`: a refusal is shown here,
   * naming the record.
   */
  enable?: (ids: number[], enabled: boolean) => Promise<unknown>;
  remove?: (ids: number[]) => Promise<unknown>;
  /** After a write, instead of only reloading the list (e.g. to refresh the option lists of other screens too). */
  changed?: () => void;
}

/** The writes of {@link useRecordWrites}. */
export interface RecordWrites<R> {
  setEnabled: (rows: readonly R[], enabled: boolean) => Promise<void>;
  remove: (rows: readonly R[]) => Promise<void>;
}

/**
 * Enable / disable and delete of a record type with the kit's messages: a success toast, or the
 * server's refusal naming the record. The returned writes never reject (the status switch and the
 * confirmations stop spinning either way).
 */
export function useRecordWrites<R extends RecordRow>({ table, enable, remove, changed }: RecordWritesOptions): RecordWrites<R> {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });

  const afterWrite = useCallback(() => (changed ? changed() : table.current?.reload()), [changed, table]);

  const setEnabled = useCallback(
    async (rows: readonly R[], enabled: boolean) => {
      try {
        await enable?.(
          rows.map((r) => r.id),
          enabled,
        );
        feedback.message.success(enabled ? t('enabledDone') : t('disabledDone'));
        afterWrite();
      } catch (error) {
        showRefusal(error, rows);
      }
    },
    [enable, afterWrite, t],
  );

  const removeRows = useCallback(
    async (rows: readonly R[]) => {
      try {
        await remove?.(rows.map((r) => r.id));
        feedback.message.success(t('deleted'));
        table.current?.clearSelection();
        afterWrite();
      } catch (error) {
        showRefusal(error, rows);
      }
    },
    [remove, afterWrite, table, t],
  );

  return useMemo(() => ({ setEnabled, remove: removeRows }), [setEnabled, removeRows]);
}
