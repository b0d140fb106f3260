import { useContext, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { AutoComplete, Button, Space, Tooltip, type RefSelectProps } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { typedMatch } from './typed-match.ts';

/** How many matches typing offers. */
const MATCHES = 10;

export interface RecordInputProps<T extends { id: number; code: string }> {
  /** What the field shows while nothing is typed: the chosen record's label ('' when none). */
  label: string;
  /** The picker's search: the first matches of a typed code, name or barcode. */
  search: (keyword: string, pageSize: number) => Promise<T[]>;
  /** How a match reads in the list under the field. */
  optionLabel: (row: T) => ReactNode;
  onChoose: (row: T) => void;
  /** The picker dialog, drawn while open; `keyword` is what was typed, its first search. */
  picker: (props: { keyword: string; onClose: () => void }) => ReactNode;
  disabled?: boolean;
  /** Records that cannot be chosen. */
  disabledIds?: readonly number[];
  placeholder?: string;
  /** A clear button (shown while a record is chosen and nothing typed) telling `onClear`. */
  onClear?: () => void;
  /**
   * A header field of a form (a bill's supplier, customer, warehouse): a click, and Enter or ↓ with nothing
   * typed, open the picker. In a line grid Enter belongs to the grid (it moves to the next cell), so the
   * material cell leaves this off.
   */
  opensOnKeys?: boolean;
  /** The choose button's text (none: its icon only, for a narrow cell). */
  buttonText?: string;
  buttonLabel: string;
  size?: 'small' | 'middle';
  'data-testid': string;
}

/**
 * A form field holding one record, entered without the mouse: typing a code, name or barcode lists the
 * matches under it (the picker's search) — arrows move, Enter or Tab takes the highlighted one (the exact
 * code, else the first), and Enter typed before the answer arrived takes the exact code or the only match
 * once it does (never a row of the list an earlier text left open); Esc drops what was typed. F4 (and the button) open the picker dialog, searching what was
 * typed. While a search runs the field says it is busy (`aria-busy`): a line grid waits for it (and for an
 * open list to close) before Enter moves on. MaterialInput (a bill's line material) and the bill header's
 * partner and warehouse fields are this one mechanism.
 */
export default function RecordInput<T extends { id: number; code: string }>(props: RecordInputProps<T>) {
  const { label, search, optionLabel, onChoose, picker, disabled: ownDisabled, disabledIds, placeholder, onClear, opensOnKeys = false, buttonText, buttonLabel, size } = props;
  const testId = props['data-testid'];
  const { t } = useTranslation();
  // A form in view mode disables its fields through the context.
  const formDisabled = useContext(DisabledContext);
  const disabled = ownDisabled ?? formDisabled;
  /** The picker dialog, with the text it searches first (null: closed). */
  const [dialog, setDialog] = useState<string | null>(null);
  /** What is typed and not chosen yet (null: the field shows its value). */
  const [typed, setTyped] = useState<string | null>(null);
  const [found, setFound] = useState<T[]>([]);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  const field = useRef<RefSelectProps>(null);
  /** Counts the picker's closings: each brings the focus back to the field. */
  const [closings, setClosings] = useState(0);
  // The picker is dropped, not animated closed, so the dialog's own focus return never runs: the focus
  // comes back here, and the keyboard goes on from the field (Tab to the next one).
  useEffect(() => {
    if (closings) field.current?.focus();
  }, [closings]);
  /** Enter came before the matches: take the match when they arrive (the ref for the search's own closure). */
  const takeWhenFound = useRef(false);
  const [waiting, setWaiting] = useState(false);
  const wait = (on: boolean) => {
    takeWhenFound.current = on;
    setWaiting(on);
  };
  const blocked = new Set(disabledIds ?? []);

  const choose = (row: T | undefined) => {
    wait(false);
    setTyped(null);
    setFound([]);
    if (row && !blocked.has(row.id)) onChoose(row);
  };
  const openDialog = () => {
    if (disabled) return;
    const keyword = typed?.trim() ?? '';
    choose(undefined);
    setDialog(keyword);
  };
  const find = async (text: string) => {
    const n = ++asked.current;
    setBusy(true);
    try {
      const rows = await search(text.trim(), MATCHES);
      if (n !== asked.current) return;
      const exact = typedMatch(text, rows);
      const list = exact ? [exact, ...rows.filter((m) => m !== exact)] : rows;
      if (takeWhenFound.current) {
        wait(false);
        if (exact) return choose(exact);
        // Nothing to take: a header field opens the picker on what was typed, to look further.
        if (opensOnKeys) {
          setTyped(null);
          setFound([]);
          setDialog(text.trim());
          return;
        }
      }
      setFound(list);
    } catch {
      if (n === asked.current) setFound([]);
    } finally {
      if (n === asked.current) setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const nothingTyped = typed === null || !typed.trim();
    if (event.key === 'F4' || (opensOnKeys && nothingTyped && (event.key === 'Enter' || event.key === 'ArrowDown') && !event.altKey && !event.ctrlKey && !event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      openDialog();
    } else if (event.key === 'Escape' && typed !== null) {
      // Esc drops what was typed (and not the dialog around the field).
      event.stopPropagation();
      choose(undefined);
    } else if (event.key === 'Enter' && typed !== null && typed.trim() && (busy || (opensOnKeys && !found.length))) {
      // Typed faster than the search answers: take the match when it does (a header field with no match
      // opens the picker on the typed text).
      event.preventDefault();
      if (busy) wait(true);
      else openDialog();
    } else if (event.key === 'Tab' && typed !== null && found.length) {
      // Tab takes the highlighted match too (the list marks it), then moves on as usual.
      const active = document.querySelector<HTMLElement>(`.ant-select-item-option-active [data-record-option]`)?.dataset.recordOption;
      choose(found.find((m) => String(m.id) === active) ?? found[0]);
    }
  };

  return (
    <>
      <Space.Compact
        style={{ width: '100%' }}
        aria-busy={busy || undefined}
        // Enter while the search for what is typed now has not answered: the open list still shows an earlier
        // text's matches, and the list would take its highlighted row on its own Enter (a code typed fast and
        // Enter took the record of its first letters). Stopped before the list sees it: the answer decides —
        // the exact code or the only match, else (a header field) the picker on the typed text, or (a grid
        // cell) the list of the answer's matches. Header fields and line cells alike: a line grid around the
        // field has seen the key already (its capture handler runs first, on an ancestor) and waits for the
        // search, then for the list to close, before it moves on.
        onKeyDownCapture={(event) => {
          if (event.key !== 'Enter' || !busy || typed === null || !typed.trim()) return;
          event.preventDefault();
          event.stopPropagation();
          wait(true);
        }}
      >
        <AutoComplete
          ref={field}
          size={size}
          value={typed ?? label}
          title={label || undefined}
          placeholder={placeholder}
          disabled={disabled}
          // Takes the room the button leaves, never more (a long name would push into the next cell).
          style={{ flex: '1 1 0', minWidth: 0 }}
          popupMatchSelectWidth={false}
          defaultActiveFirstOption
          open={typed !== null && found.length > 0}
          options={found.map((m) => ({
            value: String(m.id),
            label: (
              <span data-testid={`${testId}-option-${m.id}`} data-record-option={m.id}>
                {optionLabel(m)}
              </span>
            ),
            disabled: blocked.has(m.id),
          }))}
          onSearch={(input) => {
            // Typing on after the shown record's text (the caret at its end, as after a choice) starts a
            // new search: the record's text is not part of it.
            const text = typed === null && label && input.startsWith(label) && input.length > label.length ? input.slice(label.length) : input;
            setTyped(text);
            if (text.trim()) void find(text);
            else setFound([]);
          }}
          onSelect={(id: string) => choose(found.find((m) => String(m.id) === id))}
          // The shown record's text is selected on entering the field: typing replaces it with a search
          // (not appends to it), as a spreadsheet cell does.
          onFocus={(event) => {
            if (typed === null && event.target instanceof HTMLInputElement) event.target.select();
          }}
          onBlur={() => {
            if (!waiting && dialog === null) choose(undefined);
          }}
          onClick={opensOnKeys && typed === null ? openDialog : undefined}
          onInputKeyDown={onKeyDown}
          suffixIcon={null}
          allowClear={
            onClear && label && !disabled && typed === null
              ? {
                  clearIcon: (
                    <Tooltip title={t('basic.materialPicker.clear')}>
                      <CloseCircleFilled style={{ opacity: 0.4 }} />
                    </Tooltip>
                  ),
                }
              : false
          }
          onClear={onClear}
          data-testid={testId}
        />
        <Button size={size} icon={<SearchOutlined />} disabled={disabled} onClick={openDialog} tabIndex={-1} aria-label={buttonLabel} title={buttonText ? undefined : buttonLabel} data-testid={`${testId}-pick`}>
          {buttonText ?? null}
        </Button>
      </Space.Compact>
      {dialog !== null &&
        picker({
          keyword: dialog,
          onClose: () => {
            setDialog(null);
            setClosings((n) => n + 1);
          },
        })}
    </>
  );
}
