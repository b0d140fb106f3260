import { useMemo } from 'react';
import { Col, Form, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Attribute } from '@p8/contract/basic';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import SimpleRecordPage, { type SimpleForm } from '../../../components/RecordKit/SimpleRecordPage.tsx';
import { addAttribute } from './api/add-attribute.ts';
import { deleteAttributes } from './api/delete-attributes.ts';
import { enableAttributes } from './api/enable-attributes.ts';
import { ATTRIBUTE_EXPORT_PATH } from './api/export-attributes.ts';
import { ATTRIBUTE_IMPORT_PATH } from './api/import-attributes.ts';
import { ATTRIBUTE_LIST_PATH } from './api/list-attributes.ts';
import { updateAttribute } from './api/update-attribute.ts';
import ValuesEditor from './components/values-editor.tsx';

const INVALIDATE = ['basic', 'attribute'] as const;
/** Values shown in a list cell before "+N". */
const SHOWN_VALUES = 6;

const formOf = (row: Attribute) => ({ values: row.values ?? [] });
const bodyOf = (values: SimpleForm) => ({ values: ((values.values as string[] | undefined) ?? []).map((v) => v.trim()).filter(Boolean) });

/**
 * Basic records → custom attributes of materials (colour, grade…), each with the values a material may
 * take; a material's form offers them on its "attributes" tab. An attribute in use cannot be deleted.
 */
export default function AttributePage() {
  const { t } = useTranslation();

  const extraColumns = useMemo<ProColumn<Attribute>[]>(
    () => [
      {
        prop: 'values',
        title: t('basic.attribute.values'),
        width: 360,
        render: (_, row) => {
          const values = row.values ?? [];
          if (!values.length) return <span style={{ opacity: 0.5 }}>{t('basic.attribute.freeText')}</span>;
          const rest = values.slice(SHOWN_VALUES);
          return (
            <Space size={[0, 4]} wrap>
              {values.slice(0, SHOWN_VALUES).map((v) => (
                <Tag key={v}>{v}</Tag>
              ))}
              {rest.length > 0 && (
                <Tooltip title={rest.join(', ')}>
                  <Tag>+{rest.length}</Tag>
                </Tooltip>
              )}
            </Space>
          );
        },
      },
    ],
    [t],
  );

  return (
    <SimpleRecordPage<Attribute>
      record="basic_attribute"
      section="basic.attribute"
      listPath={ATTRIBUTE_LIST_PATH}
      importPath={ATTRIBUTE_IMPORT_PATH}
      exportPath={ATTRIBUTE_EXPORT_PATH}
      template="attribute"
      add={addAttribute}
      update={updateAttribute}
      remove={deleteAttributes}
      enable={enableAttributes}
      invalidate={INVALIDATE}
      extraColumns={extraColumns}
      formOf={formOf}
      bodyOf={bodyOf}
      dialogWidth={640}
      extraFields={() => (
        <Col span={24}>
          <Form.Item
            name="values"
            label={t('basic.attribute.values')}
            tooltip={t('basic.attribute.valuesTip')}
            rules={[
              {
                validator: async (_, list: string[] | undefined) => {
                  const values = (list ?? []).map((v) => v.trim());
                  if (values.some((v) => !v)) throw new Error(t('basic.attribute.valueEmpty'));
                  if (new Set(values).size !== values.length) throw new Error(t('basic.attribute.valueRepeat'));
                },
              },
            ]}
          >
            <ValuesEditor />
          </Form.Item>
        </Col>
      )}
    />
  );
}
