import * as z from 'zod/mini';
import {
  type Analysis,
  type CaptureSource,
  GATE_IDS,
  GATE_PROBLEMS,
  METRIC_IDS,
  ZONE_IDS,
} from '@skanova/skin/contract';
import noiseFloors from '@skanova/skin/data/noise-floors.json';
import { type ConsultationProfile, consultationProfileSchema } from '@skanova/shared/studio/profile';
import { type ConsentRecord, STUDIO_DB_VERSION, type ScanRecord, type StudioSnapshot } from '../storage';

// The visitor's data as one file they hold (docs/product/web-app.md#your-data; docs/studio-export-format.md): every scan
// (metrics, gates, landmarks, preview, the photo when kept), the consultation profile and the consents.
// Made and read on the device; nothing here touches the network.
//
// One JSON document, images inside as base64: the simplest container a person (or another program)
// can open, parsed in one call and validated by one schema, with no dependency. It costs a third more
// bytes on the images than a ZIP would (docs/benchmarks.md, "Your data"), which matters little for a
// file made now and then.

/** The format's name: a file without it is not an export of this app. */
export const EXPORT_FORMAT = 'skanova-studio-export';
/**
 * Bumped when the file's shape changes; an app refuses a file newer than it knows. 2: a scan's analysis
 * may carry how its photo was taken (`conditions`, analysis skin-2) — an app of format 1 would drop
 * them, and then compare photos of another light as if taken alike, so it is asked to update instead.
 * Files of every version up to this one are read.
 */
export const EXPORT_FORMAT_VERSION = 2;

const MIB = 1024 * 1024;

/**
 * The app's analysis version, as its noise floors name it (they are measured for the analysis the app
 * ships; export-file.test.ts holds them equal). Read from there because importing `@skanova/skin/analyse` here would
 * bring the whole analysis into the page's chunk: it runs in the worker.
 */
const APP_ANALYSIS_VERSION: string = noiseFloors.analysisVersion;

/** What an import accepts, so that a hostile or broken file cannot exhaust the device. */
export const EXPORT_LIMITS = {
  /**
   * The whole file (400 MB, as the page says it): ≈ 1,000 scans with their photo. The browser must hold
   * it as one string to parse it.
   */
  fileBytes: 400_000_000,
  /** Ten years of a scan every day is 3,650. */
  scans: 5000,
  /** The app's previews are ≈ 400 px JPEGs of 20–40 KB. */
  thumbnailBytes: 2 * MIB,
  /** The app's photos are ≤ 1,280 px JPEGs, well under 2 MB. */
  photoBytes: 16 * MIB,
  /** The face mesh has 478 points. */
  landmarks: 1000,
  outlinesPerZone: 16,
  pointsPerOutline: 5000,
  consents: 8,
} as const;

const SOURCES = ['camera', 'upload'] as const satisfies readonly CaptureSource[];
const IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

// ---------- Schemas of the file (zod/mini, like every schema the browser ships) ----------

const shortText = z.string().check(z.minLength(1), z.maxLength(128));
const coordinate = z.number().check(z.gte(-1e6), z.lte(1e6));
const point = z.tuple([coordinate, coordinate]);
const score = z.number().check(z.gte(0), z.lte(100));
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An image as the file carries it: its type and its bytes in base64 (checked against the type on import). */
function imageSchema(maxBytes: number) {
  return z.object({
    type: z.enum(IMAGE_TYPES),
    base64: z.string().check(
      z.minLength(4),
      z.maxLength(Math.ceil(maxBytes / 3) * 4),
      z.regex(BASE64),
      z.refine((text) => text.length % 4 === 0),
    ),
  });
}

const gateSchema = z.object({
  gate: z.enum(GATE_IDS),
  passed: z.boolean(),
  value: z.nullable(z.number()),
  problem: z.nullable(z.enum(GATE_PROBLEMS)),
});

const zoneSchema = z.object({
  zone: z.enum(ZONE_IDS),
  outline: z
    .array(z.array(point).check(z.maxLength(EXPORT_LIMITS.pointsPerOutline)))
    .check(z.maxLength(EXPORT_LIMITS.outlinesPerZone)),
  pixels: z.int().check(z.gte(0)),
  metrics: z.partialRecord(z.enum(METRIC_IDS), score),
});

/** A finite number within [min, max]. */
const bounded = (min: number, max: number) => z.number().check(z.gte(min), z.lte(max));
const degrees = bounded(-180, 180);

/**
 * How the photo was taken (`CaptureConditions`, analysis skin-2), every number bounded by what the
 * analysis can produce: L* 0–100; a slope of light in stops (the analysis reads at most ±8.6 between
 * two skins of L* 0 and 100); the light's temperature as the analysis clamps it; the face's share of
 * the frame and its scale; the head's angles.
 */
const conditionsSchema = z.object({
  light: bounded(0, 100),
  gradient: z.object({ horizontal: bounded(-10, 10), vertical: bounded(-10, 10) }),
  colourTemperature: bounded(1500, 25_000),
  faceSize: z.number().check(z.gt(0), z.lte(10)),
  pxPerMm: z.number().check(z.gt(0), z.lte(1000)),
  pose: z.object({ yaw: degrees, pitch: degrees, roll: degrees }),
});

