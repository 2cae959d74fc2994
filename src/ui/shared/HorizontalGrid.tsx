import { CartesianGrid, type CartesianGridProps } from 'recharts';

/**
 * Recharts works out where grid lines go by laying out the axis's tick labels again, each label measured in
 * the DOM (one forced layout each), and does so for the vertical lines even when `vertical={false}` hides
 * them: for an x axis of steps, ~120 layouts and 40 ms of a 100 ms task when the Failure modes page of a
 * 1,000-step run drew its chart (npm run bench). Lines that are not drawn need no positions, and lines at
 * ticks the chart already knows need no measuring.
 */
const noVerticalLines = () => [];

interface Props {
  /** The y axis's ticks and domain when the chart sets them: the lines are placed from them, nothing measured. */
  ticks?: readonly number[];
  domain?: readonly [number, number];
}

/** The charts' grid: horizontal lines at the y axis's ticks, no vertical lines. */
export function HorizontalGrid({ ticks, domain }: Props) {
  const atTicks: CartesianGridProps['horizontalCoordinatesGenerator'] =
    ticks && domain && domain[1] > domain[0]
      ? ({ offset }) => {
          const [lo, hi] = domain;
          return ticks.map((t) => offset.top + offset.height * (1 - (t - lo) / (hi - lo)));
        }
      : undefined;
  return (
    <CartesianGrid
      stroke="var(--border-subtle)"
      vertical={false}
      verticalCoordinatesGenerator={noVerticalLines}
      horizontalCoordinatesGenerator={atTicks}
    />
  );
}
