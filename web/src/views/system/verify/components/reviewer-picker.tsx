import { useContext, useState } from 'react';
import { Avatar, Button, Empty, Tooltip, Typography } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StaffOption } from '../../../../components/Pickers/api/colleague-options.ts';
import ColleagueSelect from '../../../../components/Pickers/ColleagueSelect.tsx';

export interface ReviewerPickerProps {
  /** Reviewer ids in review order. */
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Names of reviewers already on the rule. */
  known?: StaffOption[];
  /** Numbered steps when the review is sequential, plain list otherwise. */
  sequential?: boolean;
  disabled?: boolean;
}

/**
 * An ordered list of reviewers: add staff with the search box, reorder with the arrows, remove with ×.
 * A Form.Item control whose value is the ids in order.
 */
export default function ReviewerPicker({ value = [], onChange, known = [], sequential, disabled: disabledProp }: ReviewerPickerProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'system-office' });
  const formDisabled = useContext(DisabledContext);
  const disabled = disabledProp ?? formDisabled;
  const [added, setAdded] = useState<StaffOption[]>([]);
  const names = new Map([...known, ...added].map((o) => [o.id, o]));

  const move = (index: number, delta: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + delta, 0, item!);
    onChange?.(next);
  };

  return (
    <div className="p8-reviewer-picker" data-testid="reviewer-picker">
      {value.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('verify.noReviewers')} style={{ margin: '4px 0 8px' }} />
      ) : (
        <ol className={['p8-reviewer-list', sequential ? 'is-sequential' : ''].join(' ')}>
          {value.map((id, index) => {
            const who = names.get(id);
            return (
              <li key={id} className="p8-reviewer-item" data-testid={`reviewer-${id}`}>
                <span className="p8-reviewer-step">{sequential ? index + 1 : <UserOutlined />}</span>
                <Avatar size={24} style={{ background: 'var(--ant-color-primary, #409eff)', flex: 'none' }}>
                  {(who?.label ?? '?').slice(0, 1)}
                </Avatar>
                <span className="p8-reviewer-name">
                  {who?.label ?? `#${id}`}
                  {who?.account && who.account !== who.label && <Typography.Text type="secondary"> @{who.account}</Typography.Text>}
                </span>
                {!disabled && (
                  <span className="p8-reviewer-actions">
                    <Tooltip title={t('common.moveUp')}>
                      <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => move(index, -1)} aria-label={t('common.moveUp')} data-testid={`reviewer-up-${id}`} />
                    </Tooltip>
                    <Tooltip title={t('common.moveDown')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<ArrowDownOutlined />}
                        disabled={index === value.length - 1}
                        onClick={() => move(index, 1)}
                        aria-label={t('common.moveDown')}
                        data-testid={`reviewer-down-${id}`}
                      />
                    </Tooltip>
                    <Tooltip title={t('common.remove')}>
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<CloseOutlined />}
                        onClick={() => onChange?.(value.filter((v) => v !== id))}
                        aria-label={t('common.remove')}
                        data-testid={`reviewer-remove-${id}`}
                      />
                    </Tooltip>
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {!disabled && value.length < 50 && (
        <ColleagueSelect
          // A fresh picker after each addition: empty, with the search cleared.
          key={value.join(',')}
          value={null}
          exclude={value}
          placeholder={t('verify.addReviewer')}
          onChange={(id, option) => {
            setAdded((list) => [...list.filter((o) => o.id !== id), option]);
            onChange?.([...value, id]);
          }}
          data-testid="reviewer-add"
        />
      )}
    </div>
  );
}
