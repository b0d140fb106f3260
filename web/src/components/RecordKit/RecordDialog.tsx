import { useCallback, useState } from 'react';
import FormDialog, { type FormDialogProps, type FormMode } from '../FormDialog/index.tsx';

/** What a record's add / edit / view dialog is showing. */
export interface RecordDialogState<R> {
  open: boolean;
  mode: FormMode;
  /** The record being edited or viewed; none when adding. */
  record?: R;
}

/**
 * State of a record's dialog: `dialog.open('edit', row)`, then
 * `<XxxDialog state={dialog.state} onClose={dialog.close} …>`. Closing keeps the record for the animation.
 */
export function useRecordDialog<R>() {
  const [state, setState] = useState<RecordDialogState<R>>({ open: false, mode: 'add' });
  const open = useCallback((mode: FormMode, record?: R) => setState({ open: true, mode, record }), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return { state, open, close };
}

/** What a record's dialog gets from its screen: `state={dialog.state} onClose={dialog.close} onSaved={reload}`. */
export interface RecordDialogProps<R> {
  state: RecordDialogState<R>;
  onClose: () => void;
  /** After a save (the dialog then closes). */
  onSaved: () => void;
}

interface RecordFormDialogProps<V extends object, R, B> extends Omit<FormDialogProps<V>, 'open' | 'mode' | 'onSubmit' | 'onClose'>, RecordDialogProps<R> {
  /** The body the values are sent as. */
  bodyOf: (values: V) => B;
  create: (body: B) => Promise<unknown>;
  /** Updates the record of the state (its id is added to the body). */
  update: (body: B & { id: number }) => Promise<unknown>;
}

/** A {@link FormDialog} for the record of a {@link RecordDialogState}: adds it, or updates it by id. */
export function RecordFormDialog<V extends object, R extends { id: number }, B>({ state, bodyOf, create, update, onSaved, ...dialog }: RecordFormDialogProps<V, R, B>) {
  const submit = async (values: V) => {
    const body = bodyOf(values);
    if (state.mode === 'add') await create(body);
    else if (state.record) await update({ ...body, id: state.record.id });
    onSaved();
  };
  return <FormDialog<V> {...dialog} open={state.open} mode={state.mode} onSubmit={submit} />;
}
