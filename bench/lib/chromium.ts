import { type Browser, chromium } from '@playwright/test';

/** Debian's Chromium (or CHROMIUM_PATH), quiet: no sandbox, no GPU, no background downloads. */
export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}
