import { useTranslation } from 'react-i18next';
import type { Material, MaterialTag } from '@p8/contract/basic';
import MaterialPicker from './MaterialPicker.tsx';
import { listPickerMaterials } from './api/list-picker-materials.ts';
import RecordInput from './RecordInput.tsx';

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
 * A form field holding one material: shows "code · name · specification"; typing a code, name or barcode
 * lists the matches under it and Enter takes the exact code (RecordInput: the keys, the busy flag the line
 * grid waits for). The button (or F4) opens the MaterialPicker (single choice) searching what was typed.
 * Its value is the chosen record, so the form can show it without a second request; the screen sends
 * `value.id`.
 */
export default function MaterialInput({ value, onChange, disabled, disabledIds, tag, placeholder, allowClear = false, compact = false, ...rest }: MaterialInputProps) {
  const { t } = useTranslation();
  return (
    <RecordInput<Material>
      label={value ? materialLabel(value) : ''}
      search={(keyword, pageSize) => listPickerMaterials({ keyword, current: 1, pageSize, tag }).then((page) => page.data)}
      optionLabel={materialLabel}
      onChoose={(m) => onChange?.(m)}
      picker={({ keyword, onClose }) => <MaterialPicker open keyword={keyword} onClose={onClose} multiple={false} disabledIds={disabledIds} tag={tag} onOk={(list) => onChange?.(list[0] ?? null)} />}
      disabled={disabled}
      disabledIds={disabledIds}
      placeholder={placeholder ?? t('basic.materialPicker.placeholder')}
      onClear={allowClear ? () => onChange?.(null) : undefined}
      buttonText={compact ? undefined : t('basic.materialPicker.choose')}
      buttonLabel={t('basic.materialPicker.choose')}
      data-testid={rest['data-testid'] ?? 'material-input'}
    />
  );
}
