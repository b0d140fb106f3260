import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { partnerSchemas, type Address, type Contact, type PartnerCreate, type PartnerDetail, type PartnerKind, type PartnerUpdate, type PickerQuery } from '@p8/contract/basic';
import type { Tx } from '../../db/connection.ts';
import { admin, currency, district, partner, partnerAddress, partnerContact } from '../../db/schema/index.ts';
import { assignmentOf, assignmentRangeWhere, forgetAssignments } from '../../core/assignment-range.ts';
import { codeOrNext, codesStoredIn } from '../../core/code-generator.ts';
import { BizError } from '../../core/errors.ts';
import { assertAllVisible, assertIdsExist } from '../../core/ids.ts';
import type { Lang } from '../../core/excel.ts';
import { containsPattern, countAll, parseList, runPage, statisticsSelection, type ListSpec } from '../../core/list-query.ts';
import type { ServiceContext } from '../../core/service-context.ts';
import { creatorOf, staffResolver } from './owner.ts';
import { boolLabel, cellNumber, cellText, col } from '../../core/excel-cells.ts';
import { EXPORT_MAX_ROWS, importedRows, q } from './kit.ts';
import { inSavepoint, type RecordDefinition } from '../../core/record-routes.ts';
import { districtPaths } from './tree.ts';
import { assertRegionsExist, regionPaths } from './region.ts';

/*
 * Suppliers and customers: one `partner` table told apart by kind, code and name unique per kind,
 * with contacts, addresses (by district), tax and bank details, and (read-only) the opening receivable /
 * payable its audited opening-balance bills add up to. While the tenant's applyRangeSupplier / applyRangeCustomer is on they follow the assignment range.
 */

const managerName = sql<string | null>`(select coalesce(nullif(a.real_name, ''), a.name) from ${admin} a where a.tenant_id = ${q('partner', 'tenant_id')} and a.id = ${q('partner', 'manager_id')})`;
// The default contact and address shown in the list: the flagged one, else the first by sort order.
const defaultContactName = sql<string | null>`(select c.name from ${partnerContact} c where c.tenant_id = ${q('partner', 'tenant_id')} and c.partner_id = ${q('partner', 'id')} order by c.is_default desc, c.sort, c.id limit 1)`;
const defaultAddress = sql<string | null>`(select d.address from ${partnerAddress} d where d.tenant_id = ${q('partner', 'tenant_id')} and d.partner_id = ${q('partner', 'id')} order by d.is_default desc, d.sort, d.id limit 1)`;

// The partner's currency code (docs/cross-border.md); null: CNY.
const currencyCode = sql<string | null>`(select c.code from ${currency} c where c.tenant_id = ${q('partner', 'tenant_id')} and c.id = ${q('partner', 'currency_id')})`;

const selection = {
  id: partner.id,
  kind: partner.kind,
  code: partner.code,
  name: partner.name,
  shortName: partner.shortName,
  phone: partner.phone,
  email: partner.email,
  taxNumber: partner.taxNumber,
  bankName: partner.bankName,
  bankAccount: partner.bankAccount,
  invoiceTitle: partner.invoiceTitle,
  managerId: partner.managerId,
  managerName,
  country: partner.country,
  currencyId: partner.currencyId,
  currencyCode,
  contactName: defaultContactName,
  address: defaultAddress,
  openingReceivable: partner.openingReceivable,
  openingPayable: partner.openingPayable,
  sort: partner.sort,
  remark: partner.remark,
  enabled: partner.enabled,
  deptId: partner.deptId,
  createdBy: partner.createdBy,
  createdAt: partner.createdAt,
  updatedAt: partner.updatedAt,
};

const spec: ListSpec = {
  fields: {
    id: { column: partner.id, notIn: true },
    code: { column: partner.code, filter: 'like', sortable: true },
    name: { column: partner.name, filter: 'like', sortable: true },
    shortName: { column: partner.shortName, filter: 'like' },
    phone: { column: partner.phone, filter: 'like' },
    taxNumber: { column: partner.taxNumber, filter: 'like' },
    managerId: { column: partner.managerId, filter: 'in' },
    enabled: { column: partner.enabled, filter: 'bool', sortable: true },
    sort: { column: partner.sort, sortable: true },
    createdAt: { column: partner.createdAt, sortable: true },
    openingReceivable: { column: partner.openingReceivable, sortable: true, sum: true },
    openingPayable: { column: partner.openingPayable, sortable: true, sum: true },
  },
  dateColumn: partner.createdAt,
  defaultOrder: [asc(partner.sort), desc(partner.id)],
};

