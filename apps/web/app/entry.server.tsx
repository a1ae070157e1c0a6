import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from './lib/react-i18n';
import { type EntryContext, ServerRouter } from 'react-router';
import { DEFAULT_LANGUAGE, isLanguage } from '@skanova/shared/site/constants';
import { initServerI18n, loadAllNamespaces } from './lib/i18n';

// Used only at build time: the site is prerendered (ssr: false), once per language (SITE_LANG).
const buildLanguage = isLanguage(process.env.SITE_LANG) ? process.env.SITE_LANG : DEFAULT_LANGUAGE;
const i18n = initServerI18n(buildLanguage, await loadAllNamespaces(buildLanguage));

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <ServerRouter context={routerContext} url={request.url} />
      </I18nextProvider>,
      {
        // Static generation waits for everything (no streaming placeholders in the files).
        onAllReady() {
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html');
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000).unref();
  });
}
