import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookAttemptError } from '@skanova/shared/webhooks/constants';
import type { ResolvedAddress } from './address-guard.ts';

// One POST of a delivery (docs/product/webhooks.md#delivery-and-retries): to the address the guard
// checked (address-guard.ts) — the connection's name lookup answers that address and nothing else, and
// TLS still verifies the certificate against the URL's host name — with a time-out on the whole
// exchange, no redirect followed (a 3xx is a failure: following it would reach an address nobody
// checked), and no connection kept (each delivery checks its address afresh). The receiver's answer
// is read for its status only; its body is drained and dropped, never stored.

export interface SendResult {
  statusCode: number | null;
  error: WebhookAttemptError | null;
  durationMs: number;
}

/** Bytes of an answer read before the connection is dropped: the body is not wanted. */
const ANSWER_BYTES_MAX = 64 * 1024;

const TLS_ERROR = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL|HOSTNAME_MISMATCH)/;

function attemptError(error: unknown): WebhookAttemptError {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TLS_ERROR.test(code)) return 'tls-failed';
  return 'connection-failed';
}

export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      lookup: pinned,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      },
    });
    // The whole exchange, answer included: what is still open then is closed.
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: 'timeout' });
      request.destroy();
    }, timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_BYTES_MAX) response.destroy();
      });
      response.on('error', () => {});
      // The status is the answer; the body may go on arriving (or not) after it.
      if (status >= 200 && status < 300) finish({ statusCode: status, error: null });
      else finish({ statusCode: status, error: status >= 300 && status < 400 ? 'redirect' : 'status' });
      response.on('end', () => request.destroy());
    });
    request.on('error', (error) => finish({ statusCode: null, error: attemptError(error) }));
    request.end(body);
  });
}
