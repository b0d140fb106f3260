import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import {
  CloseCircleOutlined,
  CloseOutlined,
  ColumnWidthOutlined,
  DownOutlined,
  ExpandOutlined,
  ReloadOutlined,
  VerticalLeftOutlined,
  VerticalRightOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import MenuIcon from '../../components/MenuIcon/index.tsx';
import { useGlobalStore } from '../../stores/global.ts';
import { useTabsStore, type TabItem } from '../../stores/tabs.ts';
import { useThemeStore } from '../../stores/theme.ts';
import { menuTitle } from '../../app/dynamic-routes.ts';
import { useTabActions } from './use-tab-actions.ts';

type Actions = ReturnType<typeof useTabActions>;

/** Menu items of the "more" dropdown (testid prefix `tabs-`) and of a tab's context menu (`tabctx-`). */
function actionItems(t: (key: string) => string, prefix: string, tab: TabItem | undefined, tabs: TabItem[], withMaximize: boolean): MenuProps['items'] {
  const index = tab ? tabs.findIndex((x) => x.path === tab.path) : -1;
  const closable = (list: TabItem[]) => list.some((x) => !x.affix);
  const label = (id: string, text: string) => <span data-testid={`${prefix}-${id}`}>{text}</span>;
  return [
    { key: 'refresh', icon: <ReloadOutlined />, label: label('refresh', t('refresh')) },
    ...(withMaximize ? [{ key: 'maximize', icon: <ExpandOutlined />, label: label('maximize', t('maximize')) }] : []),
    { type: 'divider' as const },
    { key: 'close-current', icon: <CloseOutlined />, disabled: !tab || tab.affix, label: label('close-current', t('closeCurrent')) },
    { key: 'close-left', icon: <VerticalRightOutlined />, disabled: index <= 0 || !closable(tabs.slice(0, index)), label: label('close-left', t('closeLeft')) },
    { key: 'close-right', icon: <VerticalLeftOutlined />, disabled: index < 0 || !closable(tabs.slice(index + 1)), label: label('close-right', t('closeRight')) },
    { type: 'divider' as const },
    { key: 'close-others', icon: <ColumnWidthOutlined />, disabled: !closable(tabs.filter((x) => x.path !== tab?.path)), label: label('close-others', t('closeOthers')) },
    { key: 'close-all', icon: <CloseCircleOutlined />, disabled: !closable(tabs), label: label('close-all', t('closeAll')) },
  ];
}

function runAction(actions: Actions, key: string, path: string) {
  switch (key) {
    case 'refresh':
      return actions.refresh(path);
    case 'maximize':
      return actions.maximize();
    case 'close-current':
      return actions.close(path);
    case 'close-left':
      return actions.closeSide('left', path);
    case 'close-right':
      return actions.closeSide('right', path);
    case 'close-others':
      return actions.closeOthers(path);
    case 'close-all':
      return actions.closeAll();
  }
}

/** One tab per visited route; affix tabs have no close button. Right-click a tab for its menu. */
export default function TabBar() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.tabs' });
  const language = useGlobalStore((s) => s.language);
  const tabs = useTabsStore((s) => s.tabs);
  const showIcon = useThemeStore((s) => s.tabsIcon);
  const actions = useTabActions();
  const current = tabs.find((x) => x.path === actions.fullPath);

  const items = tabs.map((tab) => ({
    key: tab.path,
    closable: !tab.affix,
    label: (
      <Dropdown
        trigger={['contextMenu']}
        menu={{ items: actionItems(t, 'tabctx', tab, tabs, false), onClick: ({ key, domEvent }) => (domEvent.stopPropagation(), runAction(actions, key, tab.path)) }}
      >
        <span className="p8-tab-label" data-testid={`tab-${tab.path}`}>
          {showIcon && tab.icon ? <MenuIcon name={tab.icon} /> : null}
          {menuTitle({ metaTitle: tab.title, metaTitleEn: tab.titleEn }, language)}
        </span>
      </Dropdown>
    ),
  }));

  return (
    <div className="p8-tabs" data-testid="tabs-bar">
      <Tabs
        className="p8-tabs-nav"
        type="editable-card"
        hideAdd
        size="small"
        activeKey={current?.path}
        items={items}
        onChange={(key) => actions.open(key)}
        onEdit={(key, action) => action === 'remove' && typeof key === 'string' && actions.close(key)}
      />
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{ items: actionItems(t, 'tabs', current, tabs, true), onClick: ({ key }) => runAction(actions, key, actions.fullPath) }}
      >
        <Button type="text" size="small" className="p8-tabs-more" icon={<DownOutlined />} data-testid="tabs-more" aria-label={t('more')} />
      </Dropdown>
    </div>
  );
}
