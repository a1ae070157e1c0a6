import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import type { Analysis } from '@skanova/skin/contract';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import {
  CONSENT_TEXT_VERSION,
  SHOWN_ROUTINE_KEY,
  STUDIO_DB_NAME,
  type ScanRecord,
  createStudioStore,
  openStudioDb,
} from './storage';

// The device's storage: consents and scans in IndexedDB; withdrawing consent deletes everything.

const analysis: Analysis = {
  version: 'test-1',
  width: 640,
  height: 480,
  pxPerMm: 4,
  zones: [{ zone: 'forehead', outline: [[[1, 2]]], pixels: 1000, metrics: { redness: 12 } }],
  overall: { redness: 12, evenness: 30, shine: 5, texture: 40, darkCircles: 20 },
};

const profile: ConsultationProfile = {
  version: 1,
  skinType: 'combination',
  sensitivity: 'sometimes',
  concerns: ['shine'],
  sunExposure: 'moderate',
  currentRoutine: ['cleanser'],
  ageBand: '25-34',
  updatedAt: '2026-11-25T09:00:00.000Z',
};

function scan(id: string, takenAt: string, extra: Partial<ScanRecord> = {}): ScanRecord {
  return {
    id,
    takenAt,
    source: 'upload',
    analysisVersion: 'test-1',
    modelVersion: 'human-3.3.6',
    gates: [{ gate: 'oneFace', passed: true, value: 1, problem: null }],
    analysis,
    landmarks: [[1, 2]],
    thumbnail: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }),
    thumbnailFrame: { x: 100, y: 50, width: 300, height: 300 },
    ...extra,
  };
}

/** The scan without its images (the test's IndexedDB copies a Blob as an empty object). */
function withoutImages(record: ScanRecord | undefined) {
  if (!record) return record;
  const { thumbnail: _thumbnail, photo: _photo, ...rest } = record;
  return rest;
}

