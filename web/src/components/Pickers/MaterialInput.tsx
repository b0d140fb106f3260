import { useContext, useState } from 'react';
import { Button, Input, Space, Tooltip } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Material, MaterialTag } from '@p8/contract/basic';
import MaterialPicker from './MaterialPicker.tsx';

/** What a form keeps of a chosen material (a full record from the picker, or the parts a saved bill knows). */
export type PickedMaterial = Pick<Material, 'id' | 'code' | 'name'> & Partial<Material>;

export interface MaterialInputProps {
  value?: PickedMaterial | null;
  onChange?: (value: PickedMaterial | null) => void;
  disabled?: boolean;
  /** Materials that cannot be chosen. */
  disabledIds?: readonly number[];
  tag?: MaterialTag;
  placeholder?: string;
  allowClear?: boolean;
  /** In a narrow cell (a bill's line grid): the choose button shows its icon only, leaving the room to the material. */
  compact?: boolean;
  'data-testid'?: string;
}

/** "code name specification" of a material. */
export const materialLabel = (m: Pick<Material, 'code' | 'name'> & { specification?: string }) =>
  [m.code, m.name, m.specification].filter(Boolean).join(' · ');

/**
 * A form field holding one material: shows "code · name · specification" and opens the MaterialPicker
 * (single choice) to change it. Its value is the chosen record, so the form can show it without a
 * second request; the screen sends `value.id`.
 */
export default function MaterialInput({ value, onChange, disabled: ownDisabled, disabledIds, tag, placeholder, allowClear = false, compact = false, ...rest }: MaterialInputProps) {
  const { t } = useTranslation();
  // A form in view mode disables its fields through the context.
  const formDisabled = useContext(DisabledContext);
  const disabled = ownDisabled ?? formDisabled;
  const [open, setOpen] = useState(false);
  const testId = rest['data-testid'] ?? 'material-input';
  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          readOnly
          value={value ? materialLabel(value) : ''}
          title={value ? materialLabel(value) : undefined}
          placeholder={placeholder ?? t('basic.materialPicker.placeholder')}
          disabled={disabled}
          onClick={() => !disabled && setOpen(true)}
          style={{ cursor: disabled ? undefined : 'pointer' }}
          suffix={
            allowClear && value && !disabled ? (
              <Tooltip title={t('basic.materialPicker.clear')}>
                <CloseCircleFilled style={{ opacity: 0.4 }} onClick={(e) => (e.stopPropagation(), onChange?.(null))} />
              </Tooltip>
            ) : undefined
          }
          data-testid={testId}
        />
        <Button icon={<SearchOutlined />} disabled={disabled} onClick={() => setOpen(true)} aria-label={t('basic.materialPicker.choose')} title={compact ? t('basic.materialPicker.choose') : undefined} data-testid={`${testId}-pick`}>
          {compact ? null : t('basic.materialPicker.choose')}
        </Button>
      </Space.Compact>
      <MaterialPicker open={open} onClose={() => setOpen(false)} multiple={false} disabledIds={disabledIds} tag={tag} onOk={(list) => onChange?.(list[0] ?? null)} />
    </>
  );
}
