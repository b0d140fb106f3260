import { useState } from 'react';
import { Switch, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../../app/feedback.ts';
import { useAuth, type AuthCode } from '../../../../components/Auth/index.tsx';

interface StatusSwitchProps {
  checked: boolean;
  /** Saves the new state; the switch spins until it settles (the HTTP client shows a failure). */
  onChange: (next: boolean) => Promise<unknown>;
  /** Button code that may switch; without it the state shows as a tag. */
  code: AuthCode;
  /** Asked before switching off; no question when omitted. */
  confirmOff?: string;
  'data-testid'?: string;
}

/**
 * The enabled switch of a basic-record row (shared by the basic screens): saves at once, asks before
 * disabling, and shows a plain tag to users without the enable button.
 */
export default function StatusSwitch({ checked, onChange, code, confirmOff, ...rest }: StatusSwitchProps) {
  const { t } = useTranslation();
  const can = useAuth();
  const [saving, setSaving] = useState(false);

  if (!can(code)) return <Tag color={checked ? 'green' : 'default'}>{checked ? t('basic.common.enabled') : t('basic.common.disabled')}</Tag>;

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
    if (next || !confirmOff) return void save(next);
    feedback.modal.confirm({ title: t('basic.common.tip'), content: confirmOff, onOk: () => save(next) });
  };

  return (
    <Tooltip title={checked ? t('basic.common.enabled') : t('basic.common.disabled')} mouseEnterDelay={0.6}>
      <Switch
        size="small"
        checked={checked}
        loading={saving}
        onChange={change}
        data-testid={rest['data-testid']}
        aria-label={t('basic.common.status')}
      />
    </Tooltip>
  );
}
