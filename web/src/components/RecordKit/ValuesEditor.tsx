import { useState } from 'react';
import { Button, Empty, Input, Space, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Values per attribute and characters per value (the contract's limits). */
export const MAX_VALUES = 200;
export const MAX_VALUE_LENGTH = 100;

interface ValuesEditorProps {
  value?: string[];
  onChange?: (values: string[]) => void;
  disabled?: boolean;
}

/** Splits pasted text ("red, green；blue") into values. */
const split = (text: string) =>
  text
    .split(/[,，、;；\n]/)
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The values of an attribute (red, green… for "colour"): type one and press Enter (or paste a
 * comma list), edit in place, reorder, remove. Repeats are refused as they are added; the form also
 * checks them on submit.
 */
export default function ValuesEditor({ value = [], onChange, disabled }: ValuesEditorProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const set = (next: string[]) => onChange?.(next);

  const addDraft = () => {
    const fresh = split(draft).filter((v, i, all) => all.indexOf(v) === i && !value.includes(v));
    if (fresh.length) set([...value, ...fresh.map((v) => v.slice(0, MAX_VALUE_LENGTH))].slice(0, MAX_VALUES));
    setDraft('');
  };

  const move = (index: number, by: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item);
    set(next);
  };

  const duplicate = (v: string, index: number) => value.findIndex((other) => other.trim() === v.trim()) !== index;

  return (
    <div className="p8-basic-values" data-testid="attribute-values">
      {!disabled && (
        <Space.Compact style={{ width: '100%', marginBottom: 8 }}>
          <Input
            value={draft}
            maxLength={2000}
            onChange={(e) => setDraft(e.target.value)}
            onPressEnter={(e) => {
              e.preventDefault();
              addDraft();
            }}
            placeholder={t('basic.attribute.valuePlaceholder')}
            data-testid="attribute-value-input"
          />
          <Button icon={<PlusOutlined />} onClick={addDraft} disabled={!draft.trim() || value.length >= MAX_VALUES} data-testid="attribute-value-add">
            {t('basic.attribute.addValue')}
          </Button>
        </Space.Compact>
      )}
      {value.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('basic.attribute.noValues')} style={{ margin: '8px 0' }} />
      ) : (
        <div className="p8-basic-values-list">
          {value.map((v, index) => (
            <div key={index} className="p8-basic-values-row">
              <Typography.Text type="secondary" className="p8-basic-values-index">
                {index + 1}
              </Typography.Text>
              <Input
                size="small"
                value={v}
                maxLength={MAX_VALUE_LENGTH}
                status={!v.trim() || duplicate(v, index) ? 'error' : undefined}
                onChange={(e) => set(value.map((old, i) => (i === index ? e.target.value : old)))}
                data-testid={`attribute-value-${index}`}
              />
              {!disabled && (
                <Space size={0}>
                  <Tooltip title={t('basic.common.moveUp')}>
                    <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => move(index, -1)} aria-label={t('basic.common.moveUp')} />
                  </Tooltip>
                  <Tooltip title={t('basic.common.moveDown')}>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={index === value.length - 1}
                      onClick={() => move(index, 1)}
                      aria-label={t('basic.common.moveDown')}
                    />
                  </Tooltip>
                  <Tooltip title={t('basic.common.remove')}>
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => set(value.filter((_, i) => i !== index))}
                      aria-label={t('basic.common.remove')}
                      data-testid={`attribute-value-remove-${index}`}
                    />
                  </Tooltip>
                </Space>
              )}
            </div>
          ))}
        </div>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('basic.attribute.valuesCount', { count: value.length, max: MAX_VALUES })}
      </Typography.Text>
    </div>
  );
}
