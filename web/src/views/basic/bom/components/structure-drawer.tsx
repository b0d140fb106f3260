import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Space, Table, Tabs, Tag, Typography, type TableColumnType } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Bom, BomRequirement, BomTreeNode } from '@p8/contract/basic';
import NumberInput from '../../../../components/NumberInput/index.tsx';
import { formatNumber } from '../../../../components/ProTable/format.ts';
import { columnWidth, headerOnOneLine, tableScrollWidth } from '../../../../components/ProTable/layout.ts';
import '../../../../components/ProTable/pro-table.css';
import { useTenantConfig } from '../../../../hooks/useTenantConfig.ts';
import { LEVEL_COLORS } from '../../../../components/Tree/tree-utils.ts';
import { explodeBom } from '../api/explode-bom.ts';
import { getBomTree } from '../api/get-bom-tree.ts';

export type StructureTab = 'tree' | 'explode';

interface TreeRow extends Omit<BomTreeNode, 'children'> {
  key: string;
  children?: TreeRow[];
}

/** Keys by position: one material can sit in several branches. */
function rowsOf(nodes: BomTreeNode[], parentKey: string): TreeRow[] {
  return nodes.map((node, index) => {
    const key = `${parentKey}/${index}`;
    const { children, ...rest } = node;
    return { ...rest, key, children: children.length ? rowsOf(children, key) : undefined };
  });
}

function keysOf(rows: TreeRow[]): string[] {
  return rows.flatMap((r) => (r.children ? [r.key, ...keysOf(r.children)] : []));
}

interface StructureDrawerProps {
  bom: Bom | null;
  tab: StructureTab;
  onTab: (tab: StructureTab) => void;
  onClose: () => void;
}

/**
 * A BOM's structure in a drawer: the multi-level tree (each line expanded by its material's default
 * BOM, quantities per one parent of the level above) and the exploded requirement — the leaf materials
 * and quantities, losses included, needed for N parents.
 */
export default function StructureDrawer({ bom, tab, onTab, onClose }: StructureDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={!!bom}
      onClose={onClose}
      size="min(960px, 100vw)"
      destroyOnHidden
      title={bom ? t('basic.bom.structureTitle', { code: bom.materialCode, name: bom.materialName, version: bom.version }) : ''}
      data-testid="bom-structure"
    >
      {bom && (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 3 }}
            style={{ marginBottom: 12 }}
            items={[
              { key: 'material', label: t('basic.bom.material'), children: `${bom.materialCode} ${bom.materialName}` },
              { key: 'spec', label: t('basic.material.specification'), children: bom.specification || '—' },
              {
                key: 'version',
                label: t('basic.bom.version'),
                children: (
                  <Space size={4}>
                    {bom.version}
                    {bom.isDefault && <Tag color="gold">{t('basic.bom.default')}</Tag>}
                    {!bom.enabled && <Tag>{t('basic.common.disabled')}</Tag>}
                  </Space>
                ),
              },
            ]}
          />
          <Tabs
            activeKey={tab}
            onChange={(key) => onTab(key as StructureTab)}
            items={[
              { key: 'tree', label: <span data-testid="bom-tab-tree">{t('basic.bom.structure')}</span>, children: <TreeView bom={bom} /> },
              { key: 'explode', label: <span data-testid="bom-tab-explode">{t('basic.bom.explode')}</span>, children: <ExplodeView bom={bom} /> },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

function TreeView({ bom }: { bom: Bom }) {
  const { t } = useTranslation();
  const { settings } = useTenantConfig();
  const tree = useQuery({ queryKey: ['basic', 'bom', bom.id, 'tree'], queryFn: () => getBomTree(bom.id), staleTime: 0 });
  const rows = useMemo(() => (tree.data ? rowsOf([tree.data], 'root') : []), [tree.data]);
  const allKeys = useMemo(() => keysOf(rows), [rows]);
  const [folded, setFolded] = useState<string[]>([]);
  const expanded = allKeys.filter((k) => !folded.includes(k));

  const declared: TableColumnType<TreeRow>[] = [
    {
      key: 'material',
      title: t('basic.bom.line.material'),
      width: 300,
      render: (_, row) => (
        <Space size={6}>
          <Tag color={LEVEL_COLORS[Math.min(row.level, LEVEL_COLORS.length - 1)]} style={{ marginInlineEnd: 0 }}>
            {row.level === 0 ? t('basic.bom.parentShort') : t('basic.bom.levelN', { level: row.level })}
          </Tag>
          <Typography.Text strong>{row.materialCode}</Typography.Text>
          <span>{row.materialName}</span>
        </Space>
      ),
    },
    { key: 'specification', dataIndex: 'specification', title: t('basic.material.specification'), width: 130, ellipsis: true, render: (v: string) => v || '—' },
    { key: 'lowLevelCode', dataIndex: 'lowLevelCode', title: t('basic.material.lowLevelCode'), width: 120, align: 'right' },
    {
      key: 'quantity',
      title: t('basic.bom.tree.quantity'),
      width: 120,
      align: 'right',
      render: (_, row) => formatNumber(row.quantity, settings.numberRetainsSmallDigit),
    },
    { key: 'lossRate', title: t('basic.bom.line.lossRate'), width: 90, align: 'right', render: (_, row) => (row.level === 0 ? '—' : `${row.lossRate}%`) },
    { key: 'unitName', dataIndex: 'unitName', title: t('basic.bom.line.unit'), width: 80, align: 'center', render: (v: string | null) => v || '—' },
    {
      key: 'bomVersion',
      title: t('basic.bom.tree.subBom'),
      width: 120,
      render: (_, row) => (row.bomVersion ? <Tag color="blue">{row.bomVersion}</Tag> : <Typography.Text type="secondary">{t('basic.bom.tree.leaf')}</Typography.Text>),
    },
  ];
  // The list kit's rule: a column of short values is never narrower than its header on one line (English).
  const columns = declared.map((c) => ({ ...c, width: columnWidth({ title: String(c.title), width: c.width, align: c.align }), className: headerOnOneLine(c) ? 'p8-header-one-line' : undefined }));

  if (tree.isError) return <Empty description={t('basic.common.loadFailed')} />;
  return (
    <div data-testid="bom-tree">
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => setFolded([])} data-testid="bom-tree-expand">
          {t('basic.common.expandAll')}
        </Button>
        <Button size="small" onClick={() => setFolded(allKeys)} data-testid="bom-tree-collapse">
          {t('basic.common.collapseAll')}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('basic.bom.tree.tip')}
        </Typography.Text>
      </Space>
      <Table<TreeRow>
        rowKey="key"
        size="small"
        bordered
        loading={tree.isFetching}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: tableScrollWidth(columns.map((c) => c.width)) }}
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, row) => setFolded((keys) => (open ? keys.filter((k) => k !== row.key) : [...keys, row.key])),
          indentSize: 18,
        }}
        data-testid="bom-tree-table"
      />
    </div>
  );
}

