import { useMemo, useRef, useState } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { EditOutlined, EyeOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ASSIGN_RANGE_SWITCH, type Assignment, type PartnerDetail, type PartnerKind } from '@p8/contract/basic';
import { feedback } from '../../../../app/feedback.ts';
import { Auth, useAuth } from '../../../../components/Auth/index.tsx';
import { ImportButton } from '../../../../components/ImportExcel/index.tsx';
import AssignDialog from '../../../../components/Pickers/AssignDialog.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../../../../components/ProTable/index.tsx';
import { useTenantConfig } from '../../../../hooks/useTenantConfig.ts';
import { assignPartners } from '../api/assign-partners.ts';
import { deletePartners } from '../api/delete-partners.ts';
import { enablePartners } from '../api/enable-partners.ts';
import { getPartner } from '../api/get-partner.ts';
import { districtTreeQuery } from '../api/get-district-tree.ts';
import { listPartners, partnerPath, type PartnerRow } from '../api/list-partners.ts';
import PartnerDialog, { type PartnerDialogState } from './partner-dialog.tsx';
import { BatchButtons, DeleteLink, StatusCell, useRecordWrites, useStatusEnum } from './record-kit.tsx';
import './partner.css';

interface AssignState {
  open: boolean;
  rows: Array<{ id: number; name: string }>;
  initial?: Assignment;
}

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * The supplier and customer screens (menus basic_supplier / basic_customer): the list with search,
 * sorts and the sums of the opening balances, enable / disable, delete, Excel import and export, the
 * add / edit / view dialog with contacts and addresses, and — while the tenant's applyRangeSupplier /
 * applyRangeCustomer is on — assigning records to departments and staff.
 */
