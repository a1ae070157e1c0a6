import { type DBSchema, type IDBPDatabase, deleteDB, openDB } from 'idb';
import type {
  Analysis,
  AnalysisScores,
  CaptureConditions,
  CaptureSource,
  GateReading,
  Point,
  ZoneResult,
} from '@skanova/skin/contract';
import type { ConsultationProfile } from '@skanova/shared/studio/profile';

// What the web app keeps, on the visitor's device only (docs/product/web-app.md#data-on-the-device): the consents given before
// the first scan, the saved scans and the consultation's profile. Nothing here is ever sent to the
// server. Withdrawing consent deletes the whole database. The visitor's data moves between devices
// only as a file they hold (data/export-file.ts): read in one transaction, written back in one.
//
// Schema versions (each upgrade step runs once, in order, from the version the device has):
//   1 — `consents` (key: kind) and `scans` (key: id, index by takenAt).
//   2 — `profile` (one record, key 'consultation'): the consultation's answers.
//   3 — a scan's shapes (its 478 landmarks, its zones' outlines) are stored as packed Float32Arrays
//       (x, y, x, y …): the database no longer rebuilds ≈ 150,000 little arrays for a journal of 200
//       scans (docs/benchmarks.md, "Web app journal"), and the lists (`listScans`) do not unpack them
//       at all. The app's records are unchanged.

export const STUDIO_DB_NAME = 'skanova-studio';
/**
 * The one thing the app keeps outside its database: the step ids of the routines it showed last
 * (`routine/shown-routine.ts`). Deleted with the database.
 */
export const SHOWN_ROUTINE_KEY = 'skanova-studio-routine';
export const STUDIO_DB_VERSION = 3;
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
  /**
   * The analysis as the worker returned it, kept whole: scores, zones and — from analysis skin-2 — how
   * the photo was taken (`conditions`: light, its slope and colour, distance, pose), which decides
   * whether two scans were taken alike enough to compare. Older scans have no `conditions`.
   */
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

/**
 * A saved scan without its shapes (the landmarks, the zones' outlines): what the lists read for every
 * scan — the journal, the consultation, the app's home. The shapes are only drawn for one scan at a
 * time (its result page: `getScan`), so 200 scans' ≈ 150,000 points are not rebuilt to be thrown away.
 */
export interface ScanSummary extends Omit<ScanRecord, 'landmarks' | 'analysis'> {
  analysis: AnalysisScores;
}

/** Points packed as x, y, x, y … */
type PackedPoints = Float32Array;

/** A scan as the database holds it (version 3): its shapes packed. */
export interface StoredScan extends Omit<ScanRecord, 'landmarks' | 'analysis'> {
  landmarks: PackedPoints;
  analysis: Omit<Analysis, 'zones'> & {
    zones: (Omit<ZoneResult, 'outline'> & { outline: PackedPoints[] })[];
  };
}

function pack(points: readonly Point[]): PackedPoints {
  const packed = new Float32Array(points.length * 2);
  points.forEach(([x, y], i) => {
    packed[2 * i] = x;
    packed[2 * i + 1] = y;
  });
  return packed;
}

/** Back to points, at a thousandth of a pixel (what Float32 holds exactly for photos under 8,192 px). */
function unpack(packed: PackedPoints): Point[] {
  const points: Point[] = new Array<Point>(packed.length >> 1);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  for (let i = 0; i < points.length; i++) points[i] = [round(packed[2 * i]!), round(packed[2 * i + 1]!)];
  return points;
}

/**
 * The record the database keeps for a scan. Float32 keeps a point within 0.0003 px of its place on
 * a photo under 8,192 px; read back, points are given to the thousandth of a pixel (the overlay
 * draws at a tenth at best, and the zones' outlines are rounded to a tenth when measured).
 */
export function toStoredScan(scan: ScanRecord): StoredScan {
  return {
    ...scan,
    landmarks: pack(scan.landmarks),
    analysis: {
      ...scan.analysis,
      zones: scan.analysis.zones.map((zone) => ({ ...zone, outline: zone.outline.map(pack) })),
    },
  };
}

