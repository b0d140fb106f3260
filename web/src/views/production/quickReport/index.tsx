import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Input, InputNumber, Result, Segmented, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined, ScanOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { billButtonCode, billMenuName } from '@p8/contract/bills/registry';
import { ProcessReport, REPORT_QUANTITIES } from '@p8/contract/bills/production';
import { BILL_STATUS_LABELS, type BillStatus } from '@p8/contract/bills/status';
import type { FloorStep } from '@p8/contract/shop-floor';
import { useAuth } from '../../../components/Auth/index.tsx';
import { errorText } from '../../../app/http.ts';
import useTenantConfig from '../../../hooks/useTenantConfig.ts';
import { useAuthStore } from '../../../stores/auth.ts';
import { useMenuStore } from '../../../stores/menu.ts';
import { useGlobalStore } from '../../../stores/global.ts';
import { getFloorSteps, getReport, reportStep, saveReport } from './api.ts';
import './quick-report.css';

const figure = (v: string | number) => String(Number(v));

/**
 * Production → quick report (快速报工, menu production_quickReport): the shop floor's tablet screen. A worker finds
 * their steps — those dispatched to them or their team (all open steps for a holder of the report screen) — by an
 * order code typed or scanned, taps one and reports good, scrapped and rework pieces and hours. The report is the
 * bill engine's: saved through its own route with its line taken from the step, so every rule of a process report
 * holds (what is reportable, a completed order, data scope, permissions); then submitted and audited as far as the
 * caller's buttons go — an audit waits for the reviewers while the report type is under joint review.
 */
export default function QuickReportPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'production.quickReport' });
  const can = useAuth();
  // Every open step takes the report screen (its menu, as the server's route checks it).
  const mayAll = useMenuStore((s) => s.flatMenuList.some((m) => m.name === billMenuName(ProcessReport)));
  const [all, setAll] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [step, setStep] = useState<FloorStep | null>(null);
  const steps = useQuery({ queryKey: ['production-floor-steps', all && mayAll, keyword], queryFn: () => getFloorSteps(all && mayAll, keyword) });

  return (
    <div className="p8-floor" data-testid="quick-report">
      <div className="p8-floor-bar">
        <Input
          size="large"
          allowClear
          autoFocus
          prefix={<ScanOutlined />}
          placeholder={t('scan')}
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            if (!e.target.value) setKeyword('');
          }}
          onPressEnter={() => setKeyword(typed.trim())}
          className="p8-floor-search"
          data-testid="quick-report-search"
        />
        {mayAll && (
          <Segmented
            size="large"
            value={all ? 'all' : 'mine'}
            onChange={(v) => setAll(v === 'all')}
            options={[
              { value: 'mine', label: t('mine') },
              { value: 'all', label: t('all') },
            ]}
            data-testid="quick-report-scope"
          />
        )}
        <Button size="large" icon={<ReloadOutlined />} onClick={() => void steps.refetch()} className="p8-floor-touch">
          {t('refresh')}
        </Button>
      </div>
      <Spin spinning={steps.isFetching}>
        {steps.data?.length ? (
          <div className="p8-floor-grid">
            {steps.data.map((s) => (
              <StepCard key={s.sourceLineId} step={s} onOpen={() => setStep(s)} />
            ))}
          </div>
        ) : (
          <Empty className="p8-floor-empty" description={all ? t('noneOpen') : t('noneMine')} />
        )}
      </Spin>
      {step && (
        <ReportPanel
          step={step}
          onClose={() => setStep(null)}
          onReported={() => void steps.refetch()}
          canAdd={can(billButtonCode(ProcessReport, 'add'))}
          canSubmit={can(billButtonCode(ProcessReport, 'submit'))}
          canAudit={can(billButtonCode(ProcessReport, 'audit'))}
        />
      )}
    </div>
  );
}

function StepCard({ step, onOpen }: { step: FloorStep; onOpen: () => void }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'production.quickReport' });
  const unit = step.unitName ?? '';
  return (
    <button type="button" className="p8-floor-card" onClick={onOpen} data-testid={`quick-report-step-${step.orderCode}-${step.stepNo}`}>
      <div className="p8-floor-card-head">
        <Typography.Text strong className="p8-floor-order">
          {step.orderCode}
        </Typography.Text>
        <Tag color="blue">{t('stepNo', { no: step.stepNo })}</Tag>
      </div>
      <div className="p8-floor-process">{step.processName}</div>
      <Typography.Text type="secondary" ellipsis>
        {step.materialCode} {step.materialName}
        {step.specification ? ` · ${step.specification}` : ''}
      </Typography.Text>
      <div className="p8-floor-figures">
        <Figure label={t('reportable')} value={`${figure(step.reportable)} ${unit}`} strong />
        <Figure label={t('good')} value={figure(step.reportedGood)} />
        <Figure label={t('scrap')} value={figure(step.reportedScrap)} />
        <Figure label={t('rework')} value={figure(step.reportedRework)} warn={Number(step.reportedRework) > 0} />
      </div>
      {step.dispatchedTo.length > 0 && (
        <Typography.Text type="secondary" ellipsis className="p8-floor-who">
          {t('dispatchedTo', { names: step.dispatchedTo.join('、') })}
          {step.planFinish ? ` · ${t('planFinish', { date: step.planFinish })}` : ''}
        </Typography.Text>
      )}
    </button>
  );
}

function Figure({ label, value, strong, warn }: { label: string; value: string; strong?: boolean; warn?: boolean }) {
  return (
    <div className="p8-floor-figure">
      <div className="p8-floor-figure-label">{label}</div>
      <div className={`p8-floor-figure-value${strong ? ' is-strong' : ''}${warn ? ' is-warn' : ''}`}>{value}</div>
    </div>
  );
}

