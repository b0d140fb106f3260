import { useMemo, useState } from 'react';
import { Avatar, Button, Card, Col, Empty, Row, Space, Tag, Tooltip } from 'antd';
import { CloseOutlined, EditOutlined, IdcardOutlined, LockOutlined, PlusOutlined, SkinOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { MenuItem } from '@p8/contract/menu';
import { feedback } from '../../app/feedback.ts';
import MenuIcon from '../../components/MenuIcon/index.tsx';
import PasswordDialog from '../../layouts/header/password-dialog.tsx';
import { menuTitle, useMayOpen } from '../../app/dynamic-routes.ts';
import { isExternal, openExternal } from '../../layouts/menu/menu-utils.ts';
import { useThemeDrawer } from '../../hooks/useThemeDrawer.ts';
import { useAuthStore } from '../../stores/auth.ts';
import { useGlobalStore } from '../../stores/global.ts';
import { useMenuStore } from '../../stores/menu.ts';
import { COMMON_MENU_LIMIT, saveCommonMenus } from './api/common-menus.ts';
import { useTenant } from './api/tenant.ts';
import Dashboard from './components/dashboard.tsx';
import MenuPicker, { isPickable } from './components/menu-picker.tsx';
import './home.css';

/** Greeting key by the hour of the day. */
export function greetingOf(hour: number): 'night' | 'morning' | 'forenoon' | 'noon' | 'afternoon' | 'evening' {
  if (hour < 6) return 'night';
  if (hour < 9) return 'morning';
  if (hour < 12) return 'forenoon';
  if (hour < 14) return 'noon';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** The personal-data screen the profile button and shortcut open. */
const PROFILE_PATH = '/person/userInfo';

/** Soft tile colours for the common menus, picked by menu id so a tile keeps its colour. */
const TILE_COLORS = ['#409EFF', '#13C2C2', '#52C41A', '#FAAD14', '#FA541C', '#EB2F96', '#722ED1', '#2F54EB'];

function WelcomeCard() {
  const { t } = useTranslation(undefined, { keyPrefix: 'home' });
  const language = useGlobalStore((s) => s.language);
  const user = useAuthStore((s) => s.userInfo);
  const tenant = useTenant();
  const navigate = useNavigate();
  const mayOpenProfile = useMayOpen(PROFILE_PATH);
  const now = dayjs();
  const name = user?.nickName || user?.realName || user?.name || '';
  const tenantName = tenant?.title || tenant?.name || '';
  const date = language === 'zh' ? now.format('YYYY年M月D日 dddd') : now.format('dddd, MMMM D, YYYY');

  return (
    <Card className="p8-home-welcome" variant="borderless" data-testid="home-welcome">
      <div className="p8-home-welcome-body">
        <Avatar size={64} src={user?.avatar || undefined} icon={<UserOutlined />} className="p8-home-avatar" />
        <div className="p8-home-welcome-text">
          <h2 className="p8-home-greeting" data-testid="home-greeting">
            {t('welcome', { greeting: t(`greeting.${greetingOf(now.hour())}`), name })}
            {user?.isInitialAdmin && (
              <Tag color="gold" className="p8-home-greeting-tag">
                {t('initialAdmin')}
              </Tag>
            )}
          </h2>
          <div className="p8-home-subtitle">{tenantName ? t('subtitle', { tenant: tenantName }) : t('today', { date })}</div>
          {tenantName && <div className="p8-home-date">{t('today', { date })}</div>}
        </div>
        {mayOpenProfile && (
          <Button icon={<IdcardOutlined />} onClick={() => navigate(PROFILE_PATH)} className="p8-home-profile-btn" data-testid="home-profile">
            {t('profile')}
          </Button>
        )}
      </div>
      <div className="p8-home-facts">
        <div className="p8-home-fact">
          <span className="p8-home-fact-label">{t('account')}</span>
          <span className="p8-home-fact-value">{user?.name || '—'}</span>
        </div>
        <div className="p8-home-fact">
          <span className="p8-home-fact-label">{t('role')}</span>
          <span className="p8-home-fact-value" title={user?.roleName}>
            {user?.roleName || '—'}
          </span>
        </div>
        <div className="p8-home-fact">
          <span className="p8-home-fact-label">{t('dept')}</span>
          <span className="p8-home-fact-value">{user?.deptName || '—'}</span>
        </div>
        <div className="p8-home-fact">
          <span className="p8-home-fact-label">{t('tenant')}</span>
          <span className="p8-home-fact-value" data-testid="home-tenant">
            {tenantName || '—'}
          </span>
        </div>
      </div>
    </Card>
  );
}

function ShortcutsCard() {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.shortcuts' });
  const navigate = useNavigate();
  const showTheme = useThemeDrawer((s) => s.show);
  const [password, setPassword] = useState(false);
  const mayOpenProfile = useMayOpen(PROFILE_PATH);
  // A shortcut to a screen shows only when the user may open that screen.
  const entries = [
    ...(mayOpenProfile ? [{ key: 'person', icon: <IdcardOutlined />, color: '#409EFF', onClick: () => navigate(PROFILE_PATH) }] : []),
    { key: 'password', icon: <LockOutlined />, color: '#FA541C', onClick: () => setPassword(true) },
    { key: 'theme', icon: <SkinOutlined />, color: '#722ED1', onClick: showTheme },
  ];
  return (
    <Card title={t('title')} variant="borderless" className="p8-home-card p8-home-shortcuts">
      <div className="p8-home-shortcut-list">
        {entries.map((e) => (
          <button type="button" key={e.key} className="p8-home-shortcut" onClick={e.onClick} data-testid={`home-shortcut-${e.key}`}>
            <span className="p8-home-shortcut-icon" style={{ color: e.color, background: `${e.color}1a` }}>
              {e.icon}
            </span>
            <span>{t(e.key)}</span>
          </button>
        ))}
      </div>
      <PasswordDialog open={password} onClose={() => setPassword(false)} />
    </Card>
  );
}

function CommonMenus() {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.common' });
  const navigate = useNavigate();
  const language = useGlobalStore((s) => s.language);
  const user = useAuthStore((s) => s.userInfo);
  const setUserInfo = useAuthStore((s) => s.setUserInfo);
  const flat = useMenuStore((s) => s.flatMenuList);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<number[]>([]);
  const [picking, setPicking] = useState(false);

  const byId = useMemo(() => new Map(flat.filter(isPickable).map((m) => [m.id, m])), [flat]);
  // Ids the user may no longer open (menu or role changed) are left out.
  const saved = useMemo(() => (user?.commonMenus ?? []).filter((id) => byId.has(id)), [user?.commonMenus, byId]);
  const ids = editing ? draft : saved;
  const items = ids.map((id) => byId.get(id)).filter((m): m is MenuItem => Boolean(m));

  const mutation = useMutation({
    mutationFn: saveCommonMenus,
    onSuccess: (menuIds) => {
      if (user) setUserInfo({ ...user, commonMenus: menuIds });
      feedback.message.success(t('saved'));
      setEditing(false);
    },
  });

  const startEdit = () => {
    setDraft(saved);
    setEditing(true);
  };
  const finish = () => {
    const unchanged = draft.length === saved.length && draft.every((id, i) => id === saved[i]);
    if (unchanged) setEditing(false);
    else mutation.mutate(draft);
  };
  const openAdd = () => {
    if (draft.length >= COMMON_MENU_LIMIT) {
      feedback.message.warning(t('max', { max: COMMON_MENU_LIMIT }));
      return;
    }
    setPicking(true);
  };
  const open = (item: MenuItem) => {
    if (editing) return;
    if (isExternal(item)) openExternal(item);
    else navigate(item.path);
  };

  const extra = editing ? (
    <Space>
      <Button size="small" onClick={() => setEditing(false)} disabled={mutation.isPending} data-testid="home-common-cancel">
        {t('cancel')}
      </Button>
      <Button size="small" type="primary" onClick={finish} loading={mutation.isPending} data-testid="home-common-save">
        {t('done')}
      </Button>
    </Space>
  ) : (
    <Button size="small" type="text" icon={<EditOutlined />} onClick={startEdit} data-testid="home-common-edit">
      {t('edit')}
    </Button>
  );

  return (
    <Card
      variant="borderless"
      className="p8-home-card"
      data-testid="home-common-menus"
      title={
        <span>
          {t('title')} <span className="p8-home-count">{t('count', { count: ids.length, max: COMMON_MENU_LIMIT })}</span>
        </span>
      }
      extra={extra}
    >
      {items.length === 0 && !editing ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} />
      ) : (
        <div className={`p8-home-tiles ${editing ? 'is-editing' : ''}`}>
          {items.map((item) => {
            const color = TILE_COLORS[item.id % TILE_COLORS.length];
            return (
              <div
                key={item.id}
                className="p8-home-tile"
                role={editing ? undefined : 'link'}
                tabIndex={editing ? -1 : 0}
                onClick={() => open(item)}
                onKeyDown={(e) => e.key === 'Enter' && open(item)}
                data-testid={`home-common-item-${item.id}`}
              >
                <span className="p8-home-tile-icon" style={{ color, background: `${color}1a` }}>
                  <MenuIcon name={item.metaIcon} fallback />
                </span>
                <span className="p8-home-tile-title">{menuTitle(item, language)}</span>
                {editing && (
                  <Tooltip title={t('remove')}>
                    <button
                      type="button"
                      className="p8-home-tile-remove"
                      aria-label={t('remove')}
                      data-testid={`home-common-remove-${item.id}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setDraft(draft.filter((id) => id !== item.id));
                      }}
                    >
                      <CloseOutlined />
                    </button>
                  </Tooltip>
                )}
              </div>
            );
          })}
          {editing && (
            <button type="button" className="p8-home-tile is-add" onClick={openAdd} data-testid="home-common-add">
              <span className="p8-home-tile-icon">
                <PlusOutlined />
              </span>
              <span className="p8-home-tile-title">{t('add')}</span>
            </button>
          )}
        </div>
      )}
      <MenuPicker
        open={picking}
        value={draft}
        onCancel={() => setPicking(false)}
        onOk={(next) => {
          setDraft(next);
          setPicking(false);
        }}
      />
    </Card>
  );
}

/** Home (/home/index): welcome, shortcuts, the dashboard of the sections the user may see, and the user's common menus. */
export default function HomePage() {
  return (
    <div className="p8-home" data-testid="home-page">
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={16}>
          <WelcomeCard />
        </Col>
        <Col xs={24} xl={8}>
          <ShortcutsCard />
        </Col>
        <Col span={24}>
          <Dashboard />
        </Col>
        <Col span={24}>
          <CommonMenus />
        </Col>
      </Row>
    </div>
  );
}
