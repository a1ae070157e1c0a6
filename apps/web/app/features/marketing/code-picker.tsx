import { useId } from 'react';
import type { ReferralCodeStats } from '@skanova/shared/affiliate/stats';
import { useTranslation } from '../../lib/react-i18n';

interface CodePickerProps {
  codes: ReferralCodeStats[];
  selected: string;
  onSelect: (code: string) => void;
}

/** Dropdown of the affiliate's codes: the code, plus a dash and the description when there is one (docs/product/routes-and-screens.md#marketing-materials-panel). */
export function CodePicker({ codes, selected, onSelect }: CodePickerProps) {
  const { t } = useTranslation('marketing');
  const id = useId();
  return (
    <div className="form-field code-picker">
      <label htmlFor={id}>{t('codes.label')}</label>
      <select id={id} value={selected} onChange={(event) => onSelect(event.target.value)}>
        {codes.map((code) => (
          <option key={code.code} value={code.code}>
            {code.description ? t('codes.option', { code: code.code, description: code.description }) : code.code}
          </option>
        ))}
      </select>
    </div>
  );
}
