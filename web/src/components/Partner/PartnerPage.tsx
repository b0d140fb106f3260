import { useCallback, useMemo, useRef, useState } from 'react';
import { Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ASSIGN_RANGE_SWITCH, type PartnerDetail, type PartnerKind } from '@p8/contract/basic';
import { useAuth } from '../Auth/index.tsx';
import ProTable, { type ProColumn, type ProTableAction } from '../ProTable/index.tsx';
import { codeOf } from '../RecordKit/record-key.ts';
import { AddButton, BatchButtons, ImportRecordsButton } from '../RecordKit/RecordToolbar.tsx';
import RowActions from '../RecordKit/RowActions.tsx';
import { useRecordColumns } from '../RecordKit/record-columns.tsx';
import { useRecordDialog } from '../RecordKit/RecordDialog.tsx';
import { useRecordWrites } from '../RecordKit/use-record-writes.ts';
import { useTenantConfig } from '../../hooks/useTenantConfig.ts';
import { assignPartners } from './api/assign-partners.ts';
import { deletePartners } from './api/delete-partners.ts';
import { enablePartners } from './api/enable-partners.ts';
import { getPartner } from './api/get-partner.ts';
import { districtTreeQuery } from '../Pickers/api/get-district-tree.ts';
import { listPartners, partnerPath, type PartnerRow } from './api/list-partners.ts';
import PartnerDialog from './PartnerDialog.tsx';
import { useRecordAssign } from '../RecordKit/use-record-assign.tsx';
import './partner.css';

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
  const record = `basic_${kind}` as const;
  const table = useRef<ProTableAction<PartnerRow>>(undefined);
  const reload = useCallback(() => table.current?.reload(), []);
  const districts = useQuery(districtTreeQuery);
  const recordColumns = useRecordColumns();
  const dialog = useRecordDialog<PartnerDetail>();
  const openDialog = dialog.open;
  const [opening, setOpening] = useState<string | null>(null);
  // The default contact and address are columns when the list sends them (`contactName`, `address`).
  const [serverSends, setServerSends] = useState({ contactName: true, address: true });
  const onLoad = (rows: PartnerRow[]) => {
    if (!rows.length) return;
    const next = { contactName: rows.some((r) => 'contactName' in r), address: rows.some((r) => 'address' in r) };
    if (next.contactName !== serverSends.contactName || next.address !== serverSends.address) setServerSends(next);
  };

  const api = useMemo(
    () => ({
      enable: (ids: number[], enabled: boolean) => enablePartners(kind, ids, enabled),
      remove: (ids: number[]) => deletePartners(kind, ids),
      loadAssignment: async (id: number) => (await getPartner(kind, id)).assignment,
      save: (ids: number[], assignment: Parameters<typeof assignPartners>[2]) => assignPartners(kind, ids, assignment),
    }),
    [kind],
  );
  const writes = useRecordWrites<PartnerRow>({ table, enable: api.enable, remove: api.remove });
  const assign = useRecordAssign({ record, loadAssignment: api.loadAssignment, save: api.save, onSaved: reload });

  /** Edit and view need the contacts, addresses (and the districts to show them). */
  const openRecord = useCallback(
    async (mode: 'edit' | 'view', row: PartnerRow) => {
      setOpening(`${mode}-${row.id}`);
      try {
        const [detail] = await Promise.all([getPartner(kind, row.id), queryClient.fetchQuery(districtTreeQuery)]);
        openDialog(mode, detail);
      } catch {
        /* shown by the HTTP client */
      } finally {
        setOpening(null);
      }
    },
    [kind, queryClient, openDialog],
  );

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
      recordColumns.status<PartnerRow>({ record, writes, column: { width: 80 } }),
      { prop: 'country', title: t('partner.country'), width: 100, render: dash },
      { prop: 'currencyCode', title: t('partner.currency'), width: 80, render: dash },
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
      recordColumns.actions<PartnerRow>(rangeOn ? 270 : 210, (row) => (
        <RowActions
          record={record}
          id={row.id}
          name={row.name}
          onView={() => void openRecord('view', row)}
          viewLoading={opening === `view-${row.id}`}
          onEdit={() => void openRecord('edit', row)}
          editLoading={opening === `edit-${row.id}`}
          extra={rangeOn && assign.rowLink(row)}
          onDelete={() => writes.remove([row])}
        />
      )),
    ],
    [t, kind, record, recordColumns, writes, rangeOn, assign, opening, openRecord, serverSends],
  );

  return (
    <div className={`p8-basic-partner p8-basic-${kind}`}>
      <ProTable<PartnerRow>
        data-testid={`${kind}-table`}
        listType={record}
        rowKey="id"
        columns={columns}
        path={partnerPath(kind)}
        request={(params) => listPartners(kind, params)}
        statistics
        exportPath={can(codeOf(record, 'export')) ? `${partnerPath(kind)}/export` : undefined}
        actionRef={table}
        onLoad={onLoad}
        rowSelection={can(codeOf(record, 'delete')) || can(codeOf(record, 'enable')) || (rangeOn && can(codeOf(record, 'assign')))}
        toolbarRight={<ImportRecordsButton record={record} importPath={`${partnerPath(kind)}/import`} template={kind} title={t(`partner.${kind}.importTitle`)} onImported={reload} />}
        toolbar={({ selectedRowKeys, selectedRows }) => (
          <>
            <AddButton record={record} onClick={() => openDialog('add')}>
              {t(`partner.${kind}.add`)}
            </AddButton>
            <BatchButtons record={record} selectedKeys={selectedRowKeys} selectedRows={selectedRows} onEnable={writes.setEnabled} onDelete={writes.remove} />
            {rangeOn && assign.selectedButton(selectedRowKeys, selectedRows)}
          </>
        )}
      />
      <PartnerDialog kind={kind} state={dialog.state} districts={districts.data ?? []} onClose={dialog.close} onSaved={reload} />
      {assign.dialog}
    </div>
  );
}
