import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * Pages a print job mounts per step: a long bill's pages go in a step at a time, its progress shown meanwhile
 * (each step waits for the next frame: fewer, larger steps are faster).
 */
export const PAGES_PER_STEP = 40;

/**
 * One print job handed to the browser: the pages are mounted in a root of their own beside the app (print.css
 * prints nothing else) with the job's `@page` rules — `drawn` of `pages` so far, a step at a time, so that the
 * page stays responsive and can show how far it is —, the browser's print is called once all are in, and the
 * root is taken away again once the browser has printed (or when the caller unmounts). Without `pages`, every
 * page at once.
 */
export function usePrintJob(pages?: number): { printing: boolean; drawn: number; start: () => void } {
  const [printing, setPrinting] = useState(false);
  const [drawn, setDrawn] = useState(0);
  const all = pages === undefined || drawn >= pages;
  useEffect(() => {
    if (!printing) return;
    if (!all) {
      const step = window.setTimeout(() => setDrawn((n) => n + PAGES_PER_STEP), 0);
      return () => window.clearTimeout(step);
    }
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done);
    const timer = window.setTimeout(() => window.print(), 50);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('afterprint', done);
    };
  }, [printing, all, drawn]);
  return {
    printing,
    drawn: pages === undefined ? Infinity : Math.min(drawn, pages),
    start: () => {
      setDrawn(PAGES_PER_STEP);
      setPrinting(true);
    },
  };
}

/** The pages of a job in the print root, with their `@page` rules. */
export function PrintRoot({ css, testId, children }: { css: string; testId: string; children: ReactNode }) {
  return createPortal(
    <div className="p8-print-root" data-testid={testId}>
      <style>{css}</style>
      {children}
    </div>,
    document.body,
  );
}
