import { useTranslation } from 'react-i18next';
import { ErrorPage } from './components/error-page.tsx';

export default function NotFound() {
  const { t } = useTranslation();
  return <ErrorPage status="404" description={t('common.errorPage.notFound')} />;
}
