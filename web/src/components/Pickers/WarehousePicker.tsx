import { useMemo, useState } from 'react';
import { Empty, Input, Spin, Typography, type TableColumnsType } from 'antd';
import { CheckOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Location, Warehouse } from '@p8/contract/basic';
import { useDebounceFn } from '../../hooks/useDebounceFn.ts';
import { pickLocations } from './api/pick-locations.ts';
import { pickWarehouses } from './api/pick-warehouses.ts';
import PickerModal from './PickerModal.tsx';

/** A chosen warehouse with the location chosen in it (null: none, or the picker was opened without locations). */
export type PickedWarehouse = Warehouse & { location: Location | null };

export interface WarehousePickerProps {
  open: boolean;
  onClose: () => void;
  onOk: (rows: PickedWarehouse[]) => void;
  /** Several (default) or one. */
  multiple?: boolean;
  /** Also choose a storage location in each chosen warehouse (optional per warehouse). */
  withLocation?: boolean;
  /** Already on the bill: listed but not selectable. */
  disabledIds?: number[];
  initialSelected?: PickedWarehouse[];
  title?: string;
  /** The first search (what was typed in the field that opened the picker). */
  keyword?: string;
}

/**
 * Choose warehouses — and, with `withLocation`, a storage location in each — for a bill: keyword over
 * code and name, paging, single or multiple selection; only enabled warehouses within the user's
 * assignment range and their enabled locations are offered. Clicking a warehouse shows its locations
 * on the right; clicking a location chooses it (and its warehouse).
 *
 * ```tsx
 * <WarehousePicker open={open} multiple={false} withLocation onClose={close}
 *   onOk={([w]) => setLine({ warehouseId: w.id, locationId: w.location?.id ?? null })} />
 * ```
 */
export default function WarehousePicker({ withLocation, initialSelected, onOk, ...props }: WarehousePickerProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const [locations, setLocations] = useState<Map<number, Location | null>>(() => new Map((initialSelected ?? []).map((w) => [w.id, w.location])));
  const columns = useMemo<TableColumnsType<Warehouse>>(
    () => [
      { key: 'code', dataIndex: 'code', title: t('stock.code'), width: 130 },
      { key: 'name', dataIndex: 'name', title: t('stock.name'), width: 180 },
      ...(withLocation
        ? [
            {
              key: 'location',
              title: t('picker.location'),
              width: 140,
              render: (_: unknown, row: Warehouse) => {
                const location = locations.get(row.id);
                return location ? <Typography.Text type="success">{location.name}</Typography.Text> : <Typography.Text type="secondary">{t('common.none')}</Typography.Text>;
              },
            },
          ]
        : [
            { key: 'address', dataIndex: 'address', title: t('stock.address'), width: 220, ellipsis: true, render: (v: string) => v || t('common.none') },
            { key: 'managerName', dataIndex: 'managerName', title: t('stock.manager'), width: 110, render: (v: string | null) => v || t('common.none') },
          ]),
    ],
    [t, withLocation, locations],
  );

  const chooseLocation = (warehouseId: number, location: Location | null) =>
    setLocations((map) => {
      const next = new Map(map);
      next.set(warehouseId, location);
      return next;
    });

  return (
    <PickerModal<Warehouse>
      {...props}
      initialSelected={initialSelected}
      title={props.title ?? t(withLocation ? 'picker.warehouseLocationTitle' : 'picker.warehouseTitle')}
      queryKey={['stock']}
      fetch={pickWarehouses}
      columns={columns}
      placeholder={t('picker.warehouseKeyword')}
      labelOf={(row) => {
        const location = locations.get(row.id);
        return location ? `${row.name} / ${location.name}` : row.name;
      }}
      onOk={(rows) => onOk(rows.map((row) => ({ ...row, location: withLocation ? (locations.get(row.id) ?? null) : null })))}
      aside={
        withLocation
          ? ({ current, select }) => (
              <LocationList
                warehouse={current}
                chosen={current ? (locations.get(current.id) ?? null) : null}
                onChoose={(location) => {
                  if (!current) return;
                  chooseLocation(current.id, location);
                  select(current);
                }}
              />
            )
          : undefined
      }
      data-testid="warehouse-picker"
    />
  );
}

/** The enabled locations of one warehouse, the chosen one marked; "no specific location" first. */
function LocationList({ warehouse, chosen, onChoose }: { warehouse: Warehouse | null; chosen: Location | null; onChoose: (location: Location | null) => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner.picker' });
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const debounced = useDebounceFn((text: string) => setKeyword(text.trim()));
  const query = useQuery({
    queryKey: ['picker', 'location', warehouse?.id, keyword],
    queryFn: () => pickLocations({ warehouseId: warehouse!.id, keyword: keyword || undefined, current: 1, pageSize: 200 }),
    enabled: !!warehouse,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

  if (!warehouse) {
    return (
      <div className="p8-picker-locations" data-testid="warehouse-picker-locations">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pickWarehouseFirst')} style={{ margin: 'auto' }} />
      </div>
    );
  }
  const items = query.data?.data ?? [];
  return (
    <div className="p8-picker-locations" data-testid="warehouse-picker-locations">
      <Typography.Text strong>
        <EnvironmentOutlined /> {t('locationsOf', { name: warehouse.name })}
      </Typography.Text>
      <Input
        size="small"
        allowClear
        placeholder={t('locationKeyword')}
        value={typed}
        onChange={(e) => {
          setTyped(e.target.value);
          debounced.run(e.target.value);
        }}
        style={{ marginTop: 8 }}
        data-testid="warehouse-picker-location-search"
      />
      <div className="p8-picker-locations-list">
        <div className={`p8-picker-location${chosen ? '' : ' is-chosen'}`} onClick={() => onChoose(null)} data-testid="warehouse-picker-location-none">
          <Typography.Text type={chosen ? 'secondary' : undefined} style={{ color: 'inherit' }}>
            {t('noLocation')}
          </Typography.Text>
          {!chosen && <CheckOutlined />}
        </div>
        {query.isPending ? (
          <Spin style={{ display: 'block', marginTop: 16 }} />
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noLocations')} />
        ) : (
          items.map((location) => {
            const isChosen = chosen?.id === location.id;
            return (
              <div
                key={location.id}
                className={`p8-picker-location${isChosen ? ' is-chosen' : ''}`}
                onClick={() => onChoose(location)}
                data-testid={`warehouse-picker-location-${location.id}`}
              >
                <span>
                  {location.name}
                  {location.code && <Typography.Text type="secondary"> · {location.code}</Typography.Text>}
                </span>
                {isChosen && <CheckOutlined />}
              </div>
            );
          })
        )}
      </div>
    </div>
  );
}
