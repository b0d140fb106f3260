import { describe, expect, it } from 'vitest';
import { englishRegionName, PROVINCES_EN, type Pinyin } from './region-names.ts';
import { readRegions } from './regions.ts';

/** A stand-in for the pinyin package: the syllables of the characters these tests use. */
const SYLLABLES: Record<string, string> = {
  深: 'shen', 圳: 'zhen', 南: 'nan', 山: 'shan', 西: 'xi', 安: 'an', 延: 'yan', 边: 'bian', 朝: 'chao', 鲜: 'xian',
  湘: 'xiang', 土: 'tu', 家: 'jia', 苗: 'miao', 浦: 'pu', 东: 'dong', 粤: 'yue', 海: 'hai', 吕: 'lü', 梁: 'liang',
  锡: 'xi', 林: 'lin', 郭: 'guo', 勒: 'le', 阿: 'a', 拉: 'la', 善: 'shan', 神: 'shen', 农: 'nong', 架: 'jia',
};
const pinyin: Pinyin = (text) => [...text].map((c) => SYLLABLES[c] ?? c);

describe('englishRegionName', () => {
  it.each([
    ['440300', '深圳市', 'Shenzhen'],
    ['440305', '南山区', 'Nanshan District'],
    ['610100', '西安市', "Xi'an"],
    ['222400', '延边朝鲜族自治州', 'Yanbian Autonomous Prefecture'],
    ['433100', '湘西土家族苗族自治州', 'Xiangxi Autonomous Prefecture'],
    ['310115', '浦东新区', 'Pudong New Area'],
    ['141100', '吕梁市', 'Lvliang'],
    ['152500', '锡林郭勒盟', 'Xilinguole League'],
    ['152900', '阿拉善盟', 'Alashan League'],
    ['429021', '神农架林区', 'Shennongjia Forestry District'],
    ['440305001000', '粤海街道', 'Yuehai Subdistrict'],
  ])('%s %s → %s', (code, name, english) => {
    expect(englishRegionName(code, name, pinyin)).toBe(english);
  });

  it('names every province by its own English name, with or without pinyin', () => {
    expect(englishRegionName('610000', '陕西省', pinyin)).toBe('Shaanxi');
    expect(englishRegionName('150000', '内蒙古自治区', undefined)).toBe('Inner Mongolia');
    // Every province of the package has one.
    const provinces = readRegions().filter((r) => r.level === 1);
    expect(provinces).toHaveLength(34);
    expect(provinces.filter((p) => !PROVINCES_EN[p.code]).map((p) => p.name)).toEqual([]);
  });

  it('gives no English name when the pinyin is missing or does not cover the name', () => {
    expect(englishRegionName('440300', '深圳市', undefined)).toBe('');
    expect(englishRegionName('999999', '未知区', pinyin)).toBe('');
  });
});

describe('readRegions: placeholder levels', () => {
  const rows = readRegions();
  const byCode = new Map(rows.map((r) => [r.code, r]));

  it('keeps each "市辖区" as an unlisted code, its towns under the city', () => {
    const placeholders = rows.filter((r) => r.name === '市辖区');
    expect(placeholders.length).toBeGreaterThan(200);
    expect(placeholders.every((r) => !r.listed && r.level === 3)).toBe(true);
    expect(rows.filter((r) => r.parentCode && !byCode.get(r.parentCode)!.listed)).toEqual([]);
    // 嘉峪关市's towns sat under its 市辖区 (620201).
    expect(byCode.get('620201001000')).toMatchObject({ parentCode: '620200', level: 4, listed: true });
  });

  it('hangs the county-level divisions a province administers directly from the province', () => {
    expect(byCode.get('419000')).toMatchObject({ listed: false, level: 2 });
    expect(byCode.get('419001')).toMatchObject({ name: '济源市', parentCode: '410000', level: 3, listed: true });
    // A municipality's districts, as before.
    expect(byCode.get('110101')).toMatchObject({ name: '东城区', parentCode: '110000', listed: true });
  });
});
