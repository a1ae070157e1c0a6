import { describe, expect, it } from 'vitest';
import { newSessionId, newTrackingId, validSessionId } from './visitor.ts';

// Tracking and session ids come from a pool of random bytes refilled a few kilobytes at a time: each
// id is still its own random bytes, never a share of another's.

describe('visitor ids', () => {
  it('gives distinct tracking ids of 144 random bits, across refills of the pool', () => {
    // 18 bytes each: 1,000 ids use the pool about four and a half times.
    const ids = Array.from({ length: 1000 }, newTrackingId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  it('gives distinct session ids that the server accepts back', () => {
    const ids = Array.from({ length: 1000 }, newSessionId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(validSessionId(id)).toBe(id);
  });

  it('spreads the bits: every base64url character appears in the first position over many ids', () => {
    const first = new Set(Array.from({ length: 5000 }, () => newTrackingId()[0]));
    expect(first.size).toBe(64);
  });
});