/** The scan without its shapes, straight from the stored record (nothing unpacked). */
export function summaryOf(stored: StoredScan): ScanSummary {
  const { landmarks: _landmarks, analysis, ...scan } = stored;
  return { ...scan, analysis: { ...analysis, zones: analysis.zones.map(({ outline: _outline, ...zone }) => zone) } };
}

export function fromStoredScan(stored: StoredScan): ScanRecord {
  return {
    ...stored,
    landmarks: unpack(stored.landmarks),
    analysis: {
      ...stored.analysis,
      zones: stored.analysis.zones.map((zone) => ({ ...zone, outline: zone.outline.map(unpack) })),
    },
  };
}

interface StudioSchema extends DBSchema {
  consents: { key: ConsentRecord['kind']; value: ConsentRecord };
  scans: { key: string; value: StoredScan; indexes: { takenAt: string } };
  profile: { key: typeof PROFILE_KEY; value: ConsultationProfile };
}

const PROFILE_KEY = 'consultation';

export type StudioDb = IDBPDatabase<StudioSchema>;

/** Everything the app keeps on the device, as one transaction read it (for the export). */
export interface StudioSnapshot {
  consents: ConsentRecord[];
  /** Oldest first. */
  scans: ScanRecord[];
  profile: ConsultationProfile | undefined;
}

/**
 * What an import does with what the device already holds:
 * - `merge`: the file's scans are added; a scan already on the device (same id) stays as it is. The
 *   consultation profile: the more recently updated of the two.
 * - `replace`: the device's scans and profile are deleted, the file's written instead.
 * Consents are never imported: the device keeps the consent given on it (an import needs one).
 */
export type ImportMode = 'merge' | 'replace';

/** What the import wrote, for the visitor. */
export interface ImportOutcome {
  /** The file's scans written to the device. */
  added: number;
  /** The file's scans already on the device, left as they were (merge). */
  alreadyHere: number;
  /** The device's scans deleted (replace). */
  removed: number;
  /** Whether the file's profile became the device's. */
  profileImported: boolean;
}

