import { useCallback, useMemo } from 'react';
import { Form, Input, InputNumber, Select, Switch, Tag, Tooltip, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import LineGrid, { type LineColumn } from '../../../../components/LineGrid/index.tsx';
import { unitOptionsQuery } from '../../../../components/Pickers/api/list-unit-options.ts';

/** One row of the units tab: the main unit (first, ratio 1) or a conversion unit. */
export interface UnitRow {
  /** The stored row (edit): the server keeps rows by id. */
  id?: number;
  unitId?: number;
  /** Name of a stored unit, shown if it is no longer among the enabled units. */
  unitName?: string;
  /** Main units in one of this unit. */
  ratio?: number;
  barcode?: string;
  isMain?: boolean;
  enabled?: boolean;
}

/** Units per material (the contract's limit). */
const MAX_UNITS = 20;

interface UnitsEditorProps {
  view: boolean;
  /** The stored rows (edit / view), for the names of units since disabled. */
  knownUnits?: UnitRow[];
  /** Called when a check of this tab fails, to bring the tab forward. */
  onInvalid: () => void;
}

/**
 * The units of a material: the main unit — first row, ratio 1, always enabled, never removed
 * — and conversion units, each with how many main units it holds, an optional barcode and an on/off
 * switch. A unit appears once. Test ids: `material-unit-add`, `material-unit-<n>-unit|ratio|barcode|remove`.
 *
 * On the shared LineGrid (keyboard: Enter to the next cell, Alt+Enter a new row).
 */
export default function UnitsEditor({ view, knownUnits, onInvalid }: UnitsEditorProps) {
  const { t } = useTranslation();
  const units = useQuery(unitOptionsQuery);

  const names = useMemo(() => {
    const map = new Map<number, string>();
    for (const u of knownUnits ?? []) if (u.unitId && u.unitName) map.set(u.unitId, u.unitName);
    for (const u of units.data ?? []) map.set(u.id, u.name);
    return map;
  }, [units.data, knownUnits]);
  const enabledIds = useMemo(() => new Set((units.data ?? []).map((u) => u.id)), [units.data]);

  const columns = useMemo<LineColumn<UnitRow>[]>(
    () => [
      {
        key: 'kind',
        title: t('basic.material.units.kind'),
        width: 110,
        watch: 'none',
        render: ({ index }) =>
          index === 0 ? (
            <Tooltip title={t('basic.material.units.mainLocked')}>
              <Tag color="blue" icon={<LockOutlined />} data-testid="material-unit-main">
                {t('basic.material.units.main')}
              </Tag>
            </Tooltip>
          ) : (
            <Tag>{t('basic.material.units.conversion')}</Tag>
          ),
      },
      {
        key: 'unit',
        field: 'unitId',
        title: t('basic.material.units.unit'),
        width: 170,
        // The options leave out the units of the other rows: a unit appears once.
        watch: 'all',
        rules: [
          {
            validator: async (_r, value) => {
              if (!value) {
                onInvalid();
                throw new Error(t('error.PleaseSelectUnit'));
              }
            },
          },
        ],
        render: ({ index, rows, testId }) => {
          const taken = new Set(rows.filter((_, i) => i !== index).map((r) => r.unitId));
          const own = rows[index]?.unitId;
          const options = [...names.keys()].filter((id) => enabledIds.has(id) || id === own).map((id) => ({ value: id, label: names.get(id)!, disabled: taken.has(id) }));
          return (
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={options}
              loading={units.isPending}
              placeholder={t('basic.common.selectPlaceholder', { label: t('basic.material.units.unit') })}
              notFoundContent={t('basic.material.units.noUnits')}
              data-testid={testId}
            />
          );
        },
      },
      {
        key: 'ratio',
        field: 'ratio',
        title: (
          <Tooltip title={t('basic.material.units.ratioTip')}>
            <span>{t('basic.material.units.ratio')}</span>
          </Tooltip>
        ),
        width: 180,
        watch: 'none',
        rules: (index) => [
          {
            validator: async (_r, value: number | null | undefined) => {
              if (index === 0) return;
              if (value === null || value === undefined || !(value > 0)) {
                onInvalid();
                throw new Error(t('error.NumberMustGreaterThanZero'));
              }
            },
          },
        ],
        render: ({ index, testId, view: viewing }) => <InputNumber<number> min={0} max={1e9} disabled={viewing || index === 0} style={{ width: '100%' }} data-testid={testId} />,
      },
      {
        key: 'equals',
        title: '',
        width: 150,
        // "1 box = 12 pcs": this row's unit and ratio and the main unit of the first row.
        watch: 'all',
        render: ({ index, rows }) => {
          const row = rows[index];
          const name = row?.unitId ? names.get(row.unitId) : undefined;
          const main = rows[0]?.unitId ? names.get(rows[0].unitId) : undefined;
          return index > 0 && name && main && row?.ratio ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('basic.material.units.ratioHint', { unit: name, ratio: row.ratio, main })}
            </Typography.Text>
          ) : null;
        },
      },
      {
        key: 'barcode',
        field: 'barcode',
        title: t('basic.material.units.barcode'),
        width: 180,
        render: ({ testId }) => <Input maxLength={50} placeholder={t('basic.material.units.barcodePlaceholder')} data-testid={testId} />,
      },
      {
        key: 'enabled',
        title: t('basic.common.status'),
        width: 90,
        align: 'center',
        watch: 'none',
        render: ({ index, testId }) =>
          index === 0 ? (
            <Tooltip title={t('error.MainUnitProhibitDisable')}>
              <Switch size="small" checked disabled />
            </Tooltip>
          ) : (
            <Form.Item preserve name={[index, 'enabled']} valuePropName="checked">
              <Switch size="small" data-testid={testId} />
            </Form.Item>
          ),
      },
    ],
    [t, names, enabledIds, units.isPending, onInvalid],
  );

  const mainLocked = useCallback((index: number) => (index === 0 ? t('error.MainUnitProhibitDelete') : undefined), [t]);

  return (
    <LineGrid<UnitRow>
      name="units"
      data-testid="material-units"
      rowTestId="material-unit"
      intro={t('basic.material.units.intro')}
      columns={columns}
      view={view}
      maxRows={MAX_UNITS}
      newRow={newUnitRow}
      addText={t('basic.material.units.add')}
      removeBlocked={mainLocked}
      rules={[
        {
          validator: async (_, list: UnitRow[] | undefined) => {
            const ids = (list ?? []).map((r) => r.unitId).filter(Boolean);
            if (new Set(ids).size !== ids.length) {
              onInvalid();
              throw new Error(t('error.UnitRepeat'));
            }
            const codes = (list ?? []).map((r) => r.barcode?.trim()).filter(Boolean);
            if (new Set(codes).size !== codes.length) {
              onInvalid();
              throw new Error(t('error.BarCodeRepeat'));
            }
          },
        },
      ]}
    />
  );
}

const newUnitRow = (): UnitRow => ({ ratio: undefined, barcode: '', isMain: false, enabled: true });
