import type { ReactNode } from 'react';
import { openConsentPreferences } from '../lib/consent';
import './consent-preferences-button.css';

/**
 * A button that reopens the consent banner, e.g. "Cookie preferences" in the footer. The caller
 * gives the (translated) label so the component stays free of page copy.
 */
export function ConsentPreferencesButton({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <button type="button" className={className ?? 'consent-preferences-button'} onClick={openConsentPreferences}>
      {children}
    </button>
  );
}
