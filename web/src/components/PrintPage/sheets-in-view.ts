import { useCallback, useEffect, useState } from 'react';

/**
 * Which sheets of a preview are drawn: those in its scroll box's view and one view's height above and below
 * (drawn before they scroll in). The sheets are the box's children named by `data-sheet`; the others are blank
 * sheets of their exact size (the paper's), so the box scrolls as if every page were drawn. Before the box
 * has been measured, the first two sheets of the first bill. `setBox` is the box's ref (a callback: a dialog
 * mounts its content after its own first render).
 */
const AROUND = '100% 0px';
const FIRST = ['0-0', '0-1'];

export function useSheetsInView(): { setBox: (box: HTMLElement | null) => void; drawn: (sheet: string) => boolean } {
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set(FIRST));
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
        setShown(new Set(near));
      },
      { root, rootMargin: AROUND },
    );
    // Sheets come and go with the template and the bills: observe each as it is added (again is a no-op).
    const observeAll = () => root.querySelectorAll<HTMLElement>(':scope > [data-sheet]').forEach((sheet) => observer.observe(sheet));
    observeAll();
    const added = new MutationObserver(observeAll);
    added.observe(root, { childList: true });
    return () => {
      added.disconnect();
      observer.disconnect();
    };
  }, [root]);
  const drawn = useCallback((sheet: string) => shown.has(sheet), [shown]);
  return { setBox, drawn };
}
