import { useEffect, useState } from 'react';
import { Avatar, Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import {
  CheckOutlined,
  DeleteOutlined,
  DownOutlined,
  FontSizeOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  IdcardOutlined,
  LockOutlined,
  LogoutOutlined,
  PoweroffOutlined,
  SkinOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import screenfull from 'screenfull';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { useAuthStore } from '../../stores/auth.ts';
import { useGlobalStore, type ComponentSize, type Language } from '../../stores/global.ts';
import { useThemeDrawer } from '../../hooks/useThemeDrawer.ts';
import ClearDataDialog from './clear-data-dialog.tsx';
import LogoffDialog from './logoff-dialog.tsx';
import MessageBell from './message-bell.tsx';
import { confirmLogout } from './logout.ts';
import PasswordDialog from './password-dialog.tsx';
import PersonalDialog from './personal-dialog.tsx';

const SIZES: { key: ComponentSize; text: string }[] = [
  { key: 'large', text: 'sizeLarge' },
  { key: 'middle', text: 'sizeMiddle' },
  { key: 'small', text: 'sizeSmall' },
];

const LANGUAGES: { key: Language; label: string }[] = [
  { key: 'zh', label: '简体中文' },
  { key: 'en', label: 'English' },
];

function checked(on: boolean) {
  return <CheckOutlined style={{ visibility: on ? 'visible' : 'hidden', marginInlineEnd: 8 }} />;
}

/** An icon button with a tooltip that opens a menu; the tooltip hides while the menu is open. */
function ToolDropdown({ title, testId, icon, menu }: { title: string; testId: string; icon: React.ReactNode; menu: MenuProps }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [tipOpen, setTipOpen] = useState(false);
  return (
    <Dropdown
      menu={menu}
      trigger={['click']}
      placement="bottom"
      open={menuOpen}
      onOpenChange={(open) => {
        setMenuOpen(open);
        if (open) setTipOpen(false);
      }}
    >
      <Tooltip title={title} placement="bottom" open={tipOpen && !menuOpen} onOpenChange={setTipOpen}>
        <Button type="text" className="p8-tool" icon={icon} data-testid={testId} aria-label={title} />
      </Tooltip>
    </Dropdown>
  );
}

function SizeSwitch() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const size = useGlobalStore((s) => s.componentSize);
  const setSize = useGlobalStore((s) => s.setComponentSize);
  const items: MenuProps['items'] = SIZES.map((s) => ({
    key: s.key,
    label: (
      <span data-testid={`size-${s.key}`}>
        {checked(size === s.key)}
        {t(s.text)}
      </span>
    ),
  }));
  return (
    <ToolDropdown
      title={t('size')}
      testId="header-size"
      icon={<FontSizeOutlined />}
      menu={{ items, selectable: true, selectedKeys: [size], onClick: ({ key }) => setSize(key as ComponentSize) }}
    />
  );
}

function LanguageSwitch() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const language = useGlobalStore((s) => s.language);
  const setLanguage = useGlobalStore((s) => s.setLanguage);
  const items: MenuProps['items'] = LANGUAGES.map((l) => ({
    key: l.key,
    label: (
      <span data-testid={`lang-${l.key}`}>
        {checked(language === l.key)}
        {l.label}
      </span>
    ),
  }));
  return (
    <ToolDropdown
      title={t('language')}
      testId="header-lang"
      icon={<TranslationOutlined />}
      menu={{ items, selectable: true, selectedKeys: [language], onClick: ({ key }) => setLanguage(key as Language) }}
    />
  );
}

function ThemeButton() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const open = useThemeDrawer((s) => s.show);
  return (
    <Tooltip title={t('theme')} placement="bottom">
      <Button type="text" className="p8-tool" icon={<SkinOutlined />} onClick={open} data-testid="header-theme" aria-label={t('theme')} />
    </Tooltip>
  );
}

function FullscreenButton() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const [full, setFull] = useState(() => screenfull.isEnabled && screenfull.isFullscreen);
  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const onChange = () => setFull(screenfull.isFullscreen);
    screenfull.on('change', onChange);
    return () => screenfull.off('change', onChange);
  }, []);
  const toggle = () => {
    if (!screenfull.isEnabled) {
      feedback.message.warning(t('fullscreenUnsupported'));
      return;
    }
    void screenfull.toggle();
  };
  const label = full ? t('exitFullscreen') : t('fullscreen');
  return (
    <Tooltip title={label} placement="bottom">
      <Button type="text" className="p8-tool" icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} data-testid="header-fullscreen" aria-label={label} />
    </Tooltip>
  );
}

type Dialog = 'personal' | 'password' | 'clear' | 'logoff' | null;

function UserMenu() {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const user = useAuthStore((s) => s.userInfo);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const displayName = user?.nickName || user?.realName || user?.name || '';

  const items: MenuProps['items'] = [
    { key: 'personal', icon: <IdcardOutlined />, label: <span data-testid="menu-personal">{t('personal')}</span> },
    { key: 'password', icon: <LockOutlined />, label: <span data-testid="menu-change-password">{t('changePassword')}</span> },
    ...(user?.isInitialAdmin
      ? [
          { type: 'divider' as const },
          { key: 'clear', icon: <DeleteOutlined />, danger: true, label: <span data-testid="menu-clear-data">{t('clearData')}</span> },
          { key: 'logoff', icon: <PoweroffOutlined />, danger: true, label: <span data-testid="menu-logoff">{t('logoff')}</span> },
        ]
      : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="menu-logout">{t('logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') confirmLogout();
    else setDialog(key as Dialog);
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <div className="p8-user" data-testid="header-user" role="button" tabIndex={0}>
          <Avatar size={30} src={user?.avatar || undefined} icon={<UserOutlined />} className="p8-user-avatar" />
          <span className="p8-user-name">{displayName}</span>
          <DownOutlined className="p8-user-caret" />
        </div>
      </Dropdown>
      <PersonalDialog open={dialog === 'personal'} onClose={close} />
      <PasswordDialog open={dialog === 'password'} onClose={close} />
      {user?.isInitialAdmin && (
        <>
          <ClearDataDialog open={dialog === 'clear'} onClose={close} />
          <LogoffDialog open={dialog === 'logoff'} onClose={close} />
        </>
      )}
    </>
  );
}

/** Right side of the header: messages, size, language, theme, full screen, user menu. */
export default function HeaderTools() {
  return (
    <div className="p8-header-tools">
      <MessageBell />
      <SizeSwitch />
      <LanguageSwitch />
      <ThemeButton />
      <FullscreenButton />
      <UserMenu />
    </div>
  );
}
