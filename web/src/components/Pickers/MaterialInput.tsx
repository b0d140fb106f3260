import { useContext, useRef, useState, type KeyboardEvent } from 'react';
import { AutoComplete, Button, Space, Tooltip } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Material, MaterialTag } from '@p8/contract/basic';
import MaterialPicker from './MaterialPicker.tsx';
import { listPickerMaterials } from './api/list-picker-materials.ts';
import { typedMatch } from './typed-match.ts';

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

/** How many matches typing offers. */
const MATCHES = 10;

/**
 * A form field holding one material: shows "code · name · specification"; typing a code, name or barcode
 * lists the matches under it (the picker's search) — arrows move, Enter or Tab takes the highlighted one
 * (the exact code, else the first), and Enter typed before the answer arrived takes the exact code or the
 * only match once it does — so a line is entered without the mouse. The button (or F4) opens the
 * MaterialPicker (single choice). Its value is the chosen record, so the form can show it without a second
 * request; the screen sends `value.id`. While a search runs the field says it is busy (`aria-busy`): the
 * line grid waits for it (and for an open list to close) before Enter moves on.
 */
export default function MaterialInput({ value, onChange, disabled: ownDisabled, disabledIds, tag, placeholder, allowClear = false, compact = false, ...rest }: MaterialInputProps) {
  const { t } = useTranslation();
  // A form in view mode disables its fields through the context.
  const formDisabled = useContext(DisabledContext);
  const disabled = ownDisabled ?? formDisabled;
  const [open, setOpen] = useState(false);
  /** What is typed and not chosen yet (null: the field shows its value). */
  const [typed, setTyped] = useState<string | null>(null);
  const [found, setFound] = useState<Material[]>([]);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  /** Enter came before the matches: take the match when they arrive (the ref for the search's own closure). */
  const takeWhenFound = useRef(false);
  const [waiting, setWaiting] = useState(false);
  const wait = (on: boolean) => {
    takeWhenFound.current = on;
    setWaiting(on);
  };
  const testId = rest['data-testid'] ?? 'material-input';
  const label = value ? materialLabel(value) : '';
  const blocked = new Set(disabledIds ?? []);

  const choose = (m: Material | undefined) => {
    wait(false);
    setTyped(null);
    setFound([]);
    if (m && !blocked.has(m.id)) onChange?.(m);
  };
  const search = async (text: string) => {
    const n = ++asked.current;
    setBusy(true);
    try {
      const page = await listPickerMaterials({ keyword: text.trim(), current: 1, pageSize: MATCHES, tag });
      if (n !== asked.current) return;
      const exact = typedMatch(text, page.data);
      const list = exact ? [exact, ...page.data.filter((m) => m !== exact)] : page.data;
      if (takeWhenFound.current) {
        wait(false);
        if (exact) return choose(exact);
      }
      setFound(list);
    } catch {
      if (n === asked.current) setFound([]);
    } finally {
      if (n === asked.current) setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'F4') {
      event.preventDefault();
      setOpen(true);
    } else if (event.key === 'Escape' && typed !== null) {
      // Esc drops what was typed (and not the dialog around the field).
      event.stopPropagation();
      choose(undefined);
    } else if (event.key === 'Enter' && typed !== null && typed.trim() && busy) {
      // Typed faster than the search answers: take the match when it does.
      event.preventDefault();
      wait(true);
    } else if (event.key === 'Tab' && typed !== null && found.length) {
      // Tab takes the highlighted match too (the list marks it), then moves on as usual.
      const active = document.querySelector<HTMLElement>(`.ant-select-item-option-active [data-material-option]`)?.dataset.materialOption;
      choose(found.find((m) => String(m.id) === active) ?? found[0]);
    }
  };

  return (
    <>
      <Space.Compact style={{ width: '100%' }} aria-busy={busy || undefined}>
        <AutoComplete
          value={typed ?? label}
          title={label || undefined}
          placeholder={placeholder ?? t('basic.materialPicker.placeholder')}
          disabled={disabled}
          // Takes the room the button leaves, never more (a long name would push into the next cell).
          style={{ flex: '1 1 0', minWidth: 0 }}
          popupMatchSelectWidth={false}
          defaultActiveFirstOption
          open={typed !== null && found.length > 0}
          options={found.map((m) => ({ value: String(m.id), label: (
              <span data-testid={`${testId}-option-${m.id}`} data-material-option={m.id}>
                {materialLabel(m)}
              </span>
            ), disabled: blocked.has(m.id) }))}
          onSearch={(text) => {
            setTyped(text);
            if (text.trim()) void search(text);
            else setFound([]);
          }}
          onSelect={(id: string) => choose(found.find((m) => String(m.id) === id))}
          onBlur={() => {
            if (!waiting) choose(undefined);
          }}
          onInputKeyDown={onKeyDown}
          suffixIcon={null}
          allowClear={
            allowClear && value && !disabled && typed === null
              ? {
                  clearIcon: (
                    <Tooltip title={t('basic.materialPicker.clear')}>
                      <CloseCircleFilled style={{ opacity: 0.4 }} />
                    </Tooltip>
                  ),
                }
              : false
          }
          onClear={() => onChange?.(null)}
          data-testid={testId}
        />
        <Button icon={<SearchOutlined />} disabled={disabled} onClick={() => setOpen(true)} tabIndex={-1} aria-label={t('basic.materialPicker.choose')} title={compact ? t('basic.materialPicker.choose') : undefined} data-testid={`${testId}-pick`}>
          {compact ? null : t('basic.materialPicker.choose')}
        </Button>
      </Space.Compact>
      <MaterialPicker open={open} onClose={() => setOpen(false)} multiple={false} disabledIds={disabledIds} tag={tag} onOk={(list) => onChange?.(list[0] ?? null)} />
    </>
  );
}