const analysisSchema = z.object({
  version: shortText,
  /** Absent from scans of analysis skin-1 (and from files of format 1 made before skin-2). */
  conditions: z.optional(conditionsSchema),
  width: z.int().check(z.gte(1), z.lte(100_000)),
  height: z.int().check(z.gte(1), z.lte(100_000)),
  pxPerMm: z.number().check(z.gt(0)),
  zones: z.array(zoneSchema).check(z.maxLength(ZONE_IDS.length)),
  overall: z.record(z.enum(METRIC_IDS), score),
});

const frameSchema = z.object({
  x: z.number().check(z.gte(0)),
  y: z.number().check(z.gte(0)),
  width: z.number().check(z.gt(0)),
  height: z.number().check(z.gt(0)),
});

const scanSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  takenAt: z.iso.datetime(),
  source: z.enum(SOURCES),
  analysisVersion: shortText,
  modelVersion: shortText,
  gates: z.array(gateSchema).check(z.maxLength(GATE_IDS.length)),
  analysis: analysisSchema,
  landmarks: z.array(point).check(z.maxLength(EXPORT_LIMITS.landmarks)),
  thumbnail: imageSchema(EXPORT_LIMITS.thumbnailBytes),
  thumbnailFrame: frameSchema,
  photo: z.optional(imageSchema(EXPORT_LIMITS.photoBytes)),
});

const consentSchema = z.object({
  kind: z.literal('facial-data'),
  ageConfirmed: z.literal(true),
  givenAt: z.iso.datetime(),
  textVersion: shortText,
});

/** The whole file, of format version 1 or 2 (2 may carry `analysis.conditions`; 1 usually does not). */
export const exportFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  formatVersion: z.union([z.literal(1), z.literal(EXPORT_FORMAT_VERSION)]),
  /** When the file was made, ISO 8601 UTC. */
  exportedAt: z.iso.datetime(),
  /** The app that made it: its database schema and its analysis (zones, metrics, gates) versions. */
  app: z.object({ databaseVersion: z.int().check(z.gte(1)), analysisVersion: shortText }),
  consents: z.array(consentSchema).check(z.maxLength(EXPORT_LIMITS.consents)),
  profile: z.nullable(consultationProfileSchema),
  /** Oldest first. */
  scans: z.array(scanSchema).check(z.maxLength(EXPORT_LIMITS.scans)),
});

export type ExportFile = z.infer<typeof exportFileSchema>;
type ExportedScan = z.infer<typeof scanSchema>;
type ExportedImage = z.infer<ReturnType<typeof imageSchema>>;

// ---------- Export ----------

/** The file's name: the brand, the app and the day of the export (UTC), e.g. `skanova-studio-2026-11-25.json`. */
export function exportFileName(brand: string, exportedAt: Date): string {
  const slug =
    brand
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'studio';
  return `${slug}-studio-${exportedAt.toISOString().slice(0, 10)}.json`;
}

/**
 * The export file of a snapshot: one JSON document, each scan on its own line, assembled as a Blob
 * from parts so that no single string holds the whole file.
 */
export async function buildExportFile(snapshot: StudioSnapshot, exportedAt: Date): Promise<Blob> {
  const head: Omit<ExportFile, 'scans'> = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: exportedAt.toISOString(),
    app: { databaseVersion: STUDIO_DB_VERSION, analysisVersion: APP_ANALYSIS_VERSION },
    consents: snapshot.consents,
    profile: snapshot.profile ?? null,
  };
  const parts: string[] = [`${JSON.stringify(head).slice(0, -1)},"scans":[\n`];
  for (const [index, scan] of snapshot.scans.entries()) {
    parts.push(`${index === 0 ? '' : ',\n'}${JSON.stringify(await exportScan(scan))}`);
  }
  parts.push('\n]}\n');
  return new Blob(parts, { type: 'application/json' });
}

async function exportScan(scan: ScanRecord): Promise<ExportedScan> {
  // Field by field: what the file holds is what the format says, never whatever else a record carries.
  return {
    id: scan.id,
    takenAt: scan.takenAt,
    source: scan.source,
    analysisVersion: scan.analysisVersion,
    modelVersion: scan.modelVersion,
    gates: scan.gates.map((gate) => ({ ...gate })),
    analysis: exportAnalysis(scan.analysis),
    landmarks: scan.landmarks as ExportedScan['landmarks'],
    thumbnail: await exportImage(scan.thumbnail),
    thumbnailFrame: scan.thumbnailFrame,
    ...(scan.photo ? { photo: await exportImage(scan.photo) } : {}),
  };
}

