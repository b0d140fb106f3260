import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * One print job handed to the browser: the pages are mounted in a root of their own beside the app (print.css
 * prints nothing else) with the job's `@page` rules, the browser's print is called, and the root is taken away
 * again once the browser has printed (or when the caller unmounts).
 */
export function usePrintJob(): { printing: boolean; start: () => void } {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (!printing) return;
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done);
    const timer = window.setTimeout(() => window.print(), 50);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('afterprint', done);
    };
  }, [printing]);
  return { printing, start: () => setPrinting(true) };
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
