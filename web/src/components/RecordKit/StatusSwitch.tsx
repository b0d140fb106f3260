import { useMemo, useState } from 'react';
import { Switch, Tag, Tooltip, type ButtonProps, type ModalFuncProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { useAuth } from '../Auth/index.tsx';
import type { ValueEnum } from '../ProTable/index.tsx';
import { codeOf, testIdOf, type RecordKey } from './record-key.ts';

interface StatusSwitchProps {
  record: RecordKey;
  /** The row's id: the switch is `row-enable-<id>`. */
  id: number;
  checked: boolean;
  /** Saves the new state; the switch spins until it settles. */
  onChange: (enabled: boolean) => Promise<unknown>;
  /** Asked before switching off; no question when omitted. */
  confirmOff?: string;
  /** The state written inside the (wider) switch. */
  labelled?: boolean;
  /** The switch is shown but cannot be used (a row that may not be switched off), with why on hover. */
  disabled?: boolean;
  disabledTip?: string;
}

/**
 * The enabled switch of a record row: saves at once (asking first before disabling when the screen
 * says why), and shows a plain tag to users without the record's `enable` button code.
 */
export default function StatusSwitch({ record, id, checked, onChange, confirmOff, labelled, disabled, disabledTip }: StatusSwitchProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  const can = useAuth();

  if (!can(codeOf(record, 'enable'))) return <Tag color={checked ? 'green' : undefined}>{checked ? t('enabled') : t('disabled')}</Tag>;

  return (
    <SaveSwitch
      checked={checked}
      onChange={onChange}
      confirm={(next) =>
        next || !confirmOff
          ? undefined
          : { title: t('disable'), content: confirmOff, okButtonProps: { danger: true, 'data-testid': testIdOf(record, 'disable-confirm') } as ButtonProps }
      }
      labels={labelled ? [t('enabled'), t('disabled')] : undefined}
      disabled={disabled}
      disabledTip={disabledTip}
      aria-label={t('status')}
      data-testid={`row-enable-${id}`}
    />
  );
}

interface SaveSwitchProps {
  checked: boolean;
  /** Saves the new state; the switch spins until it settles (whoever saves shows a failure). */
  onChange: (next: boolean) => Promise<unknown>;
  /** The question to ask before switching to `next`; saves at once when it gives none. */
  confirm?: (next: boolean) => ModalFuncProps | undefined;
  /** The on / off texts written inside the (wider) switch. */
  labels?: [on: string, off: string];
  disabled?: boolean;
  /** Why the switch is disabled, shown on hover. */
  disabledTip?: string;
  'aria-label': string;
  'data-testid': string;
}

/**
 * A row's on / off switch that saves at once (the enabled switch above, a staff member's
 * notifications…), optionally after a question; a click on it is not a click on the row.
 */
export function SaveSwitch({ checked, onChange, confirm, labels, disabled, disabledTip, ...rest }: SaveSwitchProps) {
  const [saving, setSaving] = useState(false);

  const save = async (next: boolean) => {
    setSaving(true);
    try {
      await onChange(next);
    } catch {
      /* shown by whoever saved; the switch stays as the server has it */
    } finally {
      setSaving(false);
    }
  };

  const change = (next: boolean) => {
    const question = confirm?.(next);
    if (!question) return void save(next);
    feedback.modal.confirm({ ...question, onOk: () => save(next) });
  };

  const control = (
    <Switch
      size={labels ? 'default' : 'small'}
      checked={checked}
      loading={saving}
      disabled={disabled}
      checkedChildren={labels?.[0]}
      unCheckedChildren={labels?.[1]}
      onChange={change}
      // A click on the switch is not a click on the row (which would make it the current row).
      onClick={(_, event) => event.stopPropagation()}
      aria-label={rest['aria-label']}
      data-testid={rest['data-testid']}
    />
  );
  return disabled && disabledTip ? <Tooltip title={disabledTip}>{control}</Tooltip> : control;
}

/** Value enum of an `enabled` column (its search select and its text). */
export function useStatusEnum(): ValueEnum {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  return useMemo(() => ({ true: { text: t('enabled'), color: 'green' }, false: { text: t('disabled') } }), [t]);
}
