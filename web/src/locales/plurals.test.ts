import { describe, expect, it } from 'vitest';
import i18next from 'i18next';

/**
 * Counted texts read right in English for one and for many: a text holding `{{count}}` that names what it
 * counts has its `_one` and `_other` forms, which i18next picks by the `count` the screen gives (Chinese has
 * one form). Read through i18next as the app sets it up, over every catalogue.
 */
type Texts = { [key: string]: string | Texts };

const load = (modules: Record<string, { default: Texts }>) =>
  Object.fromEntries(Object.entries(modules).map(([path, mod]) => [/\/([^/]+)\.ts$/.exec(path)![1], mod.default]));
const zh = load(import.meta.glob<{ default: Texts }>('./zh/*.ts', { eager: true }));
const en = load(import.meta.glob<{ default: Texts }>('./en/*.ts', { eager: true }));

function entries(texts: Texts, prefix = ''): Array<[string, string]> {
  return Object.entries(texts).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`)));
}

const i18n = i18next.createInstance();
void i18n.init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: 'en',
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

const counted = [...new Set(entries(en).filter(([, text]) => text.includes('{{count}}')).map(([key]) => key.replace(/_(one|other)$/, '')))];

describe('counted texts', () => {
  it('say "1 message", "3 messages" in English and keep their one form in Chinese', () => {
    const t = (lng: string, count: number) => i18n.t('system-office.message.markedRead', { lng, count });
    expect([t('en', 1), t('en', 3), t('zh', 1), t('zh', 3)]).toEqual(['1 message marked read', '3 messages marked read', '已将 1 条消息标为已读', '已将 3 条消息标为已读']);
  });

  it('have both English forms when they have one', () => {
    const keys = new Set(entries(en).map(([key]) => key));
    for (const key of keys) {
      const base = key.replace(/_(one|other)$/, '');
      if (base !== key) expect([keys.has(`${base}_one`), keys.has(`${base}_other`)], base).toEqual([true, true]);
    }
  });

  it.each(counted)('%s names one thing in the singular (en)', (key) => {
    const one = i18n.t(key, { lng: 'en', count: 1 });
    // "1 messages", "1 selected items", "Printed 1 times": a plural noun right after the one (or one word on).
    expect(one, one).not.toMatch(/\b1 (?:[A-Za-z-]+ )?[A-Za-z]+s\b/);
    // Every English text is English: none falls back to the Chinese one for want of a form.
    expect(one).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
