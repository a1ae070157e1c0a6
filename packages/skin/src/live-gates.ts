// The live camera's gates (docs/skin-analysis.md §Gates, "In the camera"): one frame's readings
// flicker around a threshold — a borderline light, a blink, the video's compression — so the camera
// judges each gate over the last frames, with hysteresis: a gate passes once most recent frames passed
// it under the strict threshold, and stays passed while most pass under its relaxed one
// (gates.ts GATE_HYSTERESIS). The frame taken is then analysed with the settled gates relaxed, so a
// photo that passes as an upload passes in the camera within a few frames and is not refused for the
// flicker the preview had settled.

import { GATE_IDS, type GateId, type GateReading } from './contract.ts';

export interface LiveGatesOptions {
  /** Frames looked at. */
  readonly window?: number;
  /** Frames of the window that must pass a gate. */
  readonly needed?: number;
}

export interface LiveVerdict {
  /** Each gate's reading from the latest frame, `passed` and `problem` by the vote over the window. */
  readonly gates: readonly GateReading[];
  /** Every gate passes: the shutter may be pressed. */
  readonly ready: boolean;
  /** The gates to judge relaxed in the next frame and in the frame taken (AnalyseOptions.settled). */
  readonly settled: ReadonlySet<GateId>;
}

export class LiveGates {
  readonly #window: number;
  readonly #needed: number;
  #frames: (readonly GateReading[])[] = [];
  #settled = new Set<GateId>();

  constructor({ window = 5, needed = 3 }: LiveGatesOptions = {}) {
    this.#window = window;
    this.#needed = Math.min(needed, window);
  }

  /** The gates already settled: pass them to `checkGates` / `analysePhoto` as `settled`. */
  get settled(): ReadonlySet<GateId> {
    return this.#settled;
  }

  /** Forgets every frame (the camera restarted, or the face left the frame). */
  reset(): void {
    this.#frames = [];
    this.#settled = new Set();
  }

  /** Adds one frame's readings (judged with `settled`) and returns the verdict over the window. */
  push(readings: readonly GateReading[]): LiveVerdict {
    this.#frames.push(readings);
    if (this.#frames.length > this.#window) this.#frames.shift();
    const settled = new Set<GateId>();
    const gates = GATE_IDS.map((gate): GateReading => {
      const latest = readings.find((r) => r.gate === gate) ?? { gate, passed: false, value: null, problem: null };
      const history = this.#frames.map((frame) => frame.find((r) => r.gate === gate));
      const passes = history.filter((r) => r?.passed).length;
      const passed = passes >= this.#needed;
      if (passed) settled.add(gate);
      // The problem shown is the most frequent one among the failing frames (the latest first).
      const problems = history.filter((r) => r && !r.passed && r.problem).map((r) => r!.problem!);
      const problem = passed
        ? null
        : (latest.problem ??
          problems.sort((a, b) => problems.filter((p) => p === b).length - problems.filter((p) => p === a).length)[0] ??
          null);
      return { ...latest, passed, problem };
    });
    this.#settled = settled;
    return { gates, ready: gates.every((g) => g.passed), settled };
  }
}
