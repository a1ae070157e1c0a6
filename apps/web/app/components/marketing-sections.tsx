import type { ReactNode } from 'react';
import './marketing-sections.css';

// The sections the two presentation pages share, the home page (/) and the affiliate programme's
// landing (/affiliate): a hero, titled sections, feature cards, numbered steps and a closing call
// to action. Each heading's id is `${id}-title`, which names its section for assistive technology.

export interface HeroProps {
  id: string;
  eyebrow: string;
  title: string;
  subtitle: string;
  /** The hero's buttons. */
  actions: ReactNode;
  note: string;
  /** Beside the text on wide screens, below it on narrow ones. */
  aside: ReactNode;
}

export function Hero({ id, eyebrow, title, subtitle, actions, note, aside }: HeroProps) {
  return (
    <section className="hero" aria-labelledby={`${id}-title`}>
      <div className="container hero__inner">
        <div>
          <p className="eyebrow">{eyebrow}</p>
          <h1 id={`${id}-title`}>{title}</h1>
          <p className="hero__subtitle">{subtitle}</p>
          <div className="hero__actions">{actions}</div>
          <p className="hero__note">{note}</p>
        </div>
        {aside}
      </div>
    </section>
  );
}

export interface PageSectionProps {
  /** The section's id (a link can point to it); its heading's is `${id}-title`. */
  id: string;
  title: string;
  lead?: string;
  /** On the tinted background that sets a section apart from its neighbours. */
  tinted?: boolean;
  /** A class of the section's container, for a page's own layout of the content. */
  className?: string;
  children: ReactNode;
}

export function PageSection({ id, title, lead, tinted, className, children }: PageSectionProps) {
  return (
    <section id={id} className={tinted ? 'section section--tinted' : 'section'} aria-labelledby={`${id}-title`}>
      <div className={className ? `container ${className}` : 'container'}>
        <div className="section__header">
          <h2 id={`${id}-title`}>{title}</h2>
          {lead ? <p className="section__lead">{lead}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

export interface CardItem {
  title: string;
  text: string;
  /** Short tags under the text. */
  items?: string[];
}

/** Cards with an icon, a title and a text; the icons follow the cards' order (marketing-sections.css). */
export function FeatureCards({ items }: { items: CardItem[] }) {
  return (
    <ul className="card-grid">
      {items.map((feature) => (
        <li key={feature.title}>
          <article className="card feature-card">
            <h3>{feature.title}</h3>
            <p>{feature.text}</p>
            {feature.items ? (
              <ul className="chips">
                {feature.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </article>
        </li>
      ))}
    </ul>
  );
}

/** Numbered steps, joined by a line on wide screens. */
export function Steps({ items }: { items: CardItem[] }) {
  return (
    <ol className="steps">
      {items.map((step) => (
        <li key={step.title}>
          <h3>{step.title}</h3>
          <p>{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

/** The closing call to action: a coloured box with a title, a text and the actions. */
export function CallToAction({
  id,
  title,
  text,
  children,
}: {
  id: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section className="container cta" aria-labelledby={`${id}-title`}>
      <div className="cta__box">
        <h2 id={`${id}-title`}>{title}</h2>
        <p>{text}</p>
        {children}
      </div>
    </section>
  );
}
