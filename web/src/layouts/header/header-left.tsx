import { Button, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useThemeStore } from '../../stores/theme.ts';
import AppBreadcrumb from '../breadcrumb.tsx';

/** Left side of the header: the collapse button and the breadcrumb. */
export default function HeaderLeft({ collapse = true }: { collapse?: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'layout.header' });
  const isCollapse = useThemeStore((s) => s.isCollapse);
  const toggle = useThemeStore((s) => s.toggleCollapse);
  const breadcrumb = useThemeStore((s) => s.breadcrumb);
  const label = isCollapse ? t('expand') : t('collapse');
  return (
    <div className="p8-header-left">
      {collapse && (
        <Tooltip title={label} placement="bottom">
          <Button type="text" className="p8-tool" icon={isCollapse ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={toggle} data-testid="header-collapse" aria-label={label} />
        </Tooltip>
      )}
      {breadcrumb && <AppBreadcrumb />}
    </div>
  );
}
