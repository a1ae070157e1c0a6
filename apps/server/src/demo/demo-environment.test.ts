import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { demoEnvironment, listenNotice } from './demo-environment.ts';

// `npm run demo` prints working passwords: it listens on this machine only unless told otherwise,
// and says which.

describe('the demo server', () => {
  it('listens on localhost unless HOST says otherwise', () => {
    expect(loadConfig(demoEnvironment({})).HOST).toBe('127.0.0.1');
    expect(loadConfig(demoEnvironment({ HOST: '0.0.0.0' })).HOST).toBe('0.0.0.0');
  });

  it('says who can reach the logins it prints', () => {
    expect(listenNotice('127.0.0.1')).toMatch(/127\.0\.0\.1 only: other machines cannot reach it/);
    expect(listenNotice('::1')).toMatch(/only/);
    expect(listenNotice('0.0.0.0')).toMatch(/anyone who can reach this machine/);
  });
});
