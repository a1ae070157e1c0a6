// The app's pages are prerendered as a first visit sees them: the consent (docs/product/web-app.md#where-it-lives).
// The device's answer (IndexedDB) comes only after the app's code has run; a visitor who has already
// consented would see the consent painted, then replaced. This hint, kept beside the consent in the
// synchronous localStorage, lets a one-line script in the page — before anything of the app is
// painted — mark the app's frame, and the stylesheet then shows "Reading this device's storage…"
// instead of the consent until the device answers. It only chooses what is painted first: the
// consent's record in IndexedDB stays the truth (use-consent.tsx keeps the hint in step with it).

/** The localStorage key: set while this device holds a consent. */
export const RETURNING_HINT_KEY = 'skanova-studio-consented';

/** The attribute the script sets on the app's frame (styled in studio.css). */
export const RETURNING_ATTRIBUTE = 'data-studio-returning';

/**
 * Runs as the page is parsed, inside the app's frame (routes/studio.tsx). Plain, dependency-free
 * JavaScript; its hash is in the page's Content-Security-Policy like every inline script's.
 */
export const RETURNING_HINT_SCRIPT = `try{if(localStorage.getItem(${JSON.stringify(RETURNING_HINT_KEY)}))document.currentScript.parentElement.setAttribute(${JSON.stringify(RETURNING_ATTRIBUTE)},"")}catch(e){}`;

/** Whether this device held a consent when last seen (a hint: IndexedDB says for sure). */
export function hasConsentHint(): boolean {
  try {
    return localStorage.getItem(RETURNING_HINT_KEY) !== null;
  } catch {
    return false;
  }
}

/** Keeps the hint in step with what the device holds. */
export function rememberConsentHint(consented: boolean): void {
  try {
    if (consented) localStorage.setItem(RETURNING_HINT_KEY, '1');
    else localStorage.removeItem(RETURNING_HINT_KEY);
  } catch {
    // No localStorage (private browsing, storage disabled): every visit paints the consent first.
  }
}
