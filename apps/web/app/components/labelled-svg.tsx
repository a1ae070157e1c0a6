import type { ReactNode } from 'react';

/**
 * The root of an inline SVG chart: drawn at its size in pixels (its text keeps its CSS size), an
 * image named by its title and described by the summary the chart shows beside it (`${id}-summary`).
 */
export function LabelledSvg(props: {
  className: string;
  id: string;
  title: string;
  width: number;
  height: number;
  children: ReactNode;
}) {
  const { className, id, title, width, height, children } = props;
  return (
    <svg
      className={className}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
    >
      <title id={`${id}-title`}>{title}</title>
      {children}
    </svg>
  );
}
