import { useState } from 'react';
import { Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../../app/feedback.ts';

interface StatusSwitchProps {
  checked: boolean;
  /** Saves the new state; the switch spins until it settles (the HTTP client shows a failure). */
  onChange: (next: boolean) => Promise<unknown>;
  /** Asked before switching off (or on, when `confirmOn`); no question when omitted. */
  confirmOff?: string;
  confirmOn?: string;
  disabled?: boolean;
  /** Why the switch is disabled, shown on hover. */
  disabledTip?: string;
  'data-testid'?: string;
  'aria-label'?: string;
}

/** A row's on/off switch (enabled, notifications…) that saves at once, optionally after a confirmation. */
export default function StatusSwitch({ checked, onChange, confirmOff, confirmOn, disabled, disabledTip, ...rest }: StatusSwitchProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);

  const save = async (next: boolean) => {
    setSaving(true);
    try {
      await onChange(next);
    } catch {
      /* shown by the HTTP client; the switch stays as the server has it */
    } finally {
      setSaving(false);
    }
  };

  const change = (next: boolean) => {
    const question = next ? confirmOn : confirmOff;
    if (!question) return void save(next);
    feedback.modal.confirm({ title: t('common.tip'), content: question, onOk: () => save(next) });
  };

  const control = <Switch size="small" checked={checked} loading={saving} disabled={disabled} onChange={change} data-testid={rest['data-testid']} aria-label={rest['aria-label']} />;
  return disabled && disabledTip ? <Tooltip title={disabledTip}>{control}</Tooltip> : control;
}
