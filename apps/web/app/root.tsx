import { type ReactNode, useEffect } from 'react';
import { useTranslation } from './lib/react-i18n';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches } from 'react-router';
import type { Route } from './+types/root';
import { ConsentBanner } from './features/consent/consent-banner';
import { startVitalsReporting } from './features/vitals/vitals-reporter';
import { COMMON_NAMESPACES, I18N_ELEMENT_ID, i18n } from './lib/i18n';
import type { RouteHandle } from './lib/route-handle';
import { CONFIG_ELEMENT_ID } from './lib/site-config';
import './styles/global.css';

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

function usePageNamespaces(): string[] {
  const matches = useMatches();
  const namespaces = new Set(COMMON_NAMESPACES);
  for (const match of matches)
    for (const ns of (match.handle as RouteHandle | undefined)?.i18n ?? []) namespaces.add(ns);
  return [...namespaces];
}

/** The page's strings, embedded at build time so the browser hydrates without fetching them. */
function EmbeddedStrings() {
  const namespaces = usePageNamespaces();
  const isBuild = typeof document === 'undefined';
  const json = isBuild
    ? JSON.stringify({
        lang: i18n.language,
        resources: Object.fromEntries(namespaces.map((ns) => [ns, i18n.getResourceBundle(i18n.language, ns) ?? {}])),
      }).replaceAll('<', '\\u003c')
    : (document.getElementById(I18N_ELEMENT_ID)?.textContent ?? '');
  return (
    <script
      id={I18N_ELEMENT_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}

/** Filled by the server with the configured public settings (see lib/site-config.ts). */
function EmbeddedConfig() {
  const isBuild = typeof document === 'undefined';
  const json = isBuild ? '{}' : (document.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? '{}');
  return (
    <script
      id={CONFIG_ELEMENT_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: json }}
    />
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  // After hydration, in the browser only; measures nothing until the visitor consents.
  useEffect(() => startVitalsReporting(), []);
  return (
    <html lang={instance.language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#504099" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ConsentBanner />
        <EmbeddedConfig />
        <EmbeddedStrings />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="container error-page">
      <h1>{status === 404 ? t('errors.notFoundTitle') : t('errors.unexpectedTitle')}</h1>
      <p>
        <a href="/">{t('errors.backHome')}</a>
      </p>
    </main>
  );
}