function exportAnalysis(analysis: Analysis): ExportedScan['analysis'] {
  const { version, conditions, width, height, pxPerMm, zones, overall } = analysis;
  return {
    version,
    ...(conditions
      ? {
          conditions: {
            light: conditions.light,
            gradient: { horizontal: conditions.gradient.horizontal, vertical: conditions.gradient.vertical },
            colourTemperature: conditions.colourTemperature,
            faceSize: conditions.faceSize,
            pxPerMm: conditions.pxPerMm,
            pose: { yaw: conditions.pose.yaw, pitch: conditions.pose.pitch, roll: conditions.pose.roll },
          },
        }
      : {}),
    width,
    height,
    pxPerMm,
    zones: zones.map((zone) => ({
      zone: zone.zone,
      outline: zone.outline as ExportedScan['analysis']['zones'][number]['outline'],
      pixels: zone.pixels,
      metrics: zone.metrics,
    })),
    overall,
  };
}

async function exportImage(blob: Blob): Promise<ExportedImage> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const type = imageTypeOf(bytes);
  // The app writes JPEGs only (images.ts): anything else on the device is not the app's.
  if (!type) throw new Error('A stored image is neither JPEG nor PNG');
  return { type, base64: bytesToBase64(bytes) };
}

// ---------- Import ----------

/** Why a file is refused; the page says it in the visitor's language. `scan` is 1-based, in file order. */
export type ImportProblem =
  | { kind: 'empty' | 'tooLarge' | 'notJson' | 'notOurs' | 'tooNew' | 'tooMany' | 'invalid' }
  | { kind: 'invalidScan' | 'duplicateScan' | 'badImage'; scan: number };

/** A file that passed every check, ready for the device's storage. */
export interface ImportedData {
  exportedAt: string;
  consents: ConsentRecord[];
  profile: ConsultationProfile | undefined;
  /** Oldest first, images as Blobs whose bytes are the file's. */
  scans: ScanRecord[];
}

export type ReadExportResult = { ok: true; data: ImportedData } | { ok: false; problem: ImportProblem };

/**
 * Reads and checks a whole export file before anything touches the device's storage: size, JSON,
 * format name and version, every field against the schema and the limits, unique scan ids, and every
 * image's bytes (JPEG or PNG, as declared).
 */
export async function readExportFile(file: Blob): Promise<ReadExportResult> {
  const refuse = (problem: ImportProblem): ReadExportResult => ({ ok: false, problem });
  if (file.size === 0) return refuse({ kind: 'empty' });
  if (file.size > EXPORT_LIMITS.fileBytes) return refuse({ kind: 'tooLarge' });

  let raw: unknown;
  try {
    raw = JSON.parse(await file.text());
  } catch {
    return refuse({ kind: 'notJson' });
  }
  const envelope = z.looseObject({ format: z.string(), formatVersion: z.number() }).safeParse(raw);
  if (!envelope.success || envelope.data.format !== EXPORT_FORMAT) return refuse({ kind: 'notOurs' });
  if (envelope.data.formatVersion > EXPORT_FORMAT_VERSION) return refuse({ kind: 'tooNew' });
  const scans = (raw as { scans?: unknown }).scans;
  if (Array.isArray(scans) && scans.length > EXPORT_LIMITS.scans) return refuse({ kind: 'tooMany' });

  const parsed = exportFileSchema.safeParse(raw);
  if (!parsed.success) {
    const [where, index] = parsed.error.issues[0]?.path ?? [];
    return refuse(
      where === 'scans' && typeof index === 'number' ? { kind: 'invalidScan', scan: index + 1 } : { kind: 'invalid' },
    );
  }

  const seen = new Set<string>();
  const records: ScanRecord[] = [];
  for (const [index, scan] of parsed.data.scans.entries()) {
    if (seen.has(scan.id)) return refuse({ kind: 'duplicateScan', scan: index + 1 });
    seen.add(scan.id);
    const thumbnail = importImage(scan.thumbnail);
    const photo = scan.photo ? importImage(scan.photo) : undefined;
    if (!thumbnail || photo === null) return refuse({ kind: 'badImage', scan: index + 1 });
    records.push({
      id: scan.id,
      takenAt: scan.takenAt,
      source: scan.source,
      analysisVersion: scan.analysisVersion,
      modelVersion: scan.modelVersion,
      gates: scan.gates,
      analysis: scan.analysis,
      landmarks: scan.landmarks,
      thumbnail,
      thumbnailFrame: scan.thumbnailFrame,
      ...(photo ? { photo } : {}),
    });
  }
  return {
    ok: true,
    data: {
      exportedAt: parsed.data.exportedAt,
      consents: parsed.data.consents,
      profile: parsed.data.profile ?? undefined,
      scans: records,
    },
  };
}

/** The image as a Blob, or null when its bytes are not the JPEG or PNG it claims to be. */
function importImage(image: ExportedImage): Blob | null {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = base64ToBytes(image.base64);
  } catch {
    return null;
  }
  if (imageTypeOf(bytes) !== image.type) return null;
  return new Blob([bytes], { type: image.type });
}

// ---------- Bytes ----------

const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the bytes are by their signature (not by a name or a declared type). */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  const startsWith = (signature: number[]) =>
    bytes.length > signature.length && signature.every((byte, index) => bytes[index] === byte);
  if (startsWith(JPEG_SIGNATURE)) return 'image/jpeg';
  if (startsWith(PNG_SIGNATURE)) return 'image/png';
  return null;
}

const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
