import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Skeleton } from 'antd';
import type { EChartProps } from './Chart.tsx';

export type { EChartProps, EChartOption } from './Chart.tsx';

/**
 * ECharts (`echarts/core` with the line chart, grid, tooltip, legend and the canvas renderer: ≈ 110 KB on the
 * wire) loads only when a chart is about to be drawn: not with the login page, not with the shell, not with
 * a screen whose charts are below the fold until they are scrolled to.
 */
const Chart = lazy(() => import('./Chart.tsx'));

/** How far below (or above) the visible area a chart's place may be when its code starts loading. */
const AHEAD = '120px 0px';

/** True once the element has come within `AHEAD` of the viewport (and stays true). */
function useNearViewport<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: AHEAD });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/**
 * A chart of Apache ECharts: `option` is ECharts' own option; it follows the app's light / dark theme and
 * its container's size. Line charts with grid, tooltip and legend are registered (Chart.tsx). Until the
 * chart's place scrolls near the viewport, and while its code loads, a skeleton of the same height holds it.
 */
export default function EChart(props: EChartProps) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const height = props.height ?? 300;
  const skeleton = <Skeleton.Node active style={{ width: '100%', height }} />;
  if (!near) {
    return (
      <div ref={ref} style={{ width: '100%', height }} data-testid={props['data-testid']} data-pending>
        {skeleton}
      </div>
    );
  }
  return (
    <Suspense fallback={skeleton}>
      <Chart {...props} />
    </Suspense>
  );
}