beforeEach(() => {
  // A fresh, empty IndexedDB for every test.
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('the studio store', () => {
  it('has no consent on a new device, and remembers one once given', async () => {
    const store = createStudioStore();
    expect(await store.consent()).toBeUndefined();
    const given = await store.giveConsent(new Date('2026-11-25T10:00:00Z'));
    expect(given).toEqual({
      kind: 'facial-data',
      ageConfirmed: true,
      givenAt: '2026-11-25T10:00:00.000Z',
      textVersion: CONSENT_TEXT_VERSION,
    });
    // A new page (a new connection) reads it from the device.
    expect(await createStudioStore().consent()).toEqual(given);
  });

  it('asks again when the consent text changed', async () => {
    const db = await openStudioDb();
    await db.put('consents', {
      kind: 'facial-data',
      ageConfirmed: true,
      givenAt: '2026-01-01T00:00:00.000Z',
      textVersion: '2025-01',
    });
    db.close();
    expect(await createStudioStore().consent()).toBeUndefined();
  });

  it('saves scans and lists them newest first, the photo only when kept', async () => {
    const store = createStudioStore();
    await store.saveScan(scan('b', '2026-11-20T08:00:00.000Z'));
    await store.saveScan(
      scan('c', '2026-11-24T08:00:00.000Z', { photo: new Blob([new Uint8Array([9])], { type: 'image/jpeg' }) }),
    );
    await store.saveScan(scan('a', '2026-11-10T08:00:00.000Z'));
    const again = createStudioStore();
    expect((await again.listScans()).map((item) => item.id)).toEqual(['c', 'b', 'a']);
    const kept = await again.getScan('c');
    expect(kept?.analysis).toEqual(analysis);
    expect(kept?.photo).toBeDefined();
    expect((await again.getScan('b'))?.photo).toBeUndefined();
    await again.deleteScan('b');
    expect((await again.listScans()).map((item) => item.id)).toEqual(['c', 'a']);
  });

  it('lists scans without their shapes, which one scan read alone carries', async () => {
    const store = createStudioStore();
    const saved = scan('a', '2026-11-10T08:00:00.000Z', { landmarks: [[10.5, 20.25]] });
    await store.saveScan(saved);
    const [listed] = await createStudioStore().listScans();
    expect(listed).not.toHaveProperty('landmarks');
    for (const zone of listed!.analysis.zones) expect(zone).not.toHaveProperty('outline');
    // Everything else as saved: the scores the lists read, the preview's frame.
    const { outline: _outline, ...firstZone } = analysis.zones[0]!;
    expect(listed!.analysis.zones[0]).toEqual(firstZone);
    expect(listed!.analysis.overall).toEqual(analysis.overall);
    expect(listed!.thumbnailFrame).toEqual(saved.thumbnailFrame);
    const read = await createStudioStore().getScan('a');
    expect(read?.landmarks).toEqual([[10.5, 20.25]]);
    expect(read?.analysis).toEqual(analysis);
  });

  it('keeps how each photo was taken, and finds the newest conditions of an analysis version', async () => {
    const conditions = {
      light: 61.4,
      gradient: { horizontal: 0.12, vertical: -0.3 },
      colourTemperature: 5400,
      faceSize: 0.31,
      pxPerMm: 3.6,
      pose: { yaw: 2.1, pitch: 7.4, roll: -0.5 },
    };
    const store = createStudioStore();
    expect(await store.lastConditions('skin-2')).toBeUndefined();
    const withConditions = (version: string, light: number) => ({
      ...analysis,
      version,
      conditions: { ...conditions, light },
    });
    // An old scan without conditions, one of another version, then two of skin-2.
    await store.saveScan(scan('old', '2026-11-01T08:00:00.000Z'));
    await store.saveScan(scan('a', '2026-11-10T08:00:00.000Z', { analysis: withConditions('skin-2', 50) }));
    await store.saveScan(scan('b', '2026-11-17T08:00:00.000Z', { analysis: withConditions('skin-2', 61.4) }));
    await store.saveScan(scan('c', '2026-11-18T08:00:00.000Z', { analysis: withConditions('skin-3', 70) }));
    await store.saveScan(scan('d', '2026-11-19T08:00:00.000Z', { analysis: { ...analysis, version: 'skin-2' } }));
    const again = createStudioStore();
    expect((await again.getScan('b'))?.analysis.conditions).toEqual(conditions);
    expect((await again.listScans()).find((item) => item.id === 'b')?.analysis.conditions).toEqual(conditions);
    expect((await again.getScan('old'))?.analysis).not.toHaveProperty('conditions');
    expect(await again.lastConditions('skin-2')).toEqual({ takenAt: '2026-11-17T08:00:00.000Z', conditions });
    expect(await again.lastConditions('skin-9')).toBeUndefined();
  });

  it('keeps the consultation profile, replaced when edited', async () => {
    const store = createStudioStore();
    expect(await store.profile()).toBeUndefined();
    await store.saveProfile(profile);
    await store.saveProfile({ ...profile, skinType: 'oily' });
    expect(await createStudioStore().profile()).toEqual({ ...profile, skinType: 'oily' });
  });

  it('upgrades a version 1 database without losing its consent and scans', async () => {
    const v1 = await openDB(STUDIO_DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore('consents', { keyPath: 'kind' });
        db.createObjectStore('scans', { keyPath: 'id' }).createIndex('takenAt', 'takenAt');
      },
    });
    await v1.put('consents', {
      kind: 'facial-data',
      ageConfirmed: true,
      givenAt: '2026-11-01T00:00:00.000Z',
      textVersion: CONSENT_TEXT_VERSION,
    });
    await v1.put('scans', scan('a', '2026-11-10T08:00:00.000Z'));
    v1.close();
    const store = createStudioStore();
    expect((await store.consent())?.givenAt).toBe('2026-11-01T00:00:00.000Z');
    expect((await store.listScans()).map((item) => item.id)).toEqual(['a']);
    await store.saveProfile(profile);
    expect(await store.profile()).toEqual(profile);
  });

  it('upgrades a version 2 database: its scans keep their shapes, packed', async () => {
    const v2 = await openDB(STUDIO_DB_NAME, 2, {
      upgrade(db) {
        db.createObjectStore('consents', { keyPath: 'kind' });
        db.createObjectStore('scans', { keyPath: 'id' }).createIndex('takenAt', 'takenAt');
        db.createObjectStore('profile');
      },
    });
    const old = scan('b', '2026-11-12T08:00:00.000Z', {
      landmarks: [
        [10.25, 20.5],
        [311.1, 402.7],
      ],
    });
    await v2.put('scans', old);
    v2.close();
    expect(withoutImages(await createStudioStore().getScan('b'))).toEqual(withoutImages(old));
    const raw = await openStudioDb();
    const stored = await raw.get('scans', 'b');
    raw.close();
    expect(Object.prototype.toString.call(stored?.landmarks)).toBe('[object Float32Array]');
    expect(Object.prototype.toString.call(stored?.analysis.zones[0]?.outline[0])).toBe('[object Float32Array]');
  });

  it('stores shapes packed and gives them back to the thousandth of a pixel', async () => {
    const store = createStudioStore();
    const landmarks: [number, number][] = [
      [1234.567, 89.012],
      [5000.5, 4999.25],
      [0.001, 7000.999],
    ];
    const outline: [number, number][][] = [
      [
        [12.3, 45.6],
        [78.9, 10.1],
        [11.2, 13.4],
      ],
      [
        [1, 1],
        [2, 2],
        [3, 1],
      ],
    ];
    const saved = scan('c', '2026-11-20T08:00:00.000Z', {
      landmarks,
      analysis: { ...analysis, zones: [{ ...analysis.zones[0]!, outline }] },
    });
    await store.saveScan(saved);
    expect(withoutImages(await createStudioStore().getScan('c'))).toEqual(withoutImages(saved));
    expect((await store.readEverything()).scans.map(withoutImages)).toEqual([withoutImages(saved)]);
    const raw = await openStudioDb();
    const packed = (await raw.get('scans', 'c'))?.landmarks;
    expect(Object.prototype.toString.call(packed)).toBe('[object Float32Array]');
    expect(Array.from(packed ?? [])).toEqual(Array.from(Float32Array.from(landmarks.flat())));
    raw.close();
  });

  it('deletes everything it stored when consent is withdrawn', async () => {
    const store = createStudioStore();
    await store.giveConsent(new Date());
    await store.saveScan(scan('a', '2026-11-10T08:00:00.000Z'));
    await store.saveProfile(profile);
    localStorage.setItem(SHOWN_ROUTINE_KEY, '{"consent":"x"}');
    await store.withdrawConsent();
    expect(localStorage.getItem(SHOWN_ROUTINE_KEY)).toBeNull();
    const databases = await indexedDB.databases();
    expect(databases.map((db) => db.name)).not.toContain(STUDIO_DB_NAME);
    // The same store works again afterwards, empty.
    expect(await store.consent()).toBeUndefined();
    expect(await store.listScans()).toEqual([]);
    expect(await store.profile()).toBeUndefined();
  });

  it('lets another tab withdraw consent while this one is open', async () => {
    const here = createStudioStore();
    await here.giveConsent(new Date());
    await here.saveScan(scan('a', '2026-11-10T08:00:00.000Z'));
    await createStudioStore().withdrawConsent();
    expect(await here.listScans()).toEqual([]);
    expect(await here.consent()).toBeUndefined();
  });
});
