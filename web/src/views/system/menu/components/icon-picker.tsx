import { useMemo, useState } from 'react';
import { Button, Empty, Input, Popover, Tooltip } from 'antd';
import { AppstoreOutlined, CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import MenuIcon, { hasMenuIcon, MENU_ICON_NAMES } from '../../../../components/MenuIcon/index.tsx';
import './icon-picker.css';

interface IconPickerProps {
  value?: string | null;
  onChange?: (value: string) => void;
  disabled?: boolean;
  id?: string;
}

const shortName = (name: string) => name.replace(/Outlined$/, '');

/**
 * A menu icon field: the name (as stored in `metaIcon`, e.g. `TeamOutlined`) with its preview, typed by
 * hand or picked from a searchable grid of the icons the shell can show.
 */
export default function IconPicker({ value, onChange, disabled, id }: IconPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const icons = useMemo(() => {
    const text = search.trim().toLowerCase();
    return MENU_ICON_NAMES.filter((name) => !text || name.toLowerCase().includes(text));
  }, [search]);

  const pick = (name: string) => {
    onChange?.(name);
    setOpen(false);
  };

  const grid = (
    <div className="p8-icon-picker" data-testid="icon-picker">
      <Input
        allowClear
        autoFocus
        prefix={<SearchOutlined />}
        placeholder={t('system.menu.iconSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        data-testid="icon-picker-search"
      />
      {icons.length ? (
        <div className="p8-icon-picker-grid">
          {icons.map((name) => (
            <Tooltip key={name} title={name} mouseEnterDelay={0.4}>
              <button
                type="button"
                className={`p8-icon-picker-item${value === name ? ' is-active' : ''}`}
                onClick={() => pick(name)}
                data-testid={`icon-${name}`}
                aria-label={name}
              >
                <MenuIcon name={name} />
                <span>{shortName(name)}</span>
              </button>
            </Tooltip>
          ))}
        </div>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.menu.iconNone')} />
      )}
    </div>
  );

  return (
    <Popover
      content={grid}
      trigger="click"
      open={open && !disabled}
      onOpenChange={setOpen}
      placement="bottomLeft"
      arrow={false}
      destroyOnHidden
    >
      <Input
        id={id}
        value={value ?? ''}
        disabled={disabled}
        placeholder={t('system.menu.iconPlaceholder')}
        onChange={(e) => onChange?.(e.target.value)}
        prefix={<span className="p8-icon-picker-preview">{value && hasMenuIcon(value) ? <MenuIcon name={value} /> : <AppstoreOutlined style={{ opacity: 0.3 }} />}</span>}
        suffix={
          value && !disabled ? (
            <Button
              type="text"
              size="small"
              icon={<CloseCircleFilled style={{ opacity: 0.35 }} />}
              aria-label={t('system.menu.iconClear')}
              onClick={(e) => {
                e.stopPropagation();
                onChange?.('');
              }}
            />
          ) : null
        }
        data-testid="menu-icon"
      />
    </Popover>
  );
}
