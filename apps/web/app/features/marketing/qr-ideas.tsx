import { useTranslation } from '../../lib/react-i18n';

interface Idea {
  title: string;
  text: string;
}

/** Where a QR code works (docs/product/routes-and-screens.md#qr-code-page): retail, social media, e-mail, print. */
export function QrIdeas() {
  const { t } = useTranslation('marketing');
  const ideas = t('qrPage.ideas', { returnObjects: true }) as Idea[];
  return (
    <section className="marketing-ideas" aria-labelledby="qr-ideas-title">
      <h2 id="qr-ideas-title">{t('qrPage.ideasTitle')}</h2>
      <ul className="card-grid marketing-ideas__grid">
        {ideas.map((idea, index) => (
          <li key={idea.title}>
            <article className={`card marketing-idea marketing-idea--${IDEA_KINDS[index] ?? 'other'}`}>
              <h3>{idea.title}</h3>
              <p>{idea.text}</p>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The order of the ideas in the translations; each kind has its own icon. */
const IDEA_KINDS = ['retail', 'social', 'email', 'print'];