type Entered = Record<'good' | 'scrap' | 'rework' | 'hours', number | null>;

/**
 * One step's report: good, scrap, rework and hours in big inputs, the worker (the caller, or the step's team to be
 * shared by its members' shares), and one button that saves and, as far as the caller may, submits and audits.
 */
function ReportPanel({ step, onClose, onReported, canAdd, canSubmit, canAudit }: { step: FloorStep; onClose: () => void; onReported: () => void; canAdd: boolean; canSubmit: boolean; canAudit: boolean }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'production.quickReport' });
  const lang = useGlobalStore((s) => s.language) === 'en' ? 'en' : 'zh';
  const me = useAuthStore((s) => s.userInfo);
  const { config } = useTenantConfig();
  const [entered, setEntered] = useState<Entered>({ good: null, scrap: null, rework: null, hours: null });
  const [byTeam, setByTeam] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState<{ code: string; status: string } | null>(null);
  // Under joint review the audit is the reviewers': the report stops at submitted.
  const reviewed = !!config?.openVerify && (config.openVerifyBillList ?? []).includes(ProcessReport.type);
  const nothing = !entered.good && !entered.scrap && !entered.rework;

  const report = async () => {
    setBusy(true);
    setError('');
    let id: number | undefined;
    try {
      ({ id } = await saveReport({
        billDate: dayjs().format('YYYY-MM-DD'),
        ...(step.deptId ? { deptId: step.deptId } : {}),
        lines: [
          {
            materialId: step.materialId,
            ...(step.unitId ? { unitId: step.unitId } : {}),
            [REPORT_QUANTITIES.good]: entered.good ?? 0,
            ...(entered.scrap ? { [REPORT_QUANTITIES.scrap]: entered.scrap } : {}),
            ...(entered.rework ? { [REPORT_QUANTITIES.rework]: entered.rework } : {}),
            ...(entered.hours ? { hours: entered.hours } : {}),
            processId: step.processId,
            ...(step.teamId ? { teamId: step.teamId } : {}),
            ...(byTeam || !me ? {} : { staffId: me.id }),
            unitPrice: Number(step.pieceRate),
            sourceLineId: step.sourceLineId,
          },
        ],
      }));
      if (canSubmit) await reportStep('submit', id);
      if (canSubmit && canAudit && !reviewed) await reportStep('audit', id);
    } catch (e) {
      setError(errorText(e));
    }
    if (id !== undefined) {
      const saved = await getReport(id).catch(() => undefined);
      if (saved) setDone({ code: saved.billCode, status: BILL_STATUS_LABELS[saved.billStatus as BillStatus]?.[lang] ?? saved.billStatus });
      onReported();
    }
    setBusy(false);
  };

  const input = (key: keyof Entered, label: string) => (
    <label className="p8-floor-field" data-testid={`quick-report-${key}`}>
      <span className="p8-floor-field-label">{label}</span>
      <InputNumber
        size="large"
        min={0}
        max={1e13}
        value={entered[key]}
        onChange={(v) => setEntered((was) => ({ ...was, [key]: v }))}
        inputMode="decimal"
        className="p8-floor-number"
      />
    </label>
  );

  return (
    <Drawer open onClose={onClose} placement="right" width="min(560px, 100vw)" title={`${step.orderCode} · ${step.processName}`} destroyOnHidden data-testid="quick-report-panel">
      {done ? (
        <Result
          status="success"
          title={t('reported', { code: done.code })}
          subTitle={t('reportedStatus', { status: done.status })}
          extra={[
            error ? <Alert key="error" type="warning" showIcon message={error} data-testid="quick-report-error" /> : null,
            <Button key="close" type="primary" size="large" className="p8-floor-touch" onClick={onClose} data-testid="quick-report-close">
              {t('next')}
            </Button>,
          ]}
          data-testid="quick-report-done"
        />
      ) : (
        <div className="p8-floor-panel">
          <Typography.Text type="secondary">
            {step.materialCode} {step.materialName} · {t('stepNo', { no: step.stepNo })}
          </Typography.Text>
          <div className="p8-floor-figures">
            <Figure label={t('quantity')} value={figure(step.quantity)} />
            <Figure label={t('reportable')} value={figure(step.reportable)} strong />
            <Figure label={t('rework')} value={figure(step.reportedRework)} warn={Number(step.reportedRework) > 0} />
          </div>
          <div className="p8-floor-fields">
            {input('good', t('good'))}
            {input('scrap', t('scrap'))}
            {input('rework', t('rework'))}
            {input('hours', t('hours'))}
          </div>
          <Typography.Paragraph type="secondary" className="p8-floor-hint">
            {t('reworkHint')}
          </Typography.Paragraph>
          {step.teamId !== null && (
            <Segmented
              block
              size="large"
              value={byTeam ? 'team' : 'me'}
              onChange={(v) => setByTeam(v === 'team')}
              options={[
                { value: 'me', label: t('byMe', { name: me?.realName || me?.name || '' }) },
                { value: 'team', label: t('byTeam') },
              ]}
              data-testid="quick-report-worker"
            />
          )}
          {error && <Alert type="error" showIcon message={error} data-testid="quick-report-error" />}
          {!canAdd && <Alert type="info" showIcon message={t('noPermission')} />}
          <Button type="primary" size="large" block className="p8-floor-submit" loading={busy} disabled={!canAdd || nothing} onClick={() => void report()} data-testid="quick-report-submit">
            {canSubmit && canAudit && !reviewed ? t('reportAudit') : canSubmit ? t('reportSubmit') : t('reportSave')}
          </Button>
        </div>
      )}
    </Drawer>
  );
}
