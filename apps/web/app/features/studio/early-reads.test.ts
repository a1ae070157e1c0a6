import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { STUDIO_HOME, STUDIO_JOURNAL_PAGE } from '@skanova/shared/studio/constants';
import { dropEarlyReads, earlyScansSettled, startEarlyReads, takeEarlyRead, takeSettledScans } from './early-reads';
import { studioStore } from './storage';

// The reads a full page load starts before React: taken once by the opened page's hooks, and only
// for the page they were started for.

describe('the early reads of the opened page', () => {
  afterEach(async () => {
    dropEarlyReads();
    await studioStore().withdrawConsent();
    globalThis.indexedDB = new IDBFactory();
  });

  it('reads the consent and, on the journal, the scans; each is taken once', async () => {
    await studioStore().giveConsent(new Date('2026-11-02T09:00:00Z'));
    startEarlyReads(STUDIO_JOURNAL_PAGE);
    const consent = takeEarlyRead('consent');
    const scans = takeEarlyRead('scans');
    await expect(consent).resolves.toMatchObject({ kind: 'facial-data', givenAt: '2026-11-02T09:00:00.000Z' });
    await expect(scans).resolves.toEqual([]);
    expect(takeEarlyRead('consent')).toBeUndefined();
    expect(takeEarlyRead('scans')).toBeUndefined();
  });

  it('reads no scans for another page', async () => {
    startEarlyReads(STUDIO_HOME);
    expect(takeEarlyRead('scans')).toBeUndefined();
    await expect(takeEarlyRead('consent')).resolves.toBeUndefined();
  });

  it('gives the scans at once once their read has answered, once, and never after the hook took the read', async () => {
    await studioStore().giveConsent(new Date('2026-11-02T09:00:00Z'));
    startEarlyReads(STUDIO_JOURNAL_PAGE);
    expect(takeSettledScans(), 'not answered yet').toBeUndefined();
    await earlyScansSettled();
    expect(takeSettledScans()).toEqual([]);
    expect(takeSettledScans()).toBeUndefined();
    expect(takeEarlyRead('scans'), 'taken with the answer').toBeUndefined();

    startEarlyReads(STUDIO_JOURNAL_PAGE);
    const read = takeEarlyRead('scans');
    await read;
    await earlyScansSettled();
    expect(takeSettledScans(), 'the hook took the read itself').toBeUndefined();
  });

  it('has nothing to wait for on another page', async () => {
    startEarlyReads(STUDIO_HOME);
    await earlyScansSettled();
    expect(takeSettledScans()).toBeUndefined();
  });

  it('forgets what no hook took once the visitor leaves the page', () => {
    startEarlyReads(STUDIO_JOURNAL_PAGE);
    dropEarlyReads();
    expect(takeEarlyRead('consent')).toBeUndefined();
    expect(takeEarlyRead('scans')).toBeUndefined();
  });
});
