import { useRef, useState, type ReactNode } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space, TreeSelect, type FormInstance } from 'antd';
import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import DateRangeSearch from '../DateRangeSearch/index.tsx';
import type { SearchField } from './query.ts';
import { searchLayout } from './layout.ts';
import type { ValueEnum } from './types.ts';
import { useSearchGrid } from './use-search-grid.ts';

interface SearchFormProps {
  form: FormInstance;
  /** Form name: prefixes the field ids (`search_billCode`) so they don't collide with a dialog's. */
  name: string;
  fields: SearchField[];
  /** Value enums of the fields' columns, used as select options when none are configured. */
  enums: Record<string, ValueEnum | undefined>;
  initialValues: Record<string, unknown>;
  onSearch: () => void;
  onReset: () => void;
  loading?: boolean;
}

/** The control of one field; `value`, `onChange` and `id` come from the Form.Item around it. */
function Control({ field, enums, ...bound }: { field: SearchField; enums: SearchFormProps['enums']; value?: unknown; onChange?: (...args: unknown[]) => void; id?: string }): ReactNode {
  const { t } = useTranslation();
  const { config } = field;
  const extra = { ...(config.props ?? {}), ...bound } as Record<string, unknown>;
  const inputPlaceholder = config.placeholder ?? t('kit.table.inputPlaceholder', { label: field.label });
  const selectPlaceholder = config.placeholder ?? t('kit.table.selectPlaceholder', { label: field.label });
  switch (field.type) {
    case 'select': {
      const valueEnum = enums[field.name];
      const options =
        config.options ?? (valueEnum ? Object.entries(valueEnum).map(([value, item]) => ({ value, label: item.text })) : []);
      return (
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          mode={config.multiple ? 'multiple' : undefined}
          maxTagCount="responsive"
          placeholder={selectPlaceholder}
          options={options}
          {...extra}
        />
      );
    }
    case 'treeSelect':
      return (
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="title"
          multiple={config.multiple}
          maxTagCount="responsive"
          placeholder={selectPlaceholder}
          treeData={config.treeData ?? []}
          treeDefaultExpandAll
          {...extra}
        />
      );
    case 'dateRange':
      return <DateRangeSearch showTime={config.showTime} {...extra} />;
    case 'date':
      return <DatePicker showTime={config.showTime} placeholder={selectPlaceholder} style={{ width: '100%' }} {...extra} />;
    case 'number':
      return <InputNumber placeholder={inputPlaceholder} style={{ width: '100%' }} {...extra} />;
    default:
      return <Input allowClear placeholder={inputPlaceholder} {...extra} />;
  }
}

/**
 * The search form above a ProTable: one field per searchable column on the responsive grid (by the form's width),
 * collapsed to one row until "expand", with search and reset buttons. Enter in any field searches.
 */
export default function SearchForm({ form, name, fields, enums, initialValues, onSearch, onReset, loading }: SearchFormProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const buttons = useRef<HTMLDivElement>(null);
  const grid = useSearchGrid(box, buttons);
  const [collapsed, setCollapsed] = useState(true);
  const layout = searchLayout(
    fields.map((f) => f.span),
    grid,
    collapsed,
  );

  return (
    <div ref={box}>
      <Form
        form={form}
        name={name}
        className="p8-pro-table-search"
        layout="horizontal"
        initialValues={initialValues}
        onFinish={onSearch}
        data-testid="pro-table-search"
      >
        <Row gutter={[16, 0]}>
          {fields.map((field, index) => (
            // Collapsed fields stay mounted (their values still search), just not shown.
            <Col key={field.name} span={layout.spans[index]} style={index >= layout.visible ? { display: 'none' } : undefined}>
              <Form.Item name={field.name} label={field.label}>
                <Control field={field} enums={enums} />
              </Form.Item>
            </Col>
          ))}
          <Col span={layout.buttonSpan} className="p8-pro-table-search-buttons">
            <Form.Item>
              <Space size={8} wrap={false} ref={buttons}>
                <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading} data-testid="pro-table-search-submit">
                  {t('kit.table.search')}
                </Button>
                <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="pro-table-search-reset">
                  {t('kit.table.reset')}
                </Button>
                {layout.collapsible && (
                  <Button type="link" onClick={() => setCollapsed((c) => !c)} data-testid="pro-table-search-toggle" style={{ paddingInline: 4 }}>
                    {collapsed ? t('kit.table.expand') : t('kit.table.collapse')}
                    {collapsed ? <DownOutlined /> : <UpOutlined />}
                  </Button>
                )}
              </Space>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </div>
  );
}
