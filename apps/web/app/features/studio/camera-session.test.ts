import { describe, expect, it } from 'vitest';
import { GATE_IDS, type GateId, type GateReading } from '@skanova/skin/contract';
import { startCameraSession } from './camera-session';
import { lightTarget, stopsBetween } from './light-target';

// The camera's live verdict: each frame checked with the gates already settled, the guidance and the
// shutter from the vote over the last frames, the photo judged with the verdict's settled gates; and
// the light against the last scan's.

/** One frame's readings: every gate passed but those named failing. */
function frame(failing: Partial<Record<GateId, GateReading['problem']>> = {}, light = 60, horizontal = 0.1) {
  return GATE_IDS.map((gate): GateReading => ({
    gate,
    passed: !(gate in failing),
    value: gate === 'exposure' ? light : gate === 'evenLight' ? horizontal : 1,
    problem: failing[gate] ?? null,
  }));
}

/** A session over scripted frames, recording the settled gates each check was given. */
function scripted(frames: GateReading[][]) {
  const given: (readonly GateId[])[] = [];
  const session = startCameraSession<number>((index, settled) => {
    given.push(settled);
    return Promise.resolve(frames[index]!);
  });
  return { session, given };
}

describe('the camera session', () => {
  it('opens the shutter once most recent frames pass, and a single flicker does not close it', async () => {
    const frames = [
      frame(),
      frame({ sharpness: 'blurred' }),
      frame(),
      frame(),
      frame({ sharpness: 'blurred' }),
      frame(),
    ];
    const { session, given } = scripted(frames);
    const verdicts = [];
    for (const index of frames.keys()) verdicts.push(await session.check(index));
    // Three passing frames out of the last five are needed: the sharpness has them at the fourth frame.
    expect(verdicts.map((verdict) => verdict.ready)).toEqual([false, false, false, true, true, true]);
    expect(verdicts[2]!.settled).not.toContain('sharpness');
    expect(verdicts[2]!.settled).toContain('exposure');
    // The guidance shows the vote, not the blurred latest frame.
    expect(verdicts[4]!.gates.find((gate) => gate.gate === 'sharpness')).toMatchObject({ passed: true, problem: null });
    // Each frame is checked with the gates the previous verdict settled.
    expect(given[0]).toEqual([]);
    expect(given[3]).toEqual(verdicts[2]!.settled);
    expect(given[5]).toContain('sharpness');
    // The photo is judged with the last verdict's settled gates: all of them.
    expect(verdicts[5]!.settled).toEqual(GATE_IDS);
  });

  it('keeps the shutter closed while a gate fails in most frames, naming the problem', async () => {
    const frames = [
      frame({ exposure: 'tooDark' }),
      frame({ exposure: 'tooDark' }),
      frame(),
      frame({ exposure: 'tooDark' }),
    ];
    const { session } = scripted(frames);
    let last;
    for (const index of frames.keys()) last = await session.check(index);
    expect(last!.ready).toBe(false);
    expect(last!.gates.find((gate) => gate.gate === 'exposure')).toMatchObject({ passed: false, problem: 'tooDark' });
    expect(last!.settled).not.toContain('exposure');
  });

  it('starts afresh with each session (the camera restarted)', async () => {
    const { session } = scripted([frame(), frame(), frame()]);
    for (const index of [0, 1, 2]) await session.check(index);
    const again = scripted([frame()]);
    expect((await again.session.check(0)).ready).toBe(false);
    expect(again.given).toEqual([[]]);
  });

  it('reads the light as the medians of the last frames where it was measured', async () => {
    const lights = [60, 61, 90, 59, 62, 60.5];
    const frames = lights.map((light, index) => frame({}, light, index === 2 ? 1.2 : 0.1));
    const noFace = GATE_IDS.map((gate): GateReading => ({ gate, passed: false, value: null, problem: null }));
    const { session } = scripted([noFace, ...frames]);
    expect((await session.check(0)).light).toBeNull();
    let last;
    for (const index of frames.keys()) last = await session.check(index + 1);
    // The last five: 61, 90, 59, 62, 60.5 — one bright frame does not move the median.
    expect(last!.light).toEqual({ light: 61, horizontal: 0.1 });
  });
});

describe('the light against the last scan', () => {
  const last = {
    light: 60,
    gradient: { horizontal: 0.1, vertical: 0.2 },
    colourTemperature: 5500,
    faceSize: 0.3,
    pxPerMm: 3.5,
    pose: { yaw: 0, pitch: 5, roll: 0 },
  };

  it('says the same light within the limits two scans are compared by', () => {
    expect(lightTarget(last, { light: 63, horizontal: 0.3 })).toEqual({ strength: 'same', side: 'same' });
  });

  it('says brighter or darker beyond half a stop on the skin', () => {
    // Half a stop from L* 60: (60 + 16) × 2^(±0.5/3) − 16.
    const up = (60 + 16) * 2 ** (0.5 / 3) - 16;
    const down = (60 + 16) * 2 ** (-0.5 / 3) - 16;
    expect(stopsBetween(up, 60)).toBeCloseTo(0.5);
    expect(lightTarget(last, { light: up + 0.5, horizontal: 0.1 }).strength).toBe('brighter');
    expect(lightTarget(last, { light: up - 0.5, horizontal: 0.1 }).strength).toBe('same');
    expect(lightTarget(last, { light: down - 0.5, horizontal: 0.1 }).strength).toBe('darker');
  });

  it('says which side the light comes from when its slope across the cheeks moved', () => {
    // The left cheek (the visitor's own) now lit more than last time: the light comes from the left.
    expect(lightTarget(last, { light: 60, horizontal: 0.5 }).side).toBe('left');
    expect(lightTarget(last, { light: 60, horizontal: -0.4 }).side).toBe('right');
    expect(lightTarget(last, { light: 60, horizontal: 0.4 }).side).toBe('same');
  });
});
