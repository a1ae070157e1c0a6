import type { i18n as I18n, TFunction } from 'i18next';
import { type ReactNode, createContext, startTransition, use, useContext, useEffect, useState } from 'react';

// The React binding of our i18next instance: a provider and `useTranslation(namespace)`.
// It replaces react-i18next to keep every public page within its JavaScript budget (ADR 005):
// the site needs only these two pieces. A namespace that is not loaded yet suspends the component
// (React Router renders navigations in a transition, so the previous page stays until it is ready).

const I18nContext = createContext<I18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext value={i18n}>{children}</I18nContext>;
}

const pending = new Map<string, Promise<void>>();

/** One promise per language and namespace, so `use()` sees the same promise on every render. */
function loading(i18n: I18n, namespace: string): Promise<void> {
  const key = `${i18n.language}/${namespace}`;
  let promise = pending.get(key);
  if (!promise) {
    promise = i18n.loadNamespaces(namespace).finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}

export function useTranslation(namespace?: string): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation needs an I18nextProvider');
  const ns = namespace ?? (typeof i18n.options.defaultNS === 'string' ? i18n.options.defaultNS : 'common');
  const [, rerender] = useState(0);
  useEffect(() => {
    // As a transition: a namespace that loads while a lazy part of the prerendered page still waits
    // for its chunk must not make React paint that part afresh (ADR 005), and a language whose strings
    // are still loading keeps the page as it is until they arrive.
    const update = () => startTransition(() => rerender((version) => version + 1));
    i18n.on('languageChanged', update);
    i18n.on('loaded', update);
    return () => {
      i18n.off('languageChanged', update);
      i18n.off('loaded', update);
    };
  }, [i18n]);
  if (!i18n.hasLoadedNamespace(ns)) use(loading(i18n, ns));
  return { t: i18n.getFixedT(i18n.language, ns), i18n };
}
