import { Pagination, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from './query.ts';

interface PagerProps {
  current: number;
  pageSize: number;
  total: number;
  onChange: (current: number, pageSize: number) => void;
  disabled?: boolean;
}

/**
 * The pager in the product's order: total, sizes, previous, pager, next, jumper (antd's own puts the
 * sizes after "next", so total and sizes are drawn here and antd draws the rest).
 */
export default function Pager({ current, pageSize, total, onChange, disabled }: PagerProps) {
  const { t } = useTranslation();
  return (
    <div className="p8-pro-table-pager" data-testid="pro-table-pager">
      <span className="p8-pro-table-pager-total" data-testid="pro-table-total">
        {t('kit.table.total', { total })}
      </span>
      <Select
        className="p8-pro-table-pager-sizes"
        size="small"
        value={pageSize}
        disabled={disabled}
        popupMatchSelectWidth={false}
        options={pageSizeOptions(pageSize).map((size) => ({ value: size, label: t('kit.table.perPage', { size }) }))}
        onChange={(size) => onChange(1, size)}
        data-testid="pro-table-page-size"
      />
      <Pagination
        size="small"
        current={current}
        pageSize={pageSize}
        total={total}
        disabled={disabled}
        showSizeChanger={false}
        showQuickJumper
        onChange={(page) => onChange(page, pageSize)}
      />
    </div>
  );
}
