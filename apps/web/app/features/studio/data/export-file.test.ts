// @vitest-environment node
// (Node's Blob reads its bytes back and survives IndexedDB's structured clone; jsdom's does neither.)
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '@skanova/skin/analyse';
import type { Analysis } from '@skanova/skin/contract';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';
import { type ScanRecord, type StudioSnapshot, type StudioStore, createStudioStore } from '../storage';
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  EXPORT_LIMITS,
  type ImportProblem,
  base64ToBytes,
  buildExportFile,
  bytesToBase64,
  exportFileName,
  imageTypeOf,
  readExportFile,
} from './export-file';

// The visitor's data as a file: export → import gives back the same scans (photos byte for byte),
// profile and consents; a wrong, damaged or too new file is refused whole; an import lands in one
// transaction, merged by scan id or replacing what the device held.

const analysis: Analysis = {
  version: 'skin-1',
  width: 960,
  height: 1280,
  pxPerMm: 3.8,
  zones: [
    {
      zone: 'forehead',
      outline: [
        [
          [310.25, 220.5],
          [640.75, 221],
          [600, 330.125],
        ],
      ],
      pixels: 52_310,
      metrics: { redness: 12.4, evenness: 71.2, shine: 3.1, texture: 40.6 },
    },
    { zone: 'eyeArea', outline: [], pixels: 0, metrics: {} },
  ],
  overall: { redness: 12, evenness: 70.5, shine: 5, texture: 40, darkCircles: 21.7 },
};

const profile: ConsultationProfile = {
  version: 1,
  skinType: 'combination',
  sensitivity: 'sometimes',
  concerns: ['shine', 'redness'],
  sunExposure: 'moderate',
  currentRoutine: ['cleanser', 'sunscreen'],
  ageBand: '25-34',
  updatedAt: '2026-11-20T09:00:00.000Z',
};

/** Bytes that start like a JPEG (or a PNG), then anything: the import checks the signature. */
function jpegBytes(seed: number, length = 3000): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  for (let index = 4; index < length; index++) bytes[index] = (index * 31 + seed * 17) % 256;
  return bytes;
}
const pngBytes = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

function scan(id: string, takenAt: string, extra: Partial<ScanRecord> = {}): ScanRecord {
  return {
    id,
    takenAt,
    source: 'camera',
    analysisVersion: 'skin-1',
    modelVersion: 'human-3.3.6',
    gates: [
      { gate: 'oneFace', passed: true, value: 1, problem: null },
      { gate: 'exposure', passed: true, value: 61.25, problem: null },
      { gate: 'sharpness', passed: true, value: null, problem: null },
    ],
    analysis,
    landmarks: Array.from({ length: 478 }, (_, index) => [100 + index * 0.5, 200 + index * 0.25] as const),
    thumbnail: new Blob([jpegBytes(id.length)], { type: 'image/jpeg' }),
    thumbnailFrame: { x: 120.5, y: 80, width: 400, height: 400 },
    ...extra,
  };
}

const bytesOf = async (blob: Blob | undefined) => (blob ? new Uint8Array(await blob.arrayBuffer()) : undefined);
/** The bytes as base64: compared in one step rather than element by element. */
const contentOf = async (blob: Blob) => Buffer.from(await blob.arrayBuffer()).toString('base64');

/** A snapshot with its images read as bytes, for deep comparison. */
async function comparable(snapshot: StudioSnapshot) {
  return {
    consents: snapshot.consents,
    profile: snapshot.profile,
    scans: await Promise.all(
      snapshot.scans.map(async (record) => ({
        ...record,
        thumbnail: { type: record.thumbnail.type, bytes: await contentOf(record.thumbnail) },
        photo: record.photo ? { type: record.photo.type, bytes: await contentOf(record.photo) } : undefined,
      })),
    ),
  };
}