function ExplodeView({ bom }: { bom: Bom }) {
  const { t } = useTranslation();
  const { config, settings } = useTenantConfig();
  const statistics = !!config?.openBomStatistics;
  const [quantity, setQuantity] = useState<number | null>(bom.quantity || 1);
  const [asked, setAsked] = useState<number>(bom.quantity || 1);
  const result = useQuery({ queryKey: ['basic', 'bom', bom.id, 'explode', asked], queryFn: () => explodeBom(bom.id, asked), staleTime: 0 });
  const valid = quantity !== null && quantity > 0;

  const columns: TableColumnType<BomRequirement>[] = [
    { key: 'index', title: '#', width: 50, align: 'center', render: (_, __, i) => i + 1 },
    { key: 'materialCode', dataIndex: 'materialCode', title: t('basic.material.code'), width: 140 },
    { key: 'materialName', dataIndex: 'materialName', title: t('basic.material.name'), width: 200, ellipsis: true },
    { key: 'specification', dataIndex: 'specification', title: t('basic.material.specification'), width: 140, ellipsis: true, render: (v: string) => v || '—' },
    { key: 'unitName', dataIndex: 'unitName', title: t('basic.material.mainUnit'), width: 90, align: 'center', render: (v: string | null) => v || '—' },
    {
      key: 'quantity',
      title: t('basic.bom.explodeNeed'),
      width: 140,
      align: 'right',
      render: (_, row) => <Typography.Text strong>{formatNumber(row.quantity, settings.numberRetainsSmallDigit)}</Typography.Text>,
    },
    // BOM statistics (openBomStatistics): what each material costs at its average in stock, and the total.
    ...(statistics
      ? ([
          { key: 'unitCost', title: t('basic.bom.explodeUnitCost'), width: 120, align: 'right', render: (_, row) => (row.unitCost === null ? '—' : formatNumber(row.unitCost, settings.amountRetainsSmallDigit)) },
          { key: 'cost', title: t('basic.bom.explodeCost'), width: 130, align: 'right', render: (_, row) => (row.cost === null ? '—' : formatNumber(row.cost, settings.amountRetainsSmallDigit)) },
        ] satisfies TableColumnType<BomRequirement>[])
      : []),
  ];
  const rows = result.data ?? [];
  const totalCost = rows.reduce((sum, row) => sum + (row.cost ?? 0), 0);

  return (
    <div data-testid="bom-explode">
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{t('basic.bom.explodeQuantity')}</span>
        <NumberInput
          min={0}
          max={1e9}
          value={quantity}
          onChange={(v) => setQuantity(v)}
          onPressEnter={() => valid && setAsked(quantity)}
          style={{ width: 160 }}
          status={valid ? undefined : 'error'}
          data-testid="bom-explode-quantity"
        />
        <Button type="primary" icon={<CalculatorOutlined />} disabled={!valid} onClick={() => valid && setAsked(quantity)} loading={result.isFetching} data-testid="bom-explode-run">
          {t('basic.bom.explodeRun')}
        </Button>
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('basic.bom.explodeTip', { quantity: formatNumber(asked, settings.numberRetainsSmallDigit), name: bom.materialName })} />
      <Table<BomRequirement>
        rowKey="materialId"
        size="small"
        bordered
        loading={result.isFetching}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 760 }}
        data-testid="bom-explode-table"
        summary={
          statistics && rows.length
            ? () => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={columns.length - 1}>
                    <Typography.Text strong>{t('basic.bom.explodeTotalCost')}</Typography.Text>
                    {rows.some((row) => row.cost === null) && <Typography.Text type="secondary"> {t('basic.bom.explodeCostUnknown')}</Typography.Text>}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <Typography.Text strong data-testid="bom-explode-total-cost">
                      {formatNumber(totalCost, settings.amountRetainsSmallDigit)}
                    </Typography.Text>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )
            : undefined
        }
      />
    </div>
  );
}
