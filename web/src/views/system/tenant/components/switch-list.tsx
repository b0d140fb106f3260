import { Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigKey } from '../config-form.ts';

/** Switches of one section, each with its name and a one-line explanation, in a two-column grid. */
export default function SwitchList({ keys }: { keys: readonly ConfigKey[] }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office.tenant' });
  return (
    <div className="p8-tenant-switches">
      {keys.map((key) => (
        <label key={key} className="p8-tenant-switch" htmlFor={`tenant_${key}`}>
          <span className="p8-tenant-switch-text">
            <span className="p8-tenant-switch-name">{t(`switches.${key}`)}</span>
            <span className="p8-tenant-switch-explain">{t(`explain.${key}`)}</span>
          </span>
          <Form.Item name={key} valuePropName="checked" noStyle>
            <Switch id={`tenant_${key}`} data-testid={`tenant-${key}`} />
          </Form.Item>
        </label>
      ))}
    </div>
  );
}