async function deviceWith(scans: ScanRecord[], withProfile?: ConsultationProfile): Promise<StudioStore> {
  const store = createStudioStore();
  await store.giveConsent(new Date('2026-11-01T08:00:00Z'));
  for (const record of scans) await store.saveScan(record);
  if (withProfile) await store.saveProfile(withProfile);
  return store;
}

/** The export of a store's data, as a JSON object (for files made wrong on purpose). */
async function exportedJson(store: StudioStore): Promise<Record<string, unknown> & { scans: Record<string, any>[] }> {
  const file = await buildExportFile(await store.readEverything(), new Date('2026-11-25T10:00:00Z'));
  return JSON.parse(await file.text());
}

const fileOf = (value: unknown) => new Blob([typeof value === 'string' ? value : JSON.stringify(value)]);

async function problemOf(file: Blob): Promise<ImportProblem | undefined> {
  const result = await readExportFile(file);
  return result.ok ? undefined : result.problem;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('export → import', () => {
  it('gives back the same scans, photos byte for byte, profile and consents, on another device', async () => {
    const photo = new Blob([jpegBytes(7, 250_000)], { type: 'image/jpeg' });
    const here = await deviceWith(
      [
        scan('a1', '2026-11-03T08:00:00.000Z', { source: 'upload' }),
        scan('b2', '2026-11-10T08:00:00.000Z', { photo }),
        scan('c3', '2026-11-17T08:00:00.000Z', { thumbnail: new Blob([pngBytes()], { type: 'image/png' }) }),
      ],
      profile,
    );
    const before = await here.readEverything();
    const file = await buildExportFile(before, new Date('2026-11-25T10:00:00Z'));

    // Another device: a fresh database, where the visitor consents first (the app asks before anything).
    globalThis.indexedDB = new IDBFactory();
    const there = createStudioStore();
    const consentThere = await there.giveConsent(new Date('2026-11-26T18:30:00Z'));
    const read = await readExportFile(new Blob([await file.arrayBuffer()]));
    if (!read.ok) throw new Error(`refused: ${read.problem.kind}`);
    expect(read.data.exportedAt).toBe('2026-11-25T10:00:00.000Z');
    expect(read.data.consents).toEqual(before.consents);

    const outcome = await there.importEverything(read.data, 'merge');
    expect(outcome).toEqual({ added: 3, alreadyHere: 0, removed: 0, profileImported: true });
    const after = await there.readEverything();
    expect(await comparable({ ...after, consents: before.consents })).toEqual(await comparable(before));
    expect((await bytesOf(after.scans[1]?.photo))?.length).toBe(250_000);
    // The consent stays the one given on this device.
    expect(after.consents).toEqual([consentThere]);
  });

  it('writes a versioned JSON file: format, version, app versions, UTC time, one scan a line', async () => {
    const store = await deviceWith([scan('a1', '2026-11-03T08:00:00.000Z'), scan('b2', '2026-11-10T08:00:00.000Z')]);
    const file = await buildExportFile(await store.readEverything(), new Date('2026-11-25T10:00:00Z'));
    expect(file.type).toBe('application/json');
    const text = await file.text();
    const json = JSON.parse(text);
    expect(json).toMatchObject({
      format: EXPORT_FORMAT,
      formatVersion: EXPORT_FORMAT_VERSION,
      exportedAt: '2026-11-25T10:00:00.000Z',
      app: { databaseVersion: 3, analysisVersion: ANALYSIS_VERSION },
      profile: null,
    });
    expect(json.scans.map((item: { id: string }) => item.id)).toEqual(['a1', 'b2']);
    expect(json.scans[0].thumbnail.type).toBe('image/jpeg');
    expect(json.scans[0]).not.toHaveProperty('photo');
    expect(text.split('\n').filter((line) => line.startsWith('{"id":'))).toHaveLength(2);
    expect(exportFileName('Skanova', new Date('2026-11-25T23:30:00Z'))).toBe('skanova-studio-2026-11-25.json');
    expect(exportFileName('Glow & Co', new Date('2026-01-02T00:00:00Z'))).toBe('glow-co-studio-2026-01-02.json');
  });

  it('keeps how each photo was taken (analysis skin-2), and reads scans and files without it', async () => {
    const conditions = {
      light: 61.4,
      gradient: { horizontal: 0.12, vertical: -0.3 },
      colourTemperature: 5400,
      faceSize: 0.31,
      pxPerMm: 3.6,
      pose: { yaw: 2.1, pitch: 7.4, roll: -0.5 },
    };
    const skin2 = { ...analysis, version: 'skin-2', conditions };
    const store = await deviceWith([
      scan('old', '2026-11-03T08:00:00.000Z'),
      scan('new', '2026-11-10T08:00:00.000Z', { analysisVersion: 'skin-2', analysis: skin2 }),
    ]);
    const json = await exportedJson(store);
    expect(json.scans[0]!.analysis).not.toHaveProperty('conditions');
    expect(json.scans[1]!.analysis.conditions).toEqual(conditions);
    const read = await readExportFile(fileOf(json));
    if (!read.ok) throw new Error(read.problem.kind);
    expect(read.data.scans[0]!.analysis).not.toHaveProperty('conditions');
    expect(read.data.scans[1]!.analysis).toEqual(skin2);
    globalThis.indexedDB = new IDBFactory();
    const there = await deviceWith([]);
    await there.importEverything(read.data, 'merge');
    expect((await there.getScan('new'))?.analysis.conditions).toEqual(conditions);

    // A file of format 1 (before skin-2): still read, its scans without conditions.
    const v1 = { ...json, formatVersion: 1, scans: [json.scans[0]] };
    const old = await readExportFile(fileOf(v1));
    expect(old.ok && old.data.scans.map((item) => item.analysis)).toEqual([analysis]);

    // Conditions out of bounds, or incomplete, are refused with the scan named.
    const wrong = async (change: (conditions: Record<string, any>) => void) => {
      const copy = structuredClone(json);
      change(copy.scans[1]!.analysis.conditions);
      return problemOf(fileOf(copy));
    };
    const second = { kind: 'invalidScan', scan: 2 };
    expect(await wrong((item) => (item.light = 140))).toEqual(second);
    expect(await wrong((item) => (item.gradient.vertical = 40))).toEqual(second);
    expect(await wrong((item) => (item.colourTemperature = 0))).toEqual(second);
    expect(await wrong((item) => (item.faceSize = -1))).toEqual(second);
    expect(await wrong((item) => (item.pose.yaw = '3'))).toEqual(second);
    expect(await wrong((item) => delete item.pose)).toEqual(second);
  });

  it('exports and imports an empty device', async () => {
    const store = await deviceWith([]);
    const read = await readExportFile(
      await buildExportFile(await store.readEverything(), new Date('2026-11-25T10:00:00Z')),
    );
    expect(read.ok && read.data.scans).toEqual([]);
  });
});

describe('a file that is refused', () => {
  it('names what is wrong: empty, not JSON, cut short, not ours, too new', async () => {
    const store = await deviceWith([scan('a1', '2026-11-03T08:00:00.000Z')]);
    const good = await exportedJson(store);
    const text = JSON.stringify(good);
    expect(await problemOf(new Blob([]))).toEqual({ kind: 'empty' });
    expect(await problemOf(fileOf('hello'))).toEqual({ kind: 'notJson' });
    expect(await problemOf(fileOf(text.slice(0, text.length / 2)))).toEqual({ kind: 'notJson' });
    expect(await problemOf(fileOf([1, 2, 3]))).toEqual({ kind: 'notOurs' });
    expect(await problemOf(fileOf({ ...good, format: 'another-app' }))).toEqual({ kind: 'notOurs' });
    expect(await problemOf(fileOf({ ...good, formatVersion: EXPORT_FORMAT_VERSION + 1 }))).toEqual({ kind: 'tooNew' });
    expect(await problemOf(fileOf({ ...good, formatVersion: 0 }))).toEqual({ kind: 'invalid' });
  });

  it('checks every field of every scan against the format', async () => {
    const store = await deviceWith([scan('a1', '2026-11-03T08:00:00.000Z'), scan('b2', '2026-11-10T08:00:00.000Z')]);
    const good = await exportedJson(store);
    const withSecond = (change: (item: Record<string, any>) => void) => {
      const copy = structuredClone(good);
      change(copy.scans[1]!);
      return fileOf(copy);
    };
    const second = { kind: 'invalidScan', scan: 2 };
    expect(await problemOf(withSecond((item) => (item.analysis.overall.redness = 140)))).toEqual(second);
    expect(await problemOf(withSecond((item) => delete item.analysis.overall.shine))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.analysis.zones[0].zone = 'ear')))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.takenAt = 'last week')))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.source = 'scanner')))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.landmarks[3] = ['1', 2])))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.thumbnail.base64 = 'not base64!')))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.thumbnail.type = 'image/gif')))).toEqual(second);
    expect(await problemOf(withSecond((item) => (item.id = 'a1')))).toEqual({ kind: 'duplicateScan', scan: 2 });
    const badProfile = { ...good, profile: { ...profile, skinType: 'scaly' } };
    expect(await problemOf(fileOf(badProfile))).toEqual({ kind: 'invalid' });
    const badConsent = { ...good, consents: [{ kind: 'facial-data', ageConfirmed: false, givenAt: 'x', textVersion: '1' }] };
    expect(await problemOf(fileOf(badConsent))).toEqual({ kind: 'invalid' });
  });

  it('looks at the images’ bytes: a GIF or text called a JPEG is refused', async () => {
    const store = await deviceWith([scan('a1', '2026-11-03T08:00:00.000Z')]);
    const good = await exportedJson(store);
    const gif = bytesToBase64(new TextEncoder().encode('GIF89a……………'));
    const asPhoto = structuredClone(good);
    asPhoto.scans[0]!.photo = { type: 'image/jpeg', base64: gif };
    expect(await problemOf(fileOf(asPhoto))).toEqual({ kind: 'badImage', scan: 1 });
    const pngCalledJpeg = structuredClone(good);
    pngCalledJpeg.scans[0]!.thumbnail = { type: 'image/jpeg', base64: bytesToBase64(pngBytes()) };
    expect(await problemOf(fileOf(pngCalledJpeg))).toEqual({ kind: 'badImage', scan: 1 });
  });

  it('keeps to its limits: file size and number of scans', async () => {
    const huge = { size: EXPORT_LIMITS.fileBytes + 1, text: () => Promise.reject(new Error('not read')) };
    expect(await problemOf(huge as unknown as Blob)).toEqual({ kind: 'tooLarge' });
    const store = await deviceWith([scan('a1', '2026-11-03T08:00:00.000Z')]);
    const good = await exportedJson(store);
    // Counted before anything else is read: the scans themselves need not be valid.
    const many = { ...good, scans: Array.from({ length: EXPORT_LIMITS.scans + 1 }, () => 0) };
    expect(await problemOf(fileOf(many))).toEqual({ kind: 'tooMany' });
    const bigPhoto = structuredClone(good);
    bigPhoto.scans[0]!.photo = {
      type: 'image/jpeg',
      base64: 'A'.repeat(Math.ceil(EXPORT_LIMITS.photoBytes / 3) * 4 + 4),
    };
    expect(await problemOf(fileOf(bigPhoto))).toEqual({ kind: 'invalidScan', scan: 1 });
  });
});