export function openStudioDb(): Promise<StudioDb> {
  return openDB<StudioSchema>(STUDIO_DB_NAME, STUDIO_DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        db.createObjectStore('consents', { keyPath: 'kind' });
        db.createObjectStore('scans', { keyPath: 'id' }).createIndex('takenAt', 'takenAt');
      }
      if (oldVersion < 2) db.createObjectStore('profile');
      if (oldVersion >= 1 && oldVersion < 3) {
        // Scans saved before version 3 hold their shapes as arrays of points: packed in place, in the
        // upgrade's own transaction (all of them or, on failure, none and the device keeps version 2).
        const scans = tx.objectStore('scans');
        for (let cursor = await scans.openCursor(); cursor; cursor = await cursor.continue()) {
          const scan = cursor.value as unknown as ScanRecord | StoredScan;
          if (!ArrayBuffer.isView(scan.landmarks)) await cursor.update(toStoredScan(scan as ScanRecord));
        }
      }
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
  /** Every saved scan without its shapes, newest first. */
  listScans(): Promise<ScanSummary[]>;
  /** One saved scan, shapes included. */
  getScan(id: string): Promise<ScanRecord | undefined>;
  deleteScan(id: string): Promise<void>;
  /**
   * How the newest scan of `analysisVersion` that recorded it was taken (the camera's "same light as
   * last time"), read newest first without loading the other scans.
   */
  lastConditions(analysisVersion: string): Promise<{ takenAt: string; conditions: CaptureConditions } | undefined>;
  /** The consultation's answers, if the visitor gave them. */
  profile(): Promise<ConsultationProfile | undefined>;
  saveProfile(profile: ConsultationProfile): Promise<void>;
  /** Consents, scans (with their images) and profile, read in one transaction: a consistent copy. */
  readEverything(): Promise<StudioSnapshot>;
  /**
   * Writes a validated import in one transaction over scans and profile: all of it lands, or (on any
   * failure, e.g. the device out of space) none of it and the device keeps what it had.
   */
  importEverything(
    data: { scans: readonly ScanRecord[]; profile: ConsultationProfile | undefined },
    mode: ImportMode,
  ): Promise<ImportOutcome>;
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
      try {
        localStorage.removeItem(SHOWN_ROUTINE_KEY);
      } catch {
        // No localStorage here (storage disabled): nothing was kept in it.
      }
    },
    async saveScan(scan) {
      await (await db()).put('scans', toStoredScan(scan));
    },
    async listScans() {
      const scans = await (await db()).getAllFromIndex('scans', 'takenAt');
      return scans.reverse().map(summaryOf);
    },
    async getScan(id) {
      const stored = await (await db()).get('scans', id);
      return stored && fromStoredScan(stored);
    },
    async deleteScan(id) {
      await (await db()).delete('scans', id);
    },
    async lastConditions(analysisVersion) {
      const index = (await db()).transaction('scans').store.index('takenAt');
      for (let cursor = await index.openCursor(null, 'prev'); cursor; cursor = await cursor.continue()) {
        const { analysis, takenAt } = cursor.value;
        if (analysis.version === analysisVersion && analysis.conditions)
          return { takenAt, conditions: analysis.conditions };
      }
      return undefined;
    },
    async profile() {
      return (await db()).get('profile', PROFILE_KEY);
    },
    async saveProfile(profile) {
      await (await db()).put('profile', profile, PROFILE_KEY);
    },
    async readEverything() {
      const tx = (await db()).transaction(['consents', 'scans', 'profile'], 'readonly');
      const [consents, scans, profile] = await Promise.all([
        tx.objectStore('consents').getAll(),
        tx.objectStore('scans').index('takenAt').getAll(),
        tx.objectStore('profile').get(PROFILE_KEY),
      ]);
      await tx.done;
      return { consents, scans: scans.map(fromStoredScan), profile };
    },
    async importEverything(data, mode) {
      const tx = (await db()).transaction(['scans', 'profile'], 'readwrite');
      const scans = tx.objectStore('scans');
      const profiles = tx.objectStore('profile');
      // Only IndexedDB requests are awaited inside the transaction: any other wait would let it commit early.
      const [existingIds, existingProfile] = await Promise.all([scans.getAllKeys(), profiles.get(PROFILE_KEY)]);
      const here = new Set(mode === 'replace' ? [] : existingIds);
      const outcome: ImportOutcome = { added: 0, alreadyHere: 0, removed: 0, profileImported: false };
      const writes: Promise<unknown>[] = [];
      try {
        if (mode === 'replace') {
          writes.push(scans.clear(), profiles.delete(PROFILE_KEY));
          outcome.removed = existingIds.length;
        }
        for (const scan of data.scans) {
          if (here.has(scan.id)) {
            outcome.alreadyHere++;
            continue;
          }
          here.add(scan.id);
          writes.push(scans.put(toStoredScan(scan)));
          outcome.added++;
        }
        const incoming = data.profile;
        const newer = (a: ConsultationProfile, b: ConsultationProfile) =>
          Date.parse(a.updatedAt) > Date.parse(b.updatedAt);
        if (incoming && (mode === 'replace' || !existingProfile || newer(incoming, existingProfile))) {
          writes.push(profiles.put(incoming, PROFILE_KEY));
          outcome.profileImported = true;
        }
        await Promise.all([...writes, tx.done]);
      } catch (error) {
        // A request that fails aborts the transaction by itself; one refused before it was even made
        // (a value that cannot be stored) would leave the others to commit: abort, so nothing lands.
        try {
          tx.abort();
        } catch {
          // already finished (aborted)
        }
        await Promise.allSettled([...writes, tx.done]);
        throw error;
      }
      return outcome;
    },
  };
}

let shared: StudioStore | undefined;
/** The app's store in the browser (one per page). */
export function studioStore(): StudioStore {
  return (shared ??= createStudioStore());
}
