import { createContext, useContext, useRef } from 'react';
import { http } from '../../app/http.ts';

/**
 * Files a form uploads before it is saved. A form dialog collects what its upload fields uploaded; closed
 * without saving, it tells the server (POST /admin/upload/discard), which removes the caller's own recent
 * uploads that no record names — so a new product thrown away leaves no images behind. (What slips
 * through, a file removed from a form that was then saved, the server's daily sweep removes.)
 */
export const UploadedContext = createContext<((url: string) => void) | null>(null);

/** Tells the enclosing form (if any) of a finished upload. */
export const useTellUploaded = () => useContext(UploadedContext);

/** What a form dialog keeps: `uploaded` for its context, `saved` after a save, `discard` when closed unsaved. */
export function useFormUploads() {
  const urls = useRef<string[]>([]);
  return {
    uploaded: (url: string) => void urls.current.push(url),
    saved: () => void (urls.current = []),
    discard: () => {
      const thrown = urls.current;
      urls.current = [];
      // Best effort: a failure leaves the files to the sweep, and the user is told nothing.
      if (thrown.length) void http.post('/admin/upload/discard', { urls: thrown }, { noLoading: true, silent: true }).catch(() => {});
    },
  };
}
