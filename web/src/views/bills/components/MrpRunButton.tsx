import { useEffect, useRef, useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BackgroundJobView } from '@p8/contract/system';
import { billApiPath, billButtonCode, type BillTypeDecl } from '@p8/contract/bills/registry';
import { Auth } from '../../../components/Auth/index.tsx';
import { feedback } from '../../../app/feedback.ts';
import { http } from '../../../app/http.ts';
import { translateError } from '../../../locales/index.ts';
import { showUnshown } from '../kit-errors.ts';

const POLL_MS = 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The runs this page started, by plan: a plan's form opened again follows its run where it is. */
const following = new Map<number, number>();

interface MrpRunButtonProps {
  decl: BillTypeDecl;
  id: number;
  /** Saves what the form holds first (a run plans the saved demands); resolves whether it may go on. */
  ready: () => Promise<boolean>;
  /** The run committed: the plan is read again, the list told. */
  onDone: () => void;
}

/**
 * "Run MRP" on a saved plan (its save button code): queues the run as a background job
 * (`POST /admin/production/mrp/run`), then follows it (`/admin/system/jobs/:id`) on the button — queued, then
 * the materials netted of the run's — and once it has committed says how many suggestions it made and reads
 * the plan again; a failed run shows its error. The plan's own save still runs MRP at once when it has no
 * suggestions (docs/production.md).
 */
export default function MrpRunButton({ decl, id, ready, onDone }: MrpRunButtonProps) {
  const { t } = useTranslation();
  // The run followed (one this page started for the plan, if any), and where it is.
  const [jobId, setJobId] = useState<number | undefined>(() => following.get(id));
  const [job, setJob] = useState<Pick<BackgroundJobView, 'status' | 'progress'> | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);

  useEffect(() => {
    if (jobId === undefined) return;
    let alive = true;
    following.set(id, jobId);
    const finish = () => {
      following.delete(id);
      setJobId(undefined);
      setJob(null);
    };
    void (async () => {
      while (alive) {
        let next: BackgroundJobView;
        try {
          next = await http.get<BackgroundJobView>(`/admin/system/jobs/${jobId}`, undefined, { silent: true, noLoading: true });
        } catch {
          await pause(POLL_MS);
          continue; // no answer this time: the job goes on
        }
        if (!alive) return;
        if (next.status === 'succeeded') {
          finish();
          feedback.message.success(t('bill.mrpDone', { count: (next.result as { suggestions?: number } | null)?.suggestions ?? 0 }));
          done.current();
          return;
        }
        if (next.status === 'failed') {
          finish();
          const additional = (next.result as { additional?: string } | null)?.additional;
          const key = next.errorKey ?? 'ServerError';
          feedback.message.error(additional ? `${translateError(key)}: ${additional}` : translateError(key));
          return;
        }
        setJob(next);
        await pause(POLL_MS);
      }
    })();
    return () => {
      alive = false;
    };
  }, [id, jobId, t]);

  const [asking, setAsking] = useState(false);
  const start = async () => {
    setAsking(true);
    try {
      if (!(await ready())) return;
      const queued = await http.post<{ id: number }>(`${billApiPath(decl).replace(/^\/api/, '')}/run`, { id }, { noLoading: true });
      setJobId(queued.id);
    } catch (error) {
      showUnshown(error);
    } finally {
      setAsking(false);
    }
  };

  const running = jobId !== undefined;
  const label = !running ? t('bill.mrpRun') : job?.status === 'running' && job.progress.total ? t('bill.mrpRunning', { done: job.progress.done, total: job.progress.total }) : t('bill.mrpQueued');
  return (
    <Auth code={billButtonCode(decl, 'update')}>
      <Button loading={running || asking} onClick={() => void start()} data-testid="mrp-run">
        {label}
      </Button>
    </Auth>
  );
}
