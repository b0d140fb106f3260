import { beforeEach, describe, expect, it } from 'vitest';
import { useTabsStore, type TabItem } from './tabs.ts';

const tab = (path: string, extra: Partial<TabItem> = {}): TabItem => ({
  path,
  menuPath: path.split('?')[0],
  title: path,
  titleEn: path,
  icon: null,
  affix: false,
  keepAlive: true,
  ...extra,
});
const paths = () => useTabsStore.getState().tabs.map((t) => t.path);

describe('tab bar', () => {
  beforeEach(() => {
    useTabsStore.getState().reset();
    useTabsStore.getState().setAffixTabs([tab('/home/index', { affix: true })]);
    for (const p of ['/a', '/b?x=1', '/b?x=2', '/c']) useTabsStore.getState().addTab(tab(p));
  });

  it('keys tabs by full path and opens each once', () => {
    useTabsStore.getState().addTab(tab('/a'));
    expect(paths()).toEqual(['/home/index', '/a', '/b?x=1', '/b?x=2', '/c']);
  });

  it('never closes an affix tab', () => {
    useTabsStore.getState().removeTab('/home/index');
    useTabsStore.getState().closeExcept([]);
    expect(paths()).toEqual(['/home/index']);
  });

  it('closes others, left and right around a tab, affix tabs staying', () => {
    useTabsStore.getState().closeSide('/b?x=2', 'right');
    expect(paths()).toEqual(['/home/index', '/a', '/b?x=1', '/b?x=2']);
    useTabsStore.getState().closeSide('/b?x=1', 'left');
    expect(paths()).toEqual(['/home/index', '/b?x=1', '/b?x=2']);
    useTabsStore.getState().closeExcept(['/b?x=2']);
    expect(paths()).toEqual(['/home/index', '/b?x=2']);
  });

  it('drops the keep-alive cache of a closed tab', () => {
    expect(useTabsStore.getState().keepAliveKeys).toContain('/a');
    useTabsStore.getState().removeTab('/a');
    expect(useTabsStore.getState().keepAliveKeys).not.toContain('/a');
  });

  it('refresh bumps the view key of that path only', () => {
    useTabsStore.getState().refresh('/c');
    useTabsStore.getState().refresh('/c');
    expect(useTabsStore.getState().refreshSeq).toEqual({ '/c': 2 });
  });

  it('starts from a clean bar for another user', () => {
    useTabsStore.getState().setOwner(1);
    useTabsStore.getState().addTab(tab('/a'));
    useTabsStore.getState().setOwner(1);
    expect(paths()).toEqual(['/a']);
    useTabsStore.getState().setOwner(2);
    expect(paths()).toEqual([]);
  });
});
