import { useState } from 'react';
import { Card, Col, DatePicker, Empty, List, Row, Skeleton, Tag } from 'antd';
import { AlertOutlined, ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { DashboardChart, DashboardFigure, DashboardFormat, DashboardText } from '@p8/contract/home';
import EChart, { type EChartOption } from '../../../components/EChart/index.tsx';
import { useDatePresets } from '../../../components/DateRangeSearch/index.tsx';
import { useGlobalStore, type Language } from '../../../stores/global.ts';
import { useOpenPaths } from '../../../hooks/useOpenPaths.ts';
import { useDashboardChart, useDashboardStatistics } from '../api/dashboard.ts';

const text = (t: DashboardText, language: Language) => (language === 'en' ? t.en : t.zh);

/** How a figure's number reads: counts whole, money with two decimals, quantities as they are. */
export function formatFigure(value: number, format: DashboardFormat, language: Language): string {
  const locale = language === 'en' ? 'en-US' : 'zh-CN';
  if (format === 'amount') return value.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return value.toLocaleString(locale, { maximumFractionDigits: format === 'count' ? 0 : 6 });
}

function Figure({ figure }: { figure: DashboardFigure }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.dashboard' });
  const language = useGlobalStore((s) => s.language);
  const navigate = useNavigate();
  const open = useOpenPaths();
  const link = figure.link && open.has(figure.link) ? figure.link : undefined;
  const change = figure.previous === undefined ? undefined : figure.value - figure.previous;
  const shown = formatFigure(figure.value, figure.format, language);
  return (
    <div
      className={`p8-home-figure ${link ? 'is-link' : ''}`}
      role={link ? 'link' : undefined}
      tabIndex={link ? 0 : undefined}
      onClick={link ? () => navigate(link) : undefined}
      onKeyDown={link ? (e) => e.key === 'Enter' && navigate(link) : undefined}
      data-testid={`home-figure-${figure.key}`}
    >
      <div className="p8-home-figure-label">{text(figure.label, language)}</div>
      <div className={`p8-home-figure-value ${shown.length > 9 ? 'is-long' : ''}`} data-testid={`home-figure-value-${figure.key}`}>
        {shown}
      </div>
      {figure.previous !== undefined && change !== undefined && (
        <div className="p8-home-figure-previous">
          {t('previous', { value: formatFigure(figure.previous, figure.format, language) })}
          {change !== 0 && (
            <span className={change > 0 ? 'is-up' : 'is-down'}>
              {change > 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
              {figure.previous ? `${Math.abs(Math.round((change / figure.previous) * 100))}%` : ''}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

function Figures({ figures }: { figures: DashboardFigure[] }) {
  return (
    <div className="p8-home-figures">
      {figures.map((f) => (
        <Figure key={f.key} figure={f} />
      ))}
    </div>
  );
}

type Range = [Dayjs, Dayjs];
const DAY = 'YYYY-MM-DD';
const MAX_DAYS = 366;

/** One line chart per section over the chosen days; money on the right axis. */
function chartOption(chart: DashboardChart['charts'][number], days: string[], language: Language): EChartOption {
  const hasAmount = chart.series.some((s) => s.format === 'amount');
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: days.map((d) => d.slice(5)) },
    yAxis: [{ type: 'value', minInterval: 1 }, ...(hasAmount ? [{ type: 'value' as const, splitLine: { show: false } }] : [])],
    series: chart.series.map((s) => ({
      name: text(s.label, language),
      type: 'line',
      smooth: true,
      // No overshoot below zero between a busy day and an empty one.
      smoothMonotone: 'x',
      showSymbol: days.length <= 31,
      yAxisIndex: s.format === 'amount' ? 1 : 0,
      areaStyle: { opacity: 0.08 },
      data: s.values,
    })),
  };
}

function ChartCard() {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.dashboard' });
  const language = useGlobalStore((s) => s.language);
  // The days are the server's business days: until a range is picked, the server's default range, and its
  // `today` is the last day offered and where the shortcuts count from (not the browser's clock).
  const [picked, setPicked] = useState<{ start: string; end: string } | null>(null);
  const { data, isLoading } = useDashboardChart(picked);
  const today = data?.today;
  const presets = useDatePresets(today);
  const range: Range | null = data ? [dayjs(data.start), dayjs(data.end)] : null;
  if (data && !data.charts.length) return null;
  return (
    <Card
      variant="borderless"
      className="p8-home-card"
      title={t('chartTitle')}
      data-testid="home-chart"
      extra={
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          presets={presets}
          disabledDate={(d, { from }) => d.isAfter(dayjs(today), 'day') || (from ? Math.abs(d.diff(from, 'day')) >= MAX_DAYS : false)}
          onChange={(next) => next?.[0] && next[1] && setPicked({ start: next[0].format(DAY), end: next[1].format(DAY) })}
          data-testid="home-chart-range"
        />
      }
    >
      {isLoading || !data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <Row gutter={[16, 16]}>
          {data.charts.map((c) => (
            <Col key={c.key} xs={24} xl={data.charts.length > 1 ? 12 : 24}>
              <div className="p8-home-chart-title">{text(c.title, language)}</div>
              <EChart option={chartOption(c, data.days, language)} height={280} data-testid={`home-chart-${c.key}`} />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}

function WarningCard({ total, items }: { total: number; items: NonNullable<ReturnType<typeof useDashboardStatistics>['data']>['warnings']['items'] }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.dashboard' });
  const language = useGlobalStore((s) => s.language);
  const navigate = useNavigate();
  const open = useOpenPaths();
  return (
    <Card
      variant="borderless"
      className="p8-home-card"
      data-testid="home-warnings"
      title={
        <span>
          <AlertOutlined className="p8-home-warning-icon" /> {t('warningTitle')} {total > 0 && <Tag color="error">{total}</Tag>}
        </span>
      }
    >
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noWarnings')} />
      ) : (
        <List
          size="small"
          className="p8-home-warnings"
          dataSource={items}
          renderItem={(w, i) => {
            const link = w.link && open.has(w.link) ? w.link : undefined;
            return (
              <List.Item key={i} className={link ? 'is-link' : undefined} onClick={link ? () => navigate(link) : undefined}>
                <Tag color="warning">{text(w.label, language)}</Tag>
                <span className="p8-home-warning-subject" title={w.subject}>
                  {w.subject}
                </span>
                <span className="p8-home-warning-detail">{w.detail}</span>
              </List.Item>
            );
          }}
        />
      )}
      {total > items.length && <div className="p8-home-warning-more">{t('moreWarnings', { count: total - items.length })}</div>}
    </Card>
  );
}

/**
 * The dashboard part of the home page: what the server's sections show the user (core/dashboard.ts on the
 * server) — number statistics per section, the daily line charts, the business overview, early warning and
 * the other sections (assets, funds…) as cards. Nothing shows for a user who may see no section.
 */
export default function Dashboard() {
  const { t } = useTranslation(undefined, { keyPrefix: 'home.dashboard' });
  const language = useGlobalStore((s) => s.language);
  const { data, isLoading } = useDashboardStatistics();
  if (isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (!data || (!data.sections.length && !data.overview.length && !data.warnings.total)) return null;
  // Order sections (with a chart) go on top; the others (assets, funds…) beside the overview and warnings.
  const top = data.sections.filter((s) => s.key === 'mall' || s.key === 'service');
  const side = data.sections.filter((s) => !top.includes(s));
  return (
    <div className="p8-home-dashboard" data-testid="home-dashboard">
      <Row gutter={[12, 12]}>
        {top.map((s) => (
          <Col key={s.key} span={24}>
            <Card variant="borderless" className="p8-home-card" title={text(s.title, language)} data-testid={`home-section-${s.key}`}>
              <Figures figures={s.figures} />
            </Card>
          </Col>
        ))}
        <Col span={24}>
          <ChartCard />
        </Col>
        {data.overview.length > 0 && (
          <Col xs={24} xl={8}>
            <Card variant="borderless" className="p8-home-card" title={t('overviewTitle')} data-testid="home-overview">
              <Figures figures={data.overview} />
            </Card>
          </Col>
        )}
        <Col xs={24} xl={8}>
          <WarningCard total={data.warnings.total} items={data.warnings.items} />
        </Col>
        {side.map((s) => (
          <Col key={s.key} xs={24} xl={8}>
            <Card variant="borderless" className="p8-home-card" title={text(s.title, language)} data-testid={`home-section-${s.key}`}>
              <Figures figures={s.figures} />
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
