import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_ROUTINE_PAGE, STUDIO_SCAN_PAGE } from '@skanova/shared/studio/constants';
import {
  type Answer,
  type ConsultationInput,
  type QuestionId,
  answer,
  questions,
} from '@skanova/shared/studio/consultation';
import type { TextLine } from '@skanova/shared/studio/text';
import { useTranslation } from '../../../lib/react-i18n';
import { useLineText } from './use-line-text';
import '../../../components/accordion.css';

/**
 * "Ask about my results": the guided questions as a list of disclosure buttons; each opens its answer,
 * composed from the visitor's scans and profile (shared `consultation.ts`).
 */
export function AskResults({ input, profileAnchor }: { input: ConsultationInput; profileAnchor: string }) {
  const id = useId();
  const { text } = useLineText();
  const [open, setOpen] = useState<ReadonlySet<QuestionId>>(new Set());
  const asked = useMemo(() => questions(input), [input]);
  const toggle = (question: QuestionId) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(question)) next.add(question);
      return next;
    });

  return (
    <ul className="accordion consult-questions">
      {asked.map((question) => {
        const expanded = open.has(question.id);
        const panelId = `${id}-${question.id.replace(':', '-')}`;
        return (
          <li key={question.id} className="accordion__item">
            <h3 className="accordion__heading">
              <button
                type="button"
                className="accordion__trigger"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggle(question.id)}
              >
                {text(question.text)}
              </button>
            </h3>
            <div id={panelId} className="accordion__panel consult-answer" hidden={!expanded}>
              {expanded ? <AnswerView answer={answer(question.id, input)} profileAnchor={profileAnchor} /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function AnswerView({ answer: given, profileAnchor }: { answer: Answer; profileAnchor: string }) {
  const { t } = useTranslation('studio');
  const { text } = useLineText();
  return (
    <>
      {given.blocks.map((block, index) =>
        block.kind === 'text' ? (
          <p key={index}>{text(block.line)}</p>
        ) : (
          <ul key={index} className="consult-answer__list">
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>{text(item)}</li>
            ))}
          </ul>
        ),
      )}
      {given.dermatologist ? <DermatologistNotice line={given.dermatologist} level={4} /> : null}
      {given.actions.length > 0 ? (
        <p className="consult-answer__actions">
          {given.actions.map((action) =>
            action === 'scan' ? (
              <Link key={action} to={STUDIO_SCAN_PAGE} className="button button--secondary button--small">
                {t('consultation.ask.takeScan')}
              </Link>
            ) : action === 'routine' ? (
              <Link key={action} to={STUDIO_ROUTINE_PAGE} className="button button--secondary button--small">
                {t('consultation.ask.toRoutine')}
              </Link>
            ) : (
              <a key={action} href={`#${profileAnchor}`} className="button button--secondary button--small">
                {t('consultation.ask.toQuestionnaire')}
              </a>
            ),
          )}
        </p>
      ) : null}
    </>
  );
}

/** "See a dermatologist", with why: a fast large change in the scans, or a sign a photo cannot judge. */
export function DermatologistNotice({ line, level }: { line: TextLine; level: 2 | 4 }) {
  const { t } = useTranslation('studio');
  const { text } = useLineText();
  const Heading = level === 2 ? 'h2' : 'h4';
  return (
    <div className="studio-notice consult-dermatologist" role="note">
      <Heading>{t('consultation.dermatologist.title')}</Heading>
      <p>{text(line)}</p>
    </div>
  );
}
