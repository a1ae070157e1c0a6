import { type KeyboardEvent, useState } from 'react';
import '../../../components/accordion.css';

export interface FaqItem {
  question: string;
  answer: string;
}

/** Keys that move focus between the questions (WAI-ARIA accordion pattern). */
function targetIndex(key: string, index: number, last: number): number | undefined {
  if (key === 'ArrowDown') return index === last ? 0 : index + 1;
  if (key === 'ArrowUp') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return undefined;
}

/**
 * The FAQ as an accordion: each question is a button in a heading that shows its answer (a region);
 * opening one closes the other, so only one answer is open at a time. All start closed.
 */
export function FaqAccordion({ items, idPrefix = 'faq' }: { items: FaqItem[]; idPrefix?: string }) {
  const [open, setOpen] = useState<number | null>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const triggers = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('.accordion__trigger')];
    const index = triggers.indexOf(event.target as HTMLButtonElement);
    const next = index < 0 ? undefined : targetIndex(event.key, index, triggers.length - 1);
    if (next === undefined) return;
    event.preventDefault();
    triggers[next]?.focus();
  }

  return (
    // Arrow keys are handled once for all questions; each question is a native button.
    <div className="accordion" onKeyDown={onKeyDown}>
      {items.map((item, index) => {
        const expanded = open === index;
        const questionId = `${idPrefix}-question-${index + 1}`;
        const answerId = `${idPrefix}-answer-${index + 1}`;
        return (
          <div className="accordion__item" key={questionId}>
            <h3 className="accordion__heading">
              <button
                type="button"
                className="accordion__trigger"
                id={questionId}
                aria-expanded={expanded}
                aria-controls={answerId}
                onClick={() => setOpen(expanded ? null : index)}
              >
                {item.question}
              </button>
            </h3>
            <div
              className="accordion__panel"
              id={answerId}
              role="region"
              aria-labelledby={questionId}
              hidden={!expanded}
            >
              <p>{item.answer}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