export default function PartnerPage({ kind }: { kind: PartnerKind }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const can = useAuth();
  const queryClient = useQueryClient();
  const tenant = useTenantConfig();
  const rangeOn = !!tenant.config?.[ASSIGN_RANGE_SWITCH[kind]];
  const table = useRef<ProTableAction<PartnerRow>>(undefined);
  const reload = () => table.current?.reload();
  const statusEnum = useStatusEnum();
  const districts = useQuery(districtTreeQuery);
  const code = (action: string) => `basic_${kind}_${action}`;

  const [dialog, setDialog] = useState<PartnerDialogState>({ open: false, mode: 'add' });
  const [assign, setAssign] = useState<AssignState>({ open: false, rows: [] });
  const [opening, setOpening] = useState<string | null>(null);
  // The default contact and address are columns when the list sends them (`contactName`, `address`).
  const [serverSends, setServerSends] = useState({ contactName: true, address: true });
  const onLoad = (rows: PartnerRow[]) => {
    if (!rows.length) return;
    const next = { contactName: rows.some((r) => 'contactName' in r), address: rows.some((r) => 'address' in r) };
    if (next.contactName !== serverSends.contactName || next.address !== serverSends.address) setServerSends(next);
  };

  const writes = useRecordWrites<PartnerRow>({
    enable: (ids, enabled) => enablePartners(kind, ids, enabled),
    remove: (ids) => deletePartners(kind, ids),
    reload,
    clearSelection: () => table.current?.clearSelection(),
  });

  /** Edit and view need the contacts, addresses (and the districts to show them). */
  const openRecord = async (mode: 'edit' | 'view', row: PartnerRow) => {
    setOpening(`${mode}-${row.id}`);
    try {
      const [detail] = await Promise.all([getPartner(kind, row.id), queryClient.fetchQuery(districtTreeQuery)]);
      setDialog({ open: true, mode, detail });
    } catch {
      /* shown by the HTTP client */
    } finally {
      setOpening(null);
    }
  };

  const openAssign = async (row: PartnerRow) => {
    setOpening(`assign-${row.id}`);
    try {
      const detail: PartnerDetail = await getPartner(kind, row.id);
      setAssign({ open: true, rows: [row], initial: detail.assignment });
    } catch {
      /* shown by the HTTP client */
    } finally {
      setOpening(null);
    }
  };

  const columns = useMemo<ProColumn<PartnerRow>[]>(
    () => [
      { prop: 'code', title: t(`partner.${kind}.code`), search: true, sortable: true, lockSetting: true, width: 130 },
      {
        prop: 'name',
        title: t(`partner.${kind}.name`),
        search: true,
        sortable: true,
        lockSetting: true,
        width: 200,
        render: (v, r) => (
          <span>
            {String(v)}
            {r.shortName && <Typography.Text type="secondary"> ({r.shortName})</Typography.Text>}
          </span>
        ),
      },
      ...(serverSends.contactName ? [{ prop: 'contactName', title: t('partner.contact'), width: 110, render: dash }] : []),
      { prop: 'phone', title: t('partner.phone'), search: true, width: 140, render: dash },
      ...(serverSends.address ? [{ prop: 'address', title: t('partner.address'), width: 220, ellipsis: true, render: dash }] : []),
      { prop: 'openingReceivable', title: t('partner.openingReceivable'), valueType: 'amount', sortable: true, sum: true, width: 130 },
      { prop: 'openingPayable', title: t('partner.openingPayable'), valueType: 'amount', sortable: true, sum: true, width: 130 },
      {
        prop: 'enabled',
        title: t('common.status'),
        width: 80,
        search: true,
        valueEnum: statusEnum,
        render: (_, row) => <StatusCell id={row.id} enabled={row.enabled} code={code('enable')} loading={writes.switching === row.id} onChange={(on) => void writes.setEnabled([row], on)} />,
      },
      { prop: 'taxNumber', title: t('partner.taxNumber'), search: true, width: 180, render: dash },
      {
        prop: 'bankName',
        title: t('partner.bank'),
        width: 200,
        render: (_, r) =>
          r.bankName || r.bankAccount ? (
            <div className="p8-partner-bank">
              <div>{dash(r.bankName)}</div>
              {r.bankAccount && <Typography.Text type="secondary">{r.bankAccount}</Typography.Text>}
            </div>
          ) : (
            '—'
          ),
      },
      { prop: 'managerName', title: t('partner.manager'), width: 100, render: dash },
      { prop: 'remark', title: t('common.remark'), width: 180, ellipsis: true, render: dash },
      { prop: 'createdAt', title: t('common.createdAt'), valueType: 'dateTime', sortable: true, width: 170, search: { type: 'dateRange' } },
      {
        prop: 'operation',
        title: t('common.operation'),
        fixed: 'right',
        hideInSetting: true,
        width: rangeOn ? 270 : 210,
        render: (_, row) => (
          <Space size={0} wrap={false}>
            <Button type="link" size="small" icon={<EyeOutlined />} loading={opening === `view-${row.id}`} onClick={() => void openRecord('view', row)} data-testid={`row-view-${row.id}`}>
              {t('common.view')}
            </Button>
            <Auth code={code('update')}>
              <Button type="link" size="small" icon={<EditOutlined />} loading={opening === `edit-${row.id}`} onClick={() => void openRecord('edit', row)} data-testid={`row-edit-${row.id}`}>
                {t('common.edit')}
              </Button>
            </Auth>
            {rangeOn && (
              <Auth code={code('assign')}>
                <Button type="link" size="small" icon={<TeamOutlined />} loading={opening === `assign-${row.id}`} onClick={() => void openAssign(row)} data-testid={`assign-${row.id}`}>
                  {t('common.assign')}
                </Button>
              </Auth>
            )}
            <DeleteLink record={kind} row={row} onDelete={() => writes.remove([row])} />
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read the latest state through the render
    [t, kind, statusEnum, rangeOn, writes.switching, opening, can, serverSends],
  );

  return (
    <div className={`p8-basic-partner p8-basic-${kind}`}>
      <ProTable<PartnerRow>
        data-testid={`${kind}-table`}
        listType={`basic_${kind}`}
        rowKey="id"
        columns={columns}
        path={partnerPath(kind)}
        request={(params) => listPartners(kind, params)}
        statistics
        exportPath={can(code('export')) ? `${partnerPath(kind)}/export` : undefined}
        actionRef={table}
        onLoad={onLoad}
        rowSelection={can(code('delete')) || can(code('enable')) || (rangeOn && can(code('assign')))}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <Auth code={code('add')}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'add' })} data-testid={`${kind}-add`}>
                {t(`partner.${kind}.add`)}
              </Button>
            </Auth>
            <BatchButtons record={kind} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {rangeOn && (
              <Auth code={code('assign')}>
                <Tooltip title={t('assign.replaceTip')}>
                  <Button
                    icon={<TeamOutlined />}
                    disabled={!selectedRowKeys.length}
                    onClick={() => setAssign({ open: true, rows: selectedRowKeys.map((id) => ({ id: Number(id), name: selectedRows.find((r) => r?.id === Number(id))?.name ?? String(id) })) })}
                    data-testid={`${kind}-assign-selected`}
                  >
                    {t('common.assignSelected')}
                  </Button>
                </Tooltip>
              </Auth>
            )}
            <Auth code={code('import')}>
              <ImportButton importPath={`${partnerPath(kind)}/import`} template={kind} title={t(`partner.${kind}.importTitle`)} onSuccess={reload} buttonProps={{ 'data-testid': `${kind}-import` } as never}>
                {t('common.import')}
              </ImportButton>
            </Auth>
          </>
        )}
      />
      <PartnerDialog kind={kind} state={dialog} districts={districts.data ?? []} onClose={() => setDialog((d) => ({ ...d, open: false }))} onSaved={reload} />
      <AssignDialog
        open={assign.open}
        title={assign.rows.length === 1 ? t('assign.title', { name: assign.rows[0]!.name }) : t('assign.titleMany', { count: assign.rows.length })}
        initial={assign.initial}
        onClose={() => setAssign((a) => ({ ...a, open: false }))}
        onSubmit={async (assignment) => {
          await assignPartners(
            kind,
            assign.rows.map((r) => r.id),
            assignment,
          );
          feedback.message.success(t('assign.saved'));
          reload();
        }}
        data-testid="assign-dialog"
      />
    </div>
  );
}
