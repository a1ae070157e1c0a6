import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaderActions } from '../src/http/security-headers.ts';

// The security headers are helmet's, computed once and replayed on every answer: replaying them
// gives a response exactly the headers helmet's own middleware gives it.

function freshResponse(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

function replayed(options: HelmetOptions): Record<string, unknown> {
  const response = freshResponse();
  response.setHeader('x-powered-by', 'something');
  for (const action of securityHeaderActions(options)) {
    if ('set' in action) response.setHeader(action.set, action.value);
    else response.removeHeader(action.remove);
  }
  return response.getHeaders();
}

function byHelmet(options: HelmetOptions): Record<string, unknown> {
  const response = freshResponse();
  response.setHeader('x-powered-by', 'something');
  helmet(options)(new IncomingMessage(new Socket()), response, (error?: unknown) => {
    if (error) throw error;
  });
  return response.getHeaders();
}

const API_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
  xFrameOptions: { action: 'deny' },
};

describe('security headers', () => {
  it("replays exactly what helmet's middleware sets and removes", () => {
    for (const options of [API_OPTIONS, { ...API_OPTIONS, strictTransportSecurity: false }, {}]) {
      expect(replayed(options)).toEqual(byHelmet(options));
    }
  });

  it('holds the policy the API answers with', () => {
    const headers = replayed(API_OPTIONS);
    expect(String(headers['content-security-policy']).split(';')).toEqual(
      expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]),
    );
    expect(headers).toMatchObject({
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
    expect(headers).not.toHaveProperty('x-powered-by');
    expect(headers).not.toHaveProperty('cross-origin-embedder-policy');
  });
});
