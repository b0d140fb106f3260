import { useState } from 'react';
import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { parseColor } from './color.ts';

interface ColorInputProps {
  value: string;
  /** Called with `#RRGGBB` once the text is a valid colour (on Enter or blur). */
  onChange: (hex: string) => void;
  'data-testid'?: string;
  style?: React.CSSProperties;
}

/**
 * Text input for a colour: six hex digits with an optional leading #, or rgb(r, g, b).
 * Anything else warns "wrong hex value" and puts the last valid colour back.
 */
export default function ColorInput({ value, onChange, style, ...rest }: ColorInputProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? value;

  const commit = () => {
    if (draft === null) return;
    const hex = parseColor(draft);
    setDraft(null);
    if (!hex) {
      feedback.message.warning(t('layout.theme.wrongHex'));
      return;
    }
    if (hex !== value.toUpperCase()) onChange(hex);
  };

  return (
    <Input
      data-testid={rest['data-testid']}
      style={style}
      value={text}
      maxLength={20}
      status={draft !== null && !parseColor(draft) ? 'warning' : undefined}
      prefix={<span style={{ width: 16, height: 16, borderRadius: 4, background: parseColor(text) ?? value, display: 'inline-block', boxShadow: 'inset 0 0 0 1px rgba(0,0,0,.12)' }} />}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onPressEnter={commit}
    />
  );
}
