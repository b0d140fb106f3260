import { createContext, useCallback, useContext, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';

/** Tells the surrounding form dialog or drawer that its user changed something the form's own events do not report. */
export const FormChangedContext = createContext<(() => void) | null>(null);

/**
 * For a control that changes the form by `setFieldValue` (which antd reports to no `onValuesChange`): the
 * function that marks the surrounding form changed, or a no-op outside one.
 */
export function useFormChanged(): () => void {
  return useContext(FormChangedContext) ?? noop;
}

const noop = () => undefined;

/**
 * Whether a form holds changes its user made since it was filled or saved, and a close that asks before
 * throwing them away. A change is what the user does — antd's `onValuesChange` (typing, choosing, adding or
 * removing a line, an upload finishing) or `useFormChanged()` — never what the screen sets itself
 * (`setFieldsValue` after loading), so an untouched form closes without a question.
 * The form dialog and the bill drawer use it; every form built on them asks the same way.
 */
export function useUnsavedChanges() {
  const { t } = useTranslation();
  const dirty = useRef(false);
  const asking = useRef(false);
  const changed = useCallback(() => {
    dirty.current = true;
  }, []);
  const saved = useCallback(() => {
    dirty.current = false;
  }, []);
  const isDirty = useCallback(() => dirty.current, []);
  /** Runs `close` at once when nothing is unsaved; otherwise asks first (Esc or "keep editing" keeps the form). */
  const confirmClose = useCallback(
    (close: () => void) => {
      if (!dirty.current) return close();
      if (asking.current) return;
      asking.current = true;
      feedback.modal.confirm({
        title: t('kit.form.discardTitle'),
        content: t('kit.form.discardContent'),
        okText: t('kit.form.discard'),
        cancelText: t('kit.form.keepEditing'),
        // Enter keeps the work: discarding takes a deliberate choice.
        autoFocusButton: 'cancel',
        okButtonProps: { danger: true, 'data-testid': 'discard-ok' } as never,
        cancelButtonProps: { 'data-testid': 'discard-cancel' } as never,
        onOk: () => {
          asking.current = false;
          dirty.current = false;
          close();
        },
        onCancel: () => {
          asking.current = false;
        },
      });
    },
    [t],
  );
  return useMemo(() => ({ changed, saved, isDirty, confirmClose }), [changed, saved, isDirty, confirmClose]);
}
