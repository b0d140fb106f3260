import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { RichTextProps } from './Editor.tsx';
import './rich-text.css';

export type { RichTextProps } from './Editor.tsx';

/** The editor's code (tiptap, ProseMirror) loads only when a screen shows one. */
const Editor = lazy(() => import('./Editor.tsx'));

/**
 * Rich-text field: toolbar with headings, bold, italic, underline, lists, link, image, video,
 * undo / redo; images and videos upload through the server; empty content is ''. `value` / `onChange`
 * make it a Form.Item control.
 */
export default function RichText(props: RichTextProps) {
  return (
    <Suspense
      fallback={
        <div className="p8-rich-text is-loading" style={{ minHeight: props.height ?? 300 }}>
          <Skeleton active paragraph={{ rows: 4 }} style={{ padding: 16 }} />
        </div>
      }
    >
      <Editor {...props} />
    </Suspense>
  );
}
