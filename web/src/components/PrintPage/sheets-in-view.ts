import { useCallback, useEffect, useState } from 'react';

/**
 * Which sheets of a preview are drawn: those in its scroll box's view and one view's height above and below
 * (drawn before they scroll in). The sheets are the box's children named by `data-sheet`; the others are blank
 * sheets of their exact size (the paper's), so the box scrolls as if every page were drawn. `setBox` is the
 * box's ref (a callback: a dialog mounts its content after its own first render).
 *
 * The first two sheets of the first bill are drawn whenever nothing is known to be near the view: before the
 * box has been measured, and while the observer reports no sheet near it — which a box in view never does
 * (its view always holds a sheet), but a box not laid out yet does (a dialog opening from zero size, hidden,
 * or zooming in; a notification computed before layout). And whenever the box changes size (the dialog's
 * opening over, the window resized), every sheet is looked at afresh rather than waiting for a crossing the
 * observer might not report.
 */
const AROUND = '100% 0px';
const FIRST: ReadonlySet<string> = new Set(['0-0', '0-1']);

export function useSheetsInView(): { setBox: (box: HTMLElement | null) => void; drawn: (sheet: string) => boolean } {
  const [shown, setShown] = useState<ReadonlySet<string>>(FIRST);
  const [root, setBox] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!root) return;
    const near = new Set<string>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const sheet = (entry.target as HTMLElement).dataset.sheet;
          if (!sheet) continue;
          if (entry.isIntersecting) near.add(sheet);
          else near.delete(sheet);
        }
        setShown(near.size ? new Set(near) : FIRST);
      },
      { root, rootMargin: AROUND },
    );
    const sheets = () => root.querySelectorAll<HTMLElement>(':scope > [data-sheet]');
    // Sheets come and go with the template and the bills: observe each as it is added (again is a no-op), and
    // forget each as it goes (a sheet of the same name added later reports for itself).
    const observeAll = () => sheets().forEach((sheet) => observer.observe(sheet));
    observeAll();
    const added = new MutationObserver((records) => {
      for (const record of records)
        record.removedNodes.forEach((node) => {
          if (!(node instanceof HTMLElement) || !node.dataset.sheet) return;
          observer.unobserve(node);
          near.delete(node.dataset.sheet);
        });
      observeAll();
    });
    added.observe(root, { childList: true });
    // A new size: each sheet observed anew, which reports where every one is now.
    const measured = new ResizeObserver(() => {
      near.clear();
      sheets().forEach((sheet) => {
        observer.unobserve(sheet);
        observer.observe(sheet);
      });
    });
    measured.observe(root);
    return () => {
      measured.disconnect();
      added.disconnect();
      observer.disconnect();
    };
  }, [root]);
  const drawn = useCallback((sheet: string) => shown.has(sheet), [shown]);
  return { setBox, drawn };
}
