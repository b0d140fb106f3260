import { mergeAttributes, Node } from '@tiptap/react';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    video: {
      /** Inserts a video block. */
      setVideo: (options: { src: string }) => ReturnType;
    };
  }
}

/** A `<video controls>` block for uploaded mp4 files (tiptap has no video node of its own). */
export const Video = Node.create({
  name: 'video',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'video[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['video', mergeAttributes({ controls: 'true', preload: 'metadata', style: 'max-width: 100%' }, HTMLAttributes)];
  },
  addCommands() {
    return {
      setVideo:
        (options) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: options }),
    };
  },
});
