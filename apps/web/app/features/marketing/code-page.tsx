import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { ReferralCodeStats } from '@skanova/shared/affiliate/stats';
import { AFFILIATE_DASHBOARD_PAGE } from '@skanova/shared/affiliate/constants';
import { PageMeta } from '../../components/page-meta';
import { useTranslation } from '../../lib/react-i18n';
import { CodePicker } from './code-picker';
import { useReferralCodes } from './use-referral-codes';
import './marketing.css';

// The frame of the QR code and marketing pages (docs/product/routes-and-screens.md#referral-qr-panel): title, the codes' loading and error
// states, the code dropdown, the page's content for the selected code, and the way back; and the
// page itself with its meta tags (CodeRoutePage).

interface CodePageProps {
  title: string;
  subtitle: string;
  /** What to say when the affiliate has no code yet. */
  noCodes: string;
  noCodesAction: string;
  children: (code: ReferralCodeStats) => ReactNode;
  /** Shown below, whatever the state of the codes. */
  footer?: ReactNode;
}

export function CodePage({ title, subtitle, noCodes, noCodesAction, children, footer }: CodePageProps) {
  const { t } = useTranslation('marketing');
  const codes = useReferralCodes();
  const [chosen, setChosen] = useState<string | null>(null);
  const list = codes.data ?? [];
  // The first code until the affiliate picks another (and again if the picked one disappears).
  const selected = list.find((code) => code.code === chosen) ?? list[0];

  return (
    <div className="container marketing-page">
      <header className="marketing-page__header">
        <h1>{title}</h1>
        <p className="page__lead">{subtitle}</p>
      </header>
      {codes.isPending ? (
        <div className="marketing-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">{t('codes.loading')}</span>
        </div>
      ) : null}
      {codes.isError ? (
        <p className="form-error" role="alert">
          {t('codes.loadError')}
        </p>
      ) : null}
      {codes.isSuccess && !selected ? (
        <div className="card marketing-empty">
          <p>{noCodes}</p>
          <Link className="button button--primary" to={AFFILIATE_DASHBOARD_PAGE}>
            {noCodesAction}
          </Link>
        </div>
      ) : null}
      {selected ? (
        <>
          <CodePicker codes={list} selected={selected.code} onSelect={setChosen} />
          {children(selected)}
        </>
      ) : null}
      {footer}
      <p className="marketing-page__back">
        <Link className="button button--secondary" to={AFFILIATE_DASHBOARD_PAGE}>
          {t('codes.back')}
        </Link>
      </p>
    </div>
  );
}

interface CodeRoutePageProps extends Pick<CodePageProps, 'children' | 'footer'> {
  /** The page's texts in the marketing namespace: `${texts}.metaTitle`, `.metaDescription`, `.title`, `.subtitle`. */
  texts: 'qrPage' | 'marketingPage';
  path: string;
  /** The key of what to say when the affiliate has no code yet. */
  noCodesKey: 'codes.noCodes' | 'marketingPage.noCodes';
}

/** A page of the affiliate area built on CodePage, kept out of search engines. */
export function CodeRoutePage({ texts, path, noCodesKey, children, footer }: CodeRoutePageProps) {
  const { t } = useTranslation('marketing');
  return (
    <>
      <PageMeta path={path} title={t(`${texts}.metaTitle`)} description={t(`${texts}.metaDescription`)} noindex />
      <CodePage
        title={t(`${texts}.title`)}
        subtitle={t(`${texts}.subtitle`)}
        noCodes={t(noCodesKey)}
        noCodesAction={t('marketingPage.generateCode')}
        footer={footer}
      >
        {children}
      </CodePage>
    </>
  );
}