/** An imported currency cell: a currency's code (none or CNY: the base currency), refused when the tenant has no such currency. */
function currencyOfCell(currencies: Map<string, number>, code: string | undefined): number | null {
  const clean = code?.trim().toUpperCase();
  if (!clean || clean === 'CNY') return null;
  const id = currencies.get(clean);
  if (id === undefined) throw new BizError('CurrencyNotExist', { additional: code });
  return id;
}

/** At most one default contact / address; the first one when none is marked. */
function withOneDefault<T extends { isDefault?: boolean }>(list: T[]): T[] {
  const first = Math.max(0, list.findIndex((i) => i.isDefault));
  return list.map((item, index) => ({ ...item, isDefault: index === first }));
}

function partnerDefinition(kind: PartnerKind): RecordDefinition<PartnerCreate, PartnerUpdate> {
  const notExist = kind === 'supplier' ? 'SupplierNotExist' : 'CustomerNotExist';
  const label = kind === 'supplier' ? { zh: '供应商', en: 'Supplier' } : { zh: '客户', en: 'Customer' };
  // Read-only here: the sum of the partner's audited opening balances (finance, docs/decisions.md); exported, not imported.
  const openingProp = kind === 'supplier' ? 'openingPayable' : 'openingReceivable';
  const openingTitle = kind === 'supplier' ? { zh: '期初应付', en: 'Opening payable' } : { zh: '期初应收', en: 'Opening receivable' };

  async function where({ tx, tenantId, account }: ServiceContext): Promise<Array<SQL | undefined>> {
    return [eq(partner.tenantId, tenantId), eq(partner.kind, kind), await assignmentRangeWhere(tx, account, kind, partner.id)];
  }

  async function assertFree(tx: Tx, tenantId: number, field: 'code' | 'name', value: string, exceptId?: number) {
    const [taken] = await tx
      .select({ id: partner.id })
      .from(partner)
      .where(and(eq(partner.tenantId, tenantId), eq(partner.kind, kind), eq(partner[field], value), exceptId === undefined ? undefined : ne(partner.id, exceptId)))
      .limit(1);
    if (taken) throw new BizError(field === 'code' ? 'CodeRepeat' : 'NameRepeat', { additional: value });
  }

  async function writeChildren(tx: Tx, tenantId: number, partnerId: number, contacts: Contact[] | undefined, addresses: Address[] | undefined) {
    if (contacts) {
      await tx.delete(partnerContact).where(and(eq(partnerContact.tenantId, tenantId), eq(partnerContact.partnerId, partnerId)));
      if (contacts.length) await tx.insert(partnerContact).values(withOneDefault(contacts).map((c, sort) => ({ ...c, tenantId, partnerId, sort })));
    }
    if (addresses) {
      await assertIdsExist(tx, district, tenantId, addresses.map((a) => a.districtId), 'DistrictNotExist');
      await assertRegionsExist(tx, addresses.map((a) => a.regionCode));
      await tx.delete(partnerAddress).where(and(eq(partnerAddress.tenantId, tenantId), eq(partnerAddress.partnerId, partnerId)));
      if (addresses.length) await tx.insert(partnerAddress).values(withOneDefault(addresses).map((a, sort) => ({ ...a, tenantId, partnerId, sort })));
    }
  }

  async function create(ctx: ServiceContext, body: PartnerCreate, owner?: { deptId: number | null; createdBy: number }) {
    const { tx, tenantId } = ctx;
    if (body.code) await assertFree(tx, tenantId, 'code', body.code);
    await assertFree(tx, tenantId, 'name', body.name);
    await assertIdsExist(tx, admin, tenantId, [body.managerId], 'AdminNotExist');
    await assertIdsExist(tx, currency, tenantId, [body.currencyId], 'CurrencyNotExist');
    const { contacts, addresses, ...fields } = body;
    const code = await codeOrNext(tx, tenantId, kind, body.code, codesStoredIn(tx, partner, partner.code, [eq(partner.tenantId, tenantId), eq(partner.kind, kind)]));
    const [row] = await tx
      .insert(partner)
      .values({ ...fields, code, tenantId, kind, ...(owner ?? (await creatorOf(ctx))) })
      .returning({ id: partner.id });
    await writeChildren(tx, tenantId, row.id, contacts, addresses);
    return row;
  }

  async function detail(ctx: ServiceContext, id: number): Promise<PartnerDetail> {
    const { tx, tenantId } = ctx;
    const [row] = await tx
      .select(selection)
      .from(partner)
      .where(and(...(await where(ctx)), eq(partner.id, id)));
    if (!row) throw new BizError(notExist, { additional: id });
    const contacts = await tx
      .select({ id: partnerContact.id, name: partnerContact.name, phone: partnerContact.phone, email: partnerContact.email, position: partnerContact.position, isDefault: partnerContact.isDefault })
      .from(partnerContact)
      .where(and(eq(partnerContact.tenantId, tenantId), eq(partnerContact.partnerId, id)))
      .orderBy(asc(partnerContact.sort), asc(partnerContact.id));
    const addresses = await tx
      .select({ id: partnerAddress.id, regionCode: partnerAddress.regionCode, districtId: partnerAddress.districtId, address: partnerAddress.address, contactName: partnerAddress.contactName, phone: partnerAddress.phone, isDefault: partnerAddress.isDefault })
      .from(partnerAddress)
      .where(and(eq(partnerAddress.tenantId, tenantId), eq(partnerAddress.partnerId, id)))
      .orderBy(asc(partnerAddress.sort), asc(partnerAddress.id));
    const paths = await districtPaths(tx, tenantId, addresses.flatMap((a) => (a.districtId == null ? [] : [a.districtId])));
    const regions = await regionPaths(tx, addresses.flatMap((a) => (a.regionCode == null ? [] : [a.regionCode])));
    return {
      ...(row as unknown as PartnerDetail),
      contacts,
      addresses: addresses.map((a) => ({
        ...a,
        regionPath: a.regionCode == null ? [] : (regions.get(a.regionCode) ?? []),
        districtPath: a.districtId == null ? [] : (paths.get(a.districtId) ?? []),
      })),
      assignment: await assignmentOf(tx, tenantId, kind, id),
    };
  }

  async function listRows(ctx: ServiceContext, query: Record<string, unknown>) {
    return parseList(spec, query, await where(ctx));
  }

  return {
    record: kind,
    entity: kind,
    assignable: kind,
    createSchema: partnerSchemas.create,
    updateSchema: partnerSchemas.update,
    async list(ctx, query) {
      return runPage(await listRows(ctx, query), ctx.tx.select(selection).from(partner).$dynamic(), ctx.tx.select(countAll()).from(partner).$dynamic());
    },
    async statistics(ctx, query) {
      const parsed = await listRows(ctx, query);
      const [sums] = await ctx.tx.select(statisticsSelection(spec)).from(partner).where(parsed.where);
      return sums;
    },
    detail,
    create: (ctx, body) => create(ctx, body),
    async update(ctx, body) {
      const { tx, tenantId } = ctx;
      await detail(ctx, body.id);
      if (body.code !== undefined) await assertFree(tx, tenantId, 'code', body.code, body.id);
      if (body.name !== undefined) await assertFree(tx, tenantId, 'name', body.name, body.id);
      await assertIdsExist(tx, admin, tenantId, [body.managerId], 'AdminNotExist');
      await assertIdsExist(tx, currency, tenantId, [body.currencyId], 'CurrencyNotExist');
      const { id, contacts, addresses, ...fields } = body;
      await tx
        .update(partner)
        .set({ ...fields, updatedAt: new Date() })
        .where(and(eq(partner.tenantId, tenantId), eq(partner.id, id)));
      await writeChildren(tx, tenantId, id, contacts, addresses);
    },
    async remove(ctx, ids) {
      const { tx, tenantId } = ctx;
      await assertAllVisible(tx, partner, await where(ctx), ids, notExist);
      await ctx.registries.recordUsage.refuseIfInUse(tx, tenantId, kind, ids);
      await tx.delete(partner).where(and(eq(partner.tenantId, tenantId), eq(partner.kind, kind), inArray(partner.id, ids)));
      await forgetAssignments(tx, tenantId, kind, ids);
    },
    async enable(ctx, ids, enabled) {
      const { tx, tenantId } = ctx;
      await assertAllVisible(tx, partner, await where(ctx), ids, notExist);
      await tx.update(partner).set({ enabled, updatedAt: new Date() }).where(and(eq(partner.tenantId, tenantId), eq(partner.kind, kind), inArray(partner.id, ids)));
    },
    async picker(ctx, query: PickerQuery) {
      const { tx } = ctx;
      const conditions = [...(await where(ctx)), eq(partner.enabled, true)];
      if (query.keyword) {
        const like = containsPattern(query.keyword);
        conditions.push(or(ilike(partner.code, like), ilike(partner.name, like), ilike(partner.shortName, like), ilike(partner.phone, like)));
      }
      return runPage(
        { current: query.current, pageSize: query.pageSize, where: and(...conditions), orderBy: spec.defaultOrder },
        tx.select(selection).from(partner).$dynamic(),
        tx.select(countAll()).from(partner).$dynamic(),
      );
    },
    excel: {
      template: kind,
      importedIds: (ctx, importJob) => importedRows(ctx, partner, importJob, eq(partner.kind, kind)),
      stagedTables: ['partner_contact', 'partner_address', 'partner'],
      importColumns: [
        col('code', `${label.zh}编码`, 'Code'),
        col('name', `${label.zh}名称`, 'Name', true, 24),
        col('shortName', '简称', 'Short name'),
        col('contactName', '联系人', 'Contact'),
        col('phone', '联系电话', 'Phone', false, 16),
        col('email', '邮箱', 'Email', false, 20),
        col('address', '地址', 'Address', false, 30),
        col('taxNumber', '税号', 'Tax number', false, 20),
        col('bankName', '开户银行', 'Bank name', false, 20),
        col('bankAccount', '银行账号', 'Bank account', false, 20),
        col('invoiceTitle', '发票抬头', 'Invoice title', false, 24),
        col('manager', '负责人(账号或姓名)', 'Manager (account or name)', false, 20),
        col('country', '国家/地区', 'Country', false, 16),
        col('currency', '币种(代码)', 'Currency (code)', false, 14),
        col('sort', '排序', 'Sort'),
        col('remark', '备注', 'Remark', false, 30),
      ],
      async importer(ctx) {
        const owner = await creatorOf(ctx);
        const staff = await staffResolver(ctx.tx, ctx.tenantId);
        const currencies = new Map((await ctx.tx.select({ id: currency.id, code: currency.code }).from(currency).where(eq(currency.tenantId, ctx.tenantId))).map((c) => [c.code, c.id]));
        return async (savepoint, row) => {
          const d = row.data;
          const manager = cellText(d.manager);
          const contactName = cellText(d.contactName);
          const phone = cellText(d.phone);
          const address = cellText(d.address);
          const input = partnerSchemas.create.parse({
            code: cellText(d.code) ?? '',
            name: cellText(d.name) ?? '',
            shortName: cellText(d.shortName),
            phone,
            email: cellText(d.email),
            taxNumber: cellText(d.taxNumber),
            bankName: cellText(d.bankName),
            bankAccount: cellText(d.bankAccount),
            invoiceTitle: cellText(d.invoiceTitle),
            managerId: manager ? staff(manager) : undefined,
            country: cellText(d.country),
            currencyId: currencyOfCell(currencies, cellText(d.currency)),
            sort: cellNumber(d.sort),
            remark: cellText(d.remark),
            contacts: contactName ? [{ name: contactName, phone: phone ?? '', email: cellText(d.email) ?? '', isDefault: true }] : [],
            addresses: address ? [{ address, contactName: contactName ?? '', phone: phone ?? '', isDefault: true }] : [],
          });
          await create(inSavepoint(ctx, savepoint), input, owner);
        };
      },
      exportColumns: [
        col('code', `${label.zh}编码`, 'Code'),
        col('name', `${label.zh}名称`, 'Name', false, 24),
        col('shortName', '简称', 'Short name'),
        col('phone', '联系电话', 'Phone', false, 16),
        col('email', '邮箱', 'Email', false, 20),
        col('taxNumber', '税号', 'Tax number', false, 20),
        col('bankName', '开户银行', 'Bank name', false, 20),
        col('bankAccount', '银行账号', 'Bank account', false, 20),
        col('invoiceTitle', '发票抬头', 'Invoice title', false, 24),
        col('managerName', '负责人', 'Manager'),
        col('country', '国家/地区', 'Country', false, 16),
        col('currencyCode', '币种(代码)', 'Currency (code)', false, 14),
        col(openingProp, openingTitle.zh, openingTitle.en),
        col('enabled', '启用', 'Enabled'),
        col('remark', '备注', 'Remark', false, 30),
      ],
      async exportRows(ctx, query, lang: Lang) {
        const parsed = await listRows(ctx, query);
        const rows = await ctx.tx.select(selection).from(partner).where(parsed.where).orderBy(...parsed.orderBy).limit(EXPORT_MAX_ROWS);
        return rows.map((r) => ({ ...r, enabled: boolLabel(r.enabled, lang) }));
      },
      filename: { zh: label.zh, en: `${kind}s` },
    },
  };
}

export const supplierDefinition = partnerDefinition('supplier');
export const customerDefinition = partnerDefinition('customer');
