import { CONSENT_COOKIE } from '@skanova/shared/site/constants';

// The visitor's answer to the consent banner (docs/product/rules-and-constants.md#consent): it governs non-essential
// trackers (the web-vitals reporter, the landing page's device details), and the footer reopens the banner. Kept in a cookie so the answer survives visits; nothing
// is sent to the server because of it.

export type ConsentChoice = 'granted' | 'denied';

const CONSENT_MAX_AGE_SECONDS = 60 * 60 * 24 * 180; // ask again after six months (CNIL guidance)

export function readConsent(): ConsentChoice | null {
  if (typeof document === 'undefined') return null;
  const match = document.cookie.match(new RegExp(`(?:^|; )${CONSENT_COOKIE}=(granted|denied)`));
  return (match?.[1] as ConsentChoice | undefined) ?? null;
}

type Listener = (choice: ConsentChoice) => void;
const listeners = new Set<Listener>();
const requestListeners = new Set<() => void>();

export function saveConsent(choice: ConsentChoice): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${CONSENT_MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
  for (const listener of listeners) listener(choice);
}

/** Called with every answer the visitor gives from now on. Returns the unsubscribe function. */
export function onConsent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Shows the banner again so the visitor can change an earlier answer (e.g. from a footer link). */
export function openConsentPreferences(): void {
  for (const listener of requestListeners) listener();
}

/** The banner subscribes here to reopen on request. */
export function onConsentPreferencesRequest(listener: () => void): () => void {
  requestListeners.add(listener);
  return () => {
    requestListeners.delete(listener);
  };
}
