import { lazy, Suspense } from 'react';
import { useTranslation } from '../lib/react-i18n';
import { PageMeta } from '../components/page-meta';
import { ContactOptions } from '../features/support/components/contact-options';
import { FaqAccordion, type FaqItem } from '../features/support/components/faq-accordion';
import type { RouteHandle } from '../lib/route-handle';
import '../features/support/support.css';

export const handle: RouteHandle = { i18n: ['support'] };

// The form and its validation schema load beside the page, not in its first-load JavaScript: the
// prerendered form is shown at once and becomes interactive when its chunk arrives (its submit
// button is disabled until then).
const formChunk = () => import('../features/support/components/contact-form');
const ContactForm = lazy(formChunk);
if (typeof document !== 'undefined') void formChunk();

export default function Support() {
  const { t } = useTranslation('support');
  const faq = t('faq.items', { returnObjects: true }) as FaqItem[];
  return (
    <>
      <PageMeta path="/support" title={t('meta.title')} description={t('meta.description')} />
      <header className="container support-page__header">
        <h1>{t('title')}</h1>
        <p className="support-page__lead">{t('lead')}</p>
      </header>
      <section className="section" id="faq" aria-labelledby="faq-title">
        <div className="container support-faq">
          <h2 id="faq-title">{t('faq.title')}</h2>
          <FaqAccordion items={faq} />
        </div>
      </section>
      <section className="section section--tinted" id="contact" aria-labelledby="contact-title">
        <div className="container">
          <h2 id="contact-title">{t('contact.title')}</h2>
          <p>{t('contact.lead')}</p>
          <ContactOptions />
          <Suspense fallback={null}>
            <ContactForm />
          </Suspense>
        </div>
      </section>
    </>
  );
}
