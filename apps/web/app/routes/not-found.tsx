import { useEffect } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { useNavigate } from 'react-router';

/** Unknown page paths go to the home page (spec route table). The server redirects; this covers client navigation. */
export default function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('/', { replace: true });
  }, [navigate]);
  return (
    <main className="container">
      <title>{t('errors.notFoundTitle')}</title>
      <meta name="robots" content="noindex" />
      <p>{t('errors.redirecting')}</p>
    </main>
  );
}
