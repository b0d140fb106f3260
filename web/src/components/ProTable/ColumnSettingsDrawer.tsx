import { useState } from 'react';
import { Button, Checkbox, Drawer, Space, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { moveColumnSetting, renumber, stepColumnSetting, toggleColumnSetting } from './column-settings.ts';
import type { ColumnSetting } from './types.ts';

interface ColumnSettingsDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The effective settings when the drawer opens. */
  settings: ColumnSetting[];
  /** The code's defaults, for "restore defaults". */
  defaults: ColumnSetting[];
  titles: Record<string, string>;
  onSave: (settings: ColumnSetting[]) => Promise<unknown>;
}

/**
 * Column settings of one list for the whole tenant: show or hide each column and order them
 * (drag, or the arrows); locked (`disabled`) columns stay shown and in place. Saved through PUT
 * /admin/tenant/table/column/type.
 */
export default function ColumnSettingsDrawer(props: ColumnSettingsDrawerProps) {
  // Re-mounted per opening so the draft starts from the saved settings.
  return props.open ? <DrawerBody {...props} /> : null;
}

function DrawerBody({ open, onClose, settings, defaults, titles, onSave }: ColumnSettingsDrawerProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => renumber(settings));
  const [dragging, setDragging] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await onSave(renumber(draft));
      onClose();
    } catch {
      /* the HTTP client has shown the error */
    } finally {
      setSaving(false);
    }
  };

  const restore = () => {
    const locked = new Map(draft.filter((s) => s.disabled).map((s) => [s.prop, s]));
    setDraft(renumber(defaults.map((d) => locked.get(d.prop) ?? d)));
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('kit.table.settings.title')}
      size={380}
      data-testid="pro-table-column-settings"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={restore} data-testid="pro-table-column-settings-restore">
            {t('kit.table.settings.restore')}
          </Button>
          <Button type="primary" loading={saving} onClick={save} data-testid="pro-table-column-settings-save">
            {t('kit.table.settings.save')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('kit.table.settings.dragTip')}
      </Typography.Paragraph>
      <ul className="p8-column-settings">
        {draft.map((entry, index) => (
          <li
            key={entry.prop}
            data-prop={entry.prop}
            className={[
              'p8-column-settings-item',
              entry.disabled ? 'is-locked' : '',
              dragging === index ? 'is-dragging' : '',
            ].join(' ')}
            draggable={!entry.disabled}
            onDragStart={(e) => {
              setDragging(index);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              if (dragging === null) return;
              e.preventDefault();
              if (dragging !== index && !entry.disabled) {
                setDraft((d) => moveColumnSetting(d, dragging, index));
                setDragging(index);
              }
            }}
            onDragEnd={() => setDragging(null)}
            onDrop={(e) => e.preventDefault()}
          >
            <span className="p8-column-settings-handle">{entry.disabled ? <LockOutlined /> : <HolderOutlined />}</span>
            <Checkbox
              checked={entry.isShow}
              disabled={entry.disabled}
              onChange={(e) => setDraft((d) => toggleColumnSetting(d, entry.prop, e.target.checked))}
            >
              {titles[entry.prop] ?? entry.prop}
            </Checkbox>
            <span className="p8-column-settings-actions">
              {entry.disabled ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('kit.table.settings.locked')}
                </Typography.Text>
              ) : (
                <>
                  <Tooltip title={t('kit.table.settings.moveUp')}>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      aria-label={t('kit.table.settings.moveUp')}
                      disabled={!draft.slice(0, index).some((s) => !s.disabled)}
                      onClick={() => setDraft((d) => stepColumnSetting(d, index, -1))}
                    />
                  </Tooltip>
                  <Tooltip title={t('kit.table.settings.moveDown')}>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      aria-label={t('kit.table.settings.moveDown')}
                      disabled={!draft.slice(index + 1).some((s) => !s.disabled)}
                      onClick={() => setDraft((d) => stepColumnSetting(d, index, 1))}
                    />
                  </Tooltip>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </Drawer>
  );
}
