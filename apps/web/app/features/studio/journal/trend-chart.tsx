import { useId } from 'react';
import type { Verdict } from '@skanova/skin/trend';
import { LabelledSvg } from '../../../components/labelled-svg';
import { useMeasuredWidth } from '../../../components/measured-width';
import { numberFormat } from './journal-format';
import { type Series, type TimeTicks, scoreAxis, timeTicks } from './journal-model';

// One metric's scores over the weeks as inline SVG (no chart library): the line through every scan,
// a band of ± the noise floor around the first scan (a score inside it has not really moved since
// then), and each scan's mark saying how it moved since the one before — a hollow circle when stable,
// a triangle pointing up or down when the change reaches the floor, green when better, red when
// worse, hollow and neutral when unsure (beyond the floor between photos not taken alike). Screen
// readers get a title and a summary; the figures are a table beside it (trend-table).

export interface TrendChartProps {
  series: Series;
  title: string;
  /** The figures in a sentence or two, read after the title. */
  summary: string;
  /** A label of the time axis: a Monday, a month or a year. */
  formatTick: (time: number, unit: TimeTicks['unit']) => string;
  lang: string;
}

const GEOMETRY = {
  fallbackWidth: 640,
  minWidth: 260,
  height: 230,
  left: 34,
  right: 14,
  top: 14,
  bottom: 30,
  /** Room each time-axis label needs. */
  labelWidth: 64,
  mark: 5,
};

/** A scan's mark: its verdict since the previous scan, by shape as well as colour. */
function Mark({
  x,
  y,
  verdict,
  up,
  size,
}: {
  x: number;
  y: number;
  verdict: Verdict | 'first';
  up: boolean;
  size: number;
}) {
  if (verdict === 'first' || verdict === 'stable')
    return <circle className={`trend-chart__mark trend-chart__mark--${verdict}`} cx={x} cy={y} r={size - 1} />;
  const tip = up ? y - size - 1 : y + size + 1;
  const base = up ? y + size - 1 : y - size + 1;
  return (
    <path
      className={`trend-chart__mark trend-chart__mark--${verdict}`}
      d={`M${x} ${tip}L${x + size} ${base}L${x - size} ${base}Z`}
    />
  );
}

export function TrendChart(props: TrendChartProps) {
  const id = useId();
  const [frame, measured] = useMeasuredWidth(GEOMETRY.fallbackWidth);
  return (
    <>
      <div className="trend-chart__frame" ref={frame}>
        {measured === null ? null : <ChartSvg {...props} id={id} width={Math.max(GEOMETRY.minWidth, measured)} />}
      </div>
      <p className="trend-chart__summary" id={`${id}-summary`}>
        {props.summary}
      </p>
    </>
  );
}

/** The chart itself, drawn at the width its frame measured. */
function ChartSvg({ series, title, formatTick, lang, id, width }: TrendChartProps & { id: string; width: number }) {
  const { height, left, right, top, bottom } = GEOMETRY;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;

  const points = series.points;
  const first = points[0];
  const times = points.map((point) => new Date(point.takenAt).getTime());
  const band = first ? [first.value - series.floor, first.value + series.floor] : [];
  const axis = scoreAxis([...points.map((point) => point.value), ...band]);
  const start = times[0] ?? 0;
  const end = times[times.length - 1] ?? 0;
  const span = end - start;
  const xOf = (time: number) =>
    span === 0 ? left + plotWidth / 2 : left + plotWidth * (0.04 + (0.92 * (time - start)) / span);
  const yOf = (value: number) => top + plotHeight * (1 - (value - axis.min) / (axis.max - axis.min));
  const number = numberFormat(lang, { maximumFractionDigits: 0 });

  const gridValues: number[] = [];
  for (let value = axis.min; value <= axis.max; value += axis.step) gridValues.push(value);
  const axisTicks: TimeTicks =
    span === 0 ? { unit: 'week', ticks: [start] } : timeTicks(start, end, Math.floor(plotWidth / GEOMETRY.labelWidth));
  const ticks = axisTicks.ticks
    .map((time) => ({ time, x: xOf(time) }))
    .filter(({ x }) => x >= left - 1 && x <= left + plotWidth + 1);
  const line = points.map((point, index) => `${xOf(times[index]!).toFixed(1)},${yOf(point.value).toFixed(1)}`);
  const bandTop = first ? yOf(Math.min(axis.max, first.value + series.floor)) : 0;
  const bandBottom = first ? yOf(Math.max(axis.min, first.value - series.floor)) : 0;
  const latest = points[points.length - 1];
  // Marks shrink when scans crowd the width (a long journal on a phone), never below legibility.
  const spacing = points.length > 1 ? (plotWidth * 0.92) / (points.length - 1) : plotWidth;
  const markSize = Math.max(2.5, Math.min(GEOMETRY.mark, spacing * 0.6));

  return (
    <LabelledSvg className="trend-chart" id={id} title={title} width={width} height={height}>
      {gridValues.map((value) => (
        <g key={value}>
          <line
            className={value === axis.min ? 'trend-chart__axis' : 'trend-chart__grid'}
            x1={left}
            x2={left + plotWidth}
            y1={yOf(value)}
            y2={yOf(value)}
          />
          <text className="trend-chart__tick" x={left - 6} y={yOf(value) + 4} textAnchor="end">
            {number.format(value)}
          </text>
        </g>
      ))}
      {first ? (
        <rect
          className="trend-chart__band"
          x={left}
          y={bandTop}
          width={plotWidth}
          height={Math.max(1, bandBottom - bandTop)}
        />
      ) : null}
      {ticks.map(({ time, x }) => (
        <g key={time}>
          <line className="trend-chart__week" x1={x} x2={x} y1={top + plotHeight} y2={top + plotHeight + 4} />
          <text className="trend-chart__tick" x={x} y={height - bottom + 18} textAnchor="middle">
            {span === 0 ? formatTick(time, 'week') : formatTick(time, axisTicks.unit)}
          </text>
        </g>
      ))}
      {points.length > 1 ? <polyline className="trend-chart__line" points={line.join(' ')} /> : null}
      {points.map((point, index) => (
        <Mark
          key={point.id}
          x={xOf(times[index]!)}
          y={yOf(point.value)}
          verdict={point.change?.verdict ?? 'first'}
          up={(point.change?.delta ?? 0) > 0}
          size={markSize}
        />
      ))}
      {latest ? (
        <text
          className="trend-chart__value"
          x={xOf(end)}
          y={yOf(latest.value) < top + 16 ? yOf(latest.value) + 20 : yOf(latest.value) - 10}
          textAnchor={xOf(end) > width - 20 ? 'end' : 'middle'}
        >
          {number.format(Math.round(latest.value))}
        </text>
      ) : null}
    </LabelledSvg>
  );
}
