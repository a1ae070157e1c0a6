import { DEMO_WEBHOOK_AUTH } from './seed-demo.ts';

// What `npm run demo` runs the server with. The demo prints working passwords (an operator's
// among them): it listens on this machine's loopback address unless HOST says otherwise
// (docs/decisions/016-security-hardening.md, "The demo listens on localhost").

/** Where the demo listens when HOST is not set: this machine only. */
export const DEMO_DEFAULT_HOST = '127.0.0.1';

/** The demo server's environment, from the command's. */
export function demoEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    HOST: env.HOST ?? DEMO_DEFAULT_HOST,
    DATA_DIR: env.DEMO_DATA_DIR ?? './data/demo',
    REVENUECAT_WEBHOOK_AUTH: DEMO_WEBHOOK_AUTH,
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
  };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** The line printed with the logins: who can reach them. */
export function listenNotice(host: string): string {
  return LOOPBACK.has(host) || host.startsWith('127.')
    ? `The demo listens on ${host} only: other machines cannot reach it or these logins. Set HOST=0.0.0.0 to share it.`
    : `The demo listens on ${host}: anyone who can reach this machine can sign in with these logins.`;
}
