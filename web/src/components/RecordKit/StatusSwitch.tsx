import { useMemo, useState } from 'react';
import { Switch, Tag, type ButtonProps } from 'antd';
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
}

/**
 * The enabled switch of a record row: saves at once (asking first before disabling when the screen
 * says why), and shows a plain tag to users without the record's `enable` button code.
 */
export default function StatusSwitch({ record, id, checked, onChange, confirmOff, labelled }: StatusSwitchProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  const can = useAuth();
  const [saving, setSaving] = useState(false);

  if (!can(codeOf(record, 'enable'))) return <Tag color={checked ? 'green' : undefined}>{checked ? t('enabled') : t('disabled')}</Tag>;

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
    if (next || !confirmOff) return void save(next);
    feedback.modal.confirm({
      title: t('disable'),
      content: confirmOff,
      okButtonProps: { danger: true, 'data-testid': testIdOf(record, 'disable-confirm') } as ButtonProps,
      onOk: () => save(next),
    });
  };

  return (
    <Switch
      size={labelled ? 'default' : 'small'}
      checked={checked}
      loading={saving}
      checkedChildren={labelled ? t('enabled') : undefined}
      unCheckedChildren={labelled ? t('disabled') : undefined}
      onChange={change}
      // A click on the switch is not a click on the row (which would make it the current row).
      onClick={(_, event) => event.stopPropagation()}
      aria-label={t('status')}
      data-testid={`row-enable-${id}`}
    />
  );
}

/** Value enum of an `enabled` column (its search select and its text). */
export function useStatusEnum(): ValueEnum {
  const { t } = useTranslation(undefined, { keyPrefix: 'kit.record' });
  return useMemo(() => ({ true: { text: t('enabled'), color: 'green' }, false: { text: t('disabled') } }), [t]);
}
