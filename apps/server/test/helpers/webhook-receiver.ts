import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on this machine for the tests (docs/product/webhooks.md): it keeps every request
// it gets (the raw body, as signatures are computed over it, and the headers) and answers what the
// test tells it to, by default 200.

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The event the body carries. */
  event: { id: string; type: string; created: string; data: Record<string, unknown> };
  /** What the receiver answered (0 until it has). */
  status: number;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** The status to answer a request with (default: 200 to everything). */
  respond: (request: ReceivedRequest) => number | Promise<number>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    requests: [],
    respond: () => 200,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: ReceivedRequest['event'];
      try {
        event = JSON.parse(body) as ReceivedRequest['event'];
      } catch {
        event = { id: '', type: '', created: '', data: {} };
      }
      const received: ReceivedRequest = {
        path: request.url ?? '',
        headers: request.headers,
        body,
        event,
        status: 0,
        at: Date.now(),
      };
      // Kept as it arrives (its status once answered): a test that moves on early does not get it later.
      const requests = receiver.requests;
      requests.push(received);
      void Promise.resolve(receiver.respond(received)).then((status) => {
        received.status = status;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}
