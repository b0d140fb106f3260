import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerDetail, Region, RegionMatch } from '@p8/contract/basic';
import { rows } from '../src/db/connection.ts';
import { loadRegions, readRegions } from '../src/db/regions.ts';
import { seedTenant, startTestApp, TEST_DB, type TestContext } from './harness.ts';
import { adminCaller, type Caller } from './basic-fixtures.ts';

/*
 * The shared national regions: loaded once for every tenant, read one level at a time or by name,
 * named by addresses, never written by a tenant.
 */

let ctx: TestContext;
let api: Caller;
let other: Caller;
let otherTenantId: number;
beforeAll(async () => {
  ctx = await startTestApp();
  api = await adminCaller(ctx, await seedTenant(ctx.database, 'Regions'));
  const second = await seedTenant(ctx.database, 'Regions2');
  otherTenantId = second.tenantId;
  other = await adminCaller(ctx, second);
});
afterAll(() => ctx.close());

const URL = '/api/admin/basic/region';

describe(`national regions (${TEST_DB})`, () => {
  it('holds the whole package, every parent present and every level below its parent', async () => {
    const expected = readRegions();
    const [counts] = await rows<{ total: number; orphans: number; inverted: number }>(
      ctx.database,
      sql`select count(*)::int as total,
            count(*) filter (where r.parent_code is not null and p.code is null)::int as orphans,
            count(*) filter (where p.code is not null and p.level >= r.level)::int as inverted
          from region r left join region p on p.code = r.parent_code`,
    );
    expect(counts).toEqual({ total: expected.length, orphans: 0, inverted: 0 });
    expect(expected.length).toBeGreaterThan(40_000);
  });

  it('loads again without changing anything (idempotent)', async () => {
    const before = await rows<{ n: number }>(ctx.database, sql`select count(*)::int as n from region`);
    await loadRegions(ctx.database.db, ctx.database.kind);
    expect(await rows<{ n: number }>(ctx.database, sql`select count(*)::int as n from region`)).toEqual(before);
  });

  it('lists the provinces, then children by parent, each saying whether it has children', async () => {
    const provinces = await api.get<Region[]>(`${URL}/children`);
    expect(provinces.body.status).toBe(0);
    expect(provinces.body.data).toHaveLength(34);
    expect(provinces.body.data[0]).toEqual({ code: '110000', parentCode: null, level: 1, name: '北京市', nameEn: 'Beijing', leaf: false });
    expect(provinces.body.data.find((r) => r.code === '440000')?.nameEn).toBe('Guangdong');
    const guangdong = await api.get<Region[]>(`${URL}/children?parentCode=440000`);
    expect(guangdong.body.data.map((r) => r.name)).toContain('深圳市');
    expect(guangdong.body.data.every((r) => r.parentCode === '440000' && r.level === 2)).toBe(true);
    const shenzhen = await api.get<Region[]>(`${URL}/children?parentCode=440300`);
    expect(shenzhen.body.data.find((r) => r.code === '440305')).toMatchObject({ name: '南山区', level: 3, leaf: false });
    // The package's placeholder "市辖区" (440301) is not offered: a city goes straight to its districts.
    expect(shenzhen.body.data.map((r) => r.name)).not.toContain('市辖区');
    expect(shenzhen.body.data.map((r) => r.code)).not.toContain('440301');
    // Nor "河南省-省直辖县级行政区划" (419000): 济源市 sits directly below 河南省, as a municipality's districts do.
    const henan = await api.get<Region[]>(`${URL}/children?parentCode=410000`);
    expect(henan.body.data.map((r) => r.code)).not.toContain('419000');
    expect(henan.body.data.find((r) => r.code === '419001')).toMatchObject({ name: '济源市', parentCode: '410000', level: 3 });
    // 嘉峪关市's towns, under its 市辖区 in the package, sit directly below the city.
    const jiayuguan = await api.get<Region[]>(`${URL}/children?parentCode=620200`);
    expect(jiayuguan.body.data.length).toBeGreaterThan(3);
    expect(jiayuguan.body.data.every((r) => r.level === 4 && r.code.startsWith('620201'))).toBe(true);
    const nanshan = await api.get<Region[]>(`${URL}/children?parentCode=440305`);
    expect(nanshan.body.data.length).toBeGreaterThan(3);
    expect(nanshan.body.data.every((r) => r.level === 4 && r.leaf && r.code.length === 12 && r.code.startsWith('440305'))).toBe(true);
    // A municipality's districts sit directly below it.
    const beijing = await api.get<Region[]>(`${URL}/children?parentCode=110000`);
    expect(beijing.body.data.find((r) => r.code === '110101')).toMatchObject({ name: '东城区', level: 3 });
    // A town has no children; an unknown code has none either.
    expect((await api.get<Region[]>(`${URL}/children?parentCode=${nanshan.body.data[0].code}`)).body.data).toEqual([]);
    expect((await api.get<Region[]>(`${URL}/children?parentCode=990000`)).body.data).toEqual([]);
  });

  it('searches by name and by code prefix, with each result’s path', async () => {
    const res = await api.get<RegionMatch[]>(`${URL}/search?keyword=${encodeURIComponent('南山区')}`);
    expect(res.body.status).toBe(0);
    const shenzhen = res.body.data.find((r) => r.code === '440305');
    expect(shenzhen?.path.map((p) => p.name)).toEqual(['广东省', '深圳市', '南山区']);
    expect(res.body.data.every((r) => r.name.includes('南山区'))).toBe(true);
    const levels = res.body.data.map((r) => r.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));

    const town = await api.get<RegionMatch[]>(`${URL}/search?keyword=${encodeURIComponent('景山街道')}`);
    expect(town.body.data.find((r) => r.code === '110101002000')?.path.map((p) => p.name)).toEqual(['北京市', '东城区', '景山街道']);

    // Placeholders are not found; English names are, in any case.
    expect((await api.get<RegionMatch[]>(`${URL}/search?keyword=${encodeURIComponent('市辖区')}`)).body.data).toEqual([]);
    expect((await api.get<RegionMatch[]>(`${URL}/search?keyword=4403&limit=50`)).body.data.map((r) => r.code)).not.toContain('440301');
    const english = await api.get<RegionMatch[]>(`${URL}/search?keyword=guangDONG`);
    expect(english.body.data[0]).toMatchObject({ code: '440000', name: '广东省', nameEn: 'Guangdong', path: [{ code: '440000', name: '广东省', nameEn: 'Guangdong' }] });

    const byCode = await api.get<RegionMatch[]>(`${URL}/search?keyword=4403&limit=5`);
    expect(byCode.body.data).toHaveLength(5);
    expect(byCode.body.data.every((r) => r.code.startsWith('4403'))).toBe(true);
    expect(byCode.body.data[0]).toMatchObject({ code: '440300', name: '深圳市' });
  });

  it('treats LIKE wildcards and odd input as plain text, and refuses malformed queries without a 500', async () => {
    for (const keyword of ['%', '_', '\\', "'; drop table region; --", '南山%区']) {
      const res = await api.get<RegionMatch[]>(`${URL}/search?keyword=${encodeURIComponent(keyword)}`);
      expect(res.body.status, keyword).toBe(0);
      expect(res.body.data, keyword).toEqual([]);
    }
    for (const query of ['', '?keyword=', `?keyword=${'x'.repeat(51)}`, '?keyword=a&limit=0', '?keyword=a&limit=51', '?keyword=a&limit=abc']) {
      const res = await api.get(`${URL}/search${query}`);
      expect(res.httpStatus, query).toBeLessThan(500);
      expect(res.body.status, query).toBe(40001);
    }
    for (const code of ['44', 'abcdef', '4403051', '1'.repeat(13), '%25']) {
      const res = await api.get(`${URL}/children?parentCode=${code}`);
      expect(res.httpStatus, code).toBeLessThan(500);
      expect(res.body.status, code).toBe(40001);
    }
  });

  it('shows another tenant the same regions', async () => {
    const mine = await api.get<Region[]>(`${URL}/children?parentCode=440300`);
    const theirs = await other.get<Region[]>(`${URL}/children?parentCode=440300`);
    expect(theirs.body.data).toEqual(mine.body.data);
    expect(theirs.body.data.length).toBeGreaterThan(5);
  });

  it('cannot be written from a tenant transaction (the app role may only read)', async () => {
    const attempts = [
      sql`insert into region (code, parent_code, level, name) values ('999999', null, 1, 'x')`,
      sql`update region set name = 'x' where code = '110000'`,
      sql`delete from region where code = '110101002000'`,
      sql`truncate region cascade`,
    ];
    for (const attempt of attempts) {
      const error = await ctx.database.withTenant(otherTenantId, (tx) => tx.execute(attempt)).then(
        () => undefined,
        (e: Error & { cause?: Error }) => e,
      );
      expect(String(error?.cause?.message ?? error?.message)).toMatch(/permission denied/);
    }
    const [beijing] = await rows<{ name: string }>(ctx.database, sql`select name from region where code = '110000'`);
    expect(beijing.name).toBe('北京市');
    expect(await rows(ctx.database, sql`select 1 from region where code = '999999'`)).toEqual([]);
  });

  it('is named by supplier and customer addresses, which return its path', async () => {
    const id = await api.create('supplier', {
      code: 'REG-S1',
      name: 'Region supplier',
      addresses: [{ regionCode: '440305', address: '科技园 1 号', isDefault: true }, { regionCode: '110101002000', address: '景山前街 4 号' }, { address: 'No region' }],
    });
    const detail = await api.get<PartnerDetail>(`/api/admin/basic/supplier/${id}`);
    expect(detail.body.data.addresses.map((a) => ({ code: a.regionCode, path: a.regionPath.map((p) => p.name), district: a.districtId }))).toEqual([
      { code: '440305', path: ['广东省', '深圳市', '南山区'], district: null },
      { code: '110101002000', path: ['北京市', '东城区', '景山街道'], district: null },
      { code: null, path: [], district: null },
    ]);
    expect(detail.body.data.addresses[0].regionPath[0]).toEqual({ code: '440000', name: '广东省', nameEn: 'Guangdong' });
    expect(detail.body.data.addresses[0].regionPath[2]).toMatchObject({ code: '440305', name: '南山区' });

    // A code of a collapsed placeholder stays valid and resolvable (an address stored before the collapse).
    const old = await api.create('supplier', { code: 'REG-S2', name: 'Placeholder supplier', addresses: [{ regionCode: '440301', address: '旧地址' }] });
    const oldDetail = await api.get<PartnerDetail>(`/api/admin/basic/supplier/${old}`);
    expect(oldDetail.body.data.addresses[0].regionPath.map((p) => p.name)).toEqual(['广东省', '深圳市', '市辖区']);

    // Another tenant names the same region for its own customer.
    const theirs = await other.create('customer', { code: 'REG-C1', name: 'Region customer', addresses: [{ regionCode: '440305' }] });
    expect((await other.get<PartnerDetail>(`/api/admin/basic/customer/${theirs}`)).body.data.addresses[0].regionPath.map((p) => p.code)).toEqual(['440000', '440300', '440305']);
  });

  it('refuses an address naming an unknown region, or a region and an own district at once', async () => {
    const unknown = await api.post('/api/admin/basic/customer', { code: 'REG-C2', name: 'Bad region', addresses: [{ regionCode: '990000' }] });
    expect(unknown.body).toMatchObject({ status: 40001, message: 'RegionNotExist', additional: '990000' });
    const malformed = await api.post('/api/admin/basic/customer', { code: 'REG-C2', name: 'Bad region', addresses: [{ regionCode: '4403' }] });
    expect(malformed.body.status).toBe(40001);
    const own = await api.post<{ id: number }>('/api/admin/basic/district', { name: 'Own park' });
    const both = await api.post('/api/admin/basic/customer', { code: 'REG-C2', name: 'Bad region', addresses: [{ regionCode: '440305', districtId: own.body.data.id }] });
    expect(both.body).toMatchObject({ status: 40001, message: 'AddressRegionOrDistrict' });
    const list = await api.get<Array<{ code: string }>>('/api/admin/basic/customer?code=REG-C2');
    expect(list.body.data).toEqual([]);
    // An own district alone still works (tenants keep their own places).
    const ok = await api.create('customer', { code: 'REG-C3', name: 'Own place', addresses: [{ districtId: own.body.data.id }] });
    const detail = await api.get<PartnerDetail>(`/api/admin/basic/customer/${ok}`);
    expect(detail.body.data.addresses[0]).toMatchObject({ districtId: own.body.data.id, districtPath: ['Own park'], regionCode: null, regionPath: [] });
    expect((await api.del('/api/admin/basic/district', { ids: [own.body.data.id] })).body.message).toBe('DistrictInUseProhibitDelete');
  });
});
