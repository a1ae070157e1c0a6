import { useId } from 'react';
import { formatCount } from '../lib/format';
import { LabelledSvg } from './labelled-svg';
import { useMeasuredWidth } from './measured-width';
import { type PlotBox, labelStep, labelledIndexes, layoutBars, placeLabels, scaleTop } from './bar-chart-layout';

// Counts over time drawn as inline SVG (no chart library), for the affiliate dashboard's 30 days
// and the console's 12 months: one panel per series with its own scale — conversions are far fewer
// than clicks and would vanish on a shared axis — and the points' labels under the last panel, as
// many as the width allows. Screen readers get a title, a summary, and the figures as a table
// (offered to everyone behind a disclosure).

export interface BarChartSeries {
  /** Names the bars' class (`bar-chart__bar--clicks`), which gives their colour. */
  key: string;
  name: string;
  /** One value per point. */
  values: readonly number[];
}

export interface BarChartPoint {
  key: string;
  /** Its label on the axis ("3 juin", "juin"). */
  tick: string;
  /** A second line under the first labelled point and wherever it changes (the year). */
  group?: string;
  /** Its name as the table's row header ("3 juin 2025", "juin 2025"). */
  name: string;
}

export interface BarChartProps {
  title: string;
  /** The figures in a sentence or two, read after the title. */
  summary: string;
  series: readonly BarChartSeries[];
  points: readonly BarChartPoint[];
  /** The table's first column header ("Date", "Month"). */
  pointHeader: string;
  /** The disclosure that shows the table. */
  showTable: string;
  lang: string;
  panelHeight: number;
  /** Axis labels stand a multiple of this many points apart (7: weeks of days). */
  labelUnit?: number;
  /** How much of its band a bar fills. */
  barFill?: number;
  /** Extra classes of the table (e.g. one whose rows stack on a phone). */
  tableClassName?: string;
}

/** Drawn at the width of its box, so its text keeps its CSS size on a phone as on a wide screen. */
const GEOMETRY = {
  fallbackWidth: 960,
  minWidth: 280,
  plotLeft: 44,
  plotRight: 8,
  firstTop: 24,
  /** Room between panels for the next panel's name. */
  panelGap: 34,
  /** From the last panel's bottom to the axis labels' lines. */
  tickLine: 16,
  groupLine: 30,
  bottom: 8,
  /** Width of one character of the 11 px axis text, generously. */
  charWidth: 7,
};

export function BarChart(props: BarChartProps) {
  const { title, summary, series, points, lang } = props;
  const id = useId();
  const [frame, measured] = useMeasuredWidth(GEOMETRY.fallbackWidth);
  const count = (value: number) => formatCount(value, lang);
  return (
    <>
      <div className="bar-chart__frame" ref={frame}>
        {measured === null ? null : <BarChartSvg {...props} id={id} width={Math.max(GEOMETRY.minWidth, measured)} />}
      </div>
      <p className="bar-chart__summary" id={`${id}-summary`}>
        {summary}
      </p>
      <details className="bar-chart__data">
        <summary>{props.showTable}</summary>
        <div className="table-scroll">
          <table className={props.tableClassName}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.pointHeader}</th>
                {series.map((entry) => (
                  <th key={entry.key} scope="col" className="bar-chart__number">
                    {entry.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((point, index) => (
                <tr key={point.key}>
                  <th scope="row">{point.name}</th>
                  {series.map((entry) => (
                    <td key={entry.key} className="bar-chart__number" data-label={entry.name}>
                      {count(entry.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** The chart itself, drawn at the width its frame measured. */
function BarChartSvg(props: BarChartProps & { id: string; width: number }) {
  const { title, series, points, lang, panelHeight, labelUnit = 1, barFill = 0.7, id, width } = props;
  const plotWidth = width - GEOMETRY.plotLeft - GEOMETRY.plotRight;
  const count = (value: number) => formatCount(value, lang);

  const panels = series.map((entry, index) => {
    const box: PlotBox = {
      left: GEOMETRY.plotLeft,
      top: GEOMETRY.firstTop + index * (panelHeight + GEOMETRY.panelGap),
      width: plotWidth,
      height: panelHeight,
    };
    const top = scaleTop(Math.max(0, ...entry.values));
    return { ...entry, box, top, bars: layoutBars(entry.values, top, box, barFill) };
  });
  const last = panels[panels.length - 1];
  const baseline = last ? last.box.top + last.box.height : GEOMETRY.firstTop;
  const grouped = points.some((point) => point.group !== undefined);
  const height = baseline + (grouped ? GEOMETRY.groupLine : GEOMETRY.tickLine) + GEOMETRY.bottom;
  const labelWidth = Math.max(0, ...points.map((point) => point.tick.length)) * GEOMETRY.charWidth;
  const step = labelStep(points.length > 0 ? plotWidth / points.length : plotWidth, labelWidth, labelUnit);
  const labels = placeLabels(last?.bars ?? [], labelledIndexes(points.length, step), labelWidth, width);

  return (
    <LabelledSvg className="bar-chart" id={id} title={title} width={width} height={height}>
      {panels.map(({ key, name, box, top, bars }) => (
        <g key={key}>
          <text className="bar-chart__name" x={box.left} y={box.top - 8}>
            {name}
          </text>
          <line className="bar-chart__grid" x1={box.left} x2={box.left + box.width} y1={box.top} y2={box.top} />
          <line
            className="bar-chart__axis"
            x1={box.left}
            x2={box.left + box.width}
            y1={box.top + box.height}
            y2={box.top + box.height}
          />
          <text className="bar-chart__tick" x={box.left - 6} y={box.top + 4} textAnchor="end">
            {count(top)}
          </text>
          <text className="bar-chart__tick" x={box.left - 6} y={box.top + box.height + 4} textAnchor="end">
            {count(0)}
          </text>
          {bars.map((bar, index) => (
            <rect
              key={points[index]?.key ?? index}
              className={`bar-chart__bar bar-chart__bar--${key}`}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
              rx={1.5}
            />
          ))}
        </g>
      ))}
      {labels.map(({ index, x, anchor }, position) => {
        const point = points[index]!;
        // The year under the first label and wherever it changes.
        const previous = position > 0 ? points[labels[position - 1]!.index] : undefined;
        const showGroup = point.group !== undefined && point.group !== previous?.group;
        return (
          <text
            key={point.key}
            className="bar-chart__tick bar-chart__label"
            x={x}
            y={baseline + GEOMETRY.tickLine}
            textAnchor={anchor}
          >
            {point.tick}
            {showGroup ? (
              <tspan x={x} dy={GEOMETRY.groupLine - GEOMETRY.tickLine}>
                {point.group}
              </tspan>
            ) : null}
          </text>
        );
      })}
    </LabelledSvg>
  );
}
