import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/react-i18n';
import { siteConfig } from '../../../lib/site-config';

/** A dialable tel: link from a displayed number ("+33 1 23 45 67 89" → "tel:+33123456789"). */
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * The support contact block (docs/product/routes-and-screens.md#support-page, docs/product/rules-and-constants.md#sign-in-limits): e-mail, live chat and phone cards,
 * response time, opening hours and a link to the form. Phone and chat are optional settings that
 * the prerendered page cannot know, so they appear after hydration, and only when configured.
 */
export function ContactOptions() {
  const { t } = useTranslation('support');
  const [optional, setOptional] = useState<{ phone: string | null; chat: string | null }>({ phone: null, chat: null });
  useEffect(() => setOptional({ phone: siteConfig.supportPhone, chat: siteConfig.liveChatUrl }), []);

  return (
    <>
      <ul className="card-grid support-contact__cards">
        <li className="card support-card">
          <h3>{t('contact.email.title')}</h3>
          <p>{t('contact.email.text')}</p>
          <a className="support-card__link" href={`mailto:${siteConfig.supportEmail}`}>
            {siteConfig.supportEmail}
          </a>
        </li>
        {optional.chat ? (
          <li className="card support-card">
            <h3>{t('contact.chat.title')}</h3>
            <p>{t('contact.chat.text')}</p>
            <a className="support-card__link" href={optional.chat} target="_blank" rel="noopener noreferrer">
              {t('contact.chat.action')} <span className="visually-hidden">{t('contact.chat.newWindow')}</span>
            </a>
          </li>
        ) : null}
        {optional.phone ? (
          <li className="card support-card">
            <h3>{t('contact.phone.title')}</h3>
            <p>{t('contact.phone.text')}</p>
            <a className="support-card__link" href={telHref(optional.phone)}>
              {optional.phone}
            </a>
          </li>
        ) : null}
      </ul>
      <dl className="support-contact__facts">
        {(['responseTime', 'hours'] as const).map((fact) => (
          <div key={fact}>
            <dt>{t(`contact.${fact}Label`)}</dt>
            <dd>{t(`contact.${fact}`)}</dd>
          </div>
        ))}
      </dl>
      <p>
        <a className="button button--secondary" href="#contact-form">
          {t('contact.submitTicket')}
        </a>
      </p>
    </>
  );
}
