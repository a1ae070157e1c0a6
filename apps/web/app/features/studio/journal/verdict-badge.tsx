import type { ConditionDifference } from '@skanova/skin/conditions';
import { useTranslation } from '../../../lib/react-i18n';

/**
 * Why changes read "not comparable": one sentence per kind of difference between the two photos (light, its
 * direction, its colour, distance, pose), then how to take the next one alike.
 */
export function DifferencesNote({
  differences,
  headingLevel,
}: {
  differences: readonly ConditionDifference[];
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation('studio');
  if (differences.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : headingLevel === 3 ? 'h3' : 'p';
  return (
    <div className="journal-differences" role="note">
      <Heading className="journal-differences__title">{t('journal.differences.title')}</Heading>
      <p>{t('journal.differences.lead')}</p>
      <ul>
        {differences.map((difference) => (
          <li key={difference}>{t(`journal.differences.${difference}`)}</li>
        ))}
      </ul>
      <p>{t('journal.differences.advice')}</p>
    </div>
  );
}
