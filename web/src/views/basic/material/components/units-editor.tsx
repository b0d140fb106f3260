import { useMemo } from 'react';
import { Button, Form, Input, InputNumber, Select, Switch, Table, Tag, Tooltip, Typography, type TableColumnType } from 'antd';
import { DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
 * The row fields are `preserve`d: the dialog's form drops unmounted fields, and a list row's field that
 * unmounts and mounts again (React's strict mode does that) would otherwise lose its value.
 */
export default function UnitsEditor({ view, knownUnits, onInvalid }: UnitsEditorProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const units = useQuery(unitOptionsQuery);
  const rows = (Form.useWatch('units', { form, preserve: true }) as UnitRow[] | undefined) ?? [];

  const names = useMemo(() => {
    const map = new Map<number, string>();
    for (const u of knownUnits ?? []) if (u.unitId && u.unitName) map.set(u.unitId, u.unitName);
    for (const u of units.data ?? []) map.set(u.id, u.name);
    return map;
  }, [units.data, knownUnits]);
  const enabledIds = useMemo(() => new Set((units.data ?? []).map((u) => u.id)), [units.data]);
  const mainName = rows[0]?.unitId ? names.get(rows[0].unitId) : undefined;

  const optionsFor = (index: number) => {
    const taken = new Set(rows.filter((_, i) => i !== index).map((r) => r.unitId));
    const own = rows[index]?.unitId;
    const ids = [...names.keys()].filter((id) => enabledIds.has(id) || id === own);
    return ids.map((id) => ({ value: id, label: names.get(id)!, disabled: taken.has(id) }));
  };

  return (
    <Form.List
      name="units"
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
    >
      {(fields, { add, remove }, { errors }) => {
        const columns: TableColumnType<(typeof fields)[number]>[] = [
          {
            key: 'kind',
            title: t('basic.material.units.kind'),
            width: 110,
            render: (_, field) =>
              field.name === 0 ? (
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
            key: 'unitId',
            title: t('basic.material.units.unit'),
            width: 170,
            render: (_, field) => (
              <Form.Item
                preserve
                name={[field.name, 'unitId']}
                rules={[
                  {
                    validator: async (_r, value) => {
                      if (!value) {
                        onInvalid();
                        throw new Error(t('error.PleaseSelectUnit'));
                      }
                    },
                  },
                ]}
              >
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  options={optionsFor(field.name)}
                  loading={units.isPending}
                  placeholder={t('basic.common.selectPlaceholder', { label: t('basic.material.units.unit') })}
                  notFoundContent={t('basic.material.units.noUnits')}
                  data-testid={`material-unit-${field.name}-unit`}
                />
              </Form.Item>
            ),
          },
          {
            key: 'ratio',
            title: (
              <Tooltip title={t('basic.material.units.ratioTip')}>
                <span>{t('basic.material.units.ratio')}</span>
              </Tooltip>
            ),
            width: 210,
            render: (_, field) => {
              const row = rows[field.name];
              const name = row?.unitId ? names.get(row.unitId) : undefined;
              return (
                <>
                  <Form.Item
                    preserve
                    name={[field.name, 'ratio']}
                    rules={[
                      {
                        validator: async (_r, value: number | null | undefined) => {
                          if (field.name === 0) return;
                          if (value === null || value === undefined || !(value > 0)) {
                            onInvalid();
                            throw new Error(t('error.NumberMustGreaterThanZero'));
                          }
                        },
                      },
                    ]}
                  >
                    <InputNumber<number> min={0} max={1e9} disabled={view || field.name === 0} style={{ width: '100%' }} data-testid={`material-unit-${field.name}-ratio`} />
                  </Form.Item>
                  {field.name > 0 && name && mainName && row?.ratio ? (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('basic.material.units.ratioHint', { unit: name, ratio: row.ratio, main: mainName })}
                    </Typography.Text>
                  ) : null}
                </>
              );
            },
          },
          {
            key: 'barcode',
            title: t('basic.material.units.barcode'),
            render: (_, field) => (
              <Form.Item preserve name={[field.name, 'barcode']}>
                <Input maxLength={50} placeholder={t('basic.material.units.barcodePlaceholder')} data-testid={`material-unit-${field.name}-barcode`} />
              </Form.Item>
            ),
          },
          {
            key: 'enabled',
            title: t('basic.common.status'),
            width: 90,
            align: 'center',
            render: (_, field) =>
              field.name === 0 ? (
                <Tooltip title={t('error.MainUnitProhibitDisable')}>
                  <Switch size="small" checked disabled />
                </Tooltip>
              ) : (
                <Form.Item preserve name={[field.name, 'enabled']} valuePropName="checked">
                  <Switch size="small" data-testid={`material-unit-${field.name}-enabled`} />
                </Form.Item>
              ),
          },
          ...(view
            ? []
            : [
                {
                  key: 'remove',
                  title: '',
                  width: 56,
                  align: 'center' as const,
                  render: (_: unknown, field: (typeof fields)[number]) =>
                    field.name === 0 ? (
                      <Tooltip title={t('error.MainUnitProhibitDelete')}>
                        <Button type="text" size="small" icon={<DeleteOutlined />} disabled aria-label={t('basic.common.remove')} data-testid="material-unit-0-remove" />
                      </Tooltip>
                    ) : (
                      <Tooltip title={t('basic.common.remove')}>
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          onClick={() => remove(field.name)}
                          aria-label={t('basic.common.remove')}
                          data-testid={`material-unit-${field.name}-remove`}
                        />
                      </Tooltip>
                    ),
                },
              ]),
        ];
        return (
          <div className="p8-basic-lines" data-testid="material-units">
            <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
              {t('basic.material.units.intro')}
            </Typography.Paragraph>
            <Table rowKey="key" size="small" pagination={false} columns={columns} dataSource={fields} bordered />
            {errors.length > 0 && (
              <Typography.Text type="danger" role="alert" data-testid="lines-error">
                {errors[0]}
              </Typography.Text>
            )}
            {!view && (
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                style={{ marginTop: 12 }}
                disabled={fields.length >= MAX_UNITS}
                onClick={() => add({ ratio: undefined, barcode: '', isMain: false, enabled: true })}
                data-testid="material-unit-add"
              >
                {t('basic.material.units.add')}
              </Button>
            )}
          </div>
        );
      }}
    </Form.List>
  );
}
