import { useMemo } from 'react';
import { Col, Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { FeeKind, type FeeType } from '@p8/contract/basic';
import type { ProColumn } from '../../../components/ProTable/index.tsx';
import SimpleRecordPage, { type SimpleForm } from '../../../components/RecordKit/SimpleRecordPage.tsx';
import { createFeeType } from './api/create-fee-type.ts';
import { deleteFeeTypes } from './api/delete-fee-types.ts';
import { enableFeeTypes } from './api/enable-fee-types.ts';
import { FEE_PATH } from './api/list-fee-types.ts';
import { updateFeeType } from './api/update-fee-type.ts';

const NEW_FEE: { kind: FeeKind } = { kind: 'expense' };
const formOf = (row: FeeType) => ({ kind: row.kind });
const bodyOf = (values: SimpleForm) => ({ kind: values.kind as FeeKind });

/** Basic records → fee types (menu basic_fee): income or expense items of the finance fee bills. */
export default function FeeTypePage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });

  const extraColumns = useMemo<ProColumn<FeeType>[]>(
    () => [
      {
        prop: 'kind',
        title: t('fee.kind'),
        search: true,
        sortable: true,
        width: 120,
        valueEnum: Object.fromEntries(FeeKind.map((kind) => [kind, { text: t(`fee.kinds.${kind}`), color: kind === 'income' ? 'green' : 'orange' }])),
      },
    ],
    [t],
  );

  return (
    <SimpleRecordPage<FeeType>
      record="basic_fee"
      section="basic-partner.fee"
      listPath={FEE_PATH}
      importPath={`${FEE_PATH}/import`}
      exportPath={`${FEE_PATH}/export`}
      template="fee"
      add={(body) => createFeeType({ ...body, kind: body.kind as FeeKind })}
      update={(body) => updateFeeType({ ...body, kind: body.kind as FeeKind })}
      remove={deleteFeeTypes}
      enable={enableFeeTypes}
      extraColumns={extraColumns}
      formOf={formOf}
      newFields={NEW_FEE}
      bodyOf={bodyOf}
      extraFields={() => (
        <Col span={24}>
          <Form.Item name="kind" label={t('fee.kind')} rules={[{ required: true, message: t('common.selectRequired', { label: t('fee.kind') }) }]}>
            <Radio.Group optionType="button" buttonStyle="solid">
              {FeeKind.map((kind) => (
                <Radio.Button key={kind} value={kind}>
                  <span data-testid={`fee-form-kind-${kind}`}>{t(`fee.kinds.${kind}`)}</span>
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
        </Col>
      )}
    />
  );
}
