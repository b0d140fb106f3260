import { useRef } from 'react';
import { Col, Divider, Form, Input, Row, Switch, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BomCreate, BomDetail } from '@p8/contract/basic';
import FormDialog, { type FormMode } from '../../../../components/FormDialog/index.tsx';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import MaterialInput, { type PickedMaterial } from '../../../../components/Pickers/MaterialInput.tsx';
import { addBom } from '../api/add-bom.ts';
import { updateBom } from '../api/update-bom.ts';
import LinesEditor, { type LineRow } from './lines-editor.tsx';
import RecordRefControl from '../../../../components/RecordKit/RecordRefControl.tsx';

export interface BomForm {
  id?: number;
  material: PickedMaterial | null;
  version: string;
  quantity: number;
  isDefault: boolean;
  routingId?: number | null;
  remark?: string;
  lines: LineRow[];
}

export const NEW_BOM: Partial<BomForm> = { material: null, version: 'V1.0', quantity: 1, isDefault: true, lines: [] };

export function formOfBom(b: BomDetail): BomForm {
  return {
    id: b.id,
    material: { id: b.materialId, code: b.materialCode, name: b.materialName, specification: b.specification },
    version: b.version,
    quantity: b.quantity,
    isDefault: b.isDefault,
    routingId: b.routingId,
    remark: b.remark,
    lines: b.lines.map((l) => ({
      materialId: l.materialId,
      materialCode: l.materialCode,
      materialName: l.materialName,
      specification: l.specification,
      quantity: l.quantity,
      lossRate: l.lossRate,
      itemType: l.itemType,
      unitId: l.unitId,
      unitName: l.unitName,
      remark: l.remark,
    })),
  };
}

interface BomDialogProps {
  open: boolean;
  mode: FormMode;
  initialValues?: Partial<BomForm>;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Add / edit / view a BOM: the parent material (picked), its version (unique per material), the parent
 * quantity the lines make, whether it is the material's default BOM (the one multi-level structures
 * follow), remark, and the lines.
 */
export default function BomDialog({ onSaved, ...dialog }: BomDialogProps) {
  const { t } = useTranslation();
  const formRef = useRef<FormInstance<BomForm>>(undefined);

  const submit = async (values: BomForm, mode: FormMode) => {
    // The whole rows from the store: the line's material is shown, not a field of its own.
    const lines = (formRef.current?.getFieldValue('lines') as LineRow[] | undefined) ?? values.lines;
    const body: BomCreate = {
      materialId: values.material!.id,
      version: values.version.trim(),
      quantity: values.quantity,
      isDefault: !!values.isDefault,
      routingId: values.routingId ?? null,
      remark: values.remark?.trim() ?? '',
      lines: lines.map((l) => ({ materialId: l.materialId, quantity: l.quantity!, lossRate: l.lossRate ?? 0, itemType: l.itemType ?? 'Standard', unitId: l.unitId ?? null, remark: l.remark?.trim() ?? '' })),
    };
    if (mode === 'add') await addBom(body);
    else await updateBom({ ...body, id: dialog.initialValues!.id! });
    onSaved();
  };

  return (
    <FormDialog<BomForm> {...dialog} entity={t('basic.bom.entity')} width={1080} onSubmit={submit} formRef={formRef} data-testid="bom-dialog">
      {({ mode }) => (
        <>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="material" label={t('basic.bom.material')} rules={[{ required: true, message: t('error.PleaseSelectMaterial') }]}>
                <MaterialInput data-testid="bom-material" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="version" label={t('basic.bom.version')} rules={[{ required: true, whitespace: true, message: t('error.PleaseInputBomVersion') }, { max: 50 }]}>
                <Input maxLength={50} placeholder={t('basic.bom.versionPlaceholder')} data-testid="bom-version" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="quantity"
                label={t('basic.bom.quantity')}
                tooltip={t('basic.bom.quantityTip')}
                rules={[
                  {
                    validator: async (_, v: number | null | undefined) => {
                      if (v === null || v === undefined || !(v > 0)) throw new Error(t('error.NumberMustGreaterThanZero'));
                    },
                  },
                ]}
              >
                <NumberInput min={0} max={1e9} data-testid="bom-quantity" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="isDefault" label={t('basic.bom.isDefault')} valuePropName="checked" tooltip={t('basic.bom.isDefaultTip')}>
                <Switch data-testid="bom-default" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="routingId" label={t('basic.bom.routing')} tooltip={t('basic.bom.routingTip')}>
                <RecordRefControl refKind="routing" data-testid="bom-routing" />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label={t('basic.common.remark')}>
                <Input.TextArea rows={2} maxLength={500} showCount />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" style={{ marginTop: 0 }}>
            {t('basic.bom.lines')}
          </Divider>
          <Form.Item noStyle shouldUpdate={(a: BomForm, b: BomForm) => a.material?.id !== b.material?.id || a.quantity !== b.quantity}>
            {({ getFieldValue }) => <LinesEditor view={mode === 'view'} parentId={(getFieldValue('material') as PickedMaterial | null)?.id} parentQuantity={getFieldValue('quantity') as number} />}
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
