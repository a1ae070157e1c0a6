// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { worthReading } from './build-site';

// What `npm run build` still prints of a language's build (README, "Quick start"): its warnings and
// errors, never the framework's repeated notice about its own Vite servers.

describe('worthReading', () => {
  it('drops the notice React Router 7 triggers on every Vite server it starts, coloured or not', () => {
    const notice = 'The `envFile` option is deprecated, please use `envDir: false` instead.';
    expect(worthReading([notice, `\u001b[33m${notice}\u001b[39m`, '', '   '].join('\n'))).toEqual([]);
  });

  it('keeps everything else: a prerender that failed, a warning of ours, an error', () => {
    const output = [
      'The `envFile` option is deprecated, please use `envDir: false` instead.',
      '\u001b[33mPrerender (html): Received a 500 status code from `entry.server.tsx` while prerendering the `/` path.\u001b[39m',
      '(!) Some chunks are larger than 500 kB after minification.',
      'Error: something broke',
    ].join('\r\n');
    expect(worthReading(output)).toEqual([
      'Prerender (html): Received a 500 status code from `entry.server.tsx` while prerendering the `/` path.',
      '(!) Some chunks are larger than 500 kB after minification.',
      'Error: something broke',
    ]);
  });
});
