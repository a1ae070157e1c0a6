import { useId } from 'react';
import { PRINT_DOCUMENT_KINDS, type PrintDocument, printDocumentPath } from '@skanova/shared/marketing/assets';
import { useTranslation } from '../../lib/react-i18n';
import { BannerSection } from './banner-section';
import { CopyStatus } from './copy-status';
import { usePageLanguage } from './page-language';
import { useCopyFeedback } from './use-copy-feedback';
import './marketing.css';

// The marketing materials panel (docs/product/routes-and-screens.md#marketing-materials-panel): banners, an e-mail template, three social posts and the
// print documents, all filled in with the selected code and its link, then four tips.

export interface MarketingPanelProps {
  code: string;
  link: string;
}

const NETWORKS = ['instagram', 'facebook', 'twitter'] as const;
const PRINT_LABELS: Record<PrintDocument, string> = { flyer: 'print.flyer', 'business-card': 'print.businessCard' };

export function MarketingPanel({ code, link }: MarketingPanelProps) {
  const { t } = useTranslation('marketing');
  const tips = t('tips', { returnObjects: true }) as string[];
  const id = useId();
  return (
    <div className="marketing-panel">
      <BannerSection code={code} link={link} />
      <EmailTemplate code={code} link={link} />
      <SocialPosts code={code} link={link} />
      <PrintDocuments code={code} />
      <section className="card marketing-section" aria-labelledby={`${id}-tips`}>
        <h2 id={`${id}-tips`}>{t('tipsTitle')}</h2>
        <ul className="marketing-tips">
          {tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function EmailTemplate({ code, link }: MarketingPanelProps) {
  const { t } = useTranslation('marketing');
  const id = useId();
  const feedback = useCopyFeedback();
  const subject = t('email.subject');
  const body = t('email.body', { code, link });
  return (
    <section className="card marketing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('email.title')}</h2>
      <p>{t('email.intro')}</p>
      <div className="form-field">
        <label htmlFor={`${id}-subject`}>{t('email.subjectLabel')}</label>
        <input id={`${id}-subject`} type="text" readOnly value={subject} />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-body`}>{t('email.bodyLabel')}</label>
        <textarea id={`${id}-body`} readOnly rows={11} value={body} />
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void feedback.copy(t('email.copyText', { subject, body }), t('email.copied'))}
        >
          {t('email.copy')}
        </button>
      </div>
      <CopyStatus message={feedback.message} />
    </section>
  );
}

function SocialPosts({ code, link }: MarketingPanelProps) {
  const { t } = useTranslation('marketing');
  const id = useId();
  const feedback = useCopyFeedback();
  return (
    <section className="card marketing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('social.title')}</h2>
      <p>{t('social.intro')}</p>
      <div className="columns marketing-posts">
        {NETWORKS.map((network) => {
          const name = t(`social.posts.${network}.name`);
          const text = t(`social.posts.${network}.text`, { code, link });
          return (
            <div key={network} className={`marketing-post marketing-post--${network}`}>
              <div className="form-field">
                <label htmlFor={`${id}-${network}`}>{t('social.postLabel', { network: name })}</label>
                <textarea id={`${id}-${network}`} readOnly rows={6} value={text} />
              </div>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => void feedback.copy(text, t('social.copied'))}
              >
                {t('social.copy', { network: name })}
              </button>
            </div>
          );
        })}
      </div>
      <CopyStatus message={feedback.message} />
    </section>
  );
}

/** Made by the server for the signed-in owner of the code (the session cookie goes with the link). */
function PrintDocuments({ code }: { code: string }) {
  const { t } = useTranslation('marketing');
  const lang = usePageLanguage();
  const id = useId();
  return (
    <section className="card marketing-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('print.title')}</h2>
      <p>{t('print.intro')}</p>
      <div className="button-row">
        {PRINT_DOCUMENT_KINDS.map((document) => (
          <a
            key={document}
            className="button button--secondary"
            href={printDocumentPath(code, document, lang)}
            download
          >
            {t(PRINT_LABELS[document])}
          </a>
        ))}
      </div>
    </section>
  );
}
