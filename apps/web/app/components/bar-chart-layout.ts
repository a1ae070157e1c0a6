// The arithmetic of the bar chart (bar-chart.tsx), without drawing: how tall a panel's scale is,
// where the bars stand, and which points get an axis label at a given width. Pure functions, so
// the geometry is tested without a browser.

export interface PlotBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
  /** The middle of the bar's band, where its axis label is centred. */
  centre: number;
}

/** The top of a scale for `value`: 1, 2 or 5 × 10ⁿ, at least 1 (an empty panel still has a scale). */
export function scaleTop(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((multiple) => multiple * power >= value) ?? 10) * power;
}

/**
 * One bar per value, each in the middle of its band across the box, standing on the box's bottom,
 * scaled to `top`; a bar fills `fill` of its band (at least a pixel).
 */
export function layoutBars(values: readonly number[], top: number, box: PlotBox, fill = 0.7): Bar[] {
  if (values.length === 0) return [];
  const band = box.width / values.length;
  const width = Math.max(1, band * fill);
  const baseline = box.top + box.height;
  return values.map((raw, index) => {
    const value = Math.max(0, raw);
    const height = top > 0 ? (Math.min(value, top) / top) * box.height : 0;
    const centre = box.left + band * (index + 0.5);
    return { x: centre - width / 2, y: baseline - height, width, height, value, centre };
  });
}

/** The room kept between two axis labels, in pixels. */
const LABEL_GAP = 6;

/**
 * How many points apart the axis labels stand so that labels about `labelWidth` pixels wide never
 * touch when each point's band is `band` pixels wide: a multiple of `unit` (7 for a week of days).
 */
export function labelStep(band: number, labelWidth: number, unit = 1): number {
  if (!(band > 0)) return unit;
  return unit * Math.max(1, Math.ceil((labelWidth + LABEL_GAP) / (band * unit)));
}

/** Indexes of the labelled points: the last one (the latest), then every `step` back. */
export function labelledIndexes(count: number, step: number): number[] {
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= Math.max(1, step)) indexes.unshift(index);
  return indexes;
}

export interface AxisLabel {
  index: number;
  x: number;
  anchor: 'middle' | 'end';
}

/**
 * Where the labelled points' labels stand: centred under their bars, except one that would run past
 * `right`, which ends at its bar instead; a label that would then touch the one after it gives
 * way (the latest always stays).
 */
export function placeLabels(
  bars: readonly Bar[],
  indexes: readonly number[],
  labelWidth: number,
  right: number,
): AxisLabel[] {
  const placed: AxisLabel[] = [];
  let nextLeft = Number.POSITIVE_INFINITY;
  for (const index of [...indexes].reverse()) {
    const bar = bars[index];
    if (!bar) continue;
    const atEnd = bar.centre + labelWidth / 2 > right;
    const x = atEnd ? bar.x + bar.width : bar.centre;
    const left = atEnd ? x - labelWidth : x - labelWidth / 2;
    if (left + labelWidth + LABEL_GAP > nextLeft) continue;
    placed.unshift({ index, x, anchor: atEnd ? 'end' : 'middle' });
    nextLeft = left;
  }
  return placed;
}
