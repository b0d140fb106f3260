import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * English names of China's administrative divisions (the `region` table's `name_en`), derived from the
 * Chinese name: the provinces by a fixed table (their English names are not all their pinyin: 陕西
 * Shaanxi, 内蒙古 Inner Mongolia, 西藏 Tibet, 香港 Hong Kong…), every other level as the pinyin of its
 * proper name followed by its kind in English (南山区 → "Nanshan District", 深圳市 → "Shenzhen",
 * 延边朝鲜族自治州 → "Yanbian Autonomous Prefecture"). The pinyin comes from a `Pinyin` function (one
 * syllable per Chinese character); without one only the provinces get English names and the screens show
 * the Chinese name. Pure apart from `loadPinyin`; tested in region-names.test.ts.
 */

/** The syllables (without tones, lower case) of each character of `text`, in order. */
export type Pinyin = (text: string) => string[];

/** The provinces, autonomous regions, municipalities and special administrative regions by code. */
export const PROVINCES_EN: Readonly<Record<string, string>> = {
  '110000': 'Beijing', '120000': 'Tianjin', '130000': 'Hebei', '140000': 'Shanxi', '150000': 'Inner Mongolia',
  '210000': 'Liaoning', '220000': 'Jilin', '230000': 'Heilongjiang',
  '310000': 'Shanghai', '320000': 'Jiangsu', '330000': 'Zhejiang', '340000': 'Anhui', '350000': 'Fujian', '360000': 'Jiangxi', '370000': 'Shandong',
  '410000': 'Henan', '420000': 'Hubei', '430000': 'Hunan', '440000': 'Guangdong', '450000': 'Guangxi', '460000': 'Hainan',
  '500000': 'Chongqing', '510000': 'Sichuan', '520000': 'Guizhou', '530000': 'Yunnan', '540000': 'Tibet',
  '610000': 'Shaanxi', '620000': 'Gansu', '630000': 'Qinghai', '640000': 'Ningxia', '650000': 'Xinjiang',
  '710000': 'Taiwan', '810000': 'Hong Kong', '820000': 'Macao',
};

/** The kind of a division by the end of its name, longest first; '' when the proper name says it all (cities). */
const KINDS: Array<[suffix: string, english: string]> = [
  ['街道办事处', 'Subdistrict'],
  ['管理委员会', 'Administrative Committee'],
  ['自治州', 'Autonomous Prefecture'],
  ['自治县', 'Autonomous County'],
  ['自治旗', 'Autonomous Banner'],
  ['民族乡', 'Ethnic Township'],
  ['开发区', 'Development Zone'],
  ['管委会', 'Administrative Committee'],
  ['办事处', 'Office'],
  ['林区', 'Forestry District'],
  ['新区', 'New Area'],
  ['地区', 'Prefecture'],
  ['街道', 'Subdistrict'],
  ['苏木', 'Sumu'],
  ['农场', 'Farm'],
  ['林场', 'Forest Farm'],
  ['社区', 'Community'],
  ['区', 'District'],
  ['县', 'County'],
  ['旗', 'Banner'],
  ['盟', 'League'],
  ['镇', 'Town'],
  ['乡', 'Township'],
  ['市', ''],
];

/** China's ethnic groups as they appear in autonomous divisions' names (延边朝鲜族自治州), longest first. */
const ETHNIC = [
  '柯尔克孜', '乌孜别克', '维吾尔', '哈萨克', '塔吉克', '达斡尔', '鄂伦春', '鄂温克', '俄罗斯', '塔塔尔',
  '蒙古', '布依', '朝鲜', '土家', '哈尼', '傈僳', '高山', '拉祜', '东乡', '纳西', '景颇', '仫佬', '布朗', '撒拉',
  '毛南', '仡佬', '锡伯', '阿昌', '普米', '德昂', '保安', '裕固', '独龙', '赫哲', '门巴', '珞巴', '基诺',
  '回', '藏', '苗', '彝', '壮', '满', '侗', '瑶', '白', '傣', '黎', '佤', '畲', '水', '土', '羌', '怒', '京', '各',
];
const ETHNIC_TAIL = new RegExp(`(?:(?:${ETHNIC.join('|')})族)+$`);

/** Syllables written as one word, "'" before a syllable that starts with a vowel (西安 → Xi'an), capitalised. */
function word(syllables: string[]): string {
  const joined = syllables.map((s, i) => (i > 0 && /^[aoe]/.test(s) ? `'${s}` : s)).join('');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/**
 * The English name of a division (`code` and Chinese `name` as in the package), or '' when it cannot be
 * told: not a province and no `pinyin`, or a name with characters the pinyin does not cover.
 */
export function englishRegionName(code: string, name: string, pinyin: Pinyin | undefined): string {
  const province = PROVINCES_EN[code];
  if (province) return province;
  if (!pinyin) return '';
  const [suffix, kind] = KINDS.find(([s]) => name.length > s.length && name.endsWith(s)) ?? ['', ''];
  let proper = name.slice(0, name.length - suffix.length);
  // The ethnic groups of an autonomous division are left out of its English name, as is usual.
  if (kind.startsWith('Autonomous') || kind === 'Ethnic Township') proper = proper.replace(ETHNIC_TAIL, '') || proper;
  const syllables = pinyin(proper).map((s) => s.toLowerCase().replaceAll('ü', 'v'));
  if (syllables.length !== [...proper].length || syllables.some((s) => !/^[a-z]+$/.test(s))) return '';
  return kind ? `${word(syllables)} ${kind}` : word(syllables);
}

const PINYIN_PACKAGE = 'pinyin-pro';

/** Where the `pinyin-pro` package is installed and its version, or undefined when it is not. */
export function pinyinPackage(): { entry: string; version: string } | undefined {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(PINYIN_PACKAGE);
  } catch {
    return undefined;
  }
  const root = entry.slice(0, entry.lastIndexOf(`${PINYIN_PACKAGE}${sep}`) + PINYIN_PACKAGE.length);
  return { entry, version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version };
}

/**
 * The pinyin of the `pinyin-pro` package (MIT; its dictionary ships in the package, nothing is
 * downloaded) when it is installed; undefined without it.
 */
export async function loadPinyin(): Promise<Pinyin | undefined> {
  const installed = pinyinPackage();
  if (!installed) return undefined;
  type Library = { pinyin(text: string, options: { toneType: 'none'; type: 'array' }): string[] };
  // The entry is the package's CommonJS build: plain Node gives its exports as `default` (what `npm start`
  // runs), tsx as named exports too (what the tests run).
  const loaded = (await import(pathToFileURL(installed.entry).href)) as Partial<Library> & { default?: Library };
  const lib = typeof loaded.pinyin === 'function' ? (loaded as Library) : loaded.default;
  if (typeof lib?.pinyin !== 'function') throw new Error(`${PINYIN_PACKAGE} ${installed.version} has no pinyin function`);
  return (text) => lib.pinyin(text, { toneType: 'none', type: 'array' });
}
