import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { EChartProps } from './Chart.tsx';

export type { EChartProps, EChartOption } from './Chart.tsx';

/** ECharts (≈ 400 kB) loads only when a screen shows a chart: not with the login page, not with the shell. */
const Chart = lazy(() => import('./Chart.tsx'));

/**
 * A chart of Apache ECharts: `option` is ECharts' own option; it follows the app's light / dark theme and
 * its container's size. Line, bar and pie charts with grid, tooltip, legend and data zoom are registered.
 */
export default function EChart(props: EChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 300 }} />}>
      <Chart {...props} />
    </Suspense>
  );
}
