import { type DBSchema, type IDBPDatabase, deleteDB, openDB } from 'idb';
import type { Analysis, CaptureSource, GateReading, Point } from '@skanova/skin/contract';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';

// What the web app keeps, on the visitor's device only (SKIN-APP brief §8): the consents given before
// the first scan and the saved scans. Nothing here is ever sent to the server. Withdrawing consent
// deletes the whole database.
//
// Schema versions (each upgrade step runs once, in order, from the version the device has):
//   1 — `consents` (key: kind) and `scans` (key: id, index by takenAt).
//   2 — `profile` (one record, key 'consultation'): the consultation's answers.

export const STUDIO_DB_NAME = 'skanova-studio';
export const STUDIO_DB_VERSION = 2;
/** The version of the consent text the visitor accepted; a new text asks again. */
export const CONSENT_TEXT_VERSION = '2026-11';

export interface ConsentRecord {
  kind: 'facial-data';
  /** The visitor confirmed being 13 or over. */
  ageConfirmed: true;
  /** When consent was given, ISO 8601 UTC. */
  givenAt: string;
  textVersion: string;
}

/** A rectangle in the analysed photo's pixels. */
export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScanRecord {
  id: string;
  /** ISO 8601 UTC. */
  takenAt: string;
  source: CaptureSource;
  /** The analysis's own version (zones, metrics, gates) and the face model's. */
  analysisVersion: string;
  modelVersion: string;
  gates: readonly GateReading[];
  analysis: Analysis;
  /** The face's 478 landmarks (x, y in image pixels), for the overlay. */
  landmarks: readonly Point[];
  /** A small JPEG of the face (the part of the photo in `thumbnailFrame`), for lists and the overlay when the photo is not kept. */
  thumbnail: Blob;
  /** Where the thumbnail sits in the analysed photo, in its pixels. */
  thumbnailFrame: Frame;
  /** The photo itself: only when the visitor chose to keep it. */
  photo?: Blob;
}

interface StudioSchema extends DBSchema {
  consents: { key: ConsentRecord['kind']; value: ConsentRecord };
  scans: { key: string; value: ScanRecord; indexes: { takenAt: string } };
  profile: { key: typeof PROFILE_KEY; value: ConsultationProfile };
}

const PROFILE_KEY = 'consultation';

export type StudioDb = IDBPDatabase<StudioSchema>;

export function openStudioDb(): Promise<StudioDb> {
  return openDB<StudioSchema>(STUDIO_DB_NAME, STUDIO_DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('consents', { keyPath: 'kind' });
        db.createObjectStore('scans', { keyPath: 'id' }).createIndex('takenAt', 'takenAt');
      }
      if (oldVersion < 2) db.createObjectStore('profile');
    },
  });
}

/** The device's storage, one connection at a time (opened on first use). */
export interface StudioStore {
  consent(): Promise<ConsentRecord | undefined>;
  giveConsent(now: Date): Promise<ConsentRecord>;
  /** Deletes everything the app stored on the device (consents, scans, photos, profile). */
  withdrawConsent(): Promise<void>;
  saveScan(scan: ScanRecord): Promise<void>;
  /** Newest first. */
  listScans(): Promise<ScanRecord[]>;
  getScan(id: string): Promise<ScanRecord | undefined>;
  deleteScan(id: string): Promise<void>;
  /** The consultation's answers, if the visitor gave them. */
  profile(): Promise<ConsultationProfile | undefined>;
  saveProfile(profile: ConsultationProfile): Promise<void>;
}

export function createStudioStore(open: () => Promise<StudioDb> = openStudioDb): StudioStore {
  let connection: Promise<StudioDb> | undefined;
  const db = () =>
    (connection ??= open().then((opened) => {
      // Another tab withdrew consent (deleting the database) or upgrades it: let go, reopen on next use.
      opened.addEventListener('versionchange', () => {
        opened.close();
        connection = undefined;
      });
      return opened;
    }));
  return {
    async consent() {
      const record = await (await db()).get('consents', 'facial-data');
      return record?.textVersion === CONSENT_TEXT_VERSION ? record : undefined;
    },
    async giveConsent(now) {
      const record: ConsentRecord = {
        kind: 'facial-data',
        ageConfirmed: true,
        givenAt: now.toISOString(),
        textVersion: CONSENT_TEXT_VERSION,
      };
      await (await db()).put('consents', record);
      return record;
    },
    async withdrawConsent() {
      if (connection) (await connection).close();
      connection = undefined;
      // Other tabs' connections close on versionchange, so the deletion is not blocked.
      await deleteDB(STUDIO_DB_NAME);
    },
    async saveScan(scan) {
      await (await db()).put('scans', scan);
    },
    async listScans() {
      const scans = await (await db()).getAllFromIndex('scans', 'takenAt');
      return scans.reverse();
    },
    async getScan(id) {
      return (await db()).get('scans', id);
    },
    async deleteScan(id) {
      await (await db()).delete('scans', id);
    },
    async profile() {
      return (await db()).get('profile', PROFILE_KEY);
    },
    async saveProfile(profile) {
      await (await db()).put('profile', profile, PROFILE_KEY);
    },
  };
}

let shared: StudioStore | undefined;
/** The app's store in the browser (one per page). */
export function studioStore(): StudioStore {
  return (shared ??= createStudioStore());
}
