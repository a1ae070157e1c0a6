import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

// The security headers of every answer (helmet's), computed once. Helmet's middleware builds its
// header values from its options; @fastify/helmet called it anew for each request, parsing the
// policy again every time (a few percent of a landing visit's CPU). The values never depend on the
// request, so the middleware runs once against a stand-in response and its headers are replayed.
// Pages and files set their own Content-Security-Policy over this one (site.ts).

type HeaderAction = { set: string; value: string } | { remove: string };

/**
 * Powerful browser features no page of ours uses, refused to every page and to whatever a page might
 * embed or load (docs/decisions/016-security-hardening.md, "Permissions-Policy"). Only features every
 * current browser recognises: an unknown one is a console error on every page.
 */
const REFUSED_FEATURES = ['accelerometer', 'geolocation', 'gyroscope', 'magnetometer', 'microphone', 'payment', 'usb'];

/** The Permissions-Policy of every answer: the camera refused too. */
export const PERMISSIONS_POLICY = ['camera=()', ...REFUSED_FEATURES.map((feature) => `${feature}=()`)].join(', ');

/**
 * The web app's pages (ADR 010): the camera for this origin only (the selfie). Every page of the app
 * gets it, not only the scan page: the app moves between its pages without loading a new document,
 * and a document keeps the policy it was loaded with.
 */
export const STUDIO_PERMISSIONS_POLICY = ['camera=(self)', ...REFUSED_FEATURES.map((feature) => `${feature}=()`)].join(
  ', ',
);

/** What helmet's middleware does to a response, with these options: the headers it sets and removes. */
export function securityHeaderActions(options: Readonly<HelmetOptions>): HeaderAction[] {
  const actions: HeaderAction[] = [];
  const standIn = {
    setHeader(name: string, value: string | number | readonly string[]) {
      actions.push({ set: name, value: Array.isArray(value) ? value.join(', ') : String(value) });
    },
    removeHeader(name: string) {
      actions.push({ remove: name });
    },
  };
  const middleware = helmet(options) as unknown as (
    req: unknown,
    res: typeof standIn,
    next: (error?: unknown) => void,
  ) => void;
  middleware({}, standIn, (error) => {
    if (error) throw error;
  });
  return actions;
}

export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const actions = [...securityHeaderActions(options), { set: 'permissions-policy', value: PERMISSIONS_POLICY }];
  app.addHook('onRequest', (_request, reply, done) => {
    const response = reply.raw;
    for (const action of actions) {
      if ('set' in action) response.setHeader(action.set, action.value);
      else response.removeHeader(action.remove);
    }
    done();
  });
}
