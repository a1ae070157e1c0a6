import { CONSENT_COOKIE } from '@skanova/shared/constants/site';

export type ConsentChoice = 'granted' | 'denied';

const CONSENT_MAX_AGE_SECONDS = 60 * 60 * 24 * 180; // ask again after six months (CNIL guidance)

export function readConsent(): ConsentChoice | null {
  const match = document.cookie.match(new RegExp(`(?:^|; )${CONSENT_COOKIE}=(granted|denied)`));
  return (match?.[1] as ConsentChoice | undefined) ?? null;
}

type Listener = (choice: ConsentChoice) => void;
const listeners = new Set<Listener>();

export function saveConsent(choice: ConsentChoice): void {
  document.cookie = `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${CONSENT_MAX_AGE_SECONDS}; SameSite=Lax`;
  for (const listener of listeners) listener(choice);
}

export function onConsent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
