/**
 * Runs `task` `delayMs` after start and then every `intervalMs` (a run still going skips a tick), off the event
 * loop's reasons to stay alive; answers the stop function, which waits for a run in progress. The periodic
 * sweeps (finished background jobs, orphan uploads) share it.
 */
export function startPeriodic(task: () => Promise<void>, intervalMs: number, delayMs: number): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= task().finally(() => (running = null));
  };
  const first = setTimeout(run, delayMs);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
