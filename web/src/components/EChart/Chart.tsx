import { useEffect, useRef } from 'react';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { usePrefersReducedMotion, useThemeStore } from '../../stores/theme.ts';

// Only what the app's charts use (the home dashboard's daily line charts, quality's pass-rate bars): each chart type or component
// registered here adds to the chart chunk. A screen that needs a bar or pie chart registers it here and
// adds its option type below.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export type EChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

export interface EChartProps {
  option: EChartOption;
  /** Pixels; the width follows the container. */
  height?: number;
  className?: string;
  'data-testid'?: string;
}

/** The chart itself; load it through `EChart` (index.tsx), which loads ECharts lazily. */
export default function Chart({ option, height = 300, className, 'data-testid': testId }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const isDark = useThemeStore((s) => s.isDark);
  const reducedMotion = usePrefersReducedMotion();

  // A theme change builds the chart anew (ECharts takes its theme at init only).
  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const instance = echarts.init(el, isDark ? 'dark' : undefined);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [isDark]);

  useEffect(() => {
    // The card's background shows through, light or dark; drawn at once, without the growing lines, when the
    // system asks to reduce motion.
    chart.current?.setOption({ backgroundColor: 'transparent', animation: !reducedMotion, ...option }, { notMerge: true });
  }, [option, isDark, reducedMotion]);

  return <div ref={element} className={className} style={{ width: '100%', height }} data-testid={testId} />;
}
