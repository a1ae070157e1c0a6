import { type ComponentType, useEffect, useState } from 'react';
import { onConsentPreferencesRequest, readConsent, saveConsent } from '../../lib/consent';
import type { ConsentPanelProps } from './consent-panel';

type BannerState = 'hidden' | 'first-visit' | 'reopened';

/**
 * Asks for consent to non-essential measurement. Shown after hydration to visitors who have not
 * answered yet (the prerendered page cannot know), and again on request (components/consent-preferences-button).
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
