import type { ReactNode } from 'react';
import { Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';

export interface RowMoreItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  /** Why the action is unavailable; the item shows disabled with this as its tooltip. */
  disabledTip?: string;
  /** Asked first (OK / cancel) when given. */
  confirm?: string;
  onClick: () => unknown;
  'data-testid'?: string;
}

/**
 * The "more" menu of a table row, for its less frequent actions, so the action column stays narrow.
 * Items the user may not use are left out by the caller; with none left the menu is not shown.
 */
export default function RowMore({ items, 'data-testid': testId }: { items: Array<RowMoreItem | false | null | undefined>; 'data-testid'?: string }) {
  const { t } = useTranslation();
  const shown = items.filter((item): item is RowMoreItem => !!item);
  if (!shown.length) return null;

  const menu: MenuProps['items'] = shown.map((item) => ({
    key: item.key,
    icon: item.icon,
    danger: item.danger,
    disabled: !!item.disabledTip,
    label: item.disabledTip ? (
      <Tooltip title={item.disabledTip} placement="left">
        <span data-testid={item['data-testid']}>{item.label}</span>
      </Tooltip>
    ) : (
      <span data-testid={item['data-testid']}>{item.label}</span>
    ),
  }));

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = shown.find((i) => i.key === key);
    if (!item || item.disabledTip) return;
    if (!item.confirm) return void item.onClick();
    feedback.modal.confirm({
      title: t('common.tip'),
      content: item.confirm,
      okButtonProps: item.danger ? { danger: true } : undefined,
      onOk: async () => {
        try {
          await item.onClick();
        } catch {
          /* the HTTP client has shown why */
        }
      },
    });
  };

  return (
    <Dropdown menu={{ items: menu, onClick }} trigger={['click']} placement="bottomRight">
      <Button type="link" size="small" data-testid={testId}>
        {t('system.common.more')} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