describe('importing next to what the device holds', () => {
  const newerProfile: ConsultationProfile = { ...profile, skinType: 'oily', updatedAt: '2026-11-24T09:00:00.000Z' };

  async function fileFrom(scans: ScanRecord[], withProfile?: ConsultationProfile) {
    const source = await deviceWith(scans, withProfile);
    const file = await buildExportFile(await source.readEverything(), new Date('2026-11-25T10:00:00Z'));
    const read = await readExportFile(file);
    if (!read.ok) throw new Error(read.problem.kind);
    globalThis.indexedDB = new IDBFactory();
    return read.data;
  }

  it('merge: adds the scans the device lacks, keeps its own copy of the others, keeps the newer profile', async () => {
    const data = await fileFrom(
      [scan('b2', '2026-11-10T08:00:00.000Z', { modelVersion: 'from-file' }), scan('c3', '2026-11-17T08:00:00.000Z')],
      newerProfile,
    );
    const device = await deviceWith(
      [scan('a1', '2026-11-03T08:00:00.000Z'), scan('b2', '2026-11-10T08:00:00.000Z')],
      profile,
    );
    expect(await device.importEverything(data, 'merge')).toEqual({
      added: 1,
      alreadyHere: 1,
      removed: 0,
      profileImported: true,
    });
    const after = await device.readEverything();
    expect(after.scans.map((item) => [item.id, item.modelVersion])).toEqual([
      ['a1', 'human-3.3.6'],
      ['b2', 'human-3.3.6'],
      ['c3', 'human-3.3.6'],
    ]);
    expect(after.profile).toEqual(newerProfile);
  });

  it('merge: an older profile in the file does not replace the device’s', async () => {
    const data = await fileFrom([], profile);
    const device = await deviceWith([], newerProfile);
    expect((await device.importEverything(data, 'merge')).profileImported).toBe(false);
    expect(await device.profile()).toEqual(newerProfile);
  });

  it('replace: the device ends up with exactly the file’s scans and profile, and keeps its consent', async () => {
    const data = await fileFrom([scan('c3', '2026-11-17T08:00:00.000Z')]);
    const device = await deviceWith(
      [scan('a1', '2026-11-03T08:00:00.000Z'), scan('b2', '2026-11-10T08:00:00.000Z')],
      profile,
    );
    const consent = await device.consent();
    expect(await device.importEverything(data, 'replace')).toEqual({
      added: 1,
      alreadyHere: 0,
      removed: 2,
      profileImported: false,
    });
    expect((await device.listScans()).map((item) => item.id)).toEqual(['c3']);
    expect(await device.profile()).toBeUndefined();
    expect(await device.consent()).toEqual(consent);
  });

  it('a failure part way loses nothing: the transaction writes all or none', async () => {
    const device = await deviceWith(
      [scan('a1', '2026-11-03T08:00:00.000Z'), scan('b2', '2026-11-10T08:00:00.000Z')],
      profile,
    );
    const before = await comparable(await device.readEverything());
    // The second record cannot be stored (a function is not cloneable): the first was already written
    // and the device's scans already cleared in that transaction.
    const unstorable = { ...scan('d4', '2026-11-20T08:00:00.000Z'), extra: () => 1 } as unknown as ScanRecord;
    const data = { scans: [scan('c3', '2026-11-17T08:00:00.000Z'), unstorable], profile: newerProfile };
    await expect(device.importEverything(data, 'replace')).rejects.toThrow();
    expect(await comparable(await device.readEverything())).toEqual(before);
    await expect(device.importEverything(data, 'merge')).rejects.toThrow();
    expect(await comparable(await createStudioStore().readEverything())).toEqual(before);
  });
});

describe('bytes', () => {
  it('base64 both ways, whatever the length', () => {
    for (const length of [0, 1, 2, 3, 4, 100, 65_537]) {
      const bytes = jpegBytes(length, Math.max(length, 4)).slice(0, length);
      expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
    }
    expect(bytesToBase64(new TextEncoder().encode('Skanova'))).toBe('U2thbm92YQ==');
  });

  it('tells JPEG and PNG by their signature', () => {
    expect(imageTypeOf(jpegBytes(1))).toBe('image/jpeg');
    expect(imageTypeOf(pngBytes())).toBe('image/png');
    expect(imageTypeOf(new TextEncoder().encode('GIF89a-------'))).toBeNull();
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff]))).toBeNull();
  });
});
