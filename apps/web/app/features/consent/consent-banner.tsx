import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { onConsentPreferencesRequest, openConsentPreferences, readConsent, saveConsent } from './consent';
import type { ConsentPanelProps } from './consent-panel';
import './consent-preferences.css';

type BannerState = 'hidden' | 'first-visit' | 'reopened';

/**
 * Asks for consent to non-essential measurement. Shown after hydration to visitors who have not
 * answered yet (the prerendered page cannot know), and again on request (ConsentPreferencesButton).
 * It sits at the bottom of the viewport and never blocks the page: both answers close it.
 * Its content and styles load on demand, so visitors who answered earlier never download them.
 */
export function ConsentBanner() {
  const [state, setState] = useState<BannerState>('hidden');
  const [Panel, setPanel] = useState<ComponentType<ConsentPanelProps> | null>(null);

  useEffect(() => {
    if (readConsent() === null) setState('first-visit');
    return onConsentPreferencesRequest(() => setState('reopened'));
  }, []);

  useEffect(() => {
    if (state === 'hidden' || Panel) return;
    let active = true;
    import('./consent-panel').then(
      (module) => {
        if (active) setPanel(() => module.ConsentPanel);
      },
      () => {
        // Could not load (offline, new deployment): nothing non-essential runs without an answer.
      },
    );
    return () => {
      active = false;
    };
  }, [state, Panel]);

  if (state === 'hidden' || !Panel) return null;
  return (
    <Panel
      focusOnShow={state === 'reopened'}
      onAnswer={(choice) => {
        saveConsent(choice);
        setState('hidden');
      }}
    />
  );
}

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
